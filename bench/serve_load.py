"""``garito serve`` under load, on loopback only, bounded:

N SSH connections (default 50) arrive a quarter second apart, each opens
the app in an 80×24 terminal, starts a Gemelos match against the computer
from the menu and plays it with Space at a player's pace (a key every 1.4
to 2.9 s), asking for a rematch (n) when a match ends. Printed:

* memory per connection once all N are playing: each connection's app
  process (resident set, and proportional set size, which splits the
  shared libraries fairly), plus the server's own growth, divided by N;
* the time from a key sent by the client to the first byte of its echo
  back on the client (median, 95th percentile, worst), over every key of
  every connection, the channel quiet before each key;
* how many connections were refused or lost (none expected).

    python bench/serve_load.py [connections] [keys each]      (defaults 50 and 12)

The server runs in its own process (``garito serve --guests``), the clients
(asyncssh) in this one; computer seats play at 0.3 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

GARITO = [sys.executable, "-c", "from garito.tui.cli import entry; entry()"]
TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of a process, in bytes."""
    rss = pss = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1]) * 1024
            elif line.startswith("Pss:"):
                pss = int(line.split()[1]) * 1024
    except OSError:
        pass
    return rss, pss


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


class Player:
    def __init__(self, number: int) -> None:
        self.name = f"p{number:02d}"
        self.seen = b""
        self.last = time.perf_counter()
        self.arrived = asyncio.Event()
        self.echoes: list[float] = []
        self.missed = 0

    async def pump(self, process) -> None:
        while True:
            chunk = await process.stdout.read(65536)
            if not chunk:
                return
            self.seen = (self.seen + chunk)[-200_000:]
            self.last = time.perf_counter()
            self.arrived.set()

    async def wait_for(self, needle: bytes) -> None:
        start = time.perf_counter()
        while needle not in self.seen:
            if time.perf_counter() - start > TIMEOUT:
                raise TimeoutError(f"{self.name}: {needle!r} never came")
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), 1.0)
            except TimeoutError:
                pass

    async def quiet(self, seconds: float) -> None:
        while time.perf_counter() - self.last < seconds:
            await asyncio.sleep(seconds / 4)

    async def key(self, process, key: bytes) -> None:
        await self.quiet(0.4)
        self.arrived.clear()
        t0 = time.perf_counter()
        process.stdin.write(key)
        try:
            await asyncio.wait_for(self.arrived.wait(), 3.0)
            self.echoes.append((self.last - t0) * 1000)
        except TimeoutError:
            self.missed += 1


async def play(
    port: int, number: int, keys: int, seated: list, go: asyncio.Event, done: list, leave
) -> Player:
    me = Player(number)
    await asyncio.sleep(0.25 * number)
    async with asyncssh.connect("127.0.0.1", port, username=me.name, known_hosts=None) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        pump = asyncio.create_task(me.pump(process))
        await me.wait_for(b"parlor")  # the menu
        await me.quiet(0.5)
        process.stdin.write(b"\r")  # Gemelos: the new-game dialog
        await me.wait_for(b"New game")
        await me.quiet(0.5)
        process.stdin.write(b"\r")  # start it: the player against the computer
        await me.wait_for(b"Gemelos \xe2\x80\x94")
        seated.append(me)
        await go.wait()  # everyone is playing: memory is measured
        pace = random.Random(number)
        for _ in range(keys):
            await asyncio.sleep(pace.uniform(1.0, 2.5))  # a player's pace, not a flood
            over = me.seen.rfind(b"Match over") > me.seen.rfind(b"Gemelos \xe2\x80\x94")
            await me.key(process, b"n" if over else b" ")  # a rematch when the match is over
        done.append(me)
        await leave.wait()  # everyone has played: CPU time is measured
        process.stdin.write(b"\x11")  # ctrl+q
        await asyncio.wait_for(process.wait_closed(), TIMEOUT)
        pump.cancel()
    return me


async def run(n: int, keys: int, port: int, server: subprocess.Popen) -> None:
    seated: list[Player] = []
    done: list[Player] = []
    go, leave = asyncio.Event(), asyncio.Event()
    before = memory(server.pid)
    tasks = [asyncio.create_task(play(port, i, keys, seated, go, done, leave)) for i in range(n)]
    start = time.perf_counter()
    while len(seated) < n and not any(t.done() for t in tasks):
        await asyncio.sleep(0.5)
    took = time.perf_counter() - start
    await asyncio.sleep(2.0)
    apps = [memory(pid) for pid in children(server.pid)]
    after = memory(server.pid)
    pids = [server.pid, *children(server.pid)]
    cpu0, mine0, t0 = sum(map(cpu_seconds, pids)), time.process_time(), time.perf_counter()
    go.set()
    while len(done) < len(seated) and not all(t.done() for t in tasks):
        await asyncio.sleep(0.5)
    cpu = sum(map(cpu_seconds, pids)) - cpu0
    mine, wall = time.process_time() - mine0, time.perf_counter() - t0
    leave.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    players = [r for r in results if isinstance(r, Player)]
    failed = [r for r in results if not isinstance(r, Player)]
    echoes = sorted(e for p in players for e in p.echoes)
    missed = sum(p.missed for p in players)
    rss = [r for r, _ in apps]
    pss = [p for _, p in apps]
    growth = max(0, after[0] - before[0])
    print(f"garito serve on loopback: {n} connections, {len(apps)} app processes, all seated in {took:.0f} s")
    print(
        f"  memory per connection: app RSS {statistics.mean(rss) / 2**20:.1f} MB "
        f"(PSS {statistics.mean(pss) / 2**20:.1f} MB), server growth {growth / n / 2**20:.2f} MB; "
        f"all {(sum(pss) + after[0]) / 2**20:.0f} MB PSS"
    )
    p95 = echoes[int(0.95 * len(echoes))] if echoes else float("nan")
    print(
        f"  key→echo on the client, {len(echoes)} keys: median {statistics.median(echoes):.1f} ms, "
        f"p95 {p95:.1f} ms, worst {echoes[-1]:.1f} ms; {missed} keys without an echo in 3 s"
    )
    print(
        f"  CPU while playing ({wall:.0f} s, {os.cpu_count()} cores): server and apps "
        f"{cpu / wall:.2f} cores, the SSH clients {mine / wall:.2f} cores; "
        f"{cpu / max(1, len(echoes)) * 1000:.0f} ms of app CPU per key"
    )
    print(f"  connections failed: {len(failed)}" + (f" ({failed[0]!r})" if failed else ""))


@contextlib.contextmanager
def serving(*options: str, **env: str):
    """``garito serve --guests`` on a free loopback port, in its own process
    with a fresh home: yields the port once it answers."""
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        server = subprocess.Popen(
            GARITO + ["serve", "--guests", "--host", "127.0.0.1", "--port", str(port), *options],
            env=dict(os.environ, GARITO_HOME=home, **env),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    time.sleep(0.2)
            yield port, server
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    keys = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    with serving("--max-connections", str(n + 2), GARITO_BOT_DELAY="0.3") as (port, server):
        asyncio.run(run(n, keys, port, server))


if __name__ == "__main__":
    main()
