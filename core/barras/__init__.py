"""Barras: percentile dice against the house's bar (the rules page:
``tui/rules/barras.md``).

The public rule function is :func:`value`; ``RULES`` is the game through
the contract every Garito game keeps (``core.contract``).
"""

from collections.abc import Sequence

from ..contract import Rules, Standing
from ..dice import MT
from . import bot
from .game import (
    CLOSE,
    DEFAULT_LEVELS,
    LEVELS,
    LEVELS_HELP,
    PAYOUTS,
    RECORDS,
    ROLL,
    SIT,
    VARIANTS,
    Action,
    BetPlaced,
    Broke,
    Closed,
    Config,
    Event,
    FeePaid,
    HouseKept,
    Result,
    Rolled,
    RolledOff,
    RoundResult,
    RoundStarted,
    SatOut,
    SessionEnded,
    Settlement,
    Solo,
    SoloWon,
    Stage,
    State,
    TableTaken,
    Tied,
    View,
    apply,
    is_over,
    legal_actions,
    narrate,
    new_game,
    outcome,
    phase,
    records,
    result,
    stake_limits,
    summary,
    to_act,
    view,
)
from .rules import faces, show, value

GAME_ID = "barras"
TITLE = "Barras"

__all__ = [
    "RULES",
    "BarrasRules",
    "RECORDS",
    "records",
    "outcome",
    "CLOSE",
    "DEFAULT_LEVELS",
    "GAME_ID",
    "LEVELS",
    "LEVELS_HELP",
    "PAYOUTS",
    "ROLL",
    "SIT",
    "TITLE",
    "VARIANTS",
    "Action",
    "Config",
    "Event",
    "BetPlaced",
    "Broke",
    "Closed",
    "FeePaid",
    "HouseKept",
    "Rolled",
    "RolledOff",
    "RoundStarted",
    "SatOut",
    "SessionEnded",
    "Settlement",
    "Solo",
    "SoloWon",
    "Stage",
    "TableTaken",
    "Tied",
    "Result",
    "RoundResult",
    "State",
    "View",
    "apply",
    "stake_limits",
    "faces",
    "is_over",
    "legal_actions",
    "narrate",
    "new_game",
    "phase",
    "result",
    "show",
    "summary",
    "to_act",
    "value",
    "view",
]


class BarrasRules(Rules[Config, State, Action, View, Event, Result]):
    """Barras through the game contract (``core.contract``)."""

    id = GAME_ID
    config_type = Config
    variants = VARIANTS
    levels = LEVELS
    levels_help = LEVELS_HELP
    record_kinds = RECORDS

    @property
    def default_levels(self) -> tuple[str, ...]:
        return DEFAULT_LEVELS

    def parse_action(self, text: str) -> Action:
        return Action.parse(text)

    def new_game(self, config: Config, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> State:
        return new_game(config, seed, dice, stream)

    def legal_actions(self, state: State) -> list[Action]:
        return legal_actions(state)

    def apply(self, state: State, action: Action) -> State:
        return apply(state, action)

    def to_act(self, state: State) -> int | None:
        return to_act(state)

    def is_over(self, state: State) -> bool:
        return is_over(state)

    def result(self, state: State) -> Result | None:
        return result(state)

    def view(self, state: State, seat: int) -> View:
        return view(state, seat)

    def narrate(self, event: Event, names: Sequence[str]) -> str:
        return narrate(event, names)

    def summary(self, state: State, names: Sequence[str]) -> str:
        return summary(state, names)

    def opens_round(self, event: Event) -> bool:
        return isinstance(event, RoundStarted)

    def choose(self, view: View, legal: list[Action], level: str) -> Action:
        return bot.choose(view, legal, level)

    def records(self, state: State, seat: int) -> dict[str, float]:
        return dict(records(state, seat))

    def outcome(self, state: State) -> tuple[Standing, ...]:
        return outcome(state)

    def stake_limits(self, state: State | View, seat: int) -> range | None:
        return stake_limits(state, seat)


RULES = BarrasRules()
