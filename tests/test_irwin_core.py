"""Irwin's Revenge core (the rules page: ``tui/rules/irwin.md``): take
conditions, blessings, curses, the final phase, the victory-points sheet with
a worked example, and the computer seat, driven through the rules module
directly, with recorded dice."""

import random
from itertools import product

import pytest

from garito.core.errors import IllegalAction
from garito.core.irwin import (
    KEEP,
    PASS,
    THROW,
    Action,
    Config,
    Score,
    apply,
    blessings,
    final_wins,
    held_by,
    is_over,
    legal_actions,
    narrate,
    new_game,
    result,
    score,
    takes,
    to_act,
    view,
)
from garito.core.irwin.bot import choose
from garito.core.irwin.odds import best_ant_number, race, take_chance, throw_win_chance


@pytest.mark.parametrize(
    "statuette,dice,taken",
    [
        ("crab", (2, 3), True),
        ("crab", (2, 4), False),
        ("crab", (2, 4, 7), True),
        ("ant", (1, 4), True),
        ("ant", (4, 5), False),
        ("ant", (9, 2, 3), True),
        ("jellyfish", (3, 4), True),
        ("jellyfish", (1, 5), False),
        ("jellyfish", (10, 6, 1), True),
        ("eagle", (1, 10), True),
        ("eagle", (10, 10), False),
        ("eagle", (5, 10, 1), True),
        ("salamander", (10, 9), True),
        ("salamander", (4, 6), False),
        ("salamander", (2, 7, 8), True),
    ],
)
def test_take_conditions_with_two_and_three_dice(statuette, dice, taken):
    assert takes(statuette, dice) is taken


def test_takes_refuses_bad_input():
    for bad in [("dragon", (1, 2)), ("crab", (1,)), ("crab", (0, 5)), ("crab", (1, 2, 3, 4))]:
        with pytest.raises(ValueError):
            takes(*bad)


def test_take_chances_by_enumeration():
    assert [take_chance(s, 2) for s in ("crab", "ant", "jellyfish", "eagle", "salamander")] == [
        0.5,
        0.16,
        0.06,
        0.02,
        0.18,
    ]
    assert take_chance("eagle", 3) == 0.054 and take_chance("salamander", 3) == 0.438


@pytest.mark.parametrize(
    "dice,held,wins",
    [
        ((3, 1, 2, 5, 4), set(), True),
        ((6, 2, 3, 5, 4), set(), True),
        ((1, 2, 3, 4, 6), set(), False),
        ((1, 3, 4, 5, 6), {"salamander"}, True),
        ((1, 3, 4, 5, 6), set(), False),
        ((4, 4, 4, 4, 4), {"jellyfish"}, True),
        ((4, 4, 4, 4, 4), {"salamander"}, False),
        ((1, 2, 3, 5, 6), {"salamander"}, False),
    ],
)
def test_final_wins(dice, held, wins):
    assert final_wins(dice, held) is wins


def test_throw_win_chances_and_the_ant_number():
    assert throw_win_chance(frozenset()) == pytest.approx(240 / 7776)
    assert throw_win_chance(frozenset({"jellyfish"})) == pytest.approx(246 / 7776)
    assert throw_win_chance(frozenset({"eagle"})) > throw_win_chance(frozenset({"ant"}), 3) > 0.1
    assert best_ant_number(frozenset({"ant"})) in (3, 4)
    assert race(1.0, 0.5) == 1.0 and race(0.0, 0.5) == 0.0
    assert race(0.5, 0.5) == pytest.approx(2 / 3)


def test_worked_scoring_example():
    # The victory points (+5 a statuette held, +10 each taken at the first
    # attempt, +15 winning the final, -3 each the rival holds, -1 a final
    # throw): 3 statuettes, one first try, wins the final on its 7th
    # throw against a rival with 2: 15+10+15+0-6-7 = 27; the rival, 2
    # statuettes, one first try, 6 throws: 10+10+0+0-9-6 = 5.
    winner = Score(held=15, first_tries=10, won=15, bare_win=0, rival_held=-6, throws=-7, curses=0, deal=0)
    rival = Score(held=10, first_tries=10, won=0, bare_win=0, rival_held=-9, throws=-6, curses=0, deal=0)
    assert (winner.total, rival.total) == (27, 5)


def state_with(holder, **fields):
    """A game in the final phase with the statuettes held as given."""
    from dataclasses import replace

    s = new_game(Config(), 1, (1, 2))
    return replace(s, holder=tuple(holder), **fields)


