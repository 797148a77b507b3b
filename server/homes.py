"""Each SSH player's Garito home (saves, settings, history): one folder per
name under ``ssh-players/`` in the server's data directory.

The folder's name is an encoding of the player's name that is

* injective: no two names share a home (``decode`` gives the name back);
* safe: only ``a-z 0-9 - _ %``, so never ``.`` or ``..``, never a ``/``,
  and no two names differ only in letter case (a case-insensitive file
  system would make them one folder);
* readable for the usual names: ``ana`` is ``ana``.

``a-z 0-9 -`` stand for themselves; a capital letter is ``_`` and the
letter (``Ana`` is ``_ana``); any other character is ``%`` and its code
point in six hexadecimal digits (``.`` is ``%00002e``, ``ñ`` ``%0000f1``).
A name is at most ``MAX_NAME`` characters, so a folder's name is at most
84, well within any file system's limit.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from garito.core.identity import problem

log = logging.getLogger("garito.serve")

FOLDER = "ssh-players"
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
_LEGACY = re.compile(r"[A-Za-z0-9_.-]{1,32}")  # names whose home the old encoding did not change


def encode(name: str) -> str:
    out = []
    for c in name:
        if c in _PLAIN:
            out.append(c)
        elif "A" <= c <= "Z":
            out.append("_" + c.lower())
        else:
            out.append(f"%{ord(c):06x}")
    return "".join(out)


def decode(folder: str) -> str:
    """The name whose home ``folder`` is; ValueError if it is no one's."""
    out, i = [], 0
    while i < len(folder):
        c = folder[i]
        if c in _PLAIN:
            out.append(c)
            i += 1
        elif c == "_" and i + 1 < len(folder) and "a" <= folder[i + 1] <= "z":
            out.append(folder[i + 1].upper())
            i += 2
        elif c == "%" and re.fullmatch(r"[0-9a-f]{6}", folder[i + 1 : i + 7]):
            code = int(folder[i + 1 : i + 7], 16)
            if code > 0x10FFFF or chr(code) in _PLAIN or "A" <= chr(code) <= "Z":
                raise ValueError(f"not a home's name: {folder!r}")
            out.append(chr(code))
            i += 7
        else:
            raise ValueError(f"not a home's name: {folder!r}")
    return "".join(out)


def home_for(root: Path, name: str) -> Path:
    """The home of player ``name`` under ``root`` (a valid name: see
    ``garito.core.identity.problem``). A home kept under the name itself by an
    older Garito (capital letters, ``_`` or ``.`` in it) moves to its new
    place the first time its player comes back."""
    why = problem(name)
    if why is not None:
        raise ValueError(why)
    players = root / FOLDER
    home = players / encode(name)
    if home.name != name and _LEGACY.fullmatch(name) and name not in (".", "..") and _nobodys(name):
        old = players / name
        if old.is_dir() and not old.is_symlink() and not home.exists():
            try:
                old.rename(home)
                log.info("home of %r moved to %s", name, home.name)
            except OSError as e:
                log.warning("home of %r left at %s: %s", name, old.name, e)
    return home


def _nobodys(folder: str) -> bool:
    """Whether ``folder`` is no name's home in this encoding (an older
    Garito's folder of that name is then its own name's, and moves)."""
    try:
        decode(folder)
    except ValueError:
        return True
    return False
