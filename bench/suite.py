"""The benchmark table, every figure measured side by side in one run:

* start-up: first frame of Garito against a bare Textual app, alternated in
  a pseudo-terminal at 80×24 (ratio; target ≤ 1.5), for a player whose name
  is known (every start but the very first, every SSH login) and for the
  very first start, where the menu opens with the name asked;
* per game, in a pseudo-terminal at 80×24: bytes written for one typical
  action (a roll, a bet, a reroll; target ≤ 1,500) and the latency from a
  key to the end of the screen's update (median and p95 of 30 keys; target
  p95 ≤ 50 ms), then the app's peak memory (VmHWM; target ≤ 80 MB);
* per game, in a pseudo-terminal at 80×24: the app's CPU per key over a
  seeded match against the computer, keys at a person's pace (target median
  ≤ 8 ms), and the start-up CPU to the menu's first frame against a bare
  Textual app's (ratio; target ≤ 1.3);
* per game, in the core alone: full computer-vs-computer matches per second
  and the computer's decision time (p95 and worst; target p95 ≤ 100 ms).

    python bench/suite.py [--runs N] [--keys N] [--matches-cpu N] [--before PYTHON]

With ``--before PYTHON`` (the Python of another tree's installed Garito)
every screen figure is measured for both, launch by launch alternated in
the one run, and printed as before | after | ratio; the core figures are
this tree's alone.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from startup import read_until, spawn, stop

HERE = Path(__file__).resolve().parent
# -P: the folder the bench is run from is not put on the path, so a
# --before Python run from a checkout imports its own Garito, not the
# checkout's (the source tree's garito/ would shadow it).
LAUNCH = ["-P", "-c", "from garito.tui.cli import entry; entry()"]
GARITO = [sys.executable, *LAUNCH]

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


def latencies(garito: list[str], argv: list[str], before: list[bytes], key: bytes, home: str, keys: int = 30):
    """Key-to-screen times (ms) for ``key`` (alternated with its opposite)
    and the session's peak memory."""
    proc, master = spawn(garito + ["play", *argv], home)
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


def screen_figures(garito: list[str], game: str, home: str) -> tuple[int, float, float, int]:
    """(bytes of the typical action, latency median ms, p95 ms, peak RSS)."""
    argv, before, action, _, key, table = TABLES[game]
    proc, master = spawn(garito + ["play", *argv], home)
    read_until(master, None)
    for k in before:
        os.write(master, k)
        end_of_update(master, 0.4)
    os.write(master, action)
    size, _ = end_of_update(master, 0.4)
    peak = vm_hwm(proc.pid)
    stop(proc, master)
    times, peak2 = latencies(garito, table or argv, [] if table else before, key, home)
    return size, statistics.median(times), times[int(0.95 * len(times))], max(peak, peak2)


def dialog_figures(garito: list[str], home: str) -> list[tuple[int, float, int, float]]:
    """Each Space of a three-player Gemelos hot seat: (bytes, ms) of the key's
    own update (a roll, or the box closing), then (bytes, ms after the key)
    of a round's result box, which opens a moment after the round's last
    roll; (0, 0) where no box came."""
    proc, master = spawn(garito + ["play", "gemelos", "--seats", "human,human,human", "--seed", "7"], home)
    read_until(master, None)
    out = []
    for _ in range(16):
        t0 = time.perf_counter()
        os.write(master, b" ")
        # The key's own update is over once 0.1 s is quiet: the box opens
        # 0.15 s after the round's last roll (half the bench's pace), and
        # waiting 0.15 s counted it in the roll's time whenever the roll's
        # last byte came a millisecond later than the box's timer.
        n, last = end_of_update(master, 0.1)
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


# A match against the computer, keys at a person's pace: each game's keys,
# drawn (seeded) with its main action most often, so that most keys move the
# match on and the rest are the table's own choices. Never Escape or q.
MATCH_KEYS = {
    "gemelos": [b" "] * 5 + [b"\x1b[C"],
    "redman": [b" "] * 4 + [b"3", b"\x1b[C"],
    "barras": [b" "] * 4 + [b"\x1b[C"],
    "irwin": [b"\r"] * 3 + [b"\x1b[B", b"\x1b[C", b"x"],
    "decimus": [b"\r"] * 3 + [b"1", b"2", b"d"],
    "willie": [b"d", b"d", b"\x1b[C", b" ", b"\r", b"e"],
}
BOT_DELAY = "0.3"  # the computer's pause between its moves, as serve_load plays


