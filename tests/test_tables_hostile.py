"""The table server's local socket, spoken to as an attacker would: configs
no dialog makes, deep nesting, ids of every type, double drops and double
seats, abandoned tables, a lobby that stops reading, and the dice's seed
commitment. Bounded, on a local socket."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core import dice
from garito.core.fairness import verify
from garito.server import store, tables
from garito.server.tables import TableServer
from garito.tui.link import match_of

from .helpers import sync
from .test_tables import Conn, play_my_turns, served


@pytest.fixture(autouse=True)
def no_pace(monkeypatch):
    monkeypatch.setattr(tables, "PACE", 0.0)


async def as_served() -> tuple[TableServer, str]:
    """A table server as ``garito serve`` makes it (minus the tokens): the
    dice its own, drawn from ``secrets``."""
    server = TableServer()
    path = str(Path(tempfile.mkdtemp()) / "tables.sock")
    await server.start(path)
    return server, path


async def error(conn: Conn) -> str:
    return (await conn.until(lambda m: m["op"] == "error"))["rule"]


async def held(table, timeout: float = 20.0) -> None:
    """Until the server has read a seated player's drop (it holds the seat)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not table.held and loop.time() < end:
        await asyncio.sleep(0.02)


async def still_answers(conn: Conn) -> None:
    """The connection is still served: a listing comes back."""
    await conn.send(op="list")
    await conn.until(lambda m: m["op"] == "tables")


@pytest.mark.parametrize(
    "create,why",
    [
        (
            {"game": "decimus", "seats": ["human", "computer"], "config": {"target": 10**18}},
            "Match to is one of",
        ),
        (
            {"game": "decimus", "seats": ["human", "computer"], "config": {"target": True}},
            "Match to is one of",
        ),
        (
            {"game": "decimus", "seats": ["human", "computer"], "config": {"target": "20"}},
            "Match to is one of",
        ),
        (
            {"game": "decimus", "seats": ["human", "computer"], "config": {"rounds": 5}},
            "has no rule 'rounds'",
        ),
        ({"game": "decimus", "seats": ["human", "computer"], "config": [1]}, "a JSON object"),
        ({"game": "decimus", "seats": ["human"] * 3}, "for 2 players, not 3"),
        ({"game": "gemelos", "seats": ["human"] * 7}, "for 2 to 6 players, not 7"),
        ({"game": "gemelos", "seats": {"a": 1}}, "seats are a list"),
        ({"game": "gemelos", "seats": ["human", 7]}, "a seat is"),
        ({"game": "gemelos", "seats": ["human", "computer:genius"]}, "a computer plays"),
        ({"game": "gemelos", "seats": ["human", {"kind": "computer", "name": "x\x1b[2J"}]}, "no control"),
        ({"game": "gemelos", "seats": ["human", {"kind": "computer", "name": "a" * 40}]}, "at most 12"),
        ({"game": "gemelos", "seats": ["human", {"kind": "computer", "name": ["x"]}]}, "printable"),
        ({"game": ["gemelos"], "seats": ["human", "human"]}, "needs a game"),
        ({"game": "poker", "seats": ["human", "human"]}, "unknown game"),
        ({"game": "gemelos", "seats": ["human", "human"], "seed": 7}, "the server draws the dice"),
    ],
)
@sync
async def test_a_create_no_dialog_could_make_is_refused_in_one_line(create, why):
    server, path = await as_served()  # as garito serve has it: it takes no seed from a client
    try:
        mal = await Conn.open(path, "Mal")
        await mal.send(op="create", **create)
        assert why in await error(mal)
        assert not server.tables
        await still_answers(mal)
    finally:
        await server.close()


@pytest.mark.parametrize(
    "message",
    [
        {"op": "join", "table": [1]},
        {"op": "join", "table": {"a": 1}},
        {"op": "join", "table": "1"},
        {"op": "join", "table": True},
        {"op": "join", "table": None},
        {"op": "act", "table": 1, "action": {"roll": 1}},
        {"op": "act", "table": 1, "action": "x" * 5000},
        {"op": "watch", "table": 1.5},
        {"op": "hello", "name": "Again"},
        {"op": "create", "game": "gemelos", "seats": ["human", "human"], "config": {"wins_needed": [[[]]]}},
    ],
)
@sync
async def test_a_malformed_message_gets_one_error_line_and_the_connection_goes_on(message):
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=1)
        await ana.until(lambda m: m["op"] == "state")
        mal = await Conn.open(path, "Mal")
        await mal.send(**message)
        assert await error(mal)
        await still_answers(mal)
        await ana.send(op="list")  # and everyone else is served too
        await ana.until(lambda m: m["op"] == "tables")
    finally:
        await server.close()


