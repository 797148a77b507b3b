"""Small pieces of English the games' narration shares."""

from __future__ import annotations

# Computer players' names, Spanish and Galician, as the games' homes are.
COMPUTER_NAMES = ("Ramón", "Lucía", "Tomás", "Inés", "Xoán", "Carmela")


def count(n: int, thing: str) -> str:
    """ "1 round", "0 rounds"."""
    return f"{n} {thing}{'s' if abs(n) != 1 else ''}"


def chips(n: int) -> str:
    """ "1 chip", "5 chips"."""
    return count(n, "chip")
