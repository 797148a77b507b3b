"""Gemelos core speed: full matches per second, and the computer's decision
time (cold cache, as at the start of a session, and warm), side by side.

    python bench/gemelos.py
"""

from __future__ import annotations

import statistics
import time

from garito.core.gemelos import Config, apply, legal_actions, new_game, odds, to_act, view
from garito.core.gemelos.bot import choose


def matches_per_second(config: Config, seconds: float = 1.0) -> float:
    done, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = new_game(config, seed)
        while not s.over:
            s = apply(s, legal_actions(s)[0])
        done += 1
        seed += 1
    return done / (time.perf_counter() - start)


def decision_times(players: int, cold: bool, matches: int = 20) -> list[float]:
    times = []
    for seed in range(matches):
        s = new_game(Config(players=players, stakes="before-roll"), seed)
        while not s.over:
            seat = to_act(s)
            legal = legal_actions(s)
            if cold:
                for f in (odds._pass, odds._ahead, odds._rolloff, odds._rolloff_pass):
                    f.cache_clear()
            t = time.perf_counter()
            action = choose(view(s, seat), legal, "hard")
            times.append(time.perf_counter() - t)
            s = apply(s, action)
    return times


def level_duel(matches: int = 2000, stakes: str = "before-roll") -> tuple[float, float]:
    """Hard against easy, heads-up, seats swapped every match: the hard
    seat's mean chip net per match, and its standard error."""
    nets = []
    for seed in range(matches):
        hard = seed % 2
        s = new_game(Config(stakes=stakes), seed)
        while not s.over:
            seat = to_act(s)
            level = "hard" if seat == hard else "easy"
            s = apply(s, choose(view(s, seat), legal_actions(s), level))
        nets.append(s.chips[hard] - s.config.bankroll)
    mean = statistics.fmean(nets)
    return mean, statistics.stdev(nets) / len(nets) ** 0.5


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[-1]


def main() -> None:
    print(f"{'table':<22}{'matches/s':>12}")
    for label, cfg in (
        ("2 seats, no stakes", Config()),
        ("6 seats, no stakes", Config(players=6)),
        ("4 seats, stakes", Config(players=4, stakes="blind")),
    ):
        print(f"{label:<22}{matches_per_second(cfg):>12.0f}")
    print()
    for stakes in ("before-roll", "blind"):
        mean, err = level_duel(stakes=stakes)
        print(f"hard vs easy, {stakes} stakes: hard nets {mean:+.2f} ± {err:.2f} chips a match")
    print()
    print(f"{'computer decision':<22}{'median':>10}{'p95':>10}{'max':>10}")
    for players in (2, 4, 6):
        for cold in (False, True):
            ts = decision_times(players, cold, matches=6 if cold else 20)
            label = f"{players} seats, {'cold' if cold else 'warm'}"
            ms = [statistics.median(ts) * 1e3, p95(ts) * 1e3, max(ts) * 1e3]
            print(f"{label:<22}" + "".join(f"{x:>8.2f}ms" for x in ms))


if __name__ == "__main__":
    main()
