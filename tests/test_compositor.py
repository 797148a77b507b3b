"""The row compositor (``widgets.compositor``): what a terminal shows after
every frame the app sent is the screen the app holds, drawn whole; and a
frame draws only the widgets seen where it changed."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Region
from textual.widgets import Static

from garito.tui.app import GarApp
from garito.widgets import compositor, lean
from garito.widgets.compositor import RowCompositor

from .helpers import box_open, frames_sent, gemelos_match, match_over, settle, sync
from .terminal import Terminal, drawn_whole

lean.apply()


async def drawn(pilot) -> None:
    """Until the screen has sent everything it had to: nothing marked to
    draw, twice in a row."""
    screen = pilot.app.screen
    quiet = 0
    for _ in range(400):
        await pilot.pause()
        busy = (
            screen._compositor._dirty_regions
            or screen._dirty_widgets
            or screen._layout_required
            or screen._callbacks
            or any(w._repaint_required or w._layout_required for w in screen.walk_children())
        )
        quiet = 0 if busy else quiet + 1
        if quiet == 2:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the screen never finished drawing")


def shown(written: list[str], size) -> Terminal:
    terminal = Terminal(*size)
    for data in written:
        terminal.feed(data)
    return terminal


class Layers(App):
    """Widgets over widgets: panels with borders, a docked bar, a box laid
    over the others, a scrolled log cut by its container, wide characters."""

    CSS = """
    .panel { border: round green; height: auto; }
    #bar { dock: bottom; height: 1; background: blue; }
    #box { position: absolute; overlay: screen; width: 20; height: 5; border: heavy red; background: $panel; }
    #log { height: 8; border: solid yellow; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical():
                yield Static("one", id="a", classes="panel")
                yield Static("two\nlines", id="b", classes="panel")
                yield Static("three", id="c")
            with VerticalScroll(id="log"):
                for i in range(20):
                    yield Static(f"line {i} 張偉", id=f"l{i}")
        yield Static("keys", id="bar")
        yield Static("box", id="box")


