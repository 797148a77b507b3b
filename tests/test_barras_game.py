"""Barras through the core protocol: the seed's two worked rounds, every
payout branch of the rules (tui/rules/barras.md), the fee, players going broke, the session's
end, with exact dice (recorded faces: a d10 showing n reads (n-1)·10 on the
tens die and n-1 on the units die)."""

import pytest

from garito.core.barras import (
    CLOSE,
    ROLL,
    SIT,
    Action,
    Config,
    is_over,
    legal_actions,
    narrate,
    result,
    stake_limits,
    summary,
    to_act,
    value,
    view,
)
from garito.core.barras.odds import beat_chance, house_edge, win_chance
from garito.core.errors import IllegalAction
from garito.core.match import Match, Seat


def d10s(*throws: int) -> tuple[int, ...]:
    """Recorded d10 faces for throws given as values 0–99 (100 as 0)."""
    out = []
    for v in throws:
        v %= 100
        out += [v // 10 + 1, v % 10 + 1]
    return tuple(out)


def table(throws, players=2, **rules) -> Match:
    seats = tuple(Seat(n) for n in ("A", "B", "C", "D", "E", "F")[:players])
    return Match.start("barras", Config(players=players, **rules), 1, seats, d10s(*throws))


def play(m: Match, *moves: str) -> Match:
    for move in moves:
        m = m.play(Action.parse(move))
    return m


def story(m: Match) -> list[str]:
    return [narrate(e, m.names) for e in m.state.events]


@pytest.mark.parametrize(
    "tens,units,house,expected",
    [
        (70, 2, True, 72),
        (0, 0, True, 0),
        (0, 0, False, 100),
        (90, 9, False, 99),
        (0, 5, False, 5),
        (30, 0, True, 30),
    ],
)
def test_value(tens, units, house, expected):
    assert value(tens, units, house=house) == expected


def test_value_refuses_other_faces():
    for bad in [(5, 1), (100, 0), (10, 10), (-10, 0)]:
        with pytest.raises(ValueError):
            value(*bad, house=False)


def test_seed_round_one_bar_72_a_34_b_95():
    m = table([72, 34, 95, 50])
    assert m.state.bar == 72 and m.state.bar_dice == (70, 2)
    m = play(m, "bet 5", "bet 5", "roll", "roll")
    r = m.state.history[0]
    assert r.kind == "table" and r.winner == 1 and r.delta == (-5, 5) and r.house == 0
    assert m.state.chips == (95, 105)
    assert story(m)[:6] == [
        "Round 1: the croupier rolls 70+2, the bar is 72.",
        "A bets 5.",
        "B bets 5.",
        "A rolls 30+4 = 34, not above the bar.",
        "B rolls 90+5 = 95, above the bar.",
        "B has the highest throw and takes the table: 5 chips from the others.",
    ]


def test_seed_round_two_bar_81_a_53_b_28():
    m = table([81, 53, 28, 50])
    m = play(m, "bet 4", "bet 6", "roll", "roll")
    r = m.state.history[0]
    assert r.kind == "house" and r.winner is None and r.house == 10 and r.delta == (-4, -6)
    assert m.state.house == 10 and m.state.chips == (96, 94)
    assert story(m)[5] == "Nobody beats the bar: the house keeps 10 chips."


def test_solo_bettor_is_paid_by_the_house():
    m = table([40, 41, 50])
    m = play(m, "bet 10", "sit", "roll")
    r = m.state.history[0]
    assert (r.kind, r.winner, r.delta, r.house) == ("solo", 0, (10, 0), -10)
    m = table([40, 41, 50], solo="3:2")
    assert play(m, "bet 5", "sit", "roll").state.chips == (107, 100)  # 7.5 paid as 7
    m = table([40, 40, 50])  # equal to the bar is not above it
    assert play(m, "bet 10", "sit", "roll").state.history[0].kind == "house"


def test_one_of_several_above_the_bar_takes_every_bet():
    m = table([60, 61, 20, 99, 50], players=3)
    m = play(m, "bet 3", "bet 7", "bet 2", "roll", "roll", "roll")
    r = m.state.history[0]
    assert r.winner == 2 and r.delta == (-3, -7, 10) and r.house == 0


def test_bar_beaters_below_the_highest_lose_to_it():
    m = table([10, 50, 90, 60, 50], players=3)
    m = play(m, "bet 3", "bet 3", "bet 3", "roll", "roll", "roll")
    assert m.state.history[0].delta == (-3, 3 + 3, -3)


def test_a_tie_for_the_highest_rolls_off_again_while_tied():
    m = table([10, 80, 80, 5, 30, 30, 70, 20, 50], players=3)
    m = play(m, "bet 2", "bet 4", "bet 6", "roll", "roll", "roll")
    assert m.state.stage == "rolloff" and m.state.contenders == (0, 1)
    assert story(m)[-1] == "A and B tie at 80: they roll off."
    m = play(m, "roll", "roll")  # 30 and 30: again
    assert m.state.stage == "rolloff" and m.state.contenders == (0, 1)
    m = play(m, "roll", "roll")  # 70 against 20
    r = m.state.history[0]
    assert r.winner == 0 and r.delta == (10, -4, -6) and r.rolloffs == ((30, 30), (70, 20))
    # The player who was not tied does not roll off.
    with pytest.raises(IllegalAction):
        table([10, 80, 80, 5], players=3).play(Action("bet", 0))


def test_nobody_bets_everyone_pays_the_fee():
    m = table([95, 50])
    m = play(m, "sit", "sit")
    r = m.state.history[0]
    assert r.kind == "fee" and r.delta == (-2, -2) and r.house == 4
    assert story(m)[3] == "Nobody bets: each player pays the house the fee of 2 chips."
    m = table([95, 50], fee=0)
    assert play(m, "sit", "sit").state.chips == (100, 100)


def test_broke_players_leave_and_the_session_ends_with_one_left():
    m = table([90, 10, 95, 90, 10, 95], bankroll=5, stake_max=10)
    m = play(m, "bet 5", "sit", "roll")
    assert m.state.chips == (0, 5)
    assert "A has no chips left and leaves the table." in story(m)
    assert is_over(m.state)  # one player with chips: the session ends
    res = result(m.state)
    assert res.net == (-5, 0) and res.house == 5 and not res.closed and res.winner == 1


def test_a_player_short_of_the_minimum_bets_everything():
    m = table([90, 10, 50, 60, 60], bankroll=6, stake_min=5)
    m = play(m, "bet 5", "sit", "roll")  # A loses 5, has 1 left
    assert m.state.chips == (1, 6)
    assert to_act(m.state) == 1  # the first bettor moves on each round
    m = m.play(SIT)
    assert stake_limits(m.state, 0) == range(1, 2)


def test_betting_order_moves_on_and_skips_the_broke():
    m = table([50, 50, 50, 50], players=3)
    assert m.state.order == (0, 1, 2)
    m = play(m, "sit", "sit", "sit")
    assert m.state.order == (1, 2, 0)


def test_a_lone_player_plays_until_broke_or_cashing_out():
    m = table([90, 10, 95], players=1, bankroll=5)
    m = play(m, "bet 5", "roll")
    assert is_over(m.state) and result(m.state).chips == (0,)
    m = table([20, 50, 50], players=1)
    m = play(m, "bet 5", "roll")
    assert not is_over(m.state)
    m = m.play(CLOSE)
    assert is_over(m.state) and result(m.state).closed and result(m.state).net == (5,)


def test_close_at_any_moment_ends_the_session():
    m = play(table([50, 60]), "bet 3")
    assert CLOSE in legal_actions(m.state)
    m = m.play(CLOSE)
    res = result(m.state)
    assert res.closed and res.chips == (100, 100) and res.rounds == 0
    assert story(m)[-2:] == ["The table closes: everyone cashes out.", "The session ends after 0 rounds."]
    with pytest.raises(IllegalAction, match="The session is over"):
        m.play(ROLL)


def test_refusals_name_the_rule():
    m = table([50])
    with pytest.raises(IllegalAction, match="A bet must be 1–20 chips"):
        m.play(Action("bet", 21))
    with pytest.raises(IllegalAction, match="Bets first"):
        m.play(ROLL)
    m = play(m, "bet 1", "sit")
    with pytest.raises(IllegalAction, match="now the bettors roll"):
        m.play(SIT)


def test_view_summary_and_chip_history():
    m = play(table([72, 34, 95, 50]), "bet 5", "bet 5", "roll", "roll")
    assert m.state.chip_history == ((100, 100), (95, 105))
    assert summary(m.state, m.names) == "Round 2, bar 50: A 95, B 105"
    v = view(m.state, 1)
    assert v.to_act == 1 and v.order == (1, 0) and not hasattr(v, "rng")


def test_config_validation():
    for bad in [
        dict(players=0),
        dict(players=7),
        dict(stake_min=5, stake_max=2),
        dict(fee=-1),
        dict(solo="4:1"),
    ]:
        with pytest.raises(ValueError):
            Config(**bad)
    c = Config(players=4, solo="3:2")
    assert Config.from_dict(c.to_dict()) == c


def test_odds_are_exact():
    assert beat_chance(72) == 0.28
    assert win_chance(72, 0) == pytest.approx(0.28)
    # Two bettors: above the bar and the higher (a tie is a fair roll-off).
    assert win_chance(50, 1) == pytest.approx(sum((v - 1) / 100 + 0.5 / 100 for v in range(51, 101)) / 100)
    assert win_chance(0, 5) == pytest.approx(1 / 6)


def test_house_edge_by_enumeration():
    cfg = Config()
    assert house_edge(cfg, 1) == pytest.approx(-0.01)  # a lone bettor has the edge at even money
    assert house_edge(cfg, 2) == pytest.approx(sum(b * b for b in range(100)) / 100**3)
    assert house_edge(cfg, 4) == pytest.approx(sum(b**4 for b in range(100)) / 100**5)
    assert house_edge(Config(solo="2:1"), 1) < house_edge(cfg, 1)
