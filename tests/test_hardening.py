"""Files that go wrong, for every playable game: a truncated or unreplayable
save is set aside with its reason and nothing good is lost; a read-only or
full disk is reported and never eats the last good save."""

from __future__ import annotations

import errno
import json

import pytest

from garito.core import catalog
from garito.core.match import Match, RecordError, Seat
from garito.store import atomic, saves
from garito.tui.app import GarApp
from garito.tui.screens.game import GameScreen

from .helpers import gemelos_match, settle, sync

PLAYABLE = [g.id for g in catalog.GAMES]


def played(game: str, moves: int = 12) -> Match:
    """A match of ``game`` some moves in, computer seats choosing."""
    rules = catalog.rules(game)
    config = rules.default_config()
    seats = tuple(Seat(f"P{i}", "computer", rules.levels[-1]) for i in range(config.players))
    m = Match.start(game, config, 7, seats)
    for _ in range(moves):
        if rules.is_over(m.state):
            break
        seat = rules.to_act(m.state)
        m = m.play(rules.choose(rules.view(m.state, seat), rules.legal_actions(m.state), seats[seat].level))
    return m


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_truncated_save_is_set_aside_with_its_content(game):
    text = played(game).to_json()
    path = saves.save_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text[: len(text) // 2])
    found, damaged = saves.load_all()
    assert found == [] and len(damaged) == 1
    assert "not JSON" in damaged[0].reason
    assert damaged[0].moved_to.read_text() == text[: len(text) // 2]


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_record_that_does_not_replay_names_the_rule(game):
    record = played(game).to_record()
    record["actions"] = record["actions"][:3] + record["actions"][2:3] * 40  # a move repeated out of turn
    with pytest.raises(RecordError, match="does not replay|damaged"):
        Match.from_record(json.loads(json.dumps(record)))


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_record_of_another_version_is_refused(game):
    record = played(game).to_record()
    record["schema"] = 2
    with pytest.raises(RecordError, match="schema 2 is not 1"):
        Match.from_record(record)


@pytest.mark.parametrize(
    "failure",
    [OSError(errno.EROFS, "Read-only file system"), OSError(errno.ENOSPC, "No space left on device")],
)
def test_a_failed_write_keeps_the_last_good_save(monkeypatch, failure):
    good = played("gemelos", 4)
    saves.save(good)
    before = saves.save_path("gemelos").read_text()

    def fail(*_args, **_kwargs):
        raise failure

    monkeypatch.setattr(atomic.os, "replace", fail)
    with pytest.raises(OSError):
        saves.save(played("gemelos", 8))
    assert saves.save_path("gemelos").read_text() == before
    assert [p.name for p in saves.save_path("gemelos").parent.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(
    "errno_, words",
    [(errno.EROFS, "Read-only file system"), (errno.ENOSPC, "No space left on device")],
)
@sync
async def test_a_read_only_or_full_disk_is_reported_once_and_the_good_save_kept(monkeypatch, errno_, words):
    first = gemelos_match(seats=("human", "human"))
    saves.save(first)
    before = saves.save_path("gemelos").read_text()

    def failing(*_args, **_kwargs):
        raise OSError(errno_, words)

    monkeypatch.setattr(atomic.os, "replace", failing)
    app = GarApp(start=gemelos_match(seats=("human", "human")))
    async with app.run_test() as pilot:
        await settle(pilot)
        for _ in range(3):
            await pilot.press("space")
            await settle(pilot)
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert len(game.match.actions) >= 2  # play went on
        notes = [n.message for n in app._notifications if "cannot be saved" in n.message]
        assert notes == [f"The game cannot be saved ({words}); play goes on."]
    assert saves.save_path("gemelos").read_text() == before
