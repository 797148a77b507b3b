"""Textual made lighter on memory and the collector (``widgets.lean``):
strips that make their caches when first used, and no cycles of lines or
layouts, with everything drawn as before (every snapshot is drawn with
them, too)."""

from __future__ import annotations

import asyncio
import gc
import inspect
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.strip import Strip

from garito.store import saves
from garito.tui.app import GarApp
from garito.widgets import lean

from .helpers import gemelos_match, settle, sync

lean.apply()

TEXTUAL_SIZES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}


def test_the_caches_read_from_textuals_strip_are_its_seven():
    assert lean.strip_caches(_textual_strip_init()) == TEXTUAL_SIZES


def test_a_strip_that_sets_anything_more_is_left_as_it_is():
    more = _textual_strip_init().replace(
        "self._cell_count: int | None = None",
        "self._cell_count: int | None = None\n    self._other = {}",
    )
    assert lean.strip_caches(more) is None
    changed = _textual_strip_init().replace("self._link_ids: set[str] | None = None", "")
    assert lean.strip_caches(changed) is None
    assert lean.strip_caches("def __init__(self):\n    pass\n") is None


def test_a_new_strip_holds_no_cache_until_one_is_asked_for():
    strip = Strip([Segment("hello", Style(bold=True)), Segment(" world")])
    assert not [o for o in gc.get_referents(strip) if isinstance(o, FIFOCache)]
    cropped = strip.crop(1, 4)
    assert cropped.text == "ell" and strip.crop(1, 4) is cropped  # kept, as Textual keeps it
    caches = [o for o in gc.get_referents(strip) if isinstance(o, FIFOCache)]
    assert [c._maxsize for c in caches] == [16]
    try:
        strip.no_such_thing  # noqa: B018
    except AttributeError as e:
        assert "no_such_thing" in str(e)
    else:
        raise AssertionError("an unknown attribute is still an AttributeError")


def test_a_strip_the_size_of_its_cut_is_itself_and_not_kept_in_itself():
    strip = Strip([Segment("abc"), Segment("def")])
    assert strip.divide([6]) == [strip]
    assert strip.crop_extend(0, 6, None) is strip
    assert strip not in gc.get_referents(*gc.get_referents(strip))


texts = st.text(alphabet="ab ñ張", min_size=0, max_size=6)
styles = st.sampled_from([None, Style(bold=True), Style(color="red"), Style(bgcolor="blue")])
strips = st.lists(st.tuples(texts, styles), max_size=5).map(lambda parts: [Segment(t, s) for t, s in parts])


@settings(max_examples=150, deadline=None)
@given(strips, st.integers(0, 12), st.integers(0, 12), st.lists(st.integers(1, 12), max_size=3))
def test_what_a_strip_gives_is_the_same_asked_once_or_again(segments, start, end, cuts):
    # Every derived strip is the one a fresh strip of the same segments
    # gives: the lazily made caches hold what Textual's held.
    one, other = Strip(segments), Strip(list(segments))
    cuts = sorted(set(cuts))
    italic = Style(italic=True)
    for strip in (one, one, other):
        fresh = Strip(segments)
        assert list(strip.crop(start, end)) == list(fresh.crop(start, end))
        assert [list(s) for s in strip.divide(cuts)] == [list(s) for s in fresh.divide(cuts)]
        assert list(strip.crop_extend(start, end, None)) == list(fresh.crop_extend(start, end, None))
        assert list(strip.apply_style(italic)) == list(fresh.apply_style(italic))
        assert list(strip.extend_cell_length(end, None)) == list(fresh.extend_cell_length(end, None))
        assert list(strip.apply_offsets(start, end)) == list(fresh.apply_offsets(start, end))
        assert strip.render(_console()) == fresh.render(_console())


