"""Red Man's Throw hands: the order of the rules page (tui/rules/redman.md), the seed's examples,
the names the screen shows, and the exact chance of every class."""

from functools import cmp_to_key
from itertools import product

import pytest

from garito.core.redman import (
    CATEGORIES,
    HANDS,
    PREDICTIONS,
    WEIGHTS,
    compare,
    describe,
    explain,
    fulfils,
    prediction_chance,
    prediction_label,
    show,
)

# (winner, loser) straight from the seed and the rules page.
SEED_EXAMPLES = [
    ((2, 2, 1), (2, 4, 5)),
    ((3, 3, 4), (3, 3, 2)),
    ((3, 3, 3), (5, 4, 1)),
    ((2, 3, 4), (4, 4, 4)),
    ((3, 4, 5), (1, 2, 3)),
    ((6, 3, 1), (4, 4, 1)),
    ((6, 6, 2), (5, 2, 1)),
]


@pytest.mark.parametrize("winner,loser", SEED_EXAMPLES)
def test_seed_examples(winner, loser):
    assert compare(winner, loser) == 1
    assert compare(loser, winner) == -1


def test_the_order_from_the_top():
    assert HANDS[:9] == (
        (6, 6, 6),
        (6, 6, 5),
        (6, 6, 4),
        (6, 6, 3),
        (6, 6, 2),
        (6, 6, 1),
        (6, 5, 4),  # 4-5-6, the best single six
        (6, 5, 5),  # then a pair beside the six
        (6, 4, 4),
    )
    one_six = [h for h in HANDS if h.count(6) == 1]
    assert one_six[6:] == [
        (6, 5, 3),  # 8
        (6, 5, 2),  # 7, the higher die 5
        (6, 4, 3),  # 7
        (6, 5, 1),  # 6
        (6, 4, 2),
        (6, 4, 1),  # 5
        (6, 3, 2),
        (6, 3, 1),  # 4
        (6, 2, 1),  # 3
    ]
    no_six = [h for h in HANDS if 6 not in h]
    assert no_six[:8] == [
        (5, 4, 3),
        (4, 3, 2),
        (3, 2, 1),
        (5, 5, 5),
        (4, 4, 4),
        (3, 3, 3),
        (2, 2, 2),
        (1, 1, 1),
    ]
    # Pairs: the higher pair, then the higher odd die.
    assert no_six[8:13] == [(5, 5, 4), (5, 5, 3), (5, 5, 2), (5, 5, 1), (5, 4, 4)]  # sorted highest first
    # Nothing: higher sum, then higher top die, then higher middle die.
    assert no_six[-7:] == [(5, 4, 2), (5, 4, 1), (5, 3, 2), (5, 3, 1), (5, 2, 1), (4, 3, 1), (4, 2, 1)]
    assert HANDS[-1] == (4, 2, 1)  # the worst hand of the game


def test_nothing_hands_by_sum_then_top_then_middle():
    assert compare((5, 4, 1), (5, 3, 2)) == 1  # sum 10 both, middle 4 > 3
    assert compare((5, 2, 1), (4, 3, 1)) == 1  # sum 8 both, top 5 > 4
    assert compare((5, 4, 2), (5, 4, 1)) == 1  # sum 11 > 10
    assert compare((4, 2, 1), (5, 2, 1)) == -1


def test_more_sixes_always_win():
    for a, b in product(HANDS, HANDS):
        if a.count(6) > b.count(6):
            assert compare(a, b) == 1, (a, b)


def test_compare_is_a_total_preorder_over_all_throws():
    throws = list(product(range(1, 7), repeat=3))
    for a in throws:
        for b in throws:
            c = compare(a, b)
            assert c == -compare(b, a)
            # Only the same three faces tie.
            assert (c == 0) == (sorted(a) == sorted(b))
    # Sorted by compare, the 56 hands come out strictly ordered, and every
    # pair agrees with the ranks: transitive.
    ranked = sorted(HANDS, key=cmp_to_key(compare), reverse=True)
    assert ranked == list(HANDS)
    for i, a in enumerate(ranked):
        for j, b in enumerate(ranked):
            assert compare(a, b) == (i < j) - (i > j)


@pytest.mark.parametrize(
    "dice,name",
    [
        ((6, 6, 6), "6-6-6, the Red Man"),
        ((6, 5, 6), "two sixes and a 5"),
        ((4, 6, 5), "4-5-6, the best single six"),
        ((5, 6, 5), "a six and a pair of 5s"),
        ((1, 6, 3), "a six and 3+1"),
        ((4, 2, 3), "straight 2-3-4"),
        ((5, 5, 5), "trio of 5s"),
        ((3, 4, 3), "pair of 3s and a 4"),
        ((1, 5, 4), "nothing, 5+4+1 = 10"),
    ],
)
def test_describe(dice, name):
    assert describe(dice) == name


