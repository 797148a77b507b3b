"""Willie's work in progress on the table (core/willie/bench.py): moving
cards, freeing and declaring wilds, what is refused and why, the solver's
arrange and hint, and a property: whatever the player does, no card is
lost or made up, and a table the bench calls legal is one the rules accept."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core.willie import Config, apply, new_game, parse
from garito.core.willie.bench import HAND, UNDECLARED, Bench, Refused
from garito.core.willie.positions import random_position

from .helpers import TABLE_297

# The position of the screen test (seed 297, three moves in): Ana's turn.
TABLE = TABLE_297
HAND_ = ("2r", "3y", "8y", "10b", "Q")


def bench() -> Bench:
    return Bench.begin(TABLE, HAND_)


def test_a_new_bench_is_the_table_and_the_sorted_hand():
    b = bench()
    assert b.table == TABLE and b.left == ("2r", "3y", "8y", "10b", "Q")
    assert b.problems() == (None,) * 5
    assert b.problem() == "Add at least one card from your hand."
    assert not b.changed and b.played() == ()


def test_a_real_card_frees_its_wild_which_waits_to_be_declared():
    moved = bench().move([(HAND, 0)], 2)  # 2r onto Q=2r 2o 2b
    assert moved.bench.table[2] == ("2r", "2o", "2b", "Q")
    assert moved.freed == ("Q",)
    assert moved.waiting == ((2, 3),)
    assert moved.landed == ((2, 0),)
    assert moved.bench.problems()[2] == UNDECLARED
    assert moved.bench.options((2, 3)) == ["2y", "2g"]
    done = moved.bench.declare((2, 3), "2g")
    assert done.table[2] == ("2r", "2o", "Q=2g", "2b")
    assert done.problem() is None and done.played() == ("2r",)
    assert done.action().table == done.table


def test_a_wild_that_fits_one_card_only_is_declared_at_once():
    b = Bench.begin([("5r", "6r", "7r", "8r", "9r")], ["J", "3g"])
    moved = b.move([(HAND, 1)], 0)  # J onto 5r..9r: 4r or 10r
    assert moved.waiting == ((0, 5),) and moved.bench.options((0, 5)) == ["4r", "10r"]
    b = Bench.begin([("2r", "3r", "4r", "5r", "6r", "7r", "8r", "9r")], ["J"])
    moved = b.move([(HAND, 0)], 0)
    assert moved.bench.table == (("2r", "3r", "4r", "5r", "6r", "7r", "8r", "9r", "J=10r"),)
    assert moved.waiting == () and moved.bench.problem() is None


def test_moving_table_cards_between_melds_marks_what_is_left():
    b = bench().move([(1, 0)], 3).bench  # 7o into the sevens
    assert b.table[1] == ("8o", "9o") and b.table[3] == ("7r", "7o", "J=7y", "7g")
    assert b.problems() == (None, "A meld has at least three cards.", None, None, None)
    assert b.problem() == "Add at least one card from your hand."


def test_table_cards_never_go_back_to_a_hand_but_hand_cards_may():
    with pytest.raises(Refused, match="cannot go back to a hand"):
        bench().move([(0, 0)], HAND)
    b = bench().move([(HAND, 4)], 5).bench  # Q alone in a new meld
    assert b.table[5] == ("Q",) and b.left == ("2r", "3y", "8y", "10b")
    back = b.move([(5, 0)], HAND)
    assert back.bench.table == TABLE and back.bench.left == bench().left


def test_a_wild_brought_back_to_the_hand_loses_its_declaration():
    b = bench().move([(HAND, 2), (HAND, 4)], 1).bench  # 8y and Q onto 7o 8o 9o: Q fits 6o or 10o
    assert b.table[1] == ("7o", "8o", "9o", "8y", "Q")
    q = b.table[1].index("Q")
    with pytest.raises(Refused, match="cannot stand for 5o"):
        b.declare((1, q), "5o")
    assert b.options((1, q)) == []  # 8y is no orange card: nothing makes this a meld
    back = b.move([(1, b.table[1].index("8y")), (1, q)], HAND).bench
    assert back.table == TABLE and Counter(back.left) == Counter(HAND_)


def test_a_declared_wild_keeps_its_card_until_the_real_one_frees_it():
    b = bench()
    with pytest.raises(Refused, match=r"keeps its card \(5b\)"):
        b.declare((0, 1), "3b")
    assert b.locked((0, 1)) and not b.locked((1, 0))
    with pytest.raises(Refused, match="Only a J, Q or K"):
        b.declare((0, 0), "3b")
    with pytest.raises(Refused, match="declared when it is put"):
        b.declare((HAND, 4), "3b")


def test_bad_moves_are_refused_with_the_reason():
    b = bench()
    with pytest.raises(Refused, match="Pick the cards"):
        b.move([], 0)
    with pytest.raises(Refused, match="no such card in your hand"):
        b.move([(HAND, 9)], 0)
    with pytest.raises(Refused, match="no such card on the table"):
        b.move([(7, 0)], 0)
    with pytest.raises(Refused, match="no such meld"):
        b.move([(HAND, 0)], 9)


def test_a_draw_keeps_the_work_and_a_reset_undoes_it_all():
    b = bench().move([(HAND, 0)], 2).bench
    drawn = b.drawn(HAND_ + ("5o",))
    assert drawn.table == b.table and drawn.left == ("5o", "3y", "8y", "10b", "Q")
    assert drawn.reset().table == TABLE and drawn.reset().left == ("2r", "5o", "3y", "8y", "10b", "Q")


def test_arrange_takes_exactly_the_picked_cards_or_says_it_cannot():
    b = bench()
    done = b.arranged(["10b", "8y", "2r", "Q"])
    assert done is not None and done.problem() is None
    assert done.played() == ("2r", "8y", "10b", "Q") and done.left == ("3y",)
    assert "J=5b" in {c for m in done.table for c in m}  # declared before this turn: kept
    assert "Q=2r" not in {c for m in done.table for c in m}  # freed by 2r, declared anew
    assert b.arranged(["3y"]) is None
    with pytest.raises(Refused, match="still in your hand"):
        b.arranged(["7r"])


def test_the_hint_is_the_best_play_from_the_turns_start():
    played, table = bench().move([(1, 0)], 3).bench.hint()
    assert played == ("2r", "8y", "10b", "Q")
    b = bench().arranged(list(played))
    assert (
        Counter(c for m in table for c in m) == Counter(c for m in b.table for c in m) or b.problem() is None
    )


def test_a_played_bench_is_the_move_the_rules_take():
    s = new_game(Config(), 297)
    b = Bench.begin(s.table, s.hands[s.turn])
    played, _ = b.hint()
    done = b.arranged(list(played))
    after = apply(s, done.action())
    assert after.hands[s.turn] == done.left


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(-1, 12)), max_size=12),
)
def test_cards_are_never_lost_and_legal_means_legal(seed, steps):
    import random

    rng = random.Random(seed)
    table, hand = random_position(rng, rng.randint(6, 30), rng.randint(3, 10))
    b = Bench.begin(table, hand)
    everything = Counter(parse(c).physical for m in table for c in m) + Counter(hand)
    for a, i, to in steps:
        places = [(HAND, k) for k in range(len(b.left))] + [
            (m, k) for m in range(len(b.table)) for k in range(len(b.table[m]))
        ]
        if not places:
            break
        spot = places[a % len(places)]
        target = HAND if to < 0 else to % (len(b.table) + 1)
        try:
            b = b.move([spot], target).bench
        except Refused:
            continue
        for m, cards in enumerate(b.table):
            for k, c in enumerate(cards):
                if parse(c).wild and i % 3 == 0 and not b.locked((m, k)) and b.options((m, k)):
                    b = b.declare((m, k), b.options((m, k))[0])
                    break
        now = Counter(parse(c).physical for m in b.table for c in m) + Counter(b.left)
        assert now == everything
        start = Counter(parse(c).physical for m in table for c in m)
        assert not start - Counter(parse(c).physical for m in b.table for c in m)
        if b.problem() is None:
            from garito.core.willie.rules import play_problem

            assert play_problem(table, hand, b.table) is None
            assert all(p is None for p in b.problems())


def test_open_wilds_the_picker_offers_a_card_on_the_table():
    # 5r is in the run; a J put with 5o and 5y may stand for it (another meld).
    b = Bench.begin((("3r", "4r", "5r", "6r"),), ("J", "5o", "5y"))
    moved = b.move([(HAND, 0), (HAND, 1), (HAND, 2)], 1)
    spot = moved.waiting[0]
    assert "5r" in moved.bench.options(spot)
    table = moved.bench.declare(spot, "5r")
    assert table.problem() is None and table.table[1] == ("J=5r", "5o", "5y")
    strict = Bench.begin((("3r", "4r", "5r", "6r"),), ("J", "5o", "5y"), strict=True)
    moved = strict.move([(HAND, 0), (HAND, 1), (HAND, 2)], 1)
    assert "5r" not in moved.bench.options(moved.waiting[0]) if moved.waiting else True


def test_open_wilds_moving_the_table_card_onto_its_wild_frees_it():
    start = (("3r", "4r", "5r", "6r", "7r"), ("5o", "5y", "J=5r"))
    b = Bench.begin(start, ("2r",))
    # The J is locked while 5r is elsewhere on the table ...
    assert b.locked((1, 2))
    # ... and moving that 5r onto it frees it, to be declared again or moved.
    moved = b.move([(0, 2)], 1)
    assert moved.freed == ("J",) and moved.bench.table[1] == ("5r", "5o", "5y", "J")
    assert not moved.bench.locked((1, 3))
    # With strict wilds such a table cannot arise; there any real card on the table frees its wild.
    strict = Bench.begin((("3r", "4r", "6r"), ("5o", "5y", "J=5r")), ("5r",), strict=True)
    assert strict.move([(HAND, 0)], 0).freed == ("J",)
