"""Willie on screen, driven by keys (Pilot)."""

from __future__ import annotations

from garito.core import willie as wx
from garito.core.match import Match, Seat
from garito.core.willie.bench import HAND
from garito.tui.app import GarApp
from garito.tui.screens.notices import HandOffScreen

from .helpers import (
    TABLE_297,
    box_open,
    box_text,
    go_to,
    match_over,
    opening,
    pick,
    settle,
    sync,
    table,
    willie_match,
)

TABLE = TABLE_297


def keys(app) -> list[str]:
    from garito.widgets.keybar import KeyBar

    return [d for _k, _s, d in app.screen.query_one(KeyBar).keys]


@sync
async def test_a_turn_worked_by_keys_then_a_close_and_the_score_sheet():
    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        assert scr.working and scr.bench.table == TABLE
        assert scr.bench.left == ("2r", "3y", "8y", "10b", "Q")
        assert "End turn" not in keys(app) and "Move here" not in keys(app)

        # Two table melds rearranged: 7o joins the sevens, 8o 9o is marked.
        await pick(pilot, "7o")
        assert scr.picks == {(1, 0)} and "Move here" in keys(app)
        await go_to(pilot, "7r")
        await pilot.press("enter")
        assert scr.bench.table[1] == ("8o", "9o")
        assert scr.bench.table[3] == ("7r", "7o", "J=7y", "7g")
        assert scr.marked == (False, True, False, False, False)
        assert scr.notes == ("✗ 8o 9o: A meld has at least three cards.",)
        assert "End turn" not in keys(app)
        await pilot.press("u")  # undo
        assert scr.bench.table == TABLE and scr.marked == (False,) * 5

        # 2r frees the Q of Q=2r 2o 2b, which is declared again: 2y or 2g.
        await pick(pilot, "2r")
        await go_to(pilot, "2o")
        await pilot.press("enter")
        assert scr.bench.table[2] == ("2r", "2o", "2b", "Q")
        assert scr.wild_choice == ((2, 3), ["2y", "2g"], 0)
        assert "The Q stands for:" in scr.prompt
        await pilot.press("e")  # nothing but the picker's keys while it is open
        assert not scr.match.actions[3:]
        await pilot.press("right", "enter")
        assert scr.bench.table[2] == ("2r", "2o", "Q=2g", "2b")
        assert scr.bench.problem() is None and "End turn" in keys(app)
        assert "e ends your turn with 2r (1 point)" in scr.prompt

        await pilot.press("r")  # reset the turn
        assert scr.bench.table == TABLE and len(scr.bench.left) == 5

        # Pick four hand cards and let the solver arrange them.
        await pick(pilot, "10b", "8y", "2r", "Q")
        assert sorted(scr.picks) == [(HAND, 0), (HAND, 2), (HAND, 3), (HAND, 4)]
        await pilot.press("a")
        assert scr.bench.left == ("3y",) and scr.bench.problem() is None
        await pilot.press("e")
        await settle(pilot)
        assert str(scr.match.actions[3]).startswith("meld ")
        assert scr.match.state.hands[0] == ("3y",)

        # One point in hand: Ana may close, and does.
        assert scr.match.state.stage == "close"
        assert {"Continue", "Close", "Menu", "Rules"} <= set(keys(app)) and "Pick" not in keys(app)
        await pilot.press("c")
        await settle(pilot)
        assert box_open(app)
        sheet = box_text(app)
        assert sheet == (
            "Ana closes with 1 point in hand.\n"
            "The lower hand wins twice the difference.\n\n"
            "Ana         1 pts  +12   won: 2 × 6\n  3y\n"
            "Ramón       7 pts   +0\n  4r 6r 4o 6y 10y 5g 8g\n\n"
            "Totals: Ana 12 · Ramón 0"
        )
        # under the result the table is as the round ended, Ana's 3y alone in hand
        assert [f.text for f in scr.hand] == ["3y"] and "the round is over" in scr.heading
        await pilot.press("space")
        await settle(pilot)
        assert not box_open(app)
        assert scr.match.state.round == 2 and scr.match.state.scores == (12, 0)


