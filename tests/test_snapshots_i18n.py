"""The translated screens at 80×24 in Spanish and Galician, compared with
the approved pictures, with the walk's checks (tests/walk.py: no label or
key bar cut) riding on every one as in English. The English pictures are
tests/test_snapshots.py's, unchanged by the translations."""

from __future__ import annotations

import pytest

from garito.core import i18n
from garito.tui.app import GarApp

from .helpers import barras_match, box_open, gemelos_match, redman_match, settle
from .test_snapshots import SIZE, keys

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
def test_new_game_dialog(snap_compare, lang):
    async def run_before(pilot):
        await keys("enter", "right")(pilot)  # three players
        pilot.app.screen.query_one("#var-stakes").focus()
        await keys("right")(pilot)  # blind stakes: levels and limits appear

    assert snap_compare(app(lang), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_gemelos_round_in_progress(snap_compare, lang):
    # Ana has rolled 4+3, Ramón took the lead with 8+6, Lucía is to roll.
    match = gemelos_match(seed=3, seats=("human", "human", "human"))
    assert snap_compare(app(lang, start=match), terminal_size=SIZE, run_before=keys("space", "space"))


@pytest.mark.parametrize("lang", LANGS)
def test_gemelos_round_result(snap_compare, lang):
    assert snap_compare(app(lang, start=gemelos_match(seed=7)), terminal_size=SIZE, run_before=keys("space"))


@pytest.mark.parametrize("lang", LANGS)
def test_gemelos_stake(snap_compare, lang):
    match = gemelos_match(seed=7, stakes="before-roll", seats=("computer", "human"))
    assert snap_compare(app(lang, start=match), terminal_size=SIZE, run_before=keys("right", "right"))


@pytest.mark.parametrize("lang", LANGS)
def test_gemelos_match_over(snap_compare, lang):
    run = keys(*(["space", "enter"] * 4))
    assert snap_compare(app(lang, start=gemelos_match(seed=7)), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_redman_call(snap_compare, lang):
    # Stakes of 3 agreed; Ana calls "a six and no pair" before her roll.
    match = redman_match(seed=5, bets="predictions")
    run = keys("right", "right", "enter", "right", "right", "right")
    assert snap_compare(app(lang, start=match), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_redman_round_result(snap_compare, lang):
    match = redman_match(seed=5, bets="predictions")
    run = keys("right", "right", "enter", "right", "right", "right", "space")
    assert snap_compare(app(lang, start=match), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_redman_red_man(snap_compare, lang):
    # Ramón rolls 6-6-6 after Ana: she must tip her hat.
    run = keys("right", "right", "right", "right", "enter", "space")
    assert snap_compare(app(lang, start=redman_match(seed=423)), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_redman_ledger_midway(snap_compare, lang):
    # Three rounds in, with stakes: the ledger of rounds and the table.
    run = keys(*["enter", "space", "enter"] * 3)
    assert snap_compare(app(lang, start=redman_match(seed=11)), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_redman_match_over(snap_compare, lang):
    async def run_before(pilot):
        from garito.tui.screens.results import MatchOverScreen

        await settle(pilot)
        for _ in range(60):
            if isinstance(pilot.app.screen, MatchOverScreen):
                break
            await pilot.press("enter")
            await settle(pilot)

    assert snap_compare(app(lang, start=redman_match(seed=11)), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_barras_bet(snap_compare, lang):
    # Bar 39; Ana, first to decide, raises her bet to 5 with the odds shown.
    run = keys("right", "right", "right", "right")
    assert snap_compare(app(lang, start=barras_match(seed=3)), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_barras_round_result(snap_compare, lang):
    run = keys("right", "right", "right", "right", "enter", "space")
    assert snap_compare(app(lang, start=barras_match(seed=3)), terminal_size=SIZE, run_before=run)


@pytest.mark.parametrize("lang", LANGS)
def test_barras_session_over(snap_compare, lang):
    async def run_before(pilot):
        await settle(pilot)
        screen = pilot.app.screen
        while len(screen.match.state.history) < 12:
            if box_open(pilot.app):
                await pilot.press("enter")
            elif screen.match.state.stage == "bet":
                await pilot.press(*(["right"] * 3 + ["enter"] if screen.match.state.bar < 50 else ["s"]))
            else:
                await pilot.press("space")
            await settle(pilot)
        while box_open(pilot.app):
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("c", "y")
        await settle(pilot)

    assert snap_compare(app(lang, start=barras_match(seed=3)), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("downs", [1, 2], ids=["redman", "barras"])
def test_rules_page(snap_compare, lang, downs):
    assert snap_compare(app(lang), terminal_size=SIZE, run_before=keys(*["down"] * downs, "question_mark"))
