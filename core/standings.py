"""What a finished match means for each seat, for any game: its outcome
(win, loss, draw) and the game's own records (Irwin's victory points,
Barras's net win, ...). A game says what is special about it through its
rules' hooks (``core.contract``), so a new game plugs in without edits here:

``outcome(state)``  "win" | "loss" | "draw" per seat; by default the winner
        of ``result(state)`` wins and the others lose (no winner: all draw).
``record_kinds``  {key: (label, how)} where how is "max", "min", "sum" or
        "mean" over a player's matches; ``records(state, seat)`` gives the
        match's value for each key.
"""

from __future__ import annotations

from typing import Any

from .contract import AnyRules, Standing

OUTCOMES: tuple[Standing, ...] = ("win", "loss", "draw")


def outcome(rules: AnyRules, state: Any) -> tuple[Standing, ...]:
    return tuple(rules.outcome(state))


def records(rules: AnyRules, state: Any, seat: int) -> dict[str, float]:
    return dict(rules.records(state, seat))


def record_kinds(rules: AnyRules) -> dict[str, tuple[str, str]]:
    return dict(rules.record_kinds)
