"""Draw a widget's rows from pieces drawn before.

Textual draws a ``render()`` widget whole whenever any of it changed: a
roll of the dice drew the tray's five rows of every die again (2.1 ms, the
costliest widget of a game screen), a new log line every row of the log
(0.8 ms), a score every seat. A widget with this mixin says what its rows
are made of instead, as runs of text, each in one Rich style (``runs``),
and ``render_line`` lays each row out of pieces drawn once and kept per
kind of widget and style: the faces of a die, a line of the story that
moved up a row, a seat whose score did not change cost a lookup, in every
widget of its kind (a rematch's new screen, every player of a server's
worker). Textual asks only for the rows marked dirty (``RowRepaint``).

What is drawn is what Textual draws of ``render()``, to the segment, click
offsets included: a piece of printable text is one segment in the style
Textual gives a character of that run (asked once per style), anything
else is drawn by Textual's own pipeline. Runs are laid from the row's first
cell (no text-align). ``render()`` is built of the same runs (here, for
every such widget): Textual measures an auto-sized widget with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual, visualize

from .plain import PlainLines

# A mixin of Widgets: the type checker sees it as one.
if TYPE_CHECKING:
    from textual.widget import Widget as _Base
else:
    _Base = object

# Text in one Rich style ("" for the widget's own), given whole or in the
# parts it is made of (the faces of dice side by side), each part drawn once.
Run = tuple[str | tuple[str, ...], Style | str]
PIECES = 512  # runs kept per kind of widget and style: a log's rows, a tray's faces
# Shared by every widget of a kind drawn in one style: a rematch's new
# screen, and every player's in a server's worker, find the faces drawn.
_KEPT: LRUCache[tuple[type, object], LRUCache[tuple[str | None, Style | str], Strip]] = LRUCache(64)


class StripRows(PlainLines):
    """Mixin for a render() widget: ``runs()`` returns its rows, each a list
    of runs, laid from the row's first cell; the mixin draws ``render_line``
    from them. ``refresh`` forgets the rows (they are asked again when next
    drawn); the pieces stay, for as long as the widget's style holds."""

    _drawn: list[Strip] | None = None
    _drawn_for: object = None
    _pieces: LRUCache[tuple[str | None, Style | str], Strip] | None = None
    _rows_now: list[Strip] | None = None  # while render_lines asks for its lines

    def runs(self) -> Sequence[Sequence[Run]]:
        raise NotImplementedError

    def render(self) -> Text:
        return whole_text(self.runs())

    def refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose: bool = False):
        if repaint:
            self._drawn = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        self._drawn = None
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        # The rows are found once for all the lines Textual asks at once, not
        # once a line: the selection and the size are each a walk up to the
        # screen (6% of the frames' cost over a Decimus match, profiled).
        self._rows_now = self._drawn_rows()
        try:
            return super().render_lines(crop)
        finally:
            self._rows_now = None

    def render_line(self, y: int) -> Strip:
        rows = self._rows_now
        if rows is None:
            rows = self._drawn_rows()
            if rows is None:  # a mouse selection: Textual draws it over the text
                self._render_content()
                return super().render_line(y)
        if y < len(rows):
            return rows[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def _drawn_rows(self) -> list[Strip] | None:
        """The rows as drawn now, None while text is selected in the widget."""
        if self.text_selection is not None:
            return None
        # Textual's whole-widget drawing is not used: what it keeps to know
        # it must draw again would only grow.
        self._dirty_regions.clear()
        style = self.visual_style
        mark = (self.size, style)
        if self._drawn is None or self._drawn_for != mark:
            self._drawn, self._drawn_for = self._draw(style), mark
        return self._drawn

    def _draw(self, style) -> list[Strip]:
        kind = (type(self), style)
        pieces = _KEPT.get(kind)
        if pieces is None:
            pieces = LRUCache(PIECES)
            _KEPT.set(kind, pieces)
        self._pieces = pieces
        rows = []
        # No rows at all is one empty row, as an empty text is one line.
        for y, runs in enumerate(self.runs() or [[]]):
            drawn = []
            x = 0
            # An empty row is drawn too: Textual's line for it holds an
            # empty piece in the widget's style.
            for text, run_style in [run for run in runs if run[0]] or [("", "")]:
                drawn.append(self._run(text, run_style, style).apply_offsets(x, y))
                x += len(text) if isinstance(text, str) else sum(map(len, text))
            rows.append(drawn[0] if len(drawn) == 1 else Strip.join(drawn))
        return rows

    def _run(self, text: str | tuple[str, ...], run_style: Style | str, style) -> Strip:
        """A run drawn from its parts, each drawn once: one segment, as
        Textual draws a run of one style (its click offset is the run's)."""
        if isinstance(text, str):
            return self._piece(text, run_style, style)
        parts = [self._piece(part, run_style, style) for part in text if part]
        segments = [segment for part in parts for segment in part]
        if len(segments) == len(parts) and len({segment.style for segment in segments}) == 1:
            return Strip(
                [Segment("".join(segment.text for segment in segments), segments[0].style)],
                sum(part.cell_length for part in parts),
            )
        return self._piece("".join(text), run_style, style)

    def _piece(self, text: str, run_style: Style | str, style) -> Strip:
        assert self._pieces is not None
        key = (text, run_style)
        piece = self._pieces.get(key)
        if piece is None:
            if not text:
                piece = Strip([Segment("", style.rich_style)], 0)
            elif text.isprintable():
                # Textual draws printable text of one style as one segment
                # in a style that does not depend on the text: asked once
                # per style, with a single character.
                look = self._pieces.get((None, run_style))
                if look is None:
                    look = self._pipeline("x", run_style, style)
                    self._pieces.set((None, run_style), look)
                (sample,) = look
                piece = Strip([Segment(text, sample.style)], cell_len(text))
            else:
                piece = self._pipeline(text, run_style, style)
            self._pieces.set(key, piece)
        return piece

    def _pipeline(self, text: str, run_style: Style | str, style) -> Strip:
        """``text`` drawn by Textual as ``render()`` would have it drawn."""
        visual = visualize(self, Text(text, run_style, no_wrap=True, overflow="crop", end=""))
        return Visual.to_strips(self, visual, max(1, cell_len(text)), 1, style)[0]


def whole_text(rows: Sequence[Sequence[Run]]) -> Text:
    """The rows as one Rich text: what ``render()`` gives Textual."""
    out = Text(no_wrap=True, overflow="crop")
    for y, runs in enumerate(rows):
        if y:
            out.append("\n")
        for text, style in runs:
            out.append(text if isinstance(text, str) else "".join(text), style)
    return out
