"""The game in progress, one save per game, written after every action.

A save is the game record (config, seed, actions, seats): loading replays
it, so the dice still to come are the same ones. A file that cannot be read
or replayed is moved aside as ``*.corrupt`` and reported, never deleted.
"""

from __future__ import annotations

import atexit
import contextvars
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from garito.core import catalog

from .atomic import set_aside, write_atomic
from .paths import saves_dir
from .waiting import waits

if TYPE_CHECKING:
    from garito.core.match import Match

log = logging.getLogger("garito")


@dataclass(frozen=True)
class Damaged:
    path: Path
    moved_to: Path | None
    reason: str


@dataclass(frozen=True)
class Saved:
    game: str
    path: Path
    mtime: float
    match: Match


def save_path(game: str) -> Path:
    return saves_dir() / f"{game}.json"


def _same_game(old: dict, new: dict) -> bool:
    """Whether ``new`` continues the game recorded in ``old``."""
    keys = ("game", "config", "seed", "seats")
    actions = old.get("actions")
    return (
        all(old.get(k) == new.get(k) for k in keys)
        and isinstance(actions, list)
        and new["actions"][: len(actions)] == actions
    )


def save(match: Match) -> Path:
    """Save the game in progress, now (after any save of it still on its
    way: ``save_soon``). A save of another game in the same slot (a new
    game started over it) is first moved to ``saves/replaced/``: starting
    a game never destroys one."""
    path = save_path(match.game)
    flush(path)
    _write(path, match.to_record())
    return path


def save_soon(match: Match, failed: Callable[[OSError], None] | None = None) -> None:
    """Save the game in progress from a thread of the process's own, at
    once but without waiting for the disk: a save took 0.9 ms of the
    app's loop a move (two writes and two ``fsync``s), which at a server's
    worker every player of it waits out. Saves of one game coming faster
    than the disk takes them are kept newest only. ``failed`` hears (in
    that thread) a save that could not be written. Whatever reads the saves
    (the menu, a finished match's history, leaving the app) waits for the
    saves on their way first (``flush``)."""
    global _thread
    path = save_path(match.game)
    record = match.to_record()
    # Written in the caller's context: a server's worker keeps each player's
    # home (where the finished matches wait for the history) in it.
    context = contextvars.copy_context()
    with _turn:
        _on_its_way[path] = (record, failed, context)
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_write_on, name="garito-saves", daemon=True)
            _thread.start()
        _turn.notify_all()


def flush(path: Path | None = None) -> None:
    """Wait until the saves on their way (of ``path``, or all) are written."""
    with _turn:
        while (path is None and (_on_its_way or _writing)) or (
            path is not None and (path in _on_its_way or path in _writing)
        ):
            _turn.wait()


_turn = threading.Condition()
_on_its_way: dict[Path, tuple[dict, Callable[[OSError], None] | None, contextvars.Context]] = {}
_writing: set[Path] = set()
_thread: threading.Thread | None = None
# What this process last wrote to each save, with the file it made: while
# the file is that one, the next save needs not read it to know it continues
# the same game. The last few files only (a server's worker saves for many
# players' homes over its life).
_written: dict[Path, tuple[tuple[int, int, int], dict]] = {}
_WRITTEN_KEPT = 256
_written_lock = threading.Lock()


def _write_on() -> None:
    while True:
        with _turn:
            while not _on_its_way:
                _turn.wait()
            path = next(iter(_on_its_way))
            _writing.add(path)
            save = _on_its_way.pop(path)
        _write_one(path, *save)
        del save


def _write_one(
    path: Path, record: dict, failed: Callable[[OSError], None] | None, context: contextvars.Context
) -> None:
    """One save, written and let go of: the thread waits for the next with
    nothing of this one (its context names the screen that saved it, which
    a server's worker would otherwise keep after its player left)."""
    error: OSError | None = None
    try:
        context.run(_write, path, record)
    except OSError as e:
        error = e
    except Exception:  # noqa: BLE001 - one save must not stop the others'
        log.exception("a save could not be written: %s", path)
    finally:
        with _turn:
            _writing.discard(path)
            _turn.notify_all()
    # Told once the write is over, so that whoever hears it may wait for
    # the saves (flush) without waiting for itself.
    if error is not None and failed is not None:
        context.run(failed, error)


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _write(path: Path, record: dict) -> None:
    with _written_lock:
        known = _written.pop(path, None)
    if known is not None and known[0] == _stat_key(path):
        old: object = known[1]
    else:
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            old = None
        except (OSError, ValueError, RecursionError):
            old = {}
    if old is not None and not (isinstance(old, dict) and _same_game(old, record)) and not _waiting(old):
        replaced = path.parent / "replaced"
        replaced.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(path.stat().st_mtime))
        target = replaced / f"{record['game']}-{stamp}.json"
        n = 1
        while target.exists():
            n += 1
            target = replaced / f"{record['game']}-{stamp}-{n}.json"
        os.replace(path, target)
        _prune(replaced)
    write_atomic(path, json.dumps(record, indent=1, ensure_ascii=False))
    if (made := _stat_key(path)) is not None:
        with _written_lock:
            _written[path] = (made, record)
            while len(_written) > _WRITTEN_KEPT:
                del _written[next(iter(_written))]


