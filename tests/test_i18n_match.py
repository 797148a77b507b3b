"""Whole matches played by keys (Pilot) in Spanish and in Galician, as a
player would: every line the log told, every result box and the match's
sheet read for English words left untranslated."""

from __future__ import annotations

import re

import pytest

from garito.core import i18n
from garito.tui.app import GarApp
from garito.widgets.gamelog import GameLog

from .helpers import box_open, box_text, gemelos_match, match_over, redman_match, settle, sync

# Words of the English narration, sheets and boxes that no Spanish or
# Galician sentence of these games uses (names and numbers aside).
ENGLISH = re.compile(
    r"\b(wins?|won|rolls?|round|rounds|the|and|takes|leads?|keeps?|stakes?|twins|beats?|matches|"
    r"proposes|raises|throws|ledger|push|over|first|match|chips?|tie[sd]?|void|roll-off|against|"
    r"sum|pair|trio|straight|nothing|sixes|higher|with|pot|seed|seat|space|press|your|red man)\b",
    re.IGNORECASE,
)


def english_in(text: str) -> list[str]:
    return sorted({m.group(0).lower() for m in ENGLISH.finditer(text)})


async def play(app: GarApp, pilot, *, limit: int = 300) -> list[str]:
    """Keys until the match-over box; each result box's text on the way."""
    boxes = []
    for _ in range(limit):
        await settle(pilot)
        if match_over(app):
            return boxes
        if box_open(app):
            boxes.append(box_text(app))
        await pilot.press("enter")
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("lang", ["es", "gl"])
@pytest.mark.parametrize(
    "match",
    [
        lambda: gemelos_match(seed=7, seats=("human", "computer", "computer"), stakes="blind"),
        lambda: redman_match(seed=11),
    ],
    ids=["gemelos", "redman"],
)
@sync
async def test_a_whole_match_reads_in_the_language(lang, match):
    i18n.set_default(lang)  # as --lang sets it (conftest resets it)
    app = GarApp(start=match())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen
        boxes = await play(app, pilot)
        log = table.query_one(GameLog).lines
        sheet = str(app.screen.over.body)
        assert len(log) > 10 and boxes
        for line in log:
            assert not english_in(line), (line, english_in(line))
        for text in [*boxes, sheet]:
            assert not english_in(text), (text, english_in(text))
        # and the same match in English is what the check would catch
        i18n.set_default("en")
        english = table.match.rules.narrate(table.match.state.events[0], table.match.names)
        assert english_in(english)
