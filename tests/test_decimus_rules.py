"""Decimus hands (the rules page, tui/rules/decimus.md): each game's evaluation on its edge cases,
and who wins a game, ties going to the first player."""

from itertools import product

import pytest

from garito.core.decimus import hand_dice, hand_value, winner


@pytest.mark.parametrize(
    "game,dice,value",
    [
        ("maiores", (6, 1, 5, 2, 6), 17),
        ("maiores", (1, 1, 1, 1, 1), 3),
        ("menores", (6, 1, 5, 2, 6), 8),
        ("menores", (1, 1, 1, 6, 6), 3),
        ("un_en_dous", (1, 1, 2, 6, 6), 2),  # 2 = 1 + 1, the best
        ("un_en_dous", (3, 3, 6, 5, 1), 6),  # 6 = 3 + 3 (or 5 + 1)
        ("un_en_dous", (5, 1, 6, 4, 4), 5),  # 5 = 4 + 1 and 5 = 1 + 4: the smallest sum die
        ("un_en_dous", (1, 3, 5, 5, 5), None),
        ("un_en_dous", (2, 2, 2, 2, 2), None),
        ("un_en_dous", (2, 4, 2, 6, 6), 4),  # 4 = 2 + 2 beats 6 = 2 + 4
        ("par_con_as", (1, 1, 1, 2, 3), 1),  # three aces: a pair of aces and an ace
        ("par_con_as", (1, 4, 3, 2, 1), None),  # two aces are only a pair
        ("par_con_as", (6, 6, 5, 5, 2), None),  # pairs but no ace
        ("par_con_as", (6, 6, 5, 5, 1), 6),  # the highest pair
        ("par_con_as", (6, 6, 6, 6, 1), 6),
        ("par_con_as", (1, 1, 1, 4, 4), 4),
    ],
)
def test_hand_value(game, dice, value):
    assert hand_value(game, dice) == value


def test_un_en_dous_equal_sum_dice_tie_and_the_first_wins():
    # 6 = 3 + 3 against 6 = 5 + 1: equal hands, the first player (man) wins.
    assert hand_value("un_en_dous", (3, 3, 6, 2, 1)) == 3  # 3 = 2 + 1 is smaller than 6 = 3 + 3
    a, b = (3, 3, 6, 4, 4), (5, 1, 6, 5, 5)
    assert hand_value("un_en_dous", a) == hand_value("un_en_dous", b) == 6
    assert winner("un_en_dous", a, b) == 0 and winner("un_en_dous", b, a) == 0


def test_winner_directions_ties_and_missing_hands():
    assert winner("maiores", (6, 6, 6, 1, 1), (6, 6, 5, 6, 6)) == 0  # 18 vs 18: the first
    assert winner("maiores", (6, 6, 5, 1, 1), (6, 6, 6, 1, 1)) == 1
    assert winner("menores", (1, 2, 2, 6, 6), (2, 2, 3, 1, 6)) == 0  # 5 beats 6
    assert winner("menores", (2, 2, 3, 6, 6), (1, 2, 2, 6, 6)) == 1
    assert winner("par_con_as", (1, 3, 5, 6, 6), (1, 1, 1, 2, 3)) == 0  # sixes and an ace beat three aces
    assert winner("par_con_as", (2, 3, 4, 5, 6), (1, 1, 1, 2, 3)) == 1  # only the second has a hand
    with pytest.raises(ValueError, match="neither player has a hand in Par con as"):
        winner("par_con_as", (2, 3, 4, 5, 6), (6, 6, 5, 5, 2))


def test_bad_input():
    for bad in [("mayores", (1, 2, 3, 4, 5)), ("maiores", (1, 2, 3, 4)), ("maiores", (0, 1, 2, 3, 4))]:
        with pytest.raises(ValueError):
            hand_value(*bad)


def test_hand_dice_point_at_the_hand():
    assert hand_dice("maiores", (6, 1, 5, 2, 6)) == (0, 2, 4)
    assert hand_dice("menores", (6, 1, 5, 2, 6)) == (1, 2, 3)
    assert hand_dice("un_en_dous", (5, 1, 6, 4, 4)) == (0, 1, 3)
    assert hand_dice("par_con_as", (6, 1, 5, 5, 6)) == (0, 1, 4)
    assert hand_dice("par_con_as", (6, 6, 5, 5, 2)) == ()


def test_every_hand_is_consistent_with_its_dice():
    for dice in product(range(1, 7), repeat=5):
        for game in ("un_en_dous", "par_con_as"):
            v = hand_value(game, dice)
            shown = hand_dice(game, dice)
            assert (v is None) == (shown == ())
            if game == "un_en_dous" and v is not None:
                a, b, c = sorted(dice[i] for i in shown)
                assert c == v and a + b == c


def test_the_showdown_reads_as_english():
    from garito.core.decimus import Settled, narrate

    e = Settled(seat=1, game="par_con_as", points=2, won=(1, 6, 6, 2, 3), lost=(1, 5, 5, 2, 3))
    line = narrate(e, ("Ana", "Ramón"))
    assert "Ramón's pair of 6s with an ace beats Ana's pair of 5s with an ace" in line
    assert "'s a pair" not in line
