"""Willie figures, side by side in one run:

* ``best_play`` time over 1,000 random mid-game positions (a legal table of
  15–45 cards built meld by meld, a hand of 5–12 from the cards left),
  median, 90th and 99th percentile, worst:
  - open wilds (the game's rule), on tables where wilds stand for cards
    that are on the table too: the exact search (targets 20 ms median,
    200 ms at the 99th percentile), how often the whole hand goes on the
    table, the normal seat's budgeted search, the tables of 40 cards or
    more, and the positions that come up in real (computer) matches;
  - strict wilds (the variant), on 1,000 tables it allows: the exact
    search under each rule on the same positions;
  - with ``--against REF``, the solver of that git revision (``main``)
    beside this one: each position timed under both, in turn, three times
    (the least kept), for the open wilds' exact and budgeted searches, the
    real-match positions and the strict wilds' exact search, with the
    ratio of the totals and the median of the per-position ratios;
* over the hard v normal matches under open wilds, how often a table
  holds a wild standing for a card that is also on it;
* hard v normal and normal v easy over 500 seeded two-player matches each,
  seats alternating, with 95% intervals;
* how long each computer level takes to decide.

    python bench/willie.py [positions] [matches] [--against REF]   (defaults 1,000 and 500)
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from garito.core.willie import Config, apply, best_play, is_over, legal_actions, new_game, to_act, view
from garito.core.willie.bot import NORMAL_BUDGET, choose
from garito.core.willie.positions import random_position


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def timed(positions, strict: bool, budget=None, solve=best_play) -> list[float]:
    out = []
    for table, hand in positions:
        start = time.perf_counter()
        solve(table, hand, budget=budget, strict=strict)
        out.append((time.perf_counter() - start) * 1000)
    return out


def side_by_side(positions, strict: bool, budget, other, reps: int = 3) -> tuple[list[float], list[float]]:
    """Each position under this solver and ``other`` in turn, the first of
    the pair alternating, ``reps`` times: the least time of each, ms. Side
    by side, so that a machine that slows down or speeds up meanwhile
    weighs on both alike."""
    ours: list[float] = []
    theirs: list[float] = []
    for i, (table, hand) in enumerate(positions):
        best = {best_play: float("inf"), other: float("inf")}
        for rep in range(reps):
            for solve in (best_play, other) if (i + rep) % 2 == 0 else (other, best_play):
                start = time.perf_counter()
                solve(table, hand, budget=budget, strict=strict)
                best[solve] = min(best[solve], (time.perf_counter() - start) * 1000)
        ours.append(best[best_play])
        theirs.append(best[other])
    return ours, theirs


def against_rows(label: str, ref: str, ours: list[float], theirs: list[float]) -> str:
    ratios = [a / b for a, b in zip(ours, theirs)]
    return "\n".join(
        (
            f"  {label}",
            row("  this checkout", ours),
            row(f"  at {ref}", theirs),
            f"    this / {ref}: totals {sum(ours) / sum(theirs):.3f}, "
            f"median of the per-position ratios {percentile(ratios, 0.5):.3f}",
        )
    )


def row(label: str, ms: list[float]) -> str:
    return (
        f"  {label:<44} {percentile(ms, 0.5):7.1f} {percentile(ms, 0.9):7.1f} "
        f"{percentile(ms, 0.99):7.1f} {max(ms):7.1f}"
    )


HEADER = f"  {'search':<44} {'median':>7} {'p90':>7} {'p99':>7} {'worst':>7}"


def wild_on_table(table) -> bool:
    """A wild stands for a card that is also on the table."""
    reals = {c for m in table for c in m if "=" not in c and c not in "JQK"}
    return any("=" in c and c.split("=")[1] in reals for m in table for c in m)


def match(seed: int, levels, clocks=None, positions=None, seen=None) -> int | None:
    """One two-player match under the game's default rules; ``seen`` counts
    the tables melded and those holding a wild that stands for a card also
    on the table."""
    s = new_game(Config(), seed)
    while not is_over(s):
        seat = to_act(s)
        v = view(s, seat)
        if positions is not None and s.stage == "meld" and s.table:
            positions.append(([list(m) for m in s.table], list(v.hand)))
        start = time.perf_counter()
        a = choose(v, legal_actions(s), levels[seat])
        if clocks is not None:
            clocks[levels[seat]].append((time.perf_counter() - start) * 1000)
        if seen is not None and a.kind == "meld":
            seen["tables"] += 1
            seen["open"] += wild_on_table(a.table)
        s = apply(s, a)
    return s.winner_seat


def duel(args) -> tuple[int, dict[str, int]]:
    lo, hi, a, b = args
    wins = 0
    seen = {"tables": 0, "open": 0, "matches": 0}
    for seed in range(lo, hi):
        levels = (a, b) if seed % 2 == 0 else (b, a)
        before = seen["open"]
        w = match(seed, levels, seen=seen)
        seen["matches"] += seen["open"] > before
        wins += w is not None and levels[w] == a
    return wins, seen


def rate(a: str, b: str, matches: int, pool, workers: int):
    step = -(-matches // workers)
    chunks = [(lo, min(matches, lo + step), a, b) for lo in range(0, matches, step)]
    results = list(pool.map(duel, chunks))
    share = sum(w for w, _ in results) / matches
    seen = {k: sum(s[k] for _, s in results) for k in ("tables", "open", "matches")}
    return share, 1.96 * (share * (1 - share) / matches) ** 0.5, seen


def solver_at(ref: str):
    """``best_play`` as the git revision ``ref`` has it, loaded beside this
    one (its cards and melds modules are this checkout's)."""
    root = Path(__file__).resolve().parent.parent
    text = subprocess.run(
        ["git", "show", f"{ref}:core/willie/solver.py"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "solver.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("garito.core.willie._solver_at_ref", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.best_play


def main() -> None:
    args = sys.argv[1:]
    against = None
    if "--against" in args:
        at = args.index("--against")
        against = args[at + 1]
        del args[at : at + 2]
    n = int(args[0]) if args else 1_000
    matches = int(args[1]) if len(args) > 1 else 500

    rng = random.Random(2027)
    positions = []
    while len(positions) < n:
        table, hand = random_position(rng, rng.randint(15, 45), rng.randint(5, 12))
        if wild_on_table(table):
            positions.append((table, hand))
    sizes = sorted(sum(map(len, t)) for t, _ in positions)
    print(
        f"best_play over {n:,} random mid-game positions (table {sizes[0]}–{sizes[-1]} cards, hand 5–12), ms"
    )
    print(f"\nOpen wilds (the game's rule), each table with a wild standing for a card on it\n{HEADER}")
    print(row("exact (targets 20 / 200)", timed(positions, False)))
    whole = sum(len(best_play(t, h)[0]) == len(h) for t, h in positions)
    print(f"  {'':<44} the whole hand played in {whole:,} of {n:,}")
    print(row(f"budget {NORMAL_BUDGET} states per cell (normal)", timed(positions, False, NORMAL_BUDGET)))
    big = [p for p in positions if sum(map(len, p[0])) >= 40]
    print(row(f"exact, the {len(big)} tables of 40+ cards", timed(big, False)))
    played: list = []
    clocks: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
    for seed in range(60):
        match(seed, ("hard", "normal") if seed % 2 else ("normal", "easy"), clocks, played)
    print(row(f"exact, {len(played):,} real-match positions", timed(played, False)))

    rng = random.Random(2026)
    strict = [random_position(rng, rng.randint(15, 45), rng.randint(5, 12), strict=True) for _ in range(n)]
    print(f"\nStrict wilds (the variant), {n:,} tables it allows\n{HEADER}")
    print(row("exact, strict wilds", timed(strict, True)))
    print(row("exact, open wilds, the same positions", timed(strict, False)))

    if against:
        other = solver_at(against)
        print(f"\nThis checkout's solver beside the one at {against}, the least of 3 each, ms\n{HEADER}")
        for label, pos, rule, budget in (
            ("exact, open wilds", positions, False, None),
            (f"budget {NORMAL_BUDGET}, open wilds", positions, False, NORMAL_BUDGET),
            ("exact, real-match positions", played, False, None),
            (f"budget {NORMAL_BUDGET}, real-match positions", played, False, NORMAL_BUDGET),
            ("exact, strict wilds", strict, True, None),
        ):
            print(against_rows(label, against, *side_by_side(pos, rule, budget, other)))

    workers = max(1, min(8, os.cpu_count() or 1))
    with ProcessPoolExecutor(workers) as pool:
        start = time.perf_counter()
        lines, seen = [], None
        for a, b in (("hard", "normal"), ("normal", "easy")):
            share, margin, counted = rate(a, b, matches, pool, workers)
            seen = seen or counted
            lines.append(f"  {a} beats {b:<7} {share:6.1%} ± {margin:.1%}")
        took = time.perf_counter() - start
    print(
        f"\nTwo-player matches to 25 under open wilds, {matches:,} seeded each, seats alternating "
        f"({workers} processes, {took:.0f} s)"
    )
    print("\n".join(lines))
    assert seen is not None
    print(
        f"  hard v normal: {seen['open']:,} of the {seen['tables']:,} tables melded "
        f"({seen['open'] / max(1, seen['tables']):.1%}) hold a wild standing for a card also on the "
        f"table; in {seen['matches']} of {matches} matches ({seen['matches'] / max(1, matches):.0%}) "
        "at least once"
    )

    print("\nComputer decision time (ms), every decision of 60 matches")
    print(f"  {'level':<8} {'decisions':>9} {'median':>7} {'p95':>7} {'worst':>7}")
    for level, ms in clocks.items():
        print(
            f"  {level:<8} {len(ms):>9,} {percentile(ms, 0.5):7.2f} "
            f"{percentile(ms, 0.95):7.2f} {max(ms):7.1f}"
        )


if __name__ == "__main__":
    main()
