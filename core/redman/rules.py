"""Red Man's Throw hands: their order, names and predictions (the rules page,
``tui/rules/redman.md``).

A hand is three d6 faces in any order. Sixes count first: any hand with more
sixes beats any with fewer, and 6-6-6 is the Red Man, who wins the match.
Below that, each class is ranked inside itself, so two hands tie only when
they show the same three faces (the order is a total preorder whose ties are
exactly the equal multisets, checked over all 216 × 216 pairs in the tests).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import product

from ..i18n import N_, _

Hand = tuple[int, int, int]
RED_MAN: Hand = (6, 6, 6)


def _check(dice: Sequence[int]) -> Hand:
    if len(dice) != 3 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise ValueError(f"a Red Man's Throw hand is three d6 faces, got {dice!r}")
    a, b, c = sorted(dice, reverse=True)
    return (a, b, c)


def sort(dice: Sequence[int]) -> Hand:
    """The faces highest first, as the screen shows them."""
    return _check(dice)


@cache
def _key(hand: Hand) -> tuple[int, ...]:
    a, b, c = hand  # highest first
    sixes = hand.count(6)
    if sixes == 3:
        return (3,)
    if sixes == 2:
        return (2, c)
    if sixes == 1:
        if (b, c) == (5, 4):
            return (1, 3)
        if b == c:
            return (1, 2, b)
        return (1, 1, b + c, b)
    if a - b == 1 and b - c == 1:
        return (0, 4, a)
    if a == c:
        return (0, 3, a)
    if a == b or b == c:
        pair, odd = (a, c) if a == b else (b, a)
        return (0, 2, pair, odd)
    return (0, 1, a + b + c, a, b)


def key(dice: Sequence[int]) -> tuple[int, ...]:
    """A sort key: a higher key is a better hand."""
    return _key(_check(dice))


def compare(a: Sequence[int], b: Sequence[int]) -> int:
    """1 when hand ``a`` wins, -1 when ``b`` wins, 0 for a tie (the same
    faces), which a roll-off settles."""
    ka, kb = key(a), key(b)
    return (ka > kb) - (ka < kb)


def show(dice: Sequence[int]) -> str:
    """ "6-3-1": the faces, highest first."""
    return "-".join(map(str, _check(dice)))


def _class(hand: Hand) -> str:
    k = _key(hand)
    return {
        (3,): "red man",
        (2,): "two sixes",
        (1, 3): "4-5-6",
        (1, 2): "six and pair",
        (1, 1): "six",
        (0, 4): "straight",
        (0, 3): "trio",
        (0, 2): "pair",
        (0, 1): "nothing",
    }[k[:1] if k[0] >= 2 else k[:2]]


def describe(dice: Sequence[int]) -> str:
    """The hand's name as the screen shows it: "two sixes and a 5",
    "straight 2-3-4", "a six and a pair of 4s", "nothing, 5+4+1 = 10"."""
    hand = _check(dice)
    a, b, c = hand
    cls = _class(hand)
    if cls == "red man":
        return _("6-6-6, the Red Man")
    if cls == "two sixes":
        return _("two sixes and a {face}").format(face=c)
    if cls == "4-5-6":
        return _("4-5-6, the best single six")
    if cls == "six and pair":
        return _("a six and a pair of {face}s").format(face=b)
    if cls == "six":
        return _("a six and {high}+{low}").format(high=b, low=c)
    if cls == "straight":
        return _("straight {low}-{middle}-{high}").format(low=c, middle=b, high=a)
    if cls == "trio":
        return _("trio of {face}s").format(face=a)
    if cls == "pair":
        pair, odd = (a, c) if a == b else (b, a)
        return _("pair of {face}s and a {odd}").format(face=pair, odd=odd)
    return _("nothing, {a}+{b}+{c} = {total}").format(a=a, b=b, c=c, total=a + b + c)


_CLASS_RANK = ("nothing", "pair", "trio", "straight", "six", "six and pair", "4-5-6", "two sixes", "red man")
_CLASS_NAME = {
    "nothing": N_("nothing"),
    "pair": N_("a pair"),
    "trio": N_("a trio"),
    "straight": N_("a straight"),
    "six": N_("a six without a pair"),
    "six and pair": N_("a six and a pair"),
    "4-5-6": "4-5-6",
    "two sixes": N_("two sixes"),
    "red man": N_("the Red Man"),
}
# More sixes beat fewer, whatever the other dice (5-5-5 loses to 6-1-1,
# which surprises): (the winner's sixes, the loser's) in words that say so.
_SIXES = {
    (1, 0): N_("a six beats no six, whatever the other dice"),
    (2, 0): N_("two sixes beat no six, whatever the other dice"),
    (2, 1): N_("two sixes beat one six, whatever the other dice"),
    (3, 0): N_("three sixes beat no six, whatever the other dice"),
    (3, 1): N_("three sixes beat one six, whatever the other dice"),
    (3, 2): N_("three sixes beat two sixes, whatever the other dice"),
}


def explain(winner: Sequence[int], loser: Sequence[int]) -> str:
    """Why ``winner`` beats ``loser``, naming the rule that decides it."""
    w, lo = _check(winner), _check(loser)
    kw, kl = _key(w), _key(lo)
    if kw == kl:
        return _("identical hands")
    if kw < kl:
        raise ValueError(f"{show(w)} does not beat {show(lo)}")
    sw, sl = w.count(6), lo.count(6)
    if sw != sl:
        return _(_SIXES[sw, sl])
    cw, cl = _class(w), _class(lo)
    if cw != cl:
        return _("{better} beats {worse}").format(better=_(_CLASS_NAME[cw]), worse=_(_CLASS_NAME[cl]))
    if cw == "two sixes":
        return _("the third die decides, {high} against {low}").format(high=w[2], low=lo[2])
    if cw == "six and pair":
        return _("the higher pair beside the six, {high}s against {low}s").format(high=w[1], low=lo[1])
    if cw == "six":
        sw2, sl2 = w[1] + w[2], lo[1] + lo[2]
        if sw2 != sl2:
            return _("the higher sum beside the six, {high} against {low}").format(high=sw2, low=sl2)
        return _("the same sum beside the six, and the higher die, {high} against {low}").format(
            high=w[1], low=lo[1]
        )
    if cw == "straight":
        return _("the higher straight")
    if cw == "trio":
        return _("the higher trio")
    if cw == "pair":
        if kw[2] != kl[2]:
            return _("the higher pair, {high}s against {low}s").format(high=kw[2], low=kl[2])
        return _("equal pairs, and the higher odd die, {high} against {low}").format(high=kw[3], low=kl[3])
    if kw[2] != kl[2]:
        return _("the higher sum, {high} against {low}").format(high=kw[2], low=kl[2])
    if kw[3] != kl[3]:
        return _("the same sum, and the higher top die, {high} against {low}").format(high=kw[3], low=kl[3])
    return _("the same sum and top die, and the higher middle die, {high} against {low}").format(
        high=kw[4], low=kl[4]
    )


# ---------------------------------------------------------------- every hand

OUTCOMES = 216


def _weights() -> dict[Hand, int]:
    counts: Counter[Hand] = Counter()
    for dice in product(range(1, 7), repeat=3):
        counts[sort(dice)] += 1
    return dict(counts)


WEIGHTS: dict[Hand, int] = _weights()
"""The 56 hands (faces highest first) and how many of the 216 throws give each."""
HANDS: tuple[Hand, ...] = tuple(sorted(WEIGHTS, key=_key, reverse=True))
"""The 56 hands, best first."""


# ---------------------------------------------------------------- predictions


def _is_straight(h: Hand) -> bool:
    """Three faces in a row: 1-2-3 to 4-5-6 (4-5-6 is also the best single six)."""
    return h[0] - h[1] == 1 and h[1] - h[2] == 1


def _category_tests() -> dict[str, tuple[str, Callable[[Hand], bool]]]:
    tests: dict[str, tuple[str, Callable[[Hand], bool]]] = {
        "two-sixes": (N_("two sixes"), lambda h: _class(h) == "two sixes"),
        "six-pair": (N_("a six and a pair"), lambda h: _class(h) == "six and pair"),
        "six-no-pair": (N_("a six and no pair"), lambda h: _class(h) in ("six", "4-5-6")),
        "straight": (N_("a straight"), _is_straight),
        "trio": (N_("a trio"), lambda h: _class(h) == "trio"),
        "pair": (N_("a pair (no six)"), lambda h: _class(h) == "pair"),
    }

    def pair_of(n: int) -> Callable[[Hand], bool]:
        return lambda h: _class(h) == "pair" and h.count(n) == 2

    for n in range(1, 6):
        tests[f"pair-of-{n}"] = (f"a pair of {n}s (no six)", pair_of(n))
    tests["nothing"] = (N_("nothing"), lambda h: _class(h) == "nothing")
    return tests


_CATEGORIES = _category_tests()
CATEGORIES: tuple[str, ...] = tuple(_CATEGORIES)
"""The categories a player may predict, in the picker's order; any exact
hand but 6-6-6 ("6-3-1") may be predicted as well."""
EXACT: tuple[str, ...] = tuple(show(h) for h in sorted(WEIGHTS, reverse=True) if h != RED_MAN)
PREDICTIONS: tuple[str, ...] = CATEGORIES + EXACT


def is_prediction(text: str) -> bool:
    return text in _CATEGORIES or text in EXACT


def prediction_label(text: str) -> str:
    """How a prediction reads: "a straight", "exactly 6-3-1"."""
    if text.startswith("pair-of-"):
        return _("a pair of {face}s (no six)").format(face=text.removeprefix("pair-of-"))
    if text in _CATEGORIES:
        return _(_CATEGORIES[text][0])
    if text in EXACT:
        return _("exactly {hand}").format(hand=text)
    raise ValueError(f"not a prediction: {text!r}")


EDITION = 2
"""The reading of the calls in force: a call is right when the hand fits its
words, so 4-5-6 is "a straight" as well as "a six and no pair". Edition 1
(records made before) judged a call by the hand's class, so 4-5-6 was only
"a six and no pair"."""


@cache
def hits(text: str, edition: int = EDITION) -> frozenset[Hand]:
    """Every hand (faces highest first) that fulfils the prediction."""
    if text in _CATEGORIES:
        test = _CATEGORIES[text][1]
        if edition == 1 and text == "straight":
            return frozenset(h for h in WEIGHTS if _class(h) == "straight")
        return frozenset(h for h in WEIGHTS if test(h))
    if text in EXACT:
        return frozenset({sort([int(x) for x in text.split("-")])})
    raise ValueError(f"not a prediction: {text!r}")


def fulfils(dice: Sequence[int], prediction: str, edition: int = EDITION) -> bool:
    """Whether the hand is what ``prediction`` said: it fits the call's words."""
    return _check(dice) in hits(prediction, edition)


def prediction_chance(prediction: str) -> float:
    """The exact chance that a throw of 3d6 fulfils ``prediction``."""
    return sum(WEIGHTS[h] for h in hits(prediction)) / OUTCOMES
