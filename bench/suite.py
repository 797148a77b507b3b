"""The benchmark table, every figure measured side by side in one run:

* start-up: first frame of Garito against a bare Textual app, alternated in
  a pseudo-terminal at 80×24 (ratio; target ≤ 1.5);
* per game, in a pseudo-terminal at 80×24: bytes written for one typical
  action (a roll, a bet, a reroll; target ≤ 1,500) and the latency from a
  key to the end of the screen's update (median and p95 of 30 keys; target
  p95 ≤ 50 ms), then the app's peak memory (VmHWM; target ≤ 80 MB);
* per game, in the core alone: full computer-vs-computer matches per second
  and the computer's decision time (p95 and worst; target p95 ≤ 100 ms).

    python bench/suite.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from startup import first_frame, read_until, spawn, stop

HERE = Path(__file__).resolve().parent
GARITO = [sys.executable, "-c", "from garito.tui.cli import entry; entry()"]

# game: (arguments after "play", keys before the measured action, the
# action and what it is, the key repeated for the latency and, where the
# typical action's table has no such key, the table to measure it at)
TABLES = {
    "gemelos": (
        ["gemelos", "--seats", "human,human", "--seed", "7"],
        [],
        b" ",
        "a roll",
        b"\x1b[C",
        ["gemelos", "--seats", "human,human", "--seed", "7", "--rule", "stakes=before-roll"],
    ),
    "redman": (
        ["redman", "--seats", "human,human", "--seed", "7", "--rule", "bets=off"],
        [],
        b" ",
        "a roll",
        b"\x1b[C",
        ["redman", "--seats", "human,human", "--seed", "7"],
    ),
    "barras": (["barras", "--seats", "human,human", "--seed", "7"], [], b" ", "a bet", b"\x1b[C", None),
    "irwin": (["irwin", "--seats", "human,human", "--seed", "7"], [], b"\r", "a throw", b"\x1b[B", None),
    "decimus": (
        ["decimus", "--seats", "human,human", "--seed", "7"],
        [b"\r", b"1"],
        b"\r",
        "a reroll",
        b"2",
        None,
    ),
    "willie": (["willie", "--seats", "human,human", "--seed", "7"], [b"\r"], b"d", "a draw", b"\x1b[C", None),
}
OPPOSITE = {b"\x1b[C": b"\x1b[D", b"\x1b[B": b"\x1b[A"}


def vm_hwm(pid: int) -> int:
    """Peak resident memory of a process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def end_of_update(master: int, quiet: float = 0.15) -> tuple[int, float]:
    """Bytes of one screen update and when its last byte came."""
    import select

    data, last = 0, None
    while True:
        r, _, _ = select.select([master], [], [], quiet)
        if not r:
            return data, last or time.perf_counter()
        chunk = os.read(master, 65536)
        if not chunk:
            return data, last or time.perf_counter()
        data += len(chunk)
        last = time.perf_counter()


def latencies(argv: list[str], before: list[bytes], key: bytes, home: str, keys: int = 30):
    """Key-to-screen times (ms) for ``key`` (alternated with its opposite)
    and the session's peak memory."""
    proc, master = spawn(GARITO + ["play", *argv], home)
    read_until(master, None)  # the first frame, settled
    for k in before:
        os.write(master, k)
        end_of_update(master, 0.4)
    times = []
    for i in range(keys):
        k = key if i % 2 == 0 else OPPOSITE.get(key, key)
        t0 = time.perf_counter()
        os.write(master, k)
        n, last = end_of_update(master)
        if n:
            times.append((last - t0) * 1000)
        time.sleep(0.05)
    peak = vm_hwm(proc.pid)
    stop(proc, master)
    return sorted(times), peak


def screen_figures(game: str, home: str) -> tuple[int, float, float, int]:
    """(bytes of the typical action, latency median ms, p95 ms, peak RSS)."""
    argv, before, action, _, key, table = TABLES[game]
    proc, master = spawn(GARITO + ["play", *argv], home)
    read_until(master, None)
    for k in before:
        os.write(master, k)
        end_of_update(master, 0.4)
    os.write(master, action)
    size, _ = end_of_update(master, 0.4)
    peak = vm_hwm(proc.pid)
    stop(proc, master)
    times, peak2 = latencies(table or argv, [] if table else before, key, home)
    return size, statistics.median(times), times[int(0.95 * len(times))], max(peak, peak2)


