"""Scoreboard: one row per seat, columns given by the game screen.

A row is a ``SeatRow``: its cells are plain strings; ``turn`` and ``lead``
mark the seat to act and the leading seat; ``out`` dims a seat that is out.
The widget only lays them out; what goes in the cells is the screen's call.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from .glyphs import glyphs, is_ascii


@dataclass(frozen=True)
class SeatRow:
    name: str
    cells: tuple[str, ...]
    turn: bool = False
    lead: bool = False
    computer: bool = False
    out: bool = False


class Scoreboard(Widget, can_focus=False):
    DEFAULT_CSS = """
    Scoreboard { height: auto; }
    """
    COMPONENT_CLASSES = {"scoreboard--header", "scoreboard--turn", "scoreboard--lead", "scoreboard--out"}

    columns: reactive[tuple[str, ...]] = reactive((), layout=True)
    rows: reactive[tuple[SeatRow, ...]] = reactive((), layout=True)

    def render(self) -> RenderableType:
        g = glyphs(is_ascii(self))
        table = Table.grid(padding=(0, 1))
        table.add_column(width=1)
        table.add_column(no_wrap=True, overflow="ellipsis", max_width=14)
        for _ in self.columns:
            table.add_column(no_wrap=True, justify="left")
        header = self.get_component_rich_style("scoreboard--header")
        table.add_row("", Text("Seat", header), *(Text(c, header) for c in self.columns))
        for row in self.rows:
            mark = g["turn"] if row.turn else (g["lead"] if row.lead else " ")
            name = row.name + (f" {g['computer']}" if row.computer else "")
            style = ""
            if row.out:
                style = self.get_component_rich_style("scoreboard--out")
            elif row.turn:
                style = self.get_component_rich_style("scoreboard--turn")
            elif row.lead:
                style = self.get_component_rich_style("scoreboard--lead")
            table.add_row(Text(mark, style), Text(name, style), *(Text(c, style) for c in row.cells))
        return table