operations = st.lists(
    st.one_of(
        st.tuples(
            st.just("text"),
            st.sampled_from(["a", "b", "c", "bar", "box", "l3", "l15"]),
            st.text("xy 張ñ", max_size=12),
        ),
        st.tuples(st.just("move"), st.integers(-5, 70), st.integers(-3, 22)),
        st.tuples(st.just("scroll"), st.integers(0, 19), st.just("")),
        st.tuples(
            st.just("region"),
            st.sampled_from(["a", "b", "l2", "log", "bar", "box"]),
            st.tuples(st.integers(0, 30), st.integers(0, 6), st.integers(1, 4), st.integers(1, 3)),
        ),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
def test_what_the_terminal_shows_is_the_screen_after_every_frame(recorded, ops):
    recorded.clear()

    async def run() -> None:
        app = Layers()
        async with app.run_test(size=(60, 20)) as pilot:
            await drawn(pilot)
            assert isinstance(app.screen._compositor, RowCompositor)
            for op, a, b in ops:
                if op == "text":
                    app.query_one(f"#{a}", Static).update(b)
                elif op == "move":
                    app.query_one("#box").styles.offset = (a, b)
                elif op == "scroll":
                    app.query_one("#log").scroll_to(y=a, animate=False)
                else:  # a few cells of a widget marked dirty (a change that draws nothing new)
                    app.query_one(f"#{a}").refresh(Region(*b))
                await drawn(pilot)
                mine = shown(recorded, app.size)
                assert mine.differences(drawn_whole(app.screen)) == []

    asyncio.run(run())


@sync
async def test_a_wide_character_over_the_edge_of_widgets_under_it_is_drawn_whole(recorded):
    # The box's text moved across the edge between the two columns under it
    # (x 30): at every place, drawn whole in the frames sent and in the
    # screen's picture (Textual cut the box at that edge: two blanks).
    app = Layers()
    async with app.run_test(size=(60, 20)) as pilot:
        await drawn(pilot)
        box = app.query_one("#box", Static)
        box.update("ab龍cd")
        for x in range(24, 34):
            box.styles.offset = (x, 2)
            await drawn(pilot)
            row = shown(recorded, app.size).rows()[3]
            assert "┃ab龍cd " in row, (x, row)
            picture = "".join(s.text for s in app.screen._compositor.render_strips()[3])
            assert "ab龍cd" in picture, (x, picture)
        # and a frame that sends the box's row alone (a partial update)
        box.update("xy龍zw")
        await drawn(pilot)
        assert "xy龍zw" in shown(recorded, app.size).rows()[3]


@sync
async def test_a_match_played_by_keys_shows_what_the_app_holds_at_every_step(recorded):
    # Rolls, the computer's answers, result boxes opening over the table and
    # closing, the match's end and a rematch: after each key, the terminal.
    app = GarApp(start=gemelos_match(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        boxes = 0
        for _ in range(40):
            await pilot.press("n" if match_over(app) else "space")
            await settle(pilot)
            await drawn(pilot)
            boxes += box_open(app)
            assert shown(recorded, app.size).differences(drawn_whole(app.screen)) == []
        assert boxes >= 5


@sync
async def test_a_frame_draws_only_the_widgets_seen_where_it_changed(recorded, monkeypatch):
    app = GarApp(start=gemelos_match(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await drawn(pilot)
        from garito.widgets.dice import DiceTray

        drew: list[str] = []
        render_lines = type(app.screen).render_lines

        def counted(widget, crop):
            drew.append(type(widget).__name__)
            return render_lines(widget, crop)

        for cls in {type(w) for w in app.screen.walk_children()} | {type(app.screen)}:
            monkeypatch.setattr(cls, "render_lines", counted, raising=False)
        app.screen.query_one(DiceTray).refresh()
        await drawn(pilot)
        # Textual's own update drew the screen, its containers and panels under it too
        assert drew == ["DiceTray"]


@sync
async def test_under_textuals_own_compositor_the_box_is_laid_out_and_looks_the_same(monkeypatch):
    # Where the row compositor is not installed (a Textual it was not
    # written against), a result box is a widget laid out over the table.
    from textual import screen

    seen = []
    for own in (False, True):
        if own:
            monkeypatch.setattr(screen, "Compositor", Compositor)
        app = GarApp(start=gemelos_match(seed=7))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            while not box_open(app):
                await pilot.press("space")
                await settle(pilot)
            await drawn(pilot)
            seen.append((type(app.screen._compositor), drawn_whole(app.screen)))
    (mine, with_overlay), (textuals, laid_out) = seen
    assert mine is RowCompositor and textuals is Compositor
    assert "Round 1" in with_overlay.rows()[7]
    assert with_overlay.differences(laid_out) == []


def test_row_owners_follow_a_new_layout():
    async def run() -> None:
        app = Layers()
        async with app.run_test(size=(60, 20)) as pilot:
            await drawn(pilot)
            comp = app.screen._compositor
            box = app.query_one("#box")
            box.styles.offset = (5, 12)
            await drawn(pilot)
            before = [w for _, _, w in comp.row_owners(2)]
            box.styles.offset = (5, 1)
            await drawn(pilot)
            after = [w for _, _, w in comp.row_owners(2)]
            assert box not in before and box in after

    asyncio.run(run())


def test_a_textual_whose_compositor_changed_keeps_its_own(monkeypatch, caplog):
    from textual import screen

    monkeypatch.setattr(compositor, "_installed", False)
    monkeypatch.setattr(screen, "Compositor", Compositor)
    monkeypatch.setitem(compositor.EXPECTED, "Compositor._render_chops", "0:00000000")
    assert compositor.install() is False
    assert screen.Compositor is Compositor
    assert "Compositor._render_chops" in caplog.text
    monkeypatch.undo()
    assert screen.Compositor is RowCompositor


def test_the_fingerprints_are_textuals_own():
    assert compositor.textuals() == compositor.EXPECTED


def test_the_pen_tells_the_terminal_only_what_changed():
    from rich.color import ColorSystem
    from rich.style import Style

    from garito.widgets.compositor import Pen

    pen = Pen(ColorSystem.TRUECOLOR)
    bold_red = Style(bold=True, color="#ff0000", bgcolor="#000000")
    pen.write("Ana", bold_red)
    pen.write(" wins", bold_red)  # the same look: nothing more
    pen.write("!", Style(bold=True, color="#00ff00", bgcolor="#000000"))  # a foreground alone
    pen.write(" 6+6", Style(color="#00ff00", bgcolor="#000000"))  # bold goes: a reset
    pen.write(" plain", None)
    pen.write("", bold_red)  # nothing to write: nothing told
    link = Style(link="https://example.org", color="#ff0000")
    pen.write("site", link)
    assert pen.done() == (
        "\x1b[1;38;2;255;0;0;48;2;0;0;0mAna wins"
        "\x1b[38;2;0;255;0m!"
        "\x1b[0;38;2;0;255;0;48;2;0;0;0m 6+6"
        "\x1b[0m plain"
        f"\x1b[38;2;255;0;0m\x1b]8;id={link._link_id};https://example.org\x1b\\site\x1b]8;;\x1b\\"
        "\x1b[0m"
    )
    pen = Pen(ColorSystem.TRUECOLOR)
    pen.write("a", Style(color="#ff0000", bgcolor="#000000"))
    pen.write("b", Style(bgcolor="#000000"))  # the terminal's own foreground again
    assert pen.done() == "\x1b[38;2;255;0;0;48;2;0;0;0ma\x1b[39mb\x1b[0m"


def test_the_pen_writes_a_style_for_each_terminal_it_is_written_to():
    # The sessions of a worker share Rich's styles; Rich and Textual keep a
    # style's first codes on it, whatever the colour system they were for.
    from rich.color import ColorSystem
    from rich.style import Style

    from garito.widgets.compositor import Pen

    for link in ("", "https://example.org"):
        style = Style(color="#242f38", bgcolor="#ff0000", link=link or None)
        for _ in range(2):
            written = {}
            for system in (ColorSystem.STANDARD, ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT):
                pen = Pen(system)
                pen.write("x", style)
                written[system] = pen.done()
            assert written[ColorSystem.TRUECOLOR].startswith("\x1b[38;2;36;47;56;48;2;255;0;0m")
            assert written[ColorSystem.STANDARD].startswith("\x1b[90;41m")
            assert written[ColorSystem.EIGHT_BIT].startswith("\x1b[38;5;")


@sync
async def test_a_roll_is_sent_in_fewer_bytes_than_textual_writes_it(recorded):
    # The same frames, written by Textual's own updates and by the pen.
    from textual._compositor import ChopsUpdate, LayoutUpdate

    from garito.widgets.compositor import SparseChopsUpdate, SparseLayoutUpdate

    app = GarApp(start=gemelos_match(seed=7, seats=("human", "human")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        updates = frames_sent(app)
        await pilot.press("space")
        await settle(pilot)
        await drawn(pilot)
        ours = sum(len(u.render_segments(app.console)) for u in updates)
        textuals = 0
        for u in updates:
            assert isinstance(u, (SparseChopsUpdate, SparseLayoutUpdate))
            plain = ChopsUpdate if isinstance(u, ChopsUpdate) else LayoutUpdate
            textuals += len(plain.render_segments(u, app.console))
        assert ours < 0.8 * textuals, (ours, textuals)  # 315 against 412 bytes, measured
