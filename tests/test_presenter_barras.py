"""What the Barras table shows, from the presenter alone (no app): heading,
rows, the bar and throw, prompt, the bet bar, keys and the result sheets,
for an exact seeded session. Milliseconds each; the snapshots check the same
values drawn."""

from __future__ import annotations

from garito.core import barras as b
from garito.tui.presenters import barras as p

ANA_HERE = p.Seats(("Ana", "Bea", "Cid"), (False, True, True), frozenset({0}))


def first_round() -> b.State:
    """Seed 3: everyone bets 1 on a bar of 39; Ana's 82 takes the table."""
    s = b.new_game(b.Config(), 3)
    while not s.history:
        s = b.apply(s, b.Action("bet", 1) if s.stage == "bet" else b.ROLL)
    return s


def test_the_table_as_bets_open():
    s = b.new_game(b.Config(), 3)
    t = p.table(b.view(s, 0), ANA_HERE, ascii_only=False)
    assert t.heading == "Barras — round 1 — bar 39 — bets 1–20, fee 2, solo 1:1"
    assert t.columns == ("Chips", "Bet", "Throw", "Net")
    assert [(r.name, r.cells, r.turn, r.computer) for r in t.rows] == [
        ("Ana", ("  100", "·   ", "·    ", "0"), True, False),
        ("Bea", ("  100", "·   ", "·    ", "0"), False, True),
        ("Cid", ("  100", "·   ", "·    ", "0"), False, True),
    ]
    assert [(d.value, d.sides, d.mark, d.label) for d in t.dice] == [
        (30, 10, "held", "30"),
        (9, 10, "held", "9"),
    ]
    assert t.caption == "Bar 39: to win, throw more"
    assert t.prompt.plain == "Ana: bet (←/→, Enter) or s to sit out."
    assert t.stake == p.StakeOffer(0, 1, 20, "beat 39: 61.0%, nobody in yet")
    assert p.table(b.view(s, 0), ANA_HERE, ascii_only=False, odds=False).stake == p.StakeOffer(
        0, 1, 20, "o shows the odds"
    )
    assert t.series == ((100,), (100,), (100,)) and t.labels == ("Ana", "Bea", "Cid")


def test_keys_follow_the_legal_moves():
    s = b.new_game(b.Config(), 3)
    assert p.keys(b.legal_actions(s), my_move=True) == {"bet", "sit", "stake_by", "odds"}
    assert p.keys(b.legal_actions(s), my_move=False) == set()
    for _ in range(3):
        s = b.apply(s, b.Action("bet", 1))
    assert s.stage == "roll" and p.keys(b.legal_actions(s), my_move=True) == {"roll"}


def test_the_round_that_ended_stays_on_the_table_behind_its_result():
    s = first_round()
    upto = next(i for i, e in enumerate(s.events) if isinstance(e, b.RoundStarted) and e.number == 2)
    t = p.table(b.view(s, 0), ANA_HERE, ascii_only=False, ended=True, upto=upto)
    assert t.heading == "Barras — round 1 — bar 39 — bets 1–20, fee 2, solo 1:1"
    assert [r.cells for r in t.rows] == [
        ("  102", "1   ", "82★  ", "+2"),
        ("   99", "1   ", "59★  ", "-1"),
        ("   99", "1   ", "79★  ", "-1"),
    ]
    assert not any(r.turn for r in t.rows)
    assert [(d.value, d.mark) for d in t.dice] == [(30, "held"), (9, "held"), (70, "win"), (9, "win")]
    assert t.caption == "Bar 39  Cid throws 79" and t.prompt == "Round 1 is over." and t.stake is None
    after = p.table(b.view(s, 0), ANA_HERE, ascii_only=True)
    assert after.heading.startswith("Barras - round 2 - bar 19") and after.prompt == "Bea is deciding..."
    assert after.series == ((100, 102), (100, 99), (100, 99))


def test_the_round_and_session_sheets():
    s = first_round()
    title, body = p.round_sheet(s.history[-1], ANA_HERE.names, ascii_only=False)
    assert title == "Round 1"
    assert body.plain.splitlines() == [
        "Ana takes the table",
        "The bar: 39",
        "",
        " ★ Ana        bet 1   threw 82   +2",
        "   Bea        bet 1   threw 59   -1",
        "   Cid        bet 1   threw 79   -1",
        "",
        "The bets change hands between the players.",
    ]
    res = b.result(b.apply(s, b.CLOSE))
    assert res is not None
    assert p.session_sheet(res, ANA_HERE.names, ascii_only=False).plain.splitlines() == [
        "The table closes after 1 round (cashed out).",
        "",
        "   Player        Chips    Net",
        " ★ Ana             102     +2",
        "   Bea              99     -1",
        "   Cid              99     -1",
        "   The house               +0",
        "",
    ]
