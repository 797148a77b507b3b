"""Gemelos hand comparison: the twins rule, and why a hand won.

A hand is two d8 faces, in any order. The relation is not transitive
((3,3) beats (8,1), (8,1) beats (5,4), (5,4) beats (3,3)), which is why the
game needs "king of the hill" for three or more players.
"""

from __future__ import annotations

from ..i18n import _

Hand = tuple[int, int]


def is_twins(hand: Hand) -> bool:
    return hand[0] == hand[1]


def _check(hand: Hand) -> None:
    if len(hand) != 2 or not all(isinstance(d, int) and 1 <= d <= 8 for d in hand):
        raise ValueError(f"a Gemelos hand is two d8 faces, got {hand!r}")


def compare(a: Hand, b: Hand) -> int:
    """1 when ``a`` wins, -1 when ``b`` wins, 0 for a tie (identical hands)."""
    _check(a)
    _check(b)
    a_twins, b_twins = is_twins(a), is_twins(b)
    if a_twins and b_twins:
        return (a[0] > b[0]) - (a[0] < b[0])
    if a_twins:
        # Twins of t lose only to a hand whose two dice are both above t.
        return -1 if min(b) > a[0] else 1
    if b_twins:
        return 1 if min(a) > b[0] else -1
    key_a, key_b = (sum(a), max(a)), (sum(b), max(b))
    return (key_a > key_b) - (key_a < key_b)


def show(hand: Hand) -> str:
    """The hand as the log writes it: the higher die first, "8+1"."""
    hi, lo = max(hand), min(hand)
    return f"{hi}+{lo}"


def describe(hand: Hand) -> str:
    """The hand's name: "twins of 3" or "8+1 = 9"."""
    if is_twins(hand):
        return _("twins of {face}").format(face=hand[0])
    return f"{show(hand)} = {sum(hand)}"


def explain(winner: Hand, loser: Hand) -> str:
    """Why ``winner`` beats ``loser``, in the words of the rule that decides it.

    >>> explain((3, 3), (8, 1))
    'twins of 3 hold: the 8+1 has a die ≤ 3'
    """
    if compare(winner, loser) != 1:
        raise ValueError(f"{winner} does not beat {loser}")
    if is_twins(winner) and is_twins(loser):
        return _("twins of {high} beat twins of {low}").format(high=winner[0], low=loser[0])
    if is_twins(winner):
        t = winner[0]
        if t == 8:
            return _("twins of 8 beat any other hand, the {hand} too").format(hand=show(loser))
        return _("twins of {face} hold: the {hand} has a die ≤ {face}").format(face=t, hand=show(loser))
    if is_twins(loser):
        t = loser[0]
        return _("the {hand} beats twins of {face}: both dice above {face}").format(hand=show(winner), face=t)
    if sum(winner) != sum(loser):
        return _("{high} beats {low}").format(high=sum(winner), low=sum(loser))
    return _("equal sums of {total}: the {hand} has the higher die").format(
        total=sum(winner), hand=show(winner)
    )


# Every ordered roll of 2d8 is equally likely; as multisets, twins come up
# 1 time in 64 and every other pair 2 times in 64.
HANDS: tuple[tuple[Hand, int], ...] = tuple(
    ((hi, lo), 1 if hi == lo else 2) for hi in range(8, 0, -1) for lo in range(hi, 0, -1)
)
OUTCOMES = 64
