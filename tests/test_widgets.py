"""Widgets on their own: what they draw, and what they repaint."""

from __future__ import annotations

import random

import pytest
from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget

from garito.widgets import lean
from garito.widgets.cards import NO_CURSOR, Face, Hand, MeldTable
from garito.widgets.dice import DiceTray, Die, face_lines
from garito.widgets.gamelog import GameLog
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.notice import Notice
from garito.widgets.scoreboard import Scoreboard, SeatRow
from garito.widgets.text import pad, styled

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
async def test_a_log_paged_all_the_way_back_shows_its_first_line():
    # It stopped a row short: the first line of a match was never seen.
    from garito.core import i18n

    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(GameLog)
        log.tell([f"line {i}" for i in range(30)])
        await pilot.pause()
        for _ in range(20):
            log.page(1)  # back, as PageUp
        await pilot.pause()
        height = log.content_size.height
        shown = str(log.render()).splitlines()
        assert shown[0] == "line 0" and len(shown) == height
        assert shown[-1] == f"… {30 - height + 1} newer (PgDn)"
        i18n.set_default("es")
        try:
            log.page(-1)
            log.page(1)  # drawn again, in Spanish
            await pilot.pause()
            assert str(log.render()).splitlines()[-1] == f"… {30 - height + 1} más nuevas (PgDn)"
        finally:
            i18n.set_default(i18n.ENGLISH)


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


def test_a_log_that_keeps_only_its_last_lines_shows_the_newest():
    log = GameLog()
    log.tell(["Nobody has said a word yet."])
    assert log._rows(40) == ["Nobody has said a word yet."]
    log.tell(["ana: hola"])  # another story, as long
    assert log._rows(40) == ["ana: hola"]
    log.tell(["ana: hola", "bea: buenas", "ana: ¿otra?"])
    log.tell(["bea: buenas", "ana: ¿otra?", "bea: vale"])  # the window of the last three moves on
    assert log._rows(40) == ["bea: buenas", "ana: ¿otra?", "bea: vale"]


def test_dice_faces_are_rectangular_in_both_alphabets():
    for ascii_only in (False, True):
        for die in (Die(8, 8), Die(0, 8), Die(6, 6), Die(1, 6), Die(7, 10)):
            lines = face_lines(die, ascii_only)
            assert len({len(line) for line in lines}) == 1
            if ascii_only:
                assert all(line.isascii() for line in lines)


# ---------------------------------------------------------------- cards


class CardHost(App):
    CSS = "MeldTable { height: 8; } Hand { width: 30; }"

    def compose(self) -> ComposeResult:
        yield MeldTable()
        yield Hand()


def fresh(widget) -> list[list[tuple]]:
    """The widget drawn anew, as a terminal would show it: each row its
    cells' (character, style). Without the style's meta: Textual marks each
    segment with where it starts, for clicks; a terminal never sees it."""
    width, height = widget.size
    style = widget.visual_style.rich_style
    strips = Visual.to_strips(widget, widget._render(), width, height, widget.visual_style)
    strips = [s.crop_extend(0, width, style) for s in strips]
    strips += [Strip.blank(width, style)] * (height - len(strips))
    return [
        [(ch, seg.style and seg.style.clear_meta_and_links()) for seg in strip for ch in seg.text]
        for strip in strips
    ]


class Terminal:
    """What a terminal shows of one widget when, after each change, only the
    regions the widget asked to repaint are drawn anew (all of it when it
    asked for a whole repaint)."""

    def __init__(self, widget) -> None:
        self.widget = widget
        self.cells = fresh(widget)
        self.asked: list[tuple] = []
        capture_refreshes(widget, self.asked)

    def stale(self) -> list[tuple[int, int]]:
        """After a change: the cells (row, column) that differ from the widget
        drawn anew."""
        now = fresh(self.widget)
        resized = [len(row) for row in now] != [len(row) for row in self.cells]
        if resized or any(not regions for regions in self.asked):
            self.cells = [list(row) for row in now]  # a new size is laid out and drawn whole
        for region in (r for regions in self.asked for r in regions):
            for y in range(region.y, min(region.bottom, len(now))):
                for x in range(region.x, min(region.right, len(now[y]))):
                    self.cells[y][x] = now[y][x]
        self.asked.clear()
        return [(y, x) for y, row in enumerate(now) for x, cell in enumerate(row) if self.cells[y][x] != cell]


