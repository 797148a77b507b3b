"""Every screen at 80×24, compared with the approved pictures.

Fixed seeds and names, computer seats without a pause (GARITO_BOT_DELAY=0,
see conftest), the theme given explicitly, a still cursor. Run
``pytest --snapshot-update`` after a deliberate change, and look at the
pictures before committing them.
"""

from __future__ import annotations

import pytest

from garito.core import gemelos
from garito.tui.app import GarApp

from .helpers import (
    DECIMUS_DICE,
    IRWIN_SWEEP,
    barras_match,
    box_open,
    decimus_match,
    gemelos_match,
    go_to,
    irwin_match,
    match_over,
    opening,
    pick,
    redman_match,
    settle,
)

SIZE = (80, 24)


def app(**kwargs) -> GarApp:
    return GarApp(theme=kwargs.pop("theme", "textual-dark"), **kwargs)


def keys(*presses):
    async def run_before(pilot):
        await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await settle(pilot)

    return run_before


def test_menu(snap_compare):
    assert snap_compare(app(), terminal_size=SIZE, run_before=keys())


def test_new_game_dialog(snap_compare):
    async def run_before(pilot):
        await keys("enter", "right")(pilot)  # three players
        pilot.app.screen.query_one("#var-stakes").focus()
        await keys("right")(pilot)  # blind stakes: levels and limits appear

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_gemelos_round_in_progress(snap_compare):
    # Ana has rolled 4+3, Ramón took the lead with 8+6, Lucía is to roll.
    match = gemelos_match(seed=3, seats=("human", "human", "human"))
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=keys("space", "space"))


def test_gemelos_round_result(snap_compare):
    assert snap_compare(app(start=gemelos_match(seed=7)), terminal_size=SIZE, run_before=keys("space"))


def test_gemelos_stake(snap_compare):
    match = gemelos_match(seed=7, stakes="before-roll", seats=("computer", "human"))
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=keys("right", "right"))


def test_gemelos_match_over(snap_compare):
    run = keys(*(["space", "enter"] * 4))
    assert snap_compare(app(start=gemelos_match(seed=7)), terminal_size=SIZE, run_before=run)


def test_rules_screen(snap_compare):
    assert snap_compare(app(start=gemelos_match()), terminal_size=SIZE, run_before=keys("question_mark"))


def test_too_small_notice(snap_compare):
    assert snap_compare(app(), terminal_size=(70, 20), run_before=keys())


def test_ascii_mode_light_theme(snap_compare):
    match = gemelos_match(seed=3, seats=("human", "human", "human"))
    assert snap_compare(
        app(start=match, ascii_only=True, theme="ansi-light"), terminal_size=SIZE, run_before=keys("space")
    )


def test_menu_ascii_with_a_saved_game(snap_compare):
    from garito.store import saves

    saves.save(gemelos_match(seed=3).play(gemelos.ROLL))
    assert snap_compare(app(ascii_only=True), terminal_size=SIZE, run_before=keys())


def test_redman_call(snap_compare):
    # Stakes of 3 agreed; Ana calls "a six and no pair" before her roll.
    match = redman_match(seed=5, bets="predictions")
    run = keys("right", "right", "enter", "right", "right", "right")
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=run)


def test_redman_round_result(snap_compare):
    match = redman_match(seed=5, bets="predictions")
    run = keys("right", "right", "enter", "right", "right", "right", "space")
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=run)


def test_redman_red_man(snap_compare):
    # Ramón rolls 6-6-6 after Ana: she must tip her hat.
    run = keys("right", "right", "right", "right", "enter", "space")
    assert snap_compare(app(start=redman_match(seed=423)), terminal_size=SIZE, run_before=run)


def test_redman_ledger_midway(snap_compare):
    # Three rounds in, with stakes: the ledger of rounds and the table.
    run = keys(*["enter", "space", "enter"] * 3)
    assert snap_compare(app(start=redman_match(seed=11)), terminal_size=SIZE, run_before=run)


