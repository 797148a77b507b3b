"""A match in progress and its game record, for any game of the catalog.

A record is (game, config, seed, actions) plus who sat where; replaying it
through the game's ``apply`` gives the identical state, dice included, since
the dice come from the seeded stream inside the state. A record may also
carry ``dice``: faces thrown at a real table, used before the seeded stream
(how the rule texts' worked matches are kept as records); ``stream``, the
kind of dice stream when it is not the default (``dice.STREAMS``: a table
server's is a cryptographic one); and ``commitment``, the hash of the seed
that a shared table published before its first die (``fairness``). Records
are JSON with a schema version; anything else is refused with ``RecordError``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from . import catalog
from .dice import MT, STREAMS
from .errors import IllegalAction

SCHEMA = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed."""


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str = "human"  # "human" | "computer"
    level: str = "hard"

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "level": self.level}

    @classmethod
    def from_dict(cls, d: dict) -> Seat:
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            raise RecordError("a seat needs a name")
        kind = d.get("kind", "human")
        if kind not in ("human", "computer"):
            raise RecordError(f"a seat is human or computer, not {kind!r}")
        return cls(d["name"], kind, str(d.get("level", "hard")))


@dataclass(frozen=True)
class Match:
    """One game being played: its rules module, seats, record and state."""

    game: str
    config: Any
    seed: int
    seats: tuple[Seat, ...]
    actions: tuple[Any, ...] = ()
    state: Any = field(default=None, compare=False)
    dice: tuple[int, ...] = ()  # recorded faces the dice give first
    stream: str = MT  # the kind of dice stream (dice.STREAMS)
    commitment: str = ""  # a shared table's published hash of its seed

    @property
    def rules(self) -> ModuleType:
        return catalog.get(self.game).load()

    @classmethod
    def start(
        cls,
        game: str,
        config: Any,
        seed: int,
        seats: tuple[Seat, ...],
        dice: tuple[int, ...] = (),
        stream: str = MT,
        commitment: str = "",
    ) -> Match:
        rules = catalog.get(game).load()
        if len(seats) != config.players:
            raise ValueError(f"{len(seats)} seats for a {config.players}-player game")
        state = rules.new_game(config, seed, tuple(dice), stream=stream)
        return cls(game, config, seed, tuple(seats), (), state, tuple(dice), stream, commitment)

    def play(self, action: Any) -> Match:
        """The match after ``action``; ``IllegalAction`` if the rules refuse it."""
        state = self.rules.apply(self.state, action)
        return dataclasses.replace(self, actions=self.actions + (action,), state=state)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    # ------------------------------------------------------------ records

    def to_record(self) -> dict:
        record = {
            "schema": SCHEMA,
            "game": self.game,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "seats": [s.to_dict() for s in self.seats],
            "actions": [str(a) for a in self.actions],
        }
        if self.dice:
            record["dice"] = list(self.dice)
        if self.stream != MT:
            record["stream"] = self.stream
        if self.commitment:
            record["commitment"] = self.commitment
        return record

    def to_json(self) -> str:
        return json.dumps(self.to_record(), indent=1, ensure_ascii=False)

    @classmethod
    def from_record(cls, data: Any) -> Match:
        """Replay a record; ``RecordError`` says what is wrong with a bad one."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        schema = data.get("schema")
        if schema != SCHEMA:
            raise RecordError(f"record schema {schema!r} is not {SCHEMA} (made by another Garito?)")
        try:
            info = catalog.get(data.get("game"))
            rules = info.load()
            config = rules.Config.from_record(data["config"])
            seed = data["seed"]
            if not isinstance(seed, int):
                raise RecordError("the seed must be an integer")
            seats = tuple(Seat.from_dict(s) for s in data["seats"])
            dice = data.get("dice", [])
            if not isinstance(dice, list) or not all(isinstance(d, int) for d in dice):
                raise RecordError("recorded dice are a list of faces")
            stream = data.get("stream", MT)
            if stream not in STREAMS:
                raise RecordError(f"unknown dice stream {stream!r}")
            commitment = data.get("commitment", "")
            if not isinstance(commitment, str) or len(commitment) > 128:
                raise RecordError("a seed commitment is a hexadecimal hash")
            match = cls.start(info.id, config, seed, seats, tuple(dice), stream, commitment)
            for text in data["actions"]:
                match = match.play(rules.Action.parse(text))
        except RecordError:
            raise
        except IllegalAction as e:
            raise RecordError(f"the record does not replay: {e.rule}") from e
        except (KeyError, TypeError, ValueError, LookupError) as e:
            raise RecordError(f"the record is damaged: {e}") from e
        return match

    @classmethod
    def from_json(cls, text: str) -> Match:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e.msg} at line {e.lineno}") from e
        return cls.from_record(data)
