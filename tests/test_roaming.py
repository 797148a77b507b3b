"""A player's home following them round a cluster (server/roaming.py), on a
real Redis: saves, settings and history brought from one host's home to
another's, a save removed on one removed on the other, a file changed on
both kept aside, a change not yet brought over never overwritten, a shared
match's end reaching an absent player's history once, values Garito never
writes refused, Redis down at an arrival."""

from __future__ import annotations

import asyncio
import contextlib
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


@contextlib.asynccontextmanager
async def roamers(url: str, n: int = 2):
    """``n`` hosts' roaming, closed at the end whatever happened."""
    made = [Roaming(RedisStore(url)) for _ in range(n)]
    try:
        yield made
    finally:
        for r in made:
            await r.close()


def finished_match(seed: int) -> Match:
    return played("gemelos", (person("Ana"), computer("hard")), seed)


@sync
async def test_saves_settings_and_history_follow_a_player_to_another_host(redis_server, tmp_path, at):
    home_a, home_b = tmp_path / "a" / "Ana", tmp_path / "b" / "Ana"
    async with roamers(redis_server.url) as (a, b):
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


@sync
async def test_a_save_removed_on_one_host_is_removed_on_the_other_and_a_change_on_both_is_kept(
    redis_server, tmp_path, at
):
    home_a, home_b = tmp_path / "a" / "Ana", tmp_path / "b" / "Ana"
    async with roamers(redis_server.url) as (a, b):
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
        # A changes it too, never having seen B's: A's look does not
        # overwrite B's, and at A's next arrival B's is played and A's kept beside.
        at(home_a)
        settings.update(language="en")
        await a.sync("Ana", home_a)
        await a.arrive("Ana", home_a)
        assert settings.load()["language"] == "gl"
        (aside,) = home_a.glob("settings.json.here-*")
        assert json.loads(aside.read_text())["language"] == "en"


def started(game: str, seed: int) -> Match:
    rules = catalog.rules(game)
    return Match.start(game, offered_config(rules, 2, {}), seed, (person("Ana"), computer(rules.levels[-1])))


@sync
async def test_two_sessions_on_two_hosts_keep_each_others_saves(redis_server, tmp_path, at):
    home_a, home_b = tmp_path / "a" / "Ana", tmp_path / "b" / "Ana"
    async with roamers(redis_server.url) as (a, b):
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


@sync
async def test_a_shared_match_reaches_an_absent_players_history_once(redis_server, tmp_path, at):
    home = tmp_path / "b" / "Bea"
    async with roamers(redis_server.url, 1) as (a,):
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


@sync
async def test_the_newest_matches_are_kept_and_the_oldest_let_go(redis_server, monkeypatch):
    monkeypatch.setattr(roaming, "MAX_HISTORY", 3)
    async with roamers(redis_server.url, 1) as (a,):
        match = finished_match(4)
        for day in range(1, 6):
            await a.record(["Ana"], f"2026-12-0{day}T10:00:00+00:00", match.to_json())
        held = await a.store.redis.hgetall(key("Ana", "history"))
        assert sorted(json.loads(v)["finished"][:10] for v in held.values()) == [
            "2026-12-03", "2026-12-04", "2026-12-05"
        ]  # fmt: skip


@sync
async def test_what_garito_never_writes_is_refused_and_nothing_lands_outside_the_home(
    redis_server, tmp_path, caplog, at
):
    caplog.set_level(logging.INFO)
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
    async with roamers(redis_server.url, 1) as (a,):
        await a.arrive("Eve", home)
        assert sorted(
            p.relative_to(root).as_posix() for p in tmp_path.rglob("*") if p.is_file() and root in p.parents
        ) == ["homes/Eve/.roaming.json"]  # nothing outside the home, nothing whose text is not its checksum's
        assert "no home holds" in caplog.text and "checksum" in caplog.text and "damaged" in caplog.text
        # What was let go is gone from Redis too: not brought again at every arrival.
        assert redis_server.command("HLEN", sums) == b":0\r\n"
        assert redis_server.command("HKEYS", hist) == b"*1\r\n$7\r\n../../x\r\n"  # no fingerprint: never read
        # A key of another type: renamed aside in a line, the home played as it is, the next arrival clean.
        redis_server.command("SET", sums, "a string")
        await a.arrive("Eve", home)
        assert redis_server.command("TYPE", f"{sums}:damaged") == b"+string\r\n"
        redis_server.command("HSET", sums, b"\xff", "0" * 32)  # bytes that are not text
        await a.arrive("Eve", home)
        assert redis_server.command("EXISTS", sums) == b":0\r\n"
        await a.arrive("Eve", home)


