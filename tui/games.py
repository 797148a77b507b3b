"""Which screen plays which game, and the names seats get by default."""

from __future__ import annotations

import importlib

from garito.core.i18n import _
from garito.core.match import Match
from garito.core.words import COMPUTER_NAMES

SCREENS = {
    "gemelos": "garito.tui.screens.gemelos:GemelosScreen",
    "redman": "garito.tui.screens.redman:RedManScreen",
    "barras": "garito.tui.screens.barras:BarrasScreen",
    "irwin": "garito.tui.screens.irwin:IrwinScreen",
    "decimus": "garito.tui.screens.decimus:DecimusScreen",
    "willie": "garito.tui.screens.willie:WillieScreen",
}


def screen_for(match: Match, seating=None):
    """The game's screen for ``match``; at a shared table, with its ``Seating``."""
    module, _, cls = SCREENS[match.game].partition(":")
    return getattr(importlib.import_module(module), cls)(match, seating)


def default_names(kinds: list[str]) -> list[str]:
    """The player's own name for the first human seat, "Player n" for the
    other humans, Spanish and Galician names for the computer seats."""
    from garito.store import settings

    me = settings.player()
    # A computer never takes the name the player's own seat has (a player
    # called Ramón met "two seats have the same name" at the first Enter).
    mine = me if "human" in kinds else ""
    bots = iter([name for name in COMPUTER_NAMES if name != mine])
    names = []
    for i, kind in enumerate(kinds):
        if kind == "computer":
            names.append(next(bots))
        elif me and kind == "human":
            names.append(me)
            me = ""
        else:
            names.append(_("Player {number}").format(number=i + 1))
    return names
