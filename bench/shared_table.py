"""A move at a shared table, from one player's key to the other's screen.

``garito serve --guests`` in its own process; two SSH players (asyncssh,
loopback, 80×24) meet in the lobby: ana opens a Gemelos table with an open
seat, bea takes it. Then, with both terminals quiet, one of them presses
Space; when it was that player's roll, the key travels: the SSH channel, the
player's app, the table server (which applies it), the other player's app,
its SSH channel. Printed side by side, over every roll:

* key → the roller's own screen (the echo), and
* key → the other player's screen (the relay through the table server),

and, beside them, the same key → echo for a roll against the computer at a
table of one's own (no table server in between), so the ratio is the table
server's cost. A Space that was not the roller's (it closes a result box, or
it is the other's turn) reaches only its own screen and is left out.

And talk at the same table, before the first roll: one player opens the
talk line (/), types a line, and with both terminals quiet presses Enter;
timed until the line shows on the other player's screen (and on the
speaker's own). The two take turns, a line every CHAT_GAP seconds, inside
the server's limit on talk (SAY_RATE, SAY_BURST): nothing is refused.

    python bench/shared_table.py [rolls] [lines]        (default 24 and 20)
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time

import asyncssh

sys.path.insert(0, os.path.dirname(__file__))
from serve_load import serving  # noqa: E402

DOWN, RIGHT = b"\x1b[B", b"\x1b[C"
QUIET = 0.6  # seconds with nothing drawn: the round box opens 0.35 s after a round's last roll
CHAT_GAP = 2.5  # seconds between two lines of one player: under server.tables' SAY_RATE (0.5 a second)


class Terminal:
    def __init__(self, process) -> None:
        self.process = process
        self.seen = b""
        self.log = bytearray()  # everything since the last key
        self.last = time.perf_counter()
        self.arrived = asyncio.Event()
        self.first_after: float | None = None  # the first byte after a key, and when
        self.awaited: bytes | None = None  # text to time the arrival of (in what came since the key)
        self.found_at: float | None = None
        self.task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            now = time.perf_counter()
            self.seen = (self.seen + chunk)[-300_000:]
            self.log += chunk
            self.last = now
            if self.first_after is None:
                self.first_after = now
            if self.awaited is not None and self.found_at is None and self.awaited in self.log:
                self.found_at = now
            self.arrived.set()

    async def wait_for(self, needle: bytes, timeout: float = 60) -> None:
        end = time.perf_counter() + timeout
        while needle not in self.seen:
            if time.perf_counter() > end:
                raise TimeoutError(f"{needle!r} never came")
            await asyncio.sleep(0.05)

    async def quiet(self, seconds: float = QUIET) -> None:
        while time.perf_counter() - self.last < seconds:
            await asyncio.sleep(0.05)

    async def keys(self, *keys: bytes) -> None:
        for key in keys:
            self.process.stdin.write(key)
            await asyncio.sleep(0.3)


async def player(port: int, name: str) -> tuple[asyncssh.SSHClientConnection, Terminal]:
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None)
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    term = Terminal(process)
    await term.wait_for(b"Shared tables")
    await asyncio.sleep(0.5)
    return conn, term


async def press(
    me: Terminal, other: Terminal | None, quiet: float = QUIET
) -> tuple[float | None, float | None]:
    """Space on ``me`` with both quiet: ms to my screen (None if it was not
    a roll) and ms to the other's (None if nothing came there)."""
    await me.quiet(quiet)
    if other is not None:
        await other.quiet()
        other.first_after = None
    me.first_after, me.log = None, bytearray()
    t0 = time.perf_counter()
    me.process.stdin.write(b" ")
    await asyncio.sleep(1.5)
    rolled = b" rolls " in me.log and me.first_after is not None  # the log tells the roll
    mine = (me.first_after - t0) * 1000 if rolled else None
    if other is None:
        return mine, None
    theirs = (other.first_after - t0) * 1000 if other.first_after else None
    return mine, theirs


