"""What the Decimus table shows, from the presenter alone (no app): the
heading, dice and caption, the games and players, the prompt, the bet bar,
the keys and the showdown and match-over sheets, for an exact match with
recorded dice. Milliseconds each; the snapshots check the same values drawn."""

from __future__ import annotations

from garito.core import decimus as dx
from garito.tui.presenters import decimus as p

ANA_HERE = p.Seats(("Ana", "Ramón"), (False, True), frozenset({0}))
# Ana (seat 0): 6-6-5-1-1; Ramón: 2-2-3-4-5.
DICE = (6, 6, 5, 1, 1, 2, 2, 3, 4, 5)


def play(*moves: str) -> dx.State:
    s = dx.new_game(dx.Config(), 2, DICE)
    for m in moves:
        s = dx.apply(s, dx.Action.parse(m))
    return s


def test_picking_dice_to_reroll():
    s = play()
    t = p.table(dx.view(s, 0), ANA_HERE, ascii_only=False, picked=frozenset({3, 4}), my_move=True)
    assert t.heading == "Decimus — round 1, to 30 — Ana rolls"
    assert [(d.value, d.mark) for d in t.dice] == [(6, ""), (6, ""), (5, ""), (1, "dim"), (1, "dim")]
    assert t.caption == "    1         2         3     4: reroll 5: reroll\n2 rerolls left"
    assert [(r.name, r.cells) for r in t.game_rows] == [
        ("Maiores", ("6-6-5 = 17    ", "")),
        ("Menores", ("1-1-5 = 7     ", "")),
        ("Un en dous", ("6 = 1+5       ", "")),
        ("Par con as", ("6s + ace      ", "")),
    ]
    assert [(r.name, r.cells, r.turn, r.computer) for r in t.seat_rows] == [
        ("Ana", ("  0", "·"), True, False),
        ("Ramón", ("  0", "·"), False, True),
    ]
    assert not isinstance(t.prompt, str)
    assert t.prompt.plain == "Ana: pick dice to reroll (1–5), then Enter; with none picked, Enter is done."
    assert t.stake is None


def test_the_reroll_limit_comes_from_the_rules():
    s = play("reroll 4 5")
    t = p.table(dx.view(s, 0), ANA_HERE, ascii_only=False, my_move=True)
    assert t.caption.endswith("\n1 reroll left")
    assert p.keys(dx.legal_actions(s), True, picked=True) == {"reroll", "reroll_any", "pick", "stand_any"}
    assert p.keys(dx.legal_actions(s), True, picked=False) == {"stand", "reroll_any", "pick", "stand_any"}
    s = play("reroll 4 5", "reroll 4")  # the second reroll makes Ana's dice final
    assert dx.to_act(s) == 1 and dx.rerolls_left(s, 0) == 0
    t = p.table(dx.view(s, 0), ANA_HERE, ascii_only=False)
    assert t.caption == "Your dice stand." and t.prompt == "Ramón is thinking…"
    assert p.keys(dx.legal_actions(s), False, picked=False) == frozenset()


def test_betting_a_game():
    s = play("stand", "stand")
    v = dx.view(s, 0)
    t = p.table(v, ANA_HERE, ascii_only=False, my_move=True)
    assert t.heading == "Decimus — round 1, to 30 — Maiores, Ana to speak"
    assert [(d.value, d.mark) for d in t.dice] == [(6, "win"), (6, "win"), (5, "win"), (1, ""), (1, "")]
    assert t.caption == "Maiores: 6-6-5 = 17"
    assert (t.game_rows[0].cells[1], t.game_rows[0].turn) == ("Ana: 0  Ramón: 0", True)
    assert not isinstance(t.prompt, str)
    assert t.prompt.plain == "Ana, Maiores: nobody has bet yet: pass or bet. Your chance to win it: 99%."
    assert t.stake == p.StakeOffer(0, "Bet", 1, dx.MAX_RAISE)
    assert p.stake_note(v, 3) == "your total would be 3"


def test_long_names_give_the_viewers_place_in_the_bets_to_you():
    # Hot seat's "Player 1: 0  Player 2: 0" is wider than the Bets column's
    # room at 80 columns, and the games' names were cut ("Un en …").
    s = play("stand", "stand")
    hot_seat = p.Seats(("Player 1", "Player 2"), (False, False), frozenset({0, 1}))
    for seat, cell in ((0, "you: 0  Player 2: 0"), (1, "Player 1: 0  you: 0")):
        t = p.table(dx.view(s, seat), hot_seat, ascii_only=False, my_move=seat == 0)
        assert t.game_rows[0].cells[1] == cell
        assert all(len(row.cells[1]) <= p.BETS_ROOM for row in t.game_rows)
    assert p.keys(dx.legal_actions(s), True, picked=False) == {"bet", "stake_by", "move:pass"}
    s = dx.apply(s, dx.Action("bet", amount=2))  # Ana bets; Ramón faces it
    assert p.keys(dx.legal_actions(s), True, picked=False) == {"raise", "stake_by", "move:see", "move:fold"}
    assert p.stake_note(dx.view(s, 1), 3) == "your total would be 5"
    t = p.table(dx.view(s, 0), ANA_HERE, ascii_only=True)
    assert t.prompt == "Ramón is thinking..." and t.stake is None


