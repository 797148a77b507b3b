"""Invariants of Decimus under random seeds and choices: every point
scored is accounted for by an event, scores never fall, the rival's dice
never reach a seat's view before the showdown, records replay."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core import decimus as dx
from garito.core.match import Match, Seat


def play(target, seed, picks):
    m = Match.start("decimus", dx.Config(target=target), seed, (Seat("A"), Seat("B")))
    states = [m.state]
    i = 0
    while not dx.is_over(m.state) and i < 600:
        legal = dx.legal_actions(m.state)
        m = m.play(legal[picks[i % len(picks)] % len(legal)])
        i += 1
        states.append(m.state)
    return m, states


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([20, 30, 40]),
    st.integers(0, 2**32),
    st.lists(st.integers(0, 40), min_size=1, max_size=8),
)
def test_points_accounted_views_hidden_and_records_replay(target, seed, picks):
    m, states = play(target, seed, picks)
    for before, after in zip(states, states[1:]):
        assert after.scores[0] >= before.scores[0] and after.scores[1] >= before.scores[1]
        scored = [0, 0]
        for e in after.events[len(before.events) :]:
            if isinstance(e, dx.Folded):
                scored[1 - e.seat] += e.points
            elif isinstance(e, dx.PointAlone):
                scored[e.seat] += 1
            elif isinstance(e, dx.Settled):
                scored[e.seat] += e.points
        assert tuple(b + s for b, s in zip(before.scores, scored)) == after.scores
        if after.stage != "over":
            for seat in (0, 1):
                v = dx.view(after, seat)
                assert v.rival_dice is None and v.dice == after.hands[seat]
                # A reroll tells which positions, never the faces.
                assert after.hands[1 - seat] not in [e.dice for e in v.events if isinstance(e, dx.Rerolled)]
    if dx.is_over(m.state):
        res = dx.result(m.state)
        assert max(res.scores) >= target and res.scores[res.winner] > res.scores[1 - res.winner]
    again = Match.from_json(json.dumps(m.to_record()))
    assert again.state == m.state
