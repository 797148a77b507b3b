"""The headless match driver the game screens and the table server share:
whose turn, a computer's move from its view, stale moves dropped, watchers,
and replays that rebuild the match with its own dice."""

from __future__ import annotations

import pytest

from garito.core import gemelos
from garito.core.dice import COUNTER, MT, commitment
from garito.core.errors import IllegalAction
from garito.core.match import Match, Seat
from garito.core.session import Replay, Session


def match(seats: tuple[str, ...] = ("human", "computer"), stream: str = MT) -> Match:
    config = gemelos.Config(players=len(seats), stakes="before-roll")
    people = tuple(Seat(f"P{i}", kind) for i, kind in enumerate(seats))
    return Match.start("gemelos", config, 7, people, stream=stream, commitment=commitment(7))


def test_a_session_plays_the_human_seats_here_and_says_when_a_computer_moves():
    s = Session(match())
    assert s.here == (0,) and s.plays_here(0) and not s.plays_here(1) and not s.plays_here(None)
    assert s.to_act == 0 and s.computer_to_move() is None
    s.play(gemelos.Action("stake", 2))
    s.play(gemelos.ROLL)
    assert s.to_act == 1 and s.computer_to_move() == 1 and s.moves == 2


def test_an_illegal_move_names_the_rule_and_changes_nothing():
    s = Session(match())
    seen: list[Match] = []
    s.watch(seen.append)
    with pytest.raises(IllegalAction, match="Stake first"):
        s.play(gemelos.ROLL)
    assert s.moves == 0 and seen == []


def test_a_computer_moves_from_its_view_and_a_stale_move_is_dropped():
    s = Session(match(("computer", "computer")))
    seen: list[int] = []
    s.watch(lambda m: seen.append(len(m.actions)))
    seat = s.computer_to_move()
    assert seat == 0
    action = s.computer_move(seat)
    assert action == gemelos.RULES.choose(
        gemelos.view(s.match.state, 0), gemelos.legal_actions(s.match.state), "hard"
    )
    assert s.play_computer(0, action) and seen == [1]
    assert not s.play_computer(0, action) and s.moves == 1  # chosen before the last move: dropped


def test_a_computer_chooses_for_the_match_it_was_asked_for_not_the_one_now():
    s = Session(match(("computer", "computer")))
    asked = s.match
    while not s.over:
        s.play(s.computer_move(s.computer_to_move()))
    with pytest.raises(ValueError, match="no legal action"):
        s.computer_move(0)  # the match is over: nothing to choose from
    action = s.computer_move(0, asked)
    assert action in gemelos.legal_actions(asked.state)
    assert not s.play_computer(0, action)  # and it is dropped: the match moved on


def test_computers_do_not_move_where_another_front_end_plays_them():
    s = Session(match(("human", "computer")), here=(0,), computers=False)
    s.play(gemelos.Action("stake", 1))
    s.play(gemelos.ROLL)
    assert s.to_act == 1 and s.computer_to_move() is None


def test_a_replay_steps_through_the_match_with_its_own_dice():
    played = match(("computer", "computer"), stream=COUNTER)  # as a shared table deals
    s = Session(played)
    while not s.over:
        seat = s.computer_to_move()
        assert seat is not None
        s.play(s.computer_move(seat))
    replay = Replay(s.match, at=0)
    assert (
        replay.at == 0
        and replay.match.actions == ()
        and replay.caption() == f"the start (0 of {replay.last})"
    )
    replay.step_to(replay.last + 5)
    assert replay.at == replay.last and replay.match.state == s.match.state  # a shared table's stream, too
    replay.step_to(1)
    assert replay.caption() == f"move 1 of {replay.last}: {s.match.actions[0]}"
    assert Replay(s.match).at == replay.last
