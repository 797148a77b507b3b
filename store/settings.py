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
