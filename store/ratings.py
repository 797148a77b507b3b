"""Ratings of the shared tables' players, per game: OpenSkill's
Plackett-Luce model (free-for-all, 2-6 seats; a draw is a tie), from every
finished shared match. A person is rated by name; a computer seat by its
level ("Computer (hard)"), so a newcomer can measure themselves against it.
What is shown is the ordinal, mu - 3 sigma: a rating the player very likely
holds at least (a newcomer starts at 0: mu 25, sigma 25/3).

A match's places come from the rules' ``outcome``: the winners first, then
those who drew, then those who lost, each group tied. A level that sits in
several seats of one match is rated from each of them alike (the library
rates every seat from the same prior) and takes their new ratings'
average, counted as one match: three hard computers losing to one person
move the level as much as one would.

Kept in a folder of the server's data (``ratings/``) with the history's care:

* every result is first written to ``pending/`` (one small JSON
  file, atomically), then applied to ``ratings.sqlite3`` in one
  transaction that records the result (once: its game, its table's
  commitment and its finish time are its key) and each seat's new rating,
  and only then is its file removed. A store another process holds (busy)
  or a disk that refuses leaves the result waiting in its file, retried in
  order, and what still waits when the server stops is applied, in order,
  at the next start: none is lost, none is counted twice.
* the file carries its schema version (``PRAGMA user_version``) and the
  migrations from each version to the next run in one transaction when it
  is opened. One that cannot be read is set aside as ``*.corrupt`` with
  one line in the log and a new store begun; one a newer Garito wrote is
  left alone (the ratings are then kept in memory only, the results wait
  in their files, and the log says so once).

The server reads ratings from memory (the lobby's listing asks for them
with every change); the files are opened (``open``, before serving) and
written (a thread of their own) away from the server's event loop.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import logging
import math
import queue
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from garito.core.match import Match, Seat

from .atomic import set_aside, write_atomic

log = logging.getLogger("garito.ratings")

SCHEMA = 1
FILE = "ratings.sqlite3"
PENDING = "pending"
RANK = {"win": 1, "draw": 2, "loss": 3}  # a standing's place: lower is better, equal is a tie
LEADERS = 15  # rows of a leaderboard
MAX_SEATS = 8
WAIT = 5.0  # seconds a write waits for another process holding the store
MAX_MU, MAX_SIGMA, MAX_MATCHES = 1e4, 1e3, 10**9  # bounds of a rating as read
MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300

Result = dict[str, Any]  # {"game", "finished", "commitment", "seats": [[key, name, computer, rank], ...]}


@dataclass(frozen=True)
class Rating:
    """One player's (or level's) rating at one game. ``name``: the person's
    name, or the computer's level."""

    name: str
    computer: bool
    mu: float
    sigma: float
    matches: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def _order(rating: Rating) -> tuple[float, str]:
    """A leaderboard's order: the higher ordinal first, then by name."""
    return -rating.ordinal, rating.name


def key_of(name: str, kind: str, level: str) -> tuple[str, str, bool]:
    """Who a seat is, for the ratings (key, name, computer): a person by
    name, a computer by level."""
    if kind == "human":
        return name, name, False
    return f"computer:{level}", level, True


def result_of(match: Match[Any, Any, Any], finished: str) -> Result | None:
    """A finished match's result as the ratings keep it; None if there is
    nothing to rate (one seat, or one player in every seat)."""
    standings = match.rules.outcome(match.state)
    seats = []
    for seat, standing in zip(match.seats, standings, strict=True):
        key, name, computer = key_of(seat.name, seat.kind, seat.level)
        seats.append([key, name, computer, RANK[standing]])
    if len({s[0] for s in seats}) < 2:
        return None
    return {"game": match.game, "finished": finished, "commitment": match.commitment, "seats": seats}


