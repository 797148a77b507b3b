"""Finished matches on their way to the history, which never lose one.

A finished match is written first to ``pending/`` beside the history (one
small JSON file, atomically), then added to the history, and only then is
its pending file removed and its save discarded. When the history cannot
take it (another Garito holds it longer than the history waits, the file is
damaged or read-only, a newer Garito wrote it), the match waits there, its
save kept too, and every later start adds what waits (``drain``).

Adding is idempotent: a pending file is named after a fingerprint of what
it holds (the record and its finish time, to the microsecond), and the
history adds a record only if it does not hold that same record finished at
that same time already (``History.add_once``), so a crash between the
history's commit and the file's removal, or two Garitos starting at once,
add a match once; the same record played again finishes at another time
and is kept again. A pending file that cannot be read is
set aside as ``*.corrupt``, never deleted.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from garito.core.i18n import _

from . import saves
from .atomic import set_aside, write_atomic
from .waiting import pending_dir

# Every start looks whether a match waits here (``waiting``), and almost
# always none does: what keeping one takes (the history's sqlite3, the
# records' code, hashlib) is imported where it is used, not with this module
# (8 ms of CPU at every start otherwise, measured with their bytecode
# compiled).
if TYPE_CHECKING:
    from garito.core.match import Match


def _entry_path(finished: str, record: dict, folder: Path | None = None) -> Path:
    import hashlib  # see the imports

    text = json.dumps([finished, record], sort_keys=True, ensure_ascii=False)
    return (folder or pending_dir()) / f"{hashlib.sha256(text.encode()).hexdigest()[:20]}.json"


def send_to(home: Path, match: Match, finished: str) -> Path:
    """A finished shared match into the ``pending/`` of another Garito home
    (a server keeps it for each player seated at its end, here or away):
    their Garito adds it to its history when it next starts, or at once if
    it is open at the table. Its file is named as the player's own app
    names it (the same record, finished at the same time, by the server's
    clock), so the match is kept once whoever writes it first."""
    record = match.to_record()
    path = _entry_path(finished, record, home / "pending")
    write_atomic(path, json.dumps({"finished": finished, "record": record}, ensure_ascii=False))
    return path


def finish(match: Match, *, saved: bool = True) -> str:
    """Keep a finished match: in the history if it can take it, else in
    ``pending/`` until a later start. ``saved``: the match has a save (a
    local game) to keep until the history holds the match. Returns what
    the player should be told, "" when the history took it."""
    return keep(hold(match, saved=saved))


@dataclass(frozen=True)
class Held:
    """A finished match written where it cannot be lost, on its way to the
    history (``hold``, then ``keep``)."""

    match: Match
    finished: str  # ISO 8601, UTC, to the microsecond
    record: dict
    path: Path | None  # its pending file; None if that could not be written
    unwritten: str  # why not
    saved: bool


def hold(match: Match, *, saved: bool = True, finished: str = "") -> Held:
    """The quick half of ``finish``, done at once: the save holds the
    finished match, and its pending file is written. ``finished``: when it
    ended, if another clock said (a shared table's server), else now."""
    # To the microsecond: what makes this finish one of its own, so the same
    # record played again (a seed and moves repeated) is kept again.
    finished = finished or datetime.now(UTC).isoformat(timespec="microseconds")
    record = match.to_record()
    if saved:
        try:
            # The save holds the finished match, so a save left behind is
            # never one to continue (and replay the last move twice).
            saves.save(match)
        except OSError:
            pass  # the pending file below, or the history, keeps it
    target = _entry_path(finished, record)
    path: Path | None = target
    unwritten = ""
    try:
        write_atomic(target, json.dumps({"finished": finished, "record": record}, ensure_ascii=False))
    except OSError as e:
        path, unwritten = None, str(e.strerror or e)
    return Held(match, finished, record, path, unwritten, saved)


def keep(held: Held) -> str:
    """The other half: into the history, which may make it wait seconds
    for another Garito (the app runs this in a thread). Returns what the
    player should be told, "" when the history took it."""
    from .history import History, HistoryError  # see the imports

    try:
        with History() as h:
            h.add_once(held.match, held.finished)
    except HistoryError as e:
        if held.path is None:
            lost = _(
                "{problem} This match could not wait for it either ({reason}); it is not in the history."
            )
            told = lost.format(problem=e, reason=held.unwritten)
            if held.saved:
                told += " " + _("{file} keeps it.").format(file=f"saves/{held.match.game}.json")
            return told
        waits = _("{problem} This match waits in {folder} and goes into the history when Garito next starts.")
        return waits.format(problem=e, folder=held.path.parent)
    _done(held.path, held.record if held.saved else None)
    return ""


@dataclass(frozen=True)
class Drained:
    added: int  # matches that waited and are in the history now
    waiting: int  # matches still waiting (the history still cannot take them)
    set_aside: tuple[Path, ...]  # pending files that could not be read


def waiting() -> bool:
    """Whether a finished match waits here for the history (the folder
    looked at, no file read): at start, most often none does."""
    folder = pending_dir()
    try:
        return folder.is_dir() and any(folder.glob("*.json"))
    except OSError:
        return False


def drain() -> Drained:
    """Add every match waiting in ``pending/`` to the history (at start).
    Quiet when the history still cannot take them: the player was told
    when they were set to wait."""
    folder = pending_dir()
    try:
        paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    except OSError:
        return Drained(0, 0, ())
    if not paths:
        return Drained(0, 0, ())
    from .history import History, HistoryError  # see the imports

    added, waiting, bad = 0, 0, []
    try:
        h = History()
    except HistoryError:
        return Drained(0, len(paths), ())
    with h:
        for n, path in enumerate(paths):
            try:
                finished, record, match = _read(path)
            except FileNotFoundError:
                continue  # another Garito starting at once added it
            except (OSError, ValueError):
                try:
                    bad.append(set_aside(path))
                except OSError:
                    pass
                continue
            try:
                _id, new = h.add_once(match, finished)
            except HistoryError:
                waiting = len(paths) - n
                break
            added += new
            _done(path, record)
    return Drained(added, waiting, tuple(bad))


def _read(path: Path) -> tuple[str, dict[str, Any], Match[Any, Any, Any]]:
    """A pending file's finish time, record and match; ValueError if it
    does not hold them (OSError if it cannot be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except RecursionError as e:
        raise ValueError("nested too deep") from e
    return check(data)


def check(data: object) -> tuple[str, dict[str, Any], Match[Any, Any, Any]]:
    """What a pending file holds, as read: its finish time, record and
    match; ValueError if it does not hold a finished match."""
    from garito.core.match import Match, RecordError  # see the imports

    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    finished, record = data.get("finished"), data.get("record")
    if not isinstance(finished, str):
        raise ValueError("no finish time")
    datetime.fromisoformat(finished)  # ValueError if it is not a time
    if not isinstance(record, dict):
        raise ValueError("a record is a JSON object")
    try:
        match = Match.from_record(record)
    except RecordError as e:
        raise ValueError(str(e)) from e
    if not match.rules.is_over(match.state):
        raise ValueError("the match is not finished")
    return finished, record, match


def _done(path: Path | None, record: dict | None) -> None:
    """The history holds the match: its pending file goes, and its save
    (``record``: there is one) if the save still holds this match."""
    if path is not None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError:
            pass  # added again at the next start: once, as the history holds it
    if record is not None:
        saves.discard_if(record)
