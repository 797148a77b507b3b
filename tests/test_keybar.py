"""The key bar offers only what works now: under a question, the
question's keys, not the table's."""

from __future__ import annotations

from garito.tui.app import GarApp
from garito.tui.screens.notices import ConfirmScreen

from .helpers import barras_match, gemelos_match, screen_lines, settle, sync


def keybar(app) -> str:
    return screen_lines(app)[-1]


@sync
async def test_the_cash_out_question_offers_yes_and_no_not_the_tables_keys():
    app = GarApp(start=barras_match(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Bet" in keybar(app) and "Sit out" in keybar(app)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        bar = keybar(app)
        assert "y Yes" in bar and "n No" in bar
        for table_key in ("Bet", "Sit out", "Odds", "Cash out", "Menu", "Rules"):
            assert table_key not in bar
        await pilot.press("n")
        await settle(pilot)
        assert "Bet" in keybar(app)


@sync
async def test_leaving_a_game_asks_with_its_own_keys():
    app = GarApp(start=gemelos_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        bar = keybar(app)
        assert "y Yes" in bar and "Roll" not in bar and "Menu" not in bar
