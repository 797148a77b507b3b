"""The computer seat for Red Man's Throw, deciding from its view alone.

Rolling is forced; the choices are the stake and, with predictions on, the
call before rolling. Both levels work from exact chances (``odds``):

* ``hard`` calls a prediction only when its expected value is positive
  (``odds.best_prediction``: the second roller, who has seen the rival's
  hand, often has one). It stakes the minimum unless the round is in its
  favour, then a half-Kelly amount: so it proposes low as first roller and
  raises as second when predictions give the second roller an edge. Both
  values count what a Red Man later in the match would take
  (``odds.later_red_men``): every chip his rival put in, none of his own.
* ``easy`` stakes in proportion to its exact chance of winning the match
  from the score, and, when behind, calls the hand most likely to come
  whatever it is worth, like a player chasing the match.
"""

from __future__ import annotations

from ..errors import check_level
from .game import LEVELS, ROLL, TIP, Action, View  # noqa: F401
from .odds import best_prediction, later_red_men, match_chance, round_value
from .rules import CATEGORIES, prediction_chance


def choose(view: View, legal: list[Action], level: str = "hard") -> Action:
    check_level("redman", LEVELS, level)
    if not legal:
        raise ValueError("no legal action to choose from")
    if legal == [TIP]:
        return TIP
    if legal[0].kind == "stake":
        return _stake(view, legal, level)
    if len(legal) == 1:
        return legal[0]
    return _roll(view, level)


def _stake(view: View, legal: list[Action], level: str) -> Action:
    amounts = [a.amount for a in legal]
    low, high = min(amounts), max(amounts)
    me = view.seat
    if level == "easy":
        p0 = match_chance(view.config, view.wins, view.round)
        mine = p0 if me == 0 else 1 - p0
        amount = low + round((high - low) * mine)
    else:
        later = later_red_men(view.config, view.wins, view.round, me)
        mean, square = round_value(view.first == me, view.config.bets == "predictions", later)
        if mean <= 1e-9:
            amount = low
        else:
            wealth = view.chips[me] + view.net[me]
            amount = round(0.5 * mean / square * wealth)  # half Kelly
    return Action("stake", max(low, min(high, amount)))


def _roll(view: View, level: str) -> Action:
    rival = view.hands[1 - view.seat]
    if level == "easy":
        if view.wins[view.seat] >= view.wins[1 - view.seat]:
            return ROLL
        hunch = max(CATEGORIES, key=prediction_chance)
        return Action("roll", prediction=hunch)
    call, edge = best_prediction(rival, later_red_men(view.config, view.wins, view.round, view.seat))
    return Action("roll", prediction=call) if call and edge > 0 else ROLL
