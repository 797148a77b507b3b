"""Decimus: five secret d6, four games and mus-style betting to 30 points
(the rules page, tui/rules/decimus.md). Public rule functions: :func:`hand_value` and
:func:`winner`."""

from collections.abc import Sequence

from ..contract import Rules
from ..dice import MT
from . import bot
from .game import (
    DECLARED,
    FOLD,
    LEVELS,
    LEVELS_HELP,
    MAX_RAISE,
    MAX_REROLLS,
    PASS,
    RECORDS,
    SEE,
    STAND,
    VARIANTS,
    Action,
    BetPlaced,
    BettingOpened,
    Config,
    Declared,
    Dice,
    Event,
    Folded,
    MatchWon,
    Passed,
    Pending,
    PointAlone,
    Rerolled,
    Result,
    RoundStarted,
    Saw,
    Settled,
    Showdown,
    Stage,
    State,
    Stood,
    Unscored,
    View,
    apply,
    hide,
    is_over,
    legal_actions,
    narrate,
    new_game,
    records,
    rerolls_left,
    result,
    round_events,
    summary,
    to_act,
    view,
)
from .rules import GAMES, HIGHER_WINS, TITLES, describe, hand_dice, hand_value, why, winner

GAME_ID = "decimus"
TITLE = "Decimus"

__all__ = [
    "RULES",
    "DecimusRules",
    "hide",
    "RECORDS",
    "records",
    "DECLARED",
    "FOLD",
    "PASS",
    "SEE",
    "STAND",
    "GAMES",
    "GAME_ID",
    "HIGHER_WINS",
    "LEVELS",
    "LEVELS_HELP",
    "MAX_RAISE",
    "TITLE",
    "TITLES",
    "VARIANTS",
    "Action",
    "Config",
    "Event",
    "BetPlaced",
    "BettingOpened",
    "Declared",
    "Dice",
    "Folded",
    "MatchWon",
    "Passed",
    "Pending",
    "PointAlone",
    "Rerolled",
    "RoundStarted",
    "Saw",
    "Settled",
    "Showdown",
    "Stage",
    "Stood",
    "Unscored",
    "MAX_REROLLS",
    "rerolls_left",
    "Result",
    "State",
    "View",
    "apply",
    "describe",
    "hand_dice",
    "hand_value",
    "is_over",
    "legal_actions",
    "narrate",
    "new_game",
    "result",
    "round_events",
    "summary",
    "to_act",
    "view",
    "why",
    "winner",
]


class DecimusRules(Rules[Config, State, Action, View, Event, Result]):
    """Decimus through the game contract (``core.contract``)."""

    id = GAME_ID
    config_type = Config
    variants = VARIANTS
    levels = LEVELS
    levels_help = LEVELS_HELP
    record_kinds = RECORDS
    spectators = False  # every seat's hand is secret: nothing to watch but the log

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

    def choose(self, view: View, legal: list[Action], level: str) -> Action:
        return bot.choose(view, legal, level)

    def records(self, state: State, seat: int) -> dict[str, float]:
        return dict(records(state, seat))

    def hide(self, state: State, seat: int | None) -> State:
        return hide(state, seat)


RULES = DecimusRules()
