"""``python -m garito.core.decimus.solve``: solve the abstract betting of one
Decimus game (``abstract.py``) with CFR+ over ranges (``ranges.py``) and print
its exact exploitability, in points per game, as the iterations go
(deterministic: no randomness anywhere). Maiores, 1,000 iterations: 0.0004
points a game, 43 s on this machine.

A step towards the master seat (issue #43): no seat plays this policy yet,
and nothing is written."""

from __future__ import annotations

import argparse
import time

from .abstract import OneGame
from .ranges import RangeCFR
from .rules import GAMES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m garito.core.decimus.solve")
    parser.add_argument("--game", choices=GAMES[:2], default="maiores")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100, help="print the exploitability every N iterations")
    args = parser.parse_args(argv)
    game = OneGame(args.game)
    solver = RangeCFR(game)
    start = time.monotonic()
    while solver.iterations < args.iterations:
        solver.iterate(min(args.every, args.iterations - solver.iterations))
        print(
            f"{solver.iterations:5d} iterations  exploitability {solver.exploitability():.5f} points a game"
            f"  ({time.monotonic() - start:.1f} s)",
            flush=True,
        )
    print(f"{len(solver.sums)} information sets", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
