"""Decimus hands (the rules page, tui/rules/decimus.md): the four games a roll of five d6 is bet on.

The rule functions; the round and its betting are in ``game``.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from ..i18n import _

GAMES = ("maiores", "menores", "un_en_dous", "par_con_as")
TITLES = {"maiores": "Maiores", "menores": "Menores", "un_en_dous": "Un en dous", "par_con_as": "Par con as"}
HIGHER_WINS = {"maiores": True, "menores": False, "un_en_dous": False, "par_con_as": True}


def _check(game: str, dice: Iterable[int]) -> tuple[int, ...]:
    if game not in GAMES:
        raise ValueError(f"a Decimus game is one of {', '.join(GAMES)}, not {game!r}")
    dice = tuple(dice)
    if len(dice) != 5 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise ValueError(f"a Decimus hand is five d6, got {dice!r}")
    return dice


def hand_value(game: str, dice: Iterable[int]) -> int | None:
    """The hand's value in ``game``: the sum of the top three dice
    (Maiores) or of the bottom three (Menores); the smallest die that equals
    the sum of two other dice (Un en dous); the highest pair with a separate
    ace beside it (Par con as: a pair of aces needs three aces). None when
    there is no hand."""
    dice = _check(game, dice)
    ordered = sorted(dice)
    if game == "maiores":
        return sum(ordered[-3:])
    if game == "menores":
        return sum(ordered[:3])
    if game == "un_en_dous":
        sums = [
            dice[k]
            for k in range(5)
            for i, j in combinations([x for x in range(5) if x != k], 2)
            if dice[i] + dice[j] == dice[k]
        ]
        return min(sums) if sums else None
    counts = {v: dice.count(v) for v in set(dice)}
    aces = counts.get(1, 0)
    pairs = [v for v, c in counts.items() if c >= 2 and (aces >= 3 if v == 1 else aces >= 1)]
    return max(pairs) if pairs else None


def hand_dice(game: str, dice: Iterable[int]) -> tuple[int, ...]:
    """Which dice (positions) make the hand, for the screen to highlight."""
    dice = _check(game, dice)
    order = sorted(range(5), key=lambda i: (dice[i], i))
    value = hand_value(game, dice)
    if game == "maiores":
        return tuple(sorted(order[-3:]))
    if game == "menores":
        return tuple(sorted(order[:3]))
    if value is None:
        return ()
    if game == "un_en_dous":
        for k in range(5):
            if dice[k] != value:
                continue
            for i, j in combinations([x for x in range(5) if x != k], 2):
                if dice[i] + dice[j] == value:
                    return tuple(sorted((i, j, k)))
    pair = [i for i in range(5) if dice[i] == value][:2]
    ace = next(i for i in range(5) if dice[i] == 1 and i not in pair)
    return tuple(sorted(pair + [ace]))


def winner(game: str, first: Iterable[int], second: Iterable[int]) -> int:
    """0 when the first player's dice win ``game`` (ties go to the first
    player, the *man*), 1 when the second's do; where only one side has a
    hand, that side; ValueError when neither has."""
    a, b = hand_value(game, first), hand_value(game, second)
    if a is None and b is None:
        raise ValueError(f"neither player has a hand in {TITLES[game]}")
    if a is None:
        return 1
    if b is None:
        return 0
    if a == b:
        return 0
    return 0 if (a > b) == HIGHER_WINS[game] else 1


def describe(game: str, dice: Iterable[int], short: bool = False, owned: bool = False) -> str:
    """The hand in words, as the showdown tells it: "6-6-5 = 17",
    "1-2-2 = 5", "4 = 1+3", "a pair of 5s with an ace", "no hand";
    ``short`` for a table cell ("5s + ace"); ``owned`` after a name's "'s"
    ("Ana's pair of 5s with an ace", "Ana's no hand" being "Ana's hand: none")."""
    dice = _check(game, dice)
    value = hand_value(game, dice)
    if value is None:
        return _("hand: none") if owned else _("no hand")
    ordered = sorted(dice)
    if game == "maiores":
        return "-".join(map(str, ordered[:1:-1])) + f" = {value}"
    if game == "menores":
        return "-".join(map(str, ordered[:3])) + f" = {value}"
    if game == "un_en_dous":
        i, j, k = hand_dice(game, dice)
        parts = sorted(dice[x] for x in (i, j, k))
        return f"{parts[2]} = {parts[0]}+{parts[1]}"
    # TRANSLATORS: a pair of dice showing {value} ("5s"), in "pair of 5s with an ace".
    pair = _("aces") if value == 1 else _("{value}s").format(value=value)
    if short:
        return _("{pair} + ace").format(pair=pair)
    if owned:
        return _("pair of {pair} with an ace").format(pair=pair)
    return _("a pair of {pair} with an ace").format(pair=pair)


def why(game: str, won: Iterable[int], lost: Iterable[int], tie_to_first: bool) -> str:
    """Why ``won`` takes ``game`` from ``lost``, in a few words."""
    a, b = hand_value(game, won), hand_value(game, lost)
    if b is None:
        return _("the only hand")
    if a == b:
        return _("a tie goes to the first player") if tie_to_first else _("equal")
    if game == "un_en_dous":
        return _("the lower sum die")
    if game == "par_con_as":
        return _("the higher pair")
    return _("higher") if HIGHER_WINS[game] else _("lower")
