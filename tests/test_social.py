"""Shared tables as players expect them, over the protocol: a real rematch,
the record and the news of a match that ended while a player was away,
talk (with its limits), private tables, ratings."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest

from garito.core.match import Match
from garito.server import tables
from garito.server.messages import CODE_LETTERS
from garito.server.tables import TableServer

from .helpers import sync
from .test_tables import Conn, play_my_turns, served


@pytest.fixture(autouse=True)
def no_pace(monkeypatch):
    monkeypatch.setattr(tables, "PACE", 0.0)


async def finished_table(path: str, seed: int = 7) -> tuple[Conn, Conn, dict]:
    """Ana and Bea play a Gemelos match at table 1 to its end."""
    ana = await Conn.open(path, "Ana")
    await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=seed)
    await ana.until(lambda m: m["op"] == "state")
    bea = await Conn.open(path, "Bea")
    await bea.send(op="join", table=1)
    await bea.until(lambda m: m["op"] == "state")
    ends = await asyncio.gather(play_my_turns(ana, 1), play_my_turns(bea, 1))
    return ana, bea, ends[0]


# ---------------------------------------------------------------- rematch


@sync
async def test_a_rematch_asked_by_both_begins_with_the_seats_moved_on():
    server, path = await served()
    try:
        ana, bea, end = await finished_table(path)
        assert end["over"] and end["finished"]
        old = server.tables[1].match
        await ana.send(op="rematch", table=1)
        asked = await bea.until(lambda m: m["op"] == "state" and m.get("rematch"))
        assert asked["rematch"] == [0] and asked["over"]  # Bea sees Ana asked; nothing begins yet
        await bea.send(op="rematch", table=1)
        new = await ana.until(lambda m: m["op"] == "state" and not m["over"])
        assert new["moves"] == 0 and new["commitment"] != old.commitment
        assert [s["name"] for s in new["seats"]] == ["Bea", "Ana"]  # moved one place on
        assert new["seat"] == 1 and not new["open"] and not new.get("rematch")
        table = server.tables[1]
        assert table.match.seed == old.seed + 1 and table.match.config == old.config
        assert {s: c.name for s, c in table.players.items()} == {0: "Bea", 1: "Ana"}
        await bea.until(lambda m: m["op"] == "state" and not m["over"])
        end = (await asyncio.gather(play_my_turns(ana, 1), play_my_turns(bea, 1)))[0]
        assert end["over"]  # the rematch is played to its end
    finally:
        await server.close()


@sync
async def test_a_refused_rematch_opens_the_seat_of_who_said_no():
    server, path = await served()
    try:
        ana, bea, _ = await finished_table(path)
        await ana.send(op="rematch", table=1)
        await ana.until(lambda m: m["op"] == "state" and m.get("rematch") == [0])
        await bea.send(op="rematch", table=1, accept=False)
        new = await ana.until(lambda m: m["op"] == "state" and not m["over"])
        assert [s["name"] for s in new["seats"]] == ["Seat 1", "Ana"] and new["open"] == [0]
        assert 1 not in server.tables[1].players.values()
        assert server.tables[1].players[1].name == "Ana"
        cid = await Conn.open(path, "Cid")  # whoever comes takes the open seat
        await cid.send(op="join", table=1)
        m = await cid.until(lambda m: m["op"] == "state")
        assert m["seat"] == 0 and not m["open"]
        # A rematch is asked only at a finished table, by one seated there.
        await cid.send(op="rematch", table=1)
        assert (await cid.until(lambda m: m["op"] == "error"))["rule"] == "The match is not over yet."
    finally:
        await server.close()


# ---------------------------------------------------------------- away at the end (issue 21 item 2)


@sync
async def test_a_match_that_ends_while_a_player_is_away_is_kept_for_them_and_told_on_return():
    folder = Path(tempfile.mkdtemp())
    kept: list[tuple[Match, tuple[str, ...], str]] = []
    server = TableServer(chosen_seeds=True, record=lambda m, names, at: kept.append((m, names, at)))
    path = str(folder / "t.sock")
    await server.start(path)
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=3)
        await ana.until(lambda m: m["op"] == "state")
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        await bea.close()  # Bea goes: her seat is held
        await ana.until(lambda m: m["op"] == "state" and m["away"] == [1])
        server.tables[1].held[1] = "Bea"
        # The match ends while she is away (a computer plays her turns here,
        # as one would after the hold; her name stays on the seat).
        table = server.tables[1]
        while not table.over:
            seat = table.session.to_act
            table.session.play(table.rules.legal_actions(table.match.state)[0])
            assert seat is not None
        server._broadcast(table)
        for _ in range(100):
            if kept:
                break
            await asyncio.sleep(0.02)
        ((match, names, at),) = kept
        assert names == ("Ana", "Bea") and match.over and at == table.finished
        back = await Conn.open(path, "Bea")  # she comes back: the lobby tells her
        m = await back.until(lambda m: m["op"] == "ended")
        assert (
            m["table"] == 1
            and m["title"] == "Gemelos"
            and m["summary"] == table.rules.summary(table.match.state, table.match.names)
        )
    finally:
        await server.close()


def test_the_record_sent_to_a_home_is_the_one_the_players_app_keeps(tmp_path, monkeypatch):
    """The server's copy and the app's copy of a finished shared match are
    one pending file: the history gets it once, whoever writes first."""
    from garito.core import catalog
    from garito.core.dice import COUNTER, commitment
    from garito.core.match import Seat
    from garito.store import pending
    from garito.store.history import History

    rules = catalog.rules("gemelos")
    seats = (Seat("Ana", "human", "hard"), Seat("Bea", "human", "hard"))
    match = Match.start("gemelos", rules.default_config(), 5, seats, stream=COUNTER, commitment=commitment(5))
    while not match.over:
        match = match.play(rules.legal_actions(match.state)[0])
    monkeypatch.setenv("GARITO_HOME", str(tmp_path))
    at = "2026-01-02T03:04:05.000006+00:00"
    sent = pending.send_to(tmp_path, match, at)
    held = pending.hold(match, saved=False, finished=at)
    assert held.path == sent
    assert pending.keep(held) == ""
    assert pending.drain().added == 0
    with History() as h:
        (entry,) = h.entries()
        assert entry.players == ("Ana", "Bea")


# ---------------------------------------------------------------- talk


@sync
async def test_players_and_a_spectator_talk_each_in_their_channel_and_a_flood_is_cut_off():
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=7)
        await ana.until(lambda m: m["op"] == "state")
        bea = await Conn.open(path, "[b]Bea[/b]")
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        cid = await Conn.open(path, "Cid")
        await cid.send(op="watch", table=1)
        await cid.until(lambda m: m["op"] == "state")
        await bea.send(op="say", table=1, text="good luck\x1b[31m \n [i]all[/i]")
        for who in (ana, bea, cid):
            m = await who.until(lambda m: m["op"] == "said")
            assert m == {"op": "said", "table": 1, "name": "[b]Bea[/b]", "text": "good luck[31m [i]all[/i]",
                         "spectator": False}  # fmt: skip
        await cid.send(op="say", table=1, text="nice")
        for who in (ana, bea, cid):
            m = await who.until(lambda m: m["op"] == "said")
            assert (m["name"], m["text"], m["spectator"]) == ("Cid", "nice", True)
        await ana.send(op="mute", name="Cid")
        await cid.send(op="say", table=1, text="hello?")
        await bea.until(lambda m: m["op"] == "said" and m["text"] == "hello?")
        await ana.send(op="say", table=1, text="x" * 500)  # cut to the longest line
        m = await bea.until(lambda m: m["op"] == "said")
        assert m["text"] == "x" * 200 and m["name"] == "Ana"
        m = await ana.until(lambda m: m["op"] == "said")
        assert m["text"] == "x" * 200  # her own line: she never heard Cid's "hello?"
        said, refused = 0, None
        for n in range(8):  # a flood: the burst goes through, then it is cut off
            await ana.send(op="say", table=None, text=f"spam {n}")
        for _ in range(8):
            m = await ana.until(lambda m: m["op"] in ("said", "error"))
            if m["op"] == "said":
                said += 1
                assert m["table"] is None
            else:
                refused = m["rule"]
        assert said == 4 and refused == "You are talking too fast: wait a moment."  # 5 in all, with the 500
        await ana.send(op="act", table=1, action="roll")  # play goes on
        m = await ana.until(lambda m: m["op"] in ("state", "error"))
        assert m["op"] == "state" and m["moves"] == 1
    finally:
        await server.close()


# ---------------------------------------------------------------- private tables


@sync
async def test_a_private_table_is_joined_by_its_code_and_listed_to_nobody_else():
    server, path = await served()
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=7, private=True)
        first = await ana.until(lambda m: m["op"] == "state")
        code = first["code"]
        assert len(code) == 5 and set(code) <= set(CODE_LETTERS)
        eve = await Conn.open(path, "Eve")
        await eve.send(op="list")
        assert (await eve.until(lambda m: m["op"] == "tables"))["tables"] == []
        for op in ("join", "watch"):  # by its number, it is nobody's business
            await eve.send(op=op, table=1)
            assert (await eve.until(lambda m: m["op"] == "error"))["rule"] == "No table 1."
        await eve.send(op="code", code="AAAAA")
        assert "No table has the code" in (await eve.until(lambda m: m["op"] == "error"))["rule"]
        bea = await Conn.open(path, "Bea")
        await bea.send(op="code", code=code.lower())
        m = await bea.until(lambda m: m["op"] == "state")
        assert m["seat"] == 1 and m["code"] == code and not m["open"]
        listed = await bea.until(lambda m: m["op"] == "table")
        assert listed["table"]["private"] and listed["table"]["code"] == code  # in her lobby now
        await eve.send(op="list")
        assert (await eve.until(lambda m: m["op"] == "tables"))["tables"] == []
        for n in range(4):  # guessing codes is cut off
            await eve.send(op="code", code=f"ZZZZ{n}")
        cut = await eve.until(lambda m: m["op"] == "error" and "Disc" in m["rule"])
        assert cut["rule"] == "Disconnected: 5 wrong table codes."
    finally:
        await server.close()
