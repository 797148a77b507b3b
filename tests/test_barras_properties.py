"""Invariants of Barras: chips conserved between players and the house in
every round, nobody below zero, records replay, computer players legal."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core.barras import CLOSE, Config, legal_actions, result, view
from garito.core.barras.bot import choose
from garito.core.match import Match, Seat

configs = st.builds(
    Config,
    players=st.integers(1, 6),
    bankroll=st.integers(1, 40),
    stake_min=st.integers(1, 3),
    stake_max=st.integers(3, 12),
    fee=st.integers(0, 3),
    solo=st.sampled_from(["1:1", "3:2", "2:1"]),
)


@settings(max_examples=60, deadline=None)
@given(configs, st.integers(0, 2**32), st.lists(st.integers(0, 40), min_size=1, max_size=8))
def test_chips_are_conserved_with_the_house(config, seed, picks):
    seats = tuple(Seat(f"P{i}") for i in range(config.players))
    m = Match.start("barras", config, seed, seats)
    start = config.bankroll * config.players
    i = 0
    while not m.state.over and i < 400:
        legal = legal_actions(m.state)
        choices = [a for a in legal if a.kind != "close"]  # close only at the end
        m = m.play(choices[picks[i % len(picks)] % len(choices)])
        i += 1
        s = m.state
        assert sum(s.chips) + s.house == start
        assert min(s.chips) >= 0
        for r in s.history:
            assert sum(r.delta) + r.house == 0
        assert len(s.chip_history) == len(s.history) + 1
    if not m.state.over:
        m = m.play(CLOSE)
    res = result(m.state)
    assert sum(res.chips) + res.house == start
    again = Match.from_json(json.dumps(m.to_record()))
    assert again.state == m.state


@settings(max_examples=25, deadline=None)
@given(
    configs,
    st.integers(0, 2**32),
    st.lists(st.sampled_from(["cautious", "steady", "reckless"]), min_size=6, max_size=6),
)
def test_computer_players_choose_legal_moves_and_never_close(config, seed, levels):
    seats = tuple(Seat(f"P{i}", "computer", levels[i]) for i in range(config.players))
    m = Match.start("barras", config, seed, seats)
    for _ in range(3000):
        if m.state.over:
            break
        seat = m.rules.to_act(m.state)
        legal = legal_actions(m.state)
        action = choose(view(m.state, seat), legal, levels[seat])
        assert action in legal and action.kind != "close"
        m = m.play(action)
