"""The computer seats for Decimus, deciding from their seat's view alone.

``classic`` is the original web game's rival, rebuilt from its description
as a reference: its win rates are estimated from 1,000 sampled rival hands.
For its rerolls it compares its dice with three sampled fresh rolls and, when
one of them is better, rerolls all five (the original simply kept the best of
its three rolls; here the dice come from the table, so "take a fresh roll" is
the move that stands for it).

``strong`` plays from exact probabilities (``hands``): which dice to keep by
backward induction over the 252 hands; the rival's hand as a 252-entry
distribution updated by the public reroll counts and by its bets; bets sized
by its chance to win the game, with some bluffs (a fold costs only the
folder's own total), and the score near the target taken into account.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

from ..errors import check_level
from . import hands
from .game import (
    DECLARED,
    FOLD,
    LEVELS,
    MAX_RAISE,
    PASS,
    SEE,
    STAND,
    Action,
    BetPlaced,
    BettingOpened,
    Rerolled,
    View,
    round_events,
)
from .rules import GAMES, hand_value


def choose(view: View, legal: list[Action], level: str = "strong") -> Action:
    check_level("decimus", LEVELS, level)
    if not legal:
        raise ValueError("no legal action to choose from")
    rng = random.Random(_seed(view))
    play = _strong if level == "strong" else _classic
    action = play(view, legal, rng)
    if action not in legal:  # never expected; a wrong guess must not stall the table
        action = legal[0]
    return action


def _seed(view: View) -> int:
    # ints and tuples of ints hash the same in every process
    return hash((view.seat, view.round, len(view.events), view.dice, view.scores)) & 0xFFFFFFFF


def _bet_action(view: View, raise_by: int) -> Action:
    return Action("bet", amount=max(1, min(MAX_RAISE, raise_by)))


# ------------------------------------------------------------------ classic

_CUM: list[float] = []
_acc = 0.0
for _p in hands.PRIOR:
    _acc += _p
    _CUM.append(_acc)


def _sample(rng: random.Random, n: int = 1000) -> Counter[int]:
    """``n`` sampled rival hands, counted by hand number."""
    return Counter(rng.choices(range(len(hands.HANDS)), cum_weights=_CUM, k=n))


def _rate(game: str, dice: Sequence[int], rivals: Counter[int], first: bool) -> float:
    """The share of the sampled rival hands ``dice`` beat in ``game``."""
    values = hands.VALUES[game]
    hist: dict[int | None, float] = {}
    for r, n in rivals.items():
        hist[values[r]] = hist.get(values[r], 0.0) + n
    return hands.equity(game, hand_value(game, dice), hist, first)


def _classic(view: View, legal: list[Action], rng: random.Random) -> Action:
    me = view.seat
    first = view.first == me
    if view.stage == "roll":
        rivals = _sample(rng)

        def rate(dice: Sequence[int]) -> float:
            return sum(_rate(g, dice, rivals, first) for g in GAMES) / len(GAMES)

        fresh = [tuple(rng.randint(1, 6) for _ in range(5)) for _ in range(3)]
        if len(legal) > 1 and max(map(rate, fresh)) > rate(view.dice):
            return Action("reroll", dice=(0, 1, 2, 3, 4))
        return STAND
    game = view.game
    rivals = _sample(rng)
    if game in DECLARED:
        rivals = Counter({r: n for r, n in rivals.items() if hands.VALUES[game][r] is not None}) or rivals
    wr = _rate(game, view.dice, rivals, first)
    you, it = view.scores[1 - me], view.scores[me]
    your_bet, its_bet = view.totals[1 - me], view.totals[me]
    target = view.config.target
    can_fold = FOLD in legal

    def small() -> Action:
        return _bet_action(view, 2 if its_bet == 0 else rng.randint(1, 2))

    def big() -> Action:
        return _bet_action(view, rng.randint(3, 6))

    def see_or_pass() -> Action:
        return SEE if SEE in legal else PASS

    if (you + (its_bet or 1) >= target and you + (its_bet or 1) >= it) or (you >= target and you > it):
        return _bet_action(view, you - it + 5)
    if you < target and you + your_bet >= target and wr <= 0.75 and can_fold:
        return FOLD
    if wr > 0.99:
        return big()
    if wr > 0.9:
        return SEE if your_bet > 9 and SEE in legal else big()
    if wr > 0.75:
        return SEE if your_bet > 2 and SEE in legal else small()
    if (wr > 0.4 and your_bet <= 2) or your_bet <= 1:
        return see_or_pass()
    return FOLD if can_fold else PASS


# ------------------------------------------------------------------- strong


@cache
def _strength(game: str, first: bool) -> tuple[float, ...]:
    """Each hand's chance to win ``game`` against a fresh roll that has a hand."""
    hist = hands.histogram(game, hands.with_hand(game, hands.PRIOR) if game in DECLARED else hands.PRIOR)
    return tuple(hands.equity(game, v, hist, first) for v in hands.VALUES[game])


