"""Shared test set-up: every test gets its own Garito home, bots move at once."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


def pytest_sessionstart(session):
    """``make test-dist`` tests an installed wheel: Garito must come from
    that environment, never from the sources beside the tests."""
    venv = os.environ.get("GARITO_EXPECT_INSTALLED")
    if venv:
        import garito.core

        where = Path(garito.core.__file__).resolve()
        if (
            not where.is_relative_to(Path(venv).resolve())
            or Path(sys.prefix).resolve() != Path(venv).resolve()
        ):
            raise pytest.UsageError(f"testing {where}, not the wheel installed in {venv}")


@pytest.fixture(autouse=True)
def garito_home(tmp_path, monkeypatch):
    home = tmp_path / "garito-home"
    home.mkdir()
    # the name asked at the first start, answered: tests start at the menu
    (home / "settings.json").write_text('{"player": "Player 1"}')
    monkeypatch.setenv("GARITO_HOME", str(home))
    monkeypatch.setenv("GARITO_BOT_DELAY", "0")
    for var in ("NO_COLOR", "TEXTUAL_THEME", "GARITO_ASCII"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def snap_compare(snap_compare, request):
    """The snapshot plugin's ``snap_compare``, and on the screen it takes
    the checks of tests/walk.py: no text cut at 80×24, no dialog showing the
    key bar of the screen under it."""
    from .walk import checked

    return checked(snap_compare, request.node.name)
