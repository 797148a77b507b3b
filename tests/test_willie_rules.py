"""Willie's notation, melds, plays and scoring, rule by rule (the rules page, tui/rules/willie.md)."""

from __future__ import annotations

import pytest

from garito.core.willie import is_meld, meld_problem, parse, play_problem, points, score_round
from garito.core.willie.cards import deck
from garito.core.willie.rules import match_bonuses


def test_the_deck_and_its_notation():
    cards = deck()
    assert len(cards) == 54 and len(set(cards)) == 45 + 3
    assert cards.count("J") == cards.count("Q") == cards.count("K") == 3
    for text in [*set(cards), "J=7r", "Q=10b", "K=2o"]:
        assert str(parse(text)) == text
    assert parse("J=7r").physical == "J" and parse("J=7r").identity == "7r"
    assert points(["7r", "J", "Q", "K", "10b"]) == 1 + 2 + 3 + 5 + 1


@pytest.mark.parametrize("bad", ["1r", "11r", "7x", "07r", "A", "J=Q", "7r=J", "", "J=", "r7"])
def test_bad_notation_is_refused(bad):
    with pytest.raises(ValueError, match="not"):
        parse(bad)


@pytest.mark.parametrize(
    "cards",
    [
        "7r 7o 7y",
        "7r 7o 7y 7b",
        "2g 3g 4g",
        "2b 3b 4b 5b 6b 7b 8b 9b 10b",
        "J Q K",
        "K Q J",
        "7r J=7o 7y",
        "5g J=6g 7g",
        "8y 9y J=10y",
        "J=2y 3y 4y",
        "7r 7g J",  # an undeclared wild that could be 7o, 7y or 7b
        "5g 6g Q",
        "9r 10r K",  # K can only be 8r
    ],
)
def test_melds(cards):
    assert is_meld(cards.split()), meld_problem(cards.split())


@pytest.mark.parametrize(
    "cards,rule",
    [
        ("7r 7o", "at least three"),
        ("7r 7o 7y 7g 7b", "at most 4"),
        ("7r 7r 7o", "twice"),
        ("7r 7o 8y", "one suit in a row"),
        ("2g 3g 5g", "no gap"),
        ("9g 10g 2g", "no gap"),  # no wrap from 10 to 2
        ("J J Q", "Willie"),
        ("J Q K K", "Willie"),
        ("J=7r 7o Q=7y", "one wild"),
        ("7r 7o J=7r", "twice"),
        ("5g J 7g Q", "one wild"),
        ("2b 3b 4b 5b 6b 7b 8b 9b 10b J", "no place for the wild"),
        ("7r 7o 7y 7g 7b J", "at most 4"),
    ],
)
def test_not_melds(cards, rule):
    problem = meld_problem(cards.split())
    assert problem and rule in problem
    assert not is_meld(cards.split())


def test_five_card_groups_are_a_variant():
    assert not is_meld("7r 7o 7y 7g 7b".split())
    assert is_meld("7r 7o 7y 7g 7b".split(), group_max=5)
    assert is_meld("7r 7o 7y 7g J=7b".split(), group_max=5)
    assert not is_meld("7r 7o 7y 7g 7b J".split(), group_max=5)  # no suit left


# ------------------------------------------------------------------ plays


def T(text: str) -> list[list[str]]:
    return [m.split() for m in text.split("|")] if text else []


@pytest.mark.parametrize(
    "table,hand,new,rule",
    [
        ("7r 8r 9r", "10r", "7r 8r 9r", "at least one card"),
        ("7r 8r 9r", "10r", "8r 9r 10r", "No card may leave the table (7r)"),
        ("7r 8r 9r", "10r", "7r 8r 9r 10r 6r", "Only cards from your hand"),
        ("7r 8r 9r", "10r 2b", "7r 8r 9r 10r | 2b", "at least three"),
        ("7r 8r 9r", "J 5b 6b", "7r 8r 9r | 5b 6b J", "Declare what a wild"),
        ("7r 8r 9r", "J 7o 7y", "8r 9r J=10r | 7o 7y 7g", "No card may leave the table (7r)"),
        ("5g J=6g 7g", "J", "5g J=6g 7g J=8g", "one wild"),
        ("5g J=6g 7g 8g 9g", "5r 5b", "5r 5g 5b | 7g 8g 9g J=10g", "J=6g keeps what it stands for"),
        ("5g J=6g 7g", "6g", "5g 6g 7g", "No card may leave the table (J)"),
    ],
)
def test_illegal_plays_name_the_rule(table, hand, new, rule):
    problem = play_problem(T(table), hand.split(), T(new))
    assert problem is not None and rule in problem, problem


