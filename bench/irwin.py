"""Irwin's Revenge figures, side by side in one run:

* the exact chance of taking each statuette with 2 and with 3 d10;
* the exact chance that a final-phase throw wins, for every combination of
  the blessings that change a throw (Ant with its best number, Eagle,
  Jellyfish, Salamander);
* the hard computer's win rate over games against a seat that names
  statuettes at random (and otherwise plays like the easy level), seats
  and first turns as they fall, with the games' speed.

    python bench/irwin.py [games]      (default 10,000)
"""

from __future__ import annotations

import random
import sys
import time
from itertools import combinations

from garito.core.irwin import Config, apply, is_over, legal_actions, new_game, result, to_act, view
from garito.core.irwin.bot import choose
from garito.core.irwin.odds import best_ant_number, take_chance, throw_win_chance
from garito.core.irwin.rules import FIGURES, STATUETTES


def duel(games: int) -> tuple[float, float, float]:
    """(hard's share of games won on points, of finals won, games/s)."""
    points = finals = 0
    start = time.perf_counter()
    for seed in range(games):
        hard = seed % 2
        rng = random.Random(seed)
        s = new_game(Config(), seed)
        while not is_over(s):
            seat = to_act(s)
            legal = legal_actions(s)
            if seat == hard:
                a = choose(view(s, seat), legal, "hard")
            elif s.stage == "expedition":
                a = rng.choice(legal)
            else:
                a = choose(view(s, seat), legal, "easy")
            s = apply(s, a)
        res = result(s)
        points += res.winner == hard
        finals += res.final_winner == hard
    return points / games, finals / games, games / (time.perf_counter() - start)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    print("Irwin's Revenge: taking a statuette (exact)")
    print(f"  {'statuette':<11} {'2d10':>6} {'3d10':>6}")
    for st in STATUETTES:
        print(f"  {FIGURES[st]:<11} {take_chance(st, 2):6.1%} {take_chance(st, 3):6.1%}")
    print("\nA final-phase throw wins (exact, Ant and Eagle used at their best)")
    final = ("ant", "eagle", "jellyfish", "salamander")
    for k in range(len(final) + 1):
        for combo in combinations(final, k):
            bless = frozenset(combo)
            ant = best_ant_number(bless) if "ant" in bless else 0
            label = (
                " + ".join(FIGURES[b] + (f" ({ant})" if b == "ant" else "") for b in combo) or "no blessing"
            )
            print(f"  {label:<44} {throw_win_chance(bless, ant):7.2%}")
    share, finals, speed = duel(games)
    margin = 1.96 * (share * (1 - share) / games) ** 0.5
    print(f"\nHard against a random namer, {games:,} games: wins {share:.1%} ± {margin:.1%} on points,")
    print(f"  {finals:.1%} of the finals; {speed:,.0f} games/s")


if __name__ == "__main__":
    main()
