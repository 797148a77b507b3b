"""The computer seat for Irwin's Revenge, deciding from its view alone.

* Expedition: ``hard`` names the statuette with the best expected worth:
  the exact chance of taking it with the dice it throws (2 or 3 d10), times
  what it is worth (+5 held, +3 kept from the rival, +10 at a first
  attempt, its blessing's gain in the final) less what its curse costs;
  ``easy`` names the statuette likeliest to be taken.
* Final: both play each throw at its best (a change that wins, if any);
  ``hard`` picks the Ant's number with the best chance per throw, takes
  the Salamander deal that gives the most expected points, and takes the
  Crab's second throw when that gives the better exact chance of winning
  the match, then the better expected point margin (``odds.crab_choice``):
  a throw costs a point, so well ahead it passes; ``easy`` picks 6 for the
  Ant, keeps the Salamander and always throws again.
"""

from __future__ import annotations

from ..errors import check_level
from .game import KEEP, LEVELS, PASS, THROW, Action, View, blessings, dice_count, held_by, score  # noqa: F401
from .odds import best_ant_number, best_change, crab_choice, race, take_chance, throw_win_chance
from .rules import STATUETTES

# What a curse costs its holder, in victory points (the Crab and Ant: the
# mean of the rival's roll; the others: the rival's extra chances).
CURSE_COST = {"crab": 5.5, "ant": 11.0, "jellyfish": 6.0, "eagle": 6.0, "salamander": 6.0}


def _final_value(view: View, seat: int, bless: frozenset[str], rival_bless: frozenset[str]) -> float:
    """Expected points from the final: 15 times the chance of winning it."""
    p_me = throw_win_chance(bless, best_ant_number(bless) if "ant" in bless else 0)
    p_rival = throw_win_chance(rival_bless, best_ant_number(rival_bless) if "ant" in rival_bless else 0)
    me_first = len(held_by(view, seat)) >= len(held_by(view, 1 - seat))
    if me_first:
        return 15 * race(p_me, p_rival, "crab" in bless, "crab" in rival_bless)
    return 15 * (1 - race(p_rival, p_me, "crab" in rival_bless, "crab" in bless))


def choose(view: View, legal: list[Action], level: str = "hard") -> Action:
    check_level("irwin", LEVELS, level)
    if not legal:
        raise ValueError("no legal action to choose from")
    me = view.seat
    kind = legal[0].kind
    if kind == "name":
        return _name(view, legal, level)
    if kind == "salamander":
        if level == "easy":
            return Action("salamander", statuette="keep")
        return _deal(view)
    if kind == "ant":
        if level == "easy":
            return Action("ant", number=6)
        return Action("ant", number=best_ant_number(blessings(view, me)))
    if kind == "throw":
        if PASS in legal and level == "hard":
            return _crab(view)
        return THROW
    change = best_change(view.dice, blessings(view, me), view.ant_number)
    if change is None or change == (-1, -1, 0):
        return KEEP
    a, j, v = change
    return Action("change", ant=a, eagle=j, value=v)


def _name(view: View, legal: list[Action], level: str) -> Action:
    me = view.seat
    n = dice_count(view, me)
    if level == "easy":
        return max(legal, key=lambda a: take_chance(a.statuette, n))
    mine = held_by(view, me)

    def worth(s: str) -> float:
        first = 10 if s not in view.attempts[me] else 0
        bless = throw_win_chance(frozenset(mine | {s})) - throw_win_chance(frozenset(mine))
        return take_chance(s, n) * (5 + 3 + first + 15 * bless - CURSE_COST[s])

    return max(legal, key=lambda a: (worth(a.statuette), -STATUETTES.index(a.statuette)))


def _crab(view: View) -> Action:
    """Throw again or pass, by the exact chances of ``odds.crab_choice``."""
    me, rival = view.seat, 1 - view.seat
    p = throw_win_chance(blessings(view, me), view.ant_number)
    q = throw_win_chance(blessings(view, rival), view.ant_number)
    diff = score(view, me).total - score(view, rival).total
    again, stop = crab_choice(p, q, diff, not held_by(view, rival))
    return THROW if again > stop else PASS


def _deal(view: View) -> Action:
    me = view.seat
    bless = blessings(view, me)
    rival = blessings(view, 1 - me)
    options = {
        "keep": _final_value(view, me, bless, rival),
        "renounce": 15 + _final_value(view, me, bless - {"salamander"}, rival),
        "cede": 30 + _final_value(view, me, bless - {"salamander"}, rival | {"salamander"}),
    }
    return Action("salamander", statuette=max(options, key=lambda deal: options[deal]))
