"""What the Gemelos table shows, from the presenter alone (no app): the
heading, rows, dice, caption, prompt, stake bar, keys and result sheets, for
exact seeded matches. Milliseconds each; the snapshots check the same
values drawn."""

from __future__ import annotations

from garito.core import gemelos as g
from garito.tui.presenters import gemelos as p

ANA_HERE = p.Seats(("Ana", "Ramón"), (False, True), frozenset({0}))


def play(config: g.Config, seed: int, *actions: g.Action) -> g.State:
    s = g.new_game(config, seed)
    for a in actions:
        s = g.apply(s, a)
    return s


def test_the_table_before_the_first_roll():
    t = p.table(g.view(play(g.Config(), 7), 0), ANA_HERE, ascii_only=False)
    assert t.heading == "Gemelos — round 1 — first to 3 wins"
    assert t.columns == ("Wins", "Roll")
    assert [(r.name, r.cells, r.turn, r.lead, r.computer) for r in t.rows] == [
        ("Ana", ("○○○", "·"), True, False, False),
        ("Ramón", ("○○○", "·"), False, False, True),
    ]
    assert [(d.value, d.sides, d.mark) for d in t.dice] == [(0, 8, "dim"), (0, 8, "dim")]
    assert t.caption == "Round 1: Ana rolls first"
    assert t.prompt.plain == "Ana, your roll: press Space." and t.stake is None
    assert [str(s) for s in t.prompt.spans] == ["Span(0, 3, 'bold')"]  # the name, bold


def test_a_roll_that_leads_and_the_computer_to_answer():
    t = p.table(g.view(play(g.Config(), 7, g.ROLL), 0), ANA_HERE, ascii_only=False)
    assert [r.cells[1] for r in t.rows] == ["6+3=9", "·"]
    assert [(r.lead, r.turn) for r in t.rows] == [(True, False), (False, True)]
    assert [(d.value, d.mark) for d in t.dice] == [(6, "win"), (3, "win")]
    assert t.caption == "Ana: 6+3 = 9, leading"
    assert t.prompt == "Ramón is rolling…"


def test_the_round_that_ended_stays_on_the_table_behind_its_result():
    # Ana 6+3 beats Ramón's 7+1: the same move began round 2, which the
    # table shows only once the result closes.
    s = play(g.Config(), 7, g.ROLL, g.ROLL)
    upto = next(i for i, e in enumerate(s.events) if isinstance(e, g.RoundStarted) and e.number == 2)
    held = p.table(g.view(s, 0), ANA_HERE, ascii_only=False, ended=True, upto=upto)
    assert held.heading == "Gemelos — round 1 — first to 3 wins"
    assert {r.name: r.cells[1] for r in held.rows} == {"Ana": "6+3=9", "Ramón": "7+1=8"}
    assert [r.name for r in held.rows if r.lead] == ["Ana"] and not any(r.turn for r in held.rows)
    assert [(d.value, d.mark) for d in held.dice] == [(7, "lose"), (1, "lose")]
    assert held.caption == "Ramón: 7+1 = 8" and held.prompt == "Round 1: Ana wins."
    assert not any(isinstance(e, g.RoundStarted) and e.number == 2 for e in held.events)
    after = p.table(g.view(s, 0), ANA_HERE, ascii_only=False)
    assert after.heading == "Gemelos — round 2 — first to 3 wins"
    assert [r.cells for r in after.rows] == [("●○○", "·"), ("○○○", "·")]
    assert after.caption == "Round 1: Ana won with 6+3 = 9"  # the deciding dice stay
    assert after.prompt == "Ramón is rolling…"
    assert g.narrate(after.events[-1], ANA_HERE.names) == "Round 2: Ramón rolls first."


def test_stakes_show_chips_the_pot_and_the_odds_on_the_stake_bar():
    config = g.Config(stakes="before-roll")
    t = p.table(g.view(play(config, 7), 0), ANA_HERE, ascii_only=False)
    assert t.heading == "Gemelos — round 1 — first to 3 wins — pot 0"
    assert t.columns == ("Wins", "Roll", "Chips", "Stake")
    assert t.stake == p.StakeOffer(0, 1, 10, "chips 50  win 48.5% lose 48.5% void 2.9%")
    assert t.prompt.plain == "Ana: your stake (←/→ to change, Enter)."
    staked = p.table(g.view(play(config, 7, g.Action("stake", 3), g.ROLL), 0), ANA_HERE, ascii_only=True)
    assert staked.heading == "Gemelos - round 1 - first to 3 wins - pot 3"
    assert [r.cells for r in staked.rows] == [("---", "6+3=9", "47", "3"), ("---", ".", "50", ".")]
    assert staked.stake is None and staked.prompt == "Ramón is staking..."


