"""Who may log in as whom: ``garito serve --authorized-keys PATH``.

A key logs in only as the name(s) it is bound to, in one of OpenSSH's two
ways of saying so:

* PATH a folder: one ``authorized_keys`` file per player, named by the
  player's name, as sshd's ``AuthorizedKeysFile /etc/garito/keys/%u``
  (``keys/ana`` holds Ana's keys). A name with a ``/`` in it, or ``.`` and
  ``..``, has no file, and so no key.
* PATH a file: each key line names the players it may be, with the
  ``principals="ana,bea"`` option (sshd's word for the names a credential
  may act as; patterns as in sshd's files: ``*``, ``?``, ``!``). A key
  without ``principals=`` lets nobody in.

Either way the other options of a line hold as in sshd's files where they
concern who connects (``from="..."``); a file or folder that others may
write to is not trusted (sshd's ``StrictModes``), and a file larger than
``MAX_FILE`` is not read. Files are read again when they change, so an
operator adds or removes a player without restarting the server.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Any

import asyncssh

log = logging.getLogger("garito.serve")

MAX_FILE = 1 << 20


class KeysError(ValueError):
    """The keys cannot be used as given; the message says why."""


def _trusted(path: Path, st: os.stat_result) -> bool:
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        log.warning("%s may be written by others: its keys are not trusted", path)
        return False
    return True


class KeyBook:
    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        try:
            st = self.path.stat()
        except OSError as e:
            raise KeysError(f"cannot read {self.path}: {e.strerror or e}") from None
        self.folder = stat.S_ISDIR(st.st_mode)
        self._cache: dict[Path, tuple[tuple, asyncssh.SSHAuthorizedKeys | None]] = {}
        if not self.folder:
            keys = self._read(self.path)
            if keys is None:
                raise KeysError(f"{self.path} holds no public key")
            entries = getattr(keys, "_user_entries", [])  # asyncssh keeps each line's options there
            unbound = sum(1 for e in entries if not e.options.get("principals"))
            if entries and unbound == len(entries):
                raise KeysError(
                    f'no key in {self.path} is bound to a name: give each a principals="NAME" option, '
                    "or give a folder with one file per player"
                )
            if unbound:
                log.warning(
                    '%d key(s) in %s have no principals="NAME": they let nobody in', unbound, self.path
                )

    def _read(self, path: Path) -> asyncssh.SSHAuthorizedKeys | None:
        """The keys in ``path`` (cached until it changes); None if none can be trusted."""
        try:
            st = path.stat()
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino, st.st_mode)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        keys = None
        if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_FILE and _trusted(path, st):
            try:
                keys = asyncssh.import_authorized_keys(path.read_text(encoding="utf-8", errors="replace"))
            except (OSError, ValueError) as e:
                log.warning("%s: no keys read: %s", path, e)
        elif st.st_size > MAX_FILE:
            log.warning("%s is larger than %d bytes: not read", path, MAX_FILE)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[path] = (stamp, keys)
        return keys

    def allows(self, name: str, key: asyncssh.SSHKey, host: str, address: str) -> bool:
        """Whether ``key`` may log in as ``name`` (connecting from ``address``)."""
        if self.folder:
            if "/" in name or name in (".", "..") or "\0" in name:
                return False
            try:
                if not _trusted(self.path, self.path.stat()):
                    return False
            except OSError:
                return False
            keys = self._read(self.path / name)
            return keys is not None and keys.validate(key, host, address) is not None
        keys = self._read(self.path)
        options = keys.validate(key, host, address) if keys is not None else None
        if options is None:
            return False
        patterns: Any = options.get("principals")
        return bool(patterns) and all(p.matches(name) for p in patterns)