@sync
async def test_deep_nesting_is_cut_off_with_its_reason():
    server, path = await served()
    try:
        for line in [b"[" * 8000 + b"\n", b'{"op": "create", "config": ' + b'{"a":' * 2000 + b"\n"]:
            mal = await Conn.open(path, "Mal")
            mal.writer.write(line)
            await mal.writer.drain()
            rule = await error(mal)
            assert rule.startswith("Disconnected") and ("not a JSON line" in rule or "longer than" in rule)
        ana = await Conn.open(path, "Ana")
        await still_answers(ana)
    finally:
        await server.close()


@sync
async def test_one_name_sits_in_one_seat_of_a_table():
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human", "human"], seed=1)
        await ana.until(lambda m: m["op"] == "state")
        await ana.send(op="join", table=1)  # the same connection, a second seat
        assert "already sit" in await error(ana)
        again = await Conn.open(path, "Ana")  # the same name on another connection
        await again.send(op="join", table=1)
        assert "already sit" in await error(again)
        assert [s.name for s in server.tables[1].match.seats] == ["Ana", "Seat 2", "Seat 3"]
    finally:
        await server.close()


@sync
async def test_a_second_drop_is_held_for_its_whole_time(monkeypatch):
    monkeypatch.setattr(tables, "HOLD", 3600.0)
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=5)
        await ana.until(lambda m: m["op"] == "state")
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        table = server.tables[1]
        await bea.close()
        await held(table)
        first = table.timers[1]
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        await asyncio.sleep(0)
        assert first.cancelled() and 1 not in table.timers  # called off when she came back
        await bea.close()
        await held(table)
        assert table.timers[1] is not first and table.held == {1: "Bea"}
        # Back again, and gone again with a short hold: that drop's own timer
        # hands the seat to a computer.
        second = table.timers[1]
        monkeypatch.setattr(tables, "HOLD", 0.1)
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        await asyncio.sleep(0)
        assert second.cancelled()
        await bea.close()
        await ana.until(lambda m: m["op"] == "state" and m["seats"][1]["kind"] == "computer")
        assert table.match.seats[1].name == "Bea (computer)"
    finally:
        await server.close()


@sync
async def test_an_abandoned_table_closes_and_its_record_is_kept(monkeypatch):
    monkeypatch.setattr(tables, "HOLD", 0.2)
    kept = []
    server, path = await served()
    server.keep = lambda match, names, why: kept.append((match, names, why))
    try:
        lobby = await Conn.open(path, "Lía")
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=9)
        await ana.until(lambda m: m["op"] == "state")
        await ana.close()  # and nobody ever comes
        closed = await lobby.until(lambda m: m["op"] == "closed")
        assert closed["table"] == 1 and not server.tables
        [(match, names, why)] = kept
        assert names == ("Ana",) and "abandoned" in why and match.commitment == dice.commitment(9)
    finally:
        await server.close()


@sync
async def test_one_player_cannot_fill_the_server_with_tables(monkeypatch):
    server, path = await served()
    try:
        mal = await Conn.open(path, "Mal")
        for _ in range(tables.PER_PLAYER):
            await mal.send(op="create", game="gemelos", seats=["human", "human"], seed=1)
            await mal.until(lambda m: m["op"] == "state")
        await mal.send(op="create", game="gemelos", seats=["human", "human"], seed=1)
        assert "leave one first" in await error(mal)
        monkeypatch.setattr(tables, "MAX_TABLES", tables.PER_PLAYER)
        eve = await Conn.open(path, "Eve")
        await eve.send(op="create", game="gemelos", seats=["human", "human"], seed=1)
        assert "as many tables as it can hold" in await error(eve)
    finally:
        await server.close()


@sync
async def test_a_lobby_is_told_each_change_once_not_the_whole_listing():
    server, path = await served()
    try:
        lobby = await Conn.open(path, "Lía")
        openers = [await Conn.open(path, f"P{n}") for n in range(10)]
        for conn in openers:
            await conn.send(op="create", game="gemelos", seats=["human", "human"], seed=1)
            await conn.until(lambda m: m["op"] == "state")
        got = []
        while len(got) < 10:
            m = await lobby.recv()
            assert m["op"] == "table"  # one table each time, never the listing again
            got.append(m["table"]["table"])
        assert got == list(range(1, 11))
    finally:
        await server.close()


