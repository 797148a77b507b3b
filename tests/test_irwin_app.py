"""Irwin's Revenge on screen, driven by keys (Pilot)."""

from __future__ import annotations

from garito.core import irwin as ir
from garito.core.match import Match
from garito.store import bests
from garito.tui.app import GarApp
from garito.tui.screens.irwin import IrwinScreen

from .helpers import IRWIN_SWEEP, irwin_match, match_over, settle, sync


def table(app) -> IrwinScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, IrwinScreen))


@sync
async def test_a_whole_game_against_the_computer_by_keys():
    app = GarApp(start=irwin_match(seed=4, salamander_deal="on"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for i in range(400):
            if match_over(app):
                break
            state = table(app).match.state
            if table(app).human_to_act:
                if state.stage == "expedition" and i % 3 == 0:
                    await pilot.press("down")  # another statuette now and then
                await pilot.press("enter")
            else:
                await pilot.press("space")  # hurry the computer
            await settle(pilot)
        assert match_over(app)
        match = table(app).match
        res = ir.result(match.state)
        assert res is not None and res.final_winner in (0, 1)
        assert Match.from_json(match.to_json()).state == match.state
        best = bests.load()["irwin"]
        assert best["Ana"] == res.scores[0].total and best["Ramón"] == res.scores[1].total


@sync
async def test_the_eagle_offer_is_confirmed_with_enter_and_x_keeps():
    dice, keys, final = IRWIN_SWEEP
    for confirm, wins in (("enter", True), ("x", False)):
        app = GarApp(start=irwin_match(seats=("human", "human"), names=("Ana", "Bea"), dice=dice + final))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            for k in keys:
                await pilot.press(k, "enter")
            await settle(pilot)
            s = table(app).match.state
            assert ir.held_by(s, 0) == set(ir.STATUETTES) and s.stage == "ant"
            await pilot.press("enter")  # the advised Ant number
            await pilot.press("space")  # 1-1-2-5-6
            await settle(pilot)
            # The offer's words: tests/test_presenter_irwin.py.
            assert table(app).match.state.stage == "adjust"
            await pilot.press(confirm)
            await settle(pilot)
            assert (table(app).match.state.winner == 0) is wins


@sync
async def test_wrong_keys_do_nothing_harmful():
    app = GarApp(start=irwin_match(seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = table(app).match
        await pilot.press("x", "9", "left", "t")
        await settle(pilot)
        assert table(app).match == before


@sync
async def test_leave_and_continue_the_expedition():
    from garito.tui.screens.menu import MenuScreen

    first = GarApp(start=irwin_match(seed=4, seats=("human", "human"), names=("Ana", "Bea")))
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2", "enter")  # Ana names the Ant
        await settle(pilot)
        played = table(first).match
        await pilot.press("escape", "y")
        await settle(pilot)
        assert isinstance(first.screen, MenuScreen)
    second = GarApp()
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # "Continue Irwin's Revenge"
        await settle(pilot)
        assert table(second).match.state == played.state
        assert str(played.actions[0]) == "name ant"


@sync
async def test_the_crab_holder_passes_with_p_and_the_keys_say_what_works():
    # Ana holds all five; her first final throw 1-1-2-5-6 is kept as it is (x):
    # it does not win, and the Crab offers a second throw, which she passes.
    dice, keys, final = IRWIN_SWEEP
    app = GarApp(start=irwin_match(seats=("human", "human"), names=("Ana", "Bea"), dice=dice + final))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for k in keys:
            await pilot.press(k, "enter")
        await settle(pilot)
        # The Ant's number: the key bar says ←/→, as the prompt does
        # (tests/test_presenter_irwin.py).
        shown = {b.key_display or b.key for b in (app.screen.active_bindings[k].binding for k in ("right",))}
        assert shown == {"←/→"} and "down" not in app.screen.active_bindings
        await pilot.press("enter", "space", "x")
        await settle(pilot)
        s = table(app).match.state
        assert s.stage == "crab" and s.final_throws == (1, 0)
        assert "p" in app.screen.active_bindings
        await pilot.press("p")
        await settle(pilot)
        s = table(app).match.state
        assert s.stage == "final" and s.turn == 1 and s.final_throws == (1, 0)
        assert table(app).match.actions[-1] == ir.PASS