@sync
async def test_drawing_and_the_third_card_ending_the_turn():
    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        await pick(pilot, "7o")
        await go_to(pilot, "7r")
        await pilot.press("enter")  # some work, kept through the draw
        await pilot.press("d")
        await settle(pilot)
        assert scr.match.state.draws == 2 and len(scr.bench.left) == 6
        assert scr.bench.table[1] == ("8o", "9o")
        assert "draws your third card and ends your turn" not in scr.prompt  # the work is shown instead
        await pilot.press("r", "d")
        await settle(pilot)
        assert any(isinstance(e, wx.NoMeld) for e in scr.match.state.events[-6:])
        assert len(scr.match.state.hands[0]) == 8


@sync
async def test_refusals_name_the_rule():
    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        await pick(pilot, "6b")
        await pilot.press("tab", "enter")  # a table card back to the hand
        await pilot.pause()
        assert any("cannot go back to a hand" in n.message for n in app._notifications)
        assert scr.bench.table == TABLE
        await settle(pilot)
        assert "Let go" in keys(app) and "Menu" not in keys(app)  # what Esc does now
        await pilot.press("escape")  # lets go of the picked card, stays at the table
        await settle(pilot)
        assert scr.picks == set() and app.screen is scr
        assert "Menu" in keys(app) and "Let go" not in keys(app)
        scr.zone, scr.at_meld = "table", len(scr.bench.table)  # on "+ new meld": Space picks nothing
        scr.show()
        await settle(pilot)
        assert "Pick" not in keys(app)
        await pilot.press("left")  # the last card of the last meld
        await settle(pilot)
        assert "Pick" in keys(app)
        await go_to(pilot, "J=5b")
        await pilot.press("w")
        await pilot.pause()
        assert any("keeps its card (5b)" in n.message for n in app._notifications)
        assert scr.wild_choice is None


