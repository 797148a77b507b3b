"""Exact chances for Red Man's Throw, by enumerating the 216 throws of 3d6.

Everything here is a sum over the 56 distinct hands weighted by how many of
the 216 throws give each, so the figures are exact fractions (as floats).
Ties count half: the roll-off that settles them is a fair coin.
"""

from __future__ import annotations

from functools import cache

from .game import ROUNDS, Config, paid, settle
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


Later = tuple[float, float, float, float]
"""(a_won, a_lost, b_won, b_lost): the chance that this seat (a) or its
rival (b) rolls a Red Man in a later round of the match, should this seat
win or lose the round now being played. A Red Man takes back every chip he
put in and takes every chip the rival put in, so a chip that changes hands
on a call now is kept only if no Red Man comes later against its taker."""
NO_LATER: Later = (0.0, 0.0, 0.0, 0.0)


def _mirror(later: Later) -> Later:
    """The same chances from the rival's seat."""
    a_w, a_l, b_w, b_l = later
    return (b_l, b_w, a_l, a_w)


@cache
def _call_values(rival: Hand | None, later: Later = NO_LATER) -> tuple[dict[Hand, float], float]:
    """Per hand h, what a call that h fulfils gains over the same call
    missing it: the right call's stake from the rival (kept unless the rival
    is a Red Man later), won or lost, plus what a wrong one would have cost
    when lost (lost unless this seat is a Red Man later); and the total a
    call costs when it misses everything. A call's edge is then the sum of
    its hands' values minus that total, so all 110 calls cost one pass over
    55 hands. A Red Man in this round voids the calls."""
    a_w, a_l, b_w, b_l = later
    void = P_RED if rival is None else 0.0
    values, total = {}, 0.0
    for hand in _ORDINARY:
        p = WEIGHTS[hand] / OUTCOMES
        lose = _lose_with(hand, rival)
        win = 1.0 - void - lose
        cost = p * lose * (1.0 - a_l)
        values[hand] = p * (win * (1.0 - b_w) + lose * (1.0 - b_l)) + cost
        total += cost
    return values, total


def _sorted(hand: Hand | None) -> Hand | None:
    return None if hand is None else tuple(sorted(hand, reverse=True))  # type: ignore[return-value]


def prediction_edge(prediction: str, rival: Hand | None = None, later: Later = NO_LATER) -> float:
    """What calling ``prediction`` before rolling adds, in stakes, to the
    round's expected result (the settlement of ``game.settle``, and what a
    later Red Man would take: ``later``).

    Against not predicting, a right call gains one stake whether the round
    is won or lost, and a wrong one costs one stake when the round is lost;
    a Red Man this round voids it. ``rival`` is the hand already rolled,
    or None when the rival rolls after (and may still roll 6-6-6).
    """
    values, total = _call_values(_sorted(rival), later)
    return sum(values.get(h, 0.0) for h in hits(prediction)) - total


@cache
def best_prediction(rival: Hand | None = None, later: Later = NO_LATER) -> tuple[str, float]:
    """The call with the highest edge, and that edge ("" and 0.0 when no
    call is worth making)."""
    values, total = _call_values(_sorted(rival), later)
    best, edge = "", 0.0
    for p in PREDICTIONS:
        e = sum(values.get(h, 0.0) for h in hits(p)) - total
        if e > edge + 1e-12:
            best, edge = p, e
    return best, edge


@cache
def round_value(first: bool, predictions: bool, later: Later = NO_LATER) -> tuple[float, float]:
    """(mean, mean square) of a seat's result on one round, in stakes, when
    both seats play the best calls (``best_prediction``); ``first`` is
    whether this seat rolls first. Each ordinary outcome counts as the
    ledger has it unless a Red Man comes later (``later``): then the Red
    Man's seat gets every chip its rival put in on the round, and loses
    none of its own."""
    a_w, a_l, b_w, b_l = later
    mine, theirs = later, _mirror(later)
    call1 = best_prediction(None, mine if first else theirs)[0] if predictions else ""
    mean = sq = 0.0
    # A Red Man this round: the stake, one way or the other (what was put
    # in before is the same whatever this round's stake).
    p_first, p_second = P_RED, (1 - P_RED) * P_RED
    mine_red = p_first if first else p_second
    mean += mine_red - (p_second if first else p_first)
    sq += p_first + p_second
    for h1 in _ORDINARY:
        p1 = WEIGHTS[h1] / OUTCOMES
        r1 = bool(call1) and h1 in hits(call1)
        call2 = best_prediction(h1, theirs if first else mine)[0] if predictions else ""
        for h2 in _ORDINARY:
            p = p1 * WEIGHTS[h2] / OUTCOMES
            r2 = bool(call2) and h2 in hits(call2)
            c = (_KEY[h1] > _KEY[h2]) - (_KEY[h1] < _KEY[h2])
            outcomes = [(0, 1.0)] if c > 0 else [(1, 1.0)] if c < 0 else [(0, 0.5), (1, 0.5)]
            for winner, q in outcomes:
                # seat 0 rolled first; this seat is 0 when ``first``
                calls, right = (bool(call1), bool(call2)), (r1 if call1 else None, r2 if call2 else None)
                preds = ("x" if calls[0] else "", "x" if calls[1] else "")
                net = settle(1, winner, preds, right)
                put = paid(1, winner, preds, right)
                me = 0 if first else 1
                won = winner == me
                a, b = (a_w, b_w) if won else (a_l, b_l)
                ledger, took, gave = net[me], put[1 - me], put[me]
                mean += p * q * ((1 - a - b) * ledger + a * took - b * gave)
                sq += p * q * ((1 - a - b) * ledger * ledger + a * took * took + b * gave * gave)
    return mean, sq


@cache
def _later(rule: str, first: int, w0: int, w1: int, number: int) -> tuple[float, float]:
    """The chance that seat 0, and seat 1, rolls a Red Man in round
    ``number`` or after, from a score of ``w0``–``w1`` before it (none in
    the Salvation: one die is not a hand)."""
    if number > ROUNDS or abs(w0 - w1) > ROUNDS - number + 1:
        return 0.0, 0.0
    seat = first if rule == "fixed" else (first + number - 1) % 2
    red0, red1, plain = _round_end_chances(seat)
    up0 = _later(rule, first, w0 + 1, w1, number + 1)
    up1 = _later(rule, first, w0, w1 + 1, number + 1)
    return red0 + plain * 0.5 * (up0[0] + up1[0]), red1 + plain * 0.5 * (up0[1] + up1[1])


def later_red_men(config: Config, wins: tuple[int, int], number: int, seat: int) -> Later:
    """``Later`` for ``seat`` in round ``number`` with ``wins`` so far."""
    rule, first = config.first_roller, config.first
    won = list(wins)
    won[seat] += 1
    lost = list(wins)
    lost[1 - seat] += 1
    after_won = _later(rule, first, won[0], won[1], number + 1)
    after_lost = _later(rule, first, lost[0], lost[1], number + 1)
    return after_won[seat], after_lost[seat], after_won[1 - seat], after_lost[1 - seat]


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
