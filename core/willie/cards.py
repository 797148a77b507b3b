"""The Haggis deck and Willie's card notation (the rules page, tui/rules/willie.md).

A number card is its rank then its suit letter: ``7r``, ``10b``; the five
suits are ``r`` ``o`` ``y`` ``g`` ``b`` (red, orange, yellow, green, blue).
The face cards are wild: ``J``, ``Q``, ``K`` in a hand or in a Willie meld,
and ``J=7r`` once declared as the card they stand for in a group or run.
The notation is what logs, records and tests use; a screen adds a symbol
per suit so that colour is never the only difference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

SUITS = "roygb"
SUIT_NAMES = {"r": "red", "o": "orange", "y": "yellow", "g": "green", "b": "blue"}
RANKS = tuple(range(2, 11))
FACES = "JQK"
FACE_NAMES = {"J": "Jack", "Q": "Queen", "K": "King"}
POINTS = {"J": 2, "Q": 3, "K": 5}  # a number card is 1


@dataclass(frozen=True)
class Card:
    """One card as the notation reads it: a number card (``face`` empty), a
    wild (``face`` set, ``rank`` 0) or a declared wild (both set)."""

    face: str = ""
    rank: int = 0
    suit: str = ""

    @property
    def wild(self) -> bool:
        return bool(self.face)

    @property
    def declared(self) -> bool:
        return bool(self.face) and self.rank > 0

    @property
    def identity(self) -> str:
        """The number card it is or stands for; empty for an undeclared wild."""
        return f"{self.rank}{self.suit}" if self.rank else ""

    @property
    def physical(self) -> str:
        """The card in the hand: ``J=7r`` is a ``J``."""
        return self.face or self.identity

    @property
    def points(self) -> int:
        return POINTS[self.face] if self.face else 1

    def __str__(self) -> str:
        if self.face and self.rank:
            return f"{self.face}={self.identity}"
        return self.physical


def parse(text: str) -> Card:
    """A card from its notation; ``ValueError`` naming the text otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"a card is written like 7r, 10b, J or J=7r, not {text!r}")
    face, sep, ident = text.partition("=")
    if sep:
        if face not in ("J", "Q", "K"):
            raise ValueError(f"only a J, Q or K can stand for another card, not {text!r}")
        number = parse(ident)
        if number.wild:
            raise ValueError(f"a wild stands for a number card, not {ident!r}")
        return Card(face, number.rank, number.suit)
    if text in ("J", "Q", "K"):
        return Card(text)
    rank, suit = text[:-1], text[-1:]
    if suit in SUITS and rank.isdigit() and int(rank) in RANKS and str(int(rank)) == rank:
        return Card("", int(rank), suit)
    raise ValueError(f"a card is written like 7r, 10b, J or J=7r, not {text!r}")


def index(card: Card) -> int:
    """A number identity as 0..44: suit-major, rank 2 first."""
    return SUITS.index(card.suit) * 9 + card.rank - 2


def name_of(cell: int) -> str:
    return f"{cell % 9 + 2}{SUITS[cell // 9]}"


def points(cards: Iterable[str]) -> int:
    """Hand points: number card 1, Jack 2, Queen 3, King 5."""
    return sum(parse(c).points for c in cards)


def deck() -> tuple[str, ...]:
    """The 54 cards in a fixed order."""
    return tuple(f"{r}{s}" for s in SUITS for r in RANKS) + ("J", "Q", "K") * 3


DECK_COUNT = Counter(deck())


def sort_key(card: str) -> tuple[int, int, int]:
    """Hands sorted by suit then rank, the wilds last."""
    c = parse(card)
    if c.wild and not c.declared:
        return (len(SUITS), 0, FACES.index(c.face))
    return (SUITS.index(c.suit), c.rank, 0)


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))
