"""Keys typed ahead, arriving in one read (a fast typist, a paste, an SSH
connection's batching), are handled in the order they were typed. A screen's
Enter is a priority binding (it must win over the focused list's or field's
own Enter, and show in the key bar); Textual runs those as the key arrives,
ahead of the arrows and letters still on their way to the focused widget,
so ↓↓↓⏎ opened the first game and a name typed with its ⏎ lost its last
letters. Pilot's ``press`` waits between keys and cannot show this: these
tests post the keys at once, as the terminal driver does."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from garito.tui.app import GarApp
from garito.tui.screens.game import GameScreen
from garito.tui.screens.menu import MenuScreen
from garito.tui.screens.newgame import NewGameScreen

from .helpers import settle, sync


def typed(app, *keys: str) -> None:
    """``keys`` as one read of the terminal delivers them: all queued
    before the app handles the first."""
    for key in keys:
        character = {"enter": "\r"}.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, character))


@sync
async def test_arrows_typed_before_enter_move_the_menu_first():
    async with GarApp(bot_delay=0).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        games = app.screen.query_one("#games")
        ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
        assert games.highlighted_option.id == ids[0] == "game:gemelos"
        typed(app, "down", "down", "down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        assert ids[3] == "game:irwin" and app.screen.info.id == "irwin"


@sync
async def test_a_name_typed_with_its_enter_is_kept_whole():
    async with GarApp(bot_delay=0).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await settle(pilot)
        await pilot.press("enter")  # Gemelos
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        name = app.screen.query_one("#name-0", Input)
        name.focus()
        name.value = ""
        await pilot.pause()
        typed(app, "B", "e", "a", "enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.match.seats[0].name == "Bea"
