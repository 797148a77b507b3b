"""Scoreboard: one row per seat, columns given by the game screen.

A row is a ``SeatRow``: its cells are plain strings; ``turn`` and ``lead``
mark the seat to act and the leading seat; ``out`` dims a seat that is out.
The widget only lays them out; what goes in the cells is the screen's call.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from textual.reactive import reactive
from textual.widget import Widget

from garito.core.i18n import N_, _

from .glyphs import glyphs, is_ascii
from .looks import KeptLooks, component_styles
from .rows import RowRepaint
from .strips import Run, StripRows
from .text import pad
from .values import SeatRow

__all__ = ["Scoreboard", "SeatRow"]


class Scoreboard(KeptLooks, StripRows, RowRepaint, Widget, can_focus=False):
    DEFAULT_CSS = """
    Scoreboard { height: auto; text-wrap: nowrap; }
    """
    COMPONENT_CLASSES = {"scoreboard--header", "scoreboard--turn", "scoreboard--lead", "scoreboard--out"}

    # Not repainted by themselves: the watchers repaint the rows that change.
    columns: reactive[tuple[str, ...]] = reactive((), repaint=False)
    rows: reactive[tuple[SeatRow, ...]] = reactive((), repaint=False)

    def __init__(self, label: str = N_("Seat"), **kwargs) -> None:
        super().__init__(**kwargs)
        # The first column's heading (rows need not be seats), in the
        # language spoken where the table is composed.
        self.label = _(label)

    def watch_rows(self) -> None:
        self.repaint_rows(self._lines())

    def watch_columns(self) -> None:
        self.repaint_rows(self._lines())

    def _lines(self) -> list[tuple[str, str]]:
        """(text, component class) per line. Columns are padded by hand into
        one span per row: a grid table would emit a span (and its escape
        codes) per cell and per gap."""
        g = glyphs(is_ascii(self))
        tags = [f" {g['computer']}" if r.computer else "" for r in self.rows]
        names = [r.name + tag for r, tag in zip(self.rows, tags)]
        # Widths in terminal cells: a name in 張偉 takes two a character.
        name_w = min(14, max([cell_len(self.label), *map(cell_len, names)]))
        widths = [
            max([cell_len(c), *(cell_len(r.cells[i]) for r in self.rows if i < len(r.cells))])
            for i, c in enumerate(self.columns)
        ]
        # In a narrow panel (six seats, long names) the names give way, not
        # the last columns: a row never runs past the widget's width.
        room = self.content_size.width - 2 - sum(w + 1 for w in widths)
        if self.content_size.width and room < name_w:
            name_w = max(cell_len(self.label) if room >= cell_len(self.label) else 4, room)

        def line(mark: str, name: str, cells, tag: str = "") -> str:
            if cell_len(name) + cell_len(tag) > name_w:
                name = set_cell_size(name, max(1, name_w - cell_len(tag) - 1)) + "…"
            name += tag
            parts = [mark, pad(name, name_w), *(pad(c, w) for c, w in zip(cells, widths))]
            return " ".join(parts).rstrip()

        lines = [(line(" ", self.label, self.columns), "scoreboard--header")]
        for row, tag in zip(self.rows, tags):
            name = row.name
            mark = g["turn"] if row.turn else (g["lead"] if row.lead else " ")
            style = (
                "scoreboard--out"
                if row.out
                else "scoreboard--turn"
                if row.turn
                else "scoreboard--lead"
                if row.lead
                else ""
            )
            lines.append((line(mark, name, row.cells, tag), style))
        return lines

    def look(self) -> object:
        return self.columns, self.rows, self.label, is_ascii(self)

    def runs(self) -> list[list[Run]]:
        lines = self._lines()
        self.shown(lines)
        styles = component_styles(self)
        return [[(content, styles[style] if style else "")] for content, style in lines]
