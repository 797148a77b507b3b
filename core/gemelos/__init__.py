"""Gemelos: two d8, the twins rule, king of the hill.

The public rule function is :func:`compare`; ``RULES`` is the game through
the contract every Garito game keeps (``core.contract``), with the module
functions below behind it.
"""

from collections.abc import Sequence

from ..contract import Rules
from ..dice import MT
from . import bot
from .game import (
    LEVELS,
    LEVELS_HELP,
    RECORDS,
    ROLL,
    STAKE_MODES,
    VARIANTS,
    Action,
    Config,
    Event,
    FirstRoller,
    MatchWon,
    Phase,
    Result,
    Rolled,
    RollOff,
    RoundResult,
    RoundStarted,
    RoundWon,
    Staked,
    StakeMode,
    State,
    Throw,
    Verdict,
    View,
    Voided,
    apply,
    is_over,
    legal_actions,
    levels_matter,
    narrate,
    new_game,
    phase,
    records,
    result,
    settle,
    stake_limits,
    summary,
    to_act,
    view,
)
from .rules import compare, describe, explain, is_twins, show

GAME_ID = "gemelos"
TITLE = "Gemelos"

__all__ = [
    "RULES",
    "GemelosRules",
    "RECORDS",
    "records",
    "GAME_ID",
    "TITLE",
    "ROLL",
    "STAKE_MODES",
    "Action",
    "Config",
    "Event",
    "FirstRoller",
    "MatchWon",
    "Phase",
    "Rolled",
    "RollOff",
    "RoundStarted",
    "RoundWon",
    "StakeMode",
    "Staked",
    "Verdict",
    "Voided",
    "LEVELS",
    "LEVELS_HELP",
    "VARIANTS",
    "Result",
    "RoundResult",
    "State",
    "Throw",
    "View",
    "apply",
    "compare",
    "describe",
    "explain",
    "is_over",
    "is_twins",
    "legal_actions",
    "levels_matter",
    "narrate",
    "new_game",
    "phase",
    "result",
    "settle",
    "show",
    "stake_limits",
    "summary",
    "to_act",
    "view",
]


class GemelosRules(Rules[Config, State, Action, View, Event, Result]):
    """Gemelos through the game contract (``core.contract``)."""

    id = GAME_ID
    config_type = Config
    variants = VARIANTS
    levels = LEVELS
    levels_help = LEVELS_HELP
    record_kinds = RECORDS

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

    def levels_matter(self, config: Config) -> bool:
        return levels_matter(config)

    def stake_limits(self, state: State | View, seat: int) -> range | None:
        return stake_limits(state, seat) if state.config.stakes != "off" else None


RULES = GemelosRules()
