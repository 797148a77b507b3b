"""Whole matches played by keys (Pilot) in Galician and Spanish, with
everything the player read on the way (the log, the table's heading,
caption and prompt, the round boxes and the match's end) checked for
English left untranslated."""

from __future__ import annotations

import re

import pytest

from garito.core import decimus as dx
from garito.core import i18n
from garito.tui.app import GarApp
from garito.tui.screens.decimus import DecimusScreen
from garito.widgets.notice import Notice

from .helpers import box_open, box_text, decimus_match, match_over, settle, sync

# Words of the English narration and table that no es or gl text holds
# (the players' names and the game's Galician terms are neither).
ENGLISH = re.compile(
    r"\b(the|rerolls?|stands?|passes|bets?|raises|sees|folds?|wins|round|points?|hand|showdown|"
    r"scores?|takes|beats|ties|neither|only|first|match|over|after|seed|pending|scored|alone|"
    r"betting|your|speaks|rolls|thinking|turn|pick|dice|waiting|higher|lower|equal|pair|aces?)\b",
    re.IGNORECASE,
)


def english_in(texts) -> list[str]:
    return [t for t in texts if ENGLISH.search(t)]


def table(app) -> DecimusScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, DecimusScreen))


@pytest.mark.parametrize("lang", ["gl", "es"])
@sync
async def test_a_whole_decimus_match_by_keys_speaks_the_language(lang):
    i18n.set_default(lang)  # as --lang does (conftest sets English again after)
    app = GarApp(start=decimus_match(seed=4, level="classic", target=20))
    read: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(600):
            if match_over(app):
                break
            if box_open(app):
                read.append(box_text(app))
                await pilot.press("enter")
                await settle(pilot)
                continue
            screen = table(app)
            read += [screen.heading, screen.caption, str(screen.prompt)]
            s = screen.match.state
            legal = dx.legal_actions(s) if dx.to_act(s) == 0 else []
            if dx.STAND in legal:
                await pilot.press("1", "enter" if s.rerolls[0] == 0 else "d")  # one reroll, then stand
            elif dx.SEE in legal:
                await pilot.press("s")
            elif dx.PASS in legal:
                await pilot.press("right", "enter" if s.game == 0 else "p")  # bet 2 on Maiores
            await settle(pilot)
        assert match_over(app)
        screen = table(app)
        assert screen.match.state.stage == "over"
        story = list(screen._story)
        read += story
        read.append(box_text(app))
        read.append(str(app.screen.query_one(Notice).border_title))
    assert len(story) > 30 and screen.match.state.round >= 2
    assert not english_in(read), english_in(read)[:5]
    # the narration is the language's, not only free of English
    said = {"gl": ("Rolda 1: Ana é man.", "mostra"), "es": ("Ronda 1: Ana es mano.", "muestra")}[lang]
    assert story[0] == said[0] and any(said[1] in line.lower() for line in story)
