"""The computer seat stakes from exact chances, and the two levels differ."""

from dataclasses import replace

from garito.core.gemelos import (
    Action,
    Config,
    Throw,
    apply,
    legal_actions,
    new_game,
    view,
)
from garito.core.gemelos.bot import choose
from garito.core.gemelos.odds import round_chances, seat_chances


def test_exact_chance_against_twins_of_one():
    # Twins of 1 lose to any hand with both dice above 1: 7*7 = 49 of 64;
    # another (1,1) voids the round; the other 14 lose.
    win, lose, void = round_chances((1, 1), 1, -1, 1, 0, 2)
    assert (win, lose, void) == (49 / 64, 14 / 64, 1 / 64)


def test_exact_chance_against_twins_of_eight_is_nil_but_a_tie():
    win, lose, void = round_chances((8, 8), 1, -1, 1, 0, 2)
    assert (win, lose, void) == (0.0, 63 / 64, 1 / 64)


def before_roll_state(seed=7):
    s = new_game(Config(stakes="before-roll"), seed)
    s = apply(s, Action("stake", 1))
    return apply(s, Action("roll"))  # Ana rolled 6+3


def test_second_roller_sees_the_first_hand():
    s = before_roll_state()
    assert s.lead_hand == (6, 3)
    win, lose, void = seat_chances(view(s, 1), 1)
    # The bot's figure is the brute-force count over the 64 rolls.
    from garito.core.gemelos import compare

    exact = sum(1 for a in range(1, 9) for b in range(1, 9) if compare((a, b), (6, 3)) > 0) / 64
    assert abs(win - exact) < 1e-12


def test_hard_bets_the_table_max_with_the_edge_and_the_minimum_without():
    s = before_roll_state()
    good = replace(s, lead_hand=(2, 1), throws=(Throw(0, (2, 1)),))
    bad = replace(s, lead_hand=(8, 8), throws=(Throw(0, (8, 8)),))
    assert choose(view(good, 1), legal_actions(good), "hard") == Action("stake", 10)
    assert choose(view(bad, 1), legal_actions(bad), "hard") == Action("stake", 1)


def test_easy_stakes_by_its_chance_alone():
    s = new_game(Config(players=4, stakes="blind"), 1)
    # Blind, four seats: a ~25% chance. Hard sees no edge (it would need
    # more than 1 in 4), easy still puts chips in.
    hard = choose(view(s, 0), legal_actions(s), "hard")
    easy = choose(view(s, 0), legal_actions(s), "easy")
    assert hard == Action("stake", 1)
    assert easy.amount == 1 + round(9 * seat_chances(view(s, 0), 0)[0])
    assert easy.amount > hard.amount


def test_three_seat_chances_match_brute_force_over_all_262144_rolls():
    """An independent count: every ordered roll of three seats, king of the
    hill, two tied leaders split a roll-off evenly (it is symmetric), three
    identical hands start the same pass again."""
    from itertools import product

    from garito.core.gemelos import compare

    faces = [(a, b) for a in range(1, 9) for b in range(1, 9)]
    wins = [0.0, 0.0, 0.0]
    again = 0
    for hands in product(faces, repeat=3):
        leaders = [0]
        for seat in (1, 2):
            c = compare(hands[seat], hands[leaders[0]])
            if c > 0:
                leaders = [seat]
            elif c == 0:
                leaders.append(seat)
        if len(leaders) == 3:
            again += 1
        else:
            for seat in leaders:
                wins[seat] += 1 / len(leaders)
    total = 64**3 - again
    for seat in range(3):
        exact = round_chances(None, 0, -1, 3, seat, 3)[0]
        assert abs(exact - wins[seat] / total) < 1e-12


def test_chances_do_not_depend_on_the_order_the_leader_rolled_its_dice():
    assert round_chances((1, 3), 1, -1, 1, 0, 2) == round_chances((3, 1), 1, -1, 1, 0, 2)
