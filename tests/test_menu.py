"""The menu keeps its place, never wraps onto Quit, and shows every line at
80×24 however many games are saved."""

from __future__ import annotations

import pytest

from garito.store import saves
from garito.tui.app import GarApp
from garito.tui.screens.menu import MenuScreen
from garito.tui.screens.newgame import NewGameScreen

from .helpers import (
    barras_match,
    decimus_match,
    gemelos_match,
    irwin_match,
    redman_match,
    screen_lines,
    settle,
    sync,
    willie_match,
)


def save_every_game() -> None:
    for match in (
        gemelos_match(),
        redman_match(),
        barras_match(),
        irwin_match(),
        decimus_match(),
        willie_match(),
    ):
        saves.save(match)


def menu_ids(app) -> list[str]:
    games = app.screen.query_one("#games")
    return [games.get_option_at_index(i).id for i in range(games.option_count)]


def highlighted(app) -> str:
    return app.screen.query_one("#games").highlighted_option.id


@pytest.mark.parametrize("ascii_only", [False, True])
@pytest.mark.parametrize("lobby", [False, True])
def test_every_line_of_the_menu_shows_at_80x24_with_every_game_saved(monkeypatch, ascii_only, lobby):
    if lobby:  # started by `garito serve`: "Shared tables" too
        monkeypatch.setenv("GARITO_TABLES", "/nonexistent/tables.sock")
    save_every_game()

    @sync
    async def run():
        app = GarApp(ascii_only=ascii_only)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            games = app.screen.query_one("#games")
            assert games.max_scroll_y == 0  # nothing scrolled out of view
            text = "\n".join(screen_lines(app))
            for line in ("Continue Willie", "Willie", "Statistics", "History", "Player: Player 1", "Quit"):
                assert line in text
            assert ("Shared tables" in text) == lobby
            # the banner gives way, the motto stays: it says what Garito is
            assert "Garito - a parlor of dice" in text if ascii_only else "Garito · a parlor of dice" in text
            await pilot.resize_terminal(80, 40)  # room to spare: the banner is back
            await settle(pilot)
            assert app.screen.query_one("#banner").display

    run()


@sync
async def test_the_banner_shows_while_the_list_fits():
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#banner").display
        assert "a parlor of dice and cards" in "\n".join(screen_lines(app))


@sync
async def test_escape_from_the_new_game_dialog_keeps_the_menu_where_it_was():
    saves.save(gemelos_match())
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert highlighted(app) == "continue:gemelos"  # at the start: Continue
        await pilot.press("down", "down", "down")
        assert highlighted(app) == "game:barras"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert highlighted(app) == "game:barras"


@sync
async def test_up_from_the_first_line_does_not_wrap_onto_quit():
    saves.save(gemelos_match())
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("up")
        assert highlighted(app) == "continue:gemelos"
        await pilot.press("end", "down")
        assert highlighted(app) == "quit"
        await pilot.press("home", "k")
        assert highlighted(app) == "continue:gemelos"


@sync
async def test_the_key_bar_says_what_enter_does_on_each_option():
    from garito.tui.screens.history import StatsScreen
    from garito.tui.screens.profile import ProfileScreen

    saves.save(gemelos_match())
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        def enter_says() -> list[str]:
            return [d for key, _shown, d in app.screen.query_one("KeyBar").keys if key == "enter"]

        said = {}
        for _ in range(len(menu_ids(app))):
            said[highlighted(app)] = enter_says()
            await pilot.press("down")
            await settle(pilot)
        assert said["continue:gemelos"] == said["game:gemelos"] == said["game:willie"] == ["Play"]
        assert said["stats"] == said["history"] == said["player"] == ["Open"]
        assert said["quit"] == ["Quit"]
        quit_about = app.screen._about("quit")  # titled in bold, as every option's text
        assert quit_about.plain.startswith("Quit\n\n") and quit_about.spans[0].style == "bold"
        # and Enter does it
        await pilot.press("home")
        while highlighted(app) != "stats":
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("down", "down", "enter")  # History, then Player: its dialog
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
        await pilot.press("escape", "down", "enter")  # Quit
        await settle(pilot)
        assert not app.is_running


@sync
async def test_back_from_a_game_the_cursor_is_on_its_continue():
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("down", "down", "enter")  # Barras, a new game
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("escape", "y")  # left: it stays saved
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert highlighted(app) == "continue:barras"
        assert menu_ids(app)[0] == "continue:barras"


@sync
async def test_the_menu_is_whole_in_its_first_frame_and_not_laid_out_again_after_it(monkeypatch):
    """The highlighted option's text is in the menu's first frame, and
    after it neither the texts nor the list are drawn again: the list's
    highlight message and the first Resize came after that frame, and each
    laid the menu out and painted it once more."""
    from textual.widgets import Static

    from garito.tui.screens.menu import GameList

    after_first: list[str] = []
    first: list[str] = []
    display = GarApp._display

    def spy(self, screen, update):
        if isinstance(screen, MenuScreen) and not first:
            first.append(str(screen.query_one("#about", Static).render()))
        display(self, screen, update)

    update, clear = Static.update, GameList._clear_caches

    def static_update(self, *args, **kwargs):
        if first:
            after_first.append(f"update #{self.id}")
        update(self, *args, **kwargs)

    def clear_caches(self):
        if first:
            after_first.append("list drawn again")
        clear(self)

    monkeypatch.setattr(GarApp, "_display", spy)
    monkeypatch.setattr(Static, "update", static_update)
    monkeypatch.setattr(GameList, "_clear_caches", clear_caches)
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert first and first[0].startswith("Gemelos\n")
        assert after_first == []
        games = app.screen.query_one("#games", GameList)
        wide = games.scrollable_content_region.width
        await pilot.resize_terminal(100, 24)  # the list keeps its width: nothing to draw again
        await settle(pilot)
        assert after_first == []
        # A real change of the list's width (its scrollbar comes, in a short
        # terminal, under the "too small" notice) draws the options again.
        await pilot.resize_terminal(80, 14)
        await settle(pilot)
        assert "list drawn again" in after_first  # (the motto gives way too)
        narrow = games.scrollable_content_region.width
        assert narrow < wide
        assert games.render_line(0).cell_length == narrow
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert games.render_line(0).cell_length == games.scrollable_content_region.width == wide
        assert "Red Man's Throw" in "\n".join(screen_lines(app))


@pytest.mark.parametrize("first_start", [True, False])
def test_the_menu_under_the_name_dialog_is_laid_out_whole_again_when_the_terminal_grows(
    garito_home, monkeypatch, first_start
):
    # Under the name dialog (asked at the first start, or Player on the
    # menu) the menu kept a small terminal's short form, a one-line banner
    # and a short list, after the terminal was made large again.
    from garito.tui.screens.profile import ProfileScreen

    if first_start:
        (garito_home / "settings.json").unlink()
        monkeypatch.delenv("GARITO_PLAYER", raising=False)

    @sync
    async def run():
        app = GarApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            if not first_start:
                app.push_screen(ProfileScreen())
                await settle(pilot)
            assert isinstance(app.screen, ProfileScreen)
            menu = next(s for s in app.screen_stack if isinstance(s, MenuScreen))
            await pilot.resize_terminal(80, 14)
            await settle(pilot)
            assert menu.has_class("-bare")
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
            assert isinstance(app.screen, ProfileScreen)
            assert not menu.has_class("-bare")
            assert menu.query_one("#banner").display
            await pilot.press("escape")
            await settle(pilot)
            assert "a parlor of dice and cards" in "\n".join(screen_lines(app))

    run()