def test_the_showdown_and_its_sheet():
    s = play("stand", "stand", "bet 2", "see", "pass", "pass", "pass", "pass")
    at = next(i for i, e in enumerate(s.events) if isinstance(e, dx.Showdown))
    assert s.round == 2  # the next round is dealt; the table still shows the first
    t = p.table(dx.view(s, 0), ANA_HERE, ascii_only=False, showdown=at)
    assert t.heading == "Decimus — round 1, to 30 — the showdown"
    assert [d.value for d in t.dice] == [6, 6, 5, 1, 1] and t.caption == ""
    assert [r.cells[1] for r in t.game_rows] == ["2 pending", "1 pending", "1 pending", "+1 Ana (alone)"]
    assert t.prompt == "The showdown: the dice are on the table." and t.stake is None
    assert isinstance(t.events[-1], dx.Showdown)  # not the next round's
    sheet = p.showdown_sheet(s.events, at, ("Ana", "Ramón"), s.scores, ascii_only=False)
    assert sheet.plain == (
        "Ana          6-6-5-1-1\n"
        "Ramón        5-4-3-2-2\n\n"
        "Maiores: Ana's 6-6-5 = 17 beats Ramón's 5-4-3 = 12 (higher); Ana takes 2 points.\n"
        "Menores: Ana's 1-1-5 = 7 ties Ramón's 2-2-3 = 7 (a tie goes to the first player); "
        "Ana takes 1 point.\n"
        "Un en dous: Ramón's 4 = 2+2 beats Ana's 6 = 1+5 (the lower sum die); Ramón takes 1 point.\n"
        "Par con as: only Ana has a hand and scores 1 point at once.\n\n"
        "Ana 4 — 1 Ramón"
    )


def test_a_fold_in_the_sheet_names_its_game():
    s = play("stand", "stand", "bet 2", "fold", "pass", "pass", "pass", "pass")
    at = next(i for i, e in enumerate(s.events) if isinstance(e, dx.Showdown))
    sheet = p.showdown_sheet(s.events, at, ("Ana", "Ramón"), s.scores, ascii_only=True)
    # Ramón's own total was 0 when he folded: Ana scores 1.
    assert "Maiores: Ramón folds: Ana scores 1 point.\n" in sheet.plain
    assert sheet.plain.endswith("Ana 3 - 1 Ramón")


def test_the_match_sheet():
    res = dx.Result(winner=1, scores=(12, 31), rounds=7)
    assert p.match_sheet(res, ("Ana", "Ramón"), seed=5).plain == (
        "Ramón wins the match, 31 to 12, after 7 rounds.\n\nSeed 5"
    )


def test_the_betting_opens_on_maiores_after_the_computer_rerolled():
    # The app's round by keys: Ana's two aces rerolled into 3 and 4, then
    # Ramón rerolls all five and one; Maiores opens with Ana to speak.
    s = dx.new_game(dx.Config(), 2, DICE + (3, 4))
    for m in ("reroll 4 5", "stand", "reroll 1 2 3 4 5", "reroll 4"):
        s = dx.apply(s, dx.Action.parse(m))
    assert s.stage == "bet" and dx.GAMES[s.game] == "maiores" and s.speaker == 0
    t = p.table(dx.view(s, 0), ANA_HERE, ascii_only=False, my_move=True)
    assert t.caption == "Maiores: 6-6-5 = 17"


def test_points_pending_are_counted_in_the_players_language():
    # Spanish and Galician say more than one in the plural ("12 pendiente" was shown).
    import contextvars

    from garito.core import i18n

    seen = play("stand", "stand")
    seen = dx.apply(dx.apply(seen, dx.Action("bet", amount=2)), dx.Action.parse("see"))
    passed = play("stand", "stand", "pass", "pass")

    def pending(language: str) -> list[str]:
        i18n.use(language)  # in a context of its own (below): the test's stays as it was
        return [
            p.table(dx.view(s, 0), ANA_HERE, ascii_only=False, my_move=True).game_rows[0].cells[1]
            for s in (seen, passed)
        ]

    said = {language: contextvars.copy_context().run(pending, language) for language in ("en", "es", "gl")}
    assert said == {
        "en": ["2 pending", "1 pending"],
        "es": ["2 pendientes", "1 pendiente"],
        "gl": ["2 pendentes", "1 pendente"],
    }