@pytest.mark.parametrize(
    "winner,loser,why",
    [
        ((6, 3, 1), (4, 4, 1), "a six beats no six, whatever the other dice"),
        ((6, 1, 1), (5, 5, 5), "a six beats no six, whatever the other dice"),  # the surprise, said
        ((6, 6, 2), (6, 5, 4), "two sixes beat one six, whatever the other dice"),
        ((6, 6, 5), (6, 6, 2), "the third die decides, 5 against 2"),
        ((6, 5, 4), (6, 5, 5), "4-5-6 beats a six and a pair"),
        ((6, 5, 5), (6, 3, 3), "the higher pair beside the six, 5s against 3s"),
        ((6, 5, 5), (6, 5, 3), "a six and a pair beats a six without a pair"),
        ((6, 5, 3), (6, 4, 2), "the higher sum beside the six, 8 against 6"),
        ((6, 5, 2), (6, 4, 3), "the same sum beside the six, and the higher die, 5 against 4"),
        ((3, 4, 5), (1, 2, 3), "the higher straight"),
        ((2, 3, 4), (4, 4, 4), "a straight beats a trio"),
        ((3, 3, 3), (5, 4, 1), "a trio beats nothing"),
        ((5, 5, 1), (4, 4, 5), "the higher pair, 5s against 4s"),
        ((3, 3, 4), (3, 3, 2), "equal pairs, and the higher odd die, 4 against 2"),
        ((5, 4, 2), (5, 4, 1), "the higher sum, 11 against 10"),
        ((5, 2, 1), (4, 3, 1), "the same sum, and the higher top die, 5 against 4"),
        ((5, 4, 1), (5, 3, 2), "the same sum and top die, and the higher middle die, 4 against 3"),
    ],
)
def test_explain_names_the_deciding_rule(winner, loser, why):
    assert explain(winner, loser) == why


def test_explain_refuses_the_wrong_way_round():
    with pytest.raises(ValueError):
        explain((1, 2, 4), (6, 6, 5))
    assert explain((2, 2, 1), (1, 2, 2)) == "identical hands"


def test_bad_hands_are_refused():
    for bad in [(0, 1, 2), (1, 2), (7, 1, 1), (1, 2, 3, 4)]:
        with pytest.raises(ValueError):
            compare(bad, (1, 2, 3))


def test_show_puts_the_highest_face_first():
    assert show((1, 6, 3)) == "6-3-1"


# Exact counts of the 216 throws in each class (the figures in the README).
CLASS_COUNTS = {
    "6-6-6": 1,
    "two sixes": 15,
    "4-5-6": 6,
    "a six and a pair": 15,
    "a six, no pair, not 4-5-6": 54,
    "straight": 18,
    "trio": 5,
    "pair": 60,
    "nothing": 42,
}


def test_class_counts_by_enumeration():
    def cls(h):
        six = h.count(6)
        if six == 3:
            return "6-6-6"
        if six == 2:
            return "two sixes"
        if six == 1:
            if h == (6, 5, 4):
                return "4-5-6"
            return "a six and a pair" if h[1] == h[2] else "a six, no pair, not 4-5-6"
        if h[0] - h[2] == 2 and len(set(h)) == 3:
            return "straight"
        return {1: "trio", 2: "pair", 3: "nothing"}[len(set(h))]

    counts = {}
    for h, w in WEIGHTS.items():
        counts[cls(h)] = counts.get(cls(h), 0) + w
    assert counts == CLASS_COUNTS
    assert sum(WEIGHTS.values()) == 216 and len(WEIGHTS) == 56


def test_predictions_and_their_exact_chances():
    assert len(PREDICTIONS) == len(CATEGORIES) + 55  # every exact hand but 6-6-6
    assert "6-6-6" not in PREDICTIONS
    # A call is right when the hand fits its words: 4-5-6 is a straight too.
    assert prediction_chance("straight") == 24 / 216
    assert prediction_chance("six-no-pair") == 60 / 216
    assert prediction_chance("pair-of-2") == 12 / 216
    assert prediction_chance("2-1-1") == 3 / 216
    assert prediction_chance("5-3-1") == 6 / 216
    assert fulfils((2, 1, 2), "pair-of-2") and not fulfils((6, 2, 2), "pair")
    assert fulfils((6, 4, 5), "six-no-pair") and fulfils((1, 3, 2), "straight")
    assert fulfils((6, 4, 5), "straight") and fulfils((5, 4, 6), "straight")
    assert not fulfils((6, 4, 5), "straight", edition=1)  # the first reading: by class
    assert fulfils((3, 1, 5), "5-3-1") and not fulfils((3, 1, 5), "5-3-2")
    assert prediction_label("six-pair") == "a six and a pair"
    assert prediction_label("6-3-1") == "exactly 6-3-1"
    with pytest.raises(ValueError):
        prediction_label("6-6-6")
