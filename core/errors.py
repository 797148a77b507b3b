"""The one exception every game raises for a move the rules forbid."""

from __future__ import annotations

from .listing import get


class IllegalAction(ValueError):
    """An action the rules do not allow in this state.

    ``rule`` names the rule broken, in words a player understands; the UI
    shows it as it is.
    """

    def __init__(self, rule: str, action: object = None) -> None:
        super().__init__(rule)
        self.rule = rule
        self.action = action


class UnknownLevel(ValueError):
    """A computer level the game does not have: never played as another."""


def check_level(game_id: str, levels: tuple[str, ...], level: str) -> str:
    """``level`` if the game ``game_id`` has it; ``UnknownLevel`` naming the
    game by its title and the levels it has."""
    if level not in levels:
        raise UnknownLevel(f"{get(game_id).title} has no computer level {level!r}: {' or '.join(levels)}")
    return level
