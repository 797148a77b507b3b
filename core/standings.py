"""What a finished match means for each seat, for any game: its outcome
(win, loss, draw) and the game's own records (Irwin's victory points,
Barras's net win, ...). A game says what is special about it through two
optional names in its rules module, so a new game plugs in without edits
here:

``outcome(state) -> tuple[str, ...]``  "win" | "loss" | "draw" per seat;
        by default the winner of ``result(state)`` wins and the others lose
        (no winner: all draw).
``RECORDS``  {key: (label, how)} where how is "max", "min", "sum" or
        "mean" over a player's matches; ``records(state, seat)`` gives the
        match's value for each key.
"""

from __future__ import annotations

from types import ModuleType

OUTCOMES = ("win", "loss", "draw")


def outcome(rules: ModuleType, state) -> tuple[str, ...]:
    own = getattr(rules, "outcome", None)
    if own is not None:
        return tuple(own(state))
    res = rules.result(state)
    seats = state.config.players
    winner = getattr(res, "winner", None)
    if winner is None:
        return ("draw",) * seats
    return tuple("win" if i == winner else "loss" for i in range(seats))


def records(rules: ModuleType, state, seat: int) -> dict[str, float]:
    fn = getattr(rules, "records", None)
    return dict(fn(state, seat)) if fn is not None else {}


def record_kinds(rules: ModuleType) -> dict[str, tuple[str, str]]:
    return dict(getattr(rules, "RECORDS", {}))
