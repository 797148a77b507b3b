"""A game's state as one seat may hold it, and as JSON for the wire.

A shared table lives in the server; each player's app draws it from a copy
of the state with everything that seat may not know masked (the rules'
``masked``): the dice stream and the seed in every game (they would tell
the dice to come), and whatever a game declares secret in its ``hide``
(Decimus's rival dice, Willie's other hands and the pile). Seat ``None`` is
a spectator, who knows no seat's secrets. The app runs the same rules on
that copy (``view``, ``legal_actions``, ``summary``) and gets the same
answers for that seat as the server does on the whole state;
``tests/test_wire.py`` checks it over random matches of every game.

``encode``/``decode`` turn a state (frozen dataclasses of tuples, frozensets,
numbers, strings and None) into JSON and back: a dataclass is an object with
its class's name under ``"$"``, a frozenset ``{"$set": [...]}``, a tuple a
list. ``decode`` makes only the dataclasses of the game's own modules.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from typing import Any

from .contract import AnyRules


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"$": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = encode(getattr(value, f.name))
        return out
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, frozenset):
        return {"$set": sorted((encode(v) for v in value), key=repr)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a game state holds no {type(value).__name__}")


def classes(rules: AnyRules) -> dict[str, type]:
    """The dataclasses a game's state may be made of: those of its package
    (looked for once per game: a table's every move is decoded)."""
    return _classes(rules.package)


@functools.cache
def _classes(package: str) -> dict[str, type]:
    found: dict[str, type] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        for obj in vars(module).values():
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__.startswith(package):
                found[obj.__name__] = obj
    return found


def decode(data: Any, rules: AnyRules) -> Any:
    """The value ``encode`` gave ``data`` for; ValueError if it is not one."""
    known = classes(rules)
    if isinstance(data, list):
        return tuple(decode(v, rules) for v in data)
    if isinstance(data, dict):
        if "$set" in data:
            return frozenset(decode(v, rules) for v in data["$set"])
        cls = known.get(data.get("$"))  # type: ignore[arg-type]
        if cls is None:
            raise ValueError(f"not a {rules.title} value: {data.get('$')!r}")
        names = {f.name for f in dataclasses.fields(cls)}
        try:
            return cls(**{k: decode(v, rules) for k, v in data.items() if k in names})
        except TypeError as e:
            raise ValueError(f"a damaged {cls.__name__}: {e}") from None
    return data