def faces(text: str, picked=()) -> tuple[Face, ...]:
    return tuple(Face(c, "red", i in picked) for i, c in enumerate(text.split()))


@sync
async def test_a_meld_that_grows_past_its_row_leaves_no_cursor_behind():
    # The cursor's block takes the card's margins; when the meld grew and
    # the melds wrapped anew, the repaint stopped at the row's last letter
    # and left the block's last cell on screen.
    app = CardHost()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(MeldTable)
        melds = tuple(faces(m) for m in ("2r 3r 4r", "5o 5g 5b", "7y 8y 9y", "9r 9o 9b", "10g 10b 10r"))
        table.melds, table.cursor, table.slot = melds, (2, 2), "+ new meld"
        await pilot.pause()
        screen = Terminal(table)
        table.melds = melds[:2] + (faces("7y 8y 9y 10y"),) + melds[3:]
        table.cursor = (2, 3)
        await pilot.pause()
        assert screen.stale() == []
        table.cursor = (4, 1)
        await pilot.pause()
        assert screen.stale() == []


@sync
async def test_the_cards_leave_nothing_stale_on_screen_whatever_changes():
    cards = [f"{r}{s}" for s in "roygb" for r in range(2, 11)]
    app = CardHost()
    async with app.run_test(size=(60, 20)) as pilot:
        table, hand = app.query_one(MeldTable), app.query_one(Hand)
        table.slot = "+ new meld"
        await pilot.pause()
        screens = Terminal(table), Terminal(hand)
        for seed in range(3):
            rng = random.Random(seed)
            melds = [rng.sample(cards, rng.randint(3, 5)) for _ in range(rng.randint(2, 7))]
            held = rng.sample(cards, rng.randint(3, 10))
            picked: set[tuple[int, int]] = set()
            for _ in range(25):
                roll, grow = rng.random(), rng.random() < 0.5
                m = rng.randrange(len(melds))
                if roll < 0.3 and (grow or len(melds[m]) > 1):
                    if grow:
                        melds[m].append(rng.choice(cards))
                    else:
                        melds[m].pop()
                elif roll < 0.4 and (grow or len(melds) > 1):
                    if grow:
                        melds.append(rng.sample(cards, 3))
                    else:
                        melds.pop(m)
                elif roll < 0.6:
                    picked ^= {(m, rng.randrange(len(melds[m])))}
                elif roll < 0.75 and (grow or len(held) > 1):
                    if grow:
                        held.append(rng.choice(cards))
                    else:
                        held.pop()
                at = rng.randrange(len(melds) + 1)
                table.melds = tuple(
                    tuple(Face(c, "red", (i, j) in picked, rng.random() < 0.1) for j, c in enumerate(cs))
                    for i, cs in enumerate(melds)
                )
                table.cursor = (at, rng.randrange(len(melds[at])) if at < len(melds) else 0)
                if rng.random() < 0.3:
                    table.cursor = NO_CURSOR
                hand.cards = tuple(Face(c, "blue", rng.random() < 0.2) for c in held)
                hand.cursor = rng.randrange(len(held)) if rng.random() < 0.5 else -1
                await pilot.pause()
                assert [s.stale() for s in screens] == [[], []]


class LineHost(App):
    CSS = "Line { width: 30; } Scoreboard { width: 30; }"

    def compose(self) -> ComposeResult:
        yield Line()
        yield Scoreboard()