@sync
async def test_a_spectator_that_stops_reading_is_let_go_and_the_others_play_on(monkeypatch):
    monkeypatch.setattr(tables, "BACKLOG", 64 << 10)
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        deaf = await Conn.open(path, "Deaf")  # says hello, watches, and never reads again
        deaf_client = next(c for c in server.clients if c.name == "Deaf")
        highest = 0
        for game in range(20):
            config = {"wins_needed": 7}
            await ana.send(op="create", game="gemelos", seats=["human", "computer"], config=config, seed=game)
            await ana.until(lambda m: m["op"] == "state")
            table = max(server.tables)
            await deaf.send(op="watch", table=table)
            while not deaf_client.gone and not ana.last["over"]:
                highest = max(highest, deaf_client.writer.transport.get_write_buffer_size())
                await play_my_turns(ana, table, stop_after=ana.last["moves"] + 1)
                await asyncio.sleep(0.05)  # within the rate limit
            await ana.send(op="leave", table=table)
            if deaf_client.gone:
                break
        assert deaf_client.gone and deaf_client not in server.clients  # let go...
        assert highest <= tables.BACKLOG  # ...before what it left unread passed the bound
        await still_answers(ana)  # and the others play on
    finally:
        await server.close()


@sync
async def test_a_table_commits_to_its_seed_and_shows_it_at_the_end():
    server, path = await as_served()
    try:
        lobby = await Conn.open(path, "Lía")
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"])
        first = await ana.until(lambda m: m["op"] == "state")
        listed = await lobby.until(lambda m: m["op"] == "table")
        promised = first["commitment"]
        assert listed["table"]["commitment"] == promised and len(promised) == 64
        assert first["seed"] is None and first["stream"] == dice.COUNTER  # no seed until the end
        seed = server.tables[1].match.seed
        assert seed.bit_length() > 64  # 128 random bits: none of the 32 a seat could try
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        end, _ = await asyncio.gather(play_my_turns(ana, 1), play_my_turns(bea, 1))
        assert end["seed"] == seed and dice.commitment(end["seed"]) == promised
        record = match_of(end).to_record()  # what Ana's app keeps in its history
        assert record["commitment"] == promised and verify(json.loads(json.dumps(record))).verified
    finally:
        await server.close()


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_the_server_takes_exactly_the_configs_the_dialog_can_make(data):
    from garito.core import catalog
    from garito.core.variants import offered_config

    info = data.draw(st.sampled_from(list(catalog.GAMES)))
    rules = catalog.rules(info.id)
    players = data.draw(st.integers(*info.players))
    values = {v.key: data.draw(st.sampled_from(v.choices)) for v in rules.variants}
    try:
        expected = rules.config_type(players=players, **values)
    except ValueError:
        with pytest.raises(ValueError):
            offered_config(rules, players, values)
        return
    sent = json.loads(json.dumps(expected.to_dict()))  # as the lobby sends it
    assert offered_config(rules, players, sent) == expected


async def by_token(path: str, token: str) -> Conn:
    conn = await Conn.open(path)
    await conn.send(op="hello", token=token)
    assert (await conn.recv())["op"] == "welcome"
    return conn


@pytest.mark.parametrize(
    "logins",
    [
        [("eve", "192.0.2.7")] * 3,  # the same login, again and again (a new lobby each time)
        [(f"eve{n}", "192.0.2.7") for n in range(3)],  # new names, one address
        [(f"eve{n}", f"2001:db8::{n}") for n in range(3)],  # new names, one IPv6 /64
    ],
)
@sync
async def test_guessing_private_codes_does_not_start_again_with_a_new_connection(logins):
    """Five wrong codes cut the connection off, and coming back (a new
    lobby, a new login, another name from the same address) gets no more
    guesses: the code itself is not even looked up, right or not."""
    server = TableServer(tokens=True)
    path = str(Path(tempfile.mkdtemp()) / "tables.sock")
    await server.start(path)
    try:
        ana = await by_token(path, server.admit("ana", "198.51.100.1"))
        await ana.send(op="create", game="gemelos", seats=["human", "human"], private=True)
        code = (await ana.until(lambda m: m["op"] == "state"))["code"]
        wrong = "AAAA" + next(c for c in "BCDEF" if c != code[-1])
        refused = 0
        for name, address in logins:
            eve = await by_token(path, server.admit(name, address))
            while True:
                await eve.send(op="code", code=wrong)
                rule = await error(eve)
                if rule.startswith("Disconnected"):
                    break
                refused += 1
            assert (await eve.reader.readline()) == b""  # cut off
        assert refused == 4  # not 4 per connection
        eve = await by_token(path, server.admit(*logins[0]))
        await eve.send(op="code", code=code)  # the right one, still refused for now
        assert (await error(eve)).startswith("Disconnected: 5 wrong table codes: try again")
        bea = await by_token(path, server.admit("bea", "203.0.113.9"))  # from elsewhere: comes in
        await bea.send(op="code", code=code)
        assert (await bea.until(lambda m: m["op"] == "state"))["seat"] == 1
    finally:
        await server.close()


