"""Red Man's Throw figures, measured side by side in one run:

* the exact chance of each hand class, by enumerating the 216 throws;
* the first player's chance of winning the match, exact (``odds.match_chance``)
  beside the estimate from simulated matches played through the core, with
  the simulation's speed (full matches per second);
* the computer's decision time, cold (caches cleared) and warm;
* hard against easy with predictions on, seats swapped every match.

    python bench/redman.py [matches]      (default 100,000)
"""

from __future__ import annotations

import statistics
import sys
import time

from garito.core.redman import (
    HANDS,
    ROLL,
    TIP,
    WEIGHTS,
    Config,
    apply,
    legal_actions,
    new_game,
    odds,
    result,
    to_act,
    view,
)
from garito.core.redman.bot import choose


def hand_class(h) -> str:
    six = h.count(6)
    if six == 3:
        return "6-6-6, the Red Man"
    if six == 2:
        return "two sixes"
    if six == 1:
        if h == (6, 5, 4):
            return "4-5-6"
        return "a six and a pair" if h[1] == h[2] else "a six, other"
    if h[0] - h[2] == 2 and len(set(h)) == 3:
        return "straight"
    return {1: "trio", 2: "pair", 3: "nothing"}[len(set(h))]


def class_table() -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for h in HANDS:  # best first, so the classes come out in order
        counts[hand_class(h)] = counts.get(hand_class(h), 0) + WEIGHTS[h]
    return list(counts.items())


def simulate(config: Config, matches: int) -> tuple[float, float]:
    """(seat 0's share of wins, matches per second), all rolls, bets off."""
    wins = 0
    start = time.perf_counter()
    for seed in range(matches):
        s = new_game(config, seed)
        while s.stage != "over":
            s = apply(s, TIP if s.stage == "hat" else ROLL)
        wins += result(s).winner == 0
    return wins / matches, matches / (time.perf_counter() - start)


def decision_times(cold: bool, matches: int = 40) -> list[float]:
    times = []
    for seed in range(matches):
        s = new_game(Config(bets="predictions"), seed)
        while s.stage != "over":
            seat = to_act(s)
            legal = legal_actions(s)
            if cold:
                for f in (odds._loss, odds._call_values, odds.best_prediction, odds.round_value, odds._match):
                    f.cache_clear()
            t = time.perf_counter()
            action = choose(view(s, seat), legal, "hard")
            times.append(time.perf_counter() - t)
            s = apply(s, action)
    return times


def level_duel(matches: int = 4000) -> tuple[float, float]:
    nets = []
    for seed in range(matches):
        hard = seed % 2
        s = new_game(Config(bets="predictions", first=(seed // 2) % 2), seed)
        while s.stage != "over":
            seat = to_act(s)
            s = apply(s, choose(view(s, seat), legal_actions(s), "hard" if seat == hard else "easy"))
        nets.append(result(s).net[hard])
    return statistics.fmean(nets), statistics.stdev(nets) / len(nets) ** 0.5


def p95(xs: list[float]) -> float:
    return sorted(xs)[int(0.95 * (len(xs) - 1))]


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    print("Red Man's Throw: hand classes over the 216 throws of 3d6")
    for name, n in class_table():
        print(f"  {name:<20} {n:>4}/216  {n / 216:7.2%}")
    print(f"\nFirst player's match win ({matches:,} simulated matches each, bets off)")
    print(f"  {'first roller':<14} {'exact':>8} {'simulated':>10} {'± 95%':>7} {'matches/s':>10}")
    for rule in ("alternate", "fixed"):
        cfg = Config(bets="off", first_roller=rule)
        exact = odds.match_chance(cfg, (0, 0), 1)
        share, speed = simulate(cfg, matches)
        margin = 1.96 * (share * (1 - share) / matches) ** 0.5
        print(f"  {rule:<14} {exact:8.4%} {share:10.4%} {margin:7.2%} {speed:10,.0f}")
    cold, warm = decision_times(True), decision_times(False)
    print("\nComputer (hard, predictions) decision time, ms")
    print(f"  cold caches: median {statistics.median(cold) * 1e3:6.2f}  p95 {p95(cold) * 1e3:6.2f}")
    print(f"  warm caches: median {statistics.median(warm) * 1e3:6.2f}  p95 {p95(warm) * 1e3:6.2f}")
    mean, se = level_duel()
    print(f"\nHard against easy, predictions on: hard nets {mean:+.2f} ± {se:.2f} chips a match")


if __name__ == "__main__":
    main()
