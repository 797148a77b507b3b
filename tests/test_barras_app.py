"""Barras on screen, driven by keys (Pilot)."""

from __future__ import annotations

from garito.core import barras as b
from garito.core.match import Match
from garito.tui.app import GarApp
from garito.tui.screens.barras import BarrasScreen
from garito.tui.screens.notices import ConfirmScreen

from .helpers import barras_match, box_open, box_text, match_over, settle, sync


def table(app) -> BarrasScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, BarrasScreen))


@sync
async def test_a_session_with_two_computer_players_to_a_cash_out():
    app = GarApp(start=barras_match(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rounds_seen = 0
        for _ in range(60):
            if box_open(app):
                rounds_seen += 1
                await pilot.press("enter")
            elif table(app).match.state.stage == "bet":
                # Bet 3 on a low bar, sit out on a high one.
                if table(app).match.state.bar < 50:
                    await pilot.press("right", "right", "enter")
                else:
                    await pilot.press("s")
            else:
                await pilot.press("space")
            await settle(pilot)
            if len(table(app).match.state.history) >= 8 and app.screen is table(app) and not box_open(app):
                break
        assert rounds_seen >= 1
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert match_over(app)
        match = table(app).match
        res = b.result(match.state)
        assert res.closed and res.rounds >= 8
        assert sum(res.chips) + res.house == 300
        my_bets = [str(a) for (a,) in zip(match.actions) if str(a).startswith("bet")]
        assert my_bets  # the human and the computers bet
        assert Match.from_json(match.to_json()).state == match.state
        await pilot.press("n")  # a new session, same seats
        await settle(pilot)
        assert table(app).match is not match and table(app).match.state.round == 1


@sync
async def test_the_odds_line_hides_and_shows_with_o():
    app = GarApp(start=barras_match(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert screen.note.startswith(f"beat {screen.match.state.bar}: ")
        await pilot.press("o")
        assert screen.note == "o shows the odds"
        await pilot.press("o")
        assert "%" in screen.note


@sync
async def test_a_broke_human_watches_and_can_still_cash_out():
    app = GarApp(start=barras_match(seed=3, bankroll=50, stake_max=50))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(80):
            state = table(app).match.state
            if state.over or state.chips[0] == 0:
                break
            if box_open(app):
                await pilot.press("enter")
            elif state.stage == "bet" and table(app).human_to_act:
                await pilot.press("end", "enter")  # all in
            else:
                await pilot.press("space")
            await settle(pilot)
        state = table(app).match.state
        assert state.chips[0] == 0 or state.over
        if not state.over:
            while box_open(app):
                await pilot.press("enter")
                await settle(pilot)
            assert 0 not in state.order and "out" in table(app).rows[0].cells[1]
            await pilot.press("c", "y")
            await settle(pilot)
            assert table(app).match.state.over


@sync
async def test_leave_and_continue_the_session():
    from garito.tui.screens.menu import MenuScreen

    first = GarApp(start=barras_match(seed=3))
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("right", "enter")  # Ana bets 2
        await settle(pilot)
        await pilot.press("escape", "y")
        await settle(pilot)
        assert isinstance(first.screen, MenuScreen)  # the table is left; its save remains
    second = GarApp()
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # "Continue Barras"
        await settle(pilot)
        m = table(second).match
        assert str(m.actions[0]) == "bet 2" and m.state.bets[0] == 2


@sync
async def test_a_round_sat_out_is_shown_how_it_went():
    app = GarApp(start=barras_match(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(10):  # to the player's first bet
            if table(app).match.state.stage == "bet" and table(app).human_to_act:
                break
            await pilot.press("space")
            await settle(pilot)
        rounds = len(table(app).match.state.history)
        await pilot.press("s")  # sits this round out, with chips to bet
        for _ in range(20):
            if box_open(app) or len(table(app).match.state.history) > rounds + 1:
                break
            await pilot.press("space")
            await settle(pilot)
        assert box_open(app) and len(table(app).match.state.history) == rounds + 1
        r = table(app).match.state.history[-1]
        assert r.bets[0] == 0 and str(r.bar) in box_text(app)
