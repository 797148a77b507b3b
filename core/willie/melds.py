"""One meld at a time (the rules page's "Melding"): groups, runs and the Willie.

``meld_problem`` says in words why some cards are not a meld (the screen
marks an invalid meld with it); ``is_meld`` is its yes/no. An undeclared
wild in a group or run is accepted when some declaration would make the
meld legal (that is what ``arrange`` and a player's "declare" step decide);
a table the rules accept has every such wild declared.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..i18n import _
from .cards import SUITS, Card, parse

GROUP_MAX = 4  # the rules' reading; five is a variant


def meld_problem(cards: Iterable[str], group_max: int = GROUP_MAX) -> str | None:
    """None when ``cards`` make one legal meld, else the rule they break."""
    parsed = [parse(c) for c in cards]
    return _problem(parsed, group_max)


def is_meld(cards: Iterable[str], group_max: int = GROUP_MAX) -> bool:
    """Do these cards (in the notation) make one legal meld?"""
    return meld_problem(cards, group_max) is None


def kind(cards: Iterable[str]) -> str:
    """``willie``, ``group`` or ``run`` for a legal meld."""
    parsed = [parse(c) for c in cards]
    if all(c.wild and not c.declared for c in parsed):
        return "willie"
    return "group" if len({c.rank for c in parsed if c.rank}) == 1 else "run"


def _problem(cards: list[Card], group_max: int) -> str | None:
    if len(cards) < 3:
        return _("A meld has at least three cards.")
    loose = [c for c in cards if c.wild and not c.declared]
    if len(loose) == len(cards):
        if len(cards) == 3 and sorted(c.face for c in cards) == ["J", "K", "Q"]:
            return None
        return _("Wild cards alone make only a Willie: one Jack, one Queen, one King.")
    wilds = [c for c in cards if c.wild]
    if len(wilds) > 1:
        return _("At most one wild in a group or run.")
    numbers = [c for c in cards if c.rank]
    idents = [c.identity for c in numbers]
    if len(set(idents)) < len(idents):
        return _("A card cannot be in a meld twice (a wild may not stand for a card in its own meld).")
    ranks = {c.rank for c in numbers}
    suits = {c.suit for c in numbers}
    if len(ranks) == 1:
        size = len(cards)
        if size > group_max:
            return _("A group has at most {count} cards.").format(count=group_max)
        if len(suits) < len(numbers):
            return _("A group's cards are all of different suits.")
        if loose and len(suits) >= len(SUITS):
            return _("No suit is left for the wild in this group.")
        return None
    if len(suits) != 1:
        return _("A group is one rank in different suits; a run is one suit in a row.")
    lo, hi = min(ranks), max(ranks)
    gaps = (hi - lo + 1) - len(numbers)
    if gaps == 0:
        if loose and lo == 2 and hi == 10:
            return _("A run goes from 2 to 10 and no further: there is no place for the wild.")
        return None
    if gaps == 1 and loose:
        return None
    return _("A run's cards follow each other in one suit, with no gap.")
