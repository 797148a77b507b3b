"""Two ``garito serve --redis`` processes on one real Redis, played through
SSH clients as players reach them: a table opened on host A is joined from
host B and played from both; then A is SIGKILLed mid-match, its player comes
back through B, takes the held seat and plays the match out. The record in
Redis replays, every move once, and its dice verify. Loopback only,
bounded."""

from __future__ import annotations

import asyncio
import json

from garito.core.fairness import verify
from garito.core.match import Match
from garito.store.history import History

from .helpers import sync
from .test_serve_lifecycle import Operator
from .test_ssh import Player


def record_of(redis_server, table: int) -> list[dict]:
    """The table's record as Redis holds it, entry by entry."""
    reply = redis_server.command("LRANGE", f"garito:{{t{table}}}:log", "0", "-1").decode()
    lines = reply.split("\r\n")
    return [json.loads(line) for line in lines[2::2] if line.startswith("{")]


@sync
async def test_a_table_opened_on_one_host_is_played_from_another_and_survives_the_first_host_killed(
    tmp_path, redis_server
):
    hosts = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        hosts.append(Operator(tmp_path / name, options=("--redis", redis_server.url)))
    a, b = hosts
    players: list[Player] = []
    try:
        port_a, port_b = await a.port(), await b.port()
        assert "the tables are shared on Redis as host" in a.log

        ana = await Player.connect(port_a, "ana")
        players.append(ana)
        await ana.to_lobby()
        await ana.open_gemelos_table()

        bea = await Player.connect(port_b, "bea")  # the other host lists A's table
        players.append(bea)
        await bea.to_lobby()
        await bea.wait(b"1 table open, 1 with a free seat.")
        await bea.keys(b"\r")
        await bea.wait(b"Gemelos \xe2\x80\x94")
        await ana.wait(b"bea")  # A's player sees who sat down through B

        playing = [asyncio.create_task(p.roll_until_over()) for p in (ana, bea)]
        for _ in range(600):  # a few moves accepted, from both hosts
            moves = [e for e in record_of(redis_server, 1) if e["t"] == "act"]
            # Both hosts' players have moved, and the match is far from over
            # (three round wins take six rolls at the least).
            if len({m["seat"] for m in moves}) == 2:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("no moves from both hosts")
        a.process.kill()  # SIGKILL: no chance to say anything
        a.process.wait(10)
        playing[0].cancel()
        before = [e for e in record_of(redis_server, 1) if e["t"] == "act"]

        # B sees A gone (its heartbeat stopped) and holds ana's seat; she
        # reconnects through B and finds it kept for her.
        for _ in range(400):
            if any(e["t"] == "away" and e["name"] == "ana" for e in record_of(redis_server, 1)):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("B never held ana's seat")
        ana = await Player.connect(port_b, "ana")
        players.append(ana)
        await ana.to_lobby()
        await ana.wait(b"Enter takes it back.")
        await ana.keys(b"\r")
        await ana.wait(b"Gemelos \xe2\x80\x94")
        playing[0] = asyncio.create_task(ana.roll_until_over())
        await asyncio.wait_for(asyncio.gather(*playing), 120)

        entries = record_of(redis_server, 1)
        opening = entries[0]["match"]
        moves = [e["a"] for e in entries if e["t"] in ("act", "bot")]
        assert [e["a"] for e in entries if e["t"] == "act"][: len(before)] == [m["a"] for m in before]
        kinds = [e["t"] for e in entries]
        assert kinds.count("away") == 1  # A's death held ana's seat once
        record = {**opening, "actions": moves}
        replayed = Match.from_record(record)
        assert replayed.over
        # ana sat down through A, bea through B, then ana again through B.
        sat = [(e["name"], e["host"]) for e in entries if e["t"] == "sit"]
        assert [n for n, _ in sat] == ["ana", "bea", "ana"] and sat[0][1] != sat[1][1] == sat[2][1]
        # The dice follow from the seed the table committed to at its opening.
        assert verify(record).verified

        # ana's home follows her: A, started again, knew nothing of the end
        # (it was dead), and brings the match into her history there as she
        # arrives.
        again = Operator(tmp_path / "a", options=("--redis", redis_server.url))
        hosts.append(again)
        ana = await Player.connect(await again.port(), "ana")
        players.append(ana)
        await ana.to_lobby()
        kept = again.home / "ssh-players" / "ana" / "history.sqlite3"
        for _ in range(200):
            if kept.is_file():
                with History(kept) as h:
                    if [e.game for e in h.entries()] == ["gemelos"]:
                        break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the match never reached ana's history on A")
    finally:
        for p in players:
            try:
                await asyncio.wait_for(p.close(), 5)
            except (Exception, asyncio.CancelledError):
                pass
        for h in hosts:
            h.stop()