def test_score_sheet_from_a_state():
    from dataclasses import replace

    s = state_with(
        (0, 0, 0, 1, 1),
        first_tries=(frozenset({"crab"}), frozenset({"eagle"})),
        final_throws=(7, 6),
        winner=0,
        stage="over",
    )
    assert score(s, 0).total == 27 and score(s, 1).total == 5
    res = result(s)
    assert res.winner == 0 and res.final_winner == 0
    # Winning holding nothing: +50 on top of +15.
    bare = replace(s, holder=(1, 1, 1, 1, 1), first_tries=(frozenset(), frozenset()), final_throws=(1, 1))
    assert score(bare, 0) == Score(0, 0, 15, 50, -15, -1, 0, 0)
    # A tie in points goes to the final's winner.
    tie = replace(
        s, holder=(0, 1, -1, -1, -1), first_tries=(frozenset(), frozenset()), final_throws=(2, 17), winner=1
    )
    assert score(tie, 0).total == score(tie, 1).total == 0  # 5-3-2 against 5+15-3-17
    assert result(tie).winner == 1


def test_start_roll_lower_goes_first_ties_reroll():
    s = new_game(Config(), 1, (5, 5, 7, 3))
    assert s.first == 1 and s.turn == 1
    assert [narrate(e, ("A", "B")) for e in s.events[:3]] == [
        "For the first turn: A rolls 5, B rolls 5.",
        "For the first turn: A rolls 7, B rolls 3.",
        "B rolled lower and goes first.",
    ]


def test_crab_curse_and_first_attempt():
    # A first (1 < 2); A names the Crab, throws 2-3: taken at the first
    # attempt; B rolls 1d10 = 6 for the curse.
    s = new_game(Config(), 1, (1, 2, 2, 3, 6))
    s = apply(s, Action("name", statuette="crab"))
    assert held_by(s, 0) == {"crab"} and s.first_tries[0] == {"crab"} and s.penalties == (6, 0)
    assert to_act(s) == 1


def test_ant_curse_two_dice_and_a_second_attempt_is_not_first():
    s = new_game(Config(), 1, (1, 2, 9, 9, 1, 1, 1, 3, 4, 5))
    s = apply(s, Action("name", statuette="ant"))  # A misses with 9-9
    s = apply(s, Action("name", statuette="crab"))  # B misses with 1-1
    s = apply(s, Action("name", statuette="ant"))  # A takes it with 1-3; curse 4+5
    assert held_by(s, 0) == {"ant"} and s.first_tries[0] == frozenset() and s.penalties == (9, 0)


def test_jellyfish_skips_three_turns():
    s = new_game(Config(), 1, (1, 2, 3, 4) + (2, 4) * 4)
    s = apply(s, Action("name", statuette="jellyfish"))  # A: 3+4 = 7
    assert s.skips == (3, 0) and s.turn == 1
    for _ in range(4):
        s = apply(s, Action("name", statuette="crab"))  # B misses with 2-4, four turns in a row
        assert s.turn == 1 or s.skips[0] == 0
    assert s.turn == 0 and s.skips == (0, 0)


def test_eagle_gives_the_rival_two_throws_and_salamander_three_dice():
    s = new_game(Config(), 1, (1, 2, 1, 10, 9, 10, 2, 4, 2, 4, 6))
    s = apply(s, Action("name", statuette="eagle"))  # A takes the Eagle with 1-10
    assert s.turn == 1 and s.throws_left == 2
    s = apply(s, Action("name", statuette="salamander"))  # B takes it with 9-10, and throws again
    assert s.turn == 1 and s.throws_left == 1
    s = apply(s, Action("name", statuette="crab"))  # B's second throw: 2-4 misses
    assert s.turn == 0
    s = apply(s, Action("name", statuette="crab"))  # A now throws three dice: 2-4-6 misses
    assert s.events[-2].dice == (2, 4, 6)


