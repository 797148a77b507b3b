"""A brute-force Willie solver for small positions, written apart from the
real one (no grid, no dynamic program): try every subset of the hand and
every partition of the cards into melds. Slow, and obviously right.

The wild rule: a wild may stand for any number card not in its own meld
and not stood for by another wild; with ``strict``, also not on the table
at all. A declared wild whose real card is among the cards is freed (the
real card moved onto it), and a freed wild may be declared anew."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from garito.core.willie.cards import SUITS, Card, parse
from garito.core.willie.melds import meld_problem

ALL = [f"{r}{s}" for s in SUITS for r in range(2, 11)]
# Parsed once: the search asks for them by the hundred thousand (parsing them
# each time was half the brute force's time in the suite).
ALL_CARDS = [(a, parse(a)) for a in ALL]


@lru_cache(maxsize=1 << 16)
def _is_meld(cards: tuple[str, ...], group_max: int) -> bool:
    """The rules' own check, remembered: the search meets the same melds in
    many subsets and partitions."""
    return meld_problem(cards, group_max) is None


def _prepare(cards: list[Card], strict: bool) -> list[Card] | None:
    """Free the declared wilds whose real card is among the cards."""
    reals = {c.identity for c in cards if not c.wild}
    out = [Card(c.face) if c.declared and c.identity in reals else c for c in cards]
    fixed = [c.identity for c in out if c.identity and (strict or c.wild)]
    return out if len(fixed) == len(set(fixed)) else None


def partition(cards: list[Card], group_max: int = 4, strict: bool = False) -> list[list[str]] | None:
    cards = _prepare(cards, strict)
    if cards is None:
        return None
    # the cards a wild may no longer stand for
    used = {c.identity for c in cards if c.identity and (strict or c.wild)}
    order = sorted(range(len(cards)), key=lambda i: (not cards[i].identity, i))
    return _part([cards[i] for i in order], used, group_max)


def _part(cards: list[Card], used: set[str], group_max: int):
    if not cards:
        return []
    first, rest = cards[0], cards[1:]
    # only cards that share the first card's rank or suit (or wilds) can join it
    fits = [
        i
        for i, c in enumerate(rest)
        if not first.identity or not c.identity or c.rank == first.rank or c.suit == first.suit
    ]
    for size in range(2, min(len(fits), 9) + 1):
        for chosen in combinations(fits, size):
            others = set(chosen)
            meld = [first] + [rest[i] for i in chosen]
            remaining = [c for i, c in enumerate(rest) if i not in others]
            for filled, new_used in _declarations(meld, used):
                if _is_meld(tuple(str(c) for c in filled), group_max):
                    sub = _part(remaining, new_used, group_max)
                    if sub is not None:
                        return [[str(c) for c in filled]] + sub
    return None


def _declarations(meld: list[Card], used: set[str]):
    loose = [i for i, c in enumerate(meld) if c.wild and not c.declared]
    if not loose:
        yield meld, used
        return
    if len(loose) == len(meld):
        yield meld, used  # a Willie, or nothing
        return
    if len(loose) > 1:
        return
    i = loose[0]
    numbers = [c for c in meld if c.identity]
    near = [
        (a, card) for a, card in ALL_CARDS if any(card.rank == c.rank or card.suit == c.suit for c in numbers)
    ]
    for ident, card in near:
        if ident in used:
            continue
        filled = list(meld)
        filled[i] = Card(meld[i].face, card.rank, card.suit)
        yield filled, used | {ident}


def best(table, hand, group_max: int = 4, strict: bool = False):
    """The most hand points (then cards) any legal play sheds: (points, cards)."""
    table_cards = [parse(c) for m in table for c in m]
    top = (0, 0)
    for n in range(1, len(hand) + 1):
        for chosen in combinations(range(len(hand)), n):
            played = [parse(hand[i]) for i in chosen]
            score = (sum(c.points for c in played), n)
            if score <= top:
                continue
            if partition(table_cards + played, group_max, strict) is not None:
                top = score
    return top
