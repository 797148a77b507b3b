"""``garito serve`` under load, on loopback only, bounded.

For each count of players N (default 50, 100 and 200), a fresh server (in a
process of its own: ``garito serve --guests``) and N SSH connections from
this process (asyncssh), a quarter second apart: each opens the app in an
80×24 terminal, starts a Gemelos match against the computer from the menu,
and, once everyone is playing, plays it with Space at a person's pace (a
key every 1.4 to 2.9 s), asking for a rematch (n) when a match ends. The
first half arrive and settle, then the second half, so that the memory the
second half added says what a player costs at that count. Printed, per N:

* **memory per player**: the marginal proportional set size (PSS: shared
  pages split fairly) of the server and every process under it, from N/2
  to N players, divided by N/2; and the average (all of it over N);
* **to the menu**: from the connection's first byte to the menu on its
  screen, median and 95th percentile;
* **key→echo** on the client: from a key sent to the first byte of its
  echo, the channel quiet before each key, over every key of every player:
  median, 95th percentile, worst;
* **CPU per key**: what the server and its processes used while the keys
  were played, over the keys (and of it, the SSH server's own process); and
  the cores that was;
* **refused or lost**: connections that failed, keys with no echo in 3 s.

    python bench/serve_load.py [--design workers|fork|pty] [--players 50,100,200] [--keys 12]

With ``--arrivals 10,20`` the players come as a crowd instead: all N in one
wave, R a second (as at the start of an evening or a tournament), for each
rate R; memory is then not measured. ``--before PYTHON`` runs the same
rows first with a server started by another Python (an older Garito
installed in it) and then with this one, side by side.

Computer seats play at 0.3 s (``GARITO_BOT_DELAY``). ``bench/serve_designs.py``
runs this for each design side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

GARITO = [sys.executable, "-c", "from garito.tui.cli import entry; entry()"]
TIMEOUT = 180.0
GAME = "Gemelos \u2014".encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pss(pid: int) -> int:
    """Proportional set size of a process, in bytes (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(parents.get(p, ()))
    return out


def total_pss(pid: int) -> int:
    return sum(pss(p) for p in family(pid))


class CpuMeter:
    """CPU used by a changing set of processes (apps come and go): the
    processes seen at each sample are summed, a process that went keeps
    what it was last seen to use."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.start: dict[int, float] = {}
        self.last: dict[int, float] = {}

    def sample(self) -> None:
        for p in family(self.pid):
            used = cpu_seconds(p)
            self.start.setdefault(p, used)
            self.last[p] = used

    def used(self, only: int | None = None) -> float:
        return sum(self.last[p] - self.start[p] for p in self.last if only in (None, p))


@dataclass
class Player:
    number: int
    seen: bytes = b""
    last: float = field(default_factory=time.perf_counter)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    echoes: list[float] = field(default_factory=list)
    to_menu: float = 0.0
    missed: int = 0

    @property
    def name(self) -> str:
        return f"p{self.number:03d}"

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


@dataclass
class Phase:
    """The gates every player goes through together."""

    n: int
    first_half: int
    seated: list = field(default_factory=list)
    second_half: asyncio.Event = field(default_factory=asyncio.Event)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    done: list = field(default_factory=list)
    leave: asyncio.Event = field(default_factory=asyncio.Event)


async def play(port: int, me: Player, keys: int, phase: Phase, delay: float) -> Player:
    if me.number >= phase.first_half:
        await phase.second_half.wait()
    await asyncio.sleep(delay)
    t0 = time.perf_counter()
    login = dict(username=me.name, known_hosts=None, client_keys=None)
    async with asyncssh.connect("127.0.0.1", port, **login) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        pump = asyncio.create_task(me.pump(process))
        await me.wait_for(b"parlor")  # the menu
        me.to_menu = (time.perf_counter() - t0) * 1000
        await me.quiet(0.5)
        process.stdin.write(b"\r")  # Gemelos: the new-game dialog
        await me.wait_for(b"New game")
        await me.quiet(0.5)
        process.stdin.write(b"\r")  # start it: the player against the computer
        await me.wait_for(GAME)
        phase.seated.append(me)
        await phase.go.wait()  # everyone is playing
        pace = random.Random(me.number)
        for _ in range(keys):
            await asyncio.sleep(pace.uniform(1.0, 2.5))  # a player's pace, not a flood
            # the match is over when its box came after the last round's start: a rematch
            over = me.seen.rfind(b"Match over") > me.seen.rfind(b"rolls first")
            await me.key(process, b"n" if over else b" ")
        phase.done.append(me)
        await phase.leave.wait()
        process.stdin.write(b"\x11")  # ctrl+q
        await asyncio.wait_for(process.wait_closed(), TIMEOUT)
        pump.cancel()
    return me


@dataclass
class Result:
    design: str
    n: int
    seated: int
    marginal: float  # bytes a player, from N/2 to N
    average: float  # bytes a player at N (all of it over N)
    menu_median: float
    menu_p95: float
    echo_median: float
    echo_p95: float
    echo_worst: float
    keys: int
    cpu_per_key: float  # seconds
    server_per_key: float  # seconds: the SSH server's own process (crypto, flow control)
    cores: float
    client_cores: float
    failed: int
    missed: int
    first_failure: str = ""
    pauses: list = field(default_factory=list)  # a worker's collections past 100 ms: (ms, ms of CPU)
    collections: int = 0  # every worker's, over the whole run
    collector_cpu: float = 0.0  # seconds: the workers' collections, over the whole run
    collector_longest: float = 0.0  # seconds of CPU: the longest collection
    arrivals: float = 0.0  # a second, in one wave (0: two halves, four a second)
    menu_worst: float = 0.0
    label: str = ""
    menus: list = field(default_factory=list)  # each player's time to the menu, in arrival order


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def settle_until(test, timeout: float) -> None:
    end = time.perf_counter() + timeout
    while not test() and time.perf_counter() < end:
        await asyncio.sleep(0.25)


async def run(
    design: str, n: int, keys: int, port: int, server: subprocess.Popen, arrivals: float = 0.0
) -> Result:
    # A crowd comes in one wave at its rate; otherwise two halves, four a second.
    phase = Phase(n, n if arrivals else max(1, n // 2))
    gap = 1 / arrivals if arrivals else 0.25
    players = [Player(i) for i in range(n)]
    tasks = []
    for p in players:
        delay = gap * (p.number if p.number < phase.first_half else p.number - phase.first_half)
        tasks.append(asyncio.create_task(play(port, p, keys, phase, delay)))

    def failed() -> int:
        return sum(1 for t in tasks if t.done())

    await settle_until(lambda: len(phase.seated) + failed() >= phase.first_half, TIMEOUT * 2)
    await asyncio.sleep(3.0)
    half_pss, half_count = total_pss(server.pid), len(phase.seated)
    phase.second_half.set()
    await settle_until(lambda: len(phase.seated) + failed() >= n, TIMEOUT * 2)
    await asyncio.sleep(3.0)
    all_pss, all_count = total_pss(server.pid), len(phase.seated)

    meter = CpuMeter(server.pid)
    meter.sample()
    mine0, t0 = time.process_time(), time.perf_counter()
    phase.go.set()
    while len(phase.done) < len(phase.seated) and not all(t.done() for t in tasks):
        await asyncio.sleep(0.5)
        meter.sample()
    meter.sample()
    cpu, mine, wall = meter.used(), time.process_time() - mine0, time.perf_counter() - t0
    phase.leave.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    ok = [r for r in results if isinstance(r, Player)]
    bad = [r for r in results if not isinstance(r, Player)]
    echoes = [e for p in ok for e in p.echoes]
    menus = [p.to_menu for p in players if p.to_menu]
    added = max(1, all_count - half_count)
    return Result(
        design=design,
        n=n,
        seated=all_count,
        marginal=(all_pss - half_pss) / added,
        average=all_pss / max(1, all_count),
        menu_median=statistics.median(menus) if menus else float("nan"),
        menu_p95=percentile(menus, 0.95),
        menu_worst=max(menus) if menus else float("nan"),
        menus=[p.to_menu for p in players],
        echo_median=statistics.median(echoes) if echoes else float("nan"),
        echo_p95=percentile(echoes, 0.95),
        echo_worst=max(echoes) if echoes else float("nan"),
        keys=len(echoes),
        cpu_per_key=cpu / max(1, len(echoes)),
        server_per_key=meter.used(server.pid) / max(1, len(echoes)),
        cores=cpu / wall,
        client_cores=mine / wall,
        failed=len(bad),
        missed=sum(p.missed for p in ok),
        first_failure=repr(bad[0])[:120] if bad else "",
    )


@contextlib.contextmanager
def serving(design: str = "workers", n: int = 8, *options: str, log=subprocess.DEVNULL, python: str = ""):
    """``garito serve --guests`` on a free loopback port, in its own process
    with a fresh home, room for ``n`` players from one address: yields the
    port once it answers."""
    port = free_port()
    room = str(n + 5)
    with tempfile.TemporaryDirectory() as home:
        server = subprocess.Popen(
            [
                *([python, *GARITO[1:]] if python else GARITO),
                "serve",
                "--guests",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--design",
                design,
                "--max-connections",
                room,
                "--max-players",
                room,
                "--max-per-address",
                room,
                *options,
            ],
            env=dict(os.environ, GARITO_HOME=home, GARITO_BOT_DELAY="0.3"),
            stdout=subprocess.DEVNULL,
            stderr=log,
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
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


PAUSE = re.compile(r"a collection \(generation \d+\) held its \d+ games (\d+) ms \((\d+) ms of CPU\)")
COLLECTED = re.compile(r"worker \d+: (\d+) collections took (\d+) ms of CPU, the longest (\d+) ms")


def measure(design: str, n: int, keys: int, *options: str, arrivals: float = 0.0, python: str = "") -> Result:
    with tempfile.TemporaryFile() as log:
        with serving(design, n, *options, log=log, python=python) as (port, server):
            # the server is up; its workers are as it keeps them when idle
            time.sleep(2.0)
            result = asyncio.run(run(design, n, keys, port, server, arrivals))
            result.arrivals = arrivals
        log.seek(0)
        said = log.read().decode(errors="replace")
        result.pauses = [(int(ms), int(cpu)) for ms, cpu in PAUSE.findall(said)]
        for count, cpu, longest in COLLECTED.findall(said):
            result.collections += int(count)
            result.collector_cpu += int(cpu) / 1000
            result.collector_longest = max(result.collector_longest, int(longest) / 1000)
    return result


MB = 2**20
HEADER = (
    "| design | players | memory per player (marginal PSS) | average | to the menu, median (p95) "
    "| key→echo median / p95 / worst | CPU per key (of it SSH) | cores used | refused or lost |"
)


def row(r: Result) -> str:
    lost = f"{r.failed} connections, {r.missed} keys of {r.keys + r.missed}"
    return (
        f"| {r.design} | {r.n} | {r.marginal / MB:.1f} MB | {r.average / MB:.1f} MB "
        f"| {r.menu_median:.0f} ms ({r.menu_p95:.0f} ms) "
        f"| {r.echo_median:.0f} / {r.echo_p95:.0f} / {r.echo_worst:.0f} ms "
        f"| {r.cpu_per_key * 1000:.0f} ms ({r.server_per_key * 1000:.1f}) | {r.cores:.2f} | {lost} |"
    )


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


CROWD_HEADER = (
    "| server | arrivals | players | to the menu, median / p95 / worst "
    "| key→echo median / p95 / worst | average memory | refused or lost |"
)


def crowd_row(r: Result) -> str:
    lost = f"{r.failed} connections, {r.missed} keys of {r.keys + r.missed}"
    return (
        f"| {r.label} | {r.arrivals:g}/s | {r.n} "
        f"| {r.menu_median:.0f} / {r.menu_p95:.0f} / {r.menu_worst:.0f} ms "
        f"| {r.echo_median:.0f} / {r.echo_p95:.0f} / {r.echo_worst:.0f} ms "
        f"| {r.average / MB:.1f} MB | {lost} |"
    )


def arguments(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--design", default="workers", choices=("workers", "fork", "pty"))
    p.add_argument("--players", default="50,100,200", help="comma-separated counts (default 50,100,200)")
    p.add_argument("--keys", type=int, default=12, help="keys each player plays (default 12)")
    p.add_argument("--per-worker", type=int, help="garito serve's --per-worker")
    p.add_argument("--arrivals", default="", help="rates a second (a,b): the players come as one crowd")
    p.add_argument("--before", default="", help="a Python with an older Garito: its server first, same run")
    return p.parse_args(argv)


def main(argv=None) -> None:
    args = arguments(argv)
    counts = [int(x) for x in args.players.split(",")]
    rates = [float(x) for x in args.arrivals.split(",") if x]
    options = ("--per-worker", str(args.per_worker)) if args.per_worker else ()
    servers = [("before", args.before)] if args.before else []
    servers.append(("after" if args.before else "this", ""))
    print(f"garito serve on loopback, {os.cpu_count()} cores, {load()} at the start")
    if rates:
        print(CROWD_HEADER)
        print("|---|---|---|---|---|---|---|")
        for n in counts:
            for rate in rates:
                for label, python in servers:
                    r = measure(args.design, n, args.keys, *options, arrivals=rate, python=python)
                    r.label = label
                    print(crowd_row(r), flush=True)
                    notes(r)
    else:
        print(HEADER)
        print("|---|---|---|---|---|---|---|---|---|")
        for n in counts:
            for label, python in servers:
                r = measure(args.design, n, args.keys, *options, python=python)
                print(row(r) + (f" ({label})" if args.before else ""), flush=True)
                notes(r)
    print(f"({load()} at the end; the SSH clients run in this process)")


def notes(r: Result) -> None:
    if r.first_failure:
        print(f"  first failure: {r.first_failure}")
    if r.collections:
        print(
            f"  {r.design} {r.n}: the collector: {r.collections} collections, "
            f"{r.collector_cpu * 1000 / max(1, r.keys):.1f} ms of CPU per key, "
            f"the longest {r.collector_longest * 1000:.0f} ms of CPU"
        )
    if r.pauses:
        said = (
            f"{len(r.pauses)} collections held a worker over 100 ms, "
            f"longest {max(ms for ms, _ in r.pauses)} ms on the clock "
            f"({max(cpu for _, cpu in r.pauses)} ms of CPU)"
        )
        print(f"  {r.design} {r.n}: {said}")


if __name__ == "__main__":
    main()
