"""Decimus's computer seats: the exact tables they use, the classic rival's
rules one by one, and the strong seat against it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from garito.core import decimus as dx
from garito.core.decimus import bot, hands
from garito.core.match import Match, Seat


def betting(first_dice, second_dice, game="maiores", **changes):
    """A state betting on ``game`` with these dice (seat 0 first)."""
    s = dx.new_game(dx.Config(), 1, tuple(first_dice) + tuple(second_dice))
    s = dx.apply(dx.apply(s, dx.STAND), dx.STAND)
    return replace(s, game=dx.GAMES.index(game), **changes)


def choose(state, level):
    seat = dx.to_act(state)
    return bot.choose(dx.view(state, seat), dx.legal_actions(state), level)


# ------------------------------------------------------------------ tables


def test_the_252_hands_and_their_chances():
    assert len(hands.HANDS) == 252 and len(set(hands.HANDS)) == 252
    assert sum(hands.PRIOR) == pytest.approx(1)
    assert hands.PRIOR[hands.index((6, 6, 6, 6, 6))] == pytest.approx(1 / 7776)
    assert hands.PRIOR[hands.index((5, 1, 2, 3, 4))] == pytest.approx(120 / 7776)
    for kept in [(), (1,), (6, 6), (1, 2, 3, 4)]:
        assert sum(p for _, p in hands.after_keep(kept)) == pytest.approx(1)
    assert len(hands.keeps((1, 1, 1, 1, 1))) == 5  # keep 0..4 aces
    assert hands.positions_to_reroll((6, 1, 6, 2, 1), (1, 6)) == (2, 3, 4)


def test_rerolls_never_make_a_hand_worse_on_average():
    for first in (True, False):
        v0 = [v for _, v in hands.keep_policy(first, 0)]
        v1 = [v for _, v in hands.keep_policy(first, 1)]
        v2 = [v for _, v in hands.keep_policy(first, 2)]
        assert all(a <= b + 1e-12 <= c + 2e-12 for a, b, c in zip(v0, v1, v2))
    # 1-1-2-6-6 is kept: Menores 4, Un en dous 2 = 1+1, sixes with an ace.
    assert hands.keep_policy(True, 2)[hands.index((1, 1, 2, 6, 6))][0] is None
    # 1-1-6-6-6 is not: one six goes, for a 2 that would make Un en dous 2 = 1+1.
    assert hands.keep_policy(True, 2)[hands.index((1, 1, 6, 6, 6))][0] == (1, 1, 6, 6)


def test_the_rivals_range_from_its_reroll_counts():
    stood = hands.range_after(False, ())
    assert sum(stood) == pytest.approx(1)
    policy = hands.keep_policy(False, 2)
    # Hands the policy would reroll keep only the blind fifth of their weight.
    for i, p in enumerate(stood):
        if policy[i][0] is not None:
            assert p == pytest.approx(0.2 * hands.PRIOR[i])
    # Counts the policy never produces: a fresh roll's distribution.
    impossible = next(
        (a, b) for a in range(6) for b in range(1, 6) if hands.range_after(True, (a, b)) == hands.PRIOR
    )
    assert impossible


def test_the_bot_decides_from_its_view_alone():
    s = betting((6, 6, 5, 1, 1), (2, 2, 3, 4, 5))
    other = replace(s, hands=(s.hands[0], (1, 1, 1, 1, 1)))
    assert dx.view(s, 0) == dx.view(other, 0)
    for level in dx.LEVELS:
        assert choose(s, level) == choose(other, level)


# ------------------------------------------------------------------ classic


def test_classic_big_raise_with_a_sure_hand():
    s = betting((6, 6, 6, 6, 6), (1, 1, 1, 2, 2))
    a = choose(s, "classic")
    assert a.kind == "bet" and 3 <= a.amount <= 6


def test_classic_small_raise_is_2_on_its_first_bet():
    # 6-6-4 = 16 wins some 89% of Maiores against a fresh roll: a small raise.
    a = choose(betting((6, 6, 4, 1, 1), (1, 1, 1, 2, 2)), "classic")
    assert a == dx.Action("bet", amount=2)


def test_classic_passes_weak_and_folds_to_a_big_bet():
    s = betting((2, 2, 3, 1, 1), (6, 6, 6, 6, 6))
    assert choose(s, "classic") == dx.PASS
    s = dx.apply(s, dx.PASS)
    s = dx.apply(s, dx.Action("bet", amount=5))  # seat 1 bets 5: classic (seat 0) folds
    assert choose(s, "classic") == dx.FOLD


def test_classic_folds_when_the_bet_would_take_the_rival_to_30():
    s = betting((3, 3, 2, 1, 1), (6, 6, 6, 6, 6), scores=(0, 27))
    s = dx.apply(dx.apply(s, dx.PASS), dx.Action("bet", amount=3))
    assert choose(s, "classic") == dx.FOLD


def test_classic_raises_desperately_when_folding_would_hand_over_the_match():
    s = betting((3, 3, 2, 1, 1), (6, 6, 6, 6, 6), scores=(10, 29))
    assert choose(s, "classic") == dx.Action("bet", amount=29 - 10 + 5)


def test_classic_sees_a_big_bet_with_a_very_good_hand():
    s = betting((6, 6, 5, 5, 1), (1, 1, 1, 2, 2))
    s = replace(s, speaker=1)
    s = dx.apply(s, dx.Action("bet", amount=12))  # seat 1 bets 12 against 6-6-5 = 17
    assert choose(s, "classic") == dx.SEE


def test_classic_rerolls_all_or_stands():
    s = dx.new_game(dx.Config(), 3)
    a = choose(s, "classic")
    assert a in (dx.STAND, dx.Action("reroll", dice=(0, 1, 2, 3, 4)))


# ------------------------------------------------------------------ strong


def test_strong_keeps_what_its_tables_say():
    s = dx.new_game(dx.Config(), 1, (1, 1, 2, 6, 6, 2, 2, 3, 4, 5))
    assert choose(s, "strong") == dx.STAND
    s = dx.new_game(dx.Config(), 1, (2, 3, 4, 4, 5, 2, 2, 3, 4, 5))
    kept, _ = hands.keep_policy(True, 2)[hands.index((2, 3, 4, 4, 5))]
    a = choose(s, "strong")
    assert a.kind == "reroll" and hands.positions_to_reroll((2, 3, 4, 4, 5), kept) == a.dice


def test_strong_reads_bets_as_strength():
    s = betting((6, 5, 4, 1, 1), (2, 2, 3, 4, 5))
    calm = bot.game_equity(dx.view(s, 0))
    raised = dx.apply(dx.apply(s, dx.PASS), dx.Action("bet", amount=3))
    assert bot.game_equity(dx.view(raised, 0)) < calm


def play_match(seed: int, levels) -> Match:
    seats = tuple(Seat(f"S{i}", "computer", lv) for i, lv in enumerate(levels))
    m = Match.start("decimus", dx.Config(), seed, seats)
    while not dx.is_over(m.state):
        seat = dx.to_act(m.state)
        m = m.play(bot.choose(dx.view(m.state, seat), dx.legal_actions(m.state), levels[seat]))
    return m


def test_a_match_between_the_levels_replays_from_its_record():
    m = play_match(11, ("strong", "classic"))
    again = Match.from_json(m.to_json())
    assert again.state == m.state and dx.result(again.state) == dx.result(m.state)


def test_strong_beats_classic_in_seeded_matches():
    wins = 0
    for seed in range(60):
        levels = ("strong", "classic") if seed % 2 == 0 else ("classic", "strong")
        res = dx.result(play_match(seed, levels).state)
        wins += levels[res.winner] == "strong"
    assert wins >= 36  # 60%
