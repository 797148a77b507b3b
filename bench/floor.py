"""Garito's CPU per key beside Textual's own floor, side by side in one run.

The suite's CPU-per-key figure (``suite.py``, target ≤ 8 ms) counts, for a
key against the computer, the player's move and the computer's answering
moves, each drawn. This measures, in the same pseudo-terminal at 80×24,
with the same keys at a person's pace, launches alternated:

* ``floor_app.py`` (a bare Textual app written as Textual's documentation
  writes one, laid out like Decimus's table): a key that changes every
  panel and adds a log line, then one such change 0.3 s later (the
  computer's answer); the same without the answer; both again with every
  panel a widget that is repainted and never laid out again (``--lean``:
  what a careful Textual app costs for those changes); a key that repaints
  one line (never laid out again: the least a key costs), alone and with
  the same again 0.3 s later;
* Garito's matches against the computer (the suite's measure).

    python bench/floor.py [--keys N] [--rounds N] [--games decimus,gemelos,...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from startup import read_until, spawn, stop
from suite import BOT_DELAY, LAUNCH, keys_cpu, match_cpu, settle

HERE = Path(__file__).resolve().parent


def floor_cpu(replies: int, key: bytes, keys: int, home: str, lean: bool = False) -> float:
    """Median CPU ms per key of the bare app, from the key until 0.5 s quiet."""
    argv = [sys.executable, str(HERE / "floor_app.py"), "--replies", str(replies)]
    proc, master = spawn(argv + (["--lean"] if lean else []), home)
    read_until(master, None)
    per_key = keys_cpu(proc.pid, master, keys, lambda _shown: key, settle(master, 0.5))
    stop(proc, master)
    return statistics.median(per_key) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=40, help="keys per launch")
    ap.add_argument("--rounds", type=int, default=3, help="launches of each, alternated (medians)")
    ap.add_argument("--games", default="decimus,gemelos", help="Garito's games to measure beside it")
    args = ap.parse_args()
    os.environ["GARITO_BOT_DELAY"] = BOT_DELAY
    home = tempfile.mkdtemp(prefix="garito-floor-")
    games = [g for g in args.games.split(",") if g]
    cases = {
        "bare: a move and the computer's answer": lambda: floor_cpu(1, b"\r", args.keys, home),
        "bare: a move alone": lambda: floor_cpu(0, b"\r", args.keys, home),
        "bare, lean: a move and the answer": lambda: floor_cpu(1, b"\r", args.keys, home, lean=True),
        "bare, lean: a move alone": lambda: floor_cpu(0, b"\r", args.keys, home, lean=True),
        "bare: one line repainted": lambda: floor_cpu(0, b" ", args.keys, home),
        "bare: one line repainted, again 0.3 s later": lambda: floor_cpu(1, b" ", args.keys, home),
        **{
            f"garito {game} against the computer": (
                lambda game=game: match_cpu([sys.executable, *LAUNCH], game, home, args.keys)[0]
            )
            for game in games
        },
    }
    got: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, run in cases.items():
            got[name].append(run())
    floor = statistics.median(got["bare, lean: a move and the answer"])
    launches = "one launch" if args.rounds == 1 else f"the median of {args.rounds} launches"
    print(f"CPU per key, median ms over {args.keys} keys, {launches} of each (alternated),")
    print("and its ratio to the lean bare app's move and answer:")
    for name, values in got.items():
        m = statistics.median(values)
        print(f"  {name:<46}{m:7.1f}   × {m / floor:4.2f}")
    print(
        "the suite's target (suite.py): <= 8 ms per key against the computer; "
        f"the lean bare app's move and answer, only drawn: {floor:.1f} ms"
    )


if __name__ == "__main__":
    main()
