"""A player's name as Garito keeps it: text for a terminal, a log and a file.

A name comes from a keyboard, a command line, a settings file, a record or
the network. Whatever it holds, it reaches a terminal as the letters it
shows: control characters (an escape sequence would restyle or move the
cursor of every terminal drawing it; a newline would break a one-line row),
the bidirectional overrides (which reorder what follows them on the line)
and lone surrogates (which no file or terminal can encode) are taken out
where a name comes in. Markup is not a matter for this module: the widgets
draw names as text, never as markup.
"""

from __future__ import annotations

import unicodedata

# Long enough for a seat the table server names after a player ("Ana
# (computer)"); a record from a file cannot make a screen of one name.
LONGEST = 40

_BIDI = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_DROP = ("Cc", "Cs", "Zl", "Zp")  # controls, surrogates, line and paragraph separators


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` without the characters a terminal would act on rather than
    show; ``lines``: newlines are kept (a text of several lines)."""
    if text.isprintable():  # the usual case, and cheap: nothing to drop
        return text
    return "".join(
        c for c in text if (lines and c == "\n") or (c not in _BIDI and unicodedata.category(c) not in _DROP)
    )


def clean(name: str) -> str:
    """A name as kept: printable, and at most ``LONGEST`` characters."""
    return printable(name)[:LONGEST]
