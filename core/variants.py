"""How a game's rule variants are offered: one ``Variant`` per config field.

The new-game dialog and the CLI's ``--rule`` read these; the config
dataclass stays the one place that validates a combination. Also the two
pieces every game's module shares: a config as records store it
(``RecordedConfig``) and a seat's view built from a state (``view_of``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .checks import is_whole, shown


@dataclass(frozen=True)
class Variant:
    key: str  # the config field
    label: str
    choices: tuple[Any, ...]
    labels: tuple[str, ...] = ()  # how each choice reads; str(choice) if empty
    needs: tuple[str, tuple[Any, ...]] | None = (
        None  # shown only when another variant has one of these values
    )
    help: str = ""

    def label_of(self, value: Any) -> str:
        if self.labels:
            return self.labels[self.choices.index(value)]
        return str(value)

    def parse(self, text: str) -> Any:
        """A choice from the CLI: by value or by its label."""
        for value, label in zip(self.choices, self.labels or [str(c) for c in self.choices]):
            if text in (str(value), label):
                return value
        allowed = ", ".join(str(c) for c in self.choices)
        raise ValueError(f"{self.key} is one of {allowed}, not {text!r}")

    def active(self, values: dict[str, Any]) -> bool:
        if self.needs is None:
            return True
        key, allowed = self.needs
        return values.get(key) in allowed


class RecordedConfig:
    """``to_dict``/``from_dict`` for a game's frozen ``Config`` dataclass, as
    game records store it: plain JSON values, tuples as lists, unknown keys
    refused naming the game (``GAME``)."""

    GAME: ClassVar[str] = "this game"

    def to_dict(self) -> dict:
        out = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Any):
        """The config a record holds; ValueError naming what is wrong.

        A record comes from a file or the network, so every value is checked
        for its type (whole numbers are not ``true``, lists hold whole
        numbers) and, where the game offers the setting as a ``Variant``,
        for being one of its choices: a record holds only what the new-game
        dialog and ``--rule`` can make, so no screen meets a match to 10^18
        points or a bankroll too large to draw."""
        if not isinstance(data, dict):
            raise ValueError(f"{cls.GAME} settings are a JSON object")
        known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
        unknown = [str(k)[:30] for k in data if k not in known]
        if unknown:
            raise ValueError(f"unknown {cls.GAME} settings: {', '.join(sorted(unknown)[:5])}")
        offered = {v.key: v for v in getattr(sys.modules[cls.__module__], "VARIANTS", ())}
        values = {}
        for name, value in data.items():
            default = known[name].default
            if isinstance(default, tuple):
                if not isinstance(value, (list, tuple)) or not all(is_whole(v) for v in value):
                    raise ValueError(f"{name} is a list of whole numbers")
                value = tuple(value)
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ValueError(f"{name} is true or false, not {shown(value)}")
            elif isinstance(default, int):
                if not is_whole(value):
                    raise ValueError(f"{name} is a whole number, not {shown(value)}")
            elif isinstance(default, str) and not isinstance(value, str):
                raise ValueError(f"{name} is a word, not {shown(value)}")
            variant = offered.get(name)
            if variant is not None and value not in variant.choices:
                allowed = ", ".join(str(c) for c in variant.choices)
                raise ValueError(f"{name} is one of {allowed}, not {shown(value)}")
            values[name] = value
        return cls(**values)


def view_of(view_cls, state, **given):
    """A seat's view: each field of ``view_cls`` taken from the state's
    attribute of that name (properties included), unless ``given``. What a
    view leaves out of the state (the dice stream) is what its class does not
    declare."""
    return view_cls(
        **{f.name: given[f.name] if f.name in given else getattr(state, f.name) for f in fields(view_cls)}
    )