def process_cpu(pid: int) -> float:
    """CPU seconds a process used, its waited-for children included (clock
    ticks: 10 ms steps, fine over a whole start-up or match)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def threads_cpu(pid: int) -> float:
    """CPU seconds, to the nanosecond, of a process's living threads (a
    thread that ended between two readings is missing from their difference)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def settle(master: int, quiet: float, limit: float = 10.0) -> bytes:
    """Read until the terminal has been quiet ``quiet`` seconds; the bytes."""
    import select

    data, start = b"", time.perf_counter()
    while time.perf_counter() - start < limit:
        r, _, _ = select.select([master], [], [], quiet)
        if not r:
            break
        chunk = os.read(master, 65536)
        if not chunk:
            break
        data += chunk
    return data


def match_cpu(garito: list[str], game: str, home: str, keys: int) -> tuple[float, float, int]:
    """Seeded matches against the computer, a rematch (n) whenever one ends:
    (median CPU ms of the keys that changed the screen, CPU ms over all of it
    divided by every key sent, keys that changed the screen). A key's CPU is
    the app's from the key until the screen has been quiet 0.5 s, the
    computer's answering moves included."""
    rng = random.Random(7)
    proc, master = spawn(garito + ["play", game, "--seats", "human,computer", "--seed", "7"], home)
    read_until(master, None)
    shown = settle(master, 0.5)
    start = process_cpu(proc.pid)
    per_key = keys_cpu(
        proc.pid,
        master,
        keys,
        lambda shown: b"n" if b"rematch" in shown else rng.choice(MATCH_KEYS[game]),
        shown,
    )
    total = process_cpu(proc.pid) - start
    stop(proc, master)
    return statistics.median(per_key) * 1000, total * 1000 / keys, len(per_key)


def keys_cpu(pid: int, master: int, keys: int, key: Callable[[bytes], bytes], shown: bytes) -> list[float]:
    """``keys`` keys at a person's pace, each ``key(what the screen last
    showed)``, ``shown`` before the first: the CPU seconds of each key that
    changed the screen, from the key until the terminal has been quiet 0.5 s."""
    per_key = []
    for _ in range(keys):
        before = threads_cpu(pid)
        os.write(master, key(shown))
        shown = settle(master, 0.5)
        if shown:
            per_key.append(threads_cpu(pid) - before)
        time.sleep(0.1)
    return per_key


def start_cpu(
    argv: list[str], marker: bytes, home: str, env: dict[str, str] | None = None
) -> tuple[float, float]:
    """(seconds to the first frame, CPU seconds the process used to it:
    its threads' to the nanosecond, where the clock ticks' 10 ms steps were
    a twentieth of a start, as much as the difference measured)."""
    t0 = time.perf_counter()
    proc, master = spawn(argv, home, env)
    data, seen = read_until(master, marker)  # returns once the frame has settled
    used = threads_cpu(proc.pid)
    stop(proc, master)
    if marker not in data:
        raise SystemExit(f"never saw {marker!r} from {argv}")
    return seen - t0, used


MENU, BARE = b"parlor of dice", b"hello garito"
# A name known (as a local player's settings or an SSH login give it): the
# menu alone. The very first start opens it with the name asked.
KNOWN = {"GARITO_PLAYER": "Ana"}


