"""The table solver: exact cases, then checked against a brute-force search
written apart from it (tests/willie_brute.py) on random small positions."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from garito.core.willie import arrange, best_play, is_meld, parse, play_problem, points, solver
from garito.core.willie.cards import deck
from garito.core.willie.positions import random_position
from garito.core.willie.solver import hand_melds

from .willie_brute import best as brute_best
from .willie_brute import partition as brute_partition


def T(text: str) -> list[list[str]]:
    return [m.split() for m in text.split("|")] if text else []


def legal_partition(cards, melds, group_max=4, strict=False) -> bool:
    """Every card placed, every meld legal, no two wilds for one card (with
    strict wilds: no card twice at all)."""
    physical = Counter(parse(c).physical for c in cards)
    placed = Counter(parse(c).physical for m in melds for c in m)
    idents = [parse(c).identity for m in melds for c in m if parse(c).identity and (strict or parse(c).wild)]
    return (
        physical == placed and all(is_meld(m, group_max) for m in melds) and len(idents) == len(set(idents))
    )


def test_arrange_finds_a_partition():
    cards = "7r 8r 9r J Q K 5g 5b 5y J".split()
    melds = arrange(cards)
    assert melds is not None and legal_partition(cards, melds)
    assert ["J", "Q", "K"] in melds


def test_arrange_keeps_declared_wilds():
    melds = arrange("J=6g 5g 7g 6r 6b 6o".split())
    assert sorted(map(sorted, melds)) == [["5g", "7g", "J=6g"], ["6b", "6o", "6r"]]
    # The real card among the cards frees its wild (moved onto it), which goes on anew.
    melds = arrange("J=6g 5g 7g 6g".split())
    assert len(melds) == 1 and sorted(melds[0]) in (["5g", "6g", "7g", "J=4g"], ["5g", "6g", "7g", "J=8g"])
    assert arrange("J=6g 5g 7g 6g".split(), strict=True) is None  # strict: the real card beside its wild
    assert arrange("J=9y 5g 7g".split()) is None


def test_arrange_says_none_when_there_is_none():
    assert arrange("7r 8r".split()) is None
    assert arrange("7r 8r 9r J".split()) is not None  # J=10r or J=6r
    assert arrange("7r 8r 9r J Q".split()) is None  # one wild per meld
    assert arrange("J J Q".split()) is None
    assert arrange([]) == []


def test_best_play_on_an_empty_table_is_a_meld_from_the_hand():
    played, table = best_play([], "2r 3r 4r 5r K 9b".split())
    assert sorted(played) == sorted("2r 3r 4r 5r K".split())
    assert table == [["2r", "3r", "4r", "5r", "K=6r"]] or legal_partition(played, table)


def test_best_play_rearranges_the_table():
    table = T("7r 8r 9r | 5g 5b 5y")
    played, new = best_play(table, "10r 5r K 2b 6y".split())
    assert sorted(played) == sorted("10r 5r K 6y".split())
    assert play_problem(table, "10r 5r K 2b 6y".split(), new) is None


def test_best_play_replaces_a_wild_and_places_it_again():
    played, new = best_play(T("2r J=3r 4r"), ["3r", "5g", "6g"])
    assert sorted(played) == ["3r", "5g", "6g"]
    assert play_problem(T("2r J=3r 4r"), ["3r", "5g", "6g"], new) is None
    assert ["2r", "3r", "4r"] in new


def test_best_play_prefers_points_then_cards():
    # 5 points from a King beat 3 number cards
    played, _ = best_play(T("2b 3b 4b"), ["K", "7g", "8g", "9g"])
    assert "K" in played and points(played) == 5 + 3


def test_no_play():
    table = T("J Q K")
    assert best_play(table, ["2r", "3r"]) == ([], table)
    assert best_play([], ["2r", "5b", "9y"]) == ([], [])


def test_unchanged_melds_keep_their_place():
    table = T("2b 3b 4b | 7r 8r 9r | 5g 6g 7g")
    played, new = best_play(table, ["8g"])
    assert played == ["8g"] and new[:2] == table[:2] and new[2] == ["5g", "6g", "7g", "8g"]


def test_five_card_groups_when_the_variant_allows_them():
    table = T("7r 7o 7y 7g")
    assert best_play(table, ["7b"]) == ([], table)
    played, new = best_play(table, ["7b"], group_max=5)
    assert played == ["7b"] and new == [["7r", "7o", "7y", "7g", "7b"]]


def test_hand_melds_never_touch_the_table():
    table = T("4y 5y 6y")
    hand = "4r 4g K 2b 3b J".split()
    played, melds = hand_melds(table, hand)
    assert sorted(played) == sorted(hand)
    assert play_problem(table, hand, table + melds) is None  # a wild may stand for 4y: it is on the table
    played, melds = hand_melds(table, hand, strict=True)
    assert sorted(played) == sorted(hand)
    idents = {parse(c).identity for m in melds for c in m}
    assert "4y" not in idents and "5y" not in idents
    assert play_problem(table, hand, table + melds, strict=True) is None


def test_a_wild_starts_a_run_right_after_a_run_with_a_wild(monkeypatch):
    # J=8b (its real 8b in the group) starts 8b 9b 10b right where
    # 5b K=6b 7b ends: the program once dropped that step when no wild
    # could come later in the row, and played only the Q.
    table, hand = T("5b K=6b 7b 8b 9b 10b"), ["8o", "2r", "Q", "J"]
    for tries in (solver.TRIES, {"open": (), "strict": ()}):  # the whole-hand search, then the program alone
        monkeypatch.setattr(solver, "TRIES", tries)
        played, new = best_play(table, hand)
        assert sorted(played) == ["8o", "J", "Q"]
        assert play_problem(table, hand, new) is None


def test_two_runs_share_two_cells(monkeypatch):
    # Each run holds the other's card as its wild on the two cells they
    # share: [5y 6y J=7y] [Q=6y 7y 8y], or here [7y 8y J=9y] [Q=8y 9y 10y].
    # The K stays 4y (no 4y to free it), so no Willie: both wilds go into
    # runs, and only these shapes place them. The solver once played the Q
    # alone for 3 points.
    table, hand = T("J=7y 8y 9y 10y | 2y 3y K=4y 5y 6y 7y"), ["Q", "J"]
    tables = {
        "whole hand": T("2y 3y K=4y | 5y 6y J=7y | 7y 8y J=9y | Q=8y 9y 10y"),
        "from rank 10 down": T("10y 9y J=8y | 8y 7y J=6y | Q=7y 6y 5y | K=4y 3y 2y"),
        "program": T("2y 3y K=4y | 5y 6y J=7y | J=6y 7y 8y | Q=8y 9y 10y"),
    }
    tries = {
        "whole hand": solver.TRIES,
        "from rank 10 down": {"open": ((True, 0, 10**6),), "strict": ()},
        "program": {"open": (), "strict": ()},
    }
    for way, expected in tables.items():
        monkeypatch.setattr(solver, "TRIES", tries[way])
        played, new = best_play(table, hand)
        assert (sorted(played), points(played)) == (["J", "Q"], 5), way
        assert new == expected, way
        assert play_problem(table, hand, new) is None
    monkeypatch.undo()
    played, new = best_play(table, hand, budget=60)  # the normal seat's search finds it too
    assert sorted(played) == ["J", "Q"] and play_problem(table, hand, new) is None
    assert arrange([c for m in table for c in m] + hand) == tables["whole hand"]
    # with strict wilds a wild may not stand for a card on the table
    assert best_play(T("2y 3y K=4y | 5y 6y 7y | 8y 9y 10y"), hand, strict=True)[0] == []


def test_two_runs_share_two_cells_beside_the_table():
    # 4y and 9y are stood for on the table: no wild may stand for them too,
    # so the hand's two wilds fit only where its two runs share 6y and 7y.
    table, hand = T("2y 3y J=4y | K=9y 9r 9b"), "5y 6y 7y 8y J Q".split()
    played, melds = hand_melds(table, hand)
    assert sorted(played) == sorted(hand)
    assert melds == T("5y 6y J=7y | Q=6y 7y 8y")
    assert play_problem(table, hand, table + melds) is None


def test_the_budget_is_a_weaker_search():
    rng = random.Random(3)
    worse = 0
    for _ in range(40):
        table, hand = random_position(rng, rng.randint(25, 40), rng.randint(6, 12))
        exact, _ = best_play(table, hand)
        cheap, new = best_play(table, hand, budget=20)
        assert points(cheap) <= points(exact)
        if cheap:
            assert play_problem(table, hand, new) is None
        worse += points(cheap) < points(exact)
    assert worse > 0


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
@example(61400286)  # [J=7y 8y 9y 10y] [2y 3y K=4y 5y 6y 7y], hand Q J: two runs share two cells
def test_best_play_matches_a_brute_force_search(seed):
    rng = random.Random(seed)
    table, hand = random_position(rng, rng.randint(0, 8), rng.randint(1, 5), wild_rate=0.6)
    if sum(map(len, table)) + len(hand) > 12:
        hand = hand[: max(1, 12 - sum(map(len, table)))]
    played, new = best_play(table, hand)
    assert (points(played), len(played)) == brute_best(table, hand)
    if played:
        assert play_problem(table, hand, new) is None
    else:
        assert new == table


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_arrange_agrees_with_a_brute_force_partition(seed):
    rng = random.Random(seed)
    cards = rng.sample(list(deck()), rng.randint(3, 9))
    melds = arrange(cards)
    assert (melds is None) == (brute_partition([parse(c) for c in cards]) is None)
    if melds is not None:
        assert legal_partition(cards, melds)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_table_a_mid_game_play_leaves_is_legal(seed):
    rng = random.Random(seed)
    table, hand = random_position(rng, rng.randint(15, 45), rng.randint(5, 12))
    assert arrange([c for m in table for c in m]) is not None
    played, new = best_play(table, hand)
    if played:
        assert play_problem(table, hand, new) is None
        assert legal_partition([c for m in table for c in m] + played, new)


def _faces_in_hand(rng, table, hand):
    """The hand with one or two of the faces the table does not hold."""
    left = list("JJJQQQKKK")
    for c in (c for m in table for c in m):
        if parse(c).wild:
            left.remove(parse(c).face)
    rng.shuffle(left)
    return hand + left[: rng.randint(1, 2)]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_best_play_with_wilds_in_hand_matches_a_brute_force_search(seed):
    rng = random.Random(seed)
    table, hand = random_position(rng, rng.randint(3, 8), rng.randint(1, 4), wild_rate=0.7)
    hand = _faces_in_hand(rng, table, hand)
    hand = hand[: max(1, 11 - sum(map(len, table)))]
    played, new = best_play(table, hand)
    assert (points(played), len(played)) == brute_best(table, hand)
    if played:
        assert play_problem(table, hand, new) is None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_whole_hand_search_and_the_program_agree(seed):
    """Ways to the best play: the whole-hand search (with the program after
    it when it finds none), the same from rank 10 down, and the program
    alone, with and without its floor on the cards played."""
    rng = random.Random(seed)
    table, hand = random_position(rng, rng.randint(8, 22), rng.randint(3, 8))
    if rng.random() < 0.5:
        hand = _faces_in_hand(rng, table, hand)
    quick = best_play(table, hand)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solver, "TRIES", {"open": ((True, 0, 10**6),), "strict": ()})  # from rank 10 down
        turned = best_play(table, hand)
        mp.setattr(solver, "TRIES", {"open": (), "strict": ()})
        program = best_play(table, hand)
        mp.setattr(solver, "_floor_masks", lambda grid, least, cells: [None] * 45)
        plain = best_play(table, hand)
    scores = {(points(p), len(p)) for p, _ in (quick, turned, program, plain)}
    assert len(scores) == 1
    for played, new in (quick, turned, program, plain):
        if played:
            assert play_problem(table, hand, new) is None
    # the easy seat's melds beside the table, its blocked cells turned too
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solver, "TRIES", {"open": ((True, 0, 10**6),), "strict": ()})
        turned = hand_melds(table, hand)
    quick = hand_melds(table, hand)
    assert (points(quick[0]), len(quick[0])) == (points(turned[0]), len(turned[0]))
    for played, melds in (quick, turned):
        if played:
            assert play_problem(table, hand, table + melds) is None
