"""The game in progress, one save per game, written after every action.

A save is the game record (config, seed, actions, seats): loading replays
it, so the dice still to come are the same ones. A file that cannot be read
or replayed is moved aside as ``*.corrupt`` and reported, never deleted.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from garito.core import catalog

from .atomic import set_aside, write_atomic
from .paths import saves_dir

if TYPE_CHECKING:
    from garito.core.match import Match


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
    """Save the game in progress. A save of another game in the same slot
    (a new game started over it) is first moved to ``saves/replaced/``:
    starting a game never destroys one."""
    path = save_path(match.game)
    record = match.to_record()
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
        target = replaced / f"{match.game}-{stamp}.json"
        n = 1
        while target.exists():
            n += 1
            target = replaced / f"{match.game}-{stamp}-{n}.json"
        os.replace(path, target)
    write_atomic(path, json.dumps(record, indent=1, ensure_ascii=False))
    return path


def _waiting(old) -> bool:
    """A finished match's save whose record waits in ``pending/`` for the
    history: nothing is lost by writing over it."""
    from .pending import waits

    return isinstance(old, dict) and waits(old)


def discard_if(record: dict) -> None:
    """Discard the save of ``record``'s game if it holds that record (the
    finished match the history now holds), not a game started since."""
    game = record.get("game")
    if not isinstance(game, str) or game not in catalog.BY_ID:
        return
    try:
        held = json.loads(save_path(game).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return
    if held == record:
        discard(game)


def discard(game: str) -> None:
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
