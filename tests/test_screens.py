"""Every screen and state the snapshot suite reaches, again in ASCII mode
(tests/walk.py): nothing but ASCII on the terminal except the names, no
text cut, no borrowed key bar. (The same states in colour are checked as
their snapshots are taken: see conftest.)"""

from __future__ import annotations

import inspect
import re

import pytest

from . import test_snapshots
from .test_snapshots import known_dice, table_server  # noqa: F401  (fixtures some states need)
from .walk import walk

SNAPSHOTS = sorted(
    name
    for name, fn in vars(test_snapshots).items()
    if name.startswith("test_") and callable(fn) and "snap_compare" in inspect.signature(fn).parameters
)

# The seats' names in the snapshots; a name is shown as typed, in ASCII mode too.
NAMES = ("Ramón", "Lucía", "Tomás", "Inés", "Xoán")


def _without_names(text: str) -> str:
    """The text less the names (or the part of one a box leaves in sight)."""
    return re.sub(r"\w+", lambda m: "" if any(m.group() in n for n in NAMES) else m.group(), text)


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_every_screen_in_ascii_mode_is_ascii(name, request, monkeypatch):
    monkeypatch.setenv("GARITO_ASCII", "1")  # as `garito --ascii` does
    fn = getattr(test_snapshots, name)
    fixtures = {
        p: request.getfixturevalue(p) for p in inspect.signature(fn).parameters if p != "snap_compare"
    }
    state = walk(name, fixtures)
    wrong = sorted({c for c in _without_names("\n".join(state.lines)) if ord(c) > 127})
    lines = [line for line in state.lines if any(c in line for c in wrong)]
    assert not wrong, f"{state.screen}: {''.join(wrong)} in\n" + "\n".join(lines)
    assert not state.problems, "\n".join(state.problems)


def test_the_keys_that_work_now_are_worked_out_once_per_state_and_moment():
    # Textual asks check_action for every binding whenever the bindings
    # refresh; a game's legal moves are asked once per state of the match.
    from types import SimpleNamespace

    from garito.tui.screens.game import GameScreen

    asked: list[tuple] = []

    def compute(*moment):
        asked.append(moment)
        return frozenset({f"keys for {moment}"})

    first, second = object(), object()
    screen = SimpleNamespace(match=SimpleNamespace(state=first), _keys_memo=None)
    keys_now = GameScreen.keys_now
    assert keys_now(screen, compute, True, False) == {"keys for (True, False)"}
    assert keys_now(screen, compute, True, False) == {"keys for (True, False)"}
    assert keys_now(screen, compute, False, False) == {"keys for (False, False)"}
    assert keys_now(screen, compute, True, False) == {"keys for (True, False)"}
    assert asked == [(True, False), (False, False)]
    screen.match.state = second  # a move: a new state, asked anew
    keys_now(screen, compute, True, False)
    assert asked[-1] == (True, False) and len(asked) == 3
