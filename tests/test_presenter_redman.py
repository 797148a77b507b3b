"""What the Red Man's Throw table shows, from the presenter alone (no app):
heading, rows, the ledger, dice, prompt, the call line, keys and the result
sheets, for exact seeded matches. Milliseconds each; the snapshots check the
same values drawn."""

from __future__ import annotations

from garito.core import redman as rm
from garito.tui.presenters import redman as p

ANA_HERE = p.Seats(("Ana", "Ramón"), (False, True), frozenset({0}))


def play(config: rm.Config, seed: int, *actions: rm.Action) -> rm.State:
    s = rm.new_game(config, seed)
    for a in actions:
        s = rm.apply(s, a)
    return s


STAKE_1 = (rm.Action("stake", 1), rm.Action("stake", 1))


def test_the_table_before_the_first_stake():
    t = p.table(rm.view(play(rm.Config(bets="predictions"), 5), 0), ANA_HERE, ascii_only=False)
    assert t.heading == "Red Man's Throw — round 1 of 6 — predictions"
    assert t.columns == ("Won", "Hand", "Chips", "Ledger")
    assert [(r.name, r.cells, r.turn, r.computer) for r in t.rows] == [
        ("Ana", ("0", "·    ", "50", "0"), True, False),
        ("Ramón", ("0", "·    ", "50", "0"), False, True),
    ]
    assert [(r.name, r.turn, r.out) for r in t.ledger_rows] == [
        ("1", True, False),
        *((str(n), False, True) for n in range(2, 7)),
        ("S", False, True),
    ]
    assert [(d.value, d.mark) for d in t.dice] == [(0, "dim")] * 3
    assert t.caption == "Round 1: Ana rolls first"
    assert t.stake == p.StakeOffer(0, 1, 10, "chips 50, ledger 0")
    assert t.prompt.plain == "Ana: propose the stake (←/→, Enter)." and t.call == ""


def test_the_call_line_shows_every_choice_the_same_way():
    s = play(rm.Config(bets="predictions"), 5, *STAKE_1)
    view = rm.view(s, 0)
    assert p.caller(view, ANA_HERE) == 0
    none = p.table(view, ANA_HERE, ascii_only=False)
    assert none.call.plain.splitlines() == ["Call ◂ no call ▸", "win 50.0%, worth +0.00 stake"]
    t = p.table(view, ANA_HERE, ascii_only=False, call="straight")
    assert t.prompt.plain == "Ana, your roll: call it (←/→, or type dice), Space."
    assert t.call.plain.splitlines() == ["Call ◂ a straight ▸", "comes 11.1%, worth -0.34 stake"]
    assert t.stake is None
    typing = p.table(view, ANA_HERE, ascii_only=True, typed="63")
    assert typing.call.plain.splitlines() == ["Call < exactly 6-3... >", "type 1 more die"]
    exact = p.table(view, ANA_HERE, ascii_only=False, call="6-3-1")
    assert "exactly 6-3-1" in exact.call.plain and "comes 2.8%" in exact.call.plain
    unbet = rm.view(play(rm.Config(bets="stakes"), 5, *STAKE_1), 0)
    assert p.table(unbet, ANA_HERE, ascii_only=False).call.plain == "win 50.0% lose 50.0%"


def test_typing_exact_dice_and_the_picker():
    assert p.type_die("", 6) == p.Typing("6")
    assert p.type_die("6", 1) == p.Typing("61")
    assert p.type_die("61", 3) == p.Typing("", "6-3-1")  # highest first
    assert p.type_die("66", 6) == p.Typing(
        "", refused="6-6-6 cannot be called: the Red Man voids every call."
    )
    assert p.next_call("", 1) == "two-sixes" and p.next_call("", -1) == "1-1-1"
    assert p.next_call("1-1-1", 1) == ""