def dialog_figures(home: str) -> list[tuple[int, float, int, float]]:
    """Each Space of a three-player Gemelos hot seat: (bytes, ms) of the key's
    own update (a roll, or the box closing), then (bytes, ms after the key)
    of a round's result box, which opens a moment after the round's last
    roll; (0, 0) where no box came."""
    proc, master = spawn(GARITO + ["play", "gemelos", "--seats", "human,human,human", "--seed", "7"], home)
    read_until(master, None)
    out = []
    for _ in range(16):
        t0 = time.perf_counter()
        os.write(master, b" ")
        n, last = end_of_update(master)
        box, box_last = end_of_update(master, 0.6)  # the result box, if one comes
        out.append((n, (last - t0) * 1000, box, (box_last - t0) * 1000 if box else 0.0))
        time.sleep(0.05)
    stop(proc, master)
    return out


def core_figures(game: str, matches: int) -> tuple[float, float, float]:
    """(matches per second, decision p95 ms, worst ms), computer seats only."""
    from garito.core import catalog

    rules = catalog.rules(game)
    config = rules.default_config()
    levels = rules.default_levels
    seats = [levels[i % len(levels)] for i in range(config.players)]
    clock: list[float] = []
    start = time.perf_counter()
    for seed in range(matches):
        s = rules.new_game(config, seed)
        for _ in range(20_000):
            if rules.is_over(s):
                break
            seat = rules.to_act(s)
            t0 = time.perf_counter()
            a = rules.choose(rules.view(s, seat), rules.legal_actions(s), seats[seat])
            clock.append(time.perf_counter() - t0)
            s = rules.apply(s, a)
    took = time.perf_counter() - start
    clock.sort()
    return matches / took, clock[int(0.95 * len(clock))] * 1000, clock[-1] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="start-up runs of each app")
    ap.add_argument("--matches", type=int, default=200, help="core matches per game")
    args = ap.parse_args()
    bare = [sys.executable, str(HERE / "bare_app.py")]
    with tempfile.TemporaryDirectory() as home:
        first_frame(GARITO, b"parlor of dice", home)
        first_frame(bare, b"hello garito", home)
        times: dict[str, list[float]] = {"garito": [], "bare": []}
        for _ in range(args.runs):
            times["bare"].append(first_frame(bare, b"hello garito", home)[0])
            times["garito"].append(first_frame(GARITO, b"parlor of dice", home)[0])
        g, b = statistics.median(times["garito"]), statistics.median(times["bare"])
        print(f"start-up, first frame: garito {g * 1000:.0f} ms, bare Textual {b * 1000:.0f} ms,")
        print(f"  ratio {g / b:.2f} (target <= 1.5; median of {args.runs} runs each, alternated)\n")
        rows = {game: screen_figures(game, home) for game in TABLES}
        boxes = dialog_figures(home)
    peak = max(r[3] for r in rows.values())
    print(
        f"{'game':<9}{'action':<10}{'bytes':>7}{'key→screen ms':>15}{'p95':>6}"
        f"{'matches/s':>11}{'bot p95 ms':>11}{'worst':>7}"
    )
    for game, (size, median, p95, _) in rows.items():
        # Willie's hard seat searches the table (seconds per match): fewer of them
        speed, bot95, worst = core_figures(game, args.matches // 10 if game == "willie" else args.matches)
        action = TABLES[game][3]
        print(
            f"{game:<9}{action:<10}{size:>7,}{median:>15.1f}{p95:>6.1f}{speed:>11,.0f}{bot95:>11.2f}{worst:>7.1f}"
        )
    print("\ntargets: bytes <= 1,500; key→screen p95 <= 50 ms; bot p95 <= 100 ms (outside Willie)")
    print("key→screen: the table's own keys (amounts, choices); result boxes are below")
    every = sorted(ms for _, ms, _, _ in boxes)
    opened = [(n, ms) for _, _, n, ms in boxes if n]
    print(
        f"Gemelos hot seat, 16 Spaces: key→screen {statistics.median(every):.0f} ms median, "
        f"p95 {every[int(0.95 * len(every))]:.0f} ms, worst {every[-1]:.0f} ms "
        "(rolls, and closing result boxes);"
    )
    print(
        "  each round's result box opens 0.35 s after its last roll (then: bytes, ms after the key): "
        + ", ".join(f"{n / 1000:.1f} KB at {ms:.0f} ms" for n, ms in opened)
    )
    print(f"peak memory of the app over these sessions: {peak / 2**20:.0f} MB RSS (target <= 80 MB)")


if __name__ == "__main__":
    main()
