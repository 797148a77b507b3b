"""Widgets on their own: what they draw, and what they repaint."""

from __future__ import annotations

from textual.app import App, ComposeResult

from garito.widgets.dice import Die, face_lines
from garito.widgets.gamelog import GameLog
from garito.widgets.scoreboard import Scoreboard, SeatRow

from .helpers import sync


class Host(App):
    def compose(self) -> ComposeResult:
        yield GameLog()
        yield Scoreboard()


def capture_refreshes(widget, calls):
    original = widget.refresh

    def refresh(*regions, **kwargs):
        calls.append(regions)
        return original(*regions, **kwargs)

    widget.refresh = refresh


@sync
async def test_a_new_log_line_repaints_only_its_row():
    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(GameLog)
        log.tell(["one", "two"])
        await pilot.pause()
        calls = []
        capture_refreshes(log, calls)
        log.tell(["one", "two", "three"])
        await pilot.pause()
        assert calls and all(len(c) == 1 for c in calls)
        assert [c[0].y for c in calls] == [2]
        assert str(log.render()).splitlines() == ["one", "two", "three"]


@sync
async def test_a_scrolling_log_repaints_the_rows_that_moved():
    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(GameLog)
        lines = [f"line {i}" for i in range(30)]
        log.tell(lines)
        await pilot.pause()
        calls = []
        capture_refreshes(log, calls)
        log.tell(lines + ["line 30"])
        await pilot.pause()
        height = log.content_size.height
        assert sorted(r.y for c in calls for r in c) == list(range(height))
        assert str(log.render()).splitlines()[-1] == "line 30"


@sync
async def test_a_score_change_repaints_one_row():
    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        board = app.query_one(Scoreboard)
        board.columns = ("Wins",)
        board.rows = (SeatRow("Ana", ("0",)), SeatRow("Bea", ("0",)))
        await pilot.pause()
        calls = []
        capture_refreshes(board, calls)
        board.rows = (SeatRow("Ana", ("0",)), SeatRow("Bea", ("1",)))
        await pilot.pause()
        assert [r.y for c in calls for r in c] == [2]


def test_log_wraps_with_a_hanging_indent():
    log = GameLog()
    log.set_reactive(GameLog.lines, ("Ramón rolls 8+6 = 14 and takes the lead from Ana",))
    assert log._rows(20) == ["Ramón rolls 8+6 = 14", "  and takes the lead", "  from Ana"]


def test_dice_faces_are_rectangular_in_both_alphabets():
    for ascii_only in (False, True):
        for die in (Die(8, 8), Die(0, 8), Die(6, 6), Die(1, 6), Die(7, 10)):
            lines = face_lines(die, ascii_only)
            assert len({len(line) for line in lines}) == 1
            if ascii_only:
                assert all(line.isascii() for line in lines)
