"""Small pieces of English the games' narration shares."""

from __future__ import annotations


def chips(n: int) -> str:
    """ "1 chip", "5 chips"."""
    return f"{n} chip{'s' if abs(n) != 1 else ''}"
