"""Shared tables over the local socket: players, spectators, reconnection,
computer take-over, and connections that break the protocol."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

import pytest

from garito.server import tables
from garito.server.tables import TableServer

from .helpers import sync

TIMEOUT = 20


@pytest.fixture(autouse=True)
def no_pace(monkeypatch):
    monkeypatch.setattr(tables, "PACE", 0.0)  # computers move at once here


class Conn:
    def __init__(self, reader, writer) -> None:
        self.reader, self.writer = reader, writer
        self.last: dict | None = None

    @classmethod
    async def open(cls, path: str, name: str | None = None) -> Conn:
        reader, writer = await asyncio.open_unix_connection(path)
        conn = cls(reader, writer)
        if name:
            await conn.send(op="hello", name=name)
            assert (await conn.recv())["op"] == "welcome"
        return conn

    async def send(self, **message) -> None:
        self.writer.write((json.dumps(message) + "\n").encode())
        await self.writer.drain()

    async def recv(self) -> dict:
        line = await asyncio.wait_for(self.reader.readline(), TIMEOUT)
        if not line:
            raise EOFError
        message = json.loads(line)
        if message["op"] == "state":
            self.last = message
        return message

    async def until(self, test) -> dict:
        while True:
            m = await self.recv()
            if test(m):
                return m

    async def close(self) -> None:
        self.writer.close()


async def served():
    folder = tempfile.mkdtemp()
    path = str(Path(folder) / "tables.sock")
    server = TableServer(chosen_seeds=True)
    await server.start(path)
    return server, path


async def two_at_a_table(path: str, game: str, seed: int) -> tuple[Conn, Conn]:
    """Ana creates a table of two human seats, Bea takes the other."""
    ana = await Conn.open(path, "Ana")
    await ana.send(op="create", game=game, seats=["human", "human"], seed=seed)
    await ana.until(lambda m: m["op"] == "state")
    bea = await Conn.open(path, "Bea")
    await bea.send(op="join", table=1)
    return ana, bea


async def play_my_turns(conn: Conn, table: int, stop_after: int | None = None) -> dict:
    """Play the first legal move whenever it is this seat's turn, until the
    match is over (or ``stop_after`` moves of the table), starting from the
    last state this connection received."""
    m = conn.last
    while True:
        if m is None:
            m = await conn.until(lambda m: m["op"] == "state")
        if m["over"] or (stop_after is not None and m["moves"] >= stop_after):
            return m
        if m["legal"]:
            await conn.send(op="act", table=table, action=m["legal"][0])
        m = None


@sync
async def test_two_players_and_a_spectator_play_gemelos_to_the_end():
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=7)
        first = await ana.until(lambda m: m["op"] == "state")
        assert first["seat"] == 0 and first["view"]["seat"] == 0
        bea = await Conn.open(path, "Bea")
        await bea.send(op="list")
        listing = await bea.until(lambda m: m["op"] == "tables")
        assert listing["tables"][0]["free"] == 1 and listing["tables"][0]["title"] == "Gemelos"
        await bea.send(op="join", table=1)
        eve = await Conn.open(path, "Eve")
        await eve.send(op="watch", table=1)
        a, b = await asyncio.gather(play_my_turns(ana, 1), play_my_turns(bea, 1))
        assert a["over"] and b["over"] and a["log"] == b["log"] and a["summary"] == b["summary"]
        assert b["seat"] == 1 and "Bea" in b["summary"] and "Ana" in b["summary"]
        seen = await eve.until(lambda m: m["op"] == "state" and m["over"])
        assert seen["log"] == a["log"] and "view" not in seen and "legal" not in seen  # no seat's
        assert seen["seed"] == 7 and a["seed"] == 7  # told once the match is over, for the record
        assert a["actions"] == b["actions"] == seen["actions"] and len(a["actions"]) == a["moves"]
    finally:
        await server.close()


@sync
async def test_a_player_sees_only_their_own_dice():
    server, path = await served()
    try:
        ana, bea = await two_at_a_table(path, "decimus", 3)
        mine = await bea.until(lambda m: m["op"] == "state")
        theirs = await ana.until(lambda m: m["op"] == "state")
        state = server.tables[1].match.state
        assert mine["view"]["dice"] == list(state.hands[1]) and mine["view"]["rival_dice"] is None
        assert theirs["view"]["dice"] == list(state.hands[0])
        assert "hands" not in mine["view"] and "rng" not in mine["view"]  # the view, never the state
    finally:
        await server.close()


@sync
async def test_a_dropped_player_reconnects_to_their_seat():
    server, path = await served()
    try:
        ana, bea = await two_at_a_table(path, "gemelos", 5)
        await asyncio.gather(play_my_turns(ana, 1, stop_after=2), play_my_turns(bea, 1, stop_after=2))
        await bea.close()
        for _ in range(int(TIMEOUT / 0.02)):  # until the server has read her drop
            if server.tables[1].held:
                break
            await asyncio.sleep(0.02)
        assert server.tables[1].held == {1: "Bea"}
        listing = server.tables[1].summary()
        assert listing["seats"][1]["held"] and listing["free"] == 0
        intruder = await Conn.open(path, "Mallory")
        await intruder.send(op="join", table=1)
        refused = await intruder.until(lambda m: m["op"] == "error")
        assert "No free seat" in refused["rule"]
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        back = await bea.until(lambda m: m["op"] == "state")
        assert back["seat"] == 1 and back["moves"] >= 2 and not server.tables[1].held
        a, b = await asyncio.gather(play_my_turns(ana, 1), play_my_turns(bea, 1))
        assert a["over"] and b["over"]
    finally:
        await server.close()


@sync
async def test_a_seat_left_too_long_is_taken_by_a_computer(monkeypatch):
    monkeypatch.setattr(tables, "HOLD", 0.2)
    server, path = await served()
    try:
        ana, bea = await two_at_a_table(path, "gemelos", 5)
        await bea.until(lambda m: m["op"] == "state")
        await bea.close()
        end = await play_my_turns(ana, 1)  # the computer plays Bea's turns
        assert end["over"] and not server.tables[1].match.seats[1].is_human
        assert server.tables[1].match.seats[1].name == "Bea (computer)"
    finally:
        await server.close()


@sync
async def test_rules_and_turns_are_enforced_by_the_server():
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="redman", seats=["human", "computer"], seed=2)
        m = await ana.until(lambda m: m["op"] == "state")
        assert m["legal"]
        await ana.send(op="act", table=1, action="stake 999")
        err = await ana.until(lambda m: m["op"] == "error")
        assert err["rule"]  # the rule, in words
        await ana.send(op="act", table=9, action="roll")
        assert "No table 9" in (await ana.until(lambda m: m["op"] == "error"))["rule"]
        await ana.send(op="create", game="chess", seats=["human"])
        assert "unknown game" in (await ana.until(lambda m: m["op"] == "error"))["rule"]
        await ana.send(op="create", game="gemelos", seats=["computer", "computer"])
        assert "human seat" in (await ana.until(lambda m: m["op"] == "error"))["rule"]
    finally:
        await server.close()


@pytest.mark.parametrize(
    "lines,reason",
    [
        ([b"this is not json\n"], "not a JSON line"),
        ([b'{"op": "list"}\n'], "say hello first"),
        ([b'{"op": "hello", "name": "X"}\n', b'{"op": "dance"}\n'], "unknown op"),
        ([b'{"op": "hello", "name": "X"}\n', b"[1, 2]\n"], "JSON object"),
        ([b'{"op": "hello", "name": "X"}\n', b"x" * 10_000 + b"\n"], "longer than"),
        ([b'{"op": "hello", "name": "X"}\n'] + [b'{"op": "list"}\n'] * 200, "messages a second"),
    ],
)
@sync
async def test_a_client_breaking_the_protocol_is_cut_off_and_the_others_play_on(lines, reason):
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "computer"], seed=7)
        await ana.until(lambda m: m["op"] == "state")
        bad = await Conn.open(path)
        bad.writer.write(b"".join(lines))
        await bad.writer.drain()
        err = await bad.until(lambda m: m["op"] == "error")
        assert reason in err["rule"] and err["rule"].startswith("Disconnected")
        with pytest.raises(EOFError):
            while True:
                await bad.recv()
        end = await play_my_turns(ana, 1)
        assert end["over"]
    finally:
        await server.close()


@sync
async def test_a_players_state_holds_no_secret_of_the_other_seat():
    server, path = await served()
    try:
        ana, bea = await two_at_a_table(path, "decimus", 3)
        mine = await bea.until(lambda m: m["op"] == "state")
        state = server.tables[1].match.state
        assert mine["state"]["hands"] == [[0] * 5, list(state.hands[1])]
        assert mine["state"]["rng"] == [] and mine["state"]["seed"] == 0 and mine["seed"] is None
        eve = await Conn.open(path, "Eve")
        await eve.send(op="watch", table=1)
        refused = await eve.until(lambda m: m["op"] == "error")
        assert refused["rule"] == "Decimus hides every player's hand: it has no spectators."
    finally:
        await server.close()


@sync
async def test_the_lobby_is_told_of_tables_opening_filling_and_closing():
    server, path = await served()
    try:
        lobby = await Conn.open(path, "Lía")
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=4)
        opened = await lobby.until(lambda m: m["op"] in ("table", "tables"))
        assert opened["op"] == "table" and opened["table"]["free"] == 1  # the one table, not a listing
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        full = await lobby.until(lambda m: m["op"] == "table" and m["table"]["free"] == 0)
        assert [s["name"] for s in full["table"]["seats"]] == ["Ana", "Bea"]
        await bea.send(op="leave", table=1)  # up from the seat: held for her, as if dropped
        held = await lobby.until(lambda m: m["op"] == "table" and m["table"]["seats"][1]["held"])
        assert held["table"]["free"] == 0 and server.tables[1].held == {1: "Bea"}
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        await ana.until(lambda m: m["op"] == "state" and m["moves"] == 0)
        a, b = await asyncio.gather(play_my_turns(ana, 1), play_my_turns(bea, 1))
        assert a["over"] and 1 in server.tables
        await ana.send(op="leave", table=1)
        await bea.send(op="leave", table=1)
        closed = await lobby.until(lambda m: m["op"] == "closed")
        assert closed["table"] == 1 and not server.tables  # a finished table closes when left
        await lobby.send(op="list")
        assert (await lobby.until(lambda m: m["op"] == "tables"))["tables"] == []
    finally:
        await server.close()
