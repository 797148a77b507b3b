"""Exact chances for Red Man's Throw, by enumerating the 216 throws of 3d6.

Everything here is a sum over the 56 distinct hands weighted by how many of
the 216 throws give each, so the figures are exact fractions (as floats).
Ties count half: the roll-off that settles them is a fair coin.
"""

from __future__ import annotations

from functools import cache

from .game import ROUNDS, Config
from .rules import HANDS, OUTCOMES, PREDICTIONS, RED_MAN, WEIGHTS, Hand, hits, key

P_RED = WEIGHTS[RED_MAN] / OUTCOMES  # 1/216
_ORDINARY = tuple(h for h in HANDS if h != RED_MAN)
_KEY = {h: key(h) for h in HANDS}  # hands here are already sorted: no re-checking in the loops


@cache
def _loss(hand: Hand) -> float:
    """The chance that a rival who rolls after ``hand`` beats it with an
    ordinary hand (not 6-6-6), ties counting half."""
    k = _KEY[hand]
    total = 0.0
    for other in _ORDINARY:
        ko = _KEY[other]
        if ko > k:
            total += WEIGHTS[other]
        elif ko == k:
            total += WEIGHTS[other] / 2
    return total / OUTCOMES


def round_chances(hand: Hand | None = None, rival: Hand | None = None) -> tuple[float, float]:
    """(win, lose) for a seat about to roll, before it rolls.

    ``rival`` is the hand already on the table, or None when this seat rolls
    first (then the rival may still roll 6-6-6). 6-6-6 wins either way.
    ``hand`` given instead asks about that hand against a rival yet to roll.
    """
    if hand is not None:
        if hand == RED_MAN:
            return 1.0, 0.0
        lose = _loss(hand) + P_RED
        return 1.0 - lose, lose
    if rival is not None:
        lose = 1.0 - _loss(rival) - P_RED  # the rival's hand holds against mine
        return 1.0 - lose, lose
    lose = sum(WEIGHTS[h] * (_loss(h) + P_RED) for h in _ORDINARY) / OUTCOMES
    return 1.0 - lose, lose


def _lose_with(hand: Hand, rival: Hand | None) -> float:
    """Chance that ``hand`` loses the round without a Red Man voiding it."""
    if rival is None:
        return _loss(hand)
    k, kr = _KEY[hand], _KEY[rival]
    return 1.0 if kr > k else 0.5 if kr == k else 0.0


@cache
def _call_values(rival: Hand | None) -> tuple[dict[Hand, float], float]:
    """Per hand h, what a call that h fulfils gains over the same call
    missing it: p(h)·(1 − void) for the right call plus p(h)·lose(h) that a
    wrong one would have cost; and the total a call costs when it misses
    everything (Σ p(h)·lose(h)). A call's edge is then the sum of its hands'
    values minus that total, so all 110 calls cost one pass over 55 hands."""
    void = P_RED if rival is None else 0.0
    values, total = {}, 0.0
    for hand in _ORDINARY:
        p = WEIGHTS[hand] / OUTCOMES
        lose = p * _lose_with(hand, rival)
        values[hand] = p * (1.0 - void) + lose
        total += lose
    return values, total


def _sorted(hand: Hand | None) -> Hand | None:
    return None if hand is None else tuple(sorted(hand, reverse=True))  # type: ignore[return-value]


def prediction_edge(prediction: str, rival: Hand | None = None) -> float:
    """What calling ``prediction`` before rolling adds, in stakes, to the
    round's expected result (RULES.md §2 as settled in ``game.settle``).

    Against not predicting, a right call gains one stake whether the round
    is won or lost, and a wrong one costs one stake when the round is lost;
    a Red Man on either side voids it. ``rival`` is the hand already rolled,
    or None when the rival rolls after (and may still roll 6-6-6).
    """
    values, total = _call_values(_sorted(rival))
    return sum(values.get(h, 0.0) for h in hits(prediction)) - total


@cache
def best_prediction(rival: Hand | None = None) -> tuple[str, float]:
    """The call with the highest edge, and that edge ("" and 0.0 when no
    call is worth making)."""
    values, total = _call_values(_sorted(rival))
    best, edge = "", 0.0
    for p in PREDICTIONS:
        e = sum(values.get(h, 0.0) for h in hits(p)) - total
        if e > edge + 1e-12:
            best, edge = p, e
    return best, edge


@cache
def round_value(first: bool, predictions: bool) -> tuple[float, float]:
    """(mean, mean square) of a seat's result on one round, in stakes, when
    both seats play the best calls (``best_prediction``); ``first`` is
    whether this seat rolls first."""
    call1, _ = best_prediction(None) if predictions else ("", 0.0)
    mean = sq = 0.0
    # The first roller's view: +1 for its own Red Man.
    mean += P_RED
    sq += P_RED
    for h1 in _ORDINARY:
        p1 = WEIGHTS[h1] / OUTCOMES
        r1 = bool(call1) and h1 in hits(call1)
        w1 = bool(call1) and not r1
        call2 = best_prediction(h1)[0] if predictions else ""
        mean -= p1 * P_RED  # the second roller's Red Man
        sq += p1 * P_RED
        for h2 in _ORDINARY:
            p = p1 * WEIGHTS[h2] / OUTCOMES
            r2 = bool(call2) and h2 in hits(call2)
            w2 = bool(call2) and not r2
            c = (_KEY[h1] > _KEY[h2]) - (_KEY[h1] < _KEY[h2])
            outcomes = [(1, 1.0)] if c > 0 else [(-1, 1.0)] if c < 0 else [(1, 0.5), (-1, 0.5)]
            for sign, q in outcomes:
                win = sign > 0
                net = sign + r1 - r2 + (w2 if win else 0) - (w1 if not win else 0)
                mean += p * q * net
                sq += p * q * net * net
    if not first:
        mean = -mean  # a zero-sum round: the second roller's is the mirror
    return mean, sq


def _round_end_chances(first_seat: int) -> tuple[float, float, float]:
    """(seat 0 wins the match on a Red Man, seat 1 does, ordinary round)."""
    p_first = P_RED
    p_second = (1 - P_RED) * P_RED
    p0, p1 = (p_first, p_second) if first_seat == 0 else (p_second, p_first)
    return p0, p1, 1 - p_first - p_second


def match_chance(config: Config, wins: tuple[int, int], number: int) -> float:
    """Seat 0's exact chance of winning the match from the start of round
    ``number`` with ``wins`` so far (an ordinary round is a fair coin once
    neither throw is the Red Man; the Salvation is a fair coin)."""
    return _match(config.first_roller, config.first, wins[0], wins[1], number)


@cache
def _match(rule: str, first: int, w0: int, w1: int, number: int) -> float:
    if number > ROUNDS:
        if w0 != w1:
            return 1.0 if w0 > w1 else 0.0
        return 0.5  # the Salvation
    if abs(w0 - w1) > ROUNDS - number + 1:
        return 1.0 if w0 > w1 else 0.0
    seat = first if rule == "fixed" else (first + number - 1) % 2
    red0, _red1, plain = _round_end_chances(seat)
    return red0 + plain * 0.5 * (
        _match(rule, first, w0 + 1, w1, number + 1) + _match(rule, first, w0, w1 + 1, number + 1)
    )
