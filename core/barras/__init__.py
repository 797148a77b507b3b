"""Barras: percentile dice against the house's bar (RULES.md §3).

The public rule function is :func:`value`; the game follows the core
protocol used by every Garito game.
"""

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
    Config,
    Event,
    Result,
    RoundResult,
    State,
    View,
    apply,
    bet_range,
    is_over,
    legal_actions,
    narrate,
    new_game,
    outcome,
    phase,
    records,
    result,
    summary,
    to_act,
    view,
)
from .rules import faces, show, value

GAME_ID = "barras"
TITLE = "Barras"

__all__ = [
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
    "Result",
    "RoundResult",
    "State",
    "View",
    "apply",
    "bet_range",
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
