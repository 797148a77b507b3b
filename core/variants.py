"""How a game's rule variants are offered: one ``Variant`` per config field.

The new-game dialog and the CLI's ``--rule`` read these; the config
dataclass stays the one place that validates a combination. Also the two
pieces every game's module shares: a config as records store it
(``RecordedConfig``) and a seat's view built from a state (``view_of``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol, Self, TypeVar

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
    refused naming the game (``GAME``).

    ``LEGACY`` names the fields added when a rule was read anew, each with
    the value a record written before the field existed was played under:
    ``from_record`` gives it to such a record, so it replays as it was
    played, while a new match takes the field's default (the rule now)."""

    GAME: ClassVar[str] = "this game"
    LEGACY: ClassVar[dict[str, Any]] = {}

    def to_dict(self) -> dict[str, Any]:
        out = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Self:
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

    @classmethod
    def from_record(cls, data: Any) -> Self:
        """``from_dict`` for a stored record: a field it lacks that ``LEGACY``
        names takes the value the record was played under."""
        if not isinstance(data, dict):
            raise ValueError("the settings are a JSON object")
        return cls.from_dict({**cls.LEGACY, **data})


# Chips, points, seats and cards: no rule a table plays needs a number past
# a million, and one past it (2^63, 10^400 in a hostile file) would reach a
# screen that draws a bar or a row of that many.
LARGEST = 10**6


def _small(value: Any) -> bool:
    return is_whole(value) and abs(value) <= LARGEST


ViewT = TypeVar("ViewT")


def view_of(view_cls: type[ViewT], state: object, **given: object) -> ViewT:
    """A seat's view: each field of ``view_cls`` taken from the state's
    attribute of that name (properties included), unless ``given``. What a
    view leaves out of the state (the dice stream) is what its class does not
    declare."""
    return view_cls(
        **{f.name: given[f.name] if f.name in given else getattr(state, f.name) for f in fields(view_cls)}  # type: ignore[arg-type]
    )


class Offered(Protocol):
    """What ``offered_config`` reads of a game's rules (``contract.Rules``
    has it all): named here, so that the contract imports this module and
    this one nothing of the contract."""

    @property
    def title(self) -> str: ...

    @property
    def players(self) -> tuple[int, int]: ...

    variants: tuple[Variant, ...]
    config_type: Any

    def default_config(self) -> Any: ...


def offered_config(rules: Offered, players: object, values: object) -> Any:
    """The ``Config`` a new-game dialog could have made: ``players`` within
    the game's range, each variant one of its ``choices`` (the dialog offers
    nothing else), every other setting at its default, and the combination
    one ``Config`` accepts. ValueError says what is wrong; anything a
    stranger may send is checked here (a table server's ``create``)."""
    lo, hi = rules.players
    if type(players) is not int or not lo <= players <= hi:
        span = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise ValueError(f"{rules.title} is for {span} players, not {players!r}")
    if values is None:
        values = {}
    if not isinstance(values, dict):
        raise ValueError("the rules are a JSON object")
    variants = {v.key: v for v in rules.variants}
    defaults = rules.default_config().to_dict()
    chosen = {}
    for key, value in values.items():
        if key == "players":
            if value != players or type(value) is not int:
                raise ValueError(f"the table has {players} seats, not {value!r}")
            continue
        variant = variants.get(key)
        if variant is None:
            if key in defaults and value == defaults[key] and type(value) is type(defaults[key]):
                continue  # a setting no dialog changes, as it is
            raise ValueError(f"{rules.title} has no rule {key!r} to choose")
        if not any(type(value) is type(c) and value == c for c in variant.choices):
            allowed = ", ".join(variant.label_of(c) for c in variant.choices)
            raise ValueError(f"{variant.label} is one of {allowed}, not {value!r}")
        chosen[key] = value
    return rules.config_type(players=players, **chosen)