@sync
async def test_a_lost_copy_removes_nothing_and_a_big_or_crowded_one_is_never_read_whole(
    redis_server, tmp_path, at, monkeypatch
):
    home = tmp_path / "Ana"
    async with roamers(redis_server.url, 1) as (a,):
        at(home)
        settings.update(language="gl")
        saves.save(started("gemelos", 4))
        await a.sync("Ana", home)
        redis_server.command("DEL", key("Ana", "sums"), key("Ana", "files"))  # a Redis that lost its data
        await a.arrive("Ana", home)
        assert (home / "saves" / "gemelos.json").is_file() and settings.load()["language"] == "gl"
        await a.sync("Ana", home)  # and they go there again
        assert int(redis_server.command("HLEN", key("Ana", "sums"))[1:]) == 2
        # A value far past a file's size: its length asked, never its text.
        monkeypatch.setattr(roaming, "MAX_FILE", 1000)
        redis_server.command("HSET", key("Ana", "sums"), "bests.json", "2" * 32)
        redis_server.command("HSET", key("Ana", "files"), "bests.json", "x" * 5000)
        read: list[object] = []
        real = a.redis.hmget

        async def counted(name, fields, *args):
            read.append(list(fields))
            return await real(name, fields, *args)

        monkeypatch.setattr(a.redis, "hmget", counted)
        await a.arrive("Ana", home)
        assert ["bests.json"] not in read and not (home / "bests.json").exists()
        assert redis_server.command("HEXISTS", key("Ana", "files"), "bests.json") == b":0\r\n"
        # A history of more matches than Garito keeps: renamed aside unread.
        for i in range(0, 2 * roaming.MAX_HISTORY + 1, 500):
            fields = [x for j in range(i, i + 500) for x in (f"{j:032x}", "{}")]
            redis_server.command("HSET", key("Ana", "history"), *fields)
        await a.arrive("Ana", home)
        assert redis_server.command("EXISTS", key("Ana", "history")) == b":0\r\n"
        assert not list((home / "pending").glob("*.json")) if (home / "pending").exists() else True


@sync
async def test_a_home_that_cannot_take_the_copy_still_lets_its_player_in(redis_server, tmp_path, at):
    home_a, home_b = tmp_path / "a" / "Ana", tmp_path / "b" / "Ana"
    outside = tmp_path / "outside"
    outside.mkdir()
    async with roamers(redis_server.url) as (a, b):
        at(home_a)
        saves.save(started("gemelos", 5))
        saves.save(started("barras", 6))
        await a.sync("Ana", home_a)
        (home_b / "saves").mkdir(parents=True)
        (home_b / "saves" / "gemelos.json").mkdir()  # a folder where the file goes
        await b.arrive("Ana", home_b)  # said in the log, not raised
        # A folder of the home that is a link: nothing written through it.
        home_c = tmp_path / "c" / "Ana"
        home_c.mkdir(parents=True)
        (home_c / "saves").symlink_to(outside)
        await b.arrive("Ana", home_c)
        assert not list(outside.iterdir())


@sync
async def test_a_file_this_home_never_synced_is_kept_beside_the_one_played(redis_server, tmp_path, at):
    home_a, home_b = tmp_path / "a" / "Ana", tmp_path / "b" / "Ana"
    async with roamers(redis_server.url) as (a, b):
        at(home_a)
        settings.update(language="gl")
        await a.sync("Ana", home_a)
        at(home_b)
        settings.update(language="es")  # before this host ever synced
        await b.arrive("Ana", home_b)
        assert settings.load()["language"] == "gl"
        (aside,) = home_b.glob("settings.json.here-*")
        assert json.loads(aside.read_text())["language"] == "es"


@sync
async def test_redis_down_at_an_arrival_plays_the_home_this_host_has(redis_server, tmp_path, at, caplog):
    home = tmp_path / "Ana"
    async with roamers(redis_server.url, 1) as (a,):
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