def test_keys_follow_the_legal_moves():
    calling = play(rm.Config(bets="predictions"), 5, *STAKE_1)
    assert p.keys(rm.legal_actions(calling), my_move=True) == {"roll", "call_by", "digit", "call_none"}
    assert p.keys(rm.legal_actions(calling), my_move=False) == set()
    plain = play(rm.Config(bets="stakes"), 5, *STAKE_1)
    assert p.keys(rm.legal_actions(plain), my_move=True) == {"roll"}
    staking = play(rm.Config(), 5)
    assert p.keys(rm.legal_actions(staking), my_move=True) == {"stake", "stake_by"}
    hat = play(rm.Config(), 423, *STAKE_1, rm.ROLL, rm.ROLL)  # Ramón's 6-6-6
    assert hat.stage == "hat" and p.keys(rm.legal_actions(hat), my_move=True) == {"tip"}


def test_a_round_won_on_the_ledger_and_its_sheet():
    s = play(rm.Config(bets="predictions"), 5, *STAKE_1, rm.Action("roll", prediction="straight"), rm.ROLL)
    t = p.table(rm.view(s, 0), ANA_HERE, ascii_only=False)
    assert [(r.cells, r.lead) for r in t.ledger_rows[:1]] == [(("6-5-3✗ ", "6-6-3★ ", "+2"), False)]
    assert [(d.value, d.mark) for d in t.dice] == [(6, "win"), (6, "win"), (3, "win")]
    assert t.caption == "Round 1: Ramón, two sixes and a 3"
    assert t.prompt == "Ramón is proposing a stake…"
    assert [r.cells[2:] for r in t.rows] == [("50", "-2"), ("50", "+2")]
    title, body = p.round_sheet(s.ledger[-1], s.wins, ANA_HERE.names, ascii_only=False)
    assert title == "Round 1"
    assert body.plain.splitlines() == [
        "Ramón wins the round",
        "6-6-3 over 6-5-3, two sixes beat one six, whatever the other dice.",
        "",
        "   Ana        6-5-3  a six and 5+3",
        " ★ Ramón      6-6-3  two sixes and a 3",
        "   Ana called a straight: wrong.",
        "",
        "Stake 1: Ramón +2 on the ledger.",
        "",
        "   Ana 0–1 Ramón",
    ]


def test_the_red_man_his_words_and_the_match_over_sheet():
    s = play(rm.Config(), 423, *STAKE_1, rm.ROLL, rm.ROLL)
    t = p.table(rm.view(s, 0), ANA_HERE, ascii_only=False)
    assert [(d.value, d.mark) for d in t.dice] == [(6, "hot")] * 3
    assert t.caption == "6-6-6: Ramón is the Red Man"
    assert t.prompt.plain == "Ana: the Red Man waits. Press t: “I tip my hat.”"
    assert not any(r.turn for r in t.rows) and [r.lead for r in t.rows] == [False, True]
    said = p.moment(rm.view(s, 0), ANA_HERE.names, ask=True).plain
    assert said.splitlines() == [
        "",
        "Ramón: “Looks like I'm the Red Man.”",
        "Every chip Ana put in is Ramón's: +1.",
        "",
        "Ana, your answer: press t.",
    ]
    s = rm.apply(s, rm.TIP)
    res = rm.result(s)
    assert res is not None
    body, keys = p.match_sheet(res, s.ledger, ANA_HERE.names, s.config, seed=423, ascii_only=False)
    assert body.plain.splitlines() == [
        "Ramón is the Red Man: every round and every pot.",
        "",
        "   Seat         Rounds   Before  After     Net",
        "   Ana          0            50     49      -1",
        " ★ Ramón        1            50     51      +1",
        "",
        "Rounds: 1:Ramón",
        "Seed 423",
    ]
    assert keys == "n: rematch (chips carried, Ramón first)    Enter: menu"
    settled = p.table(rm.view(s, 0), ANA_HERE, ascii_only=False)
    assert [r.cells[2:] for r in settled.rows] == [("49", "paid"), ("51", "paid")]
    assert settled.prompt == "The match is over."