def rate(held: Mapping[str, Rating], result: Result) -> dict[str, Rating]:
    """The new ratings of ``result``'s players (by key), from ``held``
    (their ratings at its game before it; a newcomer starts at the
    model's prior)."""
    seats = result["seats"]
    before = {
        key: held.get(key) or Rating(name, computer, MODEL.mu, MODEL.sigma)
        for key, name, computer, _ in seats
    }
    teams = [[MODEL.rating(mu=before[s[0]].mu, sigma=before[s[0]].sigma)] for s in seats]
    after = MODEL.rate(teams, ranks=[float(s[3]) for s in seats])
    moved: dict[str, list[tuple[float, float]]] = {}
    for seat, [new] in zip(seats, after, strict=True):
        moved.setdefault(seat[0], []).append((new.mu, new.sigma))
    out = {}
    for key, name, computer, _ in seats:
        news = moved[key]
        mu = sum(m for m, _s in news) / len(news)
        sigma = sum(s for _m, s in news) / len(news)
        out[key] = Rating(name, computer, mu, sigma, before[key].matches + 1)
    return out


# ---------------------------------------------------------------- the store's schema


def _v1(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TABLE results (game TEXT NOT NULL, finished TEXT NOT NULL, commitment TEXT NOT NULL,"
        " seats TEXT NOT NULL, PRIMARY KEY (game, finished, commitment))"
    )
    db.execute(
        "CREATE TABLE ratings (game TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL,"
        " computer INTEGER NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL, matches INTEGER NOT NULL,"
        " PRIMARY KEY (game, key))"
    )


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1}


class Newer(Exception):
    """A store a newer Garito wrote."""


