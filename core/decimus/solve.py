"""``python -m garito.core.decimus.solve``: solve the abstract betting of one
Decimus game (``abstract.py``) with CFR+ and print its exploitability, in points
per game, as the iterations go (deterministic: no randomness anywhere).

A step towards the master seat (issue #43): no seat plays this policy yet,
and nothing is written."""

from __future__ import annotations

import argparse
import time

from .abstract import OneGame
from .cfr import CFRPlus, exploitability, value
from .rules import GAMES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m garito.core.decimus.solve")
    parser.add_argument("--game", choices=GAMES[:2], default="maiores")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--every", type=int, default=25, help="print the exploitability every N iterations")
    args = parser.parse_args(argv)
    game = OneGame(args.game)
    solver = CFRPlus(game)
    start = time.monotonic()
    while solver.iterations < args.iterations:
        solver.iterate(min(args.every, args.iterations - solver.iterations))
        avg = solver.average()
        print(
            f"{solver.iterations:5d} iterations  exploitability {exploitability(game, avg):.5f}"
            f"  first seat's value {value(game, avg):+.4f}  ({time.monotonic() - start:.0f} s)",
            flush=True,
        )
    print(f"{len(solver.sums)} information sets", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
