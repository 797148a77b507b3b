"""A player's home following them round a cluster (server/roaming.py), on a
real Redis: saves, settings and history brought from one host's home to
another's, a save removed on one removed on the other, a file changed on
both kept aside, a change not yet brought over never overwritten, a shared
match's end reaching an absent player's history once, values Garito never
writes refused, Redis down at an arrival."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import pytest

from garito.core import catalog
from garito.core.match import Match
from garito.core.variants import offered_config
from garito.server import roaming
from garito.server.redis_store import RedisStore
from garito.server.roaming import Roaming, fingerprint, key
from garito.store import pending, saves, settings
from garito.store.history import History
from garito.store.stats import lines

from .helpers import gemelos_match, sync
from .test_ratings import computer, person, played


@pytest.fixture
def at(monkeypatch):
    """Runs store calls as the player whose home is ``home``."""

    def use(home: Path) -> None:
        home.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv("GARITO_HOME", str(home))

    return use


def history(home: Path) -> list[tuple[str, str]]:
    with History(home / "history.sqlite3") as h:
        return [(e.finished, e.game) for e in h.entries()]


async def hosts(url: str, n: int = 2) -> list[Roaming]:
    return [Roaming(RedisStore(url)) for _ in range(n)]


def finished_match(seed: int) -> Match:
    return played("gemelos", (person("Ana"), computer("hard")), seed)


@sync
async def test_saves_settings_and_history_follow_a_player_to_another_host(redis_server, tmp_path, at):
    a, b = await hosts(redis_server.url)
    home_a, home_b = tmp_path / "a" / "Ana", tmp_path / "b" / "Ana"
    try:
        at(home_a)
        settings.update(language="gl")
        going = gemelos_match(seed=5)
        going = going.play(going.rules.legal_actions(going.state)[0])
        saves.save(going)
        for seed in (1, 2):
            assert pending.finish(finished_match(seed), saved=False) == ""
        await a.sync("Ana", home_a)  # a look while playing
        await b.arrive("Ana", home_b)
        at(home_b)
        assert settings.load()["language"] == "gl"
        (found,), damaged = saves.load_all()
        assert not damaged and found.match.state == going.state
        assert pending.drain().added == 2  # what the app does as it starts
        assert history(home_b) == history(home_a)
        with History(home_a / "history.sqlite3") as ha, History(home_b / "history.sqlite3") as hb:
            assert lines(hb.entries(), "Ana") == lines(ha.entries(), "Ana")  # the statistics follow
        # B's own match goes back the other way, once; nothing doubles.
        assert pending.finish(finished_match(3), saved=False) == ""
        await b.sync("Ana", home_b)
        await a.arrive("Ana", home_a)
        at(home_a)
        assert pending.drain().added == 1 and len(history(home_a)) == 3
        await a.sync("Ana", home_a)
        assert int(redis_server.command("HLEN", key("Ana", "history"))[1:]) == 3
    finally:
        for r in (a, b):
            await r.close()


@sync
async def test_a_save_removed_on_one_host_is_removed_on_the_other_and_a_change_on_both_is_kept(
    redis_server, tmp_path, at
):
    a, b = await hosts(redis_server.url)
    home_a, home_b = tmp_path / "a" / "Ana", tmp_path / "b" / "Ana"
    try:
        at(home_a)
        m = gemelos_match(seed=7)
        saves.save(m)
        settings.update(language="es")
        await a.sync("Ana", home_a)
        await b.arrive("Ana", home_b)
        assert (home_b / "saves" / "gemelos.json").is_file()
        at(home_a)
        saves.discard("gemelos")  # the game ended there
        await a.sync("Ana", home_a)
        # B changed its settings meanwhile and never brought them over: kept.
        at(home_b)
        settings.update(language="gl")
        await b.arrive("Ana", home_b)
        assert not (home_b / "saves" / "gemelos.json").exists()
        assert settings.load()["language"] == "gl"  # newer here than what Redis holds
        await b.sync("Ana", home_b)
        # Now both change it: the other host's is played, this one's kept aside.
        at(home_a)
        settings.update(language="en")
        await a.sync("Ana", home_a)
        at(home_b)
        settings.update(language="es")
        await b.arrive("Ana", home_b)
        assert settings.load()["language"] == "en"
        (aside,) = home_b.glob("settings.json.here-*")
        assert json.loads(aside.read_text())["language"] == "es"
    finally:
        for r in (a, b):
            await r.close()


def started(game: str, seed: int) -> Match:
    rules = catalog.rules(game)
    return Match.start(game, offered_config(rules, 2, {}), seed, (person("Ana"), computer("hard")))


@sync
async def test_two_sessions_on_two_hosts_keep_each_others_saves(redis_server, tmp_path, at):
    a, b = await hosts(redis_server.url)
    home_a, home_b = tmp_path / "a" / "Ana", tmp_path / "b" / "Ana"
    try:
        at(home_a)
        saves.save(started("gemelos", 1))
        at(home_b)
        saves.save(started("barras", 2))
        await a.sync("Ana", home_a)
        await b.sync("Ana", home_b)  # B never had A's save: it is not B's to remove
        await a.arrive("Ana", home_a)
        at(home_a)
        found, _ = saves.load_all()
        assert sorted(f.match.game for f in found) == ["barras", "gemelos"]
    finally:
        for r in (a, b):
            await r.close()


@sync
async def test_a_shared_match_reaches_an_absent_players_history_once(redis_server, tmp_path, at):
    (a,) = await hosts(redis_server.url, 1)
    home = tmp_path / "b" / "Bea"
    try:
        match = played("gemelos", (person("Ana"), person("Bea")), 9)
        finished = "2026-12-07T15:00:00.000000+00:00"
        for _ in range(3):  # every host that saw the end says so
            await a.record(["Ana", "Bea"], finished, match.to_json())
        assert int(redis_server.command("HLEN", key("Bea", "history"))[1:]) == 1
        await a.arrive("Bea", home)
        at(home)
        assert pending.drain().added == 1
        assert history(home) == [(finished, "gemelos")]
        await a.sync("Bea", home)  # the history's row is the very entry: not pushed again
        assert int(redis_server.command("HLEN", key("Bea", "history"))[1:]) == 1
        await a.arrive("Bea", home)
        assert not list((home / "pending").glob("*.json"))  # held already: nothing brought again
    finally:
        await a.close()


@sync
async def test_the_newest_matches_are_kept_and_the_oldest_let_go(redis_server, monkeypatch):
    monkeypatch.setattr(roaming, "MAX_HISTORY", 3)
    (a,) = await hosts(redis_server.url, 1)
    try:
        match = finished_match(4)
        for day in range(1, 6):
            await a.record(["Ana"], f"2026-12-0{day}T10:00:00+00:00", match.to_json())
        held = await a.store.redis.hgetall(key("Ana", "history"))
        assert sorted(json.loads(v)["finished"][:10] for v in held.values()) == [
            "2026-12-03", "2026-12-04", "2026-12-05"
        ]  # fmt: skip
    finally:
        await a.close()


@sync
async def test_what_garito_never_writes_is_refused_and_nothing_lands_outside_the_home(
    redis_server, tmp_path, caplog, at
):
    caplog.set_level(logging.INFO)
    (a,) = await hosts(redis_server.url, 1)
    root = tmp_path / "host"
    home = root / "homes" / "Eve"
    sums, files, hist = key("Eve", "sums"), key("Eve", "files"), key("Eve", "history")
    for name in (
        "../evil.json",
        "saves/../../evil.json",
        "/tmp/evil.json",
        "saves/.hidden.json",
        "history.sqlite3",
    ):
        redis_server.command("HSET", sums, name, "0" * 32)
        redis_server.command("HSET", files, name, "{}")
    redis_server.command("HSET", sums, "settings.json", "f" * 32)  # not the text's checksum
    redis_server.command("HSET", files, "settings.json", '{"language": "es"}')
    redis_server.command("HSET", sums, "bests.json", "1" * 32)  # its text missing
    redis_server.command("HSET", hist, "0" * 32, '{"finished": "x", "record": "{}"}')  # not its fingerprint
    redis_server.command("HSET", hist, "1" * 32, "not json")
    record = json.dumps({"schema": 1, "game": "gemelos"})  # its fingerprint, but no match
    redis_server.command(
        "HSET", hist, fingerprint("2026", record), json.dumps({"finished": "2026", "record": record})
    )
    redis_server.command("HSET", hist, "../../x", "{}")
    try:
        await a.arrive("Eve", home)
        assert sorted(
            p.relative_to(root).as_posix() for p in tmp_path.rglob("*") if p.is_file() and root in p.parents
        ) == [
            "homes/Eve/.roaming.json",
            f"homes/Eve/pending/roamed-{fingerprint('2026', record)}.json",
        ]  # nothing outside the home, no file whose text is not its checksum's
        assert "no home holds" in caplog.text and "checksum" in caplog.text and "damaged" in caplog.text
        at(home)
        drained = pending.drain()  # the record that is no match: set aside by the history's own checks
        assert drained.added == 0 and len(drained.set_aside) == 1
        # A key of another type: the arrival is refused in a line, the home played as it is.
        redis_server.command("DEL", sums)
        redis_server.command("SET", sums, "a string")
        await a.arrive("Eve", home)
        assert "damaged" in caplog.text
    finally:
        await a.close()


@sync
async def test_redis_down_at_an_arrival_plays_the_home_this_host_has(redis_server, tmp_path, at, caplog):
    (a,) = await hosts(redis_server.url, 1)
    home = tmp_path / "Ana"
    try:
        at(home)
        saves.save(gemelos_match(seed=3))
        redis_server.stop()
        started = time.monotonic()
        await a.arrive("Ana", home)
        assert time.monotonic() - started < roaming.ARRIVE + 1
        assert "this host's copy is played" in caplog.text
        assert (home / "saves" / "gemelos.json").is_file()
        a.leave("Ana", home)  # its changes wait on this host's disk
        await asyncio.sleep(0)
    finally:
        await a.close()
