"""A small JSON file of the user's (settings, best scores) read with every
value checked: what cannot be read is set aside, never deleted, and said
once; what can be read is kept.

The file is a JSON object. ``check(key, value)`` gives the value to keep
(perhaps cleaned, e.g. a name's control characters dropped) or ``DROP``.
A file that is not a JSON object is moved aside as ``*.corrupt`` and reads
as empty; one with some values that do not check is moved aside the same
way and the readable part written in its place, so the next start finds a
good file and says nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .atomic import set_aside, write_atomic

DROP = object()


def read_object(path: Path, check: Callable[[str, Any], Any], what: str) -> tuple[dict, str]:
    """The file's checked content, and "" or one line saying what was set aside."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, ""
    except (UnicodeDecodeError, ValueError, RecursionError):
        data = None
    except OSError as e:  # unreadable (permissions): left where it is
        return {}, f"{what} cannot be read ({e.strerror or e}); the defaults are used."
    if not isinstance(data, dict):
        return {}, f"{what} could not be read (not a JSON object){_moved(path)}; it starts again."
    good = {}
    for key, value in data.items():
        kept = check(key, value)
        if kept is not DROP:
            good[key] = kept
    if good == data:
        return good, ""
    bad = ", ".join(sorted(k[:20] for k in data if k not in good or good[k] != data[k])[:4])
    moved = _moved(path)
    try:
        write_atomic(path, json.dumps(good, indent=1))
    except OSError:
        pass
    return good, f"{what}: some values could not be read ({bad}) and start again{moved}."


def _moved(path: Path) -> str:
    try:
        return f"; the file as it was is kept as {set_aside(path).name}"
    except OSError:
        return ""
