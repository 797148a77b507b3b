"""Every screen and state the snapshot suite reaches, held to what a player
must be able to read at 80×24.

``check`` finds text cut by its box (rows below a widget's bottom, columns
past its edge, a widget cut by its container) and a dialog whose key bar is
the one of the screen under it. It runs on every snapshot as it is taken
(conftest wraps ``snap_compare``), and again on the same states in ASCII
mode (``walk``, in tests/test_screens.py), where nothing but ASCII may show.
"""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import dataclass

from textual.screen import ModalScreen
from textual.widget import Widget

from garito.widgets.keybar import KeyBar

from .helpers import screen_lines

# Cuts known and not yet fixed, as (snapshot test, widget). Remove an entry
# when its screen is fixed: a known cut that is no longer there fails the
# check.
KNOWN_CUTS: set[tuple[str, str]] = set()


@dataclass
class State:
    name: str
    lines: list[str]  # the terminal's lines
    screen: str  # the active screen's class
    problems: list[str]  # what ``check`` found


def _scrolls(widget: Widget) -> bool:
    """Inside something that scrolls: what is out of view is reached."""
    for node in widget.ancestors_with_self:
        if not isinstance(node, Widget) or node is widget.screen:
            break
        if node.styles.overflow_y in ("auto", "scroll") or node.styles.overflow_x in ("auto", "scroll"):
            return True
    return False


def _plain(widget: Widget) -> str:
    try:
        rendered = widget.render()
    except Exception:
        return ""
    plain = getattr(rendered, "plain", None)
    return plain if isinstance(plain, str) else str(rendered)


def cuts(app) -> list[str]:
    """Widgets of the screen on view whose text is cut: rows below the
    bottom of the widget, columns past its right edge, or the widget
    itself cut by its container."""
    from rich.text import Text

    found = []
    screen = app.screen
    for widget in screen.walk_children(Widget):
        if not widget.display or not widget.visible or not widget.region.area or _scrolls(widget):
            continue
        name = f"{type(widget).__name__}#{widget.id}" if widget.id else type(widget).__name__
        try:
            geometry = screen.find_widget(widget)
        except Exception:
            continue
        if not geometry.clip.overlaps(geometry.region):
            continue  # wholly out of sight (a result box kept off screen)
        if not geometry.clip.contains_region(geometry.region) and _plain(widget).strip():
            found.append(f"{name} is cut by its container: {_plain(widget).strip()[:60]!r}")
            continue
        if widget.is_container or widget.children:
            continue
        width, height = widget.content_size
        if not width or not height:
            continue
        widget._content_height_cache = (None, 0)
        need = widget.get_content_height(widget.parent.content_size, app.size, width)
        if need > height:
            found.append(f"{name} needs {need} rows, has {height}: {_plain(widget).strip()[:60]!r}")
            continue
        rendered = widget.render()
        if isinstance(rendered, Text) and (rendered.no_wrap or widget.styles.text_wrap == "nowrap"):
            longest = max((rendered.cell_len if "\n" not in rendered.plain else 0), 0)
            if "\n" in rendered.plain:
                longest = max(len(line) for line in rendered.plain.split("\n"))
            if longest > width:
                found.append(f"{name} needs {longest} columns, has {width}: {rendered.plain.strip()[:60]!r}")
    return found


def check(name: str, app) -> list[str]:
    """What a player could not read on the screen ``app`` shows, for the
    snapshot test ``name``."""
    known = {widget for snapshot, widget in KNOWN_CUTS if snapshot == name}
    found = cuts(app)
    problems = [f"text cut at 80×24: {c}" for c in found if c.split()[0].split("#")[0] not in known]
    still = {c.split()[0].split("#")[0] for c in found}
    problems += [f"{w} is no longer cut: remove it from KNOWN_CUTS" for w in known - still]
    keybar = screen_lines(app)[-1].strip()
    if isinstance(app.screen, ModalScreen) and not app.screen.query(KeyBar) and keybar:
        problems.append(f"{type(app.screen).__name__} shows the keys of the screen under it: {keybar}")
    return problems


async def _settled(pilot, run_before) -> None:
    if run_before is not None:
        result = run_before(pilot)
        if inspect.isawaitable(result):
            await result
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def checked(snap_compare, name: str):
    """``snap_compare`` that also runs ``check`` on the screen it takes."""

    def compare(app, *args, run_before=None, **kwargs):
        problems: list[str] = []

        async def before(pilot):
            await _settled(pilot, run_before)
            problems.extend(check(name, app))

        result = snap_compare(app, *args, run_before=before, **kwargs)
        assert not problems, "\n".join(problems)
        return result

    return compare


def walk(name: str, fixtures: dict) -> State:
    """The state snapshot test ``name`` reaches (``fixtures``: its other
    arguments), run again without taking a picture."""
    from . import test_snapshots

    kept: list[State] = []

    def snap_compare(app, terminal_size=(80, 24), run_before=None, press=()):
        async def run():
            async with app.run_test(size=terminal_size) as pilot:
                await _settled(pilot, run_before)
                kept.append(State(name, screen_lines(app), type(app.screen).__name__, check(name, app)))

        asyncio.run(run())
        return True

    getattr(test_snapshots, name)(snap_compare=snap_compare, **fixtures)
    (state,) = kept
    return state
