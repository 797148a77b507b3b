"""Barras readings (the rules page, ``tui/rules/barras.md``): a tens die (00, 10 … 90) and a units die
(0 … 9) read as their sum, the triple zero being 0 for the house and 100,
the best throw of all, for a player."""

from __future__ import annotations

TENS = tuple(range(0, 100, 10))
UNITS = tuple(range(10))


def value(tens: int, units: int, *, house: bool) -> int:
    """The throw's value: ``tens`` one of 0, 10 … 90, ``units`` 0 … 9."""
    if tens not in TENS or units not in UNITS or isinstance(tens, bool) or isinstance(units, bool):
        raise ValueError(f"a Barras throw is a tens die 00–90 and a units die 0–9, not {tens!r}+{units!r}")
    total = tens + units
    if total == 0 and not house:
        return 100
    return total


def faces(d10s: tuple[int, int]) -> tuple[int, int]:
    """Two d10 rolled 1–10 as the faces they show: (tens, units)."""
    a, b = d10s
    return (a - 1) * 10, b - 1


def show(tens: int, units: int) -> str:
    """ "70+2": the two dice as the table reads them (the tens die shows 00)."""
    return f"{tens:02d}+{units}"