def test_the_red_man_takes_every_chip_and_the_table_shows_them_settled():
    # A calls a pair and is right twice at a stake of 2 (+8 on the ledger),
    # then rolls 6-6-6: every chip B put in is A's, 10 (the app's tour).
    dice = (3, 3, 1, 5, 2, 1, 2, 2, 1, 4, 2, 1, 6, 6, 6)
    s = rm.new_game(rm.Config(bets="predictions", first_roller="fixed"), 1, dice)
    for a in ["stake 2", "stake 2", "roll pair", "roll"] * 2 + ["stake 2", "stake 2", "roll"]:
        s = rm.apply(s, rm.Action.parse(a))
    assert s.net == (10, -10) and s.stage == "hat"
    both_here = p.Seats(("A", "B"), (False, False), frozenset({0, 1}))
    said = p.moment(rm.view(s, 0), both_here.names, ask=True).plain
    assert "Every chip B put in is A's: +10 (the ledger stood at +8)." in said.splitlines()
    t = p.table(rm.view(s, 0), both_here, ascii_only=False)
    assert [r.cells[2] for r in t.ledger_rows[:3]] == ["+4", "+4", "+2"]
    s = rm.apply(s, rm.TIP)
    settled = p.table(rm.view(s, 0), both_here, ascii_only=False)
    assert [r.cells[2:] for r in settled.rows] == [("60", "paid"), ("40", "paid")]


def test_while_a_rounds_result_is_up_the_table_shows_that_round_as_it_ended():
    # Red Man's table behind the round's box showed the next round (its
    # number, empty hands, who proposes), as Gemelos and Barras never did.
    before = play(rm.Config(bets="stakes"), 5, *STAKE_1, rm.ROLL)
    after = rm.apply(before, rm.ROLL)
    assert len(after.ledger) == 1
    upto = next(
        i for i in range(len(before.events), len(after.events)) if rm.RULES.opens_round(after.events[i])
    )
    assert isinstance(after.events[upto], rm.RoundStarted) and after.events[upto].number == 2
    held = p.table(rm.view(after, 0), ANA_HERE, ascii_only=False, upto=upto)
    r = after.ledger[0]
    assert held.heading == "Red Man's Throw — round 1 of 6 — stake 1"
    assert [(row.cells[1].strip(), row.turn) for row in held.rows] == [
        (rm.show(r.hands[0]), False),
        (rm.show(r.hands[1]), False),
    ]
    assert held.prompt == f"Round 1: {('Ana', 'Ramón')[r.winner]} wins."
    assert held.stake is None and held.call == ""
    assert held.events == after.events[:upto]
    # the Rounds panel: round 1 as it ended, the round to come not marked yet
    assert [(row.name, row.turn, row.out) for row in held.ledger_rows[:3]] == [
        ("1", False, False),
        ("2", False, True),
        ("3", False, True),
    ]
    now = p.table(rm.view(after, 0), ANA_HERE, ascii_only=False)  # once the box closes
    assert now.heading.startswith("Red Man's Throw — round 2 of 6")
    assert [row.cells[1].strip() for row in now.rows] == ["·", "·"]
    assert [(row.name, row.turn, row.out) for row in now.ledger_rows[1:3]] == [
        ("2", True, False),
        ("3", False, True),
    ]


def test_the_rounds_panel_names_each_player_whole_up_to_nine_columns():
    # Hot seat's "Player 1" and "Player 2", cut to a hand's seven columns,
    # both read "Player".
    s = play(rm.Config(), 5)
    hot_seat = p.Seats(("Player 1", "Player 2"), (False, False), frozenset({0, 1}))
    assert p.table(rm.view(s, 0), hot_seat, ascii_only=False).ledger_columns[:2] == ("Player 1", "Player 2")
    long = p.Seats(("Ana", "Maximiliano"), (False, True), frozenset({0}))
    assert p.table(rm.view(s, 0), long, ascii_only=False).ledger_columns[:2] == ("Ana    ", "Maximilia")
