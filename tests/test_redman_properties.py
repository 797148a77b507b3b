"""Invariants of Red Man's Throw under random configs, seeds and choices:
chips conserved, nobody owes more than their bankroll, the Red Man never
below the ledger, records replay."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core.match import Match, Seat
from garito.core.redman import PREDICTIONS, Config, legal_actions, paid, result, settle, view
from garito.core.redman.bot import choose
from garito.core.redman.game import ledger_net

configs = st.builds(
    Config,
    bets=st.sampled_from(["off", "stakes", "predictions"]),
    first_roller=st.sampled_from(["alternate", "fixed"]),
    bankroll=st.integers(1, 60),
    stake_min=st.integers(1, 3),
    stake_max=st.integers(3, 12),
    first=st.integers(0, 1),
    edition=st.sampled_from([1, 2]),
)


def play(config, seed, picks, dice=()):
    m = Match.start("redman", config, seed, (Seat("A"), Seat("B")), dice)
    states = [m.state]
    i = 0
    while not m.state.over:
        legal = legal_actions(m.state)
        m = m.play(legal[picks[i % len(picks)] % len(legal)])
        i += 1
        states.append(m.state)
    return m, states


@settings(max_examples=80, deadline=None)
@given(
    configs,
    st.integers(0, 2**32),
    st.lists(st.integers(0, 80), min_size=1, max_size=8),
    st.lists(st.sampled_from([1, 2, 3, 4, 5, 6]), max_size=30),
)
def test_chips_are_conserved_and_covered(config, seed, picks, dice):
    m, states = play(config, seed, picks, tuple(dice))
    for s in states:
        assert sum(s.net) == 0  # zero-sum on the ledger at every moment
        for r in s.ledger:
            assert sum(r.net) == 0
            assert abs(r.net[0]) <= 3 * r.stake
            if not r.red_man:  # a seat's net: what came to it less what it put in
                for me in (0, 1):
                    won = 2 * r.stake if r.winner == me else 0
                    assert r.net[me] == won + r.paid[1 - me] - r.stake - r.paid[me]
        if s.red_man is not None and config.edition == 2:
            # every chip the rival put in, nothing of his own: never below the ledger
            assert s.net[s.red_man] == sum(r.paid[1 - s.red_man] for r in s.ledger)
            assert s.net[s.red_man] >= ledger_net(s.ledger, None)[s.red_man]
    res = result(m.state)
    assert sum(res.chips) == sum(config.start_chips)
    assert min(res.chips) >= 0  # the caps kept every debt payable
    assert res.wins[res.winner] > res.wins[1 - res.winner]
    again = Match.from_json(json.dumps(m.to_record()))
    assert again.state == m.state and again.actions == m.actions


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 20),
    st.integers(0, 1),
    st.sampled_from(PREDICTIONS + ("",)),
    st.sampled_from(PREDICTIONS + ("",)),
    st.booleans(),
    st.booleans(),
)
def test_settle_is_zero_sum_and_bounded(stake, winner, p0, p1, r0, r1):
    right = (r0 if p0 else None, r1 if p1 else None)
    net = settle(stake, winner, (p0, p1), right)
    assert net[0] == -net[1]
    assert 0 <= net[winner] <= 3 * stake
    put = paid(stake, winner, (p0, p1), right)
    assert all(stake <= x <= 3 * stake for x in put)


@settings(max_examples=30, deadline=None)
@given(configs, st.integers(0, 2**32), st.sampled_from(["easy", "hard"]), st.sampled_from(["easy", "hard"]))
def test_computer_seats_always_choose_a_legal_move(config, seed, lv0, lv1):
    m = Match.start("redman", config, seed, (Seat("A", "computer", lv0), Seat("B", "computer", lv1)))
    while not m.state.over:
        seat = m.rules.to_act(m.state)
        legal = legal_actions(m.state)
        action = choose(view(m.state, seat), legal, m.seats[seat].level)
        assert action in legal
        m = m.play(action)
