"""Unicode glyphs and their ASCII stand-ins (``--ascii`` / GARITO_ASCII=1)."""

from __future__ import annotations

UNICODE = {
    "turn": "▸", "lead": "★", "win": "●", "slot": "○", "left": "◂", "right": "▸",
    "dash": "—", "range": "–", "times": "×", "computer": "⚙", "pending": "·",
}
ASCII = {
    "turn": ">", "lead": "*", "win": "#", "slot": "-", "left": "<", "right": ">",
    "dash": "-", "range": "-", "times": "x", "computer": "@", "pending": ".",
}


def glyphs(ascii_only: bool) -> dict[str, str]:
    return ASCII if ascii_only else UNICODE


def is_ascii(widget) -> bool:
    """Whether the app this widget runs in asked for ASCII only."""
    return bool(getattr(widget.app, "ascii_only", False))
