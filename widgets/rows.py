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
        if changed:
            # Only as far as the longer of the old and new text: the blank
            # rest of a row costs bytes (styles, padding) and shows nothing.
            self.refresh(
                *(
                    Region(0, y, min(size.width, max(_extent(old, y), _extent(rows, y), 1)), 1)
                    for y in changed
                )
            )


def _extent(rows: Sequence[Any], y: int) -> int:
    """How many cells row ``y``'s text takes (a row is its text, or a tuple
    whose first item is); 10,000 (the whole row) for anything else."""
    if y >= len(rows):
        return 0
    row = rows[y]
    text = row if isinstance(row, str) else row[0] if isinstance(row, tuple) and row else None
    return cell_len(text) if isinstance(text, str) else 10_000
