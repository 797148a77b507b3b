"""Repaint only the rows of a widget that changed.

A reactive change normally repaints a whole widget. Over SSH every cell
costs bytes, so widgets whose content is a list of rows (a log, a score
table) compare what they will show with what they showed and mark only the
changed rows dirty: one new log line costs one line, not the whole panel.
"""

from __future__ import annotations

from textual.geometry import Region, Size
from textual.widget import Widget


class RowRepaint:
    """Mixin for a render() widget: ``repaint_rows(rows)`` before showing
    new rows (any comparable values, one per line); ``shown(rows)`` from
    ``render`` to record what is on screen."""

    _shown: tuple[Size, list] | None = None

    def shown(self: Widget, rows: list) -> None:
        self._shown = (self.content_size, list(rows))

    def repaint_rows(self: Widget, rows: list) -> None:
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
            self.refresh(*(Region(0, y, size.width, 1) for y in changed))
