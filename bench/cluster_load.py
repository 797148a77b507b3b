"""Two hosts on one Redis: what a move costs when a table's players reached
different hosts, what a host's death costs, and what Redis does per move.

A real ``redis-server`` (a free loopback port, a temporary folder, AOF on
with ``appendfsync everysec``, as the README tells an operator) and two
table servers, each in a process of its own (``garito serve --redis``'s
table server, as its SSH players' apps reach it), and the players in a third
process speaking the tables' protocol on each host's socket, as the apps
do. Measured at the table socket, without SSH and Textual in between: their
cost is the same whichever host a table's record came through, so the ratio
here is the cluster's alone, and stricter than one over the whole key.

Players sit four to a Gemelos table with a computer (four human seats and
one computer:hard: 200 players at 50 tables, inside the 64 tables a
server holds), half the tables with all four players on host A or all on B
(same-host), half with two on each (cross-host). Each player moves at a
human pace (PACE seconds after its turn comes), and asks a rematch when a
match ends. For every move: **echo**, from the move sent until the mover's
own host sends back the state with it; **relay**, until the other player's
hosts have sent it to them (on another host, that is the append's word
over pub/sub, the record read and replayed there). Printed: p50 / p95 / worst of
both, same-host and cross-host, and the ratio of the p95s.

Then the **failover**: host A is SIGKILLed with its players at their tables.
Each of them reconnects through B at once, joins its table (its seat, held
or still marked as A's) and moves; timed from its reconnection until B sends
the state with that move. **Lost** is any move a player had seen accepted
before the kill that is not in the table's record afterwards.

And **Redis per move**: the commands Redis ran and the bytes it took in and
sent out over the load phase (``INFO``), over the moves accepted then
(heartbeats and each host's look at every record once a second counted in).

    python bench/cluster_load.py [--players 50,200] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PACE = (0.6, 1.2)  # seconds from a player's turn to its move: a person's pace
BOTS = {"kind": "computer", "level": "hard", "name": "Ramón"}
SEATED = 4  # people at a table, beside the computer


# ---------------------------------------------------------------- the parts


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, folder: Path) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            sys.exit("cluster_load: redis-server is missing (Debian: apt-get install -y redis-server)")
        self.port = free_port()
        self.process = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", "",
             "--appendonly", "yes", "--appendfsync", "everysec", "--logfile", str(folder / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(200):
            try:
                self.info()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def info(self) -> dict[str, int]:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
            s.sendall(b"INFO\r\n")
            data = b""
            while not data.endswith(b"\r\n\r\n") and b"# Keyspace" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                if data.count(b"\r\n") > 1 and len(data) >= int(data[1 : data.index(b"\r\n")]) + 3:
                    break
        out = {}
        for line in data.decode(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if value.strip().isdigit():
                out[key] = int(value)
        return out

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(10)


def host_process(url: str, path: str) -> subprocess.Popen[str]:
    """One host's table server in a process of its own (``--host-process``)."""
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen(
        [sys.executable, __file__, "--host-process", url, path],
        cwd=root, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


async def serve_host(url: str, path: str) -> None:
    from garito.server.redis_store import RedisStore
    from garito.server.tables import TableServer

    server = TableServer(store=RedisStore(url))
    await server.start(path)
    print("ready", flush=True)
    await asyncio.Event().wait()


# ---------------------------------------------------------------- the players


class Player:
    def __init__(self, name: str, path: str) -> None:
        self.name, self.path = name, path
        self.table: int | None = None
        self.seat: int | None = None
        self.last: dict | None = None
        self.sent: dict[int, float] = {}  # move count it waits for -> when sent
        self.seen_moves: list = []
        self.changed = asyncio.Event()
        self.peers: list[Player] = []  # the other people at its table
        self.error = ""  # the last refusal
        self.kind = ""  # same-host or cross-host
        self.reader = self.writer = None
        self.moved_at: dict[int, float] = {}  # move count -> when its mover sent it (shared with the peer)

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_unix_connection(self.path, limit=2**22)
        await self.send(op="hello", name=self.name)
        line = json.loads(await self.reader.readline())
        assert line["op"] == "welcome", line

    async def send(self, **message) -> None:
        self.writer.write((json.dumps(message) + "\n").encode())
        await self.writer.drain()

    async def read(self, figures: dict) -> None:
        while line := await self.reader.readline():
            m = json.loads(line)
            if m["op"] == "error":
                self.error = m["rule"]
                self.changed.set()
            if m["op"] != "state" or (self.table is not None and m["table"] != self.table):
                continue
            now = time.perf_counter()
            self.table, self.seat, self.last = m["table"], m["seat"], m
            n = len(m["actions"])
            if n < len(self.seen_moves):  # a rematch: a new match's moves count from 0
                self.moved_at.clear()
                self.sent.clear()
            for count, when in list(self.moved_at.items()):
                if count <= n and m["actions"]:
                    mine = count in self.sent
                    figures[(self.kind, "echo" if mine else "relay")].append(now - when)
                    self.moved_at.pop(count)
                    self.sent.pop(count, None)
            self.seen_moves = m["actions"]
            self.changed.set()

    async def play(self, stop: float) -> None:
        while time.perf_counter() < stop:
            await self.changed.wait()
            self.changed.clear()
            m = self.last
            if m is None:
                continue
            if m["over"]:
                await asyncio.sleep(random.uniform(*PACE))
                await self.send(op="rematch", table=m["table"], accept=True)
                continue
            if m["to_act"] != m["seat"] or not m["legal"]:
                continue
            await asyncio.sleep(random.uniform(*PACE))
            if self.last is not m:  # moved on meanwhile
                self.changed.set()
                continue
            n = len(m["actions"]) + 1
            now = time.perf_counter()
            self.sent[n] = now
            self.moved_at[n] = now
            for peer in self.peers:
                peer.moved_at[n] = now
            await self.send(op="act", table=m["table"], action=m["legal"][0])


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def load(players: int, seconds: float, redis: Redis, paths: list[str], hosts) -> dict:
    figures: dict = {(k, w): [] for k in ("same-host", "cross-host") for w in ("echo", "relay")}
    groups = players // SEATED
    everyone: list[Player] = []
    for i in range(groups):
        cross = i % 2 == 1
        own = paths[i % 4 // 2]  # same-host tables alternate between A and B
        group = [Player(f"p{i}{'abcdef'[j]}", paths[j % 2] if cross else own) for j in range(SEATED)]
        for p in group:
            p.peers = [q for q in group if q is not p]
            p.kind = "cross-host" if cross else "same-host"
        everyone += group
    await asyncio.gather(*(p.connect() for p in everyone))
    readers = [asyncio.create_task(p.read(figures)) for p in everyone]
    for i in range(groups):  # the tables, opened and joined one after another
        first, *others = everyone[SEATED * i : SEATED * (i + 1)]
        await first.send(op="create", game="gemelos", seats=["human"] * SEATED + [BOTS])
        while first.table is None:
            await asyncio.wait_for(first.changed.wait(), 10)
            first.changed.clear()
        for p in others:
            for _ in range(100):  # once its host has heard of it (within the tables' rate limit)
                p.changed.clear()
                await p.send(op="join", table=first.table)
                try:
                    await asyncio.wait_for(p.changed.wait(), 0.5)
                except TimeoutError:
                    pass
                if p.table == first.table:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"{p.name} never sat at table {first.table}: {p.error}")
    for p in everyone:
        p.changed.set()
    for key in figures:
        figures[key].clear()
    before = redis.info()
    stop = time.perf_counter() + seconds
    players_tasks = [asyncio.create_task(p.play(stop)) for p in everyone]
    await asyncio.sleep(seconds)
    after = redis.info()
    for t in players_tasks:
        t.cancel()
    moves = sum(len(figures[(k, "echo")]) for k in ("same-host", "cross-host"))
    result = {
        "figures": figures,
        "moves": moves,
        "commands": after["total_commands_processed"] - before["total_commands_processed"],
        "bytes_in": after["total_net_input_bytes"] - before["total_net_input_bytes"],
        "bytes_out": after["total_net_output_bytes"] - before["total_net_output_bytes"],
        "players": everyone,
        "readers": readers,
    }
    return result


async def failover(everyone: list[Player], readers, host_a, path_b: str, redis: Redis) -> dict:
    on_a = [p for p in everyone if p.path != path_b and p.table is not None]
    # What each had seen accepted at the moment of the kill.
    host_a.send_signal(signal.SIGKILL)
    host_a.wait(10)
    await asyncio.sleep(0.2)  # their connections drop
    seen = {p.name: list(p.seen_moves) for p in on_a}
    for r, p in zip(readers, everyone, strict=True):
        if p in on_a:
            r.cancel()
    # The players on B play on meanwhile (the other seat of a cross-host table).
    on_b = [asyncio.create_task(p.play(time.perf_counter() + 120)) for p in everyone if p.path == path_b]
    for p in everyone:
        p.changed.set()
    joined: dict[str, Player] = {}
    later: list[asyncio.Task] = []  # the players back, playing on
    echoes: list[float] = []  # its first move through B: sent -> accepted and sent back
    times: list[float] = []  # reconnect -> its own move accepted
    seated: list[float] = []  # reconnect -> its seat again
    moving: list[float] = []  # reconnect -> a move accepted at its table
    lost = 0

    async def back(p: Player) -> None:
        nonlocal lost
        going: list[float] = []  # a move accepted at its table since it sat again (anyone's)
        q = Player(p.name, path_b)
        q.kind = "failover"
        started = time.perf_counter()
        await q.connect()
        figures: dict = {("failover", "echo"): [], ("failover", "relay"): []}
        reader = asyncio.create_task(q.read(figures))
        table = p.table
        q.table = table
        for _ in range(100):
            q.changed.clear()
            await q.send(op="join", table=table)
            try:
                await asyncio.wait_for(q.changed.wait(), 0.5)
            except TimeoutError:
                pass
            if q.last is not None and q.last["seat"] is not None:
                break
            await asyncio.sleep(0.1)  # refused (B has not heard of it yet): again, within the rate limit
        m = q.last
        if m is None:
            raise AssertionError(f"{q.name}: its table {table} refused it: {q.error}")
        joined[q.name] = q
        seated.append(time.perf_counter() - started)
        if m["actions"][: len(seen[p.name])] != seen[p.name] and not m["over"]:
            lost += 1
        at = len(m["actions"])
        # Its move, as soon as it is its turn (the other player's and the computer's come meanwhile).
        while True:
            m = q.last
            if m is not None and len(m["actions"]) > at and not going:
                going.append(time.perf_counter() - started)
            if m is not None and (m["over"] or (m["to_act"] == m["seat"] and m["legal"])):
                break
            q.changed.clear()
            try:
                await asyncio.wait_for(q.changed.wait(), 20)
            except TimeoutError:
                raise AssertionError(
                    f"{q.name} at table {table}: its turn never came: seat {m and m['seat']}, "
                    f"to act {m and m['to_act']}, seats {m and [x['name'] for x in m['seats']]}, "
                    f"away {m and m['away']}, {m and len(m['actions'])} moves ({q.error}); "
                    f"joined: {len(joined)} of {len(on_a)}"
                ) from None
        if m["over"]:
            await q.send(op="rematch", table=table, accept=True)
        else:
            n = len(m["actions"]) + 1
            q.sent[n] = q.moved_at[n] = time.perf_counter()
            await q.send(op="act", table=table, action=m["legal"][0])
            while figures[("failover", "echo")] == []:
                q.changed.clear()
                try:
                    await asyncio.wait_for(q.changed.wait(), 20)
                except TimeoutError:
                    raise AssertionError(f"{q.name}: no answer to its move ({q.error})") from None
            times.append(time.perf_counter() - started)
            echoes.append(figures[("failover", "echo")][0])
            if not going:
                going.append(times[-1])
        moving.extend(going)
        # It plays on, as a person would, while the others come back.
        q.peers = []
        q.changed.set()
        later.extend([reader, asyncio.create_task(q.play(time.perf_counter() + 120))])

    try:
        await asyncio.gather(*(back(p) for p in on_a), return_exceptions=False)
    finally:
        for t in on_b + later:
            t.cancel()
    return {
        "players": len(on_a),
        "times": times,
        "seated": seated,
        "moving": moving,
        "echoes": echoes,
        "lost": lost,
    }


async def run(players: int, seconds: float, kill: bool) -> None:
    folder = Path(tempfile.mkdtemp(prefix="garito-cluster-"))
    redis = Redis(folder)
    paths = [str(folder / "a.sock"), str(folder / "b.sock")]
    hosts = [host_process(redis.url, p) for p in paths]
    try:
        result = await load(players, seconds, redis, paths, hosts)
        f = result["figures"]
        tables = players // SEATED
        print(f"\n{players} players, {tables} tables (half same-host, half cross-host), {seconds:g} s:")
        print(f"  {'':26} {'p50':>8} {'p95':>8} {'worst':>8}  moves")
        for kind in ("same-host", "cross-host"):
            for what in ("echo", "relay"):
                v = f[(kind, what)]
                print(f"  {kind + ' ' + what:26} {pct(v, .5) * 1000:7.1f}ms {pct(v, .95) * 1000:7.1f}ms "
                      f"{max(v, default=float('nan')) * 1000:7.1f}ms  {len(v)}")  # fmt: skip
        for what in ("echo", "relay"):
            ratio = pct(f[("cross-host", what)], 0.95) / pct(f[("same-host", what)], 0.95)
            print(f"  cross-host / same-host p95, {what}: {ratio:.2f}")
        moves = max(1, result["moves"])
        print(f"  Redis per accepted move: {result['commands'] / moves:.1f} commands, "
              f"{result['bytes_in'] / moves:.0f} bytes in, {result['bytes_out'] / moves:.0f} bytes out "
              f"({result['moves']} moves)")  # fmt: skip
        if kill:
            fo = await failover(result["players"], result["readers"], hosts[0], paths[1], redis)
            print(
                f"  failover: host A SIGKILLed with {fo['players']} players at tables, each back through B;"
            )
            print(f"  {'from its reconnection to':32} {'p50':>8} {'p95':>8} {'worst':>8}")
            for label, key in (("its seat again", "seated"), ("a move accepted at its table", "moving"),
                               ("its own move accepted", "times"),
                               ("(that move's own echo)", "echoes")):  # fmt: skip
                t = fo[key]
                print(f"  {label:32} {pct(t, .5) * 1000:6.0f}ms {pct(t, .95) * 1000:6.0f}ms "
                      f"{max(t, default=float('nan')) * 1000:6.0f}ms")  # fmt: skip
            print(f"  moves lost: {fo['lost']}")
    finally:
        for h in hosts:
            if h.poll() is None:
                h.kill()
                h.wait(10)
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--host-process":
        asyncio.run(serve_host(sys.argv[2], sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="50,200")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--no-failover", action="store_true")
    args = parser.parse_args()
    random.seed(1)
    for n in (int(x) for x in args.players.split(",")):
        asyncio.run(run(n, args.seconds, not args.no_failover))


if __name__ == "__main__":
    main()