def test_a_wild_may_stand_for_a_card_on_the_table():
    # The open rule: J=5r in a group while the real 5r is in a run.
    table = T("3r 4r 5r 6r")
    assert play_problem(table, "J 5o 5y".split(), T("3r 4r 5r 6r | J=5r 5o 5y")) is None
    # ... the strict variant still refuses it,
    problem = play_problem(table, "J 5o 5y".split(), T("3r 4r 5r 6r | J=5r 5o 5y"), strict=True)
    assert problem and "5r is on the table twice" in problem
    # ... no meld holds the same card twice, and no two wilds stand for one card.
    assert "in a meld twice" in play_problem(T("5r 6r 7r 8r"), "J 5o".split(), T("6r 7r 8r | 5r 5o J=5r"))
    assert "Two wilds stand for 5r" in play_problem(
        T("3r 4r 5r | J=5r 5o 5y"), "Q 6r 7r".split(), T("3r 4r 5r | J=5r 5o 5y | Q=5r 6r 7r")
    )
    # Moving that 5r onto the J frees the J, which goes on anew (here into a run).
    start = T("3r 4r 5r 6r 7r 8r | J=5r 5o 5y")
    assert play_problem(start, ["2r"], T("2r 3r 4r | 5r 5o 5y | 6r 7r 8r J=9r")) is None


@pytest.mark.parametrize(
    "table,hand,new",
    [
        ("", "2r 3r 4r", "2r 3r 4r"),
        ("7r 8r 9r", "10r", "7r 8r 9r 10r"),
        # a run split by a group built on one of its cards
        ("2g 3g 4g 5g 6g 7g 8g", "5r 5b", "2g 3g 4g | 5r 5g 5b | 6g 7g 8g"),
        # the real card replaces a wild, which moves on with a new identity
        ("5g J=6g 7g | 2b 3b 4b", "6g", "5g 6g 7g | 2b 3b 4b J=5b"),
        # a declared wild keeps its identity while it moves
        ("5g J=6g 7g 8g", "9g 4g", "4g 5g J=6g | 7g 8g 9g"),
        ("J Q K | 7r 7o 7y", "7b", "J Q K | 7r 7o 7y 7b"),
        # a Willie broken up: its faces declared in runs
        ("J Q K | 2r 3r 4r | 2b 3b 4b", "6r 6b 7g 8g", "2r 3r 4r J=5r 6r | 2b 3b 4b Q=5b 6b | K=6g 7g 8g"),
    ],
)
def test_legal_plays(table, hand, new):
    assert play_problem(T(table), hand.split(), T(new)) is None, play_problem(T(table), hand.split(), T(new))


def test_a_freed_wild_must_be_placed_again():
    table = T("5g J=6g 7g | 2b 3b 4b")
    assert play_problem(table, ["6g"], T("5g 6g 7g | 2b 3b 4b J=5b")) is None
    assert "No card may leave the table (J)" in play_problem(table, ["6g"], T("5g 6g 7g | 2b 3b 4b"))


# ---------------------------------------------------------------- scoring


def test_two_players_the_closer_wins_twice_the_difference():
    s = score_round([("2r",), ("3r", "K", "Q")], closer=0)
    assert s.hand_points == (1, 9) and s.winners == (0,) and s.scores == (16, 0)
    assert not s.closer_penalty


def test_a_closer_who_is_not_lowest_scores_minus_five():
    s = score_round([("2r", "3r", "4r"), ("5r",)], closer=0)
    assert s.winners == (1,) and s.scores == (-5, 4)


def test_a_closer_tied_with_the_other_player_loses_the_round():
    s = score_round([("2r", "3r"), ("5r", "6b")], closer=0)
    assert s.winners == (1,) and s.scores == (-5, 0)


def test_three_players_the_winner_scores_the_sum_of_differences():
    s = score_round([("2r",), ("J", "Q"), ("K", "K")], closer=0)
    assert s.hand_points == (1, 5, 10) and s.scores == (4 + 9, 0, 0)


def test_three_players_a_closer_tied_with_one_loses_to_them():
    s = score_round([("2r", "3r"), ("J",), ("K",)], closer=0)
    assert s.winners == (1,) and s.scores == (-5, 0 + 3, 0)


def test_three_players_a_closer_tied_with_both_all_win_and_the_closer_scores_minus_five():
    s = score_round([("2r",), ("3r",), ("4r",)], closer=1)
    assert set(s.winners) == {0, 1, 2} and s.scores == (0, -5, 0)


def test_winning_with_an_empty_hand_is_worth_five_more():
    s = score_round([(), ("3r", "4r")], closer=0)
    assert s.scores == (2 * 2 + 5, 0) and s.empty_bonus == (0,)
    s = score_round([(), ("J",), ("5b",)], closer=None)
    assert s.scores == (2 + 1 + 5, 0, 0)


def test_a_tie_with_nobody_closing_is_won_by_all_tied():
    s = score_round([("2r",), ("3b",)], closer=None)
    assert s.winners == (0, 1) and s.scores == (0, 0)
    s = score_round([("2r",), ("3b",), ("K",)], closer=None)
    assert s.winners == (0, 1) and s.scores == (4, 4, 0)


def test_match_bonuses():
    assert match_bonuses((27, 12), (2, 3), 25) == (10, 15)
    assert match_bonuses((25, 30, 3), (1, 1, 0), 25) == (10, 10, 0)
