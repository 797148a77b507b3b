"""Exact probabilities over Decimus hands, for the computer seats.

Five d6 make 7,776 ordered rolls but only 252 distinct hands (sorted
tuples); every table here is indexed by a hand's number in ``HANDS``. What
a hand is worth in a game depends only on its value there, so comparisons
run over value histograms (at most 17 values) rather than hand against hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from .rules import GAMES, HIGHER_WINS, hand_value

HANDS: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(range(1, 7), 5))
INDEX = {h: i for i, h in enumerate(HANDS)}


def _weight(faces: tuple[int, ...]) -> float:
    """The chance of rolling exactly this multiset of faces."""
    ways = factorial(len(faces))
    for v in set(faces):
        ways //= factorial(faces.count(v))
    rolls: int = 6 ** len(faces)
    return ways / rolls


PRIOR: tuple[float, ...] = tuple(_weight(h) for h in HANDS)
VALUES: dict[str, tuple[int | None, ...]] = {g: tuple(hand_value(g, h) for h in HANDS) for g in GAMES}


def index(dice: Iterable[int]) -> int:
    return INDEX[tuple(sorted(dice))]


def beats(game: str, mine: int | None, theirs: int | None, first: bool) -> float:
    """1 when a hand of value ``mine`` wins against ``theirs`` (ties to the
    first player), 0 when it loses; 0.5 when neither has a hand (unscored)."""
    if mine is None:
        return 0.5 if theirs is None else 0.0
    if theirs is None:
        return 1.0
    if mine == theirs:
        return 1.0 if first else 0.0
    return 1.0 if (mine > theirs) == HIGHER_WINS[game] else 0.0


def histogram(game: str, dist: Sequence[float]) -> dict[int | None, float]:
    """A 252-entry distribution over hands as a distribution over values."""
    out: dict[int | None, float] = {}
    values = VALUES[game]
    for i, p in enumerate(dist):
        if p:
            v = values[i]
            out[v] = out.get(v, 0.0) + p
    return out


def equity(game: str, mine: int | None, hist: dict[int | None, float], first: bool) -> float:
    """The chance a hand of value ``mine`` wins ``game`` against a rival
    whose values are distributed as ``hist`` (normalised here)."""
    total = sum(hist.values())
    if total <= 0:
        return 0.5
    return sum(p * beats(game, mine, v, first) for v, p in hist.items()) / total


def with_hand(game: str, dist: Sequence[float]) -> list[float]:
    """``dist`` restricted to hands that have a hand in ``game``."""
    values = VALUES[game]
    return [p if values[i] is not None else 0.0 for i, p in enumerate(dist)]


# ------------------------------------------------------------------ rerolls


@cache
def rolls(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The multisets ``n`` fresh dice can show, with their chances."""
    return tuple((faces, _weight(faces)) for faces in combinations_with_replacement(range(1, 7), n))


@cache
def after_keep(kept: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """Keeping the sorted faces ``kept`` and rerolling the rest: the hands
    that can result (by number) and their chances."""
    out: dict[int, float] = {}
    for faces, p in rolls(5 - len(kept)):
        i = INDEX[tuple(sorted(kept + faces))]
        out[i] = out.get(i, 0.0) + p
    return tuple(out.items())


@cache
def keeps(hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The distinct sub-multisets of a sorted hand that leave at least one
    die to reroll (what a reroll can keep)."""
    found: set[tuple[int, ...]] = set()
    for mask in range(31):  # 31 = keep all: not a reroll
        found.add(tuple(hand[i] for i in range(5) if mask >> i & 1))
    return tuple(sorted(found, key=lambda k: (len(k), k)))


def positions_to_reroll(dice: Iterable[int], kept: tuple[int, ...]) -> tuple[int, ...]:
    """Which positions of ``dice`` to reroll so that the faces ``kept`` stay."""
    left = list(kept)
    out = []
    for i, d in enumerate(dice):
        if d in left:
            left.remove(d)
        else:
            out.append(i)
    return tuple(out)


@cache
def hand_score(first: bool) -> tuple[float, ...]:
    """Each hand's worth as the expected number of the four games it wins
    against a fresh roll (a game neither can score counts half)."""
    hists = {g: histogram(g, PRIOR) for g in GAMES}
    return tuple(sum(equity(g, VALUES[g][i], hists[g], first) for g in GAMES) for i in range(len(HANDS)))


@cache
def keep_policy(first: bool, left: int) -> tuple[tuple[tuple[int, ...] | None, float], ...]:
    """For each hand with ``left`` rerolls to come: the faces to keep (None
    = stand) and the hand's expected score played so, by backward induction
    from ``hand_score``."""
    score = hand_score(first)
    if left == 0:
        return tuple((None, s) for s in score)
    later = [v for _, v in keep_policy(first, left - 1)]
    expect: dict[tuple[int, ...], float] = {}
    out = []
    for i, hand in enumerate(HANDS):
        best: tuple[tuple[int, ...] | None, float] = (None, score[i])
        for kept in keeps(hand):
            if kept not in expect:
                expect[kept] = sum(p * later[j] for j, p in after_keep(kept))
            if expect[kept] > best[1] + 1e-12:
                best = (kept, expect[kept])
        out.append(best)
    return tuple(out)


@cache
def range_after(first: bool, rerolled: tuple[int, ...]) -> tuple[float, ...]:
    """The distribution of a rival's final hand (252 entries) given how many
    dice it rerolled each time (public), assuming it keeps as
    ``keep_policy`` does; where that policy could not have produced those
    counts, a fresh roll's distribution (dice chosen blindly leave it
    unchanged). A fifth stays blind either way, since rivals differ."""
    dist = list(PRIOR)
    modelled = True
    for step, count in enumerate(rerolled):
        policy = keep_policy(first, 2 - step)
        nxt = [0.0] * len(HANDS)
        for i, p in enumerate(dist):
            if not p:
                continue
            kept = policy[i][0]
            if kept is None or 5 - len(kept) != count:
                continue
            for j, q in after_keep(kept):
                nxt[j] += p * q
        if sum(nxt) <= 0:
            modelled = False
            break
        dist = nxt
    if len(rerolled) < 2 and modelled:
        # It stood: its hand is one the policy stands on.
        policy = keep_policy(first, 2 - len(rerolled))
        stood = [p if policy[i][0] is None else 0.0 for i, p in enumerate(dist)]
        if sum(stood) > 0:
            dist = stood
    if not modelled:
        return PRIOR
    total = sum(dist)
    return tuple(0.8 * p / total + 0.2 * q for p, q in zip(dist, PRIOR))
