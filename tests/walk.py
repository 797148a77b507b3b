"""Every screen and state the snapshot suite reaches, walked again as text.

``states()`` runs each snapshot test of ``test_snapshots`` with a stand-in
for ``snap_compare`` that keeps, instead of a picture, what the player sees:
the terminal's lines and which widgets show text that does not fit them.
The checks over those states (tests/test_screens.py) then hold for every
screen the pictures hold, and for any screen added to them later.
"""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import dataclass, field

from textual.screen import ModalScreen
from textual.widget import Widget

from garito.widgets.keybar import KeyBar

from . import test_snapshots
from .helpers import screen_lines

SNAPSHOTS = sorted(
    name
    for name, fn in vars(test_snapshots).items()
    if name.startswith("test_") and callable(fn) and "snap_compare" in inspect.signature(fn).parameters
)


@dataclass
class State:
    name: str
    lines: list[str]
    screen: str  # the active screen's class
    keybar: str  # the key bar the player sees (the bottom line)
    cuts: list[str] = field(default_factory=list)  # text that does not fit its widget
    borrowed_keys: bool = False  # a dialog over a screen whose key bar shows that screen's keys


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


def _recorder(name: str, kept: list[State]):
    def snap_compare(app, terminal_size=(80, 24), run_before=None, press=()):
        async def run():
            async with app.run_test(size=terminal_size) as pilot:
                if run_before is not None:
                    result = run_before(pilot)
                    if inspect.isawaitable(result):
                        await result
                await pilot.pause()
                await pilot.press(*press)
                await pilot.wait_for_scheduled_animations()
                await pilot.pause()
                lines = screen_lines(app)
                keybar = lines[-1].strip() if lines else ""
                borrowed = (
                    isinstance(app.screen, ModalScreen) and not app.screen.query(KeyBar) and bool(keybar)
                )
                kept.append(State(name, lines, type(app.screen).__name__, keybar, cuts(app), borrowed))

        asyncio.run(run())
        return True

    return snap_compare


def walk(name: str, fixtures: dict) -> State:
    """The state snapshot test ``name`` reaches (fixtures: its other arguments)."""
    kept: list[State] = []
    getattr(test_snapshots, name)(snap_compare=_recorder(name, kept), **fixtures)
    (state,) = kept
    return state
