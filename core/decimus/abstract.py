"""The abstract betting game of one Decimus game, for the CFR+ solver
(``cfr.py``): a first step towards the "master" seat (issue #43).

What is abstracted, and why:

- **Bet sizes**: a bet or raise is one of :data:`SIZES` (1, 2, 3, 5 more than
  the rival's total); a real bet of any other size maps to the nearest of them
  (:func:`nearest_size`, ties to the smaller). The rules allow 1-30; a tree
  with thirty sizes at every node is far too big for a pure-Python solve.
- **Raises per game**: at most :data:`MAX_RAISES` bets and raises in all, then
  only see or fold: deep raise wars are rare and each level multiplies the tree.
- **Hands**: a seat's hand is its hand value in the game (Maiores: the top
  three dice's sum, 3-18), drawn from the distribution of five fair dice; the
  rerolls, the match score and the other three games are not modelled yet.

Payoffs are in points, the first seat's (*man*, who also wins ties) minus the
second's, as the rules score one game: both pass, 1 point to the better hand at
the showdown; a bet seen, the seen total; a fold, the folder's last total to
the rival, or 1 if the folder had bet nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from .cfr import CHANCE
from .rules import HIGHER_WINS, hand_value

SIZES = (1, 2, 3, 5)
MAX_RAISES = 3

PASS, SEE, FOLD = "p", "s", "f"


def nearest_size(n: int) -> int:
    """The abstract size a real bet or raise of ``n`` is played as."""
    return min(SIZES, key=lambda s: (abs(s - n), s))


@cache
def distribution(game: str) -> tuple[tuple[int, float], ...]:
    """Each hand value of ``game`` with its probability over five fair dice
    (exact: all 7,776 rolls), hands without a value left out."""
    counts: Counter[int] = Counter()
    for roll in product(range(1, 7), repeat=5):
        v = hand_value(game, roll)
        if v is not None:
            counts[v] += 1
    total = sum(counts.values())
    return tuple((v, float(Fraction(c, total))) for v, c in sorted(counts.items()))


@cache
def _key(moves: tuple[str | int, ...]) -> str:
    return ",".join(map(str, moves))


@cache
def _actions(moves: tuple[str | int, ...]) -> tuple[str | int, ...]:
    bets = sum(isinstance(m, int) for m in moves)
    raises: tuple[str | int, ...] = SIZES if bets < MAX_RAISES else ()
    if bets == 0:
        return (PASS, *raises)
    return (SEE, FOLD, *raises)


@dataclass(frozen=True)
class Node:
    """A history: both hands (None until dealt) and the moves so far, each a
    pass, see, fold or a size."""

    hands: tuple[int, ...] = ()
    moves: tuple[str | int, ...] = ()


class OneGame:
    """One Decimus game's betting, both seats dealt independent hands."""

    def __init__(self, game: str = "maiores", deal: tuple[tuple[int, float], ...] | None = None) -> None:
        self.game = game
        self.deal = distribution(game) if deal is None else deal
        self.higher = HIGHER_WINS[game]

    def root(self) -> Node:
        return Node()

    @staticmethod
    @cache
    def _totals(moves: tuple[str | int, ...]) -> tuple[tuple[int, int], int]:
        """Both seats' running totals and the seat to act next (cached: the
        solver asks for every history, and the betting sequences are few)."""
        totals = [0, 0]
        seat = 0
        for m in moves:
            if isinstance(m, int):
                totals[seat] = totals[1 - seat] + m
            seat = 1 - seat
        return (totals[0], totals[1]), seat

    def player(self, h: Node) -> int:
        if len(h.hands) < 2:
            return CHANCE
        return self._totals(h.moves)[1]

    def is_terminal(self, h: Node) -> bool:
        m = h.moves
        return bool(m) and (m[-1] in (SEE, FOLD) or m[-2:] == (PASS, PASS))

    def _first_wins(self, h: Node) -> bool:
        return self._first_wins_values(*h.hands)

    def _first_wins_values(self, a: int, b: int) -> bool:
        return a >= b if self.higher else a <= b

    def utility(self, h: Node) -> float:
        totals, seat = self._totals(h.moves)
        last = h.moves[-1]
        if last == FOLD:
            folder = 1 - seat
            points = totals[folder] or 1
            return float(points if folder == 1 else -points)
        points = 1 if last == PASS else max(totals)
        return float(points if self._first_wins(h) else -points)

    def actions(self, h: Node) -> Sequence[Hashable]:
        return _actions(h.moves)

    def chance(self, h: Node) -> Sequence[tuple[Hashable, float]]:
        return self.deal

    def infoset(self, h: Node) -> str:
        seat = self._totals(h.moves)[1]
        return f"{h.hands[seat]}|{_key(h.moves)}"

    def child(self, h: Node, a: Hashable) -> Node:
        if len(h.hands) < 2:
            assert isinstance(a, int)
            return Node((*h.hands, a), h.moves)
        assert isinstance(a, (str, int))
        return Node(h.hands, (*h.moves, a))
