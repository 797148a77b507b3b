"""Names are text, never markup, and never terminal control: for every game,
a match played to its end with names like ``[/]`` (which crashed the app as
a computer seat's name), ``[bold]x`` and ``[link=x]y``, and one holding an
escape sequence and a bell. Every screen that draws a name (the table's
prompts, scoreboard and log, the round's result, the match's end, the
history, the statistics, a replay, the menu, the hand-off) shows each name
literally, as do ``garito history``, ``stats`` and ``export --text``."""

from __future__ import annotations

import contextlib
import html
import io
import re

import pytest

from garito.core import catalog
from garito.core.match import Match, Seat
from garito.store import settings
from garito.tui import cli
from garito.tui.app import GarApp
from garito.tui.screens.game import GameScreen
from garito.tui.screens.history import HistoryScreen, StatsScreen
from garito.tui.screens.menu import MenuScreen
from garito.tui.screens.newgame import NewGameScreen
from garito.tui.screens.notices import HandOffScreen

from .helpers import box_open, box_text, match_over, settle, sync

GAMES = [g.id for g in catalog.GAMES]
# As typed, and as drawn (an escape sequence and a bell have no place on a
# terminal: they are dropped where the name comes in, the rest is text).
TYPED = ("[b]Ana", "[/]", "\x1b[31mLu\x07", "[link=x]y", "[bold]x", "[/b]")
SHOWN = ("[b]Ana", "[/]", "[31mLu", "[link=x]y", "[bold]x", "[/b]")


def screen_text(app) -> str:
    """What the terminal shows, row by row, from the app's screenshot."""
    rows: dict[float, list[str]] = {}
    for y, text in re.findall(r'<text [^>]*y="([\d.]+)"[^>]*>([^<]*)</text>', app.export_screenshot()):
        rows.setdefault(float(y), []).append(html.unescape(text).replace("\xa0", " "))
    return "\n".join("".join(parts) for _, parts in sorted(rows.items()))


def near_the_end(game: str, before: int = 4) -> tuple[Match, int]:
    """A match of ``game`` (seat 0 human, the others computers, all with
    markup names) a few moves before its end, as the bots play it."""
    rules = catalog.rules(game)
    config = rules.default_config()
    seats = tuple(
        Seat(TYPED[i], "human" if i == 0 else "computer", rules.levels[-1]) for i in range(config.players)
    )
    m = Match.start(game, config, 11, seats)
    frames = [m]
    while not rules.is_over(m.state):
        seat = rules.to_act(m.state)
        m = m.play(rules.choose(rules.view(m.state, seat), rules.legal_actions(m.state), rules.levels[-1]))
        frames.append(m)
    return frames[max(0, len(frames) - 1 - before)], config.players


async def play_on(pilot) -> list[str]:
    """Play the match to its end (the human seat playing as the bot would);
    the round results seen on the way."""
    app = pilot.app
    boxes = []
    for _ in range(200):
        await settle(pilot)
        if match_over(app):
            return boxes
        screen = app.screen
        if box_open(app):
            boxes.append(box_text(app))
            await pilot.press("space")
        elif isinstance(screen, GameScreen) and screen.human_to_act:
            rules, state = screen.rules, screen.match.state
            seat = rules.to_act(state)
            screen.play(
                screen.rules.choose(rules.view(state, seat), rules.legal_actions(state), rules.levels[-1])
            )
        else:
            await pilot.pause(0.05)
    raise AssertionError("the match did not end")


def literally(text: str, names) -> None:
    for name in names:
        assert name in text, (name, text)


def run(argv) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(argv) == 0
    return out.getvalue()


@pytest.mark.parametrize("game", GAMES)
@sync
async def test_markup_names_are_drawn_as_typed_on_every_screen(game):
    start, players = near_the_end(game)
    shown = SHOWN[:players]
    assert start.names == shown  # cleaned where the seat was made
    app = GarApp(start=start)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        literally(screen_text(app), shown[:2])  # the scoreboard at least; the log, the prompt
        boxes = await play_on(pilot)
        over = app.screen.over
        assert any(name in over.body.plain for name in shown)  # the match's end names the winner, or all
        literally(over.body.plain + screen_text(app), shown[:1])
        assert not boxes or any(name in box for box in boxes for name in shown)  # a round's result
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        app.push_screen(HistoryScreen())
        await settle(pilot)
        literally(screen_text(app), [", ".join(shown)[:20]])  # the history's row: the players, cut to 20
        await pilot.press("enter")  # replay it: the table, its names
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.frames is not None
        literally(screen_text(app), shown[:2])
        await pilot.press("end")
        await settle(pilot)
        app.pop_screen()
        app.pop_screen()
        app.push_screen(StatsScreen())
        await settle(pilot)
        literally(screen_text(app), shown)
    literally(run(["history"]), [", ".join(shown)[:12]])
    literally(run(["stats"]), shown)
    transcript = run(["export", "1", "--text"])
    literally(transcript, shown)
    assert "\x1b" not in transcript and "\x07" not in transcript


@sync
async def test_a_computer_seat_named_with_markup_in_the_dialog_plays():
    """The issue's own case: ``[/]`` typed as a computer seat's name."""
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(NewGameScreen("gemelos"))
        await settle(pilot)
        dialog = app.screen
        field = dialog.query_one("#name-1")
        field.value = "[/]"
        await settle(pilot)
        field = dialog.query_one("#name-0")
        field.value = "a\x1b[2Jb\nc"  # pasted: the escape and the newline do not stay
        await settle(pilot)
        assert field.value == "a[2Jbc"
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.match.names == ("a[2Jbc", "[/]")
        await pilot.press("space")  # a roll, and the computer's answer
        await settle(pilot)
        literally(screen_text(app), ["[/]", "a[2Jbc"])


@sync
async def test_the_hand_off_and_the_menu_draw_names_as_text():
    settings.update(player="[/]x")
    rules = catalog.rules("decimus")
    m = Match.start("decimus", rules.default_config(), 2, (Seat("[b]Ana"), Seat("[/]")))
    app = GarApp(start=m)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandOffScreen)
        literally(screen_text(app), ["Pass the keyboard to [b]Ana.", "[b]Ana is ready"])
        await pilot.press("enter")
        await settle(pilot)
        app.pop_screen()
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        literally(screen_text(app), ["Player: [/]x"])


def test_names_from_the_command_line_lose_their_control_characters():
    args = cli.build_parser().parse_args(["play", "gemelos", "--names", "\x1b[1mAna,[/]"])
    assert cli.make_match(args).names == ("[1mAna", "[/]")
    args = cli.build_parser().parse_args(["play", "gemelos", "--names", "\x07,[/]"])
    with pytest.raises(cli.UsageError, match="non-empty names"):
        cli.make_match(args)


@sync
async def test_a_notice_is_text_and_in_ascii_mode_ascii():
    app = GarApp(ascii_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.notify("[/] left: 1 ≤ minimum", title="[b]Bea")
        await pilot.pause()
        (notice,) = app._notifications
        assert (notice.message, notice.title, notice.markup) == ("[/] left: 1 <= minimum", "[b]Bea", False)
