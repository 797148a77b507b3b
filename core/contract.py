"""The game contract: what a game's rules are to the rest of Garito.

A game is one object, its ``RULES`` (``core/<game>/__init__.py``), of a
subclass of :class:`Rules`, in the manner of OpenSpiel's ``Game`` and
python-chess's ``Board``: static facts as attributes, the state machine as
methods over immutable states, the computer player reached through it
(``choose``), and the optional hooks with their defaults here, so nothing
above the core asks a game whether it has one: what a finished match means
for each seat (``outcome``, win, loss or draw; ``records``, the game's own
records such as Irwin's victory points, aggregated as ``record_kinds`` say)
is asked of the rules, a new game plugs in without edits elsewhere. The
registry (``catalog.rules``) finds a game's object by its id; the match, the
wire, the stores, the server and the app go through this contract only.

Whatever a game keeps behind it (module functions, tables, its bot) is its
own: ``tests/test_protocol.py`` holds every game to the contract.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, Self, TypeVar

from . import listing
from .dice import MT
from .variants import Variant

if TYPE_CHECKING:
    from .listing import GameInfo

Standing = Literal["win", "loss", "draw"]
"""How a finished match ended for one seat (the history's outcome)."""


class GameConfig(Protocol):
    """A game's rule variants: a frozen dataclass (``variants.RecordedConfig``)."""

    @property
    def players(self) -> int: ...

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: Any) -> Self: ...

    @classmethod
    def from_record(cls, data: Any) -> Self: ...


class GameAction(Protocol):
    """A move: ``str(action)`` is its notation; ``kind`` names what it does."""

    @property
    def kind(self) -> str: ...


class GameState(Protocol):
    """A game's immutable state; it carries its config and its story."""

    @property
    def config(self) -> Any: ...

    @property
    def events(self) -> Sequence[object]: ...


class GameResult(Protocol):
    """How a finished match came out; ``winner`` None is a draw."""

    @property
    def winner(self) -> int | None: ...


ConfigT = TypeVar("ConfigT", bound=GameConfig)
StateT = TypeVar("StateT", bound=GameState)
ActionT = TypeVar("ActionT", bound=GameAction)
ViewT = TypeVar("ViewT")
EventT = TypeVar("EventT")
ResultT = TypeVar("ResultT", bound=GameResult)


