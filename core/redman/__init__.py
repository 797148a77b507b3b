"""Red Man's Throw: three d6, sixes first, six rounds and the Red Man (the
rules page: ``tui/rules/redman.md``).

The public rule functions are :func:`compare` and :func:`describe`;
``RULES`` is the game through the contract every Garito game keeps
(``core.contract``).
"""

from collections.abc import Sequence

from ..contract import Rules
from ..dice import MT
from . import bot
from .game import (
    BETS,
    LEVELS,
    LEVELS_HELP,
    RECORDS,
    ROLL,
    ROUNDS,
    SALVATION,
    TIP,
    VARIANTS,
    Action,
    Bets,
    Config,
    Event,
    FirstRoller,
    HatTipped,
    Matched,
    MatchWon,
    NoStake,
    Proposed,
    Raised,
    RedManRolled,
    RedManWon,
    Result,
    Rolled,
    RolledOff,
    RoundResult,
    RoundStarted,
    RoundWon,
    Stage,
    State,
    Tied,
    View,
    apply,
    is_over,
    ledger_net,
    legal_actions,
    levels_matter,
    narrate,
    new_game,
    next_match,
    paid,
    phase,
    put_in,
    records,
    result,
    settle,
    stake_limits,
    summary,
    taken,
    to_act,
    view,
)
from .rules import (
    CATEGORIES,
    HANDS,
    PREDICTIONS,
    RED_MAN,
    WEIGHTS,
    compare,
    describe,
    explain,
    fulfils,
    is_prediction,
    key,
    prediction_chance,
    prediction_label,
    show,
)

GAME_ID = "redman"
TITLE = "Red Man's Throw"

__all__ = [
    "RULES",
    "RedManRules",
    "RECORDS",
    "records",
    "BETS",
    "CATEGORIES",
    "GAME_ID",
    "HANDS",
    "LEVELS",
    "LEVELS_HELP",
    "PREDICTIONS",
    "RED_MAN",
    "ROLL",
    "ROUNDS",
    "SALVATION",
    "TIP",
    "TITLE",
    "VARIANTS",
    "WEIGHTS",
    "Action",
    "Config",
    "Event",
    "Bets",
    "FirstRoller",
    "HatTipped",
    "MatchWon",
    "Matched",
    "NoStake",
    "Proposed",
    "Raised",
    "RedManRolled",
    "RedManWon",
    "RolledOff",
    "Rolled",
    "RoundStarted",
    "RoundWon",
    "Stage",
    "Tied",
    "taken",
    "Result",
    "RoundResult",
    "State",
    "View",
    "apply",
    "compare",
    "describe",
    "explain",
    "fulfils",
    "is_prediction",
    "is_over",
    "key",
    "legal_actions",
    "ledger_net",
    "levels_matter",
    "narrate",
    "new_game",
    "next_match",
    "paid",
    "put_in",
    "phase",
    "prediction_chance",
    "prediction_label",
    "result",
    "settle",
    "show",
    "stake_limits",
    "summary",
    "to_act",
    "view",
]


class RedManRules(Rules[Config, State, Action, View, Event, Result]):
    """Red Man's Throw through the game contract (``core.contract``)."""

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
        return stake_limits(state)  # both seats stake within the same limits


RULES = RedManRules()
