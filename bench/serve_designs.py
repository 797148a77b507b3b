"""Three ways for ``garito serve`` to host its players' games, measured side
by side in one run under the same load (``serve_load.py``: players at a
person's pace against the computer, loopback):

* ``pty``: a Python and a Textual app per connection, on a pty of its own
  (Garito before the workers);
* ``fork``: a fork server that imported Textual and Garito and froze them
  (``gc.freeze``) forks one process per player, whose app draws on a socket
  driver (``server/driver.py``);
* ``workers``: one process per core, each hosting many players' apps on
  one event loop, each app on that same driver (``server/worker.py``).

    python bench/serve_designs.py [--players 50,100,200] [--keys 12] [--designs workers,fork,pty]

The designs take turns at each count of players, so that a change in the
machine's load falls on all of them alike; the load average is printed
before and after.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from serve_load import HEADER, load, measure, notes, row  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", default="50,100,200")
    p.add_argument("--keys", type=int, default=12)
    p.add_argument("--designs", default="workers,fork,pty")
    args = p.parse_args()
    designs = args.designs.split(",")
    print(f"garito serve on loopback, {os.cpu_count()} cores, {load()} at the start")
    print(HEADER)
    print("|---|---|---|---|---|---|---|---|---|")
    for n in (int(x) for x in args.players.split(",")):
        for design in designs:
            r = measure(design, n, args.keys)
            print(row(r), flush=True)
            notes(r)
    print(f"({load()} at the end; the SSH clients run in this process)")


if __name__ == "__main__":
    main()
