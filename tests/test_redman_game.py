"""Red Man's Throw through the core protocol: the seed's four worked matches
as game records, the match's end, roll-offs, the Salvation, stakes,
predictions, the Red Man and the ledger, with exact dice."""

from pathlib import Path

import pytest

from garito.core.errors import IllegalAction
from garito.core.match import Match, RecordError, Seat
from garito.core.redman import (
    ROLL,
    TIP,
    Action,
    Config,
    is_over,
    legal_actions,
    narrate,
    new_game,
    next_match,
    result,
    settle,
    stake_limits,
    summary,
    to_act,
    view,
)

RECORDS = Path(__file__).parent / "records"
SEATS = (Seat("A"), Seat("B"))


def seed_record(name: str) -> Match:
    return Match.from_json((RECORDS / f"redman-seed-{name}.json").read_text())


def scripted(dice, **rules) -> Match:
    return Match.start("redman", Config(**rules), 1, SEATS, tuple(dice))


def play(match: Match, *moves: str) -> Match:
    for move in moves:
        match = match.play(Action.parse(move))
    return match


def story(match: Match) -> list[str]:
    return [narrate(e, match.names) for e in match.state.events]


# ---------------------------------------------------------------- the seed's matches


def test_seed_match_won_at_the_salvation():
    m = seed_record("1-salvation")
    res = result(m.state)
    assert res.winner == 1 and res.wins == (3, 4) and res.salvation and res.rounds == 7
    winners = [r.winner for r in m.state.ledger]
    assert winners == [0, 1, 1, 0, 0, 1, 1]
    assert m.state.ledger[5].rolloffs == ((1, 4),)  # 6-6-4 each, then 1 against 4
    assert m.state.ledger[6].rolloffs == ((4, 6),)  # the Salvation
    assert story(m)[-7:-1] == [
        "Both have 6-6-4: a roll-off, one die each.",
        "A throws 1, B throws 4.",
        "B wins round 6: both 6-6-4, the roll-off 4 against 1.",
        "3–3: round 7, the Salvation. One die each, rolled at once; the higher wins.",
        "A throws 4, B throws 6.",
        "B wins the Salvation: 6 against 4.",
    ]
    assert story(m)[-1] == "B wins the match 4–3."


def test_seed_match_that_ends_four_one_after_five_rounds():
    m = seed_record("2-four-one")
    res = result(m.state)
    assert (res.winner, res.wins, res.rounds) == (0, (4, 1), 5)
    assert story(m)[4:8] == [
        "Round 2: A rolls first.",
        "A rolls 5-4-2: nothing, 5+4+2 = 11.",
        "B rolls 3-2-1: straight 1-2-3.",
        "B wins round 2: 3-2-1 over 5-4-2, a straight beats nothing.",
    ]
    assert story(m)[-1] == "A wins the match 4–1."


def test_seed_match_with_the_red_man_in_round_four():
    m = seed_record("3-red-man")
    assert m.state.stage == "over" and m.state.red_man == 1
    res = result(m.state)
    # A led 3–0; the Red Man wins every round played, retroactively.
    assert res.winner == 1 and res.wins == (0, 4) and res.red_man
    assert story(m)[-3:] == [
        "6-6-6! B: “Looks like I'm the Red Man.”",
        "A: “I tip my hat.”",
        "B, the Red Man, wins every round.",
    ]
    assert m.actions[-1] == TIP


def test_seed_match_with_the_red_man_on_the_first_throw():
    m = seed_record("4-first-throw")
    assert [str(a) for a in m.actions] == ["roll", "tip"]
    assert m.state.hands == ((6, 6, 6), None)  # B never rolled
    assert result(m.state).wins == (1, 0)


def test_the_loser_must_tip_the_hat_before_the_result():
    m = scripted([6, 6, 6], bets="off")
    m = m.play(ROLL)
    assert m.state.stage == "hat" and to_act(m.state) == 1
    assert legal_actions(m.state) == [TIP]
    assert result(m.state) is None and not is_over(m.state)
    with pytest.raises(IllegalAction, match="tip my hat"):
        m.play(ROLL)
    with pytest.raises(IllegalAction, match="Only the loser"):
        scripted([1, 2, 3], bets="off").play(TIP)


# ---------------------------------------------------------------- the match's course


def test_the_match_ends_as_soon_as_it_is_decided():
    # A wins four straight: 4–0 with two rounds left.
    m = scripted([6, 6, 5, 1, 2, 4] * 4, first_roller="fixed", bets="off")
    m = play(m, *["roll"] * 8)
    assert is_over(m.state) and result(m.state).wins == (4, 0) and result(m.state).rounds == 4


