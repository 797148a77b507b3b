"""What the screens and commands say: whole sentences, and no verdict the
numbers cannot give."""

from __future__ import annotations

from collections import Counter

from garito.core.audit import fairness
from garito.store import history as hist
from garito.tui import cli
from garito.tui.app import GarApp

from .helpers import match_over, screen_lines, settle, sync
from .test_history import finished


def test_too_few_rolls_are_not_called_fair():
    few = fairness(8, Counter({1: 3, 2: 3, 3: 1, 4: 2, 5: 3, 6: 3, 7: 2, 8: 3}))  # 20 rolls of a d8
    assert few.rolls == 20 and few.needed == 40 and not few.testable
    assert few.fair is None
    assert few.verdict == "too few rolls to test (the test needs 40, 5 a face)"
    enough = fairness(6, Counter({f: 5 for f in range(1, 7)}))
    assert enough.testable and enough.fair and enough.verdict == "consistent with fair dice"
    loaded = fairness(6, Counter({1: 80, 2: 80, 3: 80, 4: 80, 5: 80, 6: 200}))
    assert loaded.fair is False and loaded.verdict == "unlikely from fair dice"


def test_the_audit_command_says_when_there_are_too_few_rolls(capsys):
    hist.keep(finished("gemelos", 6))  # a few rolls of two d8
    assert cli.main(["audit"]) == 0
    out = capsys.readouterr().out
    assert "Too few rolls to test (the test needs 40, 5 a face)." in out
    assert "consistent with fair dice" not in out and "chi-square" not in out


@sync
async def test_the_audit_screen_says_when_there_are_too_few_rolls():
    from garito.tui.screens.history import AuditScreen

    hist.keep(finished("gemelos", 6))
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(AuditScreen())
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "Too few rolls to test (the test needs 40, 5 a face)." in text
        assert "consistent with fair dice" not in text


@sync
async def test_decimus_match_over_is_one_sentence():
    match = finished("decimus", 2)
    app = GarApp(start=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert match_over(app)
        text = "\n".join(screen_lines(app))
        from garito.core import decimus as dx

        res = dx.result(match.state)
        won, lost = res.scores[res.winner], res.scores[1 - res.winner]
        sentence = f"wins the match, {won} to {lost}, after {res.rounds} rounds."
        assert any(sentence in line for line in text.splitlines()), text
