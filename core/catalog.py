"""The six games of the parlor: the registry of their rules.

Each entry holds what the menu shows of a game without loading it (its
title, seats, dice and blurb) and where its rules are; ``rules(game_id)``
imports that package when a game is first opened (start-up, measured by
``bench/startup.py``, loads none of them) and hands out its ``RULES``, the
game's one object of the contract (``core.contract``). A seventh game is a
package under ``core/`` with a ``RULES`` and one entry here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .contract import AnyRules


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    players: tuple[int, int]
    dice: str
    tagline: str
    package: str  # where its RULES are


GAMES: tuple[GameInfo, ...] = (
    GameInfo(
        "gemelos",
        "Gemelos",
        (2, 6),
        "two d8",
        "Highest roll wins, unless someone rolls twins: then only a hand "
        "with both dice above the twin can beat it.",
        "garito.core.gemelos",
    ),
    GameInfo(
        "redman",
        "Red Man's Throw",
        (2, 2),
        "three d6",
        "Six rounds where sixes rule, predictions raise the stakes, and 6-6-6 summons the Red Man.",
        "garito.core.redman",
    ),
    GameInfo(
        "barras",
        "Barras",
        (1, 6),
        "percentile d10 pair",
        "A casino table: the croupier rolls the bar, and you bet on beating it.",
        "garito.core.barras",
    ),
    GameInfo(
        "irwin",
        "Irwin's Revenge",
        (2, 2),
        "d10, then five d6",
        "An expedition for five cursed statuettes, then a race to a straight.",
        "garito.core.irwin",
    ),
    GameInfo(
        "decimus",
        "Decimus",
        (2, 2),
        "five d6, in secret",
        "Secret dice, four games and mus-style betting to 30 points.",
        "garito.core.decimus",
    ),
    GameInfo(
        "willie",
        "Willie",
        (2, 3),
        "the Haggis deck",
        "A manipulation rummy: rebuild the table's melds to shed your hand.",
        "garito.core.willie",
    ),
)

BY_ID = {g.id: g for g in GAMES}


def get(game_id: str) -> GameInfo:
    try:
        return BY_ID[game_id]
    except KeyError:
        raise LookupError(f"unknown game {game_id!r} (choose from {', '.join(BY_ID)})") from None


def rules(game_id: str) -> AnyRules:
    """The rules of the game ``game_id``; LookupError for an unknown one."""
    found: AnyRules = importlib.import_module(get(game_id).package).RULES
    return found
