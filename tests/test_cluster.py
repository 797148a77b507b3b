"""Several hosts' table servers on one real Redis: one lobby, a table played
from two hosts, talk across them, a host SIGKILLed mid-match and its table
carried on elsewhere with the same record, appends racing, Redis stopped
and started again, values Garito never writes planted in it."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from garito.core import catalog
from garito.core.dice import COUNTER, commitment
from garito.core.match import Match, Seat
from garito.core.variants import offered_config
from garito.server import redis_store, tables
from garito.server.redis_store import RedisStore
from garito.server.tables import TableServer

from .helpers import sync
from .test_tables import Conn

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(tables, "PACE", 0.0)
    monkeypatch.setattr(tables, "PATROL", 0.2)
    monkeypatch.setattr(redis_store, "BEAT", 0.2)
    monkeypatch.setattr(redis_store, "ALIVE", 1.0)


async def host(url: str, **options) -> tuple[TableServer, str]:
    path = str(Path(tempfile.mkdtemp()) / "t.sock")
    server = TableServer(chosen_seeds=True, store=RedisStore(url), **options)
    await server.start(path)
    return server, path


async def across(pa: str, b: TableServer, pb: str, seed: int) -> tuple[Conn, Conn]:
    """Ana opens a two-seat Gemelos table through host A (``pa``); once host
    ``b`` has it, Bea takes the other seat through B."""
    ana = await Conn.open(pa, "Ana")
    await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=seed)
    await ana.until(lambda m: m["op"] == "state")
    await eventually(lambda: 1 in b.tables)
    bea = await Conn.open(pb, "Bea")
    await bea.send(op="join", table=1)
    await bea.until(lambda m: m["op"] == "state" and m["seat"] == 1)
    return ana, bea


async def eventually(test, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if test():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never came to pass")


async def turn(conn: Conn, seat: int) -> dict:
    """The state in which it is ``seat``'s move (the last one read, or the next)."""
    m = conn.last
    if m is None or m["to_act"] != seat or not m["legal"]:
        m = await conn.until(lambda s: s["op"] == "state" and s["to_act"] == seat and s["legal"])
    return m


async def over(conn: Conn) -> dict:
    """The connection's states read up to the match's end."""
    if conn.last is None or not conn.last["over"]:
        await conn.until(lambda m: m["op"] == "state" and m["over"])
    assert conn.last is not None
    return conn.last


async def play_out(players: dict[int, Conn], table: int) -> dict:
    """Every seat's moves, the first legal one each time, to the end: the
    last state (whoever's turn, from whichever host)."""
    last: dict = {}
    for _ in range(3000):  # bounded: a match that never ends fails the test
        for seat, conn in players.items():
            m = conn.last
            if m is not None and m["table"] == table and m["over"]:
                return m
            if m is not None and m["table"] == table and m["to_act"] == seat and m["legal"]:
                n = len(m["actions"])
                await conn.send(op="act", table=table, action=m["legal"][0])
                answer = await conn.until(
                    lambda s, n=n: s["op"] == "state" and len(s["actions"]) > n or s["op"] == "error"
                )
                last = answer if answer["op"] == "error" else conn.last or last
        await asyncio.sleep(0)
        for conn in players.values():
            while True:  # what has come in meanwhile, read
                try:
                    await asyncio.wait_for(conn.until(lambda s: s["op"] == "state"), 0.05)
                except TimeoutError:
                    break
    seen = {seat: conn.last and (conn.last["actions"], conn.last["to_act"]) for seat, conn in players.items()}
    raise AssertionError(f"the match never ended: {seen}, last answer {last}")


# ---------------------------------------------------------------- one lobby, one table from two hosts


