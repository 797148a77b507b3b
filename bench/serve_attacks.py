"""``garito serve`` under attack, before and after: the figures of the
closing note, measured side by side in one run, on loopback only, bounded.

Each attack is made on a fresh ``garito serve --guests`` (a process of its
own, a fresh home) of each version in turn:

* paste flood: a client sends a megabyte of ordinary (unbracketed) keys at
  once; meanwhile a bystander at the menu presses ↓/↑ every half second.
  Printed: the bystander's key→echo time, 95th percentile (a key with no
  echo within ``ECHO_WAIT`` counts as that long, and is said), and the
  flooding player's own app's resident memory at the end;
* a client that reads nothing: it opens a 200×60 terminal with a small SSH
  window, never reads, and resizes it every 50 ms (each resize repaints the
  whole screen). Printed: the server process's resident memory after
  ``NO_READ_SECONDS``, and before;
* bad sizes: 100 sessions asking for a terminal 70000 columns wide or with
  a NUL in its TERM. Printed: the server's open file descriptors before and
  after (once every app has been reaped);
* a connection flood: 80 connections, one every 20 ms, against
  ``--max-connections 10``, each held open. Printed: how many got in;
* the largest terminal: a session asks for 65535×65535 (the largest a pty
  takes), starts a game and resizes within that size for ``BIG_SECONDS``.
  Printed: the app's resident memory (the after version clamps the size to
  its largest allowed, 500×200).

    python bench/serve_attacks.py --before PYTHON      (PYTHON: one whose garito is main's)

Without ``--before`` only this version is measured. Every attack is bounded
in connections, bytes and seconds; each server is killed at the end of its
attack (a frozen one cannot stop itself).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ECHO_WAIT = 5.0
KEYS = 12
NO_READ_SECONDS = 60.0
BIG_SECONDS = 20.0
FLOOD = 80
BAD_SIZES = 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
                out.append(int(entry.name))
    return out


@contextlib.asynccontextmanager
async def serving(python: str, *options: str):
    """``garito serve --guests`` of ``python``'s garito; yields (port, process)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        server = subprocess.Popen(
            [python, "-c", "from garito.tui.cli import entry; entry()", "serve", "--guests"]
            + ["--host", "127.0.0.1", "--port", str(port), *options],
            env=dict(os.environ, GARITO_HOME=home),
            cwd=home,  # not this checkout: ``-c`` would import its garito, whichever Python
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its apps with it, to be killed together
        )
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    await asyncio.sleep(0.2)
            yield port, server
        finally:
            pids = [server.pid, *children(server.pid)]
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, 9)
            server.wait(10)


async def connect(port: int, name: str):
    return await asyncio.wait_for(
        asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, client_keys=None), 20
    )


class Screen:
    def __init__(self, process) -> None:
        self.process, self.seen, self.last = process, b"", time.perf_counter()
        self.arrived = asyncio.Event()
        self.task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.seen, self.last = (self.seen + chunk)[-100_000:], time.perf_counter()
            self.arrived.set()

    async def wait_for(self, needle: bytes, timeout: float = 60) -> None:
        end = time.perf_counter() + timeout
        while needle not in self.seen and time.perf_counter() < end:
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), 0.5)


# ---------------------------------------------------------------- the attacks


async def paste_flood(python: str) -> str:
    async with serving(python) as (port, server):
        bystander = await connect(port, "bea")
        bea = Screen(
            await bystander.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        )
        attacker = await connect(port, "mal")
        mal = Screen(
            await attacker.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        )
        await bea.wait_for(b"parlor")
        await mal.wait_for(b"parlor")
        await asyncio.sleep(1.0)
        mal.process.stdin.write(b"x" * (1 << 20))
        await asyncio.sleep(0.5)
        times = []
        for n in range(KEYS):
            await asyncio.sleep(0.5)
            bea.arrived.clear()
            t0 = time.perf_counter()
            bea.process.stdin.write(b"\x1b[B" if n % 2 == 0 else b"\x1b[A")
            try:
                await asyncio.wait_for(bea.arrived.wait(), ECHO_WAIT)
                times.append((time.perf_counter() - t0) * 1000)
            except TimeoutError:
                times.append(ECHO_WAIT * 1000)
        apps = {pid: rss(pid) for pid in children(server.pid)}
        flooder = max(apps.values()) if apps else 0  # the bystander's app is the smaller
        for c in (bystander, attacker):
            c.abort()
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    missed = sum(1 for t in times if t >= ECHO_WAIT * 1000)
    mem = f"; the flooder's app {flooder / 2**20:.0f} MB"
    if missed:
        return f"p95 ≥ {ECHO_WAIT * 1000:.0f} ms ({missed} of {KEYS} keys no echo in {ECHO_WAIT:g} s){mem}"
    return f"p95 {p95:.0f} ms{mem}"


