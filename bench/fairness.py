"""A worker's players share it fairly: a bystander's key→echo while a
neighbour in the same worker pastes, floods or repaints, before and after.

Each case runs on a fresh ``garito serve --guests --workers 1`` (so the
bystander is in the neighbour's worker), loopback only, bounded:

* paste: the neighbour sends 1 MB of plain keys with no bracketed-paste
  markers at the menu;
* arrow flood: 256 KB of ↓ and ↑ (every one of them moves the menu's cursor
  and repaints);
* resize flood: 2,000 window changes a second between 80×24 and 200×60;
* slow repaint: a 500×200 terminal whose player holds ↓/↑ (each key
  repaints 100,000 cells).

Meanwhile the bystander, at the menu, presses ↓ or ↑ every 0.25 s for 8 s.
With ``--busy N``, N other processes keep the machine's cores busy the
whole time (a loop each, at the server's own priority): the same cases on a
loaded host.
Printed per case: the worst and the 95th-percentile key→echo in ms (a key
with no echo within ``ECHO_WAIT`` counts as that long) and how many keys
missed their echo.

    python bench/fairness.py [--before PYTHON] [--cases paste,arrows] [--busy N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import sys
import time

from serve_attacks import Screen, connect, serving

ECHO_WAIT = 5.0
WATCH = 8.0  # seconds the bystander is watched after the neighbour starts
GAP = 0.25  # seconds between the bystander's keys


async def session(port: int, name: str, size=(80, 24)):
    conn = await connect(port, name)
    screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None))
    await screen.wait_for(b"parlor")
    return conn, screen


async def paste(proc) -> None:
    proc.stdin.write(b"x" * (1 << 20))


async def arrows(proc) -> None:
    proc.stdin.write(b"\x1b[B\x1b[A" * (1 << 15))


async def resizes(proc) -> None:
    end = time.perf_counter() + WATCH
    n = 0
    while time.perf_counter() < end:
        for _ in range(20):
            n += 1
            proc.change_terminal_size(*((200, 60) if n % 2 else (80, 24)))
        await asyncio.sleep(0.01)


async def repaints(proc) -> None:
    end = time.perf_counter() + WATCH
    n = 0
    while time.perf_counter() < end:
        n += 1
        proc.stdin.write(b"\x1b[B" if n % 2 else b"\x1b[A")
        await asyncio.sleep(0.005)


CASES = {
    "paste 1 MB": (paste, (80, 24)),
    "arrow flood 256 KB": (arrows, (80, 24)),
    "resize flood": (resizes, (80, 24)),
    "slow repaint 500x200": (repaints, (500, 200)),
}


async def case(python: str, neighbour, size) -> str:
    async with serving(python, "--workers", "1") as (port, _server):
        by_conn, bea = await session(port, "bea")
        mal_conn, mal = await session(port, "mal", size)
        await asyncio.sleep(1.0)
        attack = asyncio.create_task(neighbour(mal.process))
        times = []
        end = time.perf_counter() + WATCH
        n = 0
        while time.perf_counter() < end:
            await asyncio.sleep(GAP)
            n += 1
            bea.arrived.clear()
            t0 = time.perf_counter()
            bea.process.stdin.write(b"\x1b[B" if n % 2 else b"\x1b[A")
            try:
                await asyncio.wait_for(bea.arrived.wait(), ECHO_WAIT)
                times.append((time.perf_counter() - t0) * 1000)
            except TimeoutError:
                times.append(ECHO_WAIT * 1000)
        attack.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await attack
        for c in (by_conn, mal_conn):
            c.abort()
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    missed = sum(1 for t in times if t >= ECHO_WAIT * 1000)
    return f"worst {times[-1]:.0f}, p95 {p95:.0f}" + (f", {missed} missed" if missed else "")


@contextlib.contextmanager
def busy(count: int):
    """``count`` processes that each keep a core busy until the end."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


async def measure(python: str, label: str, names: list[str], hogs: int = 0) -> dict[str, str]:
    out = {}
    for name in names:
        fn, size = CASES[name]
        try:
            with busy(hogs):
                out[name] = await case(python, fn, size)
        except Exception as e:  # a case that broke the server is a figure too
            out[name] = f"failed: {type(e).__name__}: {e}"[:60]
        print(f"  {label}: {name}: {out[name]}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="PYTHON", help="a Python whose garito is the version before")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated: " + ", ".join(CASES))
    parser.add_argument("--busy", type=int, default=0, metavar="N", help="processes keeping cores busy")
    args = parser.parse_args()
    names = [n for n in CASES if any(n.startswith(c.strip()) for c in args.cases.split(","))]
    columns = []
    if args.before:
        columns.append(("before", asyncio.run(measure(args.before, "before", names, args.busy))))
    columns.append(("after", asyncio.run(measure(sys.executable, "after", names, args.busy))))
    print()
    load = f", {args.busy} busy processes beside" if args.busy else ""
    print(f"bystander key→echo, ms, over 8 s (one worker: --workers 1{load})")
    print("| neighbour | " + " | ".join(label for label, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name in names:
        print(f"| {name} | " + " | ".join(c[name] for _, c in columns) + " |")


if __name__ == "__main__":
    main()
