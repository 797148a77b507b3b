"""The translated screens at 80×24 in Spanish and Galician, compared with
the approved pictures, with the walk's checks (tests/walk.py: no label or
key bar cut) riding on every one as in English. The English pictures are
tests/test_snapshots.py's, unchanged by the translations."""

from __future__ import annotations

import pytest

from garito.core import i18n
from garito.tui.app import GarApp

from .helpers import DECIMUS_DICE, decimus_match, irwin_match, opening, pick, settle
from .test_snapshots import (
    DECIMUS_ROUND,
    SIZE,
    _history,
    _irwin_final,
    _to_lobby,
    keys,
    table_server,
    willie_marked,
)

__all__ = ["table_server"]  # the shared tables the lobby lists, as in English

LANGS = ("es", "gl")


def app(lang: str, **kwargs) -> GarApp:
    i18n.set_default(lang)  # the process's language, as the CLI sets it (conftest resets it)
    return GarApp(theme="textual-dark", **kwargs)


@pytest.mark.parametrize("lang", LANGS)
def test_menu(snap_compare, lang):
    assert snap_compare(app(lang), terminal_size=SIZE, run_before=keys())


@pytest.mark.parametrize("lang", LANGS)
def test_menu_on_decimus(snap_compare, lang):
    assert snap_compare(app(lang), terminal_size=SIZE, run_before=keys("down", "down", "down", "down"))


@pytest.mark.parametrize("lang", LANGS)
def test_rules_page_of_decimus(snap_compare, lang):
    assert snap_compare(
        app(lang), terminal_size=SIZE, run_before=keys("down", "down", "down", "down", "question_mark")
    )


@pytest.mark.parametrize("lang", LANGS)
def test_too_small_notice(snap_compare, lang):
    assert snap_compare(app(lang), terminal_size=(70, 20), run_before=keys())


@pytest.mark.parametrize("lang", LANGS)
def test_decimus_betting(snap_compare, lang):
    match = decimus_match(dice=DECIMUS_DICE + (3, 4))
    assert snap_compare(app(lang, start=match), terminal_size=SIZE, run_before=keys(*DECIMUS_ROUND, "right"))


@pytest.mark.parametrize("lang", LANGS)
def test_decimus_showdown(snap_compare, lang):
    match = decimus_match(dice=DECIMUS_DICE + (3, 4))
    assert snap_compare(app(lang, start=match), terminal_size=SIZE, run_before=keys(*DECIMUS_ROUND, "s"))


@pytest.mark.parametrize("lang", LANGS)
def test_willie_invalid_meld_marked(snap_compare, lang):
    assert snap_compare(app(lang, start=opening()), terminal_size=SIZE, run_before=willie_marked)


@pytest.mark.parametrize("lang", LANGS)
def test_willie_score_sheet(snap_compare, lang):
    async def run_before(pilot):
        await settle(pilot)
        await pick(pilot, "10b", "8y", "2r", "Q")
        await keys("a", "e", "c")(pilot)

    assert snap_compare(app(lang, start=opening()), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_lobby(snap_compare, table_server, lang):
    assert snap_compare(app(lang), terminal_size=SIZE, run_before=_to_lobby)


@pytest.mark.parametrize("lang", LANGS)
def test_statistics(snap_compare, lang):
    async def run_before(pilot):
        from garito.tui.screens.history import StatsScreen

        _history()
        pilot.app.push_screen(StatsScreen())
        await keys("right", "right", "right", "right", "right")(pilot)  # Decimus

    assert snap_compare(app(lang), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_history(snap_compare, lang):
    async def run_before(pilot):
        from garito.tui.screens.history import HistoryScreen

        _history()
        pilot.app.push_screen(HistoryScreen())
        await keys()(pilot)

    assert snap_compare(app(lang), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_rules_page_of_willie(snap_compare, lang):
    assert snap_compare(
        app(lang),
        terminal_size=SIZE,
        run_before=keys("down", "down", "down", "down", "down", "question_mark"),
    )


@pytest.mark.parametrize("lang", LANGS)
def test_irwin_expedition(snap_compare, lang):
    run = keys("enter", "enter", "down", "down")
    assert snap_compare(app(lang, start=irwin_match(seed=4)), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_irwin_final_offer(snap_compare, lang):
    match, run = _irwin_final()
    assert snap_compare(app(lang, start=match), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_irwin_score_sheet(snap_compare, lang):
    match, run = _irwin_final("enter")
    assert snap_compare(app(lang, start=match), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_rules_page_of_irwin(snap_compare, lang):
    assert snap_compare(
        app(lang), terminal_size=SIZE, run_before=keys("down", "down", "down", "question_mark")
    )
