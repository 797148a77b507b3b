"""The app driven by keys, as a player would (Textual's Pilot)."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from garito.core import gemelos as g
from garito.core.match import Match
from garito.store import saves
from garito.store.history import History
from garito.tui.app import GarApp
from garito.tui.screens.game import GameScreen
from garito.tui.screens.menu import MenuScreen
from garito.tui.screens.newgame import NewGameScreen
from garito.tui.screens.notices import ConfirmScreen, TooSmallScreen
from garito.tui.screens.rules import RulesScreen

from .helpers import box_keys, box_open, frames_sent, gemelos_match, match_over, screen_lines, settle, sync


async def play_to_the_end(pilot, limit=200):
    """Press what a player presses until the match-over screen shows."""
    app = pilot.app
    for _ in range(limit):
        await settle(pilot)
        if match_over(app):
            return
        await pilot.press("space")
    raise AssertionError("the match did not end")


@sync
async def test_full_match_human_vs_computer_by_keys():
    app = GarApp(start=gemelos_match(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("space")  # Ana rolls 6+3, Ramón answers 7+1
        await settle(pilot)
        assert box_open(app)  # its words: test_gemelos_presenter, drawn: the round-result snapshot
        await play_to_the_end(pilot)
        assert screen.match.state.wins == (1, 3)  # the match sheet's words: test_gemelos_presenter
        # The same game, replayed from its record, has the same dice.
        again = Match.from_record(screen.match.to_record())
        assert again.state == screen.match.state
        assert not saves.save_path("gemelos").exists()  # a finished game is not "in progress"
        with History() as h:  # ... it is in the history, once
            (entry,) = h.entries()
        assert entry.players == ("Ana", "Ramón") and entry.outcome == ("loss", "win")
        assert Match.from_json(json.dumps(entry_record(entry.id))).state == screen.match.state
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)


@sync
async def test_a_rematch_opens_the_next_match_in_place_of_the_last():
    # n on the match-over box: a new match of the same game, rules and seats
    # (new dice), played on the finished one's table; the menu under it is
    # not shown and read again meanwhile. Leaving it, the menu is back.
    app = GarApp(start=gemelos_match(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = app.screen
        await play_to_the_end(pilot)
        assert app.screen is first  # the match's end is the table's own box
        menu = app.screen_stack[-2]
        assert isinstance(menu, MenuScreen)
        reloads = []
        menu.reload = lambda: reloads.append(1)  # type: ignore[method-assign]
        finished = first.match
        await pilot.press("n")
        await settle(pilot)
        screen = app.screen
        assert screen is first  # the same table, its widgets and all (test_rematch)
        assert app.screen_stack == [app.screen_stack[0], menu, screen]
        assert screen.match.config == finished.config and screen.match.seats == finished.seats
        assert screen.match.seed != finished.seed and not screen.match.actions
        assert reloads == []
        await pilot.press("escape")  # a game just begun: leaving asks first
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert app.screen is menu and reloads == [1]


@sync
async def test_at_the_match_end_only_its_keys_work():
    # The match's end is the table's own box: Space (the game's roll), Esc's
    # "leave?" question and the rules key do nothing; r is n's twin.
    app = GarApp(start=gemelos_match(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = app.screen
        await play_to_the_end(pilot)
        actions = list(first.match.actions)
        for key in ("space", "question_mark", "b", "x"):
            await pilot.press(key)
            await settle(pilot)
            assert app.screen is first and match_over(app) and list(first.match.actions) == actions
        assert "n: rematch (same seats and rules)" in box_keys(app)
        await pilot.press("r")
        await settle(pilot)
        assert app.screen is first and not match_over(app) and first.match.actions != actions


@sync
async def test_the_match_end_box_is_centred_again_when_the_terminal_is_resized():
    from garito.widgets.notice import Notice

    app = GarApp(start=gemelos_match(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_to_the_end(pilot)
        box = app.screen.query_one(Notice)
        assert (box.box.x, box.box.width) == (8, 64)
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert match_over(app) and (box.box.x, box.box.width) == (18, 64)
        assert box.box.y == (30 - box.box.height) // 2
        assert app.screen._compositor.overlay == (box, box.box)  # drawn there


def entry_record(match_id: int) -> dict:
    with History() as h:
        return h.record(match_id)


@sync
async def test_a_history_that_cannot_be_written_is_reported_and_play_goes_on(garito_home):
    (garito_home / "history.sqlite3").mkdir(parents=True)  # not a file sqlite can open
    app = GarApp(start=gemelos_match(seed=7, seats=("computer", "computer")))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_end(pilot)
        notes = [n.message for n in app._notifications]
        assert sum("history cannot be written" in m for m in notes) == 1
        assert (garito_home / "history.sqlite3").is_dir()  # left as it was


@sync
async def test_save_mid_game_restart_continue_and_finish():
    first = GarApp(start=gemelos_match(seed=11, seats=("human", "human")))
    async with first.run_test() as pilot:
        await settle(pilot)
        for key in ("space", "space", "enter", "space"):
            await pilot.press(key)
            await settle(pilot)
        played = first.screen.match
    assert len(played.actions) == 3
    saved = json.loads(saves.save_path("gemelos").read_text())
    assert saved["actions"] == ["roll", "roll", "roll"] and saved["seed"] == 11

    second = GarApp()
    async with second.run_test() as pilot:
        await settle(pilot)
        assert isinstance(second.screen, MenuScreen)
        await pilot.press("enter")  # "Continue Gemelos" comes first
        await settle(pilot)
        screen = second.screen
        assert isinstance(screen, GameScreen)
        assert screen.match.state == played.state  # same dice to come
        await play_to_the_end(pilot)
        final = screen.match
    # Continuing gave exactly the game an uninterrupted replay gives.
    direct = g.new_game(final.config, 11)
    for a in final.actions:
        direct = g.apply(direct, a)
    assert direct == final.state


@sync
async def test_a_damaged_save_is_reported_and_set_aside(garito_home):
    folder = garito_home / "saves"
    folder.mkdir(parents=True)
    (folder / "gemelos.json").write_text('{"schema": 1, "game": "gemelos", "seed": ')
    app = GarApp()
    async with app.run_test() as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        notes = [n.message for n in app._notifications]
        assert any("could not be read" in n for n in notes)
    assert not (folder / "gemelos.json").exists()
    assert (folder / "gemelos.json.corrupt").read_text().startswith('{"schema": 1')


@sync
async def test_a_save_that_does_not_replay_is_set_aside(garito_home):
    folder = garito_home / "saves"
    folder.mkdir(parents=True)
    record = gemelos_match().to_record()
    record["actions"] = ["stake 3"]  # stakes are off in this match
    (folder / "gemelos.json").write_text(json.dumps(record))
    found, damaged = saves.load_all()
    assert found == [] and len(damaged) == 1
    assert "Stakes are off" in damaged[0].reason
    assert (folder / "gemelos.json.corrupt").exists()


@sync
async def test_menu_new_game_dialog_starts_a_three_seat_game():
    app = GarApp()
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("right")  # players 2 -> 3
        await settle(pilot)
        assert app.screen.query_one("#seat-2").display
        assert not app.screen.query_one("#seat-3").display
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen if isinstance(app.screen, GameScreen) else app.screen_stack[-2]
        assert isinstance(screen, GameScreen)
        assert screen.match.config.players == 3
        assert [s.kind for s in screen.match.seats] == ["human", "computer", "computer"]


@sync
async def test_stake_chosen_by_keys():
    app = GarApp(start=gemelos_match(seed=7, stakes="before-roll"))
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("right", "right", "right", "left", "right", "enter")
        await settle(pilot)
        state = app.screen.match.state
        assert state.stakes[0] == 4 and state.chips[0] == 46
        screen = app.screen
        await pilot.press("end")  # no effect: it is time to roll, not to stake
        await settle(pilot)
        assert len(screen.match.actions) == 1
        await pilot.press("enter")  # Enter is the main action too: the roll
        await settle(pilot)
        assert [str(a) for a in screen.match.actions[:2]] == ["stake 4", "roll"]


@sync
async def test_escape_asks_before_leaving_and_the_game_stays_saved():
    app = GarApp(start=gemelos_match(seats=("human", "human")))
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("space")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("escape", "y")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
    assert json.loads(saves.save_path("gemelos").read_text())["actions"] == ["roll"]


@sync
async def test_illegal_action_is_refused_with_the_rule():
    app = GarApp(start=gemelos_match())
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.play(g.Action("stake", 5)) is False
        assert screen.match.actions == ()
        await settle(pilot)
        assert any("Stakes are off" in n.message for n in app._notifications)


@sync
async def test_wrong_keys_do_nothing_harmful():
    app = GarApp(start=gemelos_match(seats=("human", "human")))
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("x", "left", "right", "home", "end", "tab", "ctrl+x", "3", "z")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.match.actions == ()


@sync
async def test_rules_screen_opens_and_closes():
    app = GarApp(start=gemelos_match(seats=("human", "human")))
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)


@sync
async def test_too_small_terminal_shows_a_notice_and_recovers():
    app = GarApp(start=gemelos_match(seats=("human", "human")))
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press("space")  # the game underneath is untouched
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.match.actions == ()


@sync
async def test_too_small_notice_is_seen_after_a_game_was_shown():
    # A game screen brings the round-result box's styles with it: the notice
    # must not be taken for that box (moved off screen, the terminal blank).
    app = GarApp(start=gemelos_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.resize_terminal(60, 20)
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        text = "\n".join(screen_lines(app))
        assert "Garito needs a terminal of at least 80×24." in text
        assert "This one is 60×20" in text
        assert "Your game is kept as it is. ^q quits." in text
        await pilot.press("escape")  # and back to the menu: still seen there
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await pilot.press("escape", "y")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        await pilot.resize_terminal(70, 22)
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "This one is 70×22" in text
        assert "Nothing is lost. ^q quits." in text and "Your game" not in text  # no game here


@sync
async def test_first_start_in_a_small_terminal_still_asks_the_name(garito_home):
    from garito.tui.screens.profile import ProfileScreen

    (garito_home / "settings.json").unlink()
    app = GarApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)  # the notice stays on top
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
        await pilot.press(*"Ana", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert [type(s) for s in app.screen_stack].count(TooSmallScreen) == 0


@sync
async def test_a_screen_opened_while_too_small_stays_under_the_notice():
    # A dialog that opens while the terminal is small (a timer, not a key)
    # comes under the notice, and is there when the terminal grows.
    app = GarApp(start=gemelos_match())
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        app.push_screen(ConfirmScreen("Leave this game?"))
        await settle(pilot)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert not any(isinstance(s, TooSmallScreen) for s in app.screen_stack)


@sync
async def test_computer_only_table_plays_itself_to_the_end():
    app = GarApp(start=gemelos_match(seed=5, seats=("computer", "computer", "computer"), stakes="blind"))
    async with app.run_test() as pilot:
        for _ in range(300):
            await settle(pilot)
            if match_over(app):
                break
            if box_open(app):
                app.screen.action_close_notice()
        assert match_over(app)


@sync
async def test_command_palette_offers_the_games():
    app = GarApp()
    async with app.run_test() as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "New game: Gemelos" in titles and "Rules: Gemelos" in titles
        assert "Leave this game" not in titles
        new_game = next(c for c in app.get_system_commands(app.screen) if c.title == "New game: Gemelos")
        new_game.callback()
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)


@sync
async def test_new_game_dialog_shows_levels_only_where_they_matter_and_remembers_seats():
    app = GarApp()
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        dialog = app.screen
        assert dialog.query_one("#level-1").disabled  # stakes off: nothing to decide
        dialog.query_one("#var-stakes").focus()
        await pilot.press("right")
        await settle(pilot)
        assert not dialog.query_one("#level-1").disabled
        assert "Blind: everyone stakes" in str(dialog.query_one("#newgame-status").render())
        dialog.query_one("#name-0").value = "Ana"
        dialog.query_one("#kind-1").focus()
        await pilot.press("left")  # seat 2 becomes human, and its default name follows
        await settle(pilot)
        assert dialog.query_one("#name-1").value == "Player 2"
        await pilot.press("enter")
        await settle(pilot)
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert [s.name for s in game.match.seats] == ["Ana", "Player 2"]
        assert game.match.config.stakes == "blind"
    again = GarApp()
    async with again.run_test() as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")  # past "Continue", to a new Gemelos game
        await settle(pilot)
        dialog = again.screen
        assert isinstance(dialog, NewGameScreen)
        assert dialog.query_one("#name-0").value == "Ana"
        assert dialog.query_one("#kind-1").value == "human"
        assert "saves/replaced" in str(dialog.query_one("#newgame-status").render())


@sync
async def test_the_palette_offers_nothing_of_textuals_own_but_theme_and_quit():
    app = GarApp(start=gemelos_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Theme" in titles and "Quit" in titles and "Leave this game" in titles
        for textuals in ("Keys", "Maximize", "Minimize", "Screenshot"):
            assert textuals not in titles


@sync
async def test_the_palette_in_ascii_mode_is_ascii():
    app = GarApp(ascii_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"rules")
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "Rules: Gemelos" in text
        assert text.isascii(), sorted({c for c in text if ord(c) > 127})


@pytest.mark.parametrize("gap", [0.0, 0.005, 0.01])
@sync
async def test_the_palette_opened_and_closed_faster_than_it_closes_breaks_nothing(gap):
    # ctrl+p, a key, Enter, five times as fast as a client sends them: a
    # second Enter popped the menu under the palette ("Can't pop screen"), a
    # search begun as it closed found its list gone; either ended the app.
    import asyncio

    from textual import events

    from garito.tui.palette import Palette

    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(5):
            for key, character in (("ctrl+p", "\x10"), ("x", "x"), ("enter", "\r")):
                app.post_message(events.Key(key, character))
            await asyncio.sleep(gap)
        await asyncio.sleep(0.5)
        await settle(pilot)
        assert app._exception is None, app._exception
        if not app.is_running:
            return  # an Enter ran a command the palette listed before its search (Quit): a clean end
        assert any(isinstance(s, MenuScreen) for s in app.screen_stack)  # nothing under it popped
        for _ in range(4):  # a command listed may have run (the rules, a dialog): back to the menu
            if isinstance(app.screen, MenuScreen):
                break
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, Palette)  # it still opens, and closes
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, Palette)


@sync
async def test_keys_typed_together_into_a_field_are_taken_in_the_order_typed():
    # Over SSH keys typed fast come in one packet: ctrl+u, "Bea", Enter put
    # "Bea" in, then emptied the field (its bound keys went up to the app
    # first) and kept the name as it was; "abc" and Backspace deleted first.
    import asyncio

    from textual import events

    from garito.store import settings
    from garito.tui.screens.profile import ProfileScreen

    def typed(app, keys: str) -> None:
        named = {"\x15": "ctrl+u", "\r": "enter", "\x7f": "backspace"}
        for character in keys:
            app.post_message(events.Key(named.get(character, character), character))

    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("end", "up", "enter")  # Player: the name dialog
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
        typed(app, "\x15Bea\r")
        await asyncio.sleep(0.3)
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen) and settings.player() == "Bea"
        await pilot.press("enter")
        await settle(pilot)
        typed(app, "\x15Anax\x7f")
        await asyncio.sleep(0.3)
        await settle(pilot)
        assert app.screen.query_one("#player-name").value == "Ana"


def test_every_game_screen_keeps_the_keys_of_its_boxes():
    # A screen's own binding of a key replaces its base's bindings of that
    # key: each game's screen must still offer the boxes' keys (n at the
    # match's end, Escape for a result, the end and leaving).
    import importlib

    from garito.tui.games import SCREENS

    for game, where in SCREENS.items():
        module, _, name = where.partition(":")
        keys = getattr(importlib.import_module(module), name)._merge_bindings().key_to_bindings
        assert "over('rematch')" in [b.action for b in keys["n"]], game
        boxes = {"close_notice", "over('menu')", "over('lobby')", "leave"}
        assert boxes <= {b.action for b in keys["escape"]}, game


@sync
async def test_ctrl_c_says_how_to_quit_in_words_not_markup():
    # Textual's own hint read "Press [b]ctrl+q[/b] to quit the app", in English.
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+c")
        await settle(pilot)
        (note,) = list(app._notifications)
        assert (note.title, note.message, note.markup) == (
            "Do you want to quit?",
            "Press q to quit Garito.",
            False,
        )


def test_a_terminal_too_narrow_for_a_scrollbar_is_not_drawn_again_and_again():
    # At a column or two (or a row) the menu's scrollbar under the notice
    # came and went, a layout each way, and Textual drew the notice anew for
    # each: 120 frames a second, idle.
    import asyncio

    async def frames_while_idle(size) -> int:
        app = GarApp()
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, TooSmallScreen)
            frames = frames_sent(app)
            # A frame still on its way as the pilot settled (a busy machine)
            # is not the notice drawn again and again: counted from after it.
            await asyncio.sleep(0.3)
            frames.clear()
            await asyncio.sleep(0.5)  # (Pilot's pause asks for a frame of its own)
            idle = len(frames)
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
            assert not app.has_class("-too-small") and isinstance(app.screen, MenuScreen)
            return idle

    for size in ((1, 1), (2, 24), (2, 2), (40, 1)):
        assert asyncio.run(frames_while_idle(size)) == 0, size


@sync
async def test_the_menu_offers_rules_on_a_game_only():
    from garito.widgets.keybar import KeyBar

    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        menu = app.screen
        assert isinstance(menu, MenuScreen)

        def shown() -> list[str]:
            return [d for _k, _s, d in menu.query_one(KeyBar).keys]

        assert menu._selected() == "game:gemelos" and "Rules" in shown()
        await pilot.press("end")  # Quit, the last line
        await settle(pilot)
        assert menu._selected() == "quit" and "Rules" not in shown()
        await pilot.press("question_mark")  # does nothing there
        await settle(pilot)
        assert app.screen is menu


@sync
async def test_ctrl_c_says_how_to_quit_over_a_dialog_too_and_a_field_keeps_its_copy():
    # Textual leaves the app's own bindings out of a modal screen's chain:
    # over "Leave this game?" ctrl+c said nothing.
    from garito.tui.screens.notices import ConfirmScreen
    from garito.tui.screens.profile import ProfileScreen

    app = GarApp(start=gemelos_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("ctrl+c")
        await settle(pilot)
        (note,) = list(app._notifications)
        assert (note.title, note.message) == ("Do you want to quit?", "Press ^q to quit Garito.")
        assert isinstance(app.screen, ConfirmScreen)  # the dialog stays, unanswered
        # In the name field, ctrl+c is the field's own (copy): no notice.
        app.clear_notifications()
        await pilot.press("n")
        await settle(pilot)
        app.push_screen(ProfileScreen())
        await settle(pilot)
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert list(app._notifications) == []


@sync
async def test_the_computer_is_asked_once_a_move_and_for_the_match_as_it_was(monkeypatch):
    # The first turn is asked after the screen's first refresh; a roll typed
    # before it had asked the computer already, and a second thread chose
    # too: if it started after the first one's move ended the match, it
    # chose for a match with no move left (ValueError: the app stopped).
    from garito.core.session import Session

    asked: list[int] = []
    choose = Session.computer_move

    def counted(self, seat, match=None):
        asked.append(len((match or self.match).actions))
        return choose(self, seat) if match is None else choose(self, seat, match)

    monkeypatch.setattr(Session, "computer_move", counted)
    app = GarApp(start=gemelos_match(seed=7), bot_delay=0.2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.human_to_act
        await pilot.press("space")  # Ana rolls: the computer is asked
        screen.next_turn()  # and asked again, as the first turn's call comes late
        screen.next_turn()
        await settle(pilot)
        assert asked == [1]
        assert len(screen.match.actions) == 2  # it moved, once: Ana's turn again


@sync
async def test_a_computer_seat_waits_its_pace_holding_no_thread(monkeypatch):
    # A server's worker hosts many players' games: a seat that has chosen and
    # waits its pace (0.3-0.7 s) must not hold one of its threads meanwhile.
    import sys

    from garito.core.session import Session

    chosen = asyncio.Event()
    choose = Session.computer_move
    loop = asyncio.get_running_loop()

    def choosing(self, seat, match=None):
        action = choose(self, seat, match)
        loop.call_soon_threadsafe(chosen.set)
        return action

    monkeypatch.setattr(Session, "computer_move", choosing)
    app = GarApp(start=gemelos_match(seed=7), bot_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("space")  # Ana rolls: the computer chooses, then waits a minute
        await asyncio.wait_for(chosen.wait(), 10)
        await pilot.pause()  # (settle would wait the minute out)
        assert screen.thinking and len(screen.match.actions) == 1  # its move not come yet

        def choosing_or_waiting(frame) -> bool:
            while frame is not None:
                if frame.f_code.co_filename.replace("\\", "/").endswith(
                    ("screens/game.py", "core/session.py")
                ):
                    return True
                frame = frame.f_back
            return False

        main = threading.main_thread().ident
        assert [t for t, f in sys._current_frames().items() if t != main and choosing_or_waiting(f)] == []
        await pilot.press("space")  # hurry: the move comes at once
        await settle(pilot)
        assert len(screen.match.actions) == 2


@sync
async def test_the_key_bar_says_where_escape_goes():
    # A replay goes back where it was opened (History), not to the menu.
    from garito.widgets.keybar import KeyBar

    def escape(app) -> list[str]:
        return [d for k, _s, d in app.screen.query_one(KeyBar).keys if k == "escape"]

    match = gemelos_match(seed=7)
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert escape(app) == ["Menu"]
    app = GarApp(replay=match.play(g.ROLL).play(g.ROLL))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.replaying is not None
        assert escape(app) == ["Back"]


@sync
async def test_an_enter_typed_before_the_palettes_search_settles_runs_what_was_searched(monkeypatch):
    import asyncio

    from textual.command import CommandPalette

    from garito.tui.screens.rules import RulesScreen as Rules

    searched = CommandPalette._gather_commands.__wrapped__

    async def slow(self, value):  # a search as slow as on a busy server
        await asyncio.sleep(0.3)
        await searched(self, value)

    monkeypatch.setattr(CommandPalette._gather_commands, "__wrapped__", slow)
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.5)
        await pilot.press(*"rules: willie", "enter")  # Enter before the search for the last key ends
        for _ in range(40):
            if isinstance(app.screen, Rules):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, Rules) and app.screen.game == "willie"
