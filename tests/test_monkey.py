"""Random keys (seeded) through the whole app: nothing crashes, every match
on screen is one the core accepts, and the saved game replays."""

from __future__ import annotations

import random

import pytest

from garito.core.match import Match
from garito.store import saves
from garito.tui.app import GarApp
from garito.tui.screens.game import GameScreen

from .helpers import (
    barras_match,
    decimus_match,
    gemelos_match,
    irwin_match,
    redman_match,
    settle,
    sync,
    willie_match,
)

TABLES = {
    "gemelos": lambda seed: gemelos_match(
        seed=seed, seats=("human", "computer", "human"), stakes="before-roll"
    ),
    "redman": lambda seed: redman_match(seed=seed, seats=("human", "computer"), bets="predictions"),
    "barras": lambda seed: barras_match(seed=seed, seats=("human", "computer", "human")),
    "irwin": lambda seed: irwin_match(seed=seed, seats=("human", "computer"), salamander_deal="on"),
    "decimus": lambda seed: decimus_match(seed=seed, seats=("human", "human"), dice=()),
    "willie": lambda seed: willie_match(seed, ("human", "computer", "human"), ("Ana", "Ramón", "Bea")),
    "menu": lambda seed: None,  # the menu, the new-game dialog, rules: whatever the keys open
}

KEYS = [
    "space",
    "enter",
    "left",
    "right",
    "up",
    "down",
    "home",
    "end",
    "escape",
    "y",
    "n",
    "question_mark",
    "f1",
    "pageup",
    "pagedown",
    "tab",
    "shift+tab",
    "x",
    "h",
    "l",
    "j",
    "k",
    "minus",
    "plus",
    "r",
    "ctrl+t",
    "ctrl+x",
    "3",
    "6",
    "1",
    "t",
    "s",
    "o",
    "2",
    "5",
    "c",
    "backspace",
    "ctrl+c",
    "ctrl+a",
    "ctrl+z",
    "f2",
    "delete",
    "p",
    "f",
    "d",
    "4",
    "a",
    "w",
    "e",
    "u",
]


async def responsive(pilot) -> None:
    """Settle, failing if the app stops answering (a frozen screen)."""
    import asyncio

    await asyncio.wait_for(settle(pilot, rounds=1), timeout=30)


@sync
async def monkey(game: str, seed: int, presses: int) -> None:
    rng = random.Random(seed)
    app = GarApp(start=TABLES[game](seed))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for i in range(presses // 3):
            if rng.random() < 0.05:
                await pilot.press(*[rng.choice(KEYS)] * 10)  # a key held down
            else:
                await pilot.press(*rng.choices(KEYS, k=3))
            if i % 10 == 0:
                await responsive(pilot)
                if rng.random() < 0.3:
                    await pilot.resize_terminal(rng.randint(20, 200), rng.randint(8, 60))
                    await responsive(pilot)
                    await pilot.resize_terminal(80, 24)
            for screen in app.screen_stack:
                if isinstance(screen, GameScreen):
                    again = Match.from_record(screen.match.to_record())
                    assert again.state == screen.match.state
        await responsive(pilot)
    found, damaged = saves.load_all()
    assert damaged == []


@pytest.mark.parametrize("game", TABLES)
def test_random_keys_never_break_the_app(game):
    monkey(game, 1, 120)


@pytest.mark.slow
@pytest.mark.parametrize("game", TABLES)
@pytest.mark.parametrize("seed", range(2, 7))
def test_random_keys_never_break_the_app_long(game, seed):
    monkey(game, seed, 900)
