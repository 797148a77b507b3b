"""The translated screens at 80×24 in Spanish and Galician, compared with
the approved pictures, with the walk's checks (tests/walk.py: no label or
key bar cut) riding on every one as in English. The English pictures are
tests/test_snapshots.py's, unchanged by the translations."""

from __future__ import annotations

import pytest

from garito.core import i18n
from garito.tui.app import GarApp

from .helpers import (
    DECIMUS_DICE,
    barras_match,
    box_open,
    decimus_match,
    gemelos_match,
    irwin_match,
    match_over,
    opening,
    pick,
    redman_match,
    settle,
)
from .test_snapshots import (
    DECIMUS_ROUND,
    SIZE,
    _history,
    _irwin_final,
    _join_by_code,
    _leaderboard,
    _private_choice,
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
def test_lobby_join_by_code(snap_compare, table_server, lang):
    assert snap_compare(app(lang), terminal_size=SIZE, run_before=_join_by_code)


@pytest.mark.parametrize("lang", LANGS)
def test_lobby_new_table_private(snap_compare, table_server, lang):
    assert snap_compare(app(lang), terminal_size=SIZE, run_before=_private_choice)


@pytest.mark.parametrize("lang", LANGS)
def test_leaderboard(snap_compare, table_server, lang):
    assert snap_compare(app(lang), terminal_size=SIZE, run_before=_leaderboard)


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
        await settle(pilot)
        for _ in range(60):
            if match_over(pilot.app):
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