def test_three_up_after_three_goes_on():
    m = scripted([6, 6, 5, 1, 2, 4] * 3, first_roller="fixed", bets="off")
    m = play(m, *["roll"] * 6)
    assert not is_over(m.state) and m.state.round == 4  # 3–0 with three left is not decided


def test_the_first_roller_alternates_by_default():
    m = scripted([1, 2, 4, 2, 2, 1, 1, 2, 4, 2, 2, 1], bets="off")
    assert to_act(m.state) == 0
    m = play(m, "roll", "roll")  # A 4-2-1 loses to B's pair
    assert m.state.round == 2 and m.state.first == 1 and to_act(m.state) == 1
    fixed = scripted([1, 2, 4, 2, 2, 1], first_roller="fixed", bets="off")
    assert play(fixed, "roll", "roll").state.first == 0
    later = Match.start("redman", Config(first=1), 1, SEATS)
    assert to_act(later.state) == 1


def test_repeated_rolloffs_and_salvation():
    m = scripted([3, 3, 1, 1, 3, 3, 5, 5, 2, 2, 4, 1], first_roller="fixed", bets="off")
    m = play(m, "roll", "roll")
    assert m.state.stage == "rolloff"
    m = play(m, "roll", "roll")  # 5–5, 2–2: still tied
    assert m.state.stage == "rolloff" and m.state.rolloffs == ((5, 5), (2, 2))
    m = play(m, "roll")
    assert m.state.ledger[0].winner == 0 and m.state.ledger[0].rolloffs == ((5, 5), (2, 2), (4, 1))


def test_view_and_summary():
    m = seed_record("2-four-one")
    assert summary(m.state, m.names) == "Over after 5 rounds: A 4–1 B"
    fresh = scripted([])
    assert summary(fresh.state, fresh.names) == "Round 1 of 6: A 0–0 B"
    v = view(fresh.state, 1)
    assert v.seat == 1 and v.to_act == 0 and v.stage == "stake" and v.limits == range(1, 11)


# ---------------------------------------------------------------- stakes


def test_stakes_proposed_matched_or_raised_once():
    m = scripted([6, 6, 5, 1, 2, 4])
    assert m.state.stage == "stake" and to_act(m.state) == 0
    m = play(m, "stake 3")
    assert m.state.stage == "answer" and to_act(m.state) == 1
    assert [a.amount for a in legal_actions(m.state)] == list(range(3, 11))
    with pytest.raises(IllegalAction, match="Match the proposed 3 or raise it once"):
        m.play(Action("stake", 2))
    m = play(m, "stake 7")  # a raise; the first roller matches it
    assert m.state.stake == 7 and m.state.stage == "roll"
    assert story(m)[1:3] == ["A proposes a stake of 3.", "B raises to 7; A matches."]
    m = play(m, "roll", "roll")
    assert m.state.ledger[0].net == (7, -7)
    # Chips are not paid until the match ends.
    assert m.state.chips == (50, 50) and m.state.net == (7, -7)


def test_stake_refusals_name_the_rule():
    m = scripted([])
    with pytest.raises(IllegalAction, match="A stake must be 1–10 chips"):
        m.play(Action("stake", 11))
    with pytest.raises(IllegalAction, match="Stakes first"):
        m.play(ROLL)
    off = scripted([], bets="off")
    with pytest.raises(IllegalAction, match="Bets are off"):
        off.play(Action("stake", 1))
    with pytest.raises(IllegalAction, match="Predictions are off"):
        play(scripted([]), "stake 1", "stake 1").play(Action("roll", prediction="pair"))


def test_stakes_are_capped_by_the_worst_case():
    # With predictions a round can cost three stakes: 20 chips cap it at 6.
    m = scripted([], bets="predictions", bankroll=20)
    assert stake_limits(m.state) == range(1, 7)
    # Short chips carried from an earlier match: below the minimum, no stake.
    poor = scripted([1, 2, 4, 2, 2, 1], chips=(3, 50), stake_min=5)
    assert poor.state.stage == "roll" and stake_limits(poor.state) is None
    assert story(poor)[1] == "No stake this round: the chips cannot cover the table minimum."


def test_the_red_man_cap_counts_every_stake_of_the_match():
    # 10 chips each: after staking 4 and 4, a Red Man would take 8, so at most 2 more.
    m = scripted([6, 6, 5, 1, 2, 4, 6, 6, 5, 1, 2, 4], bankroll=10)  # each wins one
    m = play(m, "stake 4", "stake 4", "roll", "roll", "stake 4", "stake 4", "roll", "roll")
    assert m.state.net == (0, 0)
    assert stake_limits(m.state) == range(1, 3)


