"""Decimus figures, side by side in one run:

* "strong" against "classic" over seeded matches, seats alternating, with
  the 95% interval of strong's win rate (the issue asks for at least 60%
  over 2,000 matches);
* each level against a seat that picks a legal action at random;
* how long a computer seat takes to decide: median, 95th percentile and
  the worst case over every decision of the matches against random seats,
  plus the first decision of a fresh process (the exact tables are built
  then).

    python bench/decimus.py [matches]      (default 2,000)
"""

from __future__ import annotations

import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from garito.core.decimus import Config, apply, is_over, legal_actions, new_game, result, to_act, view
from garito.core.decimus.bot import choose


def match(seed: int, levels: tuple[str, str], clocks: dict[str, list[float]] | None = None) -> int:
    """The winning seat of one seeded match; each level's decision times
    into ``clocks``."""
    rng = random.Random(seed * 7919 + 1)
    s = new_game(Config(), seed)
    while not is_over(s):
        seat = to_act(s)
        legal = legal_actions(s)
        if levels[seat] == "random":
            a = rng.choice(legal)
        else:
            start = time.perf_counter()
            a = choose(view(s, seat), legal, levels[seat])
            if clocks is not None:
                clocks[levels[seat]].append(time.perf_counter() - start)
        s = apply(s, a)
    return result(s).winner


def duel(args: tuple[int, int, str, str]) -> int:
    """Wins of level ``a`` over seeds [lo, hi), seats alternating."""
    lo, hi, a, b = args
    wins = 0
    for seed in range(lo, hi):
        levels = (a, b) if seed % 2 == 0 else (b, a)
        wins += levels[match(seed, levels)] == a
    return wins


def rate(a: str, b: str, matches: int, pool: ProcessPoolExecutor, workers: int) -> tuple[float, float]:
    step = -(-matches // workers)
    chunks = [(lo, min(matches, lo + step), a, b) for lo in range(0, matches, step)]
    share = sum(pool.map(duel, chunks)) / matches
    return share, 1.96 * (share * (1 - share) / matches) ** 0.5


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
    workers = max(1, min(8, os.cpu_count() or 1))

    start = time.perf_counter()
    choose(view(new_game(Config(), 1), 0), legal_actions(new_game(Config(), 1)), "strong")
    cold = time.perf_counter() - start

    with ProcessPoolExecutor(workers) as pool:
        start = time.perf_counter()
        share, margin = rate("strong", "classic", matches, pool, workers)
        took = time.perf_counter() - start
        print(
            f"Decimus, {matches:,} seeded matches to 30, seats alternating "
            f"({workers} processes, {took:.0f} s)"
        )
        print(f"  strong beats classic   {share:6.1%} ± {margin:.1%}")
        random_matches = max(200, matches // 2)
        for level in ("strong", "classic"):
            share, margin = rate(level, "random", random_matches, pool, workers)
            print(f"  {level:<7} beats random   {share:6.1%} ± {margin:.1%}   ({random_matches:,} matches)")

    print("\nComputer decision time (ms): every decision of 200 matches strong v classic, one process")
    print(f"  {'level':<8} {'decisions':>9} {'median':>7} {'p95':>7} {'worst':>7}")
    clocks: dict[str, list[float]] = {"strong": [], "classic": []}
    for seed in range(200):
        match(seed, ("strong", "classic") if seed % 2 == 0 else ("classic", "strong"), clocks)
    for level, xs in clocks.items():
        ms = [x * 1000 for x in xs]
        median, p95 = percentile(ms, 0.5), percentile(ms, 0.95)
        print(f"  {level:<8} {len(ms):>9,} {median:7.2f} {p95:7.2f} {max(ms):7.2f}")
    print(f"  first decision of a fresh process (tables built): {cold * 1000:.0f} ms")


if __name__ == "__main__":
    main()
