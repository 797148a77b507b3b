"""What waits in ``pending/`` for the history (``pending``): the folder, and
whether a finished match's record is there. Apart from ``pending``, which
writes and drains that folder and saves what it cannot add: ``saves`` asks
it too (a save whose record waits there may be replaced without a copy).
"""

from __future__ import annotations

import json
from pathlib import Path

from .paths import data_dir


def pending_dir() -> Path:
    return data_dir() / "pending"


def waits(record: dict) -> bool:
    """Whether ``record`` (a finished match's) waits in ``pending/``: then
    its save may be replaced without keeping a copy."""
    folder = pending_dir()
    try:
        paths = list(folder.glob("*.json")) if folder.is_dir() else []
    except OSError:
        return False
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(data, dict) and data.get("record") == record:
            return True
    return False
