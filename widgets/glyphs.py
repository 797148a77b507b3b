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
    """Whether the app this widget runs in asked for ASCII only."""
    return bool(getattr(widget.app, "ascii_only", False))


_KEY_WORDS = {"←": "left", "→": "right", "↑": "up", "↓": "down", "⏎": "enter"}


def ascii_key(shown: str) -> str:
    """A key as the key bar shows it, in ASCII words where it used arrows."""
    for glyph, word in _KEY_WORDS.items():
        shown = shown.replace(glyph, word)
    return shown
