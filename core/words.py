"""Small pieces of the games' narration they share, in the language spoken."""

from __future__ import annotations

from .i18n import _, ngettext

# Computer players' names, Spanish and Galician, as the games' homes are.
COMPUTER_NAMES = ("Ramón", "Lucía", "Tomás", "Inés", "Xoán", "Carmela")


def count(n: int, thing: str) -> str:
    """ "1 round", "0 rounds"."""
    return f"{n} {thing}{'s' if abs(n) != 1 else ''}"


def chips(n: int) -> str:
    """ "1 chip", "5 chips"."""
    return ngettext("{count} chip", "{count} chips", n).format(count=n)


def joined(names: list[str]) -> str:
    """ "Ana", "Ana and Luis", "Ana and Luis and Eva" (as the log has said them)."""
    return _(" and ").join(names)