@sync
async def test_a_count_that_changes_repaints_the_count_not_the_caption():
    # Willie's hand caption after a draw: only the cells that changed are
    # asked for, so the unchanged words and the dim caption are not sent.
    app = LineHost()
    async with app.run_test(size=(60, 10)) as pilot:
        line = app.query_one(Line)
        line.text = styled("13 cards, 24 pts [dim](by suit)[/dim]")
        await pilot.pause()
        calls: list[tuple] = []
        capture_refreshes(line, calls)
        line.text = styled("14 cards, 25 pts [dim](by suit)[/dim]")
        await pilot.pause()
        assert [(r.y, r.x, r.right) for c in calls for r in c] == [(0, 1, 12)]
        calls.clear()
        line.text = styled("14 cards, 25 pts [b](by suit)[/b]")  # a style alone
        await pilot.pause()
        assert [(r.y, r.x, r.right) for c in calls for r in c] == [(0, 17, 26)]
        calls.clear()
        line.text = styled("9 cards, 25 pts [b](by suit)[/b]")  # shorter: to the old end
        await pilot.pause()
        assert [(r.y, r.x, r.right) for c in calls for r in c] == [(0, 0, 26)]
        line.text = "ab x"
        await pilot.pause()
        calls.clear()
        line.text = "漢字 x"  # as many characters, wider: the " x" moved
        await pilot.pause()
        assert [(r.y, r.x, r.right) for c in calls for r in c] == [(0, 0, 6)]


@sync
async def test_lines_and_scores_leave_nothing_stale_on_screen_whatever_changes():
    words = ["a", "Ana", "13", "9", "10", "cards", "漢字", "ñú", "—", "points", "(s: by rank)", ""]
    looks = ["", "b", "dim", "i", "reverse"]
    app = LineHost()
    async with app.run_test(size=(60, 10)) as pilot:
        line, board = app.query_one(Line), app.query_one(Scoreboard)
        board.columns = ("Pts", "Won")
        await pilot.pause()
        screens = Terminal(line), Terminal(board)
        rng = random.Random(22)
        for _ in range(150):
            text = Text()
            for _w in range(rng.randint(0, 12)):
                text.append(rng.choice(words), rng.choice(looks))
                text.append(" ")
            line.text = text if rng.random() < 0.8 else text.plain
            board.rows = tuple(
                SeatRow(
                    rng.choice(["Ana", "Bea", "漢字", "Ramón"]),
                    (str(rng.choice([0, 7, 12, 100])), str(rng.randint(0, 9))),
                    turn=rng.random() < 0.3,
                    lead=rng.random() < 0.3,
                )
                for _s in range(rng.randint(1, 4))
            )
            await pilot.pause()
            assert [s.stale() for s in screens] == [[], []]


# ---------------------------------------------------------------- key bar


class Busy(App):
    """A screen with more keys than a line holds, and its menu, rules and
    quit listed last, as a game screen lists them."""

    BINDINGS = [
        ("space", "press('pick')", "Pick"),
        ("enter", "press('move')", "Move here"),
        ("e", "press('end')", "End turn"),
        ("d", "press('draw')", "Draw"),
        ("w", "press('wild')", "Wild"),
        ("u", "press('undo')", "Undo"),
        ("r", "press('reset')", "Reset"),
        ("a", "press('arrange')", "Arrange"),
        ("h", "press('hint')", "Hint"),
        ("escape", "press('leave')", "Menu"),
        ("question_mark", "press('rules')", "Rules"),
        ("ctrl+x", "press('quit')", "Quit"),
    ]
    pressed: list[str] = []

    def compose(self) -> ComposeResult:
        yield KeyBar()

    def on_mount(self) -> None:
        self.screen.KEYBAR_LAST = ("press('leave')", "press('rules')", "press('quit')")

    def action_press(self, what: str) -> None:
        self.pressed.append(what)


@sync
async def test_a_full_key_bar_lets_the_screens_last_keys_give_way_not_menu_rules_quit():
    for width, shown in (
        (140, "d Draw  w Wild  u Undo  r Reset  a Arrange  h Hint  esc Menu  ? Rules  ^x Quit"),
        (80, "space Pick  ⏎ Move here  e End turn  d Draw  …  esc Menu  ? Rules  ^x Quit"),
        (60, "space Pick  ⏎ Move here  …  esc Menu  ? Rules  ^x Quit"),
    ):
        app = Busy()
        async with app.run_test(size=(width, 5)) as pilot:
            await pilot.pause()
            bar = app.query_one(KeyBar)
            line = bar.render().plain
            assert line.rstrip().endswith(shown) and len(line) <= width
            if width == 80:
                await pilot.click(KeyBar, offset=(line.index("Draw"), 0))  # clicks follow what is shown
                await pilot.click(KeyBar, offset=(line.index("Rules"), 0))
                assert app.pressed[-2:] == ["draw", "rules"]


