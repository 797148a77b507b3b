"""Willie: the Haggis-deck manipulation rummy (RULES.md §6).

The solver's three entry points are :func:`is_meld`, :func:`arrange` and
:func:`best_play`, in the card notation of ``cards`` (``7r``, ``10b``,
``J``, ``J=7r``).
"""

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
    Config,
    Event,
    Result,
    State,
    View,
    apply,
    can_close,
    hide,
    is_over,
    legal_actions,
    meld,
    narrate,
    new_game,
    records,
    result,
    summary,
    to_act,
    view,
)
from .melds import is_meld, kind, meld_problem
from .rules import RoundScore, match_bonuses, play_problem, score_round
from .solver import arrange, best_play

GAME_ID = "willie"
SPECTATORS = False  # every seat's hand is secret: nothing to watch but the log
TITLE = "Willie"

__all__ = [
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
