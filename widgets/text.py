"""Text for the widgets: the program's own styling, with data as text.

No widget parses markup out of data: a name like ``[/]`` or ``[bold]x`` is
what a player typed, and is drawn as typed. A string given to a widget is
shown as it is; a screen that wants some words styled builds a Rich
``Text``, most simply with ``styled``, which parses the markup of the
screen's own words and puts each ``$variable`` in afterwards, as plain text
(as Textual's ``Content.from_markup`` does with its variables)::

    styled("[b]$name[/b], your roll: press Space.", name=name)

The result is the very ``Text`` the markup with the value written into it
would give, spans and all, so a screen that switches to it looks the same.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Span, Text

from garito.core.names import printable

_VARIABLE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_HOLE = 0xF0000  # Supplementary Private Use Area: never in a screen's own words


def styled(markup: str, **values: object) -> Text:
    """``markup`` (the program's own) parsed, each ``$name`` replaced by
    ``values[name]`` as text: whatever the value holds, it styles nothing.
    Control characters in a value are dropped (a terminal would act on
    them)."""
    filled: list[str] = []

    def hole(match: re.Match) -> str:
        filled.append(printable(str(values[match.group(1)])))
        return chr(_HOLE + len(filled) - 1)

    text = Text.from_markup(_VARIABLE.sub(hole, markup))
    if not filled:
        return text
    # Each hole is one character of the parsed text: put its value there and
    # move every span boundary after it by the value's length less one.
    plain, at, parts = text.plain, [], []
    length = 0
    for char in plain:
        at.append(length)
        k = ord(char) - _HOLE
        piece = filled[k] if 0 <= k < len(filled) else char
        parts.append(piece)
        length += len(piece)
    at.append(length)
    out = Text(
        "".join(parts),
        style=text.style,
        justify=text.justify,
        overflow=text.overflow,
        no_wrap=text.no_wrap,
        end=text.end,
    )
    out.spans = [Span(at[s.start], at[s.end], s.style) for s in text.spans]
    return out


def as_text(content: str | Text, **options) -> Text:
    """What a widget draws for ``content``: a ``str`` as it is (never
    markup; control characters but newlines dropped), a ``Text`` as the
    screen styled it; ``options`` (overflow, no_wrap...) set on the copy."""
    text = content.copy() if isinstance(content, Text) else Text(printable(content, lines=True))
    for name, value in options.items():
        setattr(text, name, value)
    return text


def pad(text: str, width: int) -> str:
    """``text`` filled with spaces to ``width`` terminal cells, as
    ``f"{text:<{width}}"`` fills it to ``width`` characters: a name in
    張偉 takes two cells a character, and the columns after it stay in
    line."""
    return text + " " * (width - cell_len(text))
