"""Repaint only the rows of a widget that changed.

A reactive change normally repaints a whole widget. Over SSH every cell
costs bytes, so widgets whose content is a list of rows (a log, a score
table) compare what they will show with what they showed and mark only the
changed rows dirty: one new log line costs one line, not the whole panel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Region, Size
from textual.widget import Widget

# A mixin of Widgets: the type checker sees it as one.
_Base = Widget if TYPE_CHECKING else object


class RowRepaint(_Base):  # type: ignore[misc, valid-type]
    """Mixin for a render() widget: ``repaint_rows(rows)`` before showing
    new rows (any comparable values, one per line); ``shown(rows)`` from
    ``render`` to record what is on screen."""

    _shown: tuple[Size, list[Any]] | None = None

    def shown(self, rows: Sequence[Any]) -> None:
        self._shown = (self.content_size, list(rows))

    def repaint_rows(self, rows: Sequence[Any]) -> None:
        size = self.content_size
        if self._shown is None or self._shown[0] != size or not self.is_mounted:
            self.refresh()
            return
        old = self._shown[1]
        self._shown = (size, list(rows))
        changed = [
            y for y in range(max(len(old), len(rows))) if y >= len(old) or y >= len(rows) or old[y] != rows[y]
        ]
        spans = [(y, _span(old, rows, y, size.width)) for y in changed]
        regions = [Region(x0, y, x1 - x0, 1) for y, (x0, x1) in spans if x1 > x0]
        if regions:
            self.refresh(*regions)


def _span(old: Sequence[Any], new: Sequence[Any], y: int, width: int) -> tuple[int, int]:
    """The columns of row ``y`` to repaint: only as far as the longer of the
    old and new text (the blank rest of a row costs bytes and shows
    nothing), and, where both rows say what each character looks like, from
    the first cell that differs to the last: a caption whose count changed
    costs the count, not the caption (a Willie draw: 37 bytes of the hand's
    caption, 35 of the title's unchanged start)."""
    end = min(width, max(_extent(old, y), _extent(new, y), 1))
    a, b = _chars(old, y), _chars(new, y)
    if a is None or b is None:
        return 0, end
    p = 0
    while p < len(a) and p < len(b) and a[p] == b[p]:
        p += 1
    start = sum(cell_len(c) for c, _k in b[:p])
    if len(a) == len(b):
        s = 0
        while s < len(a) - p and a[-1 - s] == b[-1 - s]:
            s += 1
        if s:
            # the same characters at the end sit in the same cells only
            # when what comes before them is as wide on both rows
            before_a = sum(cell_len(c) for c, _k in a[: len(a) - s])
            before_b = sum(cell_len(c) for c, _k in b[: len(b) - s])
            if before_a == before_b:
                end = min(end, max(before_b, start))
    return min(start, end), end


def _chars(rows: Sequence[Any], y: int) -> Sequence[tuple[str, Any]] | None:
    """Row ``y`` as (character, look) pairs, or None where the row does not
    say: a row says with a (text, key) pair whose key is one look for the
    whole row, or a (text, looks) pair with one look per character
    (``char_looks``). A row of text alone does not (the log's last row may
    be styled apart)."""
    if y >= len(rows):
        return ()
    row = rows[y]
    if isinstance(row, tuple) and len(row) == 2 and isinstance(row[0], str):
        text, key = row
        if isinstance(key, tuple) and len(key) == len(text):
            return list(zip(text, key))
        if isinstance(key, str):
            return [(c, key) for c in text]
    return None


def char_looks(text: Text, length: int) -> tuple[tuple[Any, ...], ...]:
    """What each of the first ``length`` characters of ``text`` looks like:
    its base style and the styles of the spans over it, in order."""
    looks: list[tuple[Any, ...]] = [(text.style,)] * length
    for span in text.spans:
        for i in range(max(0, span.start), min(length, span.end)):
            looks[i] = (*looks[i], span.style)
    return tuple(looks)


def _extent(rows: Sequence[Any], y: int) -> int:
    """How many cells row ``y``'s text takes (a row is its text, or a tuple
    whose first item is); 10,000 (the whole row) for anything else."""
    if y >= len(rows):
        return 0
    row = rows[y]
    text = row if isinstance(row, str) else row[0] if isinstance(row, tuple) and row else None
    return cell_len(text) if isinstance(text, str) else 10_000
