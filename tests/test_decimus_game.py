"""Decimus's round and betting (the rules page, tui/rules/decimus.md)
through its state machine, with recorded dice."""

from dataclasses import replace

import pytest

from garito.core.decimus.game import (
    FOLD,
    PASS,
    SEE,
    STAND,
    Action,
    Config,
    PointAlone,
    Settled,
    apply,
    legal_actions,
    narrate,
    new_game,
    result,
    to_act,
    view,
)
from garito.core.errors import IllegalAction

# First player (seat 0): 6-6-5-1-1 (Maiores 17, Menores 7, Un en dous 6 = 5+1, Par con as 6 + ace).
# Second (seat 1): 2-2-3-4-5 (Maiores 12, Menores 7, Un en dous 4 = 2+2, no Par con as).
DICE = (6, 6, 5, 1, 1, 2, 2, 3, 4, 5)


def play(state, *moves):
    for m in moves:
        state = apply(state, Action.parse(m))
    return state


def standing(dice=DICE, **cfg):
    return play(new_game(Config(**cfg), 1, dice), "stand", "stand")


def test_reroll_at_most_twice_nothing_refused_then_final():
    s = new_game(Config(), 1, DICE + (4, 4, 3))
    with pytest.raises(IllegalAction, match="rerolling nothing"):
        apply(s, Action("reroll"))
    s = play(s, "reroll 4 5")  # the two aces become 4 and 4
    assert s.hands[0] == (6, 6, 5, 4, 4) and s.rerolls == (1, 0) and to_act(s) == 0
    s = play(s, "reroll 3")
    assert s.hands[0] == (6, 6, 3, 4, 4) and s.standing[0] and to_act(s) == 1
    assert legal_actions(s)[0] == STAND


def test_declarations_and_the_single_point():
    s = standing()
    assert s.stage == "bet" and s.game == 0  # Maiores first
    s = play(s, "pass", "pass", "pass", "pass")  # Maiores and Menores pending for 1
    # Un en dous: both have a hand: betting. Then Par con as: only seat 0: 1 point at once.
    s = play(s, "pass", "pass")
    assert s.stage == "roll" or s.round == 2
    alone = [e for e in s.events if isinstance(e, PointAlone)]
    assert alone and alone[0].seat == 0


def test_pass_pass_is_one_point_at_the_showdown():
    s = standing()
    s = play(s, "pass", "pass", "pass", "pass", "pass", "pass")
    # Maiores (17 v 12) to seat 0; Menores 7 v 7: a tie, to the first player;
    # Un en dous (6 v 4) to seat 1; Par con as: seat 0 alone, 1 point at once.
    assert s.scores == (3, 1) and s.round == 2 and s.first == 1
    settled = [narrate(e, ("Ana", "Bea")) for e in s.events if isinstance(e, Settled)]
    assert settled == [
        "Maiores: Ana's 6-6-5 = 17 beats Bea's 5-4-3 = 12 (higher); Ana takes 1 point.",
        "Menores: Ana's 1-1-5 = 7 ties Bea's 2-2-3 = 7 (a tie goes to the first player); Ana takes 1 point.",
        "Un en dous: Bea's 4 = 2+2 beats Ana's 6 = 1+5 (the lower sum die); Bea takes 1 point.",
    ]


def test_fold_without_and_with_a_prior_bet():
    s = standing()
    s = play(s, "bet 2", "fold")  # seat 1 folds having bet nothing: seat 0 scores 1
    assert s.scores == (1, 0)
    s = play(s, "bet 3", "bet 2", "fold")  # Menores: 0 bets 3, 1 raises to 5, 0 folds with 3
    assert s.scores == (1, 3)


def test_raise_raise_see_and_the_totals():
    s = standing()
    s = play(s, "pass", "bet 2", "bet 3", "bet 4")
    assert s.totals == (5, 9) and to_act(s) == 0
    with pytest.raises(IllegalAction, match="Pass only while nobody has bet"):
        apply(s, PASS)
    s = apply(s, SEE)
    assert s.pending == (("maiores", 9),)
    assert legal_actions(s)[0] == PASS  # Menores opens


def test_the_end_at_30_after_the_showdown_and_a_tie_goes_on():
    s = standing()
    s = replace(s, scores=(25, 0))
    s = play(s, "bet 9", "see", "pass", "pass", "pass", "pass")
    assert s.stage == "over" and result(s).winner == 0 and result(s).scores == (36, 1)
    # A tie at 30 or more: a new round.
    t = replace(standing(), scores=(27, 29))
    t = play(t, "pass", "pass", "pass", "pass", "pass", "pass")  # 3 and 1 more: 30 all
    assert t.scores == (30, 30) and t.stage == "roll" and t.round == 2


def test_the_rivals_dice_stay_hidden():
    s = new_game(Config(), 1, DICE)
    v = view(s, 1)
    assert v.dice == (2, 2, 3, 4, 5) and v.rival_dice is None


def test_notation():
    for text in ["reroll 1 3 5", "stand", "pass", "bet 4", "see", "fold"]:
        assert str(Action.parse(text)) == text
    for bad in ["reroll", "reroll 6", "reroll 2 1", "reroll 1 1", "bet x", "raise 2"]:
        with pytest.raises(ValueError):
            Action.parse(bad)
    assert FOLD.kind == "fold"


@pytest.mark.parametrize("seed", range(6))
def test_random_matches_end_and_replay(seed):
    import random

    rng = random.Random(seed)
    s = new_game(Config(), seed)
    moves = []
    while s.stage != "over":
        a = rng.choice(legal_actions(s))
        before = s.scores
        s = apply(s, a)
        moves.append(str(a))
        assert s.scores[0] >= before[0] and s.scores[1] >= before[1]
    assert max(s.scores) >= 30 and s.scores[0] != s.scores[1]
    again = new_game(Config(), seed)
    for m in moves:
        again = apply(again, Action.parse(m))
    assert again == s
