"""A rematch is played on the finished match's own screen
(``GameScreen.restart``): what it shows and what it holds are what a new
screen opened on the same match shows and holds, in every game, whatever
was under way when it restarted (picks, a result box, a computer thinking,
the log scrolled back)."""

from __future__ import annotations

import asyncio
import threading
from collections import deque

import pytest
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget

from garito.core.match import Match
from garito.core.session import Session
from garito.tui.app import GarApp
from garito.tui.screens.game import GameScreen

from .helpers import (
    barras_match,
    box_open,
    decimus_match,
    gemelos_match,
    irwin_match,
    match_over,
    redman_match,
    settle,
    sync,
    willie_match,
)
from .terminal import drawn_whole

# game: (its match, keys that leave something under way)
GAMES = {
    "gemelos": (gemelos_match, ["space", "space", "right", "space"]),
    "redman": (redman_match, ["space", "right", "3", "space", "pageup"]),
    "barras": (barras_match, ["o", "right", "space", "space"]),
    "irwin": (irwin_match, ["down", "enter", "enter", "down"]),
    "decimus": (lambda: decimus_match(dice=()), ["enter", "1", "3", "enter", "2"]),
    "willie": (willie_match, ["enter", "d", "right", "space", "tab"]),
}


def held(screen: GameScreen) -> dict[str, object]:
    """What a game screen holds of its own (its state and its bound
    values, not Textual's nor its widgets'): matches by what they are,
    timers and threads by whether they run."""
    textuals = set(vars(Screen())) | {"_message_queue", "_mounted_event"}  # made as it runs
    values = set(type(screen)._reactives) - set(Screen._reactives)
    out: dict[str, object] = {}
    for name, value in vars(screen).items():
        if name.startswith("_reactive_") and name.removeprefix("_reactive_") in values:
            out[name] = _value(value)
        elif name not in textuals and not name.startswith(("_reactive_", "_Screen", "_Widget", "__")):
            out[name] = _value(value)
    return out


def _value(value: object) -> object:
    if isinstance(value, Session):
        return ("session", _value(value.match), tuple(value.here), value.moves)
    if isinstance(value, Match):
        return ("match", value.game, value.config, value.seed, tuple(value.actions), value.names)
    if isinstance(value, (threading.Event, asyncio.Event)):
        return ("event", value.is_set())
    if isinstance(value, (Timer, Widget)) or callable(value):
        return type(value).__name__
    if isinstance(value, deque):
        return ("deque", list(value))
    return value


async def _screen_of(app) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


@pytest.mark.parametrize("game", GAMES)
@sync
async def test_a_restarted_screen_is_a_new_screen_for_its_match(game):
    make, keys = GAMES[game]
    first = make()
    again = Match.start(first.game, first.config, 4242, first.seats)
    app = GarApp(start=first)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _screen_of(app)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        screen.restart(again)
        await settle(pilot)
        assert app.screen is screen
        restarted, restarted_held = drawn_whole(screen), held(screen)
    fresh = GarApp(start=again)
    async with fresh.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        new = await _screen_of(fresh)
        assert restarted.differences(drawn_whole(new)) == []
        assert restarted_held == held(new)


@sync
async def test_a_rematch_while_the_computer_thinks_and_a_box_opens_is_clean():
    # Restarted as the computer's move and the round's box are on their way:
    # neither comes to the new match.
    app = GarApp(start=gemelos_match(seed=7), bot_delay=0.2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _screen_of(app)
        await pilot.press("space")  # Ana rolls; the computer thinks 0.2 s, then the box comes
        again = Match.start("gemelos", screen.match.config, 99, screen.match.seats)
        screen.restart(again)
        await pilot.pause(0.6)
        await settle(pilot)
        assert not box_open(app) and not match_over(app)
        assert screen.match.seed == 99 and len(screen.match.actions) <= 1  # Ana's, not the old computer's


def test_every_game_is_checked():
    from garito.core import catalog

    assert set(GAMES) == {info.id for info in catalog.GAMES}
