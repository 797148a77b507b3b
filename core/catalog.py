"""The six games of the parlor: the registry of their rules.

Each entry holds what the menu shows of a game without loading it (its
title, seats, dice and blurb) and where its rules are; ``rules(game_id)``
imports that package when a game is first opened (start-up, measured by
``bench/startup.py``, loads none of them) and hands out its ``RULES``, the
game's one object of the contract (``core.contract``). A seventh game is a
package under ``core/`` with a ``RULES`` and one entry in ``listing``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# The listing is the catalog's: read as catalog.GAMES, catalog.get (kept in a
# module of its own, which the contract reads too without importing this).
from .listing import BY_ID, GAMES, GameInfo, get

__all__ = ["BY_ID", "GAMES", "GameInfo", "get", "rules"]

if TYPE_CHECKING:
    from .contract import AnyRules


def rules(game_id: str) -> AnyRules:
    """The rules of the game ``game_id``; LookupError for an unknown one."""
    found: AnyRules = importlib.import_module(get(game_id).package).RULES
    return found
