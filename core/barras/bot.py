"""Computer players for Barras, three personalities that decide from the
exact chance of taking the round (``odds.win_chance``: above the bar and
highest among the bettors already in, roll-offs included).

What a bet is worth: alone against the house, the solo payout against the
bet; against other bettors, the bets already on the table against one's
own (the winner takes the others' bets, whatever it staked itself, so among
several bettors the minimum is the sound bet).

* ``cautious`` bets the minimum, and only with a clear edge (at least a
  fifth of its bet).
* ``steady`` bets whenever the bet is favourable; alone against the house
  it sizes the bet by half the Kelly fraction of its chips.
* ``reckless`` bets whenever its chance is one in three or better, big:
  the table maximum when alone, half its chips' worth among rivals.
"""

from __future__ import annotations

from ..errors import check_level
from .game import LEVELS, ROLL, SIT, Action, View  # noqa: F401
from .odds import win_chance


def choose(view: View, legal: list[Action], level: str = "steady") -> Action:
    check_level("barras", LEVELS, level)
    if not legal:
        raise ValueError("no legal action to choose from")
    if view.stage != "bet":
        return ROLL
    bets = [a.amount for a in legal if a.kind == "bet"]
    if not bets:
        return SIT
    low, high = min(bets), max(bets)
    me = view.seat
    others = [b for i, b in enumerate(view.bets) if i != me and b]
    p = win_chance(view.bar, len(others))
    pot = sum(others)

    def expected(stake: int) -> float:
        gain = view.config.payout(stake) if not others else pot
        return p * gain - (1 - p) * stake

    if level == "reckless":
        if p < 1 / 3:
            return SIT
        stake = high if not others else max(low, min(high, view.chips[me] // 2))
        return Action("bet", stake)
    if level == "cautious":
        return Action("bet", low) if expected(low) >= 0.2 * low else SIT
    if expected(low) <= 0:
        return SIT
    if others:
        return Action("bet", low)
    odds = view.config.payout(1000) / 1000  # the solo payout per chip bet
    kelly = (p * odds - (1 - p)) / odds
    stake = round(0.5 * kelly * view.chips[me])
    return Action("bet", max(low, min(high, stake)))
