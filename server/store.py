"""Where the shared tables' records live: the one seam between the table
server and its storage.

A shared table *is* its record: a list of entries (JSON lines, the first
the table's opening: game, config, seats, seed), each appended only if the
record still has the length the writer saw (``append``). Every host with
players at a table replays the same entries in the same order, so any host
can carry a table on, and two hosts racing to append end with exactly one
entry applied: the other sees the new length, catches up and decides again.

``MemoryStore`` speaks it for one host, in its own memory (the embedded
default, no other program needed). Its calls never wait, so one host's
messages are handled exactly in the order they arrive, as they always were.
A store whose ``shared`` is true is written by other hosts too.

Beside the records, what hosts must agree on: which hosts are alive
(``alive``), the allowances counted across them (``take``), and the lines
they pass to each other (``publish``: talk, and word of an append).

A cluster's ratings live there too (``rate``, ``ratings``: one hash of
JSON ratings per game), each finished match rated once under its result's
id whichever hosts saw it end; a single host keeps its own
(``store.ratings``, on its disk) and never asks its store.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from typing import Protocol

# A record's entries and counts are bounded, whoever wrote them: a store's
# contents are read as untrusted input, like a client's lines.
MAX_ENTRY = 64 * 1024  # bytes: an opening with six seats and a config is ~1 KB
MAX_ENTRIES = 20_000  # a Willie match to 500 is ~3,000 moves
GUESSERS = 10_000  # keys each memory allowance remembers (the newest)

Heard = Callable[[str, str], None]  # (channel, payload): a line another host published
# (channel "subscribed", payload "": listening again, what was missed meanwhile
# is to be read afresh)
Rater = Callable[[dict[str, "str | None"]], dict[str, str]]  # the ratings held -> the new ones
RATED_FOR = 30 * 24 * 3600  # seconds a result's id is remembered as rated


class StoreDown(Exception):
    """The store can't be reached now: the shared action is refused with
    one line, and tried again once it is back."""


class Damaged(ValueError):
    """What the store holds is not what Garito writes there (a foreign or
    corrupted value, another type): that table or key is set aside with a
    log line, the others go on."""


class TableStore(Protocol):
    host: str  # this host's id: who sits where is said with it
    shared: bool  # other hosts may write too (False: this host alone)

    async def open(self, heard: Heard) -> None: ...
    async def close(self) -> None: ...

    async def new_table(self) -> int: ...
    async def append(self, table: int, expected: int, entry: str) -> bool: ...
    async def read(self, table: int, start: int = 0) -> list[str]: ...
    async def lengths(self) -> dict[int, int]: ...
    async def drop(self, table: int) -> None: ...

    async def alive(self) -> set[str]: ...
    async def left(self, kind: str, key: str, burst: int, every: float) -> float: ...
    async def take(self, kind: str, key: str, burst: int, every: float) -> bool: ...
    async def give_back(self, kind: str, key: str, burst: int, every: float) -> None: ...
    async def publish(self, channel: str, payload: str) -> None: ...

    async def rate(self, game: str, result: str, keys: list[str], rater: Rater) -> dict[str, str] | None: ...
    async def ratings(self, game: str, keys: list[str] | None = None) -> dict[str, str]: ...


class Allowance:
    """What someone may still do, by key (a name, or an origin), across
    their connections: ``burst`` at once, one more every ``every`` seconds;
    the newest GUESSERS keys remembered (one forgotten has its whole burst)."""

    def __init__(self, burst: int, every: float) -> None:
        self.burst, self.every = burst, every
        self.spent: dict[str, tuple[float, float]] = {}  # key -> (left, when counted)

    def left(self, key: str, now: float) -> float:
        left, stamp = self.spent.get(key, (self.burst, now))
        return min(self.burst, left + (now - stamp) / self.every)

    def spend(self, key: str, now: float, cost: int = 1) -> float:
        """One spent (-1: one given back): what is left."""
        left = min(self.burst, self.left(key, now) - cost)
        self.spent.pop(key, None)  # the newest last
        self.spent[key] = (left, now)
        while len(self.spent) > GUESSERS:
            del self.spent[next(iter(self.spent))]
        return left


class MemoryStore:
    """One host's tables in its own memory. Nothing here awaits anything,
    so a call returns before any other message is handled."""

    shared = False

    def __init__(self) -> None:
        self.host = "here"
        self.records: dict[int, list[str]] = {}
        self.allowances: dict[str, Allowance] = {}
        self._next = 1
        self._heard: Heard | None = None
        self.rated: dict[str, dict[str, str]] = {}  # game -> key -> its rating (JSON)
        self.results: set[str] = set()  # the results rated

    async def open(self, heard: Heard) -> None:
        self._heard = heard

    async def close(self) -> None:
        self._heard = None

    async def new_table(self) -> int:
        n, self._next = self._next, self._next + 1
        return n

    async def append(self, table: int, expected: int, entry: str) -> bool:
        record = self.records.setdefault(table, [])
        if len(record) != expected or len(record) >= MAX_ENTRIES:
            return False
        record.append(entry)
        return True

    async def read(self, table: int, start: int = 0) -> list[str]:
        return self.records.get(table, [])[start:]

    async def lengths(self) -> dict[int, int]:
        return {n: len(r) for n, r in self.records.items()}

    async def drop(self, table: int) -> None:
        self.records.pop(table, None)

    async def alive(self) -> set[str]:
        return {self.host}

    def _allowance(self, kind: str, burst: int, every: float) -> Allowance:
        a = self.allowances.get(kind)
        if a is None or (a.burst, a.every) != (burst, every):
            a = self.allowances[kind] = Allowance(burst, every)
        return a

    async def left(self, kind: str, key: str, burst: int, every: float) -> float:
        return self._allowance(kind, burst, every).left(key, time.monotonic())

    async def take(self, kind: str, key: str, burst: int, every: float) -> bool:
        """One spent, if one is left (the check and the spending one step)."""
        allowance, now = self._allowance(kind, burst, every), time.monotonic()
        if allowance.left(key, now) < 1:
            return False
        allowance.spend(key, now)
        return True

    async def give_back(self, kind: str, key: str, burst: int, every: float) -> None:
        allowance, now = self._allowance(kind, burst, every), time.monotonic()
        allowance.spend(key, now, -1)

    async def publish(self, channel: str, payload: str) -> None:
        # One host: what it says, it hears at once (talk reaches its own players).
        if self._heard is not None:
            self._heard(channel, payload)

    async def rate(self, game: str, result: str, keys: list[str], rater: Rater) -> dict[str, str] | None:
        """``result`` rated once: ``rater`` gives the new ratings from those
        held (None: not yet rated), and every host hears them ("rated");
        None if it was rated before."""
        if result in self.results:
            return None
        board = self.rated.setdefault(game, {})
        new = rater({k: board.get(k) for k in keys})
        board.update(new)
        self.results.add(result)
        await self.publish("rated", json.dumps({"game": game, "ratings": new}, ensure_ascii=False))
        return new

    async def ratings(self, game: str, keys: list[str] | None = None) -> dict[str, str]:
        board = self.rated.get(game, {})
        return dict(board) if keys is None else {k: board[k] for k in keys if k in board}


def host_id() -> str:
    """A host's id for one run: a restarted host is a new one, so the seats
    its last run held are seen as left behind."""
    return secrets.token_hex(6)
