"""Every game keeps the game contract (core/contract.py): these checks run
for each game in the registry, so a new game is held to them the moment it
is listed."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from garito.core import catalog
from garito.core.contract import Rules
from garito.core.errors import IllegalAction
from garito.core.match import Match, Seat

GAMES = list(catalog.GAMES)


@pytest.fixture(params=GAMES, ids=lambda g: g.id)
def game(request):
    return request.param


def test_six_games_are_listed():
    assert [g.title for g in catalog.GAMES] == [
        "Gemelos",
        "Red Man's Throw",
        "Barras",
        "Irwin's Revenge",
        "Decimus",
        "Willie",
    ]
    with pytest.raises(LookupError, match="unknown game 'poker'"):
        catalog.rules("poker")


def test_the_registry_gives_each_game_its_rules(game):
    rules = catalog.rules(game.id)
    assert isinstance(rules, Rules) and rules is catalog.rules(game.id)
    assert rules.id == game.id and rules.title == game.title and rules.players == game.players
    assert rules.levels and set(rules.default_levels) <= set(rules.levels)
    keys = {f.name for f in fields(rules.config_type)}
    assert "players" in keys
    assert {v.key for v in rules.variants} <= keys
    for v in rules.variants:
        assert getattr(rules.default_config(), v.key) in v.choices, v.key
    assert rules.config_from_dict(rules.default_config().to_dict()) == rules.default_config()


def random_match(game, seed: int) -> Match:
    rules = catalog.rules(game.id)
    rng = random.Random(seed)
    lo, hi = game.players
    n = rng.randint(max(lo, 2) if hi >= 2 else lo, hi)
    values = {v.key: rng.choice(v.choices) for v in rules.variants}
    try:
        config = rules.config_type(players=n, **values)
    except ValueError:
        config = rules.config_type(players=n)
    seats = tuple(
        Seat(f"P{i}", rng.choice(["human", "computer"]), rng.choice(rules.levels)) for i in range(n)
    )
    return Match.start(game.id, config, seed, seats)


@pytest.mark.parametrize("seed", range(12))
def test_bots_and_random_players_finish_and_records_replay(game, seed):
    rules = catalog.rules(game.id)
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
            action = rules.choose(rules.view(m.state, seat), legal, m.seats[seat].level)
        # a move legal_actions cannot list (Willie's open-ended meld) is
        # checked by apply, which refuses it if the rules do
        assert action in legal or action.kind in rules.open_actions
        m = m.play(action)
    assert rules.is_over(m.state) and rules.result(m.state) is not None
    assert rules.to_act(m.state) is None and rules.legal_actions(m.state) == []
    again = Match.from_json(m.to_json())
    assert again.state == m.state
    for event in m.state.events:
        assert isinstance(rules.narrate(event, m.names), str)
    assert rules.summary(m.state, m.names)


def test_views_never_carry_the_dice_stream(game):
    rules = catalog.rules(game.id)
    m = random_match(game, 1)
    v = rules.view(m.state, 0)
    names = {f.name for f in fields(v)}
    assert not names & {"rng", "seed"}


def test_actions_round_trip_through_their_notation(game):
    rules = catalog.rules(game.id)
    m = random_match(game, 2)
    for action in rules.legal_actions(m.state):
        assert rules.parse_action(str(action)) == action


def test_an_illegal_action_names_a_rule(game):
    rules = catalog.rules(game.id)
    m = random_match(game, 3)
    while not rules.is_over(m.state):
        m = m.play(rules.legal_actions(m.state)[0])
    some_action = rules.parse_action(str(rules.legal_actions(random_match(game, 3).state)[0]))
    with pytest.raises(IllegalAction) as e:
        rules.apply(m.state, some_action)
    assert e.value.rule


def test_a_computer_level_the_game_does_not_have_is_refused_not_played_as_another(game):
    import importlib

    from garito.core.errors import UnknownLevel

    rules = catalog.rules(game.id)
    lo, _hi = game.players
    seats = tuple(Seat(f"P{i + 1}", "computer", rules.levels[0]) for i in range(max(lo, 2)))
    m = Match.start(game.id, rules.config_type(players=len(seats)), 7, seats)
    seat = rules.to_act(m.state)
    assert seat is not None
    view, legal = rules.view(m.state, seat), rules.legal_actions(m.state)
    for level in rules.levels:
        rules.apply(m.state, rules.choose(view, legal, level))  # a move the rules take
    names = " or ".join(rules.levels)
    bot = importlib.import_module(f"{rules.package}.bot")
    for choose in (rules.choose, bot.choose):
        with pytest.raises(UnknownLevel, match=f"{rules.title} has no computer level 'grandmaster': {names}"):
            choose(view, legal, "grandmaster")
    with pytest.raises(ValueError, match="no computer level 'Hard'"):  # a level is its exact word
        rules.choose(view, legal, "Hard")
    # Nor is a match begun with one, nor a record read that has one.
    odd = (Seat("Ana"), Seat("Bot", "computer", "grandmaster"), *seats[2:])
    with pytest.raises(UnknownLevel, match="grandmaster"):
        Match.start(game.id, rules.config_type(players=len(odd)), 7, odd)
    record = m.to_record()
    record["seats"][1]["level"] = "grandmaster"
    from garito.core.match import RecordError

    with pytest.raises(RecordError, match="has no computer level 'grandmaster'"):
        Match.from_record(record)
    record["seats"][1]["kind"] = "human"  # a person's seat keeps whatever level it carries
    assert Match.from_record(record).seats[1].is_human
