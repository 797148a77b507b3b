"""What the environment says: the process's own, or one player's.

Locally a Garito is one player in one process, and its settings come from
``os.environ`` (``GARITO_HOME``, ``GARITO_PLAYER``, ``TEXTUAL_THEME``...).
Under ``garito serve`` a worker process hosts many players' apps at once,
so each has a ``Scope`` of its own: the environment its session was given
(its home, its name, its tables token, its terminal's locale) and the
notes its run keeps (what a damaged file set aside, told once). Whatever
runs for a session (its app's tasks, timers and thread workers) sees that
session's scope through a context variable; outside any session, the
process's own.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar, Token
from typing import overload


class Scope:
    """One player's environment (``None``: the process's own) and the
    notes kept for the length of their run."""

    __slots__ = ("env", "notes")

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.env = None if env is None else dict(env)
        self.notes: dict[str, object] = {}


_PROCESS = Scope()
_current: ContextVar[Scope] = ContextVar("garito_scope", default=_PROCESS)


@overload
def get(name: str) -> str | None: ...
@overload
def get(name: str, default: str) -> str: ...
@overload
def get(name: str, default: str | None) -> str | None: ...


def get(name: str, default: str | None = None) -> str | None:
    """``name`` in this player's environment (a session's has only what
    its server gave it: nothing leaks from the worker's own)."""
    env = _current.get().env
    return (os.environ if env is None else env).get(name, default)


def notes() -> dict[str, object]:
    """This run's notes: kept per player, for as long as their app runs."""
    return _current.get().notes


def locale() -> str:
    """The player's locale: under ``garito serve`` the one their SSH client
    sent (``GARITO_LOCALE``), else as POSIX reads it (``LC_ALL``, then
    ``LC_MESSAGES``, then ``LANG``); "" when none is set: the language the
    app speaks when the player chose none."""
    for name in ("GARITO_LOCALE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = get(name)
        if value:
            return value
    return ""


def enter(scope: Scope) -> Token:
    """Make ``scope`` the current one in this context (a session's task
    and everything it starts)."""
    return _current.set(scope)


def current() -> Scope:
    return _current.get()
