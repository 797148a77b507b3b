"""Checks over every screen and state the snapshot suite reaches
(tests/walk.py), in colour and in ASCII: no text cut at 80×24, no key bar
that belongs to a screen under a dialog, nothing but ASCII with --ascii."""

from __future__ import annotations

import inspect
import re

import pytest

from . import test_snapshots
from .test_snapshots import table_server  # noqa: F401  (a fixture some states need)
from .walk import SNAPSHOTS, walk

# The seats' names in the snapshots; a name is shown as typed, in ASCII mode too.
NAMES = ("Ramón", "Lucía", "Tomás", "Inés", "Xoán")

# Cuts another branch is fixing (the Willie screen's key bar loses "Rules
# ^q Quit" at 80 columns). Remove an entry when its screen is fixed: a
# known cut that is no longer there fails the test.
KNOWN_CUTS = {
    ("test_willie_invalid_meld_marked", "KeyBar"),
    ("test_willie_ascii", "KeyBar"),
}


def _state(name, request):
    fn = getattr(test_snapshots, name)
    fixtures = {
        p: request.getfixturevalue(p) for p in inspect.signature(fn).parameters if p != "snap_compare"
    }
    return walk(name, fixtures)


def _check_cuts(state) -> None:
    known = {widget for snapshot, widget in KNOWN_CUTS if snapshot == state.name}
    cuts = [c for c in state.cuts if c.split()[0].split("#")[0] not in known]
    assert not cuts, f"{state.screen}: text cut at 80×24:\n" + "\n".join(cuts)
    still = {c.split()[0].split("#")[0] for c in state.cuts}
    assert known <= still, f"{state.name}: {known - still} no longer cut: remove it from KNOWN_CUTS"


def _without_names(text: str) -> str:
    """The text less the names (or the part of one a box leaves in sight)."""
    return re.sub(r"\w+", lambda m: "" if any(m.group() in n for n in NAMES) else m.group(), text)


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_every_screen_fits_and_shows_its_own_keys(name, request):
    state = _state(name, request)
    _check_cuts(state)
    assert not state.borrowed_keys, f"{state.screen} shows the keys of the screen under it: {state.keybar}"


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_every_screen_in_ascii_mode_is_ascii(name, request, monkeypatch):
    monkeypatch.setenv("GARITO_ASCII", "1")  # as `garito --ascii` does
    state = _state(name, request)
    wrong = sorted({c for c in _without_names("\n".join(state.lines)) if ord(c) > 127})
    lines = [line for line in state.lines if any(c in line for c in wrong)]
    assert not wrong, f"{state.screen}: {''.join(wrong)} in\n" + "\n".join(lines)
    _check_cuts(state)
