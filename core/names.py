"""Players' names, as people type them and strangers send them.

A name is text to show, never markup or a terminal command: whoever draws it
builds a ``Text`` (or escapes it), and ``printable`` takes out what a
terminal or a log would act on (control and format characters: escapes,
bidirectional overrides, zero-width joiners). A name that identifies a
player over the network (an SSH login, a seat at a shared table) must be one
already: ``problem`` says why one is not.
"""

from __future__ import annotations

MAX_NAME = 12  # the app's own bound on a player's name (the new-game dialog's)


def printable(text: str, limit: int | None = None) -> str:
    """``text`` without the characters a terminal or a log would act on
    (``str.isprintable``: no control, format or separator character but the
    space), cut to ``limit`` characters."""
    kept = "".join(c for c in str(text) if c.isprintable())
    return kept if limit is None else kept[:limit]


def problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name (None: it can): 1 to
    ``MAX_NAME`` printable characters, no space at either end."""
    if not isinstance(name, str) or not name:
        return "a name is 1 to 12 printable characters"
    if len(name) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters"
    if not name.isprintable():
        return "a name has no control or invisible characters"
    if name != name.strip():
        return "a name does not begin or end with a space"
    return None
