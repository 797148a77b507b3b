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
from typing import Any, Generic

from . import catalog
from .checks import is_whole, shown
from .contract import ActionT, AnyRules, ConfigT, Rules, StateT
from .dice import MT, STREAMS
from .errors import IllegalAction, check_level
from .names import clean, printable

SCHEMA = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed."""


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str = "human"  # "human" | "computer"
    level: str = "hard"

    def __post_init__(self) -> None:
        # Wherever a seat is made (the dialog, --names, a record, the table
        # server), its name is one a terminal shows as it is.
        object.__setattr__(self, "name", clean(self.name))

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind, "level": self.level}

    @classmethod
    def from_dict(cls, d: Any) -> Seat:
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            raise RecordError("a seat needs a name")
        kind = d.get("kind", "human")
        if kind not in ("human", "computer"):
            raise RecordError(f"a seat is human or computer, not {shown(kind)}")
        level = d.get("level", "hard")
        if not isinstance(level, str):
            raise RecordError(f"a computer's level is a word, not {shown(level)}")
        return cls(d["name"], kind, printable(level)[:20])


@dataclass(frozen=True)
class Match(Generic[ConfigT, StateT, ActionT]):
    """One game being played: its game's id, seats, record and state.

    Typed over its game's config, state and action; a match read from a
    record or the registry by id is ``Match[Any, Any, Any]`` until a game's
    own code, which knows its types, takes it."""

    game: str
    config: ConfigT
    seed: int
    seats: tuple[Seat, ...]
    actions: tuple[ActionT, ...] = ()
    state: StateT = field(default=None, compare=False)  # type: ignore[assignment]
    dice: tuple[int, ...] = ()  # recorded faces the dice give first
    stream: str = MT  # the kind of dice stream (dice.STREAMS)
    commitment: str = ""  # a shared table's published hash of its seed

    @property
    def rules(self) -> Rules[Any, StateT, ActionT, Any, Any, Any]:
        return catalog.rules(self.game)

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
    ) -> Match[Any, Any, Any]:
        rules = catalog.rules(game)
        if len(seats) != config.players:
            raise ValueError(f"{len(seats)} seats for a {config.players}-player game")
        for seat in seats:
            if not seat.is_human:
                check_level(game, rules.levels, seat.level)
        state = rules.new_game(config, seed, tuple(dice), stream=stream)
        return cls(game, config, seed, tuple(seats), (), state, tuple(dice), stream, commitment)

    def restart(self) -> Match[ConfigT, StateT, ActionT]:
        """The same match before its first move (a replay's first frame)."""
        rules = self.rules
        state = rules.new_game(self.config, self.seed, self.dice, stream=self.stream)
        return dataclasses.replace(self, actions=(), state=state)

    def play(self, action: ActionT) -> Match[ConfigT, StateT, ActionT]:
        """The match after ``action``; ``IllegalAction`` if the rules refuse it."""
        state = self.rules.apply(self.state, action)
        return dataclasses.replace(self, actions=self.actions + (action,), state=state)

    @property
    def over(self) -> bool:
        return self.rules.is_over(self.state)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    # ------------------------------------------------------------ records

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
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
    def from_record(cls, data: Any) -> Match[Any, Any, Any]:
        """Replay a record; ``RecordError`` says what is wrong with a bad one.

        Every value is checked for its type before it is used: a record is
        a file from anywhere (a save, an export, a message), and a wrong
        type must say so here, not fail later in a screen."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        schema = data.get("schema")
        if not is_whole(schema) or schema != SCHEMA:
            raise RecordError(f"record schema {shown(schema)} is not {SCHEMA} (made by another Garito?)")
        game, config, seed = data.get("game"), data.get("config"), data.get("seed")
        seats, actions, dice = data.get("seats"), data.get("actions"), data.get("dice", [])
        if not isinstance(game, str):
            raise RecordError("the record names no game")
        if game not in catalog.BY_ID:
            raise RecordError(f"unknown game {shown(game)}")
        if not isinstance(config, dict):
            raise RecordError("the record's rules (config) are not a JSON object")
        if not is_whole(seed):
            raise RecordError("the seed must be an integer")
        if not isinstance(seats, list):
            raise RecordError("the record's seats are not a list")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("the record's actions are not a list of moves")
        if not isinstance(dice, list) or not all(is_whole(d) for d in dice):
            raise RecordError("recorded dice are a list of faces")
        stream = data.get("stream", MT)
        if stream not in STREAMS:
            raise RecordError(f"unknown dice stream {shown(stream)}")
        commitment = data.get("commitment", "")
        if not isinstance(commitment, str) or len(commitment) > 128:
            raise RecordError("a seed commitment is a hexadecimal hash")
        try:
            rules: AnyRules = catalog.rules(game)
            config = rules.config_from_record(config)
            seated = tuple(Seat.from_dict(s) for s in seats)
            match = cls.start(game, config, seed, seated, tuple(dice), stream, commitment)
            for text in actions:
                match = match.play(rules.parse_action(text))
        except RecordError:
            raise
        except IllegalAction as e:
            raise RecordError(f"the record does not replay: {_brief(e.rule)}") from e
        except (ValueError, LookupError) as e:
            raise RecordError(f"the record is damaged: {_brief(str(e))}") from e
        return match

    @classmethod
    def from_json(cls, text: str) -> Match[Any, Any, Any]:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e.msg} at line {e.lineno}") from e
        except (ValueError, RecursionError) as e:  # a number too long, nesting too deep
            raise RecordError(f"not a record Garito reads ({e})") from e
        return cls.from_record(data)


def _brief(message: str) -> str:
    """A message quoting a file's text, cut to one readable line."""
    return message if len(message) <= 160 else message[:159] + "…"
