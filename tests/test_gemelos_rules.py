"""Gemelos hand comparison: the seed's examples (tui/rules/gemelos.md) and properties."""

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from garito.core.gemelos import compare, describe, explain

d8 = st.integers(1, 8)
hands = st.tuples(d8, d8)


@pytest.mark.parametrize(
    "a, b, expected",
    [
        # the rules page's examples, from the original text
        ((3, 3), (5, 4), -1),
        ((3, 3), (8, 1), 1),
        ((6, 2), (4, 4), -1),
        ((6, 2), (5, 3), 1),
        ((1, 1), (2, 1), 1),
        # the seed's example match: rounds 1, 2 and 4
        ((6, 4), (8, 1), 1),
        ((8, 2), (8, 1), 1),
        ((7, 3), (6, 2), 1),
        # the seed's "(8,1), (2,7), (6,3) lose to twins of 3"
        ((3, 3), (2, 7), 1),
        ((3, 3), (6, 3), 1),
        # twins vs twins, order of dice, identical hands
        ((8, 8), (7, 7), 1),
        ((2, 2), (5, 5), -1),
        ((1, 6), (6, 1), 0),
        ((4, 4), (4, 4), 0),
        # sums: 2 beats 3 (the seed's "el 2 es mejor que el 3")
        ((1, 1), (1, 2), 1),
        ((8, 7), (8, 8), -1),
        ((4, 5), (3, 3), 1),
    ],
)
def test_compare_examples(a, b, expected):
    assert compare(a, b) == expected


def test_relation_is_not_transitive():
    # Why 3+ players need "king of the hill".
    assert compare((3, 3), (8, 1)) == 1
    assert compare((8, 1), (5, 4)) == 1
    assert compare((5, 4), (3, 3)) == 1


def test_only_identical_hands_tie():
    for a, b in product(product(range(1, 9), repeat=2), repeat=2):
        assert (compare(a, b) == 0) == (sorted(a) == sorted(b))


@given(hands, hands)
def test_compare_is_antisymmetric(a, b):
    assert compare(a, b) == -compare(b, a)


@given(hands, hands)
def test_compare_ignores_die_order(a, b):
    assert compare(a, b) == compare(a[::-1], b)


@pytest.mark.parametrize("bad", [(0, 3), (9, 1), (1, 2, 3), ("1", 2)])
def test_compare_refuses_non_d8_hands(bad):
    with pytest.raises(ValueError):
        compare(bad, (1, 1))


@pytest.mark.parametrize(
    "winner, loser, reason",
    [
        ((3, 3), (8, 1), "twins of 3 hold: the 8+1 has a die ≤ 3"),
        ((5, 4), (3, 3), "the 5+4 beats twins of 3: both dice above 3"),
        ((4, 4), (2, 2), "twins of 4 beat twins of 2"),
        ((6, 2), (5, 3), "equal sums of 8: the 6+2 has the higher die"),
        ((6, 4), (8, 1), "10 beats 9"),
        ((8, 8), (8, 7), "twins of 8 beat any other hand, the 8+7 too"),
    ],
)
def test_explain_names_the_rule(winner, loser, reason):
    assert explain(winner, loser) == reason


def test_explain_refuses_a_loser():
    with pytest.raises(ValueError):
        explain((8, 1), (3, 3))


def test_describe():
    assert describe((3, 3)) == "twins of 3"
    assert describe((1, 8)) == "8+1 = 9"
