"""The six games as the menu lists them, before any is loaded: each one's
title, seats, dice, blurb and the package of its rules. Read through
``catalog`` (which loads a game's rules), and by ``contract`` for a game's
own facts."""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    players: tuple[int, int]
    dice: str  # marked N_: shown as _(info.dice)
    tagline: str  # marked N_: shown as _(info.tagline)
    package: str  # where its RULES are


GAMES: tuple[GameInfo, ...] = (
    GameInfo(
        "gemelos",
        "Gemelos",
        (2, 6),
        N_("two d8"),
        N_(
            "Highest roll wins, unless someone rolls twins: then only a hand "
            "with both dice above the twin can beat it."
        ),
        "garito.core.gemelos",
    ),
    GameInfo(
        "redman",
        "Red Man's Throw",
        (2, 2),
        N_("three d6"),
        N_("Six rounds where sixes rule, predictions raise the stakes, and 6-6-6 summons the Red Man."),
        "garito.core.redman",
    ),
    GameInfo(
        "barras",
        "Barras",
        (1, 6),
        N_("percentile d10 pair"),
        N_("A casino table: the croupier rolls the bar, and you bet on beating it."),
        "garito.core.barras",
    ),
    GameInfo(
        "irwin",
        "Irwin's Revenge",
        (2, 2),
        N_("d10, then five d6"),
        N_("An expedition for five cursed statuettes, then a race to a straight."),
        "garito.core.irwin",
    ),
    GameInfo(
        "decimus",
        "Decimus",
        (2, 2),
        N_("five d6, in secret"),
        N_("Secret dice, four games and mus-style betting to 30 points."),
        "garito.core.decimus",
    ),
    GameInfo(
        "willie",
        "Willie",
        (2, 3),
        N_("the Haggis deck"),
        N_("A manipulation rummy: rebuild the table's melds to shed your hand."),
        "garito.core.willie",
    ),
)

BY_ID = {g.id: g for g in GAMES}


def get(game_id: str) -> GameInfo:
    try:
        return BY_ID[game_id]
    except KeyError:
        raise LookupError(f"unknown game {game_id!r} (choose from {', '.join(BY_ID)})") from None