# ---------------------------------------------------------------- kept looks


class LooksHost(App):
    CSS = "GameLog { height: 6; } Line { width: 30; }"

    def compose(self) -> ComposeResult:
        yield GameLog()
        yield Scoreboard()
        yield DiceTray()
        yield Line()
        yield KeyBar()


def _cells(strips: list[Strip]) -> list[list[tuple]]:
    return [[(seg.text, seg.style) for seg in strip] for strip in strips]


@sync
async def test_a_look_that_comes_back_draws_what_textual_draws_anew():
    # The widgets keep the lines of their last few looks (widgets.looks);
    # whatever the order of changes, what they hand the screen is what
    # Textual draws when nothing is kept.
    from textual.geometry import Region

    rng = random.Random(3)
    logs = [tuple(f"line {i}: {'word ' * (i % 4)}" for i in range(n)) for n in (0, 3, 7, 12)]
    rows = [
        (SeatRow("Ana", ("1",), turn=True), SeatRow("Bea", ("0",))),
        (SeatRow("Ana", ("1",)), SeatRow("Bea", ("2",), lead=True)),
    ]
    dice = [(Die(3, 6), Die(5, 6)), (Die(3, 6, "win"), Die(0, 6)), (Die(6, 6, "dim"), Die(1, 6))]
    texts = ["Ana: press Space.", "Bea is rolling, and this prompt wraps onto a second row.", ""]
    keys = [(("space", "Space", "Roll"),), (("space", "Space", "Hurry"), ("escape", "Esc", "Menu"))]
    app = LooksHost()
    async with app.run_test(size=(60, 24)) as pilot:
        log, board, tray, line, bar = (
            app.query_one(GameLog),
            app.query_one(Scoreboard),
            app.query_one(DiceTray),
            app.query_one(Line),
            app.query_one(KeyBar),
        )
        board.columns = ("Wins",)
        for _ in range(40):
            log.tell(rng.choice(logs))
            board.rows = rng.choice(rows)
            tray.dice, tray.caption = rng.choice(dice), rng.choice(["", "Ana: 3+5"])
            line.text = rng.choice(texts)
            bar.keys = rng.choice(keys)
            await pilot.pause()
            for widget in (log, board, tray, line, bar):
                region = Region(0, 0, *widget.size)
                kept = _cells(widget.render_lines(region))
                widget.refresh()  # drawn anew, nothing kept
                assert kept == _cells(Widget.render_lines(widget, region)), type(widget).__name__


