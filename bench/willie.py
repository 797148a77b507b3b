"""Willie figures, side by side in one run:

* ``best_play`` time over 1,000 random mid-game positions (a legal table of
  15–45 cards built meld by meld, a hand of 5–12 from the cards left):
  median, 90th and 99th percentile, worst; beside it the normal seat's
  budgeted search on the same positions, and the same figures over the
  positions that come up in real (computer) matches;
* the two wild rules side by side: the exact search under open wilds on
  the first ``open`` of those (strict) positions, and on as many positions
  built with wilds standing for table cards; and, over ``open`` matches of
  normal seats under open wilds, how often a table holds a wild standing
  for a card that is also on it;
* hard v normal and normal v easy over 500 seeded two-player matches each,
  seats alternating, with 95% intervals;
* how long each computer level takes to decide.

    python bench/willie.py [positions] [matches] [open]   (defaults 1,000, 500 and 100)
"""

from __future__ import annotations

import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from garito.core.willie import Config, apply, best_play, is_over, legal_actions, new_game, to_act, view
from garito.core.willie.bot import NORMAL_BUDGET, choose
from garito.core.willie.positions import random_position


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def timed(positions, budget=None) -> list[float]:
    out = []
    for table, hand in positions:
        start = time.perf_counter()
        best_play(table, hand, budget=budget, strict=True)
        out.append((time.perf_counter() - start) * 1000)
    return out


def row(label: str, ms: list[float]) -> str:
    return (
        f"  {label:<34} {percentile(ms, 0.5):7.1f} {percentile(ms, 0.9):7.1f} "
        f"{percentile(ms, 0.99):7.1f} {max(ms):7.1f}"
    )


def match(seed: int, levels, clocks=None, positions=None, config=None) -> int | None:
    s = new_game(config or Config(), seed)
    while not is_over(s):
        seat = to_act(s)
        v = view(s, seat)
        if positions is not None and s.stage == "meld" and s.table:
            positions.append(([list(m) for m in s.table], list(v.hand)))
        start = time.perf_counter()
        a = choose(v, legal_actions(s), levels[seat])
        if clocks is not None:
            clocks[levels[seat]].append((time.perf_counter() - start) * 1000)
        s = apply(s, a)
    return s.winner_seat


def duel(args) -> int:
    lo, hi, a, b = args
    wins = 0
    for seed in range(lo, hi):
        levels = (a, b) if seed % 2 == 0 else (b, a)
        w = match(seed, levels)
        wins += w is not None and levels[w] == a
    return wins


def rate(a: str, b: str, matches: int, pool, workers: int) -> tuple[float, float]:
    step = -(-matches // workers)
    chunks = [(lo, min(matches, lo + step), a, b) for lo in range(0, matches, step)]
    share = sum(pool.map(duel, chunks)) / matches
    return share, 1.96 * (share * (1 - share) / matches) ** 0.5


def timed_open(positions) -> list[float]:
    out = []
    for table, hand in positions:
        start = time.perf_counter()
        best_play(table, hand, strict=False)
        out.append((time.perf_counter() - start) * 1000)
    return out


def wild_on_table(table) -> bool:
    """A wild stands for a card that is also on the table."""
    reals = {c for m in table for c in m if "=" not in c and c not in "JQK"}
    return any("=" in c and c.split("=")[1] in reals for m in table for c in m)


def open_share(matches: int) -> tuple[int, int, int]:
    """Over ``matches`` matches of normal seats under open wilds: the tables
    played, those with a wild standing for a card also on the table, and the
    matches where that happened at least once."""
    tables = hits = in_matches = 0
    for seed in range(matches):
        s = new_game(Config(wilds="open"), seed)
        seen = False
        while not is_over(s):
            seat = to_act(s)
            action = choose(view(s, seat), legal_actions(s), "normal")
            s = apply(s, action)
            if action.kind == "meld":  # the table it leaves
                tables += 1
                if wild_on_table(action.table):
                    hits += 1
                    seen = True
        in_matches += seen
    return tables, hits, in_matches


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000
    matches = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    n_open = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    rng = random.Random(2026)
    positions = [random_position(rng, rng.randint(15, 45), rng.randint(5, 12), strict=True) for _ in range(n)]
    sizes = sorted(sum(map(len, t)) for t, _ in positions)
    print(
        f"best_play over {n:,} random mid-game positions (table {sizes[0]}–{sizes[-1]} cards, hand 5–12), ms"
    )
    print(f"  {'search':<34} {'median':>7} {'p90':>7} {'p99':>7} {'worst':>7}")
    exact = timed(positions)
    print(row("exact, strict wilds (targets 20 / 200)", exact))
    print(row(f"budget {NORMAL_BUDGET} states per cell (normal)", timed(positions, NORMAL_BUDGET)))
    big = [p for p in positions if sum(map(len, p[0])) >= 40]
    print(row(f"exact, the {len(big)} tables of 40+ cards", timed(big)))
    played: list = []
    clocks: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
    for seed in range(60):
        match(seed, ("hard", "normal") if seed % 2 else ("normal", "easy"), clocks, played)
    print(row(f"exact, {len(played):,} real-match positions", timed(played)))

    print("\nOpen wilds (a wild may stand for a card on the table), ms")
    print(f"  {'search':<34} {'median':>7} {'p90':>7} {'p99':>7} {'worst':>7}")
    same = positions[:n_open]
    print(row(f"strict, the first {len(same)} positions", timed(same)))
    print(row(f"open, the same {len(same)}", timed_open(same)))
    rng = random.Random(2027)
    built = [random_position(rng, rng.randint(15, 45), rng.randint(5, 12)) for _ in range(n_open)]
    share = sum(wild_on_table(t) for t, _ in built)
    print(row(f"open, {n_open} with table-card wilds ({share})", timed_open(built)))
    tables, hits, in_matches = open_share(matches)
    print(
        f"\n{matches} matches of normal seats under open wilds: {hits:,} of {tables:,} tables "
        f"({hits / max(1, tables):.1%}) hold a wild standing for a card also on the table; "
        f"in {in_matches} matches ({in_matches / max(1, matches):.0%}) at least once"
    )

    workers = max(1, min(8, os.cpu_count() or 1))
    with ProcessPoolExecutor(workers) as pool:
        start = time.perf_counter()
        lines = []
        for a, b in (("hard", "normal"), ("normal", "easy")):
            share, margin = rate(a, b, matches, pool, workers)
            lines.append(f"  {a} beats {b:<7} {share:6.1%} ± {margin:.1%}")
        took = time.perf_counter() - start
    print(
        f"\nTwo-player matches to 25, {matches:,} seeded each, seats alternating "
        f"({workers} processes, {took:.0f} s)"
    )
    print("\n".join(lines))

    print("\nComputer decision time (ms), every decision of 60 matches")
    print(f"  {'level':<8} {'decisions':>9} {'median':>7} {'p95':>7} {'worst':>7}")
    for level, ms in clocks.items():
        print(
            f"  {level:<8} {len(ms):>9,} {percentile(ms, 0.5):7.2f} "
            f"{percentile(ms, 0.95):7.2f} {max(ms):7.1f}"
        )


if __name__ == "__main__":
    main()