atexit.register(flush)  # a save on its way when the process ends is written first

# Games replaced by a new one, kept: the newest, by when each was last saved.
# A folder with no end filled a server's disk for anyone who starts game
# after game; a hundred is more unfinished games than anyone goes back to.
REPLACED_KEPT = 100


def _prune(replaced: Path) -> None:
    kept: list[tuple[float, Path]] = []
    for entry in os.scandir(replaced):
        try:
            if entry.is_file(follow_symlinks=False):
                kept.append((entry.stat(follow_symlinks=False).st_mtime, Path(entry.path)))
        except OSError:
            continue
    kept.sort()
    for _mtime, old in kept[: max(0, len(kept) - REPLACED_KEPT)]:
        try:
            old.unlink()
        except OSError:
            pass


def _waiting(old) -> bool:
    """A finished match's save whose record waits in ``pending/`` for the
    history: nothing is lost by writing over it."""
    return isinstance(old, dict) and waits(old)


def discard_if(record: dict) -> None:
    """Discard the save of ``record``'s game if it holds that record (the
    finished match the history now holds), not a game started since."""
    game = record.get("game")
    if not isinstance(game, str) or game not in catalog.BY_ID:
        return
    flush(save_path(game))
    try:
        held = json.loads(save_path(game).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return
    if held == record:
        discard(game)


def discard(game: str) -> None:
    flush(save_path(game))
    for path in (save_path(game), work_path(game)):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def work_path(game: str) -> Path:
    return saves_dir() / "work" / f"{game}.json"


def save_work(game: str, moves: int, work: dict) -> None:
    """What a player has done in a turn that is not a move yet (Willie's
    rearranged table), kept beside the save for the move it follows."""
    path = work_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps({"moves": moves, **work}, ensure_ascii=False))


def load_work(game: str, moves: int) -> dict | None:
    """The work kept after move ``moves`` of the saved game; None if there
    is none, it belongs to another move, or it cannot be read."""
    try:
        work = json.loads(work_path(game).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return work if isinstance(work, dict) and work.get("moves") == moves else None


def load_all() -> tuple[list[Saved], list[Damaged]]:
    """Every readable save, newest first, and the damaged ones set aside."""
    flush()
    found: list[Saved] = []
    damaged: list[Damaged] = []
    folder = saves_dir()
    try:
        paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    except OSError as e:  # an unreadable folder: nothing to continue, say why
        return found, [Damaged(folder, None, f"the saves folder cannot be read: {e.strerror or e}")]
    if not paths:
        return found, damaged
    # The records' code (the match, its rules' contract, the dice) only for
    # a save to read: the menu loads the saves at every start, most often
    # none (5.5 ms of CPU at start otherwise, measured with its bytecode
    # compiled).
    from garito.core.match import Match, RecordError

    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
            match = Match.from_json(text)
            if match.game != path.stem:
                raise RecordError(f"holds a {match.game} game, not {path.stem}")
            over = match.rules.is_over(match.state)
            mtime = path.stat().st_mtime
        except FileNotFoundError:
            continue  # gone meanwhile (another Garito finished it)
        except (OSError, UnicodeDecodeError, RecordError) as e:
            damaged.append(_aside(path, str(e)))
            continue
        except Exception as e:  # noqa: BLE001 - one file must not stop every start
            # Records are checked for their types as they are read; this is the
            # last guard, so a save this version cannot read never makes the
            # app fail at every start: it is set aside and named like any other.
            damaged.append(_aside(path, f"{type(e).__name__}: {e}"[:160]))
            continue
        if over:
            continue  # finished: its match waits for the history (store.pending), nothing to continue
        found.append(Saved(match.game, path, mtime, match))
    found.sort(key=lambda s: s.mtime, reverse=True)
    return found, damaged


def _aside(path: Path, reason: str) -> Damaged:
    moved = None
    try:
        moved = set_aside(path)
    except OSError:
        pass
    return Damaged(path, moved, reason)