def test_redman_match_over(snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        for _ in range(60):
            if match_over(pilot.app):
                break
            await pilot.press("enter")
            await settle(pilot)

    assert snap_compare(app(start=redman_match(seed=11)), terminal_size=SIZE, run_before=run_before)


def test_barras_bet(snap_compare):
    # Bar 39; Ana, first to decide, raises her bet to 5 with the odds shown.
    run = keys("right", "right", "right", "right")
    assert snap_compare(app(start=barras_match(seed=3)), terminal_size=SIZE, run_before=run)


def test_barras_round_result(snap_compare):
    run = keys("right", "right", "right", "right", "enter", "space")
    assert snap_compare(app(start=barras_match(seed=3)), terminal_size=SIZE, run_before=run)


def test_barras_session_over(snap_compare):
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

    assert snap_compare(app(start=barras_match(seed=3)), terminal_size=SIZE, run_before=run_before)


def test_irwin_expedition(snap_compare):
    # A few turns in: the statuettes, who holds what, Ana's chances.
    run = keys("enter", "enter", "down", "down")
    assert snap_compare(app(start=irwin_match(seed=4)), terminal_size=SIZE, run_before=run)


def _irwin_final(*extra):
    dice, names, final = IRWIN_SWEEP
    presses = [p for k in names for p in (k, "enter")] + ["enter", "space", *extra]
    match = irwin_match(seats=("human", "human"), names=("Ana", "Bea"), dice=dice + final)
    return match, keys(*presses)


def test_irwin_final_offer(snap_compare):
    # Ana holds all five; her throw 1-1-2-5-6 and the Ant and Eagle offer.
    match, run = _irwin_final()
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=run)


def test_irwin_score_sheet(snap_compare):
    match, run = _irwin_final("enter")
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=run)


# Ana's two aces will become 3 and 4; Ramón (strong) then rerolls all five and one.
DECIMUS_ROUND = ("4", "5", "enter", "enter", "right", "enter", "p")


def test_decimus_rolling(snap_compare):
    match = decimus_match(dice=DECIMUS_DICE + (3, 4))
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=keys("4", "5"))


def test_decimus_betting(snap_compare):
    # Maiores: Ana bet 2 and Ramón folded; Menores: Ana passed, Ramón bet 4.
    match = decimus_match(dice=DECIMUS_DICE + (3, 4))
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=keys(*DECIMUS_ROUND, "right"))


def test_decimus_showdown(snap_compare):
    match = decimus_match(dice=DECIMUS_DICE + (3, 4))
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=keys(*DECIMUS_ROUND, "s"))


def test_decimus_hand_off(snap_compare):
    # Ana is handed the keyboard, stands; now Bea's turn.
    match = decimus_match(seats=("human", "human"), names=("Ana", "Bea"))
    assert snap_compare(app(start=match), terminal_size=SIZE, run_before=keys("enter", "enter"))


def _history():
    from datetime import UTC, datetime

    from garito.store.history import History

    from .test_history import finished

    with History() as h:
        for game, seed in (("irwin", 5), ("gemelos", 6), ("irwin", 7), ("decimus", 2), ("barras", 3)):
            h.add(finished(game, seed), finished=datetime(2026, 11, 29, 19, 7, tzinfo=UTC))


async def willie_marked(pilot):
    """Ana moves 7o onto the sevens (8o 9o is left, marked) and picks 2r, 3y."""
    await settle(pilot)
    await pick(pilot, "7o")
    await go_to(pilot, "7r")
    await pilot.press("enter")
    await pick(pilot, "2r", "3y")


def test_willie_invalid_meld_marked(snap_compare):
    assert snap_compare(app(start=opening()), terminal_size=SIZE, run_before=willie_marked)