def test_one_player_takes_all_five_then_the_final():
    dice = (
        (1, 2)  # A starts
        + (2, 3, 4)  # A takes the Crab; B rolls 4 for its curse
        + (2, 4)  # B misses the Eagle
        + (1, 3, 5, 5)  # A takes the Ant; curse 5+5
        + (2, 4)  # B misses the Eagle
        + (1, 10)  # A takes the Eagle: B throws twice a turn
        + (2, 4, 2, 4)  # B misses the Salamander twice
        + (9, 10)  # A takes the Salamander: B throws three dice
        + (2, 4, 6, 2, 4, 6)  # B misses the Jellyfish twice
        + (3, 4)  # A takes the Jellyfish
    )
    s = new_game(Config(), 1, dice)
    moves = [
        "crab",
        "eagle",
        "ant",
        "eagle",
        "eagle",
        "salamander",
        "salamander",
        "salamander",
        "jellyfish",
        "jellyfish",
        "jellyfish",
    ]
    for name in moves:
        s = apply(s, Action("name", statuette=name))
    assert held_by(s, 0) == {"crab", "ant", "jellyfish", "eagle", "salamander"}
    assert s.penalties == (14, 0) and len(s.first_tries[0]) == 5
    assert s.stage == "ant" and to_act(s) == 0
    s = apply(s, Action("ant", number=3))
    assert s.stage == "final" and s.turn == 0 and s.crab_extra
    assert blessings(s, 1) == frozenset()
    assert score(s, 1).rival_held == -15


def test_final_phase_adjust_crab_extra_and_the_win():
    from dataclasses import replace

    base = new_game(Config(), 1, (1, 2))
    # A holds the Crab and the Eagle; B the rest (B holds more: B first).
    s = replace(base, holder=(0, 1, 1, 0, 1), stage="final")
    from garito.core.irwin.game import _start_final

    s = _start_final(s)
    assert s.turn == 1 and s.crab_extra
    s = replace(
        s,
        rng=new_game(Config(), 1, (1, 1, 2, 2, 6) + (2, 2, 3, 3, 6) + (6, 6, 6, 6, 1) + (1, 2, 3, 4, 6)).rng,
    )
    s = apply(s, THROW)  # B: 1-1-2-2-6, Ant/Eagle? B has the Ant: adjust
    assert s.stage == "adjust" and to_act(s) == 1
    s = apply(s, KEEP)
    assert s.turn == 0
    s = apply(s, THROW)  # A: 2-2-3-3-6 with the Eagle
    assert s.stage == "adjust"
    s = apply(s, KEEP)
    assert s.turn == 0 and s.final_throws == (1, 1)  # the Crab: A throws again
    s = apply(s, THROW)  # 6-6-6-6-1
    s = apply(s, KEEP)
    assert s.turn == 1
    s = apply(s, THROW)  # B: 1-2-3-4-6: the Eagle is A's, but B holds the Ant (number 0: not chosen here)
    s = apply(s, KEEP)
    assert s.turn == 0
    with pytest.raises(IllegalAction, match="Only the Ant"):
        apply(apply(s, THROW), Action("change", ant=0))  # A has no Ant


def _crab_holder_first():
    """A holds the Crab, the Ant (its number 6) and the Jellyfish, B the
    Eagle and the Salamander: A throws first, 1-1-2-2-6, and does not win."""
    from dataclasses import replace

    from garito.core.irwin.game import _start_final

    s = _start_final(replace(new_game(Config(), 1, (1, 2)), holder=(0, 0, 0, 1, 1), ant_number=6))
    s = replace(s, rng=new_game(Config(), 1, (1, 2) + (1, 1, 2, 2, 6) + (2, 3, 4, 5, 6)).rng)
    assert s.turn == 0 and s.crab_extra
    s = apply(s, THROW)
    if s.stage == "adjust":
        s = apply(s, KEEP)
    return s


def test_the_crab_holder_may_pass_on_the_second_throw():
    s = _crab_holder_first()
    assert s.stage == "crab" and to_act(s) == 0 and legal_actions(s) == [THROW, PASS]
    with pytest.raises(IllegalAction, match="throw again or pass"):
        apply(s, KEEP)
    passed = apply(s, PASS)
    assert passed.stage == "final" and passed.turn == 1 and passed.final_throws == (1, 0)
    assert not passed.crab_extra
    story = [narrate(e, ("A", "B")) for e in passed.events]
    assert story[-3:] == [
        "The Crab: A may throw again, or pass.",
        "A passes on the Crab's second throw.",
        "B's turn.",
    ]
    # B throws 2-3-4-5-6 and wins; A paid one throw, not two.
    won = apply(apply(passed, THROW), KEEP)  # B's Eagle offers a change first
    assert won.winner == 1 and score(won, 0).throws == -1
    # Throwing again is the same throw as before the choice: a record of it replays.
    again = apply(apply(s, THROW), KEEP)  # A's Ant offers a change first
    assert again.final_throws == (2, 0) and again.dice == (2, 3, 4, 5, 6) and again.winner == 0
    assert Action.parse("pass") == PASS and str(PASS) == "pass"