@sync
async def test_wrong_codes_are_forgiven_one_a_minute(monkeypatch):
    monkeypatch.setattr(tables, "CODE_WAIT", 0.2)
    server = TableServer(tokens=True)
    path = str(Path(tempfile.mkdtemp()) / "tables.sock")
    await server.start(path)
    try:
        eve = await by_token(path, server.admit("eve", "192.0.2.7"))
        for _ in range(5):
            await eve.send(op="code", code="AAAAA")
        assert await eve.until(lambda m: m["rule"].startswith("Disconnected"))
        await asyncio.sleep(0.25)  # one more guess, not five
        eve = await by_token(path, server.admit("eve", "192.0.2.7"))
        await eve.send(op="code", code="AAAAA")
        assert (await error(eve)) == "Disconnected: 5 wrong table codes."
    finally:
        await server.close()


def test_the_guessers_remembered_are_bounded(monkeypatch):
    monkeypatch.setattr(store, "GUESSERS", 3)
    guesses = store.Allowance(5, 60.0)
    for n in range(10):
        guesses.spend(f"eve{n}", 0.0)
    assert list(guesses.spent) == ["eve7", "eve8", "eve9"]
    assert tables.origin_of("2001:db8::1") == tables.origin_of("2001:db8::ffff:1") == "2001:db8::/64"
    assert tables.origin_of("::ffff:192.0.2.7") == "192.0.2.7"


def test_results_given_while_the_ratings_store_is_held_all_wait_on_disk(tmp_path):
    """Another process holds the ratings store: every result given
    meanwhile is in its pending file at once, not only in the writer's
    queue, so a server killed then (no close) loses none."""
    import sqlite3
    import time

    from garito.store.ratings import FILE, PENDING, Ratings

    from .test_ratings import person, played

    ratings = Ratings(tmp_path, wait=0.05)
    ratings.open()
    holder = sqlite3.connect(tmp_path / FILE, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        for n in range(6):
            ratings.played(
                played("gemelos", (person("Ana"), person("Bea")), n + 1), f"2026-12-01T00:00:0{n}Z"
            )
        deadline = time.monotonic() + 10
        while len(list((tmp_path / PENDING).glob("*.json"))) < 6 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(list((tmp_path / PENDING).glob("*.json"))) == 6  # 1 before: 5 only in memory
        killed = Ratings(tmp_path)  # what a start after a kill finds
        assert len(killed._waiting()) == 6
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        ratings.close()
    again = Ratings(tmp_path)
    again.open()
    again.close()
    assert again.table == ratings.table and not list((tmp_path / PENDING).glob("*.json"))


@sync
async def test_leaving_a_table_one_is_not_at_says_nothing_and_tells_no_lobby():
    """A stranger's ``leave``: the same silence for a private table, a
    public one and none (so it does not tell which private numbers are
    open), and no lobby is sent anything (each was a listing of every
    table compared for every lobby, at the line limit)."""
    server, path = await as_served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], private=True)
        await ana.until(lambda m: m["op"] == "state")
        await ana.send(op="create", game="gemelos", seats=["human", "human"])
        await ana.until(lambda m: m["op"] == "state" and m["table"] == 2)
        eve = await Conn.open(path, "Eve")
        announced = []
        server._announce = lambda *_: announced.append(1)  # type: ignore[method-assign]
        for table in (1, 2, 3, 1, 2, 3):
            await eve.send(op="leave", table=table)
        await eve.send(op="say", table=None, text="hello")  # a line that answers: nothing came before it
        assert (await eve.recv())["op"] == "said"
        assert (await ana.until(lambda m: m["op"] == "said"))["text"] == "hello"  # and nothing to Ana
        assert not announced
    finally:
        await server.close()


@sync
async def test_talking_too_fast_does_not_start_again_with_a_new_connection():
    """Five lines at once, then one every 2 seconds, per name: a new
    connection (a new lobby) does not bring five more (500 connections of
    one login made 2,500 lines heard in 5 s)."""
    server = TableServer(tokens=True)
    path = str(Path(tempfile.mkdtemp()) / "tables.sock")
    await server.start(path)
    try:
        bea = await by_token(path, server.admit("bea", "198.51.100.1"))
        token = server.admit("eve", "192.0.2.7")
        answers = []
        for n in range(3):
            eve = await by_token(path, token)
            for i in range(5):
                await eve.send(op="say", table=None, text=f"spam {n}.{i}")
                answers.append((await eve.until(lambda m: m["op"] in ("said", "error")))["op"])
            await eve.close()
        assert answers.count("said") in (5, 6)  # (one more if 2 s went by)
        await bea.send(op="say", table=None, text="hello")
        heard = []
        while (m := await bea.until(lambda m: m["op"] == "said"))["text"] != "hello":
            heard.append(m["text"])
        assert heard[:5] == [f"spam 0.{i}" for i in range(5)] and len(heard) == answers.count("said")
    finally:
        await server.close()


