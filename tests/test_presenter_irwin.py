"""What the Irwin's Revenge table shows, from the presenter alone (no app):
heading, the statuettes and the players, dice, prompt, the picker, keys and
the victory-points sheet, for exact seeded games. Milliseconds each; the
snapshots check the same values drawn."""

from __future__ import annotations

from garito.core import irwin as ir
from garito.tui.presenters import irwin as p

from .helpers import IRWIN_SWEEP

ANA_HERE = p.Seats(("Ana", "Ramón"), (False, True), frozenset({0}))
BOTH_HERE = p.Seats(("Ana", "Bea"), (False, False), frozenset({0, 1}))


def play(config: ir.Config, seed: int, dice: tuple[int, ...], *actions: ir.Action) -> ir.State:
    s = ir.new_game(config, seed, dice)
    for a in actions:
        s = ir.apply(s, a)
    return s


def sweep(config: ir.Config | None = None, *more: ir.Action) -> ir.State:
    """Ana takes all five statuettes (tests/helpers.py's IRWIN_SWEEP); her
    first final throw will be 1-1-2-5-6."""
    dice, keys, final = IRWIN_SWEEP
    named = [ir.Action("name", statuette=ir.STATUETTES[int(k) - 1]) for k in keys]
    return play(config or ir.Config(), 4, dice + final, *named, *more)


def plain(text: object) -> str:
    return getattr(text, "plain", text)  # type: ignore[return-value]


def test_the_expedition_as_it_starts():
    t = p.table(ir.view(ir.new_game(ir.Config(), 4), 0), ANA_HERE, ascii_only=False)
    assert t.heading == "Irwin's Revenge — the expedition — Ana"
    assert t.columns == ("Holder", "Taken with", "2d10")
    assert [(r.name, r.cells, r.turn) for r in t.rows] == [
        ("1 Crab", ("·       ", "even + odd  ", " 50%"), True),
        ("2 Ant", ("·       ", "two below 5 ", " 16%"), False),
        ("3 Jellyfish", ("·       ", "two sum to 7", "  6%"), False),
        ("4 Eagle", ("·       ", "a 1 and a 10", "  2%"), False),
        ("5 Salamander", ("·       ", "two in a row", " 18%"), False),
    ]
    assert t.seat_columns == ("Held", "VP")
    assert [(r.name, r.cells, r.turn, r.computer) for r in t.seat_rows] == [
        ("Ana", ("0", "+0"), True, False),
        ("Ramón", ("0", "+0"), False, True),
    ]
    assert [(d.value, d.sides, d.mark) for d in t.dice] == [(0, 10, "dim")] * 2
    assert t.caption == "Ana goes first"
    assert plain(t.prompt) == "Ana: name a statuette (↑/↓ or 1–5), Enter throws 2d10."
    assert plain(t.choice).splitlines() == [
        "◂ the Crab ▸  50% first attempt (+10)",
        "curse: the rival's 1d10 comes off your points",
    ]
    assert [ir.narrate(e, ANA_HERE.names) for e in t.events] == [
        "For the first turn: Ana rolls 4, Ramón rolls 5.",
        "Ana rolled lower and goes first.",
        "Ana's turn.",
    ]


def test_the_picker_names_statuettes_by_arrow_and_by_number():
    view = ir.view(ir.new_game(ir.Config(), 4), 0)
    assert [a.statuette for a in p.options(view)] == list(ir.STATUETTES)
    moved = p.table(view, ANA_HERE, ascii_only=True, pick=6)  # round the list: the Ant
    assert [r.turn for r in moved.rows] == [False, True, False, False, False]
    assert plain(moved.choice).startswith("< the Ant >  16% first attempt (+10)")
    assert p.digit_pick(view, 4, 0) == 3 and p.digit_pick(view, 6, 2) == 2
    assert p.chosen(view, p.digit_pick(view, 5, 0)) == ir.Action("name", statuette="salamander")
    # Once the Crab is taken, 1 names nothing and the list closes up.
    crab_gone = ir.view(play(ir.Config(), 4, IRWIN_SWEEP[0], ir.Action("name", statuette="crab")), 0)
    assert [a.statuette for a in p.options(crab_gone)] == ["ant", "jellyfish", "eagle", "salamander"]
    assert p.digit_pick(crab_gone, 1, 2) == 2 and p.digit_pick(crab_gone, 2, 3) == 0