async def no_reader(python: str) -> str:
    async with serving(python) as (port, server):
        conn = await connect(port, "mal")
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(200, 60), encoding=None, window=16 << 10
        )
        await asyncio.sleep(3.0)
        before = rss(server.pid)
        end = time.perf_counter() + NO_READ_SECONDS
        n = 0
        while time.perf_counter() < end:
            with contextlib.suppress(Exception):
                process.change_terminal_size(200 - n % 2, 60)
            n += 1
            await asyncio.sleep(0.05)
        after = rss(server.pid)
        conn.abort()
    return f"{before / 2**20:.0f} → {after / 2**20:.0f} MB"


async def bad_sizes(python: str) -> str:
    async with serving(python, "--max-connections", "200") as (port, server):
        await asyncio.sleep(1.0)
        before = fds(server.pid)
        for n in range(BAD_SIZES):
            size, term = ((70000, 70000), "xterm") if n % 2 == 0 else ((80, 24), "xterm\x00x")
            try:
                conn = await connect(port, f"s{n}")
                process = await conn.create_process(term_type=term, term_size=size, encoding=None)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.stdout.read(1), 2)
                conn.abort()
            except (asyncssh.Error, OSError):
                pass
        for _ in range(100):  # every app gone and reaped
            if not children(server.pid):
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        after = fds(server.pid)
    return f"{before} → {after} fds"


async def connection_flood(python: str, *options: str) -> str:
    async with serving(python, "--max-connections", "10", *options) as (port, _):

        async def attempt(n: int):
            await asyncio.sleep(0.02 * n)  # one after another, each held open
            return await connect(port, f"p{n}")

        results = await asyncio.gather(*(attempt(n) for n in range(FLOOD)), return_exceptions=True)
        inside = [c for c in results if isinstance(c, asyncssh.SSHClientConnection)]
        await asyncio.sleep(1.0)
        alive = [c for c in inside if c._transport is not None]  # noqa: SLF001 - still open?
        for c in inside:
            c.abort()
    return f"{len(alive)} held"


async def largest_terminal(python: str) -> str:
    async with serving(python) as (port, server):
        conn = await connect(port, "big")
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(65535, 65535), encoding=None
        )
        screen = Screen(process)
        await screen.wait_for(b"parlor", timeout=BIG_SECONDS)
        process.stdin.write(b"\r")  # Gemelos: the dialog
        await asyncio.sleep(2.0)
        process.stdin.write(b"\r")  # start it
        end = time.perf_counter() + BIG_SECONDS
        n, peak = 0, 0
        while time.perf_counter() < end:
            process.change_terminal_size(65535 - n % 2, 65535)
            n += 1
            await asyncio.sleep(0.5)
            peak = max([peak] + [rss(pid) for pid in children(server.pid)])
        conn.abort()
    return f"{peak / 2**20:.0f} MB"


async def measure(python: str, label: str, after: bool) -> dict[str, str]:
    flood_options = ("--max-per-address", "100") if after else ()
    results = {}
    for name, attack in [
        ("paste flood (1 MB): bystander key→echo", paste_flood(python)),
        (f"no-reading client: server RSS after {NO_READ_SECONDS:.0f} s", no_reader(python)),
        (f"{BAD_SIZES} bad-size sessions: server fds", bad_sizes(python)),
        (f"{FLOOD}-connection flood, --max-connections 10", connection_flood(python, *flood_options)),
        ("one app at the largest terminal: RSS", largest_terminal(python)),
    ]:
        try:
            results[name] = await attack
        except Exception as e:  # an attack that broke the server is a figure too
            results[name] = f"failed: {type(e).__name__}: {e}"[:60]
        print(f"  {label}: {name}: {results[name]}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="PYTHON", help="a Python whose garito is the version before")
    args = parser.parse_args()
    columns = []
    if args.before:
        columns.append(("before", asyncio.run(measure(args.before, "before", after=False))))
    columns.append(("after", asyncio.run(measure(sys.executable, "after", after=True))))
    print()
    print("| attack | " + " | ".join(label for label, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name in columns[-1][1]:
        print(f"| {name} | " + " | ".join(c[name] for _, c in columns) + " |")


if __name__ == "__main__":
    main()