@sync
async def test_a_played_round_leaves_far_fewer_caches_than_lines():
    # Textual made seven caches for every strip: a round of Gemelos's
    # screen is now drawn with fewer caches than strips.
    app = GarApp(start=gemelos_match(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(4):
            await pilot.press("space")
            await settle(pilot)
        gc.collect()
        objects = gc.get_objects()
        lines = sum(type(o) is Strip for o in objects)
        caches = sum(type(o) is FIFOCache for o in objects)
        assert lines > 300 and caches < lines  # (Textual: seven caches a line)


def _textual_strip_init() -> str:
    from textual import strip as textual_strip

    source = inspect.getsource(textual_strip)
    start = source.index("    def __init__(\n        self, segments")
    end = source.index("    def __rich_repr__")
    return textwrap.dedent(source[start:end])


def _console():
    from rich.console import Console

    return Console(width=80, color_system="truecolor", force_terminal=True)


def test_parameters_are_counted_as_textual_counts_them_and_once_per_code():
    import functools
    from inspect import signature

    from textual import _callback

    def make(n):
        def closure(a, b, *rest, c=n, **more):
            return a

        return closure

    def plain(a, b=2):
        return a

    @functools.wraps(plain)
    def wrapper(*args):
        return plain(*args)

    class Host:
        def method(self, x, y):
            return x

    callables = [
        functools.partial(Host().method, 1),
        make(1),
        make(2),
        plain,
        wrapper,
        lambda: 0,
        lambda x: x,
        functools.partial(plain, 1),
        Host().method,
    ]
    for func in callables:
        assert _callback.count_parameters(func) == len(signature(func).parameters), func

    def fresh(n):
        def closure(a, b=n):
            return a

        return closure

    def wrapped():
        def target(a, b):
            return a

        def wrapper(*args):
            return target(*args)

        wrapper.__wrapped__ = target  # type: ignore[attr-defined]
        return wrapper

    asked = []
    real = _callback.signature
    try:
        _callback.signature = lambda f: (asked.append(f.__name__), real(f))[1]
        for n in range(5):
            assert _callback.count_parameters(fresh(n)) == 2  # made anew: its code counted once
            assert _callback.count_parameters(wrapped()) == 2  # says its own signature: asked each time
    finally:
        _callback.signature = real
    assert asked == ["closure"] + ["wrapper"] * 5


def test_a_parameter_count_that_changed_is_left_as_it_is(monkeypatch):
    from textual import _callback

    monkeypatch.setattr(lean, "_COUNT_SOURCE", "def _count_parameters(func):\n    return 0\n")
    before = _callback._count_parameters
    assert lean.parameters_counted_once() is False
    assert _callback._count_parameters is before


def _with_a_nested_function():
    def inner():
        return [
            1,
        ]

    return inner


def test_a_functions_source_is_read_as_inspect_reads_it():
    # The checks of Textual's code read its source without Python's
    # tokenizer (7 ms of every start): the same text, to the character.
    from textual import _callback, _compositor
    from textual.drivers.linux_driver import LinuxDriver
    from textual.strip import Strip

    from garito.widgets.source import source_of

    checked = [
        Strip.__init__,
        _compositor.Compositor.reflow,
        _callback._count_parameters,
        _compositor.Compositor.render_partial_update,
        _compositor.Compositor._render_chops,
        _compositor.ChopsUpdate.render_segments,
        LinuxDriver.run_input_thread,
        test_a_functions_source_is_read_as_inspect_reads_it,
        _with_a_nested_function,  # to the nested function's last line
    ]
    for function in checked:
        assert source_of(function) == inspect.getsource(function), function.__qualname__

    namespace: dict = {}
    exec(compile("def made():\n    return 1\n", "<nowhere>", "exec"), namespace)
    with pytest.raises(OSError):
        source_of(namespace["made"])


@sync
async def test_a_game_left_is_freed_with_its_screen_and_the_lines_it_drew():
    # Two things kept every game a player left, for the life of the app (or
    # of the server's worker, every player's on it): the screen's own
    # subscription to the theme's changes (Textual's signals keep their
    # subscribers), and the styles caches of its widgets, which held their
    # lines in Textual's lru_cache of background colours.
    import weakref

    from textual._styles_cache import StylesCache
    from textual.widget import Widget

    from garito.tui.screens.game import GameScreen
    from garito.tui.screens.menu import MenuScreen
    from garito.tui.screens.notices import ConfirmScreen

    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        if not isinstance(app.screen, MenuScreen):  # the first start's name
            await pilot.press("enter")
            await settle(pilot)
        left: list[list[weakref.ref]] = []
        for _ in range(3):
            await pilot.press("enter", "enter")  # Gemelos, a new game
            await settle(pilot)
            await pilot.press("space")
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            left.append([weakref.ref(screen)] + [weakref.ref(w) for w in screen.query(Widget)])
            for _ in range(6):
                if isinstance(app.screen, MenuScreen):
                    break
                await pilot.press("y" if isinstance(app.screen, ConfirmScreen) else "escape")
                await settle(pilot)
            del screen
        assert isinstance(app.screen, MenuScreen)
        await settle(pilot)
        # A save on its way names its screen until it is written, and a
        # computer's thread until it has heard the game was left: under load
        # (a busy disk's fsync, a busy core) either may come after the menu.
        # Every game left is then gone, screen and widgets, the last one too.
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        while True:
            await asyncio.to_thread(saves.flush)
            await settle(pilot)
            gc.collect()
            alive = [ref() for game in left for ref in game if ref() is not None]
            if not alive or loop.time() > end:
                break
            del alive
            await asyncio.sleep(0.2)
        held = [type(r).__name__ for r in gc.get_referrers(alive[0])] if alive else []
        assert alive == [], f"held by {held}"
        # and the styles caches left are those of the widgets still alive
        caches = sum(type(o) is StylesCache for o in gc.get_objects())
        widgets = sum(isinstance(o, Widget) for o in gc.get_objects())
        assert caches <= widgets


@sync
async def test_a_finished_worker_is_held_by_no_thread():
    # A Textual thread worker sets itself in the pool thread's own context
    # (asyncio's default executor copies none), and stays there, naming its
    # node (a screen, or the app), until that thread runs another worker.
    # Garito's threads run in a copy of the context (asyncio.to_thread).
    # Here a computer's moves and the finished match's way into the history,
    # each in a thread.
    from textual.worker import Worker

    from garito.core import gemelos
    from garito.store.history import History

    from .helpers import match_over

    m = gemelos_match(seats=("computer", "computer"))
    last = m
    while not last.state.over:
        m, last = last, last.play(gemelos.ROLL)
    gc.collect()
    earlier = {id(w) for w in gc.get_objects() if isinstance(w, Worker)}  # another test's, in this process
    app = GarApp(start=m, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40):
            await settle(pilot)
            if match_over(app):
                break
            await pilot.pause(0.2)
        assert match_over(app)
        await app.workers.wait_for_complete()
        await settle(pilot)
        with History() as history:
            assert list(history.records()) == [last.to_json()]  # its worker ran
        gc.collect()
        assert [w for w in gc.get_objects() if isinstance(w, Worker) and id(w) not in earlier] == []
