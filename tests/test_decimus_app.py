"""Decimus on screen, driven by keys (Pilot)."""

from __future__ import annotations

from garito.core import decimus as dx
from garito.core.match import Match
from garito.tui.app import GarApp
from garito.tui.screens.decimus import DecimusScreen
from garito.tui.screens.notices import HandOffScreen
from garito.widgets.dice import DiceTray

from .helpers import DECIMUS_DICE, box_open, decimus_match, match_over, settle, sync


def table(app) -> DecimusScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, DecimusScreen))


@sync
async def test_a_round_against_the_computer_by_keys():
    # Ana rerolls her two aces into 3 and 4, then stands on 6-6-5-3-4.
    app = GarApp(start=decimus_match(dice=DECIMUS_DICE + (3, 4)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")  # nothing picked: refused, no reroll spent
        await settle(pilot)
        assert table(app).match.state.rerolls == (0, 0)
        assert any("rerolling nothing" in n.message for n in app._notifications)
        await pilot.press("4", "5")
        assert table(app).picked == {3, 4}  # the caption they make: presenter tests and snapshot
        await pilot.press("enter")
        await settle(pilot)
        assert table(app).match.state.hands[0] == (6, 6, 5, 3, 4)
        await pilot.press("1", "d")  # d is done even with a die picked
        await settle(pilot)
        assert [str(a) for a in table(app).match.actions[:2]] == ["reroll 4 5", "stand"]
        await settle(pilot)
        # Ramón rerolled (all five, then one) and the betting opens on Maiores, Ana first.
        s = table(app).match.state
        assert s.stage == "bet" and dx.GAMES[s.game] == "maiores" and s.speaker == 0
        await pilot.press("right", "enter")  # bet 2
        await settle(pilot)
        # Ramón folds: Ana scores 1 (he had bet nothing). Then Ana passes or sees to the end:
        # Ramón bets 4 on Menores (he holds 1-1-1) and has the only hands in the last two.
        for _ in range(12):
            if box_open(app):
                break
            s = table(app).match.state
            await pilot.press("s" if dx.SEE in dx.legal_actions(s) else "p")
            await settle(pilot)
        assert box_open(app)
        screen = table(app)
        assert [str(a) for a in screen.match.actions] == [
            "reroll 4 5",
            "stand",
            "reroll 1 2 3 4 5",
            "reroll 4",
            "bet 2",
            "fold",
            "pass",
            "bet 4",
            "see",
        ]
        settled = [
            e for e in screen.match.state.events if isinstance(e, (dx.Folded, dx.PointAlone, dx.Settled))
        ]
        assert settled[:3] == [
            dx.Folded(1, "maiores", 1),
            dx.PointAlone(1, "un_en_dous"),
            dx.PointAlone(1, "par_con_as"),
        ]
        assert (settled[3].seat, settled[3].game, settled[3].points) == (1, "menores", 4)
        assert screen.match.state.scores == (1, 6)
        # The table behind the box shows the round that ended, not the next one's dice.
        assert screen.heading.endswith("the showdown")
        assert [d.value for d in screen.query_one(DiceTray).dice] == [6, 6, 5, 3, 4]
        await pilot.press("enter")
        await settle(pilot)
        assert table(app).match.state.round == 2 and table(app).match.state.first == 1
        assert Match.from_json(screen.match.to_json()).state == screen.match.state


@sync
async def test_two_humans_hand_the_keyboard_over():
    app = GarApp(start=decimus_match(seats=("human", "human"), names=("Ana", "Bea")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandOffScreen)  # before anyone's dice show
        await pilot.press("enter")
        await settle(pilot)
        screen = table(app)
        assert app.screen is screen
        assert [d.value for d in screen.query_one(DiceTray).dice] == [6, 6, 5, 1, 1]
        await pilot.press("enter")  # Ana stands
        await settle(pilot)
        assert isinstance(app.screen, HandOffScreen)
        assert screen.viewer == 0  # still Ana's dice behind the hand-off screen
        await pilot.press("4")  # the table's keys do nothing under it
        await settle(pilot)
        assert screen.picked == set()
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen and screen.viewer == 1
        assert [d.value for d in screen.query_one(DiceTray).dice] == [2, 2, 3, 4, 5]
        await pilot.press("enter")  # Bea stands: Ana speaks first
        await settle(pilot)
        assert isinstance(app.screen, HandOffScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.viewer == 0 and screen.match.state.stage == "bet"


@sync
async def test_wrong_keys_do_nothing_harmful():
    app = GarApp(start=decimus_match())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = table(app).match
        await pilot.press("p", "s", "f", "x", "9", "left", "right")  # no betting yet: nothing
        await settle(pilot)
        assert table(app).match == before


@sync
async def test_a_whole_match_between_two_computers():
    app = GarApp(start=decimus_match(seed=5, seats=("computer", "computer"), dice=()))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await settle(pilot)
            if match_over(app):
                break
            await pilot.press("space")
        assert match_over(app)
        res = dx.result(table(app).match.state)
        assert max(res.scores) >= 30 and res.scores[res.winner] == max(res.scores)


@sync
async def test_leave_and_continue_hands_the_keyboard_to_the_right_player():
    from garito.tui.screens.menu import MenuScreen

    first = GarApp(start=decimus_match(seats=("human", "human"), names=("Ana", "Bea")))
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "enter", "enter")  # Ana's turn; she stands; the hand-off
        await settle(pilot)
        played = table(first).match
        await pilot.press("escape", "y")
        await settle(pilot)
        assert isinstance(first.screen, MenuScreen)
    second = GarApp()
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # "Continue Decimus"
        await settle(pilot)
        # Bea is to act: the table opens behind a hand-off, showing nobody's dice yet.
        assert isinstance(second.screen, HandOffScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert table(second).match.state == played.state and table(second).viewer == 1
        assert [d.value for d in table(second).query_one(DiceTray).dice] == [2, 2, 3, 4, 5]


def test_a_rules_page_renders_for_a_match_config():
    from garito.core.decimus import Config
    from garito.tui.screens.rules import rules_text

    page = rules_text("decimus", Config(target=20))
    assert "first to 20 points" in page and "anyone has 20 or more" in page and "{{" not in page
    assert "first to 30 points" in rules_text("decimus")  # garito rules decimus: the default


@sync
async def test_the_rules_screen_of_a_20_point_match_says_20():
    from textual.widgets import Markdown

    from garito.tui.screens.rules import RulesScreen

    app = GarApp(start=decimus_match(target=20))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)
        assert "first to 20 points" in app.screen.query_one(Markdown).source


@sync
async def test_after_a_showdown_both_read_the_next_player_is_handed_the_keyboard():
    # The showdown's box is read by both players at the keyboard; the next
    # round deals new secret dice, and its first to speak (here Bea, who
    # spoke last) had them shown at once, with Ana still looking.
    match = decimus_match(seed=1, seats=("human", "human"), names=("Ana", "Bea"))
    for action in ("stand", "stand", "pass", "pass", "pass", "pass", "pass"):
        match = match.play(match.rules.parse_action(action))
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandOffScreen)  # Bea's turn to look
        await pilot.press("enter")
        await settle(pilot)
        screen = table(app)
        assert screen.viewer == 1
        await pilot.press("p")  # Bea passes: the showdown
        await settle(pilot)
        assert box_open(app)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.match.state.round == 2 and screen.seat_to_act == 1
        assert isinstance(app.screen, HandOffScreen)  # before Bea's new dice show
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen and screen.viewer == 1
