"""Red Man's Throw on screen, driven by keys (Pilot)."""

from __future__ import annotations

from garito.core import redman as rm
from garito.core.match import Match, Seat
from garito.tui.app import GarApp
from garito.tui.screens.redman import RedManMoment, RedManScreen

from .helpers import box_open, match_over, redman_match, settle, sync


def table(app) -> RedManScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, RedManScreen))


@sync
async def test_a_whole_match_with_predictions_by_keys():
    app = GarApp(start=redman_match(seed=5, bets="predictions"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        calls = 0
        for _ in range(200):
            screen = app.screen
            if match_over(app):
                break
            if isinstance(screen, RedManMoment) or box_open(app):
                await pilot.press("enter")
            else:
                stage = table(app).match.state.stage
                if stage == "stake":
                    await pilot.press("right", "right", "enter")  # propose 3
                elif stage == "answer":
                    await pilot.press("enter")  # match
                elif stage == "roll":
                    # Call by typing exact dice once, then by category with the arrows.
                    await pilot.press(*(["6", "3", "1"] if calls == 0 else ["right"] * 3), "space")
                    calls += 1
                else:
                    await pilot.press("space")
            await settle(pilot)
        assert match_over(app)
        match = table(app).match
        res = rm.result(match.state)
        mine = [str(a) for a in match.actions if str(a).startswith("roll ")]
        assert mine[0] == "roll 6-3-1" and "roll six-no-pair" in mine
        # The ledger the screen showed is the core's, and the record replays it.
        assert Match.from_json(match.to_json()).state == match.state
        assert sum(res.net) == 0 and res.chips[0] == 50 + res.net[0]


@sync
async def test_the_loser_tips_the_hat_with_t():
    app = GarApp(start=redman_match(seed=423))  # Ramón rolls 6-6-6 in round 1
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # stake 1; Ramón answers
        await settle(pilot)
        await pilot.press("space")  # Ana rolls, then Ramón's 6-6-6
        await settle(pilot)
        assert isinstance(app.screen, RedManMoment)
        assert table(app).match.state.stage == "hat"
        await pilot.press("x", "escape")  # no other key answers; Escape puts it off
        await settle(pilot)
        # the table's prompt says how to answer: test_presenter_redman (seed 423, this position)
        assert table(app).match.state.stage == "hat" and app.screen is table(app)
        await pilot.press("t")
        await settle(pilot)
        assert match_over(app)
        state = table(app).match.state
        assert rm.narrate(state.events[-2], table(app).match.names) == "Ana: “I tip my hat.”"
        assert rm.result(state).net == (-1, 1)


@sync
async def test_a_computer_loser_tips_its_hat_and_the_rematch_carries_chips():
    app = GarApp(start=redman_match(seed=376))  # Ana rolls 6-6-6 first
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("right", "right", "right", "right", "enter", "space")
        await settle(pilot)
        assert isinstance(app.screen, RedManMoment) and not app.screen.ask
        await pilot.press("enter")
        await settle(pilot)
        assert match_over(app)
        assert rm.result(table(app).match.state).chips == (55, 45)
        await pilot.press("n")
        await settle(pilot)
        again = table(app).match
        assert again.config.chips == (55, 45) and again.config.first == 1
        assert again.state.first == 1  # Ramón rolls first now


@sync
async def test_wrong_keys_do_nothing_harmful():
    app = GarApp(start=redman_match(seed=5, bets="predictions"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = table(app).match
        await pilot.press("t", "1", "backspace", "x", "down")
        await settle(pilot)
        assert table(app).match == before  # no move made
        await pilot.press("enter")  # stake 1; Ramón answers
        await settle(pilot)
        assert table(app).match.state.stage == "roll"
        await pilot.press("6", "6", "6")  # 6-6-6 cannot be called
        await settle(pilot)
        assert table(app).call == ""
        assert any("cannot be called" in n.message for n in app._notifications)


@sync
async def test_save_mid_match_and_continue_with_the_same_dice():
    import json

    from garito.store import saves
    from garito.tui.screens.menu import MenuScreen

    first = GarApp(
        start=redman_match(seed=5, bets="predictions", seats=("human", "human"), names=("Ana", "Bea"))
    )
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Ana proposes 2, Bea raises to 4, Ana calls a trio and rolls.
        for key in (
            "right",
            "enter",
            "right",
            "right",
            "enter",
            "right",
            "right",
            "right",
            "right",
            "right",
            "space",
        ):
            await pilot.press(key)
        await settle(pilot)
        played = table(first).match
    assert [str(a) for a in played.actions] == ["stake 2", "stake 4", "roll trio"]
    saved = json.loads(saves.save_path("redman").read_text())
    assert (
        saved["actions"] == ["stake 2", "stake 4", "roll trio"] and saved["config"]["bets"] == "predictions"
    )

    second = GarApp()
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(second.screen, MenuScreen)
        await pilot.press("enter")  # "Continue Red Man's Throw"
        await settle(pilot)
        screen = table(second)
        assert screen.match.state == played.state
        assert "Bea" in screen.prompt and screen.match.state.stake == 4


@sync
async def test_the_red_man_takes_every_chip_on_screen_and_the_table_shows_the_settled_chips():
    # A calls a pair and is right twice at a stake of 2 (+8 on the ledger),
    # then rolls 6-6-6: every chip B put in is A's, 10.
    dice = (3, 3, 1, 5, 2, 1, 2, 2, 1, 4, 2, 1, 6, 6, 6)
    config = rm.Config(bets="predictions", first_roller="fixed")
    match = Match.start("redman", config, 1, (Seat("A"), Seat("B")), dice)
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(2):
            await pilot.press("right", "enter", "enter")  # stake 2, matched
            await pilot.press(*["right"] * 6, "space", "space")  # A calls a pair; B rolls
            await settle(pilot)
            await pilot.press("enter")  # the round's box
            await settle(pilot)
        assert table(app).match.state.net == (8, -8)
        await pilot.press("right", "enter", "enter", "space")
        await settle(pilot)
        assert isinstance(app.screen, RedManMoment)
        await pilot.press("t")
        await settle(pilot)
        assert match_over(app)
        # Behind the result the table shows the chips as settled, not as they
        # were (the moment's words and the ledger: test_presenter_redman, this
        # match; the Red Man's snapshot draws them).
        rows = table(app).rows
        assert [r.cells[2:] for r in rows] == [("60", "paid"), ("40", "paid")]
