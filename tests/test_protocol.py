"""Every playable game keeps the core protocol (core/protocol.py): these
checks run for each game in the catalog, so a new game is held to them the
moment it is listed as playable."""

from __future__ import annotations

import importlib
import random
from dataclasses import fields

import pytest

from garito.core import catalog
from garito.core.errors import IllegalAction
from garito.core.match import Match, Seat
from garito.core.protocol import REQUIRED

PLAYABLE = [g for g in catalog.GAMES if g.playable]


@pytest.fixture(params=PLAYABLE, ids=lambda g: g.id)
def game(request):
    return request.param


def test_six_games_are_listed_and_at_least_one_is_playable():
    assert [g.title for g in catalog.GAMES] == [
        "Gemelos",
        "Red Man's Throw",
        "Barras",
        "Irwin's Revenge",
        "Decimus",
        "Willie",
    ]
    assert PLAYABLE


def test_unplayable_games_refuse_to_load():
    for info in catalog.GAMES:
        if not info.playable:
            with pytest.raises(LookupError, match="not playable yet"):
                info.load()


def test_rules_module_has_the_protocol(game):
    rules = game.load()
    missing = [name for name in REQUIRED if not hasattr(rules, name)]
    assert not missing
    assert rules.GAME_ID == game.id and rules.TITLE == game.title
    bot = importlib.import_module(rules.__name__ + ".bot")
    assert callable(bot.choose)
    keys = {f.name for f in fields(rules.Config)}
    assert "players" in keys
    assert {v.key for v in rules.VARIANTS} <= keys
    for v in rules.VARIANTS:
        assert getattr(rules.Config(), v.key) in v.choices, v.key


def random_match(game, seed: int) -> Match:
    rules = game.load()
    rng = random.Random(seed)
    lo, hi = game.players
    n = rng.randint(max(lo, 2) if hi >= 2 else lo, hi)
    values = {v.key: rng.choice(v.choices) for v in rules.VARIANTS}
    try:
        config = rules.Config(players=n, **values)
    except ValueError:
        config = rules.Config(players=n)
    seats = tuple(
        Seat(f"P{i}", rng.choice(["human", "computer"]), rng.choice(rules.LEVELS)) for i in range(n)
    )
    return Match.start(game.id, config, seed, seats)


@pytest.mark.parametrize("seed", range(12))
def test_bots_and_random_players_finish_and_records_replay(game, seed):
    rules = game.load()
    bot = importlib.import_module(rules.__name__ + ".bot")
    rng = random.Random(seed)
    m = random_match(game, seed)
    for _ in range(5000):
        if rules.is_over(m.state):
            break
        seat = rules.to_act(m.state)
        legal = rules.legal_actions(m.state)
        assert legal and seat is not None
        if m.seats[seat].is_human:
            action = rng.choice(legal)
        else:
            action = bot.choose(rules.view(m.state, seat), legal, m.seats[seat].level)
        # a move legal_actions cannot list (Willie's open-ended meld) is
        # checked by apply, which refuses it if the rules do
        assert action in legal or action.kind in getattr(rules, "OPEN_ACTIONS", ())
        m = m.play(action)
    assert rules.is_over(m.state) and rules.result(m.state) is not None
    assert rules.to_act(m.state) is None and rules.legal_actions(m.state) == []
    again = Match.from_json(m.to_json())
    assert again.state == m.state
    for event in m.state.events:
        assert isinstance(rules.narrate(event, m.names), str)
    assert rules.summary(m.state, m.names)


def test_views_never_carry_the_dice_stream(game):
    rules = game.load()
    m = random_match(game, 1)
    v = rules.view(m.state, 0)
    names = {f.name for f in fields(v)}
    assert not names & {"rng", "seed"}


def test_actions_round_trip_through_their_notation(game):
    rules = game.load()
    m = random_match(game, 2)
    for action in rules.legal_actions(m.state):
        assert rules.Action.parse(str(action)) == action


def test_an_illegal_action_names_a_rule(game):
    rules = game.load()
    m = random_match(game, 3)
    while not rules.is_over(m.state):
        m = m.play(rules.legal_actions(m.state)[0])
    some_action = rules.Action.parse(str(rules.legal_actions(random_match(game, 3).state)[0]))
    with pytest.raises(IllegalAction) as e:
        rules.apply(m.state, some_action)
    assert e.value.rule
