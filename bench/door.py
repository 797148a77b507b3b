"""``garito serve``'s door under clients that never log in, on loopback
only, bounded: the figures of the closing note, for this version and (with
``--before``) another, side by side in one run.

For each version, a fresh ``garito serve --guests`` (a process of its own,
a fresh home, the default limits: 50 connections, 8 an address) and:

* **stalled clients**: from seven addresses (127.0.0.2 to 127.0.0.8), eight
  connections each, every one sending its banner a byte every two seconds
  and nothing else, reopened at once whenever the server closes it; after
  two seconds, a real login (asyncssh, from 127.0.0.1) every second until
  the end: from its first byte to the menu on its 80x24 screen. Printed:
  the logins that reached the menu within 3 s, of all; their median, 95th
  percentile and worst (one that never got there counts as the run's
  length); and how many connections the stalled clients opened;
* **ssh-audit** (3.9, from PyPI, the test extra): its ``[fail]`` lines and
  the verdict of its connection-rate (DHEat) test, on a server nobody else
  is using.

    python bench/door.py [--before PYTHON] [--seconds 20]

PYTHON: one whose ``garito`` is the version to compare with (for example a
venv with main's last commit installed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import asyncssh

ATTACKERS = [f"127.0.0.{n}" for n in range(2, 9)]
EACH = 8
IN_TIME = 3.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.asynccontextmanager
async def serving(python: str):
    port = free_port()
    home = tempfile.mkdtemp(prefix="garito-door-")
    process = subprocess.Popen(
        [python, "-m", "garito.tui.cli", "serve", "--guests", "--host", "127.0.0.1", "--port", str(port)],
        env={"GARITO_HOME": home, "PATH": "/usr/bin:/bin"},
        cwd=home,  # not this checkout: ``-m`` would import its garito, whichever Python
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(200):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(3)  # the door's allowance for this address, back after the probe
        yield port
    finally:
        process.kill()
        process.wait(10)


async def stall(address: str, port: int, until: float, opened: list[int]) -> None:
    async def one() -> None:
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
            except OSError:
                await asyncio.sleep(0.05)
                continue
            opened[0] += 1
            try:
                for byte in b"SSH-2.0-drip\r\n":
                    writer.write(bytes([byte]))
                    with contextlib.suppress(TimeoutError):
                        if not await asyncio.wait_for(reader.read(4096), 2.0) and reader.at_eof():
                            break
                    if time.monotonic() >= until:
                        break
            except OSError:
                pass
            finally:
                writer.close()

    await asyncio.gather(*(one() for _ in range(EACH)))


async def login(port: int, name: str, limit: float) -> float | None:
    """Seconds from the first byte to the menu; None if it never got there
    (refused, or not within ``limit``)."""
    started = time.perf_counter()
    try:
        async with asyncio.timeout(limit):
            options = {"username": name, "known_hosts": None, "client_keys": None}
            async with await asyncssh.connect("127.0.0.1", port, **options) as conn:
                process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
                seen = ""
                while "parlor" not in seen:
                    chunk = await process.stdout.read(65536)
                    if not chunk:
                        return None
                    seen += chunk
                return time.perf_counter() - started
    except (TimeoutError, OSError, asyncssh.Error):
        return None


async def stalled(python: str, seconds: float) -> str:
    async with serving(python) as port:
        until = time.monotonic() + seconds
        # In a process of their own: their loop is not the logins' loop.
        attackers = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--stall", str(port), str(seconds), stdout=subprocess.PIPE
        )
        await asyncio.sleep(2)
        times: list[float] = []  # a login that never got there counts as the run's length
        n = 0
        while time.monotonic() < until - 1:
            n += 1
            began = time.monotonic()
            took = await login(port, f"p{n}", max(1.0, until - began))
            times.append(seconds if took is None else took)
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - began)))  # one a second
        out, _ = await attackers.communicate()
        opened = int(out.decode().strip() or 0)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    fast = sum(t <= IN_TIME for t in times)
    return (
        f"{fast} of {len(times)} logins at the menu within {IN_TIME:.0f} s; "
        f"p50 {statistics.median(times):.2f} s, p95 {p95:.2f} s, worst {times[-1]:.2f} s; "
        f"the stalled clients opened {opened} connections"
    )


async def audit(python: str) -> str:
    async with serving(python) as port:
        done = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "ssh_audit", "-p", str(port), "127.0.0.1"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    report = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout)
    fails = [line.split("--")[0].strip() for line in report.splitlines() if "[fail]" in line]
    dheat = re.search(r"(\d+) connections were created in ([\d.]+) seconds, or ([\d.]+) conns/sec", report)
    rate = f"rate test failed: {dheat.group(3)} conns/sec" if dheat else "rate test passed"
    return f"{len(fails)} [fail] lines{': ' + ', '.join(fails) if fails else ''}; {rate}"


async def run(versions: list[tuple[str, str]], seconds: float) -> None:
    for label, python in versions:
        print(f"{label}:", flush=True)
        print(
            f"  stalled clients from {len(ATTACKERS)} addresses: {await stalled(python, seconds)}", flush=True
        )
        print(f"  ssh-audit: {await audit(python)}", flush=True)


async def attack(port: int, seconds: float) -> None:
    until = time.monotonic() + seconds
    opened = [0]
    await asyncio.gather(*(stall(a, port, until, opened) for a in ATTACKERS))
    print(opened[0], flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="PYTHON")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--stall", nargs=2, metavar=("PORT", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stall:
        asyncio.run(attack(int(args.stall[0]), float(args.stall[1])))
        return
    versions = [("before", args.before)] if args.before else []
    asyncio.run(run([*versions, ("this version", sys.executable)], args.seconds))


if __name__ == "__main__":
    main()