class PlainHost(App):
    CSS = """
    GameLog { height: 6; } Line { width: 30; }
    #padded { padding: 0 1; } #padded-left { padding: 0 0 0 3; }
    #padded-round { padding: 1 1; } #bordered { border: round red; height: 4; }
    """

    def __init__(self, ascii_only: bool) -> None:
        super().__init__()
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        from garito.widgets.cards import Hand
        from garito.widgets.chart import Chart
        from garito.widgets.stake import StakeBar

        yield GameLog()
        yield Scoreboard()
        yield DiceTray()
        yield Line(id="plain-line")
        yield Line(id="padded")
        yield Line(id="padded-left")
        yield Line(id="padded-round")
        yield Line(id="bordered")
        yield StakeBar("Stake")
        yield Hand()
        yield Chart()
        yield KeyBar()

    def get_line_filters(self):
        from garito.tui.app import AsciiFilter

        return [*super().get_line_filters(), AsciiFilter()] if self.ascii_only else super().get_line_filters()


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "ansi-dark", "monokai"])
@sync
async def test_plain_lines_are_textuals_own_lines(theme):
    # A widget with nothing around its text draws its lines without
    # Textual's styling pass (widgets.plain): the same segments, in every
    # theme, filtered (ASCII) or not, whole or cropped, padded at its sides
    # or not; one with padding above or below, or a border, is drawn by the pass.
    from garito.widgets.cards import Hand
    from garito.widgets.chart import Chart
    from garito.widgets.plain import PlainLines, plain
    from garito.widgets.stake import StakeBar

    for ascii_only in (False, True):
        app = PlainHost(ascii_only)
        async with app.run_test(size=(60, 40)) as pilot:
            app.theme = theme
            app.query_one(GameLog).tell(["Ana rolls 6+6 = 12, twins of 6.", "張偉 leads.", "Bea: 3+4 = 7"])
            app.query_one(Scoreboard).columns = ("Wins",)
            app.query_one(Scoreboard).rows = (
                SeatRow("Ana", ("1",), turn=True),
                SeatRow("張偉", ("2",), lead=True),
            )
            app.query_one(DiceTray).dice = (Die(6, 6, "win"), Die(0, 6), Die(3, 8, "dim"))
            for line in app.query(Line):
                line.text = styled("[b]$name[/b], your roll: press Space ≤ 2.", name="Ana")
            stake = app.query_one(StakeBar)
            stake.amount, stake.low, stake.high, stake.note, stake.active = 5, 1, 10, "52.3% to win", True
            app.query_one(Hand).cards = faces("7r J 10b")
            app.query_one(Chart).series, app.query_one(Chart).labels = (
                ((10, 12, 9), (10, 8, 14)),
                ("Ana", "Bea"),
            )
            app.query_one(KeyBar).keys = (("space", "Space", "Roll"), ("escape", "Esc", "Menu"))
            await pilot.pause()
            widgets = [w for w in app.screen.walk_children() if isinstance(w, PlainLines)]
            assert {type(w) for w in widgets} >= {
                GameLog,
                Scoreboard,
                DiceTray,
                Line,
                StakeBar,
                Hand,
                Chart,
                KeyBar,
            }
            assert plain(app.query_one("#padded")) and plain(app.query_one("#padded-left"))
            assert not plain(app.query_one("#padded-round")) and not plain(app.query_one("#bordered"))
            for widget in widgets:
                width, height = widget.size
                for region in (Region(0, 0, width, height), Region(2, 0, max(1, width - 5), height)):
                    drawn = _cells(PlainLines.render_lines(widget, region))
                    widget._styles_cache.clear()  # Textual's pass, nothing of it kept
                    assert drawn == _cells(Widget.render_lines(widget, region)), (
                        type(widget).__name__,
                        region,
                    )


@sync
async def test_the_stake_bar_drawn_from_a_kept_look_is_textuals_drawing_of_it():
    # The bar comes and goes with the turn at the same amount and limits: a
    # look drawn before is kept (widgets.looks). Every value it is drawn from
    # is in its look: each change draws it anew, and a look come back is
    # what Textual draws for it.
    from garito.widgets.stake import StakeBar

    app = PlainHost(False)
    async with app.run_test(size=(60, 40)) as pilot:
        stake = app.query_one(StakeBar)
        region = Region(0, 0, *stake.size)
        changes = [
            {"active": True, "amount": 5, "low": 1, "high": 10, "note": "52.3% to win"},
            {"amount": 6},
            {"low": 2},
            {"high": 9},
            {"note": "40.0% to win"},
            {"label": "Raise by", "amount": 7},
            {"active": False},
            {"active": True},
            {"label": "Stake", "amount": 5, "low": 1, "high": 10, "note": "52.3% to win"},
        ]
        drawn = []
        for change in changes:
            for name, value in change.items():
                setattr(stake, name, value)
            await pilot.pause()
            mine = _cells(stake.render_lines(region))
            stake._styles_cache.clear()
            assert mine == _cells(Widget.render_lines(stake, region)), change
            drawn.append(mine)
        assert len({repr(d) for d in drawn[:7]}) == 7  # each change drew something new
        assert drawn[-1] == drawn[0]  # and the first look, come back, is drawn as it was


@sync
async def test_the_key_bar_hears_a_burst_of_binding_changes_and_reads_the_keys_once():
    # A move changes the screen's bindings three or four times in one
    # handler: the bar hears each at once and reads the keys once, after it,
    # woken once (posted to the bar, each hearing was a wake of its own).
    app = PlainHost(False)
    async with app.run_test(size=(60, 40)) as pilot:
        await pilot.pause()
        bar = app.query_one(KeyBar)
        reads: list[int] = []
        read = bar._read_keys
        bar._read_keys = lambda: (reads.append(1), read())[1]  # type: ignore[method-assign]
        woken: list[str] = []
        bar.message_signal.subscribe(bar, lambda m: woken.append(type(m).__name__), immediate=True)
        for _ in range(4):
            app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert reads == [1]
        assert woken.count("Prompt") == 1  # (the pilot's pauses post callbacks of their own)


