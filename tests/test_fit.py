"""Full tables with the longest names still fit 80×24: nothing cut on the
game screens, the result boxes or the match's end (tests/walk.py's check)."""

from __future__ import annotations

import pytest

from garito.core import catalog
from garito.core.match import Match, Seat
from garito.tui.app import GarApp

from .helpers import match_over, settle, sync
from .walk import cuts

LONG = ("Maximilianoo", "Bartholomews", "Christophers", "Evangelinaaa", "Wilhelminaaa", "Kristoffersn")


def full_table(game: str, seed: int, **rules) -> Match:
    game_rules = catalog.rules(game)
    lo, players = game_rules.players
    if lo != players:
        rules = {"players": players, **rules}
    config = game_rules.config_type(**rules)
    seats = tuple(
        Seat(LONG[i], "human" if i == 0 else "computer", game_rules.levels[-1]) for i in range(players)
    )
    return Match.start(game, config, seed, seats)


@pytest.mark.parametrize(
    "game, rules, presses",
    [
        ("gemelos", {"stakes": "before-roll"}, ("enter", "space")),
        ("barras", {}, ("right", "enter", "space")),
        ("decimus", {}, ("enter",)),
    ],
)
def test_a_full_table_with_long_names_fits(game, rules, presses):
    @sync
    async def run():
        app = GarApp(start=full_table(game, 11, **rules))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            seen = list(cuts(app))
            for _ in range(4):  # a few rounds: the table, its result boxes
                for key in presses:
                    await pilot.press(key)
                    await settle(pilot)
                    seen += cuts(app)
                    if getattr(app.screen, "notice_open", False):
                        await pilot.press("space")
                        await settle(pilot)
            assert not seen, "\n".join(dict.fromkeys(seen))

    run()


@sync
async def test_a_six_seat_barras_session_over_fits():
    match = full_table("barras", 3)
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(3):
            await pilot.press("right", "enter")
            await settle(pilot)
            await pilot.press("space")
            await settle(pilot)
            if getattr(app.screen, "notice_open", False):
                await pilot.press("space")
                await settle(pilot)
        await pilot.press("c", "y")
        await settle(pilot)
        assert match_over(app)
        assert not cuts(app)
        assert "Seed 3" in str(app.screen.over.body)