def test_the_rival_thinking_the_eagles_two_throws_and_the_salamanders_three_dice():
    dice, keys, _ = IRWIN_SWEEP
    names = [ir.Action("name", statuette=ir.STATUETTES[int(k) - 1]) for k in keys]
    crab = p.table(ir.view(play(ir.Config(), 4, dice, *names[:1]), 0), ANA_HERE, ascii_only=False)
    assert crab.heading == "Irwin's Revenge — the expedition — Ramón"
    assert plain(crab.prompt) == "Ramón is thinking…" and crab.choice == ""
    assert [(d.value, d.mark) for d in crab.dice] == [(2, "win"), (3, "win")]
    assert crab.caption == "Ana: the Crab, takes it"
    # The table speaks to the seat to act: Ana's Crab is the rival's, dimmed.
    assert crab.rows[0].cells[0] == "Ana     " and crab.rows[0].out and not crab.rows[0].lead
    eagle = p.table(ir.view(play(ir.Config(), 4, dice, *names[:5]), 0), ANA_HERE, ascii_only=False)
    assert eagle.heading == "Irwin's Revenge — the expedition — Ramón (2 throws)"
    salamander = p.table(ir.view(play(ir.Config(), 4, dice, *names[:8]), 0), ANA_HERE, ascii_only=False)
    assert salamander.columns == ("Holder", "Taken with", "3d10")  # Ramón throws three now
    assert salamander.caption == "Ana: the Salamander, takes it"


def test_the_salamander_deal_is_picked_on_one_line():
    s = sweep(ir.Config(salamander_deal="on"))
    view = ir.view(s, 0)
    assert s.stage == "salamander" and p.default_pick(view) == 0
    said = [plain(p.table(view, BOTH_HERE, ascii_only=True, pick=i).choice) for i in range(3)]
    assert said == ["< keep it >", "< renounce it: +15 >", "< cede it to the rival: +30 >"]
    t = p.table(view, BOTH_HERE, ascii_only=False)
    assert t.heading == "Irwin's Revenge — the Salamander's deal — Ana"
    assert plain(t.prompt) == "Ana: the Salamander's blessing before the final."
    assert p.chosen(view, 2) == ir.Action("salamander", statuette="cede")
    assert p.keys(ir.legal_actions(s), my_move=True) == {"choose", "turn", "digit"}


def test_the_ant_prompt_starts_at_the_best_number():
    s = sweep()
    view = ir.view(s, 0)
    assert s.stage == "ant" and p.default_pick(view) == 2  # 3, the best with all five
    t = p.table(view, BOTH_HERE, ascii_only=False, pick=2)
    assert t.heading == "Irwin's Revenge — the Ant's number — Ana"
    assert plain(t.prompt) == "Ana: the Ant's number for every throw (←/→ or 1–6)."
    assert t.choice == "◂ 3 ▸  wins 93.6% of throws"
    assert [(r.name, r.cells) for r in t.seat_rows] == [("Ana", ("5", "+61")), ("Bea", ("0", "-15"))]
    assert p.digit_pick(view, 6, 2) == 5 and p.chosen(view, 5) == ir.Action("ant", number=6)
    assert p.keys(ir.legal_actions(s), my_move=True) == {"choose", "turn", "digit"}