async def say(me: Terminal, other: Terminal, text: str) -> tuple[float, float]:
    """``text`` typed on ``me``'s talk line, then Enter with both quiet: ms
    until it shows on ``me``'s screen, and on ``other``'s."""
    await me.keys(b"/")
    me.process.stdin.write(text.encode())
    await me.quiet()
    await other.quiet()
    needle = text.encode()
    for term in (me, other):
        term.log, term.awaited, term.found_at = bytearray(), needle, None
    t0 = time.perf_counter()
    me.process.stdin.write(b"\r")
    end = t0 + 10
    while me.found_at is None or other.found_at is None:
        if time.perf_counter() > end:
            raise TimeoutError(f"{text!r} never showed")
        await asyncio.sleep(0.01)
    me.awaited = other.awaited = None
    return (me.found_at - t0) * 1000, (other.found_at - t0) * 1000


async def run(port: int, rolls: int, lines: int) -> None:
    ana_conn, ana = await player(port, "ana")
    await ana.keys(*[DOWN] * 6, b"\r")  # Shared tables
    await ana.wait_for(b"No table yet")
    await ana.keys(b"\r", b"\r")  # New table..., Gemelos
    await ana.wait_for(b"New table")
    await ana.keys(DOWN, DOWN, DOWN, RIGHT)  # seat 2: open for a player
    await ana.keys(DOWN, RIGHT, RIGHT, RIGHT, RIGHT, b"\r")  # a match to 7 wins; open the table
    await ana.wait_for(b"Waiting for a player")
    bea_conn, bea = await player(port, "bea")
    await bea.keys(*[DOWN] * 6, b"\r")
    await bea.wait_for(b"with a free seat")
    await bea.keys(b"\r")
    await ana.wait_for(b"your roll")

    # Talk first, while nothing else moves at the table.
    said, heard = [], []
    started = time.perf_counter()
    for n in range(lines):
        me, other = (ana, bea) if n % 2 == 0 else (bea, ana)
        # Each speaker's lines CHAT_GAP apart (they alternate): within the limit.
        await asyncio.sleep(max(0.0, started + n * CHAT_GAP / 2 - time.perf_counter()))
        mine, theirs = await say(me, other, f"zq{n:02d}x")
        said.append(mine)
        heard.append(theirs)

    echo, relay = [], []
    turns = [(ana, bea), (bea, ana)]
    i = 0
    while len(relay) < rolls:
        me, other = turns[i % 2]
        mine, theirs = await press(me, other)
        if mine is not None and theirs is not None:  # a roll, and it reached the other player
            echo.append(mine)
            relay.append(theirs)
        else:
            i += 1  # not this one's roll (or a box closed): the other's turn next
        if b"Match over" in me.seen[-20000:] or b"Match over" in other.seen[-20000:]:
            break
    for conn in (ana_conn, bea_conn):
        conn.close()

    # The same key, alone against the computer: no table server in between.
    solo_conn, solo = await player(port, "cai")
    await solo.keys(b"\r")  # Gemelos against the computer
    await solo.wait_for(b"New game")
    await solo.keys(b"\r")
    await solo.wait_for(b"your roll")
    alone = []
    for _ in range(4 * len(echo)):
        mine, _ = await press(solo, None, quiet=1.5)  # the computer answers after 0.7 s
        if mine is not None:
            alone.append(mine)
        if len(alone) == len(echo):
            break
        if b"Match over" in solo.log:
            await solo.keys(b"n")  # a rematch
    solo_conn.close()

    def line(label: str, values: list[float]) -> str:
        values = sorted(values)
        p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
        return f"  {label:<44} median {statistics.median(values):6.1f} ms   p95 {p95:6.1f} ms"

    print(f"a shared Gemelos table over SSH (loopback), {len(relay)} rolls, {len(heard)} lines of talk:")
    print(line("key → the other player's screen (relay)", relay))
    print(line("key → the roller's own screen", echo))
    print(line("beside it, key → screen against the computer", alone))
    ratio = statistics.median(relay) / statistics.median(alone)
    print(f"  relay / alone (medians): {ratio:.2f}")
    print(line("talk: Enter → the other player's screen", heard))
    print(line("talk: Enter → the speaker's own screen", said))
    print(f"  talk relay / roll relay (medians): {statistics.median(heard) / statistics.median(relay):.2f}")


def main() -> None:
    rolls = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    lines = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    with serving() as (port, _server):
        asyncio.run(run(port, rolls, lines))


if __name__ == "__main__":
    main()
