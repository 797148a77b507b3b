"""Unicode glyphs and their ASCII stand-ins (``--ascii`` / GARITO_ASCII=1)."""

from __future__ import annotations

UNICODE = {
    "turn": "▸",
    "lead": "★",
    "win": "●",
    "slot": "○",
    "left": "◂",
    "right": "▸",
    "dash": "—",
    "range": "–",
    "arrows": "←/→",
    "updown": "↑/↓",
    "times": "×",
    "computer": "⚙",
    "pending": "·",
    "hit": "✓",
    "miss": "✗",
    "ellipsis": "…",
}
ASCII = {
    "turn": ">",
    "lead": "*",
    "win": "#",
    "slot": "-",
    "left": "<",
    "right": ">",
    "dash": "-",
    "range": "-",
    "arrows": "left/right",
    "updown": "up/down",
    "times": "x",
    "computer": "@",
    "pending": ".",
    "hit": "v",
    "miss": "x",
    "ellipsis": "...",
}


def glyphs(ascii_only: bool) -> dict[str, str]:
    return ASCII if ascii_only else UNICODE


def is_ascii(widget) -> bool:
    """Whether the app this widget runs in asked for ASCII only (False for
    a widget outside any app, as in a unit test)."""
    try:
        app = widget.app
    except Exception:  # textual's NoActiveAppError
        return False
    return bool(getattr(app, "ascii_only", False))


_KEY_WORDS = {
    "←→": "left/right",
    "↑↓": "up/down",
    "←": "left",
    "→": "right",
    "↑": "up",
    "↓": "down",
    "⏎": "enter",
}


def ascii_key(shown: str) -> str:
    """A key as the key bar shows it, in ASCII words where it used arrows."""
    for glyph, word in _KEY_WORDS.items():
        shown = shown.replace(glyph, word)
    return shown


# ---------------------------------------------------------------- ASCII text
#
# Game words come from the core and know nothing of ASCII mode ("a die ≤ 3",
# "2–6 players"); where they reach the screen (the log, the prompt, the
# result boxes, notifications) they pass through ``to_ascii``, before they
# are laid out, so a sign may become a word. Whatever else reaches the
# terminal (borders, scrollbars, Textual's own widgets) goes through
# ``AsciiFilter``, one cell for one cell. Letters are left alone: a name is
# shown as it was typed.

_WORDS = {
    "≤": "<=",
    "≥": ">=",
    "…": "...",
    "←": "left",
    "→": "right",
    "↑": "up",
    "↓": "down",
    "×": "x",
    "—": "-",
    "–": "-",
    "−": "-",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "·": "-",
    "•": "*",
}
_WORDS_TABLE = str.maketrans(_WORDS)


def to_ascii(text: str) -> str:
    """``text`` with its signs in ASCII (several characters where needed)."""
    return text if text.isascii() else text.translate(_WORDS_TABLE)


def ascii_text(text):
    """A Rich ``Text`` (or str) in ASCII, each piece keeping its styles."""
    from rich.text import Text

    if not isinstance(text, Text):
        return to_ascii(str(text))
    if text.plain.isascii():
        return text
    cuts = sorted({0, len(text.plain)} | {s.start for s in text.spans} | {s.end for s in text.spans})
    out = text.blank_copy()
    for piece in text.divide(cuts):
        plain = to_ascii(piece.plain)
        part = Text(plain, style=piece.style)
        for span in piece.spans:  # each covers the whole piece
            part.stylize(span.style, 0, len(plain))
        out.append_text(part)
    return out


def _cell_table() -> dict[int, str]:
    """One ASCII character for each sign that Textual and Rich draw."""
    import unicodedata

    table = {ord(k): v for k, v in _WORDS.items() if len(v) == 1}
    table.update({ord(c): "." for c in "…·"})
    table.update({ord(c): "<" for c in "←◂◀"})
    table.update({ord(c): ">" for c in "→▸▶"})
    table.update({ord(c): "^" for c in "↑▲"})
    table.update({ord(c): "v" for c in "↓▼✓"})
    table.update({ord("★"): "*", ord("●"): "#", ord("○"): "o", ord("⚙"): "@", ord("✗"): "x"})
    for code in range(0x2500, 0x2580):  # box drawing
        name = unicodedata.name(chr(code), "")
        if "DIAGONAL UPPER RIGHT TO LOWER LEFT" in name:
            table[code] = "/"
        elif "DIAGONAL UPPER LEFT TO LOWER RIGHT" in name:
            table[code] = "\\"
        elif "DIAGONAL CROSS" in name:
            table[code] = "X"
        else:
            words = set(name.split())
            ways = words & {"UP", "DOWN", "LEFT", "RIGHT"}
            ways |= {"LEFT", "RIGHT"} if "HORIZONTAL" in words else set()
            ways |= {"UP", "DOWN"} if "VERTICAL" in words else set()
            table[code] = "-" if ways <= {"LEFT", "RIGHT"} else "|" if ways <= {"UP", "DOWN"} else "+"
    for code in range(0x2580, 0x25A0):  # block elements: bars, scrollbars
        table[code] = "#"
    table[ord("▁")] = "_"
    table[ord("▔")] = "-"
    return table


_CELLS: dict[int, str] | None = None


def ascii_cells(text: str) -> str:
    """``text`` with each sign drawn as one ASCII character (same width)."""
    global _CELLS
    if text.isascii():
        return text
    if _CELLS is None:
        _CELLS = _cell_table()
    return text.translate(_CELLS)