@sync
async def test_a_mute_holds_in_the_next_lobby_and_the_muters_kept_are_bounded(monkeypatch):
    """Bea mutes Eve, goes back to the menu and into the lobby again (a
    new connection): Eve is still not heard (she was, before)."""
    monkeypatch.setattr(tables, "MUTERS", 2)
    server, path = await as_served()
    try:
        bea = await Conn.open(path, "Bea")
        await bea.send(op="mute", name="Eve")
        await bea.close()
        bea = await Conn.open(path, "Bea")
        eve = await Conn.open(path, "Eve")
        await eve.send(op="say", table=None, text="spam")
        await eve.until(lambda m: m["op"] == "said")
        await bea.send(op="say", table=None, text="hello")
        assert (await bea.until(lambda m: m["op"] == "said"))["text"] == "hello"  # not "spam"
        for name in ("Cid", "Dan"):
            await Conn.open(path, name)
        assert list(server.mutes) == ["Cid", "Dan"] and server.clients  # the newest kept
    finally:
        await server.close()


@sync
async def test_a_crowd_connecting_at_once_is_let_in_whole():
    """300 connections at the same moment (a dead host's players all back
    at once): each is taken and welcomed, none reset for waiting."""
    server, path = await as_served()
    conns: list[Conn] = []
    try:
        opened = await asyncio.gather(*(Conn.open(path, f"P{i}") for i in range(300)), return_exceptions=True)
        conns = [c for c in opened if isinstance(c, Conn)]
        assert len(conns) == 300, [repr(e) for e in opened if not isinstance(e, Conn)][:3]
    finally:
        for c in conns:
            c.writer.close()
        await server.close()


@sync
async def test_one_address_cycling_names_holds_a_share_and_a_newcomer_always_gets_a_table(monkeypatch):
    """24 guest names from one address, each opening its three tables and
    going (its seats held): the address holds PER_ORIGIN tables at most, of
    any names, an IPv6 /64 alike; with every table taken, a newcomer from
    elsewhere opens one in the place of a table nobody is at."""
    server = TableServer(tokens=True)
    path = str(Path(tempfile.mkdtemp()) / "tables.sock")
    await server.start(path)
    try:
        opened = refused_share = 0
        for n in range(24):
            mal = await by_token(path, server.admit(f"mal{n}", "192.0.2.66"))
            for _ in range(tables.PER_PLAYER):
                await mal.send(op="create", game="gemelos", seats=["human", "human"])
                m = await mal.until(lambda m: m["op"] in ("state", "error"))
                if m["op"] == "state":
                    opened += 1
                else:
                    assert "from your address already" in m["rule"]
                    refused_share += 1
            mal.writer.close()  # gone: its seats held for it
        assert opened == tables.PER_ORIGIN and refused_share == 24 * tables.PER_PLAYER - tables.PER_ORIGIN
        for n in range(3):  # another /64's addresses are one address too
            six = await by_token(path, server.admit(f"six{n}", f"2001:db8::{n + 1}"))
            await six.send(op="create", game="gemelos", seats=["human", "human"])
            m = await six.until(lambda m: m["op"] in ("state", "error"))
            assert m["op"] == "state", m
        # Every table taken: a newcomer still opens one, in the place of a
        # table nobody is at (the one whose holds end first).
        monkeypatch.setattr(tables, "MAX_TABLES", len(server.tables))
        before = set(server.tables)
        ana = await by_token(path, server.admit("ana", "203.0.113.5"))
        await ana.send(op="create", game="gemelos", seats=["human", "human"])
        state = await ana.until(lambda m: m["op"] == "state")
        assert len(server.tables) == tables.MAX_TABLES and state["table"] not in before
        assert len(before - set(server.tables)) == 1
        # With people at every table, the server is full for the next one.
        for t in list(server.tables.values()):
            t.sitting = t.sitting or {0: "someone"}
        bea = await by_token(path, server.admit("bea", "203.0.113.6"))
        await bea.send(op="create", game="gemelos", seats=["human", "human"])
        assert "as many tables as it can hold" in await error(bea)
    finally:
        await server.close()
