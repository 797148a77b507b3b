"""Saves on disk: atomic, replayable, never destroyed by a new game."""

import json
import os

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


# ---------------------------------------------------------------- saves on their way


def _played(match, moves):
    for _ in range(moves):
        match = (
            match.play(gemelos.ROLL)
            if gemelos.ROLL in gemelos.legal_actions(match.state)
            else match.play(gemelos.legal_actions(match.state)[0])
        )
    return match


def test_saves_on_their_way_leave_the_newest_and_whatever_reads_them_waits():
    match = gemelos_match(seats=("human", "human"))
    moves = [_played(match, n) for n in range(6)]
    for m in moves:
        saves.save_soon(m)
    found, _ = saves.load_all()  # the menu: waits for them
    assert [s.match.actions for s in found] == [moves[-1].actions]
    assert json.loads(saves.save_path("gemelos").read_text())["actions"] == moves[-1].to_record()["actions"]


def test_a_save_now_comes_after_the_saves_on_their_way():
    match = gemelos_match(seats=("human", "human"))
    later = _played(match, 3)
    saves.save_soon(_played(match, 1))
    saves.save(later)  # a finished match's save is written at once: it is the last word
    saves.flush()
    assert json.loads(saves.save_path("gemelos").read_text())["actions"] == later.to_record()["actions"]


def test_a_save_that_fails_is_told_once_written_and_whoever_hears_may_wait_for_the_saves(monkeypatch):
    import threading

    from garito.store import atomic

    def failing(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", failing)
    heard: list[str] = []
    done = threading.Event()

    def failed(error: OSError) -> None:
        saves.flush()  # would never return if the save still counted as on its way
        heard.append(error.strerror)
        done.set()

    saves.save_soon(gemelos_match(seats=("human", "human")), failed)
    assert done.wait(10)
    assert heard == ["No space left on device"]
    assert not saves.save_path("gemelos").exists()


def test_a_save_on_its_way_is_written_when_the_process_ends(garito_home):
    import os
    import subprocess
    import sys

    code = (
        "from garito.core.gemelos import Config\n"
        "from garito.core.match import Match, Seat\n"
        "from garito.store import saves\n"
        "seats = (Seat('Ana', 'human'), Seat('Bea', 'human'))\n"
        "saves.save_soon(Match.start('gemelos', Config(players=2), 7, seats))\n"
    )
    env = {**os.environ, "GARITO_HOME": str(garito_home)}
    subprocess.run([sys.executable, "-P", "-c", code], check=True, cwd=garito_home, env=env, timeout=60)
    assert json.loads(saves.save_path("gemelos").read_text())["seed"] == 7


def test_a_save_another_process_wrote_over_is_read_again(garito_home):
    # What this process last wrote is taken as the file's content only while
    # the file is the one it made: another game written there meanwhile is
    # kept in saves/replaced/, as always.
    mine = gemelos_match(seats=("human", "human"))
    saves.save(mine)
    other = gemelos_match(seed=11, seats=("human", "computer"))
    write_atomic(saves.save_path("gemelos"), json.dumps(other.to_record()))
    saves.save(_played(mine, 1))
    kept = list((saves.save_path("gemelos").parent / "replaced").iterdir())
    assert [json.loads(p.read_text())["seed"] for p in kept] == [11]


def test_a_save_from_a_session_of_a_worker_is_written_in_its_players_home(garito_home, tmp_path):
    # A server's worker keeps each player's home in the session's context; the
    # saves' thread wrote in the worker's own, and a finished match waiting in
    # the player's pending/ was taken for a game to keep in saves/replaced/.
    import contextvars

    from garito.store import environ, pending

    home = tmp_path / "ana"
    home.mkdir()
    context = contextvars.copy_context()
    context.run(environ.enter, environ.Scope({"GARITO_HOME": str(home), "GARITO_PLAYER": "ana"}))
    finished = gemelos_match(seats=("human", "human"))
    context.run(saves.save, finished)
    pending.send_to(home, finished, "2026-12-02T07:00:00.000000+00:00")
    context.run(saves.save_soon, gemelos_match(seed=11, seats=("human", "human")))
    saves.flush()
    assert json.loads((home / "saves" / "gemelos.json").read_text())["seed"] == 11
    assert not (home / "saves" / "replaced").exists()  # the finished match waits in pending/
    assert not (garito_home / "saves").exists()  # nothing in the worker's own home


def test_only_the_newest_replaced_games_are_kept(garito_home, monkeypatch):
    assert saves.REPLACED_KEPT == 100
    monkeypatch.setattr(saves, "REPLACED_KEPT", 3)
    replaced = garito_home / "saves" / "replaced"
    for seed in range(1, 7):
        saves.save(gemelos_match(seed=seed))
        os.utime(saves.save_path("gemelos"), (1000 + seed, 1000 + seed))  # saved a second apart
    kept = sorted(replaced.iterdir(), key=lambda p: p.stat().st_mtime)
    # seeds 1..5 were replaced in turn (6 is the save): the last three stay
    assert [json.loads(p.read_text())["seed"] for p in kept] == [3, 4, 5]


def test_the_saves_thread_lets_go_of_a_save_once_written(garito_home):
    # A save's context names whoever saved (a game screen: Textual keeps the
    # active widget in it); the thread kept the last one's while it waited
    # for the next save, and a server's worker kept a screen its player had
    # left.
    import contextvars
    import time
    import weakref

    class Screen:
        pass

    screen = Screen()
    gone = weakref.ref(screen)
    pump: contextvars.ContextVar[Screen] = contextvars.ContextVar("pump")
    context = contextvars.Context()
    context.run(pump.set, screen)
    context.run(saves.save_soon, gemelos_match(seats=("human", "human")), lambda error: None)
    del screen, context
    saves.flush()
    deadline = time.monotonic() + 10
    while gone() is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gone() is None
    assert json.loads(saves.save_path("gemelos").read_text())["seed"] == 7
