"""Barras figures, side by side in one run: the house edge per player per
round when every player bets 1 every round, exact (``odds.house_edge``)
beside the mean of simulated rounds played through the core, for 1, 2 and 4
players and each solo payout; and the rounds simulated per second.

    python bench/barras.py [rounds]      (default 100,000)
"""

from __future__ import annotations

import sys
import time

from garito.core.barras import Action, Config, apply, new_game, odds

BET = Action("bet", 1)
ROLL = Action("roll")


def simulate(config: Config, rounds: int, session: int = 200) -> tuple[float, float]:
    """(the house's mean gain per player per round, rounds per second):
    sessions of ``session`` rounds (a state's history grows with it), with
    bankrolls large enough that nobody goes broke."""
    house = played = seed = 0
    start = time.perf_counter()
    while played < rounds:
        state = new_game(config, seed)
        want = min(session, rounds - played)
        while len(state.history) < want:
            state = apply(state, BET if state.stage == "bet" else ROLL)
        house += state.house
        played += want
        seed += 1
    elapsed = time.perf_counter() - start
    return house / rounds / config.players, rounds / elapsed


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    print(f"Barras: house edge per player per round, everyone betting 1 ({rounds:,} simulated rounds each)")
    print(f"  {'players':>7} {'solo':>5} {'exact':>9} {'simulated':>10} {'± 95%':>7} {'rounds/s':>9}")
    for players in (1, 2, 4):
        for solo in ("1:1", "2:1") if players == 1 else ("1:1",):
            cfg = Config(players=players, bankroll=1000, stake_max=1, solo=solo)
            exact = odds.house_edge(cfg, players)
            sim, speed = simulate(cfg, rounds)
            # Per-round outcomes are bounded by ±2 chips a player: a loose 95% margin.
            margin = 1.96 * 1.0 / rounds**0.5
            print(f"  {players:>7} {solo:>5} {exact:+9.4f} {sim:+10.4f} {margin:7.4f} {speed:9,.0f}")
    print("  (negative: the players have the edge; the solo payout only matters alone)")


if __name__ == "__main__":
    main()