def rival_range(view: View) -> Sequence[float]:
    """The rival's final hand as a 252-entry distribution: from its public
    reroll counts, then (while betting) its having a hand in the game and
    each bet it made in this game, which makes strong hands likelier."""
    rival = 1 - view.seat
    rival_first = view.first == rival
    events = round_events(view.events)
    counts = tuple(len(ev.dice) for ev in events if isinstance(ev, Rerolled) and ev.seat == rival)
    dist: Sequence[float] = hands.range_after(rival_first, counts)
    if view.stage != "bet":
        return dist
    game = view.game
    if game in DECLARED:
        dist = hands.with_hand(game, dist)
    strength = _strength(game, rival_first)
    opened = max(i for i, ev in enumerate(events) if isinstance(ev, BettingOpened))
    raises = sum(1 for ev in events[opened:] if isinstance(ev, BetPlaced) and ev.seat == rival)
    for _ in range(min(raises, 2)):
        dist = [p * (0.3 + 0.7 / (1 + math.exp(-(s - 0.6) / 0.08))) for p, s in zip(dist, strength)]
    return dist


def game_equity(view: View) -> float:
    """The chance this seat's dice win the game being bet."""
    game = view.game
    hist = hands.histogram(game, rival_range(view))
    return hands.equity(game, hand_value(game, view.dice), hist, view.first == view.seat)


def _strong(view: View, legal: list[Action], rng: random.Random) -> Action:
    me = view.seat
    first = view.first == me
    if view.stage == "roll":
        if len(legal) == 1:
            return STAND
        kept, _ = hands.keep_policy(first, 2 - view.rerolls[me])[hands.index(view.dice)]
        if kept is None:
            return STAND
        return Action("reroll", dice=hands.positions_to_reroll(view.dice, kept))
    e = game_equity(view)
    mine, theirs = view.totals[me], view.totals[1 - me]
    my_score, their_score = view.scores[me], view.scores[1 - me]
    target = view.config.target
    if not view.bet_made:
        if e >= 0.95:
            return _bet_action(view, 4)
        if e >= 0.8:
            return _bet_action(view, 3)
        if e >= 0.66:
            return _bet_action(view, 2)
        if e < 0.3 and rng.random() < 0.3:
            return _bet_action(view, 3)  # a bluff: folding to it costs the rival 1
        return PASS
    fold_cost = mine or 1
    if their_score + fold_cost >= target and their_score + fold_cost > my_score:
        # Folding would hand over the match: see, or raise on a good hand.
        return _bet_action(view, 3) if e > 0.6 and theirs < 15 else SEE
    if e >= 0.85 and theirs < 12:
        return _bet_action(view, 3 if e >= 0.95 else 2)
    see_value = (2 * e - 1) * theirs
    if their_score < target <= their_score + theirs and e < 0.5:
        return FOLD  # a lost see would take the rival to the target
    if see_value >= -fold_cost:
        return SEE
    return FOLD