@sync
async def test_two_hosts_share_the_lobby_and_a_table_created_on_one_is_played_from_both(redis_server):
    a, pa = await host(redis_server.url)
    b, pb = await host(redis_server.url)
    try:
        ana = await Conn.open(pa, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        await ana.until(lambda m: m["op"] == "state")
        bea = await Conn.open(pb, "Bea")  # B's lobby lists A's table, with its free seat
        await eventually(lambda: 1 in b.tables)
        await bea.send(op="list")
        listing = await bea.until(lambda m: m["op"] == "tables")
        (entry,) = listing["tables"]
        assert entry["table"] == 1 and entry["free"] == 1 and entry["seats"][0]["name"] == "Ana"
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state" and m["seat"] == 1)
        await ana.until(lambda m: m["op"] == "state" and m["seats"][1]["name"] == "Bea")
        # The same refusal, naming the rule, whichever host is asked.
        await bea.send(op="act", table=1, action="roll")
        assert (await bea.until(lambda m: m["op"] == "error"))["rule"] == "It is not your turn."
        end = await play_out({0: ana, 1: bea}, 1)
        await eventually(lambda: a.tables.get(1) is None or a.tables[1].over)
        # Both hosts replayed the same record: the same moves, the same end.
        for conn in (ana, bea):
            await over(conn)
        assert ana.last["actions"] == bea.last["actions"] == end["actions"]
        assert ana.last["summary"] == bea.last["summary"]
        seed = ana.last["seed"]
        assert seed == 3 and commitment(seed) == ana.last["commitment"]  # the seed shown only at the end
        replayed = Match.from_record(
            {"schema": 1, "game": "gemelos", "config": ana.last["config"], "seed": seed,
             "seats": ana.last["seats"], "actions": ana.last["actions"], "stream": ana.last["stream"],
             "commitment": ana.last["commitment"]}
        )  # fmt: skip
        assert replayed.over
    finally:
        await a.close()
        await b.close()


@sync
async def test_another_hosts_moves_are_replayed_from_their_word_with_no_read_of_the_record(
    redis_server, monkeypatch
):
    monkeypatch.setattr(tables, "PATROL", 60.0)  # only the word of each append, no look around
    a, pa = await host(redis_server.url)
    b, pb = await host(redis_server.url)
    try:
        ana, bea = await across(pa, b, pb, seed=5)
        reads: list[int] = []
        real = b.store.read

        async def counted(table: int, start: int = 0) -> list[str]:
            reads.append(start)
            return await real(table, start)

        monkeypatch.setattr(b.store, "read", counted)
        end = await play_out({0: ana, 1: bea}, 1)
        assert len(end["actions"]) > 6 and b.tables[1].length == a.tables[1].length
        assert reads == []  # every entry of A's came with its word
    finally:
        await a.close()
        await b.close()


@sync
async def test_a_tables_own_word_of_its_opening_coming_back_first_is_not_replayed_again(
    redis_server, monkeypatch
):
    """The word of a new table's opening reaches its own host before the
    append's answer does (two connections: either may come first): the
    table is not set aside for "a second opening"."""
    a, pa = await host(redis_server.url)
    real = a.store.append

    async def slow_answer(table: int, expected: int, entry: str) -> bool:
        done = await real(table, expected, entry)
        await asyncio.sleep(0.2)  # the word, meanwhile, heard and handled
        return done

    monkeypatch.setattr(a.store, "append", slow_answer)
    try:
        ana = await Conn.open(pa, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        m = await ana.until(lambda m: m["op"] in ("state", "error"))
        assert m["op"] == "state", m
        assert not a.damaged and 1 in a.tables
    finally:
        await a.close()


@sync
async def test_talk_and_the_seed_secrecy_cross_hosts(redis_server):
    a, pa = await host(redis_server.url)
    b, pb = await host(redis_server.url)
    try:
        ana = await Conn.open(pa, "Ana")
        bea = await Conn.open(pb, "Bea")
        await ana.send(op="say", text="[b]hola[/b] Bea")
        heard = await bea.until(lambda m: m["op"] == "said")
        assert heard["name"] == "Ana" and heard["text"] == "[b]hola[/b] Bea" and heard["table"] is None
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        state = await ana.until(lambda m: m["op"] == "state")
        assert state["seed"] is None  # secret until the end, on every host
        await eventually(lambda: 1 in b.tables)
        await bea.send(op="join", table=1)
        joined = await bea.until(lambda m: m["op"] == "state")
        assert joined["seed"] is None and joined["state"].get("seed") in (None, 0)  # masked: never the seed
        await bea.send(op="say", table=1, text="suerte")
        line = await ana.until(lambda m: m["op"] == "said")
        assert line["table"] == 1 and line["name"] == "Bea" and not line["spectator"]
        # Talk's allowance is counted across hosts: five lines, then refused anywhere.
        for _ in range(4):
            await bea.send(op="say", text="x")
        for _ in range(4):  # each heard through A: spent on B
            await ana.until(lambda m: m["op"] == "said" and m["text"] == "x")
        conn = await Conn.open(pa, "Bea")  # Bea again, through the other host
        answers = []
        for _ in range(4):  # one comes back every 2 s: a slow machine may have earned one meanwhile
            await conn.send(op="say", text="one more")
            answer = await conn.until(
                lambda m: m["op"] == "error" or m["op"] == "said" and m["text"] == "one more"
            )
            answers.append(answer.get("rule", "said"))
            if answer["op"] == "error":
                break
        assert "too fast" in answers[-1] and len(answers) <= 3
    finally:
        await a.close()
        await b.close()


@sync
async def test_wrong_codes_are_counted_across_hosts(redis_server):
    a, pa = await host(redis_server.url)
    b, pb = await host(redis_server.url)
    try:
        for n in range(4):
            eve = await Conn.open(pa if n % 2 else pb, "eve")
            await eve.send(op="code", code="AAAAA")
            assert (await eve.until(lambda m: m["op"] == "error"))["rule"] == "No table has the code 'AAAAA'."
        eve = await Conn.open(pb, "eve")
        await eve.send(op="code", code="AAAAA")
        assert (await eve.until(lambda m: m["op"] == "error"))["rule"] == "Disconnected: 5 wrong table codes."
        eve = await Conn.open(pa, "eve")  # the other host: no new allowance
        await eve.send(op="code", code="AAAAA")
        text = (await eve.until(lambda m: m["op"] == "error"))["rule"]
        assert text == "Disconnected: 5 wrong table codes: try again in a minute."
    finally:
        await a.close()
        await b.close()


@sync
async def test_a_private_code_made_on_one_host_opens_the_table_on_another(redis_server):
    a, pa = await host(redis_server.url)
    b, pb = await host(redis_server.url)
    try:
        ana = await Conn.open(pa, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3, private=True)
        code = (await ana.until(lambda m: m["op"] == "state"))["code"]
        bea = await Conn.open(pb, "Bea")
        await eventually(lambda: 1 in b.tables)
        await bea.send(op="list")
        assert (await bea.until(lambda m: m["op"] == "tables"))["tables"] == []  # not listed
        await bea.send(op="code", code=code)
        assert (await bea.until(lambda m: m["op"] == "state"))["seat"] == 1
    finally:
        await a.close()
        await b.close()


# ---------------------------------------------------------------- a host dies


def _spawn_host(url: str, path: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.cluster_host", url, path],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


@sync
async def test_a_host_sigkilled_mid_match_loses_no_move_and_its_table_goes_on_through_another(redis_server):
    path = str(Path(tempfile.mkdtemp()) / "a.sock")
    killed = _spawn_host(redis_server.url, path)
    b, pb = await host(redis_server.url)
    try:
        ana = await Conn.open(path, "Ana")
        bot = {"kind": "computer", "level": "hard", "name": "Ramón"}
        await ana.send(op="create", game="redman", seats=["human", bot], seed=4)
        await ana.until(lambda m: m["op"] == "state")
        for _ in range(3):  # a few moves accepted on A (the computer's replies too)
            m = await turn(ana, 0)
            await ana.send(op="act", table=1, action=m["legal"][0])
            n = len(m["actions"])
            await ana.until(lambda m, n=n: m["op"] == "state" and len(m["actions"]) > n)
        m = await turn(ana, 0)
        before = m["actions"]
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(5)
        # Ana comes back through B: her table, at the same move.
        again = await Conn.open(pb, "Ana")
        await eventually(lambda: 1 in b.tables and len(b.tables[1].match.actions) == len(before))
        loop = asyncio.get_running_loop()
        started = loop.time()
        await again.send(op="join", table=1)
        state = await again.until(lambda m: m["op"] == "state" and m["seat"] == 0)
        assert state["actions"] == before and state["to_act"] == 0
        await again.send(op="act", table=1, action=state["legal"][0])
        moved = await again.until(lambda m: m["op"] == "state" and len(m["actions"]) > len(before))
        assert loop.time() - started < 2.0  # accepting moves again, through B
        assert moved["actions"][: len(before)] == before
        end = await play_out({0: again}, 1)
        # The record is the one a match never interrupted would have: the
        # same seed and the same moves replay to the same end.
        record = {"schema": 1, "game": "redman", "config": end["config"], "seed": end["seed"],
                  "seats": end["seats"], "actions": end["actions"], "stream": end["stream"],
                  "commitment": end["commitment"]}  # fmt: skip
        replayed = Match.from_record(record)
        assert replayed.over and replayed.rules.summary(replayed.state, replayed.names) == end["summary"]
        assert len(set(map(str, end["actions"]))) >= 1 and end["actions"][: len(before)] == before
    finally:
        if killed.poll() is None:
            killed.kill()
        await b.close()


@sync
async def test_a_host_gone_leaves_its_players_seats_held_for_them(redis_server, monkeypatch):
    monkeypatch.setattr(tables, "HOLD", 60.0)
    path = str(Path(tempfile.mkdtemp()) / "a.sock")
    killed = _spawn_host(redis_server.url, path)
    b, pb = await host(redis_server.url)
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        await ana.until(lambda m: m["op"] == "state")
        bea = await Conn.open(pb, "Bea")
        await eventually(lambda: 1 in b.tables)
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(5)
        held = await bea.until(lambda m: m["op"] == "state" and m["away"] == [0])
        assert held["seats"][0]["name"] == "Ana"
    finally:
        if killed.poll() is None:
            killed.kill()
        await b.close()


# ---------------------------------------------------------------- races


@sync
async def test_appends_racing_from_many_hosts_end_with_exactly_one_each_time(redis_server):
    stores = [RedisStore(redis_server.url) for _ in range(4)]
    for s in stores:
        await s.open(lambda channel, payload: None)
    try:
        for length in range(40):
            won = await asyncio.gather(*(s.append(77, length, f"{length}:{i}") for i, s in enumerate(stores)))
            assert won.count(True) == 1, won
        record = await stores[0].read(77)
        assert [int(e.split(":")[0]) for e in record] == list(range(40))  # none lost, none doubled
        assert await stores[1].append(77, 39, "late") is False  # a length seen before
    finally:
        for s in stores:
            await s.close()


@sync
async def test_a_host_just_opened_hears_a_line_published_at_once(redis_server):
    """Open returns once Redis has taken the subscription: a line said on a
    host that has just started reaches that host's own players."""
    for attempt in range(20):
        heard: list[str] = []
        store = RedisStore(redis_server.url)
        await store.open(lambda channel, payload, heard=heard: channel == "talk" and heard.append(payload))
        try:
            await store.publish("talk", f"line {attempt}")
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.01)
            assert heard == [f"line {attempt}"], attempt
        finally:
            await store.close()


@sync
async def test_two_hosts_moving_one_tables_computers_apply_each_move_once(redis_server):
    a, pa = await host(redis_server.url)
    b, pb = await host(redis_server.url)
    try:
        ana = await Conn.open(pa, "Ana")
        bots = [{"kind": "computer", "level": "hard", "name": n} for n in ("Ramón", "Carmela")]
        await ana.send(op="create", game="gemelos", seats=["human", *bots], seed=5)
        await ana.until(lambda m: m["op"] == "state")
        await eventually(lambda: 1 in b.tables)
        watcher = await Conn.open(pb, "Xoán")  # B has people at the table too: both move its computers
        await watcher.send(op="watch", table=1)
        await watcher.until(lambda m: m["op"] == "state")
        end = await play_out({0: ana}, 1)
        await over(watcher)
        assert watcher.last["actions"] == end["actions"]
        record = await a.store.read(1)
        moves = [json.loads(e) for e in record if json.loads(e)["t"] in ("act", "bot")]
        assert [m["a"] for m in moves] == end["actions"]  # each move once, in order
    finally:
        await a.close()
        await b.close()


# ---------------------------------------------------------------- Redis trouble


@sync
async def test_redis_stopped_mid_match_refuses_in_one_line_and_nothing_is_lost_when_it_is_back(redis_server):
    a, pa = await host(redis_server.url)
    try:
        ana = await Conn.open(pa, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        await ana.until(lambda m: m["op"] == "state")
        bea = await Conn.open(pa, "Bea")
        await bea.send(op="join", table=1)
        m = await ana.until(lambda m: m["op"] == "state" and m["seats"][1]["name"] == "Bea")
        await ana.send(op="act", table=1, action=m["legal"][0])
        m = await ana.until(lambda m: m["op"] == "state" and len(m["actions"]) == 1)
        redis_server.stop()
        await bea.send(op="list")  # the lobby answers from what the host has
        await bea.until(lambda m: m["op"] == "tables")
        mover = ana if m["to_act"] == 0 else bea
        await mover.send(op="act", table=1, action=m["legal"][0] if mover is ana else "roll")
        error = await mover.until(lambda m: m["op"] == "error")
        assert error["rule"] in ("The shared tables are unavailable: retrying.", "It is not your turn.")
        redis_server.start()  # its AOF holds every move it acknowledged
        await eventually(lambda: not a.store.down, 15)
        assert len(await a.store.read(1)) == 4  # opening, two seats, one move: nothing lost
        state = ana.last
        assert state is not None
        to_act = ana if state["to_act"] == 0 else bea
        await asyncio.sleep(0.3)
        await to_act.send(op="act", table=1, action=(to_act.last or state)["legal"][0])
        moved = await ana.until(lambda m: m["op"] == "state" and len(m["actions"]) == 2)
        assert moved["actions"][0] == state["actions"][0]
    finally:
        await a.close()


@sync
async def test_values_garito_never_writes_are_set_aside_and_the_rest_plays_on(redis_server, caplog):
    redis_server.command("RPUSH", "garito:{t90}:log", "not json")
    redis_server.command("SADD", "garito:tables", "90")
    redis_server.command("SET", "garito:{t91}:log", "a string, not a list")
    redis_server.command("SADD", "garito:tables", "91")
    redis_server.command("SADD", "garito:tables", "drop table")
    forged = {"t": "new", "match": {"schema": 1, "game": "gemelos", "config": {"players": 2}, "seed": 1,
              "seats": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}], "actions": [],
              "stream": "counter", "commitment": "x"}, "code": None}  # fmt: skip
    redis_server.command("RPUSH", "garito:{t92}:log", json.dumps(forged))
    redis_server.command("RPUSH", "garito:{t92}:log", json.dumps({"t": "act", "seat": 5, "a": "roll"}))
    redis_server.command("SADD", "garito:tables", "92")
    a, pa = await host(redis_server.url)
    try:
        redis_server.command("PUBLISH", "garito:appends", "nonsense")
        redis_server.command("PUBLISH", "garito:talk", "{not json")
        ana = await Conn.open(pa, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        state = await ana.until(lambda m: m["op"] == "state")
        assert state["table"] not in (90, 91, 92)
        await ana.send(op="list")
        listing = await ana.until(lambda m: m["op"] == "tables")
        assert [t["table"] for t in listing["tables"]] == [state["table"]]
        assert {90, 92} <= a.damaged and 91 not in a.tables
        await ana.send(op="say", text="still here")
        assert (await ana.until(lambda m: m["op"] == "said"))["text"] == "still here"
    finally:
        await a.close()


@sync
async def test_a_hold_without_end_a_flood_of_members_and_a_table_let_go_stop_no_host(redis_server, caplog):
    seats = (Seat("A", "human", "hard"), Seat("B", "human", "hard"))
    config = offered_config(catalog.rules("gemelos"), 2, {})
    match = Match.start("gemelos", config, 1, seats, stream=COUNTER, commitment=commitment(1))
    opening = {"t": "new", "match": match.to_record(), "code": None}
    redis_server.command("RPUSH", "garito:{t93}:log", json.dumps(opening))
    redis_server.command("RPUSH", "garito:{t93}:log", '{"t": "sit", "seat": 0, "name": "A", "host": "ab12"}')
    redis_server.command(
        "RPUSH", "garito:{t93}:log", '{"t": "away", "seat": 0, "name": "A", "until": Infinity}'
    )
    redis_server.command("SADD", "garito:tables", "93")
    for i in range(0, 1500, 100):
        redis_server.command("SADD", "garito:tables", *(f"planted {j}" for j in range(i, i + 100)))
    a, pa = await host(redis_server.url)
    try:
        await eventually(lambda: 93 in a.damaged)  # a seat held for ever: not a record Garito writes
        assert "hold's end" in caplog.text and "members" in caplog.text
        ana = await Conn.open(pa, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        state = await ana.until(lambda m: m["op"] == "state")
        await eventually(lambda: int(redis_server.command("SCARD", "garito:tables")[1:]) == 2)  # 93 and hers
        redis_server.command("SREM", "garito:tables", "93")  # let go by the store: forgotten here too
        await eventually(lambda: 93 not in a.damaged)
        await ana.send(op="list")
        listing = await ana.until(lambda m: m["op"] == "tables")
        assert [t["table"] for t in listing["tables"]] == [state["table"]]
        assert caplog.text.count("foreign members") <= 3  # a line a look, not a line a member
    finally:
        await a.close()


@sync
async def test_a_hold_running_out_on_two_hosts_at_once_ends_once(redis_server, monkeypatch):
    monkeypatch.setattr(tables, "HOLD", 0.5)
    a, pa = await host(redis_server.url)
    b, pb = await host(redis_server.url)
    try:
        ana = await Conn.open(pa, "Ana")
        bot = {"kind": "computer", "level": "hard", "name": "Ramón"}
        await ana.send(op="create", game="gemelos", seats=["human", "human", bot], seed=3)
        await ana.until(lambda m: m["op"] == "state")
        await eventually(lambda: 1 in b.tables)
        bea = await Conn.open(pb, "Bea")
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state" and m["seat"] == 1)
        await bea.close()  # held on both hosts, each with its timer
        await eventually(lambda: a.tables[1].held == {1: "Bea"} and b.tables[1].held == {1: "Bea"})
        await eventually(lambda: not a.tables[1].match.seats[1].is_human)
        await eventually(lambda: not b.tables[1].match.seats[1].is_human)
        assert a.tables[1].match.seats[1].name == b.tables[1].match.seats[1].name == "Bea (computer)"
        kinds = [json.loads(e)["t"] for e in await a.store.read(1)]
        assert kinds.count("expire") == 1 and kinds.count("away") == 1
        assert not a.damaged and not b.damaged
    finally:
        await a.close()
        await b.close()


@sync
async def test_a_computer_move_decided_before_another_hosts_is_never_written_after_it(redis_server):
    a, pa = await host(redis_server.url)
    b, pb = await host(redis_server.url)
    real = a._computer_moves

    async def slow_to_start(table, seat, *args):
        await asyncio.sleep(0.3)  # B's computer moves first, and its entry reaches A meanwhile
        await real(table, seat, *args)

    a._computer_moves = slow_to_start
    try:
        ana = await Conn.open(pa, "Ana")
        bots = [{"kind": "computer", "level": "hard", "name": n} for n in ("Ramón", "Carmela")]
        await ana.send(op="create", game="gemelos", seats=["human", *bots], seed=5)
        await ana.until(lambda m: m["op"] == "state")
        await eventually(lambda: 1 in b.tables)
        watcher = await Conn.open(pb, "Xoán")
        await watcher.send(op="watch", table=1)
        await watcher.until(lambda m: m["op"] == "state")
        m = await turn(ana, 0)
        await ana.send(op="act", table=1, action=m["legal"][0])
        await eventually(lambda: len(a.tables[1].match.actions) >= 3 and len(b.tables[1].match.actions) >= 3)
        await asyncio.sleep(0.6)  # A's late decisions come to nothing
        assert not a.damaged and not b.damaged
        assert a.tables[1].match.actions == b.tables[1].match.actions
        Match.from_record({**json.loads((await a.store.read(1))[0])["match"], "actions": [
            e["a"] for e in map(json.loads, await a.store.read(1)) if e["t"] in ("act", "bot")
        ]})  # fmt: skip
    finally:
        await a.close()
        await b.close()


@sync
async def test_bytes_that_are_not_utf8_and_a_foreign_counter_stop_no_host(redis_server):
    a, pa = await host(redis_server.url)
    try:
        redis_server.command("ZADD", "garito:hosts", "99999999999999", b"\xff\xfe")
        redis_server.command("SADD", "garito:tables", b"\xff")
        redis_server.command("RPUSH", "garito:{t93}:log", b"\xff\xfe")
        redis_server.command("SADD", "garito:tables", "93")
        redis_server.command("PUBLISH", "garito:talk", b"\xff\xfe")
        redis_server.command("SET", "garito:next", "99999999999")  # past what the tables' set takes
        ana = await Conn.open(pa, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        state = await ana.until(lambda m: m["op"] == "state")
        await asyncio.sleep(0.6)  # a few patrols: the table is not taken for gone
        assert state["table"] in a.tables and a.store.host in await a.store.alive()
        assert 93 in a.damaged and state["table"] < 10**11
        await ana.send(op="say", text="still here")
        assert (await ana.until(lambda m: m["op"] == "said"))["text"] == "still here"
    finally:
        await a.close()
