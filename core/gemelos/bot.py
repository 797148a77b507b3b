"""The computer seat for Gemelos.

Rolling is forced, so the only decision is the stake, taken from the exact
chance of winning the round as the seat sees it (``odds.seat_chances``):

* ``easy`` stakes in proportion to its chance of winning, as a naive player
  does: it ignores how many rivals pay in and whether the bet is favourable.
* ``hard`` stakes by the bet's expected value under the pot rule (the winner
  takes from each loser at most its own stake): nothing above the minimum
  unless the bet is favourable, and then in proportion to its edge, a
  fractional-Kelly sizing so a run of bad rounds does not ruin it.
"""

from __future__ import annotations

from ..errors import check_level
from .game import (
    LEVELS,  # noqa: F401
    ROLL,
    Action,
    View,
)
from .odds import seat_chances


def choose(view: View, legal: list[Action], level: str = "hard") -> Action:
    check_level("gemelos", LEVELS, level)
    if not legal:
        raise ValueError("no legal action to choose from")
    if legal == [ROLL]:
        return ROLL
    amounts = [a.amount for a in legal]
    low, high = min(amounts), max(amounts)
    if low == high:
        return legal[0]
    win, lose, _void = seat_chances(view, view.seat)
    if level == "easy":
        amount = low + round((high - low) * win)
    else:
        rivals = view.config.players - 1
        # Per chip staked (rivals matching it): +rivals when winning, -1 when losing.
        edge = win * rivals - lose
        if edge <= 0:
            amount = low
        else:
            kelly = edge / rivals  # fraction of the bankroll Kelly would bet
            amount = low + round((high - low) * min(1.0, 2 * kelly))
    amount = max(low, min(high, amount))
    return Action("stake", amount)
