"""A seat's masked state: it answers every question that seat may ask as the
whole state does, keeps nothing of the seat's secrets, and survives the
wire."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core import catalog, wire
from garito.core.match import Match, Seat

GAMES = [g.id for g in catalog.GAMES]


def random_match(game: str, seed: int, moves: int, pick: random.Random) -> list:
    """The states of a match played at random for ``moves`` moves."""
    rules = catalog.rules(game)
    config = rules.default_config()
    match = Match.start(game, config, seed, tuple(Seat(f"P{i}") for i in range(config.players)))
    states = [match.state]
    for _ in range(moves):
        state = match.state
        seat = rules.to_act(state)
        if rules.is_over(state) or seat is None:
            break
        legal = rules.legal_actions(state)
        if rules.open_actions or not legal:
            action = rules.choose(rules.view(state, seat), legal, rules.levels[0])
        else:
            action = pick.choice(legal)
        match = match.play(action)
        states.append(match.state)
    return states


def through_the_wire(rules, state):
    return wire.decode(json.loads(json.dumps(wire.encode(state))), rules)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), moves=st.integers(0, 120), choice=st.integers(0, 2**31))
def test_a_seat_sees_the_same_game_through_its_masked_state(game, seed, moves, choice):
    rules = catalog.rules(game)
    names = tuple(f"P{i}" for i in range(rules.default_config().players))
    for state in random_match(game, seed, moves, random.Random(choice)):
        assert through_the_wire(rules, state) == state  # the codec loses nothing
        to_act = rules.to_act(state)
        for seat in [*range(len(names)), None]:
            if seat is None and not rules.spectators:
                continue
            mine = through_the_wire(rules, rules.masked(state, seat))
            assert mine.rng == () and mine.seed == 0  # never the dice to come
            assert rules.to_act(mine) == to_act and rules.is_over(mine) == rules.is_over(state)
            assert rules.summary(mine, names) == rules.summary(state, names)
            assert [rules.narrate(e, names) for e in mine.events] == [
                rules.narrate(e, names) for e in state.events
            ]
            if seat is not None:
                assert rules.view(mine, seat) == rules.view(state, seat)
                if to_act == seat:
                    assert rules.legal_actions(mine) == rules.legal_actions(state)


def test_decimus_masks_the_rivals_dice_until_the_match_is_over():
    from garito.core import decimus as dx

    state = random_match("decimus", 3, 4, random.Random(1))[-1]
    mine = dx.RULES.masked(state, 1)
    assert mine.hands[1] == state.hands[1] and mine.hands[0] == (0,) * len(state.hands[0])
    assert state.hands[0] != mine.hands[0]
    assert set(dx.RULES.masked(state, None).hands) == {(0,) * len(state.hands[0])}
    over = random_match("decimus", 3, 10_000, random.Random(1))[-1]
    assert dx.is_over(over) and dx.RULES.masked(over, 1).hands == over.hands


def test_willie_masks_the_other_hands_and_the_pile():
    from garito.core import willie as wx

    state = random_match("willie", 8, 3, random.Random(2))[-1]
    mine = wx.RULES.masked(state, 0)
    assert mine.hands[0] == state.hands[0]
    assert mine.hands[1] == ("?",) * len(state.hands[1]) and mine.pile == ("?",) * len(state.pile)
    text = json.dumps(wire.encode(mine))
    # a card shown to all before (melded, or in a hand a round's score showed) may be named
    shown = {c for e in state.events if isinstance(e, wx.Melded) for c in e.cards}
    shown |= {c for e in state.events if isinstance(e, wx.RoundScored) for h in e.hands for c in h}
    secret = [c for c in state.hands[1] if c not in state.hands[0] and c not in shown]
    assert secret and not any(f'"{card}"' in text for card in secret)


def test_decode_makes_only_the_games_own_values():
    from garito.core import gemelos

    with pytest.raises(ValueError, match="not a Gemelos value"):
        wire.decode({"$": "Popen", "args": ["sh"]}, gemelos.RULES)
    with pytest.raises(ValueError, match="damaged Throw"):
        wire.decode({"$": "Throw", "seat": 0}, gemelos.RULES)
