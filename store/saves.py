"""The game in progress, one save per game, written after every action.

A save is the game record (config, seed, actions, seats): loading replays
it, so the dice still to come are the same ones. A file that cannot be read
or replayed is moved aside as ``*.corrupt`` and reported, never deleted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from garito.core.match import Match, RecordError

from .atomic import set_aside, write_atomic
from .paths import saves_dir


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


def save(match: Match) -> Path:
    path = save_path(match.game)
    write_atomic(path, match.to_json())
    return path


def discard(game: str) -> None:
    try:
        os.unlink(save_path(game))
    except FileNotFoundError:
        pass


def load_all() -> tuple[list[Saved], list[Damaged]]:
    """Every readable save, newest first, and the damaged ones set aside."""
    found: list[Saved] = []
    damaged: list[Damaged] = []
    folder = saves_dir()
    if not folder.is_dir():
        return found, damaged
    for path in sorted(folder.glob("*.json")):
        try:
            text = path.read_text(encoding="utf-8")
            match = Match.from_json(text)
            if match.game != path.stem:
                raise RecordError(f"holds a {match.game} game, not {path.stem}")
            if match.state.over:
                raise RecordError("holds a finished game")
        except (OSError, UnicodeDecodeError, RecordError) as e:
            moved = None
            try:
                moved = set_aside(path)
            except OSError:
                pass
            damaged.append(Damaged(path, moved, str(e)))
            continue
        found.append(Saved(match.game, path, path.stat().st_mtime, match))
    found.sort(key=lambda s: s.mtime, reverse=True)
    return found, damaged
