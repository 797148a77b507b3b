"""Decimus: five secret d6, four games and mus-style betting to 30 points
(RULES.md §5). The rule functions and the round's state machine
(``game``) exist; the computer seats and the screen do not yet, so the
catalog lists the game as not playable."""

from .rules import GAMES, HIGHER_WINS, TITLES, hand_dice, hand_value, winner

__all__ = ["GAMES", "HIGHER_WINS", "TITLES", "hand_dice", "hand_value", "winner"]