def startup(trees: dict[str, str], runs: int, home: str) -> dict[str, tuple[float, ...]]:
    """Per tree: (garito ms, bare ms, ratio of times, ratio of CPU, and for
    the very first start: garito ms, ratio of CPU), each tree's own bare
    Textual app in its own Python, launches alternated."""
    clock: dict[str, dict[str, list[float]]] = {t: {"g": [], "b": [], "f": []} for t in trees}
    cpu: dict[str, dict[str, list[float]]] = {t: {"g": [], "b": [], "f": []} for t in trees}
    for python in trees.values():
        # warm the disk cache, and compile each tree's bytecode (see main)
        start_cpu([python, *LAUNCH], MENU, home)
        start_cpu([python, str(HERE / "bare_app.py")], BARE, home)
    for _ in range(runs):
        for tree, python in trees.items():
            for who, argv, marker, env in (
                ("b", [python, str(HERE / "bare_app.py")], BARE, None),
                ("g", [python, *LAUNCH], MENU, KNOWN),
                ("f", [python, *LAUNCH], MENU, None),
            ):
                t, c = start_cpu(argv, marker, home, env)
                clock[tree][who].append(t)
                cpu[tree][who].append(c)
    out = {}
    for tree in trees:
        g, b, f = (statistics.median(clock[tree][w]) for w in "gbf")
        gc, bc, fc = (statistics.median(cpu[tree][w]) for w in "gbf")
        out[tree] = (g * 1000, b * 1000, g / b, gc / bc, f * 1000, fc / bc)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="start-up runs of each app")
    ap.add_argument("--matches", type=int, default=200, help="core matches per game")
    ap.add_argument("--keys", type=int, default=40, help="keys of each match against the computer")
    ap.add_argument(
        "--matches-cpu", type=int, default=1, help="matches against the computer per game and tree (medians)"
    )
    ap.add_argument("--before", metavar="PYTHON", help="another tree's Python, measured alongside")
    ap.add_argument("--games", default=",".join(TABLES), help="games to measure (comma-separated)")
    ap.add_argument("--startup-only", action="store_true", help="measure the start-up alone")
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g]
    if unknown := [g for g in games if g not in TABLES]:
        ap.error(f"unknown game {unknown[0]!r}")
    os.environ["GARITO_BOT_DELAY"] = BOT_DELAY
    # Each launch reads its modules' bytecode, compiled by the first, as an
    # installed Garito and Textual do (pip compiles it): where the
    # environment forbids writing it (PYTHONDONTWRITEBYTECODE), every launch
    # compiled Garito's modules anew. Kept apart, not in the trees.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    bytecode = tempfile.TemporaryDirectory()
    os.environ["PYTHONPYCACHEPREFIX"] = bytecode.name
    trees = {"after": sys.executable}
    if args.before:
        trees = {"before": args.before, "after": sys.executable}
    with tempfile.TemporaryDirectory() as home:
        starts = startup(trees, args.runs, home)
        if args.startup_only:
            if args.before:
                compare(starts, {}, {}, [], args)
            else:
                print_startup(starts["after"], args)
            return
        rows: dict[str, dict[str, tuple]] = {t: {} for t in trees}
        for game in games:
            for tree, python in trees.items():
                rows[tree][game] = screen_figures([python, *LAUNCH], game, home)
            # One match's median moves by a fifth from run to run on this
            # machine: each tree plays the same match --matches-cpu times,
            # the trees taking turns, and the medians of its figures count.
            played: dict[str, list[tuple[float, float, int]]] = {t: [] for t in trees}
            for _ in range(args.matches_cpu):
                for tree, python in trees.items():
                    played[tree].append(match_cpu([python, *LAUNCH], game, home, args.keys))
            for tree in trees:
                rows[tree][game] += tuple(statistics.median(f[i] for f in played[tree]) for i in range(3))
        boxes = {tree: dialog_figures([python, *LAUNCH], home) for tree, python in trees.items()}
    if args.before:
        compare(starts, rows, boxes, games, args)
        return
    print_startup(starts["after"], args)
    print()
    after = rows["after"]
    peak = max(r[3] for r in after.values())
    print(
        f"{'game':<9}{'action':<10}{'bytes':>7}{'key→screen ms':>15}{'p95':>6}{'CPU/key':>9}{'total/key':>10}"
        f"{'matches/s':>11}{'bot p95 ms':>11}{'worst':>7}"
    )
    for game, (size, median, p95, _, cpu, total, _moved) in after.items():
        # Willie's hard seat searches the table (seconds per match): fewer of them
        speed, bot95, worst = core_figures(game, args.matches // 10 if game == "willie" else args.matches)
        action = TABLES[game][3]
        print(
            f"{game:<9}{action:<10}{size:>7,}{median:>15.1f}{p95:>6.1f}{cpu:>9.1f}{total:>10.1f}"
            f"{speed:>11,.0f}{bot95:>11.2f}{worst:>7.1f}"
        )
    print(
        "\ntargets: bytes <= 1,500; key→screen p95 <= 50 ms; CPU/key <= 8 ms; "
        "bot p95 <= 100 ms (outside Willie)"
    )
    print("key→screen: the table's own keys (amounts, choices); result boxes are below")
    print(
        f"CPU/key: median ms of the app's CPU per key over {args.keys} keys of matches against the computer"
        " (the key and the computer's answer, living threads; keys that changed the screen);"
    )
    print("  total/key: all its CPU over the match (every thread) divided by the keys")
    every = sorted(ms for _, ms, _, _ in boxes["after"])
    opened = [(n, ms) for _, _, n, ms in boxes["after"] if n]
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


def print_startup(start: tuple[float, ...], args) -> None:
    g, b, ratio, cpu_ratio, first, first_cpu = start
    print(f"start-up, first frame: garito {g:.0f} ms, bare Textual {b:.0f} ms,")
    print(f"  ratio {ratio:.2f} (target <= 1.5; median of {args.runs} runs each, alternated)")
    print(f"  CPU to the first frame: ratio {cpu_ratio:.2f} (target <= 1.3)")
    print(f"  the very first start (the name asked): {first:.0f} ms, CPU ratio {first_cpu:.2f}")


def compare(starts, rows, boxes, games, args) -> None:
    """The screen figures of both trees: before | after | after/before."""

    def line(name: str, b: float, a: float, fmt: str = "{:.1f}") -> None:
        ratio = f"{a / b:.2f}" if b else "-"
        print(f"{name:<34}{fmt.format(b):>10}{fmt.format(a):>10}{ratio:>8}")

    print(f"{'':<34}{'before':>10}{'after':>10}{'ratio':>8}")
    for i, name in enumerate(("start-up, garito ms", "start-up, bare Textual ms")):
        line(name, starts["before"][i], starts["after"][i], "{:.0f}")
    line("start-up ratio to bare (time)", starts["before"][2], starts["after"][2], "{:.2f}")
    line("start-up ratio to bare (CPU)", starts["before"][3], starts["after"][3], "{:.2f}")
    line("first start (name asked), ms", starts["before"][4], starts["after"][4], "{:.0f}")
    line("first start, ratio to bare (CPU)", starts["before"][5], starts["after"][5], "{:.2f}")
    if not games:  # --startup-only
        print(f"\nmedian of {args.runs} start-ups each, launches alternated, bytecode compiled by the first")
        return
    for game in games:
        b, a = rows["before"][game], rows["after"][game]
        line(f"{game}: bytes, {TABLES[game][3]}", b[0], a[0], "{:,.0f}")
        line(f"{game}: key→screen median ms", b[1], a[1])
        line(f"{game}: key→screen p95 ms", b[2], a[2])
        line(f"{game}: CPU ms/key, median", b[4], a[4])
        line(f"{game}: CPU ms/key, total/keys", b[5], a[5])
        line(f"{game}: keys that changed screen", b[6], a[6], "{:.0f}")
    for tree in ("before", "after"):
        every = sorted(ms for _, ms, _, _ in boxes[tree])
        boxes[tree] = (statistics.median(every), every[int(0.95 * len(every))])
    line("Gemelos hot seat Space median ms", boxes["before"][0], boxes["after"][0])
    line("Gemelos hot seat Space p95 ms", boxes["before"][1], boxes["after"][1])
    peak = {t: max(r[3] for r in rows[t].values()) / 2**20 for t in rows}
    line("peak memory MB RSS", peak["before"], peak["after"], "{:.0f}")
    print(
        f"\nmedian of {args.runs} start-ups each, launches alternated; "
        f"{args.matches_cpu} match(es) of {args.keys} keys against the computer per game and tree, "
        "taking turns (medians)"
    )
    print(
        "CPU ms/key median: the app's living threads from a key until 0.5 s quiet "
        "(the computer's moves included), keys that changed the screen;"
    )
    print("  total/keys: every thread's CPU over the match divided by the keys")


if __name__ == "__main__":
    main()