def connect(path: Path, wait: float = WAIT) -> sqlite3.Connection:
    """The store at ``path``, migrated to this Garito's schema; Newer if a
    newer Garito wrote it, sqlite3.DatabaseError if it is damaged."""
    db = sqlite3.connect(path, timeout=wait, isolation_level=None, check_same_thread=False)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA:
            raise Newer(
                f"{path.name} was written by a newer Garito (schema {version}, this one reads {SCHEMA})"
            )
        if version < SCHEMA:
            db.execute("BEGIN IMMEDIATE")
            try:
                version = db.execute("PRAGMA user_version").fetchone()[0]  # another may have meanwhile
                for step in range(version + 1, SCHEMA + 1):
                    MIGRATIONS[step](db)
                    db.execute(f"PRAGMA user_version = {step}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        db.execute("PRAGMA quick_check").fetchall()  # DatabaseError if its pages are damaged
    except BaseException:
        db.close()
        raise
    return db


def _row(row: tuple[Any, ...]) -> tuple[str, str, Rating] | None:
    """A ratings row as read (the file may have been written by anything);
    None for one that does not hold what a rating holds."""
    game, key, name, computer, mu, sigma, matches = row
    if not (isinstance(game, str) and isinstance(key, str) and isinstance(name, str)):
        return None
    if not all(isinstance(v, int | float) and math.isfinite(v) for v in (mu, sigma)) or sigma <= 0:
        return None
    # Far past any rating a match gives (mu 25 +- a few hundred, sigma at most
    # the prior's 8.3): a value no store of Garito's holds.
    if abs(mu) > MAX_MU or sigma > MAX_SIGMA:
        return None
    if type(matches) is not int or not 0 <= matches <= MAX_MATCHES or computer not in (0, 1):
        return None
    return game, key, Rating(name, bool(computer), float(mu), float(sigma), matches)


def rating_json(rating: Rating) -> str:
    """A rating as a cluster's hosts keep it in their store (a Redis hash
    per game, ``server.redis_store``)."""
    return json.dumps(
        {"name": rating.name, "computer": rating.computer, "mu": rating.mu, "sigma": rating.sigma,
         "matches": rating.matches},
        ensure_ascii=False,
    )  # fmt: skip


def rating_of(text: object) -> Rating | None:
    """A rating as ``rating_json`` wrote it; None for anything else (a
    store's values are untrusted: a foreign or damaged one counts as none)."""
    if not isinstance(text, str) or len(text) > 1000:
        return None
    try:
        d = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(d, dict) or not isinstance(d.get("name"), str) or len(d["name"]) > 60:
        return None
    row = _row(("", "", d["name"], d.get("computer") if isinstance(d.get("computer"), bool) else None,
                d.get("mu"), d.get("sigma"), d.get("matches")))  # fmt: skip
    return None if row is None else row[2]


def result_id(result: Result) -> str:
    """What makes a result one match's (its game, its table's commitment,
    its finish time): rated once under it, by whichever host."""
    key = "\x00".join((result["game"], result["commitment"], result["finished"]))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def check(result: object) -> Result:
    """A result as read from its file; ValueError if it is not one."""
    if not isinstance(result, dict):
        raise ValueError("not an object")
    for k in ("game", "finished", "commitment"):
        if not isinstance(result.get(k), str):
            raise ValueError(f"no {k}")
    seats = result.get("seats")
    if not isinstance(seats, list) or not 1 < len(seats) <= MAX_SEATS:
        raise ValueError("no seats")
    for s in seats:
        if not (isinstance(s, list) and len(s) == 4 and isinstance(s[0], str) and isinstance(s[1], str)
                and isinstance(s[2], bool) and type(s[3]) is int):  # fmt: skip
            raise ValueError("a seat is not as written")
    return result


def _file_name(result: Result) -> str:
    """Its pending file: in the order results finished, then unique."""
    text = json.dumps(result, sort_keys=True, ensure_ascii=False)
    stamp = "".join(c for c in result["finished"] if c.isdigit())[:20]
    return f"{stamp}-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"


# ---------------------------------------------------------------- the ratings


class Ratings:
    """Every game's ratings, in memory, kept in ``folder`` (None: in memory
    only). ``open`` reads the store and applies what waits (in a thread,
    before serving); ``played`` takes a finished match (on the server's
    loop: it only computes and queues); ``close`` lets the writer finish."""

    def __init__(self, folder: Path | None, *, wait: float = WAIT) -> None:
        self.folder = folder
        self.wait = wait
        self.table: dict[tuple[str, str], Rating] = {}  # (game, key) -> its rating
        self._boards: dict[str, tuple[list[Rating], list[tuple[float, str]]]] = {}  # game -> its order
        self._db: sqlite3.Connection | None = None
        self._queue: queue.Queue[tuple[Result, Path | None] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._stopping = threading.Event()

    @property
    def path(self) -> Path | None:
        return None if self.folder is None else self.folder / FILE

    # ------------------------------------------------------------ reading

    def shown(self, game: str, seat: Seat) -> float | None:
        """The seat's rating at ``game`` (its ordinal, to a tenth), once it
        has played a rated match there."""
        rating = self.table.get((game, key_of(seat.name, seat.kind, seat.level)[0]))
        return None if rating is None or not rating.matches else round(rating.ordinal, 1)

    def leaders(self, game: str, n: int = LEADERS) -> list[Rating]:
        """Everyone rated at ``game``, best first (the first ``n``)."""
        return self._board(game)[0][:n]

    def place(self, game: str, name: str) -> tuple[int, Rating] | None:
        """Where the person ``name`` stands at ``game`` (1 is the best), and
        their rating; None before their first rated match."""
        mine = self.table.get((game, name))
        if mine is None or not mine.matches:
            return None
        return bisect.bisect_left(self._board(game)[1], _order(mine)) + 1, mine  # those strictly better, + 1

    def _board(self, game: str) -> tuple[list[Rating], list[tuple[float, str]]]:
        """``game``'s rated players, best first, and their order's keys:
        sorted once a result, not once a question (the loop answers the
        lobbies' ``leaders``: 10,000 players sorted each time cost 10 ms)."""
        board = self._boards.get(game)
        if board is None:
            rows = sorted((r for (g, _k), r in self.table.items() if g == game and r.matches), key=_order)
            board = self._boards[game] = (rows, [_order(r) for r in rows])
        return board

    # ------------------------------------------------------------ a result

    def played(self, match: Match[Any, Any, Any], finished: str) -> None:
        """A finished shared match: the ratings move at once (in memory),
        the writer keeps it."""
        result = result_of(match, finished)
        if result is None:
            return
        self.apply(result)
        if self.folder is not None:
            self._queue.put((result, None))
            self._start_writer()

    def apply(self, result: Result) -> None:
        """A result (as ``result_of`` makes it) into the ratings in memory."""
        game = result["game"]
        keys = {s[0] for s in result["seats"]}
        held = {k: r for k in keys if (r := self.table.get((game, k))) is not None}
        for key, rating in rate(held, result).items():
            self.table[(game, key)] = rating
        self._boards.pop(game, None)

    def replace(self, game: str, ratings: Mapping[str, Rating | None], *, whole: bool = False) -> list[str]:
        """The store's ratings, taken as they are (None: it holds none for
        that key); ``whole``: every rating of ``game`` the store holds, the
        rest let go. The keys that changed."""
        changed = []
        if whole:
            for k in [k for (g, k) in self.table if g == game and k not in ratings]:
                del self.table[(game, k)]
                changed.append(k)
        for key, rating in ratings.items():
            if self.table.get((game, key)) != rating:
                if rating is None:
                    del self.table[(game, key)]
                else:
                    self.table[(game, key)] = rating
                changed.append(key)
        if changed:
            self._boards.pop(game, None)
        return changed

    # ------------------------------------------------------------ the files

    def open(self) -> None:
        """Read the store (set aside if damaged), then apply every result
        that waits in its file, in order. Blocking: call it in a thread."""
        if self.folder is None:
            return
        path = self.folder / FILE
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._db = connect(path, self.wait)
            self._load()
        except Newer as e:
            log.warning("%s: the ratings are kept in memory only, new results wait in %s", e, PENDING)
            self._db = None
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e) and "malformed" not in str(e):
                log.warning("the ratings cannot be opened (%s): kept in memory only this time", e)
                self._db = None
            else:
                self._set_aside_or_memory(path, e)
        except sqlite3.DatabaseError as e:
            self._set_aside_or_memory(path, e)
        except OSError as e:
            log.warning("the ratings cannot be opened (%s): kept in memory only this time", e.strerror or e)
            self._db = None
        for waiting in self._waiting():
            self._catch_up(waiting)
        self._start_writer()

    def _set_aside_or_memory(self, path: Path, e: Exception) -> None:
        if "locked" in str(e) or "busy" in str(e):
            log.warning("the ratings are busy (%s): kept in memory only this time", e)
            self._db = None
            return
        self._close_db()
        self.table.clear()
        self._boards.clear()
        try:
            aside = set_aside(path)
            for extra in ("-wal", "-shm"):  # its journal belongs to it
                journal = path.with_name(path.name + extra)
                if journal.exists():
                    journal.replace(aside.with_name(aside.name + extra))
            self._db = connect(path, self.wait)
        except (OSError, sqlite3.Error) as again:
            log.warning("the ratings could not be read (%s) nor begun again (%s): in memory only", e, again)
            self._db = None
            return
        log.warning("the ratings could not be read (%s): set aside as %s, begun again", e, aside.name)

    def _load(self) -> None:
        assert self._db is not None
        bad = 0
        for row in self._db.execute("SELECT game, key, name, computer, mu, sigma, matches FROM ratings"):
            read = _row(row)
            if read is None:
                bad += 1
                continue
            game, key, rating = read
            self.table[(game, key)] = rating
            self._boards.pop(game, None)
        if bad:
            log.warning("%d ratings rows could not be read and were left out", bad)

    def _waiting(self) -> list[Path]:
        assert self.folder is not None
        try:
            return sorted((self.folder / PENDING).glob("*.json"))
        except OSError:
            return []

    def _catch_up(self, path: Path) -> None:
        """A result that waited in its file: into the ratings in memory
        unless the store holds it already (a stop between the store's commit
        and the file's removal), and to the writer."""
        try:
            result = check(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, RecursionError) as e:
            try:
                aside = set_aside(path)
                log.warning("a waiting rating result could not be read (%s): set aside as %s", e, aside.name)
            except OSError:
                log.warning("a waiting rating result could not be read (%s): left in %s", e, path.name)
            return
        if not self._holds(result):
            self.apply(result)
        if self._db is not None:
            self._queue.put((result, path))

    def _holds(self, result: Result) -> bool:
        if self._db is None:
            return False
        try:
            return (
                self._db.execute(
                    "SELECT 1 FROM results WHERE game = ? AND finished = ? AND commitment = ?",
                    (result["game"], result["finished"], result["commitment"]),
                ).fetchone()
                is not None
            )
        except sqlite3.Error:
            return False

    def _start_writer(self) -> None:
        if self._writer is None and self.folder is not None and not self._stopping.is_set():
            self._writer = threading.Thread(target=self._write, name="ratings", daemon=True)
            self._writer.start()

    def _write(self) -> None:
        """The writer thread: each result into its pending file, then the
        store; in order, a busy store retried until it takes it. Every result
        given meanwhile goes into its file first, so none waits only in
        memory while the store is busy (a kill then would lose it)."""
        waiting: deque[tuple[Result, Path | None]] = deque()  # on disk (or not writable), in order
        ending = False  # close() asked: what is queued is written, then the thread ends

        def to_disk(block: bool) -> None:
            nonlocal ending
            while not ending:
                try:
                    item = self._queue.get(block=block and not waiting)
                except queue.Empty:
                    return
                if item is None:
                    ending = True
                    return
                waiting.append(self._on_disk(*item))

        while True:
            to_disk(block=True)
            if not waiting:
                return  # ending, nothing left
            result, path = waiting.popleft()
            if self._db is None:
                continue  # in memory only this time: the file waits for a start that can store it
            if not self._store_until_done(result, lambda: to_disk(block=False)):
                continue  # stopping, or the store is gone: it waits in its file
            if path is not None:
                try:
                    path.unlink()
                except OSError:
                    pass  # applied again at the next start: once, as the store holds it

    def _on_disk(self, result: Result, path: Path | None) -> tuple[Result, Path | None]:
        """A new result into its pending file (a waiting one is there already)."""
        if path is not None:
            return result, path
        path = self.folder / PENDING / _file_name(result)  # type: ignore[operator]
        try:
            write_atomic(path, json.dumps(result, ensure_ascii=False))
        except OSError as e:
            log.warning("a rating result could not wait on disk (%s): into the store at once", e)
            return result, None
        return result, path

    def _store_until_done(self, result: Result, meanwhile: Callable[[], None] = lambda: None) -> bool:
        delay = 0.1
        while True:
            try:
                self._store(result)
                return True
            except sqlite3.OperationalError as e:  # busy, locked, a full disk: wait, in order
                if "malformed" in str(e):
                    return self._damaged(e)
                if self._stopping.is_set():
                    log.warning("a rating result waits for the next start (%s)", e)
                    return False
                meanwhile()  # what came since waits on disk, not only here
                self._stopping.wait(delay)
                delay = min(2.0, delay * 2)
            except sqlite3.DatabaseError as e:
                return self._damaged(e)

    def _damaged(self, e: Exception) -> bool:
        log.warning("the ratings store is damaged (%s): new results wait for the next start", e)
        self._close_db()
        return False

    def _store(self, result: Result) -> bool:
        """The result into the store, once; whether it was new there."""
        db = self._db
        assert db is not None
        game = result["game"]
        db.execute("BEGIN IMMEDIATE")
        try:
            fresh = db.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?)",
                (
                    game,
                    result["finished"],
                    result["commitment"],
                    json.dumps(result["seats"], ensure_ascii=False),
                ),
            ).rowcount
            if fresh:
                held: dict[str, Rating] = {}
                for key in {s[0] for s in result["seats"]}:
                    row = db.execute(
                        "SELECT game, key, name, computer, mu, sigma, matches FROM ratings"
                        " WHERE game = ? AND key = ?",
                        (game, key),
                    ).fetchone()
                    read = None if row is None else _row(row)
                    if read is not None:
                        held[key] = read[2]
                for key, r in rate(held, result).items():
                    db.execute(
                        "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (game, key, r.name, int(r.computer), r.mu, r.sigma, r.matches),
                    )
            db.execute("COMMIT")
        except BaseException:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise
        return bool(fresh)

    def close(self, timeout: float = 10.0) -> None:
        """Every result given so far into the store, waiting at most about
        ``timeout`` seconds (what is left waits in its file). Blocking:
        call it in a thread."""
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(timeout)
            self._stopping.set()
            self._writer.join(self.wait + 1)
            self._writer = None
        self._stopping.set()
        self._close_db()

    def _close_db(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None
