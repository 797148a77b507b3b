"""What the Willie table shows, from the presenter alone (no app): the
heading, players, prompts, keys and the round's score sheet and the
match's end, from the core's facts. Milliseconds each (the score sheet's
checks were a Pilot test's)."""

from __future__ import annotations

from dataclasses import replace

from garito.core import willie as wx
from garito.core.willie.rules import score_round
from garito.tui.presenters import willie as p
from garito.widgets.notice import WIDTH as NOTICE_WIDTH

NAMES = ("Ana", "Ramón")
BOX = NOTICE_WIDTH - 4  # the round box's inside
ANA_HERE = p.Seats(NAMES, (False, True), frozenset({0}))


def sheet(hands: tuple[tuple[str, ...], ...], closer: int | None, ascii_only: bool = False) -> str:
    scored = wx.RoundScored(score_round(hands, closer), hands)
    return p.score_sheet(scored, (0, 0), NAMES, width=BOX, ascii_only=ascii_only).plain


def test_the_score_sheet_shows_the_closers_penalty():
    assert sheet((("3y", "2g", "4b"), ("J",)), 0) == (
        "Ana closes with 3 points in hand.\n"
        "The lower hand wins twice the difference.\n\n"
        "Ana         3 pts   -5   closer -5\n  3y 2g 4b\n"
        "Ramón       2 pts   +2   won: 2 × 1\n  J\n\n"
        "Totals: Ana 0 · Ramón 0"
    )


def test_the_score_sheet_shows_the_empty_hand_bonus_whole():
    # the box is 48 columns inside: the bonus goes under the first part, whole
    assert sheet(((), ("5r", "6r")), 0, ascii_only=True) == (
        "Ana closes with 0 points in hand.\n"
        "The lower hand wins twice the difference.\n\n"
        "Ana         0 pts   +9   won: 2 x 2,\n"
        "                         empty hand +5\n"
        "  (no cards)\n"
        "Ramón       2 pts   +0\n  5r 6r\n\n"
        "Totals: Ana 0 · Ramón 0"
    )
    text = sheet(((), tuple("2r 3r 4r 5r 6r 7r 8r 9r 10r 2o 3o 4o 10o 10y Q K".split())), 0)
    assert "Ana         0 pts  +49   won: 2 × 22,\n                         empty hand +5\n" in text
    assert "  2r 3r 4r 5r 6r 7r 8r 9r 10r 2o 3o 4o 10o 10y Q\n  K\n" in text
    assert max(map(len, text.splitlines())) <= NOTICE_WIDTH - 4


def test_three_players_and_a_closer_tied_by_everyone():
    names = ("Ana", "Bea", "Ramón")
    hands = (("2r",), ("3r", "4r"), ("5r", "6r", "7r"))  # 1, 2 and 3 points
    scored = wx.RoundScored(score_round(hands, None), hands)
    text = p.score_sheet(scored, (5, 1, 0), names, width=BOX, ascii_only=False).plain
    assert "Ana         1 pts   +3   won: 1 + 2\n" in text
    assert text.endswith("Totals: Ana 5 · Bea 1 · Ramón 0")
    hands = (("2r",), ("2o",), ("2y",))  # Bea closes, tied by everyone: only the -5
    text = p.score_sheet(
        wx.RoundScored(score_round(hands, 1), hands), (0, 0, 0), names, width=BOX, ascii_only=False
    ).plain
    assert "Bea         1 pts   -5   closer -5\n" in text
    assert "Ana         1 pts   +0   won: 0 + 0\n" in text


def test_the_table_while_the_computer_plays():
    s = wx.new_game(wx.Config(), 4)
    v = wx.view(s, 0)
    seat = s.turn
    assert p.heading(v, NAMES, ascii_only=True) == (
        f"Willie - round 1, to 25 - {NAMES[seat]}: first card drawn - pile {s.pile_count}"
    )
    columns, rows = p.players(v, ANA_HERE)
    assert columns == ("Cards", "Pts", "Won")
    assert [(r.name, r.cells, r.turn, r.computer) for r in rows] == [
        ("Ana", (f"{len(s.hands[0]):>3}", "  0", " 0"), seat == 0, False),
        ("Ramón", (f"{len(s.hands[1]):>3}", "  0", " 0"), seat == 1, True),
    ]
    if seat == 1:
        assert p.waiting_prompt(v, ANA_HERE, ascii_only=False) == "Ramón is thinking…"
        assert p.keys(v, wx.legal_actions(s), False) == frozenset()
    else:
        assert p.keys(v, wx.legal_actions(s), True) == {"draw"}


def test_closing_is_offered_after_a_turn_with_few_points():
    s = wx.new_game(wx.Config(), 4)
    seat = s.turn
    hands = [s.hands[0], s.hands[1]]
    hands[seat] = ("2r", "3r", "4r", "9b")
    s = wx.apply(replace(s, hands=tuple(hands)), wx.meld([["2r", "3r", "4r"]]))
    v = wx.view(s, seat)
    seats = p.Seats(NAMES, (False, False), frozenset({0, 1}))
    assert p.keys(v, wx.legal_actions(s), True) == {"close", "carry_on"}
    prompt = p.waiting_prompt(v, seats, ascii_only=False)
    assert not isinstance(prompt, str)
    assert prompt.plain == f"{NAMES[seat]}, you hold 1 point: c closes the round, Enter plays on."
    assert p.heading(v, NAMES, ascii_only=False).endswith(f"{NAMES[seat]} may close — pile {s.pile_count}")
    ended = wx.apply(s, wx.CLOSE)
    frozen = wx.ended_round(s, wx.CLOSE, ended)
    assert frozen is not None and frozen.stage == "over" and frozen.hands == s.hands
    scored = wx.round_scored(s, ended)
    assert scored is not None and frozen.events[-1] == scored
    assert frozen.scores == tuple(a + b for a, b in zip(s.scores, scored.score.scores))
    # the round's winner counted in Won already, as in Pts (it lagged a round)
    assert frozen.rounds_won == ended.rounds_won
    assert sum(frozen.rounds_won) > sum(s.rounds_won)
    fv = wx.view(frozen, seat)
    assert p.heading(fv, NAMES, ascii_only=False, ended=True).endswith(
        "the round is over — pile " + str(s.pile_count)
    )
    assert p.waiting_prompt(fv, seats, ascii_only=False, ended=True) == (
        "The round is over: the cards are as it ended."
    )


def test_the_match_sheet():
    res = wx.Result(winner=None, scores=(30, 30), rounds=4)
    assert p.match_sheet(res, wx.Bonuses((10, 5)), NAMES, seed=3).plain == (
        "The match is drawn.\n\n"
        "Ana           30  (bonus +10)\n"
        "Ramón         30  (bonus +5)\n\n"
        "After 4 rounds.  Seed 3"
    )