def test_the_final_throw_offers_the_best_change_first():
    s = sweep(ir.Config(), ir.Action("ant", number=3), ir.THROW)
    view = ir.view(s, 0)
    assert s.stage == "adjust" and s.dice == (1, 1, 2, 5, 6)
    t = p.table(view, BOTH_HERE, ascii_only=False)
    assert [(d.value, d.sides, d.mark, d.label) for d in t.dice] == [
        (1, 6, "", "1"),
        (1, 6, "", "1"),
        (2, 6, "", "2"),
        (5, 6, "", "5"),
        (6, 6, "", "6"),
    ]
    assert t.caption == "Ana: 1-1-2-5-6"
    prompt = t.prompt
    assert plain(prompt) == (
        "Ana: the Ant puts 3 on die 1 and the Eagle sets die 2 to 4 — wins (the best use)."
    )
    at = prompt.plain.index(" wins") + 1  # "wins", in bold
    assert any(span.start <= at < span.end and span.style == "bold" for span in prompt.spans)
    assert plain(t.choice) == "◂ 3-4-2-5-6 ▸  Enter confirms, x keeps the throw"
    first, second = p.options(view)[:2]
    assert first == ir.Action("change", ant=0, eagle=1, value=4) and second == ir.KEEP
    assert len(p.options(view)) == len(ir.legal_actions(s)) == 186
    kept = p.table(view, BOTH_HERE, ascii_only=False, pick=1)
    assert plain(kept.prompt) == "Ana: no change — does not win."
    assert p.keys(ir.legal_actions(s), my_move=True) == {"confirm", "turn", "digit", "keep"}
    assert p.keys(ir.legal_actions(s), my_move=False) == set()


def test_the_crab_second_throw_is_offered_with_its_keys():
    s = sweep(ir.Config(), ir.Action("ant", number=3), ir.THROW, ir.KEEP)
    view = ir.view(s, 0)
    assert s.stage == "crab"
    t = p.table(view, BOTH_HERE, ascii_only=True)
    assert t.heading == "Irwin's Revenge - the final phase - Ana"
    assert plain(t.prompt) == "Ana: the Crab's second throw: Space throws again, p passes."
    assert plain(t.choice) == "a throw wins 93.6% and costs a point"
    assert [r.cells for r in t.seat_rows] == [("5", "+60"), ("0", "-15")]  # a throw is a point
    assert p.keys(ir.legal_actions(s), my_move=True) == {"throw", "crab_pass"}
    assert p.chosen(view, 0) == ir.THROW and p.options(view) == []
    passed = ir.apply(s, ir.PASS)
    final = p.table(ir.view(passed, 1), BOTH_HERE, ascii_only=False)
    assert final.heading == "Irwin's Revenge — the final phase — Bea"
    assert plain(final.prompt) == "Bea: throw five dice (Space)."
    assert p.keys(ir.legal_actions(passed), my_move=True) == {"throw"}


def test_the_end_and_the_victory_points_sheet():
    s = sweep(ir.Config(), ir.Action("ant", number=3), ir.THROW, ir.Action("change", ant=0, eagle=1, value=4))
    t = p.table(ir.view(s, 0), BOTH_HERE, ascii_only=False)
    assert t.heading == "Irwin's Revenge — the end"
    assert t.prompt == "The game is over." and t.choice == ""
    assert [(d.value, d.mark) for d in t.dice] == [(3, "win"), (4, "win"), (2, "win"), (5, "win"), (6, "win")]
    assert t.caption == "Ana: 3-4-2-5-6, a straight"
    assert p.keys(ir.legal_actions(s), my_move=False) == set()
    res = ir.result(s)
    assert res is not None
    sheet = p.score_sheet(res, BOTH_HERE.names, {"Ana": (75, True), "Bea": (12, False)}, seed=4)
    assert sheet.plain.splitlines() == [
        "Ana wins with 75 victory points.",
        "",
        "                                          Ana       Bea",
        "+5 each statuette held                    +25        +0",
        "+10 each taken at the first attempt       +50        +0",
        "+15 winning the final phase               +15        +0",
        "−3 each statuette the rival holds          +0       -15",
        "−1 each final-phase throw                  -1        +0",
        "−x the Crab and Ant curse rolls           -14        +0",
        "Total                                     +75       -15",
        "",
        "Best ever: Ana 75 (new!)  Bea 12",
        "Seed 4",
    ]
