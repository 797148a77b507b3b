"""Small user preferences (theme, ASCII mode) kept between runs."""

from __future__ import annotations

import json

from .atomic import write_atomic
from .paths import config_dir


def _path():
    return config_dir() / "settings.json"


def load() -> dict:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def update(**changes) -> None:
    data = load()
    data.update(changes)
    try:
        write_atomic(_path(), json.dumps(data, indent=1))
    except OSError:
        pass  # a preference that cannot be kept is not worth a crash


DEFAULT_PLAYER = "Player 1"


def player() -> str:
    """The player's name: the one kept here; else the one ``garito serve``
    passes (the SSH user name); else "Player 1"."""
    import os

    name = load().get("player")
    if not (isinstance(name, str) and name.strip()):
        name = os.environ.get("GARITO_PLAYER", "")
    return name.strip()[:12] or DEFAULT_PLAYER


def player_known() -> bool:
    """Whether the name is known (the first start asks it otherwise)."""
    import os

    return isinstance(load().get("player"), str) or bool(os.environ.get("GARITO_PLAYER", "").strip())