class NoticeHost(App):
    CSS = ".-ascii Notice { border: ascii $primary; }"  # as garito.tcss has it

    def __init__(self, ascii_only: bool = False) -> None:
        lean.apply()  # the row compositor, as the app has it
        super().__init__()
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        yield Notice()


@sync
async def test_a_result_box_opens_and_closes_without_a_layout_at_its_size_and_place():
    # Drawn over the screen by its compositor after the screen's next
    # refresh, centred at the height of its text; closed, what was under it.
    app = NoticeHost()
    async with app.run_test(size=(80, 24)) as pilot:
        notice = app.query_one(Notice)
        await pilot.pause()  # the first frame's layouts
        layouts = []
        original = app.screen._refresh_layout
        app.screen._refresh_layout = lambda *a, **k: (layouts.append(1), original(*a, **k))[1]
        compositor = app.screen._compositor
        for body in ("one line", "a\nb\nc\nd\ne\nf", "x\ny"):
            notice.open("Round", body, app.screen.size)
            assert compositor.overlay is None  # not before the screen's next refresh
            await pilot.pause()
            await pilot.pause()
            lines = body.count("\n") + 1
            assert notice.box == Region((80 - 52) // 2, (24 - (lines + 4)) // 2, 52, lines + 4)
            assert compositor.overlay == (notice, notice.box)
            drawn = [strip.text for strip in notice.render_lines(Region(0, 0, 52, lines + 4))]
            assert drawn[0].startswith("╭─ Round ─") and drawn[-1].startswith("╰")
            assert [row[2:-2].rstrip() for row in drawn[1 : lines + 1]] == body.split("\n")
            assert drawn[-2][2:-2].strip() == "Space / Enter: continue"
            notice.close()
            await pilot.pause()
            assert compositor.overlay is None and notice.box == Region()
        assert layouts == []


class LaidOutBox(App):
    """The box as Textual lays it out: a container with the Notice's styles,
    the body and the keys' line in widgets of their own."""

    CSS = """
    #box { position: absolute; overlay: screen; width: 52; height: auto; max-height: 22;
           border: round $accent; border-title-style: bold; border-title-color: $text-accent;
           background: $panel; padding: 0 1; }
    #box > .keys { color: $text-muted; margin-top: 1; text-align: center; width: 100%; }
    .-ascii #box { border: ascii $primary; }
    """

    def __init__(self, title, body, keys, theme, ascii_only) -> None:
        super().__init__()
        self.parts, self.wanted, self.ascii_only = (title, body, keys), theme, ascii_only

    def compose(self) -> ComposeResult:
        from textual.containers import Vertical
        from textual.content import Content
        from textual.widgets import Static

        title, body, keys = self.parts
        with Vertical(id="box") as box:
            box.border_title = Content(title)
            yield Static(body, markup=False)
            yield Static(keys, classes="keys", markup=False)

    def on_mount(self) -> None:
        self.theme = self.wanted
        self.set_class(self.ascii_only, "-ascii")


def _seen(strips) -> list[list[tuple]]:
    """Each cell: its character and style, without Textual's click offsets."""
    return [
        [(char, seg.style and seg.style.clear_meta_and_links()) for seg in strip for char in seg.text]
        for strip in strips
    ]


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "ansi-dark"])
@sync
async def test_the_box_is_drawn_as_textual_lays_it_out(theme):
    from rich.text import Text

    from garito.widgets.glyphs import ascii_text, to_ascii

    bodies = [
        "One line.",
        Text.assemble(("Ana", "bold"), " wins with ", ("twins of 6", "italic red"), ".\nNext: Bea."),
        "[b]not markup[/b] " + "a long line that wraps by words over the width of the box " * 2,
        # taller than the screen
        "張偉 rolls 6+6 = 12, twins of 6.\n" + "\n".join(f"row {i}" for i in range(30)),
    ]
    for ascii_only in (False, True):
        for body in bodies:
            title, keys = "Round 3", "n: rematch (same seats and rules)    Enter: menu"
            shown = (to_ascii(title), ascii_text(body), to_ascii(keys)) if ascii_only else (title, body, keys)
            reference = LaidOutBox(*shown, theme, ascii_only)
            async with reference.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                box = reference.query_one("#box").region
                laid_out = [strip.crop(0, 52) for strip in reference.screen._compositor.render_strips()]
                laid_out = laid_out[: box.height]
            host = NoticeHost(ascii_only)
            async with host.run_test(size=(80, 24)) as pilot:
                host.theme = theme
                host.set_class(ascii_only, "-ascii")
                notice = host.query_one(Notice)
                notice.open(title, body, host.screen.size, keys=keys)
                await pilot.pause()
                await pilot.pause()
                drawn = notice.render_lines(Region(0, 0, *notice.box.size))
            assert notice.box.size == box.size
            assert _seen(drawn) == _seen(laid_out), (theme, ascii_only, str(body)[:20])


