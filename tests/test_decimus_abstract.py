"""The abstract betting of one Decimus game (core/decimus/abstract.py)."""

import pytest

from garito.core.decimus.abstract import SIZES, Node, OneGame, distribution, nearest_size
from garito.core.decimus.cfr import CFRPlus, exploitability, value
from garito.core.decimus.ranges import RangeCFR


def test_a_real_bet_is_played_as_the_nearest_abstract_size() -> None:
    assert SIZES == (1, 2, 3, 5)
    assert [nearest_size(n) for n in range(1, 9)] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert nearest_size(30) == 5


def test_maiores_hands_over_five_dice() -> None:
    deal = distribution("maiores")
    assert [v for v, _ in deal] == list(range(3, 19))
    assert sum(q for _, q in deal) == pytest.approx(1.0)
    assert dict(deal)[3] == pytest.approx(1 / 7776)  # only five ones


def test_the_payoffs_follow_the_rules() -> None:
    game = OneGame("maiores")
    assert game.utility(Node((10, 10), ("p", "p"))) == 1.0  # the tie goes to the first seat
    assert game.utility(Node((9, 10), (2, 3, "s"))) == -5.0  # the seen total: 2 raised by 3
    assert game.utility(Node((18, 3), (2, "f"))) == 1.0  # folded without a bet: 1
    assert game.utility(Node((18, 3), (2, 3, "f"))) == -2.0  # the folder's own last total
    assert game.utility(Node((3, 18), ("p", 1, 5, "f"))) == 1.0  # the second seat folds its 1


def test_two_hands_toy_solves_and_its_exploitability_falls() -> None:
    # Two hand values, even odds: a two-hand Decimus toy, small enough to test.
    game = OneGame("maiores", deal=((10, 0.5), (15, 0.5)))
    solver = CFRPlus(game)
    solver.iterate(5)
    early = exploitability(game, solver.average())
    solver.iterate(95)
    late = exploitability(game, solver.average())
    assert early > late
    assert late < 0.02  # measured 0.0142 after 100 iterations, 0.081 after 25
    # Deterministic to the last digit: the same run gives the same value.
    again = CFRPlus(game)
    again.iterate(100)
    assert value(game, again.average()) == value(game, solver.average())


def test_the_range_walk_is_the_same_cfr_plus() -> None:
    # The fast walk over ranges (ranges.py) must give what the scalar walk
    # over deals gives, iteration for iteration (to rounding: the sums are
    # taken in another order, and over tens of iterations CFR+'s floor at
    # zero turns a regret of 1e-17 against 0 into another strategy: 5e-6
    # apart after 5 iterations, 3e-4 after 40).
    game = OneGame("maiores", deal=((8, 0.25), (11, 0.25), (16, 0.5)))
    scalar, ranges = CFRPlus(game), RangeCFR(game)
    for count in (1, 1, 1):
        scalar.iterate(count)
        ranges.iterate(count)
        assert ranges.exploitability() == pytest.approx(exploitability(game, scalar.average()), abs=1e-9)