@sync
async def test_without_solver_help_there_is_no_arrange_or_hint():
    app = GarApp(start=opening(helpers=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        await pick(pilot, "2r")
        assert "Arrange" not in keys(app) and "Hint" not in keys(app)
        await pilot.press("a", "h")
        assert scr.bench.table == TABLE and not scr.say


@sync
async def test_the_hint_picks_the_best_play():
    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        await pilot.press("h")
        assert scr.say.startswith("Hint: play 2r 8y 10b Q (6 points)")
        assert {scr.bench.left[i] for _m, i in scr.picks} == {"2r", "8y", "10b", "Q"}


@sync
async def test_hot_seat_hides_each_hand_behind_a_hand_off():
    match = willie_match(5, ("human", "human"), ("Ana", "Bea"))
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandOffScreen)
        await pilot.press("enter")
        await settle(pilot)
        scr = table(app)
        first = scr.match.state.turn
        assert scr.viewer == first and len(scr.hand) == len(scr.match.state.hands[first])
        await pilot.press("d", "d")  # the third card ends the turn
        await settle(pilot)
        assert isinstance(app.screen, HandOffScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert scr.viewer == 1 - first
        assert [f.text for f in scr.hand] == list(scr.match.state.hands[1 - first])


@sync
async def test_a_match_between_two_computers_runs_to_its_end():
    match = Match.start(
        "willie",
        wx.Config(target=15),
        11,
        (Seat("Ramón", "computer", "hard"), Seat("Lucía", "computer", "easy")),
    )
    app = GarApp(start=match, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await settle(pilot, 1)
            if match_over(app):
                break
            if box_open(app):
                await pilot.press("space")
        assert match_over(app)
        assert wx.is_over(table(app).match.state)


@sync
async def test_clicks_pick_a_card_and_drop_it_on_a_meld():
    from garito.widgets.cards import Hand, MeldTable

    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        await pilot.click(Hand, offset=(2, 0))  # the first card: 2r
        assert scr.picks == {(HAND, 0)}
        melds = app.screen.query_one(MeldTable)
        y, x0, _x1, _ = next(h for h in melds._hits if h[3] == (2, 1))  # 2o of Q=2r 2o 2b
        await pilot.click(MeldTable, offset=(x0 + 1, y))
        assert scr.bench.table[2] == ("2r", "2o", "2b", "Q") and scr.wild_choice is not None
        await pilot.press("u")  # undo closes the picker and takes the move back
        assert scr.wild_choice is None and scr.bench.table == TABLE


@sync
async def test_the_hand_sorts_by_rank_and_keeps_what_is_picked():
    app = GarApp(start=willie_match(5))  # Ana starts
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        by_suit = ["6r", "2o", "4o", "4y", "5y", "10y", "7g", "6b", "8b", "9b", "Q", "Q", "K"]
        assert [f.text for f in scr.hand] == by_suit
        await pick(pilot, "10y")
        await pilot.press("s")
        by_rank = ["2o", "4o", "4y", "5y", "6r", "6b", "7g", "8b", "9b", "10y", "Q", "Q", "K"]
        assert [f.text for f in scr.hand] == by_rank
        assert [f.text for f in scr.hand if f.picked] == ["10y"]
        assert "By suit" in keys(app) and "By rank" not in keys(app)  # what s does next
        assert str(scr.hand_title) == "13 cards, 21 points (a number 1, J 2, Q 3, K 5)"  # how a hand counts
        await pilot.press("left", "left", "space")  # the cursor walks the hand in the order shown
        assert sorted(scr.bench.left[i] for _m, i in scr.picks) == ["10y", "8b"]
        await pilot.press("s")
        await settle(pilot)
        assert [f.text for f in scr.hand] == by_suit and "By rank" in keys(app)


@sync
async def test_a_turn_left_half_done_is_continued_as_it_was():
    from garito.store import saves

    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pick(pilot, "7o")
        await go_to(pilot, "7r")
        await pilot.press("enter")
        moved = table(app).bench.table
        assert moved != TABLE
    found, damaged = saves.load_all()
    assert damaged == []
    match = next(s.match for s in found if s.game == "willie")
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        assert scr.bench.table == moved and "as you left it" in scr.prompt
        await pilot.press("r")
        assert scr.bench.table == TABLE
    # work kept for another move, or with cards that are not this turn's, is ignored
    saves.save_work("willie", 3, {"table": [["7o", "8o", "9o"]], "left": []})
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert table(app).bench.table == TABLE


@sync
async def test_learning_help_is_off_by_default_and_esc_lets_go_of_a_hint():
    from garito.core import willie as wx

    assert wx.Config().helpers is False  # a first match is not won by h then a
    help_variant = next(v for v in wx.VARIANTS if v.key == "helpers")
    assert help_variant.label == "Learning aid" and "for learning" in help_variant.help
    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        await pilot.press("h")
        assert "they are picked" in scr.prompt
        await pilot.press("escape")
        assert not scr.picks and "they are picked" not in scr.prompt
        await pilot.press("h", "a", "h")  # the hinted cards arranged: a hint again picks none
        assert not scr.picks and scr.prompt.endswith("they are on the table already.")


@sync
async def test_a_new_meld_undone_takes_the_cursor_back_to_the_hand():
    # The undone meld took the cursor's place away: it stood on "+ new
    # meld", where Space picks nothing (the bar dropped Pick), while the
    # prompt said Space picks.
    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        await pick(pilot, "2r")
        await pilot.press("n")
        assert len(scr.bench.table) == len(TABLE) + 1 and scr.zone == "table"
        await pilot.press("u")
        assert scr.bench.table == TABLE
        assert scr.zone == "hand" and "Pick" in keys(app)
        await pilot.press("space")  # and Space picks there
        assert len(scr.picks) == 1 and next(iter(scr.picks))[0] == HAND
        await pilot.press("escape")
        await pick(pilot, "2r")
        await pilot.press("n", "r")  # and a reset likewise
        assert scr.bench.table == TABLE
        assert scr.zone == "hand" and "Pick" in keys(app)


@sync
async def test_tab_goes_between_the_hand_and_the_table_and_never_to_a_stop_with_nothing_to_do():
    # A fresh round: the table empty, Ana to meld (seed 11, her first card drawn).
    match = willie_match(11, ("human", "computer"), ("Ana", "Ramón"))
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        assert scr.working and scr.bench.table == () and scr.zone == "hand"
        assert "Table" not in keys(app)  # nothing picked, nothing on the table: nowhere to go
        await pilot.press("tab")
        assert scr.zone == "hand" and scr.hand_cursor >= 0
        await pilot.press("space")  # a card picked: the new meld's place is somewhere to put it
        await settle(pilot)
        assert "Table" in keys(app)
        await pilot.press("tab")
        await settle(pilot)
        assert scr.zone == "table" and "Hand" in keys(app) and "Table" not in keys(app)
        await pilot.press("escape")  # let go: on "+ new meld" the prompt says where to pick
        await settle(pilot)
        assert str(scr.prompt).startswith("Tab goes to your hand to pick cards, Enter moves them here")
        await pilot.press("tab")
        await settle(pilot)
        assert scr.zone == "hand" and "Table" not in keys(app)
    # With melds on the table, Tab lands on one of its cards, never on the empty place.
    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        scr.at_meld = len(scr.bench.table)  # the cursor last left on "+ new meld"
        await pilot.press("tab")
        await settle(pilot)
        assert scr.zone == "table" and scr._here() == (len(scr.bench.table) - 1, 0)
        assert str(scr.prompt).startswith("Space picks cards")


@sync
async def test_the_third_draw_says_it_gives_up_the_work_before_it_does():
    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        await pilot.press("d")  # the second card: the work is kept
        await settle(pilot)
        assert scr.match.state.draws == 2
        moves = len(scr.match.actions)
        await pick(pilot, "4b")  # a table card moved: the table is not as it was
        await go_to(pilot, "7o")
        await pilot.press("enter")
        await settle(pilot)
        assert scr.bench.changed
        await pilot.press("d")
        await settle(pilot)
        assert len(scr.match.actions) == moves  # nothing drawn yet
        assert str(scr.prompt).startswith("The third card ends your turn and gives up this work: d again")
        await pilot.press("d")
        await settle(pilot)
        assert len(scr.match.actions) > moves and str(scr.match.actions[moves]) == "pass"


@sync
async def test_a_freed_wild_declared_again_by_itself_is_said_so_and_no_wild_key_for_a_willie():
    from garito.core.willie.bench import Bench

    app = GarApp(start=opening())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        scr = table(app)
        s = scr.match.state
        laid = (("2b", "Q=3b", "4b"), ("J", "Q", "K"))
        scr.bench = Bench(laid, s.hands[s.turn], laid, ("2y", "3b", "8o", "K"))
        scr.show()
        await pick(pilot, "3b")
        await go_to(pilot, "2b")
        await pilot.press("enter")
        await settle(pilot)
        assert scr.bench.table[0] == ("2b", "3b", "4b", "Q=5b")  # only 5b fits: declared at once
        assert str(scr.prompt) == "Its real card frees the Q: now for 5b."
        await go_to(pilot, "J")  # a Willie: each card is itself, nothing to declare
        await settle(pilot)
        assert "Wild" not in keys(app)
        await pick(pilot, "8o", "2y", "K")
        await pilot.press("n")  # a meld the K cannot complete: marked, not told in a notice
        await settle(pilot)
        assert scr.marked[-1] and not [n for n in app._notifications if n.title == "Nothing to declare"]
