"""Gemelos: two d8, the twins rule, king of the hill (RULES.md §1).

The public rule function is :func:`compare`; the game follows the core
protocol (``Config``, ``new_game``, ``legal_actions``, ``apply``, ``is_over``,
``result``, ``view``) used by every Garito game.
"""

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
    Result,
    RoundResult,
    State,
    Throw,
    View,
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
    stake_range,
    summary,
    to_act,
    view,
)
from .rules import compare, describe, explain, is_twins, show

GAME_ID = "gemelos"
TITLE = "Gemelos"

__all__ = [
    "RECORDS",
    "records",
    "GAME_ID",
    "TITLE",
    "ROLL",
    "STAKE_MODES",
    "Action",
    "Config",
    "Event",
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
    "stake_range",
    "summary",
    "to_act",
    "view",
]