def test_a_roll_off_and_the_seats_it_names():
    s = play(g.Config(players=3, wins_needed=2), 3)
    while not any(isinstance(e, g.RollOff) for e in s.events):
        s = g.apply(s, g.ROLL)
    three = p.Seats(("Ana", "Bea", "Cid"), (False, False, False), frozenset({0, 1, 2}))
    t = p.table(g.view(s, s.order[0]), three, ascii_only=False)
    assert "— roll-off —" in t.heading
    assert t.prompt.plain == f"{three.names[s.order[0]]}, your roll-off: press Space."


def test_keys_follow_the_legal_moves_on_a_move_played_here():
    staking = play(g.Config(stakes="blind"), 7)
    assert p.keys(g.legal_actions(staking), my_move=True) == {"stake", "stake_by"}
    assert p.keys(g.legal_actions(play(g.Config(), 7)), my_move=True) == {"roll"}
    assert p.keys(g.legal_actions(play(g.Config(), 7)), my_move=False) == set()
    over = play(g.Config(wins_needed=2), 7, *[g.ROLL] * 6)
    assert over.over and p.keys(g.legal_actions(over), my_move=True) == set()


def test_stakes_of_the_round_that_ended():
    s = play(g.Config(stakes="blind"), 7, g.Action("stake", 2), g.Action("stake", 5))
    assert p.stakes_of(s.events, 2) == [2, 5]
    s = g.apply(g.apply(s, g.ROLL), g.ROLL)  # the round ends, the next begins
    assert p.stakes_of(s.events, 2) == [None, None]


def test_the_round_result_sheet():
    s = play(g.Config(stakes="before-roll"), 7, g.Action("stake", 3), g.ROLL, g.Action("stake", 1), g.ROLL)
    title, body = p.round_sheet(s.history[-1], s.wins, ANA_HERE.names, needed=3, ascii_only=False)
    assert title == "Round 1"
    assert body.plain.splitlines() == [
        "Ana wins the round",
        "9 beats 8.",
        "",
        " ★ Ana          6+3 = 9        ●○○",
        "   Ramón        7+1 = 8        ○○○",
        "",
        "Pot 4: Ana takes 4",
    ]
    s = play(g.Config(stakes="before-roll"), 7, g.Action("stake", 1), g.ROLL, g.Action("stake", 5), g.ROLL)
    _, body = p.round_sheet(s.history[-1], s.wins, ANA_HERE.names, needed=3, ascii_only=True)
    assert body.plain.splitlines()[-1] == "Pot 6: Ana takes 2 (back to Ramón 4)"  # no more than her own stake
    assert body.plain.splitlines()[3] == " * Ana          6+3 = 9        #--"


def test_the_match_over_sheet():
    s = play(g.Config(stakes="before-roll"), 7)
    while not s.over:
        s = g.apply(s, g.legal_actions(s)[0])
    res = g.result(s)
    assert res is not None
    body = p.match_sheet(res, s.history, ANA_HERE.names, staked=True, seed=7, ascii_only=False)
    assert body.plain.splitlines() == [
        "Ramón wins the match in 4 rounds.",
        "",
        "   Seat         Wins   Chips     Net",
        " ★ Ramón        3         52      +2",
        "   Ana          1         48      -2",
        "",
        "Rounds: 1:Ana  2:Ramón  3:Ramón  4:Ramón",
        "Seed 7",
    ]


def test_the_sheets_of_a_match_without_stakes():
    # The app's tour (test_app's match by keys against the computer): Ana
    # rolls 6+3, Ramón answers 7+1, and Ramón wins the match in 4 rounds.
    s = play(g.Config(players=2), 7, g.ROLL, g.ROLL)
    title, body = p.round_sheet(s.history[-1], s.wins, ANA_HERE.names, needed=3, ascii_only=False)
    assert title == "Round 1"
    assert body.plain.splitlines() == [
        "Ana wins the round",
        "9 beats 8.",
        "",
        " ★ Ana          6+3 = 9        ●○○",
        "   Ramón        7+1 = 8        ○○○",
    ]
    while not s.over:
        s = g.apply(s, g.ROLL)  # the only move without stakes, the computer's too
    res = g.result(s)
    assert res is not None and s.wins == (1, 3)
    body = p.match_sheet(res, s.history, ANA_HERE.names, staked=False, seed=7, ascii_only=False)
    assert body.plain.splitlines()[0] == "Ramón wins the match in 4 rounds."
