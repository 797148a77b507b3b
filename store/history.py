"""Every finished match, kept in a SQLite database (``history.sqlite3``
under ``platformdirs.user_data_path("garito")``, or ``GARITO_HOME``).

The schema has a version (``PRAGMA user_version``) and migrations from each
version to the next, run in one transaction when the file is opened. A match
is stored as its game record (JSON), with what the statistics need beside
it: the players' names, each seat's outcome and the game's own records. All
of those come from replaying the record, so a migration that adds one can
fill it in for the matches already kept (version 2 did).

Writes are transactions (``BEGIN IMMEDIATE``, waiting up to a few seconds
for another Garito writing at the same time). A database another process
holds too long, or a damaged file, raises ``HistoryError`` with a message
for the player; a damaged file is first moved aside as ``*.corrupt`` (never
deleted), so the next match starts a new history. A finished match reaches
the history through ``store.pending``, which keeps it while the history
cannot take it.

Every row is checked for its types as it is read (the file may have been
written by anything): a row that does not hold what a finished match holds
is left out of the entries and counted (``left_out``), never a traceback.
"""

from __future__ import annotations

import json
import math
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

from garito.core import catalog
from garito.core.i18n import _, ngettext
from garito.core.match import Match, RecordError
from garito.core.names import clean

from .atomic import set_aside
from .paths import data_dir

SCHEMA = 2
WAIT = 5.0  # seconds a writer waits for another to finish


class HistoryError(Exception):
    """The history cannot be read or written; the message says why."""


class NoSuchMatch(HistoryError):
    """The history holds no match of that number."""


def db_path() -> Path:
    return data_dir() / "history.sqlite3"


