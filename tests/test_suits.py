"""Willie's five suits told apart by colour alone in every theme, as the
cards come out on a truecolor terminal and on a 256-colour one, and by
their letter without colour."""

from __future__ import annotations

import itertools
import re

import pytest
from rich.color import ColorSystem

from garito.tui.app import GarApp

from .helpers import opening, screen_lines, settle, sync

CARD = re.compile(r"^[ \[](\d+)([roygb])[ \]]$")
THEMES = sorted(GarApp().available_themes)  # Garito's four and the palette's others
APART = 20  # CIE76 distance: ~2 is the least an eye sees; 20 is plainly another colour


def lab(rgb) -> tuple[float, float, float]:
    """sRGB (0-255) to CIELAB, D65."""

    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a, b) -> float:
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5


def test_the_distance_is_cielab():
    assert distance((0, 0, 0), (255, 255, 255)) == pytest.approx(100, abs=0.1)
    # the colours the suits had: "dark_orange" and Monokai's "yellow"
    assert distance((255, 135, 0), (253, 151, 31)) < APART


async def suit_colours(theme: str) -> tuple[dict[str, set], str | None]:
    """Each suit's colours on the cards of a Willie table, as Textual sends
    them (its ANSI theme applied): {suit: {rich Color}}, and the theme's
    background (None: the terminal's own)."""
    app = GarApp(theme=theme)
    found: dict[str, set] = {}
    background = app.get_theme(theme).background
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_match(opening())
        await settle(pilot)
        update = app.screen._compositor.render_update(full=True)
        for line in update.strips:  # each line of the terminal: strips of segments
            for strip in line:
                for segment in strip:
                    m = CARD.match(segment.text)
                    if m and segment.style is not None and segment.style.color is not None:
                        found.setdefault(m.group(2), set()).add(segment.style.color)
    return found, background if background and background.startswith("#") else None


@pytest.mark.parametrize("theme", THEMES)
def test_five_suits_five_colours_at_truecolor_and_256(theme):
    found, background = sync(suit_colours)(theme)
    assert set(found) == set("roygb"), f"suits on the table: {sorted(found)}"
    for system in (ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT):
        rgb = {}
        for suit, colours in found.items():
            shown = {c.downgrade(system).get_truecolor() for c in colours}
            assert len(shown) == 1, f"{suit} is drawn in {shown}"
            rgb[suit] = tuple(shown.pop())
        for a, b in itertools.combinations("roygb", 2):
            assert distance(rgb[a], rgb[b]) >= APART, f"{theme}, {system.name}: {a} {rgb[a]} and {b} {rgb[b]}"
        if background is not None:  # and each stands out from the table
            ground = tuple(int(background[i : i + 2], 16) for i in (1, 3, 5))
            for suit, colour in rgb.items():
                assert distance(colour, ground) >= 2 * APART, f"{theme}: {suit} {colour} on {background}"


@pytest.mark.parametrize("ascii_only", [False, True])
def test_without_colour_the_suit_is_the_cards_letter(monkeypatch, ascii_only):
    monkeypatch.setenv("NO_COLOR", "1")

    @sync
    async def run():
        app = GarApp(start=opening(), ascii_only=ascii_only)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            text = "\n".join(screen_lines(app))
            for card in ("4b", "6b", "7o", "8o", "9o", "2r", "2b", "7r", "7g", "9y"):
                assert re.search(rf"[ \[]{card}[ \]]", text), card

    run()
