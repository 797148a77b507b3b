"""A name that identifies a player over the network: an SSH login, a seat
at a shared table. It must already be a name as Garito keeps and shows it
(``names.printable``), short enough for every screen, and nothing a terminal
would hide: ``problem`` says why one is not.
"""

from __future__ import annotations

MAX_NAME = 12  # the app's own bound on a player's name (the new-game dialog's)


def problem(name: object) -> str | None:
    """Why ``name`` cannot identify a player (None: it can): 1 to
    ``MAX_NAME`` printable characters (``str.isprintable``: no control,
    format or invisible character, no space but the plain one), no space at
    either end."""
    if not isinstance(name, str) or not name:
        return f"a name is 1 to {MAX_NAME} printable characters"
    if len(name) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters"
    if not name.isprintable():
        return "a name has no control or invisible characters"
    if name != name.strip():
        return "a name does not begin or end with a space"
    return None
