"""Invariants of Gemelos under random configs, seeds and stake choices."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core.gemelos import Config, legal_actions, view
from garito.core.gemelos.bot import choose
from garito.core.gemelos.odds import round_chances
from garito.core.match import Match, Seat

configs = st.builds(
    Config,
    players=st.integers(2, 6),
    wins_needed=st.integers(2, 4),
    first_roller=st.sampled_from(["rotate", "fixed"]),
    stakes=st.sampled_from(["off", "blind", "before-roll"]),
    bankroll=st.integers(1, 40),
    stake_min=st.integers(1, 3),
    stake_max=st.integers(3, 12),
)


def play(config, seed, picks):
    seats = tuple(Seat(f"P{i}") for i in range(config.players))
    m = Match.start("gemelos", config, seed, seats)
    states = [m.state]
    i = 0
    while not m.state.over:
        legal = legal_actions(m.state)
        m = m.play(legal[picks[i % len(picks)] % len(legal)])
        i += 1
        states.append(m.state)
    return m, states


@settings(max_examples=60, deadline=None)
@given(configs, st.integers(0, 2**32), st.lists(st.integers(0, 50), min_size=1, max_size=8))
def test_chips_are_conserved_and_never_negative(config, seed, picks):
    _, states = play(config, seed, picks)
    total = config.players * config.bankroll if config.stakes != "off" else 0
    for s in states:
        assert sum(s.chips) + s.pot == total
        assert min(s.chips) >= 0


@settings(max_examples=40, deadline=None)
@given(configs, st.integers(0, 2**32), st.lists(st.integers(0, 50), min_size=1, max_size=8))
def test_a_record_replays_to_the_identical_state(config, seed, picks):
    m, _ = play(config, seed, picks)
    again = Match.from_json(json.dumps(m.to_record()))
    assert again.state == m.state
    assert again.actions == m.actions


@settings(max_examples=40, deadline=None)
@given(configs, st.integers(0, 2**32))
def test_the_match_ends_with_one_winner_at_the_target(config, seed):
    m, _ = play(config, seed, [0])
    s = m.state
    assert max(s.wins) == config.wins_needed
    assert s.wins.count(config.wins_needed) == 1
    assert sum(s.wins) == len(s.history)


@settings(max_examples=40, deadline=None)
@given(configs, st.integers(0, 2**32), st.sampled_from(["easy", "hard"]))
def test_bots_always_choose_a_legal_action(config, seed, level):
    m = Match.start(
        "gemelos", config, seed, tuple(Seat(f"P{i}", "computer", level) for i in range(config.players))
    )
    while not m.state.over:
        seat = m.state.order[len(m.state.throws)] if m.state.config.stakes != "blind" else None
        from garito.core.gemelos import to_act

        seat = to_act(m.state)
        legal = legal_actions(m.state)
        action = choose(view(m.state, seat), legal, level)
        assert action in legal
        m = m.play(action)


def test_round_chances_sum_to_one_for_every_table_size():
    for n in range(2, 7):
        before_anyone = [round_chances(None, 0, -1, n, i, n) for i in range(n)]
        wins = sum(w for w, _, _ in before_anyone)
        void = before_anyone[0][2]
        assert abs(wins + void - 1) < 1e-12
        for w, lose, v in before_anyone:
            assert abs(w + lose + v - 1) < 1e-12
