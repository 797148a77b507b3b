"""Exact chances of winning a Gemelos round, over the 64 outcomes of 2d8.

The round is "king of the hill" in turn order with roll-offs among tied
leaders (the rules page, tui/rules/gemelos.md), so a seat's chance depends on who has rolled what,
where it sits in the order, and how many still roll after it. Everything is
computed by exact enumeration over the 36 distinct hands (twins weigh 1/64,
other pairs 2/64).

The rolls before the seat's own are summed forward, without the seat in
them (``_ahead``), so the backward part, from the seat's roll on, is shared
by every seat and every moment of the round; both are cached.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from typing import TYPE_CHECKING

from .rules import HANDS, OUTCOMES, Hand, compare

if TYPE_CHECKING:
    from .game import View

Lead = tuple[Hand | None, int, int]  # the leading hand, how many share it, the target's place among them

_P = {hand: weight / OUTCOMES for hand, weight in HANDS}
_CMP = {(a, b): compare(a, b) for a in _P for b in _P}


def _step(leader: Hand | None, k: int, pos: int, hand: Hand, is_target: bool) -> Lead:
    """King of the hill: the leader state after ``hand`` is rolled.

    State: the leading hand, how many share it, and the target's position
    among the leaders (-1: not leading).
    """
    if leader is None:
        return hand, 1, 0 if is_target else -1
    c = _CMP[hand, leader]
    if c > 0:
        return hand, 1, 0 if is_target else -1
    if c == 0:
        return leader, k + 1, k if is_target else pos
    return leader, k, pos


@cache
def _pass(
    leader: Hand | None, k: int, pos: int, to_roll: int, target_at: int, players: int
) -> tuple[float, float]:
    """(P(target wins the round), P(round void)) from this point of a pass.

    ``to_roll`` players still roll; the target is the ``target_at``-th of them
    (-1 if it has already rolled). ``players`` is the number of seats in the
    match: with two, a tie voids the round; with more, it is rolled off.
    """
    if to_roll == 0:
        if k == 1:
            return (1.0 if pos == 0 else 0.0), 0.0
        if players == 2:
            return 0.0, 1.0
        return (_rolloff(k, pos) if pos >= 0 else 0.0), 0.0
    win = void = 0.0
    if target_at > 0:
        for (ahead, ahead_k), q in _ahead(leader, k, target_at):
            w, v = _pass(ahead, ahead_k, -1, to_roll - target_at, 0, players)
            win += q * w
            void += q * v
        return win, void
    for hand, p in _P.items():
        nxt = _step(leader, k, pos, hand, target_at == 0)
        w, v = _pass(*nxt, to_roll - 1, target_at - 1 if target_at >= 0 else -1, players)
        win += p * w
        void += p * v
    return win, void


@cache
def _ahead(leader: Hand | None, k: int, steps: int) -> tuple[tuple[tuple[Hand | None, int], float], ...]:
    """The (leader, tied) distribution after ``steps`` rolls by other seats."""
    dist: dict[tuple[Hand | None, int], float] = {(leader, k): 1.0}
    for _ in range(steps):
        nxt: defaultdict[tuple[Hand | None, int], float] = defaultdict(float)
        for (lead, lead_k), q in dist.items():
            for hand, p in _P.items():
                new_lead, new_k, _ = _step(lead, lead_k, -1, hand, False)
                nxt[new_lead, new_k] += q * p
        dist = nxt
    return tuple(dist.items())


@cache
def _rolloff(k: int, j: int) -> float:
    """P(the j-th of k tied leaders wins their roll-off).

    A roll-off is a king-of-the-hill pass among the k; if all k tie again it
    repeats, which is solved in closed form rather than by unbounded recursion.
    """
    all_tie = 0.0
    for first, p in _P.items():
        # Probability that every other player rolls exactly ``first``.
        all_tie += p * _P[first] ** (k - 1)
    # Win probability counting only outcomes that end or narrow the tie:
    # enumerate the pass with "narrowing" roll-offs handled recursively.
    win = _rolloff_pass(None, 0, -1, k, j, k)
    return win / (1 - all_tie)


@cache
def _rolloff_pass(leader: Hand | None, lead_k: int, pos: int, to_roll: int, target_at: int, k: int) -> float:
    if to_roll == 0:
        if lead_k == 1:
            return 1.0 if pos == 0 else 0.0
        if lead_k == k:
            return 0.0  # all tied again: accounted for by the caller
        return _rolloff(lead_k, pos) if pos >= 0 else 0.0
    win = 0.0
    for hand, p in _P.items():
        nxt = _step(leader, lead_k, pos, hand, target_at == 0)
        win += p * _rolloff_pass(*nxt, to_roll - 1, target_at - 1 if target_at >= 0 else -1, k)
    return win


def round_chances(
    leader: Hand | None,
    leaders: int,
    target_lead_pos: int,
    to_roll: int,
    target_at: int,
    players: int,
) -> tuple[float, float, float]:
    """(win, lose, void) chances for one seat, given the round so far.

    ``leader``/``leaders``: the leading hand and how many share it (None/0
    before anyone has rolled); ``target_lead_pos``: the seat's position among
    the leaders, or -1; ``to_roll``: how many still roll in this pass;
    ``target_at``: the seat's index among them, or -1 if it has rolled.
    """
    if leader is not None:
        leader = (max(leader), min(leader))  # the tables know each hand high die first
    win, void = _pass(leader, leaders, target_lead_pos, to_roll, target_at, players)
    return float(win), float(1 - win - void), float(void)


def seat_chances(view: View, seat: int) -> tuple[float, float, float]:
    """(win, lose, void) for ``seat`` in the round as ``view`` shows it
    (a Gemelos ``View``: the order, the throws so far, the leaders)."""
    rolled = {t.seat for t in view.throws}
    pending = [s for s in view.order if s not in rolled]
    target_at = pending.index(seat) if seat in pending else -1
    pos = view.leaders.index(seat) if seat in view.leaders else -1
    players = view.config.players
    if view.rolloff:
        players = max(players, 3)  # a roll-off is never void: it is repeated
    if seat not in view.order:
        return 0.0, 1.0, 0.0  # out of the roll-off
    return round_chances(view.lead_hand, len(view.leaders), pos, len(pending), target_at, players)