def test_the_computer_takes_the_crab_throw_by_the_exact_chances():
    from dataclasses import replace

    from garito.core.irwin.odds import crab_choice

    s = _crab_holder_first()
    # Level: a second throw raises the chance of winning the match.
    p = q = 240 / 7776
    again, stop = crab_choice(p, q, 0, False)
    assert again[0] > stop[0]
    # 15 points ahead a second throw only risks the point that keeps the lead
    # should the rival win the final: pass.
    again, stop = crab_choice(p, q, 15, False)
    assert stop[0] == 1.0 and again[0] < 1.0
    assert choose(view(s, 0), legal_actions(s), "easy") == THROW  # easy always throws again
    from garito.core.irwin.odds import throw_win_chance

    # Hard follows the exact figures from its own view, whatever the score.
    for penalties in ((0, 0), (30, 0), (0, 40)):
        at = replace(s, penalties=penalties)
        diff = score(at, 0).total - score(at, 1).total
        p = throw_win_chance(blessings(at, 0), 6)
        q = throw_win_chance(blessings(at, 1), 6)
        again, stop = crab_choice(p, q, diff, False)
        assert choose(view(at, 0), legal_actions(at), "hard") == (THROW if again > stop else PASS)


def test_eagle_change_wins():
    from dataclasses import replace

    from garito.core.irwin.game import _start_final

    s = _start_final(replace(new_game(Config(), 1, (1, 2)), holder=(1, 1, 1, 0, 1)))
    s = replace(s, rng=new_game(Config(), 1, (1, 2, 3, 4, 4)).rng, turn=0)
    s = apply(s, THROW)
    action = choose(view(s, 0), legal_actions(s), "hard")
    assert action == Action("change", eagle=3, value=5) or action.kind == "change"
    s = apply(s, action)
    assert is_over(s) and s.winner == 0


def test_salamander_deal_variant():
    from dataclasses import replace

    from garito.core.irwin.game import _before_final

    s = replace(new_game(Config(salamander_deal="on"), 1, (1, 2)), holder=(0, 1, 1, 0, 0))
    s = _before_final(s)
    assert s.stage == "salamander" and to_act(s) == 0
    ceded = apply(s, Action("salamander", statuette="cede"))
    assert "salamander" in blessings(ceded, 1) and "salamander" not in blessings(ceded, 0)
    assert ceded.stage == "ant" and to_act(ceded) == 1
    assert score(ceded, 0).deal == 30
    renounced = apply(s, Action("salamander", statuette="renounce"))
    assert "salamander" not in blessings(renounced, 0) | blessings(renounced, 1)
    assert score(renounced, 0).deal == 15


def test_action_notation_round_trips():
    for text in [
        "name crab",
        "salamander cede",
        "ant 4",
        "throw",
        "keep",
        "change ant=2",
        "change eagle=5:6",
        "change ant=1 eagle=3:2",
    ]:
        assert str(Action.parse(text)) == text
    for bad in ["name dragon", "ant 7", "change ant=6", "change eagle=1:7", "change", "change x=1"]:
        with pytest.raises(ValueError):
            Action.parse(bad)


@pytest.mark.parametrize("seed", range(8))
def test_random_and_computer_games_finish_and_replay(seed):
    rng = random.Random(seed)
    s = new_game(Config(salamander_deal="on" if seed % 2 else "off"), seed)
    actions = []
    for _ in range(3000):
        if is_over(s):
            break
        seat = to_act(s)
        legal = legal_actions(s)
        a = rng.choice(legal) if seat == 0 else choose(view(s, seat), legal, ("easy", "hard")[seed % 2])
        assert a in legal
        actions.append(str(a))
        s = apply(s, a)
    assert is_over(s)
    res = result(s)
    assert res.winner in (0, 1) and res.final_winner == s.winner
    again = new_game(s.config, seed)
    for text in actions:
        again = apply(again, Action.parse(text))
    assert again == s
    for e in s.events:
        assert isinstance(narrate(e, ("A", "B")), str)


def test_every_take_condition_is_symmetric_in_the_dice():
    for s in ("crab", "ant", "jellyfish", "eagle", "salamander"):
        for d in product(range(1, 11), repeat=3):
            assert takes(s, d) == takes(s, tuple(reversed(d)))
