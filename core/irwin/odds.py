"""Exact chances for Irwin's Revenge, by enumeration: taking a statuette
with 2 or 3 d10 (100 or 1,000 throws), and winning a final-phase throw of
five d6 (7,776 throws) with the blessings held and the best use of the Ant
and the Eagle."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from itertools import product

from .rules import STATUETTES, has_four_run, is_straight, takes

_FINAL = ("ant", "eagle", "jellyfish", "salamander")  # the blessings that change a throw's chances


def _multisets() -> dict[tuple[int, ...], int]:
    counts: Counter[tuple[int, ...]] = Counter()
    for t in product(range(1, 7), repeat=5):
        counts[tuple(sorted(t))] += 1
    return dict(counts)


THROWS = _multisets()  # the 252 distinct throws of five d6 and how many of the 7,776 give each


@cache
def _wins(dice: tuple[int, ...], bless: frozenset[str]) -> bool:
    """final_wins for sorted dice, without the checks (the hot loop)."""
    if is_straight(dice):
        return True
    if "jellyfish" in bless and dice[0] == dice[4]:
        return True
    return "salamander" in bless and has_four_run(dice)


def _relevant(bless: frozenset[str]) -> frozenset[str]:
    return frozenset(b for b in bless if b in _FINAL)


@cache
def take_chance(statuette: str, dice: int) -> float:
    throws = list(product(range(1, 11), repeat=dice))
    return sum(takes(statuette, t) for t in throws) / len(throws)


def best_change(
    dice: tuple[int, ...], bless: frozenset[str], ant_number: int = 0
) -> tuple[int, int, int] | None:
    """(ant die, eagle die, eagle value) that makes the throw win, the
    fewest changes first, or None when nothing does. -1: not used."""
    bless = _relevant(bless)
    if _wins(tuple(sorted(dice)), bless):
        return (-1, -1, 0)
    ants = range(5) if "ant" in bless and ant_number else ()
    eagle = "eagle" in bless

    def wins_with(changes: Iterable[tuple[int, int]]) -> bool:
        d = list(dice)
        for i, v in changes:
            d[i] = v
        return _wins(tuple(sorted(d)), bless)

    for a in ants:
        if wins_with([(a, ant_number)]):
            return (a, -1, 0)
    if eagle:
        for j in range(5):
            for v in range(1, 7):
                if wins_with([(j, v)]):
                    return (-1, j, v)
        for a in ants:
            for j in range(5):
                for v in range(1, 7):
                    if wins_with([(a, ant_number), (j, v)]):
                        return (a, j, v)
    return None


@cache
def _throw_win_chance(bless: frozenset[str], ant_number: int) -> float:
    wins = sum(w for t, w in THROWS.items() if best_change(t, bless, ant_number) is not None)
    return wins / 6**5


def throw_win_chance(bless: frozenset[str], ant_number: int = 0) -> float:
    """The chance that one final-phase throw wins, the Ant and Eagle used
    at their best."""
    bless = _relevant(bless)
    return _throw_win_chance(bless, ant_number if "ant" in bless else 0)


@cache
def best_ant_number(bless: frozenset[str]) -> int:
    """The Ant's number that gives the best chance per throw."""
    bless = _relevant(bless)
    return max(range(1, 7), key=lambda n: (throw_win_chance(bless, n), -abs(n - 3.5)))


def race(p_first: float, p_second: float, first_extra: bool = False, second_extra: bool = False) -> float:
    """The chance that the player throwing first wins a race of alternate
    throws with per-throw chances ``p_first`` and ``p_second``; an extra
    throw on one's first turn (the Crab) as given."""
    miss1, miss2 = 1 - p_first, 1 - p_second
    # First turns, with the Crab's extra throws.
    win = 1 - miss1 ** (2 if first_extra else 1)
    reach = miss1 ** (2 if first_extra else 1) * miss2 ** (2 if second_extra else 1)
    # Then plain alternation.
    cycle = miss1 * miss2
    return win + reach * p_first / (1 - cycle) if cycle < 1 else win


def statuette_chances() -> dict[str, tuple[float, float]]:
    return {s: (take_chance(s, 2), take_chance(s, 3)) for s in STATUETTES}


def crab_choice(
    p: float, q: float, diff: int, rival_bare: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The Crab's second throw, judged exactly: ((match chance, expected
    point margin) if its holder throws again, (the same) if it passes).

    ``p`` and ``q`` are the holder's and the rival's chances per throw
    (``throw_win_chance``), ``diff`` the holder's victory points less the
    rival's as they stand (each throw so far counted), ``rival_bare``
    whether the rival holds no statuette (+50 more if it wins the final).
    Once the rival throws, the race is plain alternation, and each full
    cycle costs both one point: so from "the rival throws next, margin d"
    the rival wins first with r = q / (1 - (1-q)(1-p)), the margin then
    d + 1 - 15 (-50), else the holder, the margin d + 15 (its throw's point
    and the rival's cancel). Most points win; a tie goes to the final's
    winner."""
    rival_takes = 15 + (50 if rival_bare else 0)
    cycle = 1 - (1 - q) * (1 - p)
    r = q / cycle if cycle > 0 else 0.0

    def rival_next(d: int) -> tuple[float, float]:
        they, me = d + 1 - rival_takes, d + 15
        chance = r * (they > 0) + (1 - r) * (me >= 0)
        return chance, r * they + (1 - r) * me

    after_miss = rival_next(diff - 1)
    throw = (
        p * ((diff + 14) >= 0) + (1 - p) * after_miss[0],
        p * (diff + 14) + (1 - p) * after_miss[1],
    )
    return throw, rival_next(diff)