def _v1(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TABLE matches (id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " game TEXT NOT NULL, finished TEXT NOT NULL, record TEXT NOT NULL)"
    )


def _v2(db: sqlite3.Connection) -> None:
    """The statistics' columns, filled in from the records already kept."""
    for column in ("players", "outcome", "records"):
        db.execute(f"ALTER TABLE matches ADD COLUMN {column} TEXT")
    db.execute("CREATE INDEX matches_game ON matches (game, finished)")
    for row_id, record in db.execute("SELECT id, record FROM matches").fetchall():
        try:
            derived = _derived(Match.from_json(record))
        except RecordError:
            continue  # kept as it is; the statistics skip it
        db.execute(
            "UPDATE matches SET players = ?, outcome = ?, records = ? WHERE id = ?", (*derived, row_id)
        )


MIGRATIONS = {1: _v1, 2: _v2}  # version -> the step that reaches it


def _derived(match: Match) -> tuple[str, str, str]:
    rules, state = match.rules, match.state
    outcome = rules.outcome(state)
    records = [rules.records(state, seat) for seat in range(len(match.seats))]
    return json.dumps(list(match.names)), json.dumps(list(outcome)), json.dumps(records)


@dataclass(frozen=True)
class Entry:
    id: int
    game: str
    finished: str  # ISO 8601, UTC (to the second, or the microsecond)
    players: tuple[str, ...]
    outcome: tuple[str, ...]
    records: tuple[dict, ...]

    def result_text(self) -> str:
        winners = [p for p, o in zip(self.players, self.outcome) if o == "win"]
        if winners:
            return _("{players} won").format(players=", ".join(winners))
        return _("drawn") if "draw" in self.outcome else _("house won")


class History:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or db_path()
        self._db: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=WAIT, isolation_level=None)
            self._migrate()
        except sqlite3.DatabaseError as e:
            self._fail(e)
        except OSError as e:
            reason = e.strerror or e
            raise HistoryError(_("The history cannot be opened ({reason}).").format(reason=reason)) from e

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise HistoryError(_("The history is closed."))
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _fail(self, e: sqlite3.Error) -> NoReturn:
        text = str(e)
        if "locked" in text or "busy" in text:
            raise HistoryError(_("The history is busy (another Garito is writing it).")) from e
        damaged = not isinstance(e, sqlite3.OperationalError) or "malformed" in text
        if not damaged:  # cannot open or write it (read-only, full disk): leave it be
            raise HistoryError(_("The history cannot be written ({reason}).").format(reason=text)) from e
        try:
            if self._db is not None:
                self._db.close()
        except Exception:
            pass
        try:
            moved = set_aside(self.path) if self.path.is_file() else None
        except OSError:
            moved = None
        where = f" It was moved to {moved.name}; a new history starts." if moved else ""
        raise HistoryError(f"The history file is damaged ({text}).{where}") from e

    @property
    def version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def _migrate(self) -> None:
        version = self.version
        if version > SCHEMA:
            raise HistoryError(
                f"The history was written by a newer Garito (schema {version}, this one reads {SCHEMA})."
            )
        if version == SCHEMA:
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            version = self.version  # another process may have migrated it meanwhile
            for step in range(version + 1, SCHEMA + 1):
                MIGRATIONS[step](self.db)
                self.db.execute(f"PRAGMA user_version = {step}")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def add(self, match: Match, finished: datetime | None = None) -> int:
        """Keep a finished match; returns its id."""
        return self.add_once(match, finished, once=False)[0]

    def add_once(self, match: Match, finished: datetime | str | None = None, *, once: bool = True):
        """Keep a finished match unless the history holds it already (the
        same record finished at the same time: a match that waited in
        ``pending/`` and is added again after a crash); returns its id and
        whether it was added now. ``finished``: ISO 8601 text as kept, or a
        time (kept to the second)."""
        if isinstance(finished, str):
            when = finished
        else:
            when = (finished or datetime.now(UTC)).isoformat(timespec="seconds")
        players, outcome, records = _derived(match)
        text = match.to_json()
        try:
            with closing(self.db.cursor()) as cur:
                cur.execute("BEGIN IMMEDIATE")
                held = None
                if once:  # inside the transaction: two Garitos adding it at once add it once
                    held = cur.execute(
                        "SELECT id FROM matches WHERE game = ? AND finished = ? AND record = ?",
                        (match.game, when, text),
                    ).fetchone()
                if held is None:
                    cur.execute(
                        "INSERT INTO matches (game, finished, record, players, outcome, records)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (match.game, when, text, players, outcome, records),
                    )
                    row_id = cur.lastrowid
                else:
                    row_id = held[0]
                cur.execute("COMMIT")
        except sqlite3.Error as e:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            self._fail(e)
        assert row_id is not None  # sqlite gives the row it inserted
        return int(row_id), held is None

    left_out = 0  # rows the last ``entries()`` could not read

    def left_out_text(self) -> str:
        """One line on the rows the last ``entries()`` left out; "" if none."""
        n = self.left_out
        if not n:
            return ""
        return ngettext(
            "{count} match in the history could not be read (damaged, or written by another Garito) "
            "and is left out.",
            "{count} matches in the history could not be read (damaged, or written by another Garito) "
            "and are left out.",
            n,
        ).format(count=n)

    def entries(self, game: str | None = None) -> list[Entry]:
        """The matches kept, oldest first. A row that does not hold what a
        finished match holds (its record no longer replayed when a
        migration filled it in, or its columns are not the right JSON) is
        left out and counted in ``left_out``."""
        sql = "SELECT id, game, finished, players, outcome, records FROM matches"
        args: tuple = ()
        if game:
            sql += " WHERE game = ?"
            args = (game,)
        try:
            rows = self.db.execute(sql + " ORDER BY finished, id", args).fetchall()
        except sqlite3.Error as e:
            self._fail(e)
        out = [entry for entry in map(_entry, rows) if entry is not None]
        self.left_out = len(rows) - len(out)
        return out

    def record(self, match_id: int) -> dict:
        """A match's record as JSON data; ``HistoryError`` if there is no such
        match or its record is not a JSON object."""
        row = None
        if -(2**63) <= match_id < 2**63:  # SQLite's integers; no id lies beyond
            try:
                row = self.db.execute("SELECT record FROM matches WHERE id = ?", (match_id,)).fetchone()
            except sqlite3.Error as e:
                self._fail(e)
        if row is None:
            raise NoSuchMatch(f"No match {match_id} in the history.")
        try:
            data = json.loads(row[0])
        except (TypeError, ValueError, RecursionError):
            data = None
        if not isinstance(data, dict):
            raise HistoryError(f"Match {match_id}'s record is damaged: it is not a JSON object.")
        return data

    def records(self):
        """Every record kept, as JSON text (the dice audit replays them)."""
        for (text,) in self.db.execute("SELECT record FROM matches ORDER BY id"):
            yield text if isinstance(text, str) else ""


OUTCOMES = ("win", "loss", "draw")
# A game's own records (points, rounds) are small numbers; anything past
# this is no record a match made, and would not print as a number.
LARGEST = 10**12


def _entry(row: tuple) -> Entry | None:
    """A row as an ``Entry``, or None if it does not hold the right types."""
    row_id, game, finished, players, outcome, records = row
    if not (isinstance(game, str) and game in catalog.BY_ID and isinstance(finished, str)):
        return None
    try:
        datetime.fromisoformat(finished)
    except ValueError:
        return None
    try:
        players, outcome, records = json.loads(players), json.loads(outcome), json.loads(records)
    except (TypeError, ValueError, RecursionError):  # NULL, not JSON, nested too deep
        return None
    if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        return None
    if not (isinstance(outcome, list) and len(outcome) == len(players)):
        return None
    if not all(isinstance(o, str) and o in OUTCOMES for o in outcome):
        return None
    if not (isinstance(records, list) and all(_seat_records(r) for r in records)):
        return None
    return Entry(row_id, game, finished, tuple(map(clean, players)), tuple(outcome), tuple(records))


def _seat_records(value) -> bool:
    return isinstance(value, dict) and all(
        # the size first: math.isfinite of an int past a float's range raises
        isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= LARGEST and math.isfinite(v)
        for v in value.values()
    )


def keep(match: Match, path: Path | None = None) -> int:
    """Add a finished match to the history; ``HistoryError`` if it cannot
    (the app keeps matches through ``store.pending``, which waits then)."""
    with History(path) as h:
        return h.add(match)
