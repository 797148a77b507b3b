"""The five suits' colours (Willie's cards), one set for dark backgrounds
and one for light.

Named colours will not do: Textual turns "yellow" into its ANSI theme's
yellow, which in the dark one (Monokai) is orange, rgb(253, 151, 31), a
shade from "dark_orange"; a 256-colour terminal then draws both as colour
208. These are colours of the 256-colour cube, so a truecolor terminal and a
256-colour one draw exactly the same five, at least 39 apart in CIELAB
(tests/test_suits.py measures them in every theme). The suit's letter is on
every card too ("7r"), for NO_COLOR and for anyone who tells colours apart
poorly.
"""

from __future__ import annotations

DARK = {"r": "#ff5f5f", "o": "#ff8700", "y": "#ffd700", "g": "#5fd75f", "b": "#5fafff"}
LIGHT = {"r": "#d7005f", "o": "#d75f00", "y": "#af8700", "g": "#008700", "b": "#005fd7"}


def suit_colour(suit: str, dark: bool) -> str:
    return (DARK if dark else LIGHT)[suit]
