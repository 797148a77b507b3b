"""Best scores ever, per game and player name (Irwin's Revenge keeps its
victory points like the original's statistics menu). A damaged file is set
aside and the records start again; a file that cannot be written loses the
new record, never the game."""

from __future__ import annotations

import json

from .atomic import set_aside, write_atomic
from .paths import config_dir


def _path():
    return config_dir() / "bests.json"


def load() -> dict[str, dict[str, int]]:
    path = _path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        try:
            set_aside(path)
        except OSError:
            pass
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        g: {n: v for n, v in names.items() if isinstance(v, int)}
        for g, names in data.items()
        if isinstance(names, dict)
    }


def record(game: str, scores: dict[str, int]) -> dict[str, tuple[int, bool]]:
    """Enter this game's scores; for each name, its best ever and whether
    this game set it."""
    data = load()
    table = data.setdefault(game, {})
    out = {}
    for name, value in scores.items():
        new = name not in table or value > table[name]
        if new:
            table[name] = value
        out[name] = (table[name], new)
    try:
        write_atomic(_path(), json.dumps(data, indent=1, ensure_ascii=False))
    except OSError:
        pass
    return out