@sync
async def test_a_hand_lays_out_again_only_when_its_rows_are_more_or_fewer():
    app = CardHost()
    async with app.run_test(size=(60, 20)) as pilot:
        hand = app.query_one(Hand)
        layouts = []
        original = app.screen._refresh_layout
        app.screen._refresh_layout = lambda *a, **k: (layouts.append(1), original(*a, **k))[1]
        for cards, rows, laid_out in (
            ("2r 3r", 1, True),
            ("2r 4r", 1, False),
            ("2r 3r 4r 5r 6r 7r 8r 9r 10r 2o 3o", 2, True),
            ("2r 3r 4r 5r 6r 7r 8r 9r 10r 2o 4o", 2, False),
            ("2r", 1, True),
        ):
            layouts.clear()
            hand.cards = faces(cards)
            await pilot.pause()
            await pilot.pause()  # a new size lays out once more (Textual's virtual size)
            assert hand.size.height == rows
            assert bool(layouts) is laid_out, cards


def test_log_wraps_wide_characters_by_the_cells_they_take():
    # 張偉 takes four cells: wrapped by its two characters, the second row
    # was 33 cells in a 32-cell log, pushed "5)." onto a row of its own, and
    # every row below it was one lower than the rows repainted.
    log = GameLog()
    log.set_reactive(GameLog.lines, ("Ramón rolls 7+2 = 9 and takes the lead from 張偉 (9 beats 5).",))
    assert log._rows(32) == ["Ramón rolls 7+2 = 9 and takes", "  the lead from 張偉 (9 beats", "  5)."]
    log = GameLog()
    log.set_reactive(GameLog.lines, ("x張偉張偉",))  # one word longer than the row: broken at cells
    assert log._rows(4) == ["x張", "  偉", "  張", "  偉"]


@sync
async def test_a_wide_name_keeps_the_columns_in_line():
    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        board = app.query_one(Scoreboard)
        board.columns = ("Wins", "Roll")
        board.rows = (SeatRow("張偉", ("●○○", "6+3=9")), SeatRow("Ramón", ("○○○", "7+1=8"), computer=True))
        await pilot.pause()
        rows = [line.text for line in board.render_lines(board.region.reset_offset)[:3]]
        # each row's cells as the terminal shows them: the wins start in one column
        starts = [cell_len(row[: row.index(mark)]) for row, mark in zip(rows, ("Wins", "●", "○"))]
        assert len(set(starts)) == 1, rows


def test_a_wide_name_is_cut_and_filled_by_cells():
    assert (
        set_cell_size("張偉張偉張偉張偉", 7) == "張偉張 "
        and cell_len(set_cell_size("張偉張偉張偉張偉", 7)) == 7
    )
    assert set_cell_size("Ramón", 7) == "Ramón  " and pad("張偉", 7) == "張偉   "
    assert set_cell_size("abcdefghijklmnopq", 7) == "abcdefg"


