"""How a game's rule variants are offered: one ``Variant`` per config field.

The new-game dialog and the CLI's ``--rule`` read these; the config
dataclass stays the one place that validates a combination. Also the two
pieces every game's module shares: a config as records store it
(``RecordedConfig``) and a seat's view built from a state (``view_of``).
"""

from __future__ import annotations

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
        numbers) and its size (``LARGEST``); the game's ``Config`` then checks
        the combination, as it does for the dialog."""
        if not isinstance(data, dict):
            raise ValueError(f"{cls.GAME} settings are a JSON object")
        known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
        unknown = [str(k)[:30] for k in data if k not in known]
        if unknown:
            raise ValueError(f"unknown {cls.GAME} settings: {', '.join(sorted(unknown)[:5])}")
        values = {}
        for name, value in data.items():
            default = known[name].default
            if isinstance(default, tuple):
                if not isinstance(value, (list, tuple)) or not all(_small(v) for v in value):
                    raise ValueError(f"{name} is a list of whole numbers")
                value = tuple(value)
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ValueError(f"{name} is true or false, not {shown(value)}")
            elif isinstance(default, int):
                if not _small(value):
                    raise ValueError(f"{name} is a whole number up to {LARGEST:,}, not {shown(value)}")
            elif isinstance(default, str) and not isinstance(value, str):
                raise ValueError(f"{name} is a word, not {shown(value)}")
            values[name] = value
        return cls(**values)


# Chips, points, seats and cards: no rule a table plays needs a number past
# a million, and one past it (2^63, 10^400 in a hostile file) would reach a
# screen that draws a bar or a row of that many.
LARGEST = 10**6


def _small(value: Any) -> bool:
    return is_whole(value) and abs(value) <= LARGEST


def view_of(view_cls, state, **given):
    """A seat's view: each field of ``view_cls`` taken from the state's
    attribute of that name (properties included), unless ``given``. What a
    view leaves out of the state (the dice stream) is what its class does not
    declare."""
    return view_cls(
        **{f.name: given[f.name] if f.name in given else getattr(state, f.name) for f in fields(view_cls)}
    )
