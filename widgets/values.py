"""The plain values the widgets are bound to: a seat's row of the
scoreboard, a die of the tray. No Textual here, so a presenter (``tui/
presenters/``) makes them and its tests run without an app."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeatRow:
    """One seat's row: its cells are plain strings; ``turn`` and ``lead``
    mark the seat to act and the leading seat; ``out`` dims a seat that is out."""

    name: str
    cells: tuple[str, ...]
    turn: bool = False
    lead: bool = False
    computer: bool = False
    out: bool = False


@dataclass(frozen=True)
class Die:
    """A die: value 0 draws a blank (not yet rolled) die; ``mark`` is "" or
    one of "win", "lose", "held", "dim", "hot", which the tray's CSS colours."""

    value: int
    sides: int = 6
    mark: str = ""
    label: str = ""  # what the face shows, when not its value ("00" on a tens die)