# ---------------------------------------------------------------- predictions


@pytest.mark.parametrize(
    "preds,right,winner,net",
    [
        (("pair", ""), (True, None), 0, (2, -2)),  # right and won: the rival doubles
        (("pair", ""), (True, None), 1, (0, 0)),  # right and lost: a push
        (("pair", ""), (False, None), 1, (-2, 2)),  # wrong and lost: pays one more
        (("pair", ""), (False, None), 0, (1, -1)),  # wrong and won: ordinary
        (("pair", "trio"), (True, False), 0, (3, -3)),  # both called: the effects add up
        (("pair", "trio"), (True, True), 0, (1, -1)),
        (("pair", "trio"), (False, True), 0, (0, 0)),
        (("pair", "trio"), (False, False), 0, (2, -2)),
        (("", ""), (None, None), 1, (-1, 1)),
    ],
)
def test_settle_every_prediction_branch(preds, right, winner, net):
    assert settle(1, winner, preds, right) == net
    assert settle(5, winner, preds, right) == (net[0] * 5, net[1] * 5)


def test_a_right_prediction_in_play():
    # A calls a pair and rolls 3-3-1; B rolls nothing: A nets two stakes.
    m = scripted([3, 3, 1, 5, 2, 1], bets="predictions")
    m = play(m, "stake 2", "stake 2", "roll pair", "roll")
    r = m.state.ledger[0]
    assert r.right == (True, None) and r.net == (4, -4)
    assert story(m)[3:5] == [
        "A predicts a pair (no six) and rolls 3-3-1: pair of 3s and a 1.",
        "B rolls 5-2-1: nothing, 5+2+1 = 8.",
    ]
    assert story(m)[5] == (
        "A wins round 1: 3-3-1 over 5-2-1, a pair beats nothing. "
        "A predicted a pair (no six): right. A +4 on the ledger."
    )


def test_a_push_is_told():
    m = scripted([3, 3, 1, 6, 2, 1], bets="predictions")
    m = play(m, "stake 2", "stake 2", "roll pair-of-3", "roll")
    assert m.state.ledger[0].net == (0, 0)
    assert story(m)[5].endswith("A predicted a pair of 3s (no six): right. A push: no chips change hands.")


def test_exact_predictions_and_none_in_rolloffs():
    m = scripted([3, 3, 1, 1, 3, 3, 5, 2], bets="predictions")
    m = play(m, "stake 1", "stake 1", "roll 3-3-1", "roll 3-3-1")
    assert m.state.stage == "rolloff"
    assert legal_actions(m.state) == [ROLL]
    with pytest.raises(IllegalAction, match="No predictions for a single die"):
        m.play(Action("roll", prediction="pair"))
    m = play(m, "roll")
    assert m.state.ledger[0].right == (True, True) and m.state.ledger[0].net == (1, -1)


def test_the_red_man_takes_every_pot_and_voids_predictions():
    # Round 1: A wins 5 with a right call (+10). Round 2: B rolls 6-6-6.
    dice = [3, 3, 1, 5, 2, 1, 4, 2, 1, 6, 6, 6]
    m = scripted(dice, bets="predictions", first_roller="fixed", stake_max=5)
    m = play(m, "stake 5", "stake 5", "roll pair", "roll", "stake 3", "stake 3", "roll straight")
    assert m.state.net == (10, -10) and m.state.hands == ((4, 2, 1), None)
    m = m.play(ROLL)
    assert m.state.stage == "hat" and m.state.net == (-8, 8)
    m = m.play(TIP)
    res = result(m.state)
    assert res.net == (-8, 8) and res.chips == (42, 58) and res.wins == (0, 2)
    assert story(m)[-1] == "B, the Red Man, wins every round and every pot, 8 chips."


def test_the_red_man_takes_every_chip_the_rival_put_in():
    # A calls a pair twice and is right twice at a stake of 2: the ledger
    # gives A +8 (B put in 4 chips each round: the stake and the doubling).
    # Then A rolls 6-6-6 at a stake of 2: every chip B put in is A's, 10,
    # and A's own stakes come back: never less than the ledger gave.
    dice = [3, 3, 1, 5, 2, 1, 2, 2, 1, 4, 2, 1, 6, 6, 6]
    moves = ["stake 2", "stake 2", "roll pair", "roll"] * 2 + ["stake 2", "stake 2", "roll"]
    m = play(scripted(dice, bets="predictions", first_roller="fixed"), *moves[:-1])
    assert m.state.net == (8, -8)
    assert [r.paid for r in m.state.ledger] == [(2, 4), (2, 4)]
    m = play(m, "roll", "tip")
    res = result(m.state)
    assert res.net == (10, -10) and res.chips == (60, 40) and res.wins == (3, 0)
    assert story(m)[-1] == "A, the Red Man, wins every round and every pot, 10 chips."
    # The first reading, kept for the records made under it: the sum of the stakes.
    old = play(scripted(dice, bets="predictions", first_roller="fixed", edition=1), *moves, "tip")
    assert result(old.state).net == (6, -6)


