"""Willie: the Haggis-deck manipulation rummy (the rules page, tui/rules/willie.md).

The solver's three entry points are :func:`is_meld`, :func:`arrange` and
:func:`best_play`, in the card notation of ``cards`` (``7r``, ``10b``,
``J``, ``J=7r``).
"""

from collections.abc import Sequence

from ..contract import Rules
from ..dice import MT
from . import bot
from .cards import FACES, POINTS, SUIT_NAMES, SUITS, parse, points, sort_hand
from .game import (
    CLOSE,
    CONTINUE,
    LEVELS,
    LEVELS_HELP,
    OPEN_ACTIONS,
    PASS,
    RECORDS,
    VARIANTS,
    Action,
    Bonuses,
    Closed,
    Config,
    Dealt,
    Drew,
    Event,
    MatchEnded,
    Melded,
    NoMeld,
    Passed,
    PileOut,
    Result,
    RoundScored,
    Stage,
    State,
    View,
    Wilds,
    apply,
    can_close,
    ended_round,
    hide,
    is_over,
    legal_actions,
    meld,
    narrate,
    new_game,
    records,
    result,
    round_scored,
    summary,
    to_act,
    view,
)
from .melds import is_meld, kind, meld_problem
from .rules import RoundScore, match_bonuses, play_problem, score_round
from .solver import arrange, best_play

GAME_ID = "willie"
TITLE = "Willie"

__all__ = [
    "RULES",
    "WillieRules",
    "hide",
    "RECORDS",
    "records",
    "CLOSE",
    "CONTINUE",
    "FACES",
    "GAME_ID",
    "LEVELS",
    "LEVELS_HELP",
    "OPEN_ACTIONS",
    "PASS",
    "POINTS",
    "SUITS",
    "SUIT_NAMES",
    "TITLE",
    "VARIANTS",
    "Action",
    "Config",
    "Event",
    "Bonuses",
    "Closed",
    "Dealt",
    "Drew",
    "MatchEnded",
    "Melded",
    "NoMeld",
    "Passed",
    "PileOut",
    "RoundScored",
    "Stage",
    "Wilds",
    "ended_round",
    "round_scored",
    "Result",
    "RoundScore",
    "State",
    "View",
    "apply",
    "arrange",
    "best_play",
    "can_close",
    "is_meld",
    "is_over",
    "kind",
    "legal_actions",
    "match_bonuses",
    "meld",
    "meld_problem",
    "narrate",
    "new_game",
    "parse",
    "play_problem",
    "points",
    "result",
    "score_round",
    "sort_hand",
    "summary",
    "to_act",
    "view",
]


class WillieRules(Rules[Config, State, Action, View, Event, Result]):
    """Willie through the game contract (``core.contract``)."""

    id = GAME_ID
    config_type = Config
    variants = VARIANTS
    levels = LEVELS
    levels_help = LEVELS_HELP
    record_kinds = RECORDS
    spectators = False  # every seat's hand is secret: nothing to watch but the log
    open_actions = frozenset(OPEN_ACTIONS)

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


RULES = WillieRules()
