"""A small JSON file of the user's (settings, best scores) read with every
value checked: what cannot be read is set aside, never deleted, and said
once; what can be read is kept.

The file is a JSON object. ``check(key, value)`` gives the value to keep
(perhaps cleaned, e.g. a name's control characters dropped) or ``DROP``.
A file that is not a JSON object is moved aside as ``*.corrupt`` and reads
as empty; one with some values that do not check is moved aside the same
way and the readable part written in its place, so the next start finds a
good file and says nothing.

What was set aside is said in the player's language, which is itself a
setting: the files are read before it is known, so the words are kept as
a ``Said`` (a marked text and its values) and put into words when told.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from garito.core.i18n import N_, _

from .atomic import set_aside, write_atomic

DROP = object()


@dataclass(frozen=True)
class Said:
    """A line to tell, in whatever language is in use when it is told."""

    text: str  # marked with N_
    what: str  # marked with N_: the file, in words
    values: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return _(self.text).format(what=_(self.what), **dict(self.values))


def read_object(path: Path, check: Callable[[str, Any], Any], what: str) -> tuple[dict, Said | None]:
    """The file's checked content, and None or the line saying what was set
    aside. ``what`` names the file, marked with N_."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, None
    except (UnicodeDecodeError, ValueError, RecursionError):
        data = None
    except OSError as e:  # unreadable (permissions): left where it is
        why = (("reason", str(e.strerror or e)),)
        return {}, Said(N_("{what} cannot be read ({reason}); the defaults are used."), what, why)
    if not isinstance(data, dict):
        moved = _moved(path)
        if moved:
            return {}, Said(
                N_(
                    "{what} could not be read (not a JSON object); "
                    "the file as it was is kept as {kept}; it starts again."
                ),
                what,
                (("kept", moved),),
            )
        return {}, Said(N_("{what} could not be read (not a JSON object); it starts again."), what)
    good = {}
    for key, value in data.items():
        kept = check(key, value)
        if kept is not DROP:
            good[key] = kept
    if good == data:
        return good, None
    bad = ", ".join(sorted(k[:20] for k in data if k not in good or good[k] != data[k])[:4])
    moved = _moved(path)
    try:
        write_atomic(path, json.dumps(good, indent=1))
    except OSError:
        pass
    if moved:
        return good, Said(
            N_(
                "{what}: some values could not be read ({bad}) and start again; "
                "the file as it was is kept as {kept}."
            ),
            what,
            (("bad", bad), ("kept", moved)),
        )
    said = N_("{what}: some values could not be read ({bad}) and start again.")
    return good, Said(said, what, (("bad", bad),))


def _moved(path: Path) -> str:
    """The name the file was set aside under ("" if it could not be moved)."""
    try:
        return set_aside(path).name
    except OSError:
        return ""
