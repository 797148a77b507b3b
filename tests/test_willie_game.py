"""Willie's turn order, closing, the empty pile, rounds and the match
(the rules page, tui/rules/willie.md), the computer seats, and properties over whole matches."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core.errors import IllegalAction
from garito.core.match import Match, RecordError, Seat
from garito.core.willie import (
    CLOSE,
    CONTINUE,
    PASS,
    Action,
    Config,
    Drew,
    Melded,
    NoMeld,
    Passed,
    PileOut,
    RoundScored,
    apply,
    arrange,
    bot,
    is_over,
    legal_actions,
    meld,
    narrate,
    new_game,
    parse,
    points,
    result,
    summary,
    to_act,
    view,
)
from garito.core.willie.cards import DECK_COUNT

NAMES = ("Ana", "Bea", "Cai")


def physical(state) -> Counter:
    return (
        sum((Counter(h) for h in state.hands), Counter())
        + Counter(parse(c).physical for m in state.table for c in m)
        + Counter(state.pile)
    )


def test_the_deal():
    s = new_game(Config(), 1)
    assert [len(h) for h in s.hands] in ([13, 12], [12, 13])  # the first player drew
    assert s.turn == (s.dealer + 1) % 2 and s.draws == 1 and s.stage == "meld"
    assert len(s.pile) == 54 - 24 - 1 and physical(s) == DECK_COUNT
    s3 = new_game(Config(players=3), 1)
    assert sorted(len(h) for h in s3.hands) == [10, 10, 11]
    s8 = new_game(Config(players=3, hand_size=8), 1)
    assert sorted(len(h) for h in s8.hands) == [8, 8, 9]
    assert narrate(s.events[0], NAMES) == f"Round 1: {NAMES[s.dealer]} deals."


def test_the_first_dealer_is_drawn_by_the_seed():
    dealers = {new_game(Config(players=3), seed).dealer for seed in range(30)}
    assert dealers == {0, 1, 2}


def test_pass_draws_a_second_and_a_third_card_then_the_turn_ends():
    s = new_game(Config(), 2)
    seat, size = s.turn, len(s.hands[s.turn])
    s = apply(s, PASS)
    assert s.turn == seat and s.draws == 2 and len(s.hands[seat]) == size + 1
    s = apply(s, PASS)
    assert s.turn != seat and len(s.hands[seat]) == size + 2
    assert [type(e) for e in s.events[-4:]] == [Passed, Drew, NoMeld, Drew]
    assert s.draws == 1  # the next player has drawn


def _with(state, **changes):
    return replace(state, **changes)


def test_a_meld_ends_the_turn_and_is_refused_whole_when_illegal():
    s = new_game(Config(), 3)
    seat = s.turn
    s = _with(
        s, hands=tuple(("2r", "3r", "4r", "9b", "K") if i == seat else h for i, h in enumerate(s.hands))
    )
    with pytest.raises(IllegalAction, match="at least three"):
        apply(s, meld([["2r", "3r"]]))
    with pytest.raises(IllegalAction, match="Only cards from your hand"):
        apply(s, meld([["5r", "6r", "7r"]]))
    after = apply(s, meld([["2r", "3r", "4r", "K=5r"]]))
    assert after.table == (("2r", "3r", "4r", "K=5r"),)
    assert after.hands[seat] == ("9b",)
    ev = next(e for e in reversed(after.events) if isinstance(e, Melded))
    assert narrate(ev, NAMES) == f"{NAMES[seat]} melds 2r 3r 4r K (8 points)."
    # 1 point left: the player may close, or go on
    assert after.stage == "close" and legal_actions(after) == [CLOSE, CONTINUE]
    with pytest.raises(IllegalAction, match="close the round or continue"):
        apply(after, PASS)


def test_closing_scores_the_round_and_deals_the_next():
    s = new_game(Config(), 4)
    seat, other = s.turn, 1 - s.turn
    hands = [(), ()]
    hands[seat] = ("2r", "3r", "4r", "9b")
    hands[other] = ("5g", "K", "Q")
    s = _with(s, hands=tuple(hands))
    s = apply(s, meld([["2r", "3r", "4r"]]))
    s = apply(s, CLOSE)
    score = next(e for e in s.events if isinstance(e, RoundScored))
    assert score.score.hand_points[seat] == 1 and score.score.hand_points[other] == 9
    assert s.scores[seat] == 16 and s.scores[other] == 0
    assert s.round == 2 and s.dealer == (s.events[0].dealer + 1) % 2
    assert narrate(score, NAMES).startswith(f"Round to {NAMES[seat]}:")


def test_continue_passes_the_turn():
    s = new_game(Config(), 4)
    seat = s.turn
    s = _with(s, hands=tuple(("2r", "3r", "4r", "9b") if i == seat else h for i, h in enumerate(s.hands)))
    s = apply(apply(s, meld([["2r", "3r", "4r"]])), CONTINUE)
    assert s.turn == 1 - seat and s.stage == "meld"


def test_the_empty_pile_gives_everyone_one_more_turn():
    s = new_game(Config(players=3), 5)
    seat = s.turn
    s = _with(s, pile=("7y",), draws=1)  # our first card drawn; one left
    s = apply(s, PASS)  # draws the last card: may still meld on it
    assert isinstance(s.events[-1], PileOut) and s.turn == seat and s.draws == 2
    s = apply(s, PASS)  # no card to draw: the turn ends
    assert s.turn == (seat + 1) % 3 and s.last_turns == 3 and s.draws == 0
    for n in (1, 2):
        s = apply(s, PASS) if s.stage == "meld" else apply(s, CONTINUE)
        if s.stage == "close":
            s = apply(s, CONTINUE)
        assert s.turn == (seat + 1 + n) % 3
    round_before = s.round
    s = apply(s, PASS)
    if s.stage == "close":
        s = apply(s, CONTINUE)
    assert s.round == round_before + 1 or is_over(s)
    score = [e for e in s.events if isinstance(e, RoundScored)][-1]
    assert score.score.closer is None  # nobody closed


def test_the_match_ends_at_the_target_with_bonuses():
    s = new_game(Config(target=10), 6)
    seat, other = s.turn, 1 - s.turn
    hands = [(), ()]
    hands[seat] = ("2r", "3r", "4r")
    hands[other] = ("K", "K", "Q")
    s = _with(s, hands=tuple(hands), rounds_won=(1, 1) if seat == 0 else (1, 1))
    s = apply(s, meld([["2r", "3r", "4r"]]))
    s = apply(s, CLOSE)
    assert is_over(s) and to_act(s) is None and legal_actions(s) == []
    # 2 × 13 + 5 for the empty hand, then +10; the other +5 for its round won
    assert s.scores[seat] == 31 + 10 and s.scores[other] == 5
    assert result(s).winner == seat
    assert narrate(s.events[-1], NAMES) == f"{NAMES[seat]} wins the match."
    assert summary(s, NAMES).startswith("Over after 1 round")
    with pytest.raises(IllegalAction, match="over"):
        apply(s, PASS)


def test_equal_totals_draw():
    s = new_game(Config(target=5), 7)
    seat, other = s.turn, 1 - s.turn
    hands = [(), ()]
    hands[seat] = ("2r", "3r", "4r", "5b")
    hands[other] = ("6g", "7g", "9y")
    scores = [0, 0]
    scores[seat], scores[other] = 1, 5  # 1 + 2 × 2 + 10 = 5 + 10
    s = _with(s, hands=tuple(hands), scores=tuple(scores))
    s = apply(apply(s, meld([["2r", "3r", "4r"]])), CLOSE)
    assert is_over(s) and s.scores[seat] == s.scores[other] and result(s).winner is None
    assert narrate(s.events[-1], NAMES) == "The match is drawn."


def test_actions_round_trip_and_bad_ones_are_refused():
    for text in ["pass", "close", "continue", "meld 2r 3r 4r | J Q K", "meld 5g J=6g 7g"]:
        assert str(Action.parse(text)) == text
    for bad in ["", "meld", "meld 2r | | 3r", "meld 1r 2r 3r", "draw", "close now"]:
        with pytest.raises(ValueError, match="Willie action"):
            Action.parse(bad)


def test_views_hide_the_other_hands_and_the_pile():
    s = new_game(Config(players=3), 8)
    v = view(s, 1)
    assert v.hand == s.hands[1] and v.hand_sizes == tuple(len(h) for h in s.hands)
    assert v.pile_count == len(s.pile)
    assert not {"hands", "pile", "rng", "seed"} & set(v.__dataclass_fields__)
    assert "cards" not in Drew.__dataclass_fields__  # a draw names no card


# ------------------------------------------------------------------ bots


def test_easy_plays_only_melds_from_its_hand():
    s = new_game(Config(), 9)
    seat = s.turn
    s = _with(
        s,
        table=(("4y", "5y", "6y"),),
        hands=tuple(("7y", "2b", "3b", "4b", "9r") if i == seat else h for i, h in enumerate(s.hands)),
    )
    a = bot.choose(view(s, seat), legal_actions(s), "easy")
    assert a.kind == "meld" and a.table[0] == ("4y", "5y", "6y")
    assert sorted(a.table[1]) == ["2b", "3b", "4b"]  # 7y onto the run is not seen
    hard = bot.choose(view(s, seat), legal_actions(s), "hard")
    assert ("4y", "5y", "6y", "7y") in hard.table


def test_hard_closes_only_when_it_likely_wins():
    s = new_game(Config(), 10)
    seat, other = s.turn, 1 - s.turn
    hands = [(), ()]
    hands[seat] = ("2r", "3r", "4r", "9b", "9g")
    hands[other] = ("5g", "6g")
    s = apply(_with(s, hands=tuple(hands)), meld([["2r", "3r", "4r"]]))
    assert s.stage == "close"
    assert bot.choose(view(s, seat), legal_actions(s), "normal") == CLOSE
    assert bot.choose(view(s, seat), legal_actions(s), "hard") == CONTINUE  # 2 v at least 2
    hands[other] = ("5g", "6g", "7g")
    s2 = apply(_with(s, stage="meld", hands=tuple(hands), table=()), meld([["2r", "3r", "4r"]]))
    assert bot.choose(view(s2, seat), legal_actions(s2), "hard") == CLOSE  # 2 v at least 3


def test_bots_decide_from_their_view_alone():
    s = new_game(Config(), 11)
    seat = s.turn
    a = bot.choose(view(s, seat), legal_actions(s), "hard")
    hands = list(s.hands)
    hands[1 - seat] = tuple(reversed(s.pile[-len(hands[1 - seat]) :]))
    other = _with(s, hands=tuple(hands))
    assert bot.choose(view(other, seat), legal_actions(other), "hard") == a


def play_out(seed: int, levels, players: int = 2, config: Config | None = None):
    s = new_game(config or Config(players=players), seed)
    actions = []
    while not is_over(s):
        seat = to_act(s)
        a = bot.choose(view(s, seat), legal_actions(s), levels[seat])
        actions.append(a)
        s = apply(s, a)
        assert physical(s) == DECK_COUNT
        assert all(arrange(list(m)) is not None for m in s.table)
    return s, actions


@pytest.mark.parametrize("levels", [("easy", "normal"), ("hard", "normal", "easy")])
def test_computer_matches_finish_and_replay_from_their_record(levels):
    s, actions = play_out(12, levels, len(levels))
    again = new_game(s.config, 12)
    for a in actions:
        again = apply(again, Action.parse(str(a)))
    assert again == s
    assert all(isinstance(narrate(e, NAMES), str) for e in s.events)
    assert result(s).scores == s.scores


def test_hard_beats_normal_and_normal_beats_easy_over_seeded_matches():
    wins = Counter()
    for seed in range(30):
        for pair in (("hard", "normal"), ("normal", "easy")):
            lv = pair if seed % 2 else pair[::-1]
            s, _ = play_out(100 + seed, lv)
            if s.winner_seat is not None:
                wins[pair, lv[s.winner_seat]] += 1
    assert wins[("hard", "normal"), "hard"] > wins[("hard", "normal"), "normal"]
    assert wins[("normal", "easy"), "normal"] > wins[("normal", "easy"), "easy"]


def test_open_wilds_by_default_and_a_record_without_the_field_replays_strict():
    assert Config().wilds == "open" and not Config().strict
    seats = (Seat("Ana", "computer", "hard"), Seat("Bea", "computer", "normal"))
    m = Match.start("willie", Config(), 0, seats)
    m = m.play(bot.choose(view(m.state, 0), legal_actions(m.state), "hard"))
    # the first meld has 8g in a run and K=8g in a group
    assert ("8g", "J=9g", "10g") in m.state.table and ("8y", "K=8g", "8b") in m.state.table
    record = m.to_record()
    assert Match.from_record(record).state == m.state
    del record["config"]["wilds"]  # made before the rule was read anew: strict wilds
    with pytest.raises(RecordError, match="8g is on the table twice"):
        Match.from_record(record)


# ------------------------------------------------------------ properties


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([2, 3]), st.integers(0, 2**31))
def test_cards_are_conserved_and_tables_stay_legal_under_any_play(seed, players, choice_seed):
    """Random legal moves (a random mix of passes, closes and the bots'
    melds): the 54 cards are always all somewhere, never twice; every table
    is arranged into legal melds; the record replays to the same state."""
    import random

    rng = random.Random(choice_seed)
    config = Config(players=players, target=rng.choice([15, 25]), group_max=rng.choice([4, 5]))
    s = new_game(config, seed)
    actions = []
    for _ in range(400):
        if is_over(s):
            break
        seat = to_act(s)
        legal = legal_actions(s)
        if s.stage == "meld" and rng.random() < 0.7:
            a = bot.choose(view(s, seat), legal, rng.choice(["easy", "normal", "hard"]))
        else:
            a = rng.choice(legal)
        s = apply(s, a)
        actions.append(a)
        assert physical(s) == DECK_COUNT
        assert arrange([c for m in s.table for c in m], group_max=config.group_max) is not None
        assert points(s.hands[seat]) >= 0
    again = new_game(config, seed)
    for a in actions:
        again = apply(again, Action.parse(str(a)))
    assert again == s
