"""Small checks for values that come from a file or the network, where any
JSON type may stand in any place."""

from __future__ import annotations

from typing import Any, TypeGuard


def is_whole(value: Any) -> TypeGuard[int]:
    """An integer in JSON: ``true`` is not one, though Python's bool is an int."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: Any) -> str:
    """A value in a message: short, whatever a file held."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's digits limit for str()
        text = "a number too long"
    return text if len(text) <= 30 else text[:29] + "…"
