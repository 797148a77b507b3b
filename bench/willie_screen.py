"""Willie's table on screen, in a pseudo-terminal at 80×24, one run:

* bytes written per cursor move (→ over the melds and the hand) and per
  card move (Enter dropping a picked card on a meld), median and worst,
  with the key-to-screen time beside them;
* the time from pressing ``a`` (arrange the hint's picked cards) to the end
  of the arranged table's update, over 20 positions from real matches
  (computer seats play until the human's turn finds a table of four or
  more melds and a play), slowest first; beside it the solver's own time on
  the same position, so the screen's share shows.

    python bench/willie_screen.py [positions]      (default 20)
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import read_until, spawn, stop  # noqa: E402
from suite import GARITO, end_of_update  # noqa: E402

from garito.core import willie as wx  # noqa: E402
from garito.core.match import Match, Seat  # noqa: E402
from garito.core.willie.bench import Bench  # noqa: E402
from garito.core.willie.bot import choose  # noqa: E402

RIGHT, ENTER, SPACE, TAB = b"\x1b[C", b"\r", b" ", b"\t"


def positions(count: int):
    """(match, picked cards) at a human turn with 4+ melds and a play."""
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        match = Match.start(
            "willie",
            wx.Config(helpers=True),
            seed,
            (Seat("Ana", "human", "hard"), Seat("Ramón", "computer", "hard")),
        )
        for _ in range(200):
            s = match.state
            if wx.is_over(s):
                break
            seat = wx.to_act(s)
            if seat == 0 and s.stage == "meld" and len(s.table) >= 4 and len(match.actions) > 6:
                played, _ = Bench.begin(s.table, s.hands[0]).hint()
                if played:
                    out.append((match, played))
                    break
            match = match.play(choose(wx.view(s, seat), wx.legal_actions(s), "hard"))
    return out


def open_saved(match: Match, home: str):
    """The app in a pty, the saved match resumed from the menu."""
    os.environ["GARITO_HOME"] = home
    from garito.store import saves, settings

    settings.update(player="Ana")  # no first-start question
    saves.save(match)
    proc, master = spawn(GARITO, home)
    read_until(master, None)
    os.write(master, ENTER)  # Continue Willie: the first entry
    read_until(master, b" pile ")  # the table is up
    return proc, master


def press(master: int, key: bytes) -> tuple[int, float]:
    t0 = time.perf_counter()
    os.write(master, key)
    n, last = end_of_update(master)
    return n, (last - t0) * 1000


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    found = positions(count)
    moves, drops, arranges = [], [], []
    with tempfile.TemporaryDirectory() as home:
        for k, (match, played) in enumerate(found):
            proc, master = open_saved(match, home)
            if k < 5:  # the cursor and card moves, on the first five positions
                for key in [TAB] + [RIGHT] * 8:  # over the table, then the hand
                    n, ms = press(master, key)
                    if key == RIGHT:
                        moves.append((n, ms))
                    time.sleep(0.05)
                press(master, TAB)  # back to the hand
                press(master, SPACE)  # pick a card
                press(master, TAB)  # to the table: Enter drops it on the meld under the cursor
                drops.append(press(master, ENTER))
                press(master, b"r")  # reset
            press(master, b"h")  # the hint picks its cards
            n, ms = press(master, b"a")
            s = match.state
            t0 = time.perf_counter()
            Bench.begin(s.table, s.hands[0]).arranged(list(played))
            solver = (time.perf_counter() - t0) * 1000
            arranges.append((ms, solver, n, sum(len(m) for m in s.table), len(played)))
            stop(proc, master)
    print("Willie's table in a pty at 80×24")
    print(f"  {'step':<34}{'median bytes':>13}{'worst':>7}{'median ms':>11}{'p95 ms':>8}")
    for label, rows in (("cursor move (→)", moves), ("card move (Enter on a meld)", drops)):
        b = sorted(n for n, _ in rows)
        t = sorted(ms for _, ms in rows)
        p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
        print(f"  {label:<34}{statistics.median(b):>13.0f}{b[-1]:>7}{statistics.median(t):>11.1f}{p95:>8.1f}")
    arranges.sort(reverse=True)
    print(
        f"\nPressing a (arrange the hint's cards), {len(arranges)} positions from real matches, slowest first"
    )
    print(f"  {'key to screen ms':>17}{'solver ms':>11}{'bytes':>7}{'table cards':>13}{'picked':>8}")
    for ms, solver, n, cards, picked in arranges[:5]:
        print(f"  {ms:>17.1f}{solver:>11.1f}{n:>7}{cards:>13}{picked:>8}")
    print(f"  slowest {arranges[0][0]:.1f} ms; median {statistics.median(a[0] for a in arranges):.1f} ms")


if __name__ == "__main__":
    main()
