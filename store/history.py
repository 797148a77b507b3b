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
deleted), so the next match starts a new history.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from garito.core import standings
from garito.core.match import Match, RecordError

from .atomic import set_aside
from .paths import data_dir

SCHEMA = 2
WAIT = 5.0  # seconds a writer waits for another to finish


class HistoryError(Exception):
    """The history cannot be read or written; the message says why."""


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
    outcome = standings.outcome(rules, state)
    records = [standings.records(rules, state, seat) for seat in range(len(match.seats))]
    return json.dumps(list(match.names)), json.dumps(list(outcome)), json.dumps(records)


@dataclass(frozen=True)
class Entry:
    id: int
    game: str
    finished: str  # ISO 8601, UTC
    players: tuple[str, ...]
    outcome: tuple[str, ...]
    records: tuple[dict, ...]

    def result_text(self) -> str:
        winners = [p for p, o in zip(self.players, self.outcome) if o == "win"]
        if winners:
            return ", ".join(winners) + " won"
        return "drawn" if "draw" in self.outcome else "house won"


class History:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or db_path()
        self.db: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=WAIT, isolation_level=None)
            self._migrate()
        except sqlite3.DatabaseError as e:
            self._fail(e)
        except OSError as e:
            reason = e.strerror or e
            raise HistoryError(f"The history cannot be written ({reason}); this match is not kept.") from e

    def close(self) -> None:
        if self.db is not None:
            self.db.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _fail(self, e: sqlite3.Error):
        text = str(e)
        if "locked" in text or "busy" in text:
            raise HistoryError(
                "The history is busy (another Garito is writing it); this match is not kept."
            ) from e
        damaged = not isinstance(e, sqlite3.OperationalError) or "malformed" in text
        if not damaged:  # cannot open or write it (read-only, full disk): leave it be
            raise HistoryError(f"The history cannot be written ({text}); this match is not kept.") from e
        try:
            self.db.close()
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
        when = (finished or datetime.now(UTC)).isoformat(timespec="seconds")
        players, outcome, records = _derived(match)
        try:
            with closing(self.db.cursor()) as cur:
                cur.execute("BEGIN IMMEDIATE")
                cur.execute(
                    "INSERT INTO matches (game, finished, record, players, outcome, records)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (match.game, when, match.to_json(), players, outcome, records),
                )
                row_id = cur.lastrowid
                cur.execute("COMMIT")
        except sqlite3.Error as e:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            self._fail(e)
        return int(row_id)

    def entries(self, game: str | None = None) -> list[Entry]:
        """The matches kept, oldest first (those whose record no longer
        replays are left out)."""
        sql = "SELECT id, game, finished, players, outcome, records FROM matches WHERE players IS NOT NULL"
        args: tuple = ()
        if game:
            sql += " AND game = ?"
            args = (game,)
        try:
            rows = self.db.execute(sql + " ORDER BY finished, id", args).fetchall()
        except sqlite3.Error as e:
            self._fail(e)
        return [
            Entry(i, g, f, tuple(json.loads(p)), tuple(json.loads(o)), tuple(json.loads(r)))
            for i, g, f, p, o, r in rows
        ]

    def record(self, match_id: int) -> dict:
        row = self.db.execute("SELECT record FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise HistoryError(f"No match {match_id} in the history.")
        return json.loads(row[0])

    def records(self):
        """Every record kept, as JSON text (the dice audit replays them)."""
        for (text,) in self.db.execute("SELECT record FROM matches ORDER BY id"):
            yield text


def keep(match: Match, path: Path | None = None) -> int:
    """Add a finished match to the history; ``HistoryError`` if it cannot."""
    with History(path) as h:
        return h.add(match)
