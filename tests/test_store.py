"""Saves on disk: atomic, replayable, never destroyed by a new game."""

import json

import pytest

from garito.core import gemelos
from garito.store import saves, settings
from garito.store.atomic import set_aside, write_atomic

from .helpers import gemelos_match


def test_save_and_load_replays_the_same_state():
    m = gemelos_match(seed=11)
    for _ in range(3):
        m = m.play(m.rules.legal_actions(m.state)[0])
    saves.save(m)
    found, damaged = saves.load_all()
    assert damaged == [] and len(found) == 1
    assert found[0].match.state == m.state


def test_a_new_game_over_a_saved_one_keeps_the_old_one(garito_home):
    old = gemelos_match(seed=1).play(gemelos.ROLL)
    saves.save(old)
    saves.save(old.play(gemelos.ROLL))  # the same game going on: no copy
    assert not (garito_home / "saves" / "replaced").exists()
    saves.save(gemelos_match(seed=2))
    kept = list((garito_home / "saves" / "replaced").glob("gemelos-*.json"))
    assert len(kept) == 1
    assert json.loads(kept[0].read_text())["actions"] == ["roll", "roll"]
    assert json.loads(saves.save_path("gemelos").read_text())["seed"] == 2


def test_a_garbage_save_is_kept_aside_when_a_new_game_starts(garito_home):
    path = saves.save_path("gemelos")
    path.parent.mkdir(parents=True)
    path.write_text("not json")
    saves.save(gemelos_match())
    kept = list((garito_home / "saves" / "replaced").iterdir())
    assert [k.read_text() for k in kept] == ["not json"]


@pytest.mark.parametrize(
    "content, reason",
    [
        ("", "not JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"schema": 99}', "schema 99"),
        ('{"schema": 1, "game": "poker"}', "unknown game"),
        (
            '{"schema": 1, "game": "gemelos", "config": {"players": 9}, "seed": 1, '
            '"seats": [], "actions": []}',
            "2 to 6 players",
        ),
        (
            '{"schema": 1, "game": "gemelos", "config": {}, "seed": "x", "seats": [], "actions": []}',
            "seed must be an integer",
        ),
    ],
)
def test_damaged_saves_are_set_aside_with_a_reason(garito_home, content, reason):
    path = saves.save_path("gemelos")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    found, damaged = saves.load_all()
    assert found == []
    assert reason in damaged[0].reason
    assert damaged[0].moved_to.read_text() == content
    assert not path.exists()


def test_set_aside_never_overwrites_an_earlier_corrupt_file(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    for text in ("first", "second"):
        p = folder / "x.json"
        p.write_text(text)
        set_aside(p)
    assert sorted(f.read_text() for f in folder.iterdir()) == ["first", "second"]


def test_atomic_write_leaves_no_temporary_file(tmp_path):
    write_atomic(tmp_path / "a" / "b.json", "{}")
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["b.json"]


def test_settings_survive_a_damaged_file(garito_home):
    garito_home.mkdir(parents=True, exist_ok=True)
    (garito_home / "settings.json").write_text("{oops")
    assert settings.load() == {}
    settings.update(theme="ansi-dark")
    assert settings.load() == {"theme": "ansi-dark"}


def test_a_finished_game_is_not_offered_to_continue():
    m = gemelos_match(seed=5)
    while not m.state.over:
        m = m.play(gemelos.ROLL)
    saves.save(m)
    assert saves.load_all() == ([], [])
    assert saves.save_path("gemelos").exists()  # kept, not reported as damaged


def test_an_unreadable_saves_folder_is_reported_not_fatal(monkeypatch):
    from pathlib import Path

    def refuse(self, pattern):
        raise PermissionError(13, "Permission denied")

    saves.saves_dir().mkdir(parents=True)
    monkeypatch.setattr(Path, "glob", refuse)
    found, damaged = saves.load_all()
    assert found == [] and "cannot be read: Permission denied" in damaged[0].reason


def test_best_scores_per_name_and_a_damaged_file_set_aside():
    from garito.store import bests
    from garito.store.paths import config_dir

    assert bests.record("irwin", {"Ana": 20, "Bea": 5}) == {"Ana": (20, True), "Bea": (5, True)}
    assert bests.record("irwin", {"Ana": 12, "Bea": 9}) == {"Ana": (20, False), "Bea": (9, True)}
    assert bests.load() == {"irwin": {"Ana": 20, "Bea": 9}}
    path = config_dir() / "bests.json"
    path.write_text("{not json", encoding="utf-8")
    assert bests.load() == {}
    assert (config_dir() / "bests.json.corrupt").exists()  # set aside, not lost
    assert bests.record("irwin", {"Ana": 3}) == {"Ana": (3, True)}
