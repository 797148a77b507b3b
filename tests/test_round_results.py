"""Behind a round's result box the table shows the round that ended, as
Decimus does; the next round shows when the box closes."""

from __future__ import annotations

from garito.tui.app import GarApp

from .helpers import barras_match, box_open, box_text, gemelos_match, screen_lines, settle, sync


def table_text(app) -> str:
    return "\n".join(screen_lines(app))


@sync
async def test_gemelos_shows_the_round_that_ended_behind_its_result():
    app = GarApp(start=gemelos_match(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("space")  # Ana 6+3, Ramón answers 7+1: Ana wins round 1
        await settle(pilot)
        assert box_open(app) and "Ana wins the round" in box_text(app)
        screen = app.screen
        assert screen.heading.startswith("Gemelos — round 1 ")
        rolls = {row.name: row.cells[1] for row in screen.rows}
        assert rolls == {"Ana": "6+3=9", "Ramón": "7+1=8"}
        assert [row.name for row in screen.rows if row.lead] == ["Ana"]
        assert not any(row.turn for row in screen.rows)
        assert "Round 2" not in table_text(app)  # the log stops at the round's end
        await pilot.press("space")
        await settle(pilot)
        assert not box_open(app)
        assert screen.heading.startswith("Gemelos — round 2 ")
        assert "Round 2: Ramón rolls first." in table_text(app)


@sync
async def test_barras_shows_the_round_that_ended_behind_its_result():
    app = GarApp(start=barras_match(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("right", "right", "right", "right", "enter", "space")
        await settle(pilot)
        assert box_open(app) and "The bar: 39" in box_text(app)
        screen = app.screen
        assert "round 1 — bar 39" in screen.heading
        assert screen.caption.startswith("Bar 39")
        cells = {row.name: row.cells for row in screen.rows}
        assert cells["Ana"][1].strip() == "5" and cells["Ana"][2].startswith("82")
        assert not any(row.turn for row in screen.rows)
        assert "bar 79" not in table_text(app) and "Round 2" not in table_text(app)
        await pilot.press("space")
        await settle(pilot)
        assert "round 2 — bar 79" in screen.heading
