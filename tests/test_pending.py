"""A finished match is never lost: when the history cannot take it (busy
past its wait, damaged, of a newer schema, unwritable), the match waits in
``pending/`` with its save kept, and a later start adds it, exactly once."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from garito.core import gemelos
from garito.core.match import Match
from garito.store import history as hist
from garito.store import pending, saves
from garito.store.history import History
from garito.tui.app import GarApp

from .helpers import gemelos_match, match_over, settle, sync


def over(seed: int = 5) -> Match:
    """A finished Gemelos match, and its save as the game left it."""
    m = gemelos_match(seed=seed)
    while not m.state.over:
        saves.save(m)
        m = m.play(gemelos.ROLL)
    return m


def waiting() -> list:
    folder = pending.pending_dir()
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def kept() -> list[str]:
    """The records the history holds."""
    with History() as h:
        return list(h.records())


@pytest.fixture
def locked(monkeypatch):
    """Another connection holding the history's write lock, and a short wait."""
    with History():
        pass  # the file, at the latest schema
    monkeypatch.setattr(hist, "WAIT", 0.1)
    other = sqlite3.connect(hist.db_path(), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    yield other
    other.close()


def test_a_finished_match_goes_to_the_history_and_nothing_waits():
    m = over()
    assert pending.finish(m) == ""
    assert kept() == [m.to_json()]
    assert waiting() == [] and not saves.save_path("gemelos").exists()


def test_a_busy_history_keeps_the_match_waiting_with_its_save(locked):
    m = over()
    told = pending.finish(m)
    assert "busy" in told and "waits in" in told and "next starts" in told and "\n" not in told
    (path,) = waiting()
    assert json.loads(path.read_text())["record"] == m.to_record()
    # the save is kept, holding the finished match: nothing to continue, nothing to replay twice
    assert json.loads(saves.save_path("gemelos").read_text()) == m.to_record()
    assert saves.load_all() == ([], [])
    assert pending.drain() == pending.Drained(0, 1, ())  # still busy: quiet, still waiting
    locked.execute("ROLLBACK")
    assert pending.drain() == pending.Drained(1, 0, ())
    assert kept() == [m.to_json()]
    assert waiting() == [] and not saves.save_path("gemelos").exists()
    assert pending.drain() == pending.Drained(0, 0, ())  # once
    assert kept() == [m.to_json()]


def test_a_damaged_history_is_set_aside_and_the_match_waits_for_the_new_one():
    path = hist.db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database, " * 100)
    m = over()
    told = pending.finish(m)
    assert "damaged" in told and "waits in" in told
    assert path.with_name("history.sqlite3.corrupt").exists() and len(waiting()) == 1
    assert saves.save_path("gemelos").exists()
    assert pending.drain().added == 1
    assert kept() == [m.to_json()] and waiting() == [] and not saves.save_path("gemelos").exists()


def test_a_history_of_a_newer_schema_keeps_the_match_waiting_until_it_can():
    path = hist.db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 7")
    db.close()
    m = over()
    assert "newer Garito" in pending.finish(m)
    for _ in range(3):  # every start while it cannot: quiet, and still waiting
        assert pending.drain() == pending.Drained(0, 1, ())
    assert saves.save_path("gemelos").exists()
    path.unlink()  # the newer Garito's history moved elsewhere: this one starts its own
    assert pending.drain().added == 1
    assert kept() == [m.to_json()]


def test_an_unwritable_history_keeps_the_match_waiting(monkeypatch):
    with History():
        pass
    connect = sqlite3.connect
    read_only = [True]  # SQLite's own refusal (a chmod does not stop root, who runs the tests here)

    def opened(path, **kwargs):
        if read_only[0]:
            return connect(f"file:{path}?mode=ro", uri=True, **kwargs)
        return connect(path, **kwargs)

    monkeypatch.setattr(hist.sqlite3, "connect", opened)
    m = over()
    told = pending.finish(m)
    assert "cannot be written" in told and "readonly" in told and len(waiting()) == 1
    read_only[0] = False
    assert pending.drain().added == 1 and kept() == [m.to_json()]


def test_a_crash_after_the_history_took_it_adds_it_once():
    m = over()
    entry = {"finished": "2026-03-01T12:00:00+00:00", "record": m.to_record()}
    path = pending.pending_dir() / "left-behind.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(entry))
    with History() as h:  # the history took it, then the app stopped before removing the file
        assert h.add_once(m, entry["finished"])[1]
    assert pending.drain() == pending.Drained(0, 0, ())
    assert kept() == [m.to_json()] and waiting() == []


def test_two_garitos_starting_at_once_add_a_waiting_match_once(locked):
    m = over()
    pending.finish(m)
    locked.execute("ROLLBACK")
    results = []
    threads = [threading.Thread(target=lambda: results.append(pending.drain())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r.added for r in results) == 1
    assert kept() == [m.to_json()]


def test_the_same_match_played_twice_is_kept_twice():
    """Idempotent by record and finish time, not by record alone: two plays
    of one seed with the same moves are two matches."""
    m = over()
    assert pending.finish(m) == "" and pending.finish(m) == ""
    assert kept() == [m.to_json()] * 2


def test_a_damaged_pending_file_is_set_aside_and_the_others_added(locked):
    a, b = over(5), over(6)
    pending.finish(a)
    pending.finish(b)
    locked.execute("ROLLBACK")
    first = waiting()[0]
    first.write_text('{"finished": 7, "record": []}')
    done = pending.drain()
    assert done.added == 1 and [p.name for p in done.set_aside] == [first.name + ".corrupt"]
    assert len(kept()) == 1 and waiting() == []
    assert (pending.pending_dir() / (first.name + ".corrupt")).exists()  # kept, not deleted


def test_a_new_game_over_a_waiting_save_does_not_copy_it_aside(locked):
    m = over()
    pending.finish(m)
    saves.save(gemelos_match(seed=9))  # the rematch takes the slot: the finished match waits in pending/
    assert not (saves.saves_dir() / "replaced").exists()
    locked.execute("ROLLBACK")
    assert pending.drain().added == 1
    assert saves.save_path("gemelos").exists()  # the new game's save, left alone
    assert json.loads(saves.save_path("gemelos").read_text())["seed"] == 9


@sync
async def test_the_app_tells_once_and_a_later_start_adds_it(locked):
    m = gemelos_match(seed=5, seats=("computer", "computer"))
    last = m
    while not last.state.over:
        m, last = last, last.play(gemelos.ROLL)
    app = GarApp(start=m)  # one roll from the end, the computers playing
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40):
            await settle(pilot)
            if match_over(app):
                break
            await pilot.pause(0.2)  # a table with no human closes its boxes by itself
        assert match_over(app)
        told = [n.message for n in app._notifications if "waits in" in n.message]
        assert len(told) == 1
    assert len(waiting()) == 1 and saves.save_path("gemelos").exists()
    locked.execute("ROLLBACK")
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert any("is in it now" in n.message for n in app._notifications)
    assert kept() == [last.to_json()] and waiting() == [] and not saves.save_path("gemelos").exists()
    app = GarApp()  # and the start after that has nothing to say
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not list(app._notifications)
    assert len(kept()) == 1
