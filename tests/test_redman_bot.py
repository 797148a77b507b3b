"""The Red Man's Throw computer seat and the exact odds it decides from."""

from fractions import Fraction

import pytest

from garito.core.match import Match, Seat
from garito.core.redman import (
    ROLL,
    Action,
    Config,
    apply,
    is_over,
    legal_actions,
    new_game,
    result,
    to_act,
    view,
)
from garito.core.redman.bot import choose
from garito.core.redman.odds import (
    P_RED,
    best_prediction,
    later_red_men,
    match_chance,
    prediction_edge,
    round_chances,
    round_value,
)


def approx(x):
    return pytest.approx(x, abs=1e-12)


def test_round_chances_are_exact():
    # Rolling second against 4-2-1, the worst hand: only its own 6 throws tie.
    win, lose = round_chances(rival=(4, 2, 1))
    assert win == approx(1 - 3 / 216) and lose == approx(3 / 216)
    # Rolling first, 6-6-5 loses only to the rival's Red Man.
    assert round_chances(hand=(6, 6, 5)) == (approx(1 - 1 / 216 - 1.5 / 216), approx(2.5 / 216))
    # Before anyone rolls: a fair round but for the first roller's Red Man.
    win, lose = round_chances()
    assert win - lose == approx(float(Fraction(1, 216) - Fraction(215, 216 * 216)))


def test_prediction_edges():
    # Second against 4-2-1: a six without a pair always wins, so the call
    # gains its chance (60/216) and costs only half of the 6/216 throws of
    # 4-2-1 that tie (and lose the roll-off half the time).
    assert prediction_edge("six-no-pair", (4, 2, 1)) == approx(60 / 216 - 3 / 216)
    assert best_prediction((4, 2, 1)) == ("six-no-pair", approx(57 / 216))
    # Against two sixes and a 5 nothing is worth calling.
    assert best_prediction((6, 6, 5)) == ("", 0.0)
    # Nor is anything for the first roller, blind.
    assert best_prediction(None) == ("", 0.0)


def test_round_value_favours_the_second_roller_only_with_predictions():
    first, sq = round_value(True, False)
    assert first == approx(float(Fraction(1, 216) - Fraction(215, 216 * 216))) and sq == approx(1.0)
    m1, _ = round_value(True, True)
    m2, _ = round_value(False, True)
    assert m1 < -0.07 and m2 == approx(-m1)


def test_later_red_men_are_exact():
    cfg = Config(first_roller="fixed")  # seat 0 rolls first every round
    # Round 6 is the last that can bring a Red Man (the Salvation is one die).
    assert later_red_men(cfg, (2, 3), 6, 0) == (0.0, 0.0, 0.0, 0.0)
    # Round 5 at 2–2: whoever wins it, round 6 is played.
    first, second = P_RED, (1 - P_RED) * P_RED
    assert later_red_men(cfg, (2, 2), 5, 0) == (approx(first), approx(first), approx(second), approx(second))
    # At 3–1 a win in round 5 ends the match (4–1 with one left): nothing later.
    assert later_red_men(cfg, (3, 1), 5, 0) == (0.0, approx(first), 0.0, approx(second))


def test_a_later_red_man_changes_what_a_call_is_worth():
    # Second against 4-2-1: a right "six and no pair" always wins the round,
    # and its stake is kept unless the rival is the Red Man later (b_won);
    # the one way to lose, tying 4-2-1 and the roll-off, costs a stake
    # unless this seat is the Red Man later (a_lost).
    later = (0.0, 0.1, 0.2, 0.0)
    assert prediction_edge("six-no-pair", (4, 2, 1), later) == approx(60 / 216 * 0.8 - 3 / 216 * 0.9)


def test_match_chance():
    cfg = Config()
    assert match_chance(cfg, (0, 0), 1) == pytest.approx(0.5, abs=1e-4)
    assert match_chance(cfg, (3, 0), 4) > 0.9
    assert match_chance(cfg, (4, 0), 5) == 1.0
    assert match_chance(cfg, (3, 3), 7) == 0.5
    # Rolling first every round is worth a little more than alternating.
    assert match_chance(Config(first_roller="fixed"), (0, 0), 1) > match_chance(cfg, (0, 0), 1)


def _at_roll(dice, seat_hands=(), **rules):
    m = Match.start("redman", Config(bets="predictions", **rules), 1, (Seat("A"), Seat("B")), dice)
    m = m.play(Action("stake", 1)).play(Action("stake", 1))
    for _ in seat_hands:
        m = m.play(ROLL)
    return m


def test_hard_predicts_only_with_a_positive_edge():
    m = _at_roll([4, 2, 1], seat_hands=[1])
    assert choose(view(m.state, 1), legal_actions(m.state), "hard") == Action(
        "roll", prediction="six-no-pair"
    )
    m = _at_roll([6, 6, 5], seat_hands=[1])
    assert choose(view(m.state, 1), legal_actions(m.state), "hard") == ROLL
    m = _at_roll([])
    assert choose(view(m.state, 0), legal_actions(m.state), "hard") == ROLL


def test_easy_calls_its_hunch_when_behind():
    # B won round 1; in round 2 A (behind) calls the likeliest category.
    m = Match.start("redman", Config(bets="predictions"), 1, (Seat("A"), Seat("B")), (1, 2, 4, 2, 2, 1))
    for a in ["stake 1", "stake 1", "roll", "roll", "stake 1", "stake 1"]:
        m = m.play(Action.parse(a))
    assert m.state.wins == (0, 1) and to_act(m.state) == 1
    assert choose(view(m.state, 1), legal_actions(m.state), "easy") == ROLL  # B leads: no call
    m = m.play(ROLL)
    assert choose(view(m.state, 0), legal_actions(m.state), "easy") == Action(
        "roll", prediction="six-no-pair"
    )


def test_stakes_hard_low_first_and_raising_second_easy_by_match_chance():
    s = new_game(Config(bets="predictions", bankroll=200, stake_max=20), 1)
    legal = legal_actions(s)
    assert choose(view(s, 0), legal, "hard") == Action("stake", 1)
    s = apply(s, Action("stake", 1))
    raise_to = choose(view(s, 1), legal_actions(s), "hard")
    assert raise_to.amount > 1  # the second roller's edge: half Kelly of 200 chips
    mean, square = round_value(False, True, later_red_men(s.config, (0, 0), 1, 1))
    assert raise_to.amount == round(0.5 * mean / square * 200)
    # Easy at 0–0 stakes the middle of the range (its match chance is ~1/2).
    s = new_game(Config(bankroll=200, stake_max=21), 1)
    assert choose(view(s, 0), legal_actions(s), "easy") == Action("stake", 11)


def test_the_hat_is_tipped_by_the_computer():
    m = Match.start("redman", Config(bets="off"), 1, (Seat("A"), Seat("B", "computer")), (6, 6, 6))
    m = m.play(ROLL)
    assert choose(view(m.state, 1), legal_actions(m.state), "easy").kind == "tip"


def test_hard_outplays_easy_with_predictions():
    """The difference a player notices: over 400 seeded matches with
    predictions, hard ends ahead in chips."""
    total = 0
    for seed in range(400):
        hard = seed % 2
        s = new_game(Config(bets="predictions", first=(seed // 2) % 2), seed)
        while not is_over(s):
            seat = to_act(s)
            level = "hard" if seat == hard else "easy"
            s = apply(s, choose(view(s, seat), legal_actions(s), level))
        total += result(s).net[hard]
    assert total > 150
