"""GameLog: the running story of a game, newest line at the bottom.

A plain render widget rather than a RichLog: adding a line repaints the log's
own region and never changes a virtual size, which would re-layout (and so
repaint) the whole screen, about 14 KB per roll over SSH instead of ~1 KB.
Lines are word-wrapped with a hanging indent; PageUp/PageDown (driven by
the screen, as the log never takes the focus) look back through the story.
"""

from __future__ import annotations

import textwrap

from rich.cells import cell_len
from textual.reactive import reactive
from textual.widget import Widget

from garito.core.i18n import ngettext

from .glyphs import is_ascii, to_ascii
from .looks import component_styles
from .rows import RowRepaint
from .strips import Run, StripRows


class GameLog(StripRows, RowRepaint, Widget, can_focus=False):
    DEFAULT_CSS = """
    GameLog { height: 1fr; text-wrap: nowrap; text-overflow: clip; }
    """
    COMPONENT_CLASSES = {"gamelog--more"}

    # Not repainted by themselves: the watchers repaint the rows that change.
    lines: reactive[tuple[str, ...]] = reactive((), repaint=False)
    back: reactive[int] = reactive(0, repaint=False)  # wrapped lines scrolled back from the newest

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._width = 0
        self._wrapped: list[list[str]] = []

    def tell(self, lines: list[str] | tuple[str, ...]) -> None:
        """Show the story so far (the whole list, every time: only what
        changed is wrapped again)."""
        lines = tuple(lines)
        if lines != self.lines:
            if lines[: len(self.lines)] != self.lines:
                # Not the old story with lines added (a window of the last
                # few, another story): wrapped again from the top.
                self._wrapped = []
            self.lines = lines
            self.back = 0

    def _rows(self, width: int) -> list[str]:
        if width != self._width or len(self._wrapped) > len(self.lines):
            self._width, self._wrapped = width, []
        for line in self.lines[len(self._wrapped) :]:
            line = to_ascii(line) if is_ascii(self) else line
            self._wrapped.append(_wrap(line, width))
        return [row for rows in self._wrapped for row in rows]

    def page(self, pages: int) -> None:
        height = max(1, self.content_size.height)
        total = len(self._rows(max(1, self.content_size.width)))
        # Scrolled back, the last row says there is more: height - 1 rows of
        # the story show, so the first is reached at total - (height - 1).
        furthest = total - height + 1 if total > height else 0
        self.back = max(0, min(furthest, self.back + pages * (height - 1)))

    def watch_lines(self) -> None:
        self.repaint_rows(self._visible())

    def watch_back(self) -> None:
        self.repaint_rows(self._visible())

    def _visible(self) -> list[str]:
        width, height = self.content_size.width, self.content_size.height
        if width < 4 or height < 1:
            return []
        rows = self._rows(width)
        end = len(rows) - self.back
        if self.back:
            more = ngettext("… {count} newer (PgDn)", "… {count} newer (PgDn)", self.back).format(
                count=self.back
            )
            return rows[max(0, end - height + 1) : end] + [to_ascii(more) if is_ascii(self) else more]
        return rows[max(0, end - height) : end]

    def runs(self) -> list[list[Run]]:
        rows = self._visible()
        self.shown(rows)
        runs: list[list[Run]] = [[(row, "")] for row in rows]
        if self.back and rows:
            runs[-1] = [(rows[-1], component_styles(self)["gamelog--more"])]
        return runs


# Stands after each wide character while a line is wrapped: textwrap counts
# characters, a terminal cells (Supplementary Private Use Area: in no name).
_SECOND_CELL = "\U000f0000"


class _CellWrapper(textwrap.TextWrapper):
    def _handle_long_word(self, reversed_chunks, cur_line, cur_len, width):
        # A word longer than the row is broken at the row's end, never
        # between a wide character and its second cell.
        chunk = reversed_chunks[-1]
        end = max(width - cur_len, 1)
        if chunk[end : end + 1] == _SECOND_CELL:
            end += -1 if end > 1 or cur_line else 1
        cur_line.append(chunk[:end])
        reversed_chunks[-1] = chunk[end:]


def _wrap(line: str, width: int) -> list[str]:
    """``line`` word-wrapped to ``width`` cells, the rows after the first
    indented. A row wider than the log would be pushed onto a row of its
    own, below which every row is one lower than the rows repainted (a name
    in 張偉 takes two cells a character)."""
    if cell_len(line) == len(line):
        return textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) or [""]
    counted = "".join(c + _SECOND_CELL if cell_len(c) == 2 else c for c in line)
    rows = _CellWrapper(width, subsequent_indent="  ", break_on_hyphens=False).wrap(counted)
    return [row.replace(_SECOND_CELL, "") for row in rows] or [""]