class StripsHost(App):
    CSS = """
    DiceTray { height: 8; }
    DiceTray > .dicetray--win { color: $text-success; text-style: bold; }
    DiceTray > .dicetray--lose { color: $text-error; }
    DiceTray > .dicetray--hot { color: $text-error; text-style: bold reverse; }
    DiceTray > .dicetray--caption { color: $text-muted; }
    GameLog { height: 6; }
    Scoreboard > .scoreboard--turn { color: $text-accent; text-style: bold; }
    Scoreboard > .scoreboard--lead { color: $text-success; }
    """

    def compose(self) -> ComposeResult:
        yield DiceTray()
        yield GameLog()
        yield Scoreboard()
        yield KeyBar()


@sync
async def test_rows_drawn_from_kept_pieces_are_what_textual_draws_whole():
    # widgets.strips draws a row from runs drawn before (a die's face, a
    # line of the story); Textual's own drawing of the widget's render(),
    # whole, is the reference, segment by segment, click offsets included.
    rng = random.Random(11)
    names = ["Ana", "Bea", "張偉", "[b]bo[/b]"]
    app = StripsHost()
    async with app.run_test(size=(70, 24)) as pilot:
        tray, log, board, bar = (app.query_one(w) for w in (DiceTray, GameLog, Scoreboard, KeyBar))
        keys = [("space", "Space", "Roll"), ("escape", "Esc", "Menu")]
        keys += [("f1", "?", "Reglas"), ("n", "n", "張偉")]
        board.columns = ("Wins", "Roll")
        story: list[str] = []
        for _ in range(60):
            tray.gap = rng.choice([1, 2])
            tray.dice = tuple(
                Die(rng.randint(0, 6), rng.choice([6, 6, 8, 10]), rng.choice(["", "win", "lose", "hot"]))
                for _ in range(rng.randint(0, 5))
            )
            tray.caption = rng.choice(["", "Ana rolls 7", "1 2 3\n2 rerolls left"])
            story += [f"{rng.choice(names)} rolls {rng.randint(2, 12)}" + " and more" * rng.randint(0, 6)]
            log.tell(story[-rng.randint(1, 9) :])
            log.back = rng.choice([0, 0, 1])
            board.rows = tuple(
                SeatRow(n, (str(rng.randint(0, 3)), str(rng.randint(2, 12))), turn=i == 0, lead=i == 1)
                for i, n in enumerate(rng.sample(names, rng.randint(0, 4)))
            )
            bar.keys = tuple(rng.sample(keys, rng.randint(0, 4)))
            if rng.random() < 0.15:  # the kept styles follow a new theme
                app.theme = rng.choice(["textual-dark", "textual-light", "nord", "gruvbox"])
            await pilot.pause()
            for widget in (tray, log, board, bar):
                drawn = [list(widget.render_line(y)) for y in range(widget.size.height)]
                widget.__dict__.pop("_component_styles_kept", None)  # the reference keeps no style
                Widget._render_content(widget)  # Textual's drawing of render(), whole
                whole = widget._render_cache.lines
                blank = Strip.blank(widget.size.width, widget.visual_style.rich_style)
                expected = [list(whole[y] if y < len(whole) else blank) for y in range(widget.size.height)]
                assert drawn == expected, type(widget).__name__


@sync
async def test_a_line_wraps_its_text_once_a_change_and_again_at_a_new_width(monkeypatch):
    # Its rows were worked out as the text changed and again as it was drawn.
    wrapped: list[str] = []
    wrap = Text.wrap

    def counted(self, *args, **kwargs):
        wrapped.append(self.plain)
        return wrap(self, *args, **kwargs)

    app = LineHost()
    async with app.run_test(size=(60, 10)) as pilot:
        line = app.query_one(Line)
        line.text = "the first words"
        await pilot.pause()
        monkeypatch.setattr(Text, "wrap", counted)
        line.text = "other words, as many"
        await pilot.pause()
        assert wrapped == ["other words, as many"]
        assert app.query_one(Line).render_line(0).text.rstrip() == "other words, as many"
        line.styles.width = 12  # the same text at another width: wrapped anew
        await pilot.pause()
        await pilot.pause()
        assert wrapped == ["other words, as many"] * 2
        assert [line.render_line(y).text.rstrip() for y in range(2)] == ["other words,", "as many"]