def test_a_straight_call_is_right_on_4_5_6():
    # 4-5-6 fits the words "a straight" (and "a six and no pair").
    m = scripted([6, 4, 5, 5, 2, 1], bets="predictions")
    m = play(m, "stake 2", "stake 2", "roll straight", "roll")
    r = m.state.ledger[0]
    assert r.right == (True, None) and r.net == (4, -4)
    assert story(m)[5].endswith("A predicted a straight: right. A +4 on the ledger.")
    old = play(scripted([6, 4, 5, 5, 2, 1], bets="predictions", edition=1), "stake 2", "stake 2")
    old = play(old, "roll straight", "roll")
    assert old.state.ledger[0].right == (False, None) and old.state.ledger[0].net == (2, -2)


def test_a_record_made_before_the_edition_replays_as_it_was_played():
    # A record without the field was played under the first reading.
    m = scripted([6, 4, 5, 5, 2, 1], bets="predictions")
    m = play(m, "stake 2", "stake 2", "roll straight", "roll")
    record = m.to_record()
    assert record["config"]["edition"] == 2
    del record["config"]["edition"]
    old = Match.from_record(record)
    assert old.config.edition == 1 and old.state.ledger[0].net == (2, -2)
    assert Match.from_record(m.to_record()).state == m.state
    with pytest.raises(ValueError, match="edition"):
        Config(edition=3)


def test_chips_are_paid_at_the_end_and_carried_to_the_next_match():
    m = seed_record("2-four-one")
    m = Match.start("redman", Config(), 1, SEATS, m.dice)
    m = play(m, *["stake 2", "stake 2", "roll", "roll"] * 5)
    res = result(m.state)
    assert res.net == (6, -6) and res.chips == (56, 44)
    nxt = next_match(m.config, res)
    assert nxt.chips == (56, 44) and nxt.first == 1
    assert new_game(nxt, 2).config.start_chips == (56, 44)
    broke = next_match(Config(stake_min=5), res.__class__(0, (4, 1), (46, -46), (96, 4), 5, False, False))
    assert broke.chips == ()  # a seat cannot cover the minimum: a fresh session


# ---------------------------------------------------------------- records


def test_recorded_dice_must_be_faces_of_the_die():
    data = seed_record("4-first-throw").to_record()
    data["dice"] = [6, 6, 7]
    with pytest.raises(RecordError, match="not a face of a d6"):
        Match.from_record(data)
    data["dice"] = "666"
    with pytest.raises(RecordError, match="list of faces"):
        Match.from_record(data)


def test_after_the_recorded_dice_the_seeded_stream_goes_on():
    m = scripted([6, 5, 4])
    m = play(m, "stake 1", "stake 1", "roll", "roll")
    again = play(scripted([6, 5, 4]), "stake 1", "stake 1", "roll", "roll")
    assert m.state.ledger[0].hands[0] == (6, 5, 4) and m.state == again.state


def test_config_validation_and_round_trip():
    for bad in [
        dict(players=3),
        dict(bets="all"),
        dict(first_roller="x"),
        dict(stake_min=5, stake_max=2),
        dict(bankroll=0),
        dict(chips=(1,)),
        dict(chips=(-1, 5)),
        dict(first=2),
    ]:
        with pytest.raises(ValueError):
            Config(**bad)
    c = Config(bets="predictions", chips=(30, 70), first=1)
    assert Config.from_dict(c.to_dict()) == c
    with pytest.raises(ValueError, match="unknown"):
        Config.from_dict({"colour": "red"})


def test_action_notation():
    for text in ["roll", "tip", "stake 4", "roll straight", "roll 6-3-1", "roll pair-of-2"]:
        assert str(Action.parse(text)) == text
    for bad in ["roll 6-6-6", "stake x", "jump", "roll 7-1-1"]:
        with pytest.raises(ValueError):
            Action.parse(bad)


def test_after_the_match_nothing_is_legal():
    m = seed_record("2-four-one")
    with pytest.raises(IllegalAction, match="The match is over"):
        m.play(ROLL)