def test_willie_wild_picker(snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pick(pilot, "2r")
        await go_to(pilot, "2o")
        await pilot.press("enter")  # the Q is freed: 2y or 2g?
        await pilot.press("right")

    assert snap_compare(app(start=opening()), terminal_size=SIZE, run_before=run_before)


def test_willie_score_sheet(snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pick(pilot, "10b", "8y", "2r", "Q")
        await keys("a", "e", "c")(pilot)

    assert snap_compare(app(start=opening()), terminal_size=SIZE, run_before=run_before)


def test_willie_ascii(snap_compare):
    assert snap_compare(
        app(start=opening(), ascii_only=True, theme="ansi-light"),
        terminal_size=SIZE,
        run_before=willie_marked,
    )


def test_statistics(snap_compare):
    async def run_before(pilot):
        from garito.tui.screens.history import StatsScreen

        _history()
        pilot.app.push_screen(StatsScreen())
        await keys("right", "right", "right", "right")(pilot)  # Irwin's Revenge

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_history(snap_compare):
    async def run_before(pilot):
        from garito.tui.screens.history import HistoryScreen

        _history()
        pilot.app.push_screen(HistoryScreen())
        await keys()(pilot)

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_replay(snap_compare):
    async def run_before(pilot):
        from garito.tui.screens.history import HistoryScreen

        _history()
        pilot.app.push_screen(HistoryScreen())
        await keys("down", "down", "enter", "right", "right", "right", "right", "right")(pilot)

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_dice_audit(snap_compare):
    async def run_before(pilot):
        from garito.tui.screens.history import AuditScreen

        _history()
        pilot.app.push_screen(AuditScreen())
        await keys()(pilot)

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_first_start_name(snap_compare, garito_home):
    (garito_home / "settings.json").unlink()
    assert snap_compare(app(), terminal_size=SIZE, run_before=keys(*"Ana"))


# ---------------------------------------------------------------- shared tables


def known_ratings():
    """Ratings in memory after six Gemelos results: people (the app's own
    player, "Player 1", among them; a name with markup in it) and two
    computer levels."""
    from garito.store.ratings import Ratings

    ratings = Ratings(None)
    series = [
        [("Ana", 1), ("Player 1", 3)],
        [("[b]Bea[/b]", 3), ("computer:hard", 1)],
        [("Player 1", 1), ("computer:easy", 3), ("Cid", 3)],
        [("Ana", 1), ("computer:hard", 3), ("[b]Bea[/b]", 3)],
        [("Dan", 3), ("computer:easy", 1)],
        [("Cid", 2), ("Player 1", 2)],
    ]
    for n, seats in enumerate(series):
        rows = [[k, k.removeprefix("computer:"), k.startswith("computer:"), rank] for k, rank in seats]
        ratings.apply({"game": "gemelos", "finished": f"{n}", "commitment": "", "seats": rows})
    return ratings


@pytest.fixture
def table_server(monkeypatch):
    """A table server in a thread of its own (the snapshot runs the app in
    its loop), with three tables: Gemelos with two open seats, Red Man's
    Throw whose second player has dropped (the seat kept), and Decimus full
    (a player and a computer); its ratings: a known series of Gemelos
    results (``known_ratings``)."""
    import asyncio
    import tempfile
    import threading
    from pathlib import Path

    from garito.server import tables
    from garito.server.tables import TableServer

    from .test_tables import Conn

    monkeypatch.setattr(tables, "PACE", 0.0)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def run(coro):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(20)

    path = str(Path(tempfile.mkdtemp(prefix="garito-")) / "tables.sock")
    server = TableServer(chosen_seeds=True, ratings=known_ratings())

    async def three_tables():
        await server.start(path)
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human", "human"], seed=5)
        await ana.until(lambda m: m["op"] == "state")
        inés = await Conn.open(path, "Inés")
        await inés.send(op="create", game="redman", seats=["human", "human"], seed=2)
        await inés.until(lambda m: m["op"] == "state")
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=2)
        await bea.until(lambda m: m["op"] == "state")
        await bea.close()  # dropped: her seat is kept
        xoán = await Conn.open(path, "Xoán")
        computer = {"kind": "computer", "level": "strong", "name": "Carmela"}
        await xoán.send(op="create", game="decimus", seats=["human", computer], seed=3)
        await xoán.until(lambda m: m["op"] == "state")
        while len(server.tables[2].held) != 1:
            await asyncio.sleep(0.01)
        return [ana, inés, xoán]

    players = run(three_tables())
    monkeypatch.setenv("GARITO_TABLES", path)
    yield server
    for p in players:
        run(p.close())
    run(server.close())
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


async def _to_lobby(pilot):
    await settle(pilot)
    menu = pilot.app.screen.query_one("#games")
    ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
    menu.highlighted = ids.index("lobby")
    await pilot.press("enter")
    for _ in range(200):
        if getattr(pilot.app.screen, "tables", None):
            break
        await pilot.pause(0.02)
    await settle(pilot)


def test_lobby(snap_compare, table_server):
    assert snap_compare(app(), terminal_size=SIZE, run_before=_to_lobby)


async def _leaderboard(pilot):
    await _to_lobby(pilot)
    await keys("r")(pilot)
    for _ in range(200):
        if getattr(pilot.app.screen, "board", None) is not None:
            break
        await pilot.pause(0.02)
    await settle(pilot)


def test_leaderboard(snap_compare, table_server):
    """The lobby's r: Gemelos's ratings, the player's own row marked, a
    name with markup shown as typed."""
    assert snap_compare(app(), terminal_size=SIZE, run_before=_leaderboard)


def test_lobby_new_table(snap_compare, table_server):
    async def run_before(pilot):
        await _to_lobby(pilot)
        await keys("n", "down", "enter")(pilot)  # Red Man's Throw
        from garito.widgets.choice import Choice

        pilot.app.screen.query_one("#kind-1", Choice).value = "human"
        await settle(pilot)

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


async def _private_table(pilot, server) -> None:
    """The app opens a private Gemelos table (its code fixed) with an open seat."""
    from garito.widgets.choice import Choice

    server._new_code = lambda: "K7QPM"  # the server's code is random: this one, for the picture
    await _to_lobby(pilot)
    await keys("n", "enter")(pilot)  # Gemelos
    pilot.app.screen.query_one("#kind-1", Choice).value = "human"
    pilot.app.screen.query_one("#private", Choice).focus()
    await keys("right", "enter")(pilot)
    for _ in range(200):
        if type(pilot.app.screen).__name__ == "GemelosScreen":
            break
        await pilot.pause(0.02)
    await settle(pilot)


@pytest.fixture
def known_dice(monkeypatch):
    """The server's secret seeds, known: the picture shows the seal of one."""
    from garito.server import tables

    monkeypatch.setattr(tables, "secret_seed", lambda: 11)


def test_private_table_shows_its_code(snap_compare, table_server, known_dice):
    async def run_before(pilot):
        await _private_table(pilot, table_server)

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_lobby_private_table_with_its_code(snap_compare, table_server, known_dice):
    async def run_before(pilot):
        await _private_table(pilot, table_server)
        await keys("escape", "y")(pilot)  # back to the lobby: the seat is kept
        for _ in range(200):
            if type(pilot.app.screen).__name__ == "LobbyScreen":
                break
            await pilot.pause(0.02)
        for _ in range(200):  # the server's word that the seat is kept comes after the lobby is back
            if any(pilot.app.screen._mine(t) for t in pilot.app.screen.tables):
                break
            await pilot.pause(0.02)
        await keys("down", "down", "down")(pilot)  # table 4, the private one
        await settle(pilot)

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


async def _join_by_code(pilot):
    await _to_lobby(pilot)
    await keys("c", "k", "7", "q")(pilot)  # a code half typed


async def _private_choice(pilot):
    from garito.widgets.choice import Choice

    await _to_lobby(pilot)
    await keys("n", "enter")(pilot)  # Gemelos
    pilot.app.screen.query_one("#private", Choice).focus()
    await keys("right")(pilot)  # its help below


def test_lobby_join_by_code(snap_compare, table_server):
    assert snap_compare(app(), terminal_size=SIZE, run_before=_join_by_code)


def test_lobby_new_table_private(snap_compare, table_server):
    assert snap_compare(app(), terminal_size=SIZE, run_before=_private_choice)


def test_shared_table_waiting_for_a_player(snap_compare, table_server):
    async def run_before(pilot):
        await _to_lobby(pilot)
        await keys("enter")(pilot)  # a free seat of table 1 (Gemelos, 3 seats: one stays open)
        for _ in range(200):
            if type(pilot.app.screen).__name__ == "GemelosScreen":
                break
            await pilot.pause(0.02)
        await settle(pilot)

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)