class Rules(ABC, Generic[ConfigT, StateT, ActionT, ViewT, EventT, ResultT]):
    """One game's rules. Subclasses set the static facts and implement the
    abstract methods; the hooks below them have the defaults most games want.

    Dice come from the state's stream (``dice.new_stream(seed, dice,
    stream)``: recorded faces first, then the seeded stream of that kind), so
    a match replays from (config, seed, actions)."""

    id: str
    """The catalog's id; its title, seat range and blurb are the catalog's."""
    config_type: type[ConfigT]
    """The frozen ``Config`` dataclass: defaults are the rules as written."""
    variants: tuple[Variant, ...]
    """What the new-game dialog and ``--rule`` offer, one per config field."""
    levels: tuple[str, ...]
    """The computer's levels, weakest first."""
    levels_help: str = "How well the computer plays."
    spectators: bool = True
    """False where every hand is secret: nothing to watch but the log."""
    open_actions: frozenset[str] = frozenset()
    """Action kinds too many to list (Willie's meld): ``legal_actions``
    lists the others, and ``apply`` checks these against the rules."""
    record_kinds: Mapping[str, tuple[str, str]] = {}
    """The game's own records: {key: (label, how)}, how one of "max", "min",
    "sum" or "mean" over a player's matches (``records`` gives the values)."""

    # ------------------------------------------------------------ facts

    @property
    def info(self) -> GameInfo:
        return listing.get(self.id)

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and most seats."""
        return self.info.players

    @property
    def package(self) -> str:
        """The game's package: the dataclasses of its states live there (``wire``)."""
        return type(self).__module__

    @property
    def default_levels(self) -> tuple[str, ...]:
        """The levels the dialog offers seat by seat (cycled, from seat 2)."""
        return self.levels[-1:]

    def default_level(self, seat: int) -> str:
        """The level a computer in ``seat`` starts at (seat 1 is usually human)."""
        levels = self.default_levels
        return levels[(seat - 1) % len(levels)]

    # ------------------------------------------------------------ configs and actions

    def default_config(self) -> ConfigT:
        return self.config_type()

    def config_from_dict(self, data: object) -> ConfigT:
        """A config as a table or a record sends it; ValueError naming what is wrong."""
        return self.config_type.from_dict(data)

    def config_from_record(self, data: object) -> ConfigT:
        """``config_from_dict`` for a stored record, its legacy fields filled."""
        return self.config_type.from_record(data)

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """The move ``str(action)`` wrote; ValueError if it is not one."""

    # ------------------------------------------------------------ the state machine

    @abstractmethod
    def new_game(self, config: ConfigT, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> StateT:
        """The first state of a match."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> list[ActionT]:
        """The moves the seat to act may make (none once the match is over)."""

    @abstractmethod
    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The state after ``action``; ``IllegalAction`` naming the rule if refused."""

    @abstractmethod
    def to_act(self, state: StateT) -> int | None:
        """The seat whose move it is; None once the match is over."""

    @abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    @abstractmethod
    def result(self, state: StateT) -> ResultT | None:
        """How the match came out; None while it is being played."""

    @abstractmethod
    def view(self, state: StateT, seat: int) -> ViewT:
        """What ``seat`` may see: never the dice stream, never another's secrets."""

    @abstractmethod
    def narrate(self, event: EventT, names: Sequence[str]) -> str:
        """One event of ``state.events`` in words, for the log."""

    @abstractmethod
    def summary(self, state: StateT, names: Sequence[str]) -> str:
        """Where the match stands, in one line (the menu's Continue)."""

    @abstractmethod
    def choose(self, view: ViewT, legal: list[ActionT], level: str) -> ActionT:
        """The computer's move for the seat of ``view``, from that view alone."""

    # ------------------------------------------------------------ hooks, with their defaults

    def hide(self, state: StateT, seat: int | None) -> StateT:
        """``state`` with what ``seat`` (None: a spectator) may not know
        masked, for an app at a shared table; the stream and the seed are
        masked for every game (``masked``). By default nothing else is secret."""
        return state

    def masked(self, state: StateT, seat: int | None) -> StateT:
        """The state as ``seat`` may hold it: no dice stream, no seed, no secrets."""
        return self.hide(replace(state, rng=(), seed=0), seat)  # type: ignore[type-var]

    def outcome(self, state: StateT) -> tuple[Standing, ...]:
        """Each seat's standing once the match is over: by default the
        result's winner wins and the others lose (no winner: all draw)."""
        seats: int = state.config.players
        res = self.result(state)
        winner = res.winner if res is not None else None
        standings: list[Standing] = (
            ["draw"] * seats if winner is None else ["win" if i == winner else "loss" for i in range(seats)]
        )
        return tuple(standings)

    def records(self, state: StateT, seat: int) -> dict[str, float]:
        """This match's value of each of ``record_kinds`` for ``seat``."""
        return {}

    def levels_matter(self, config: ConfigT) -> bool:
        """False where a computer seat has no choice to make under those
        rules (the dialog then greys its level)."""
        return True

    def stake_limits(self, state: StateT | ViewT, seat: int) -> range | None:
        """The stakes ``seat`` may place when it stakes; None in a match (or
        a round) without stakes."""
        return None

    def opens_round(self, event: EventT) -> bool:
        """``event`` begins a round (a round's result holds the table up to
        the next one); False in a game without rounds."""
        return False


AnyRules = Rules[Any, Any, Any, Any, Any, Any]
"""A game's rules as the registry hands them out, its types not known."""
