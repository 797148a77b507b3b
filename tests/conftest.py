"""Shared test set-up: every test gets its own Garito home, bots move at once."""

from __future__ import annotations

import gc
import inspect
import os
import sys
from pathlib import Path

import pytest
import textual._wait
from textual.css.stylesheet import Stylesheet

# Textual's Pilot decides the app is idle by sleeping a slice and comparing
# the process's CPU time with the wall clock: one slice (20 ms) at least per
# pause and two per key press, hundreds of thousands of slices in the suite,
# spent asleep (the snapshot suite: 78 s wall for 16 s of CPU). A 5 ms slice
# keeps the test (less than 5% of the slice's time busy means idle) and the
# pictures byte-identical: 31 s wall for 15 s of CPU. Textual is pinned; a
# version without these names fails here, not in a slower suite.
assert textual._wait.SLEEP_GRANULARITY == 1 / 50 and textual._wait.SLEEP_IDLE == 1 / 50 / 20
textual._wait.SLEEP_GRANULARITY = 0.005
textual._wait.SLEEP_IDLE = 0.005 / 20

# Every app a test starts parses the same CSS again (Textual keeps its parsed
# rules per stylesheet, so per app): a fifth of an app's start, measured
# (GarApp to the menu: 63-73 ms of CPU, 50-52 ms with this). The rules parsed
# from the same text, location, scope and CSS variables are the same rules;
# Textual already hands them out again within one app (its own cache, keyed
# the same but for the variables, which are fixed per stylesheet), so one
# worker's apps share them. A parse that fails is not kept, and fails again.
_PARSED: dict[tuple, list] = {}
_parse_rules = Stylesheet._parse_rules
assert list(inspect.signature(_parse_rules).parameters) == [
    "self",
    "css",
    "read_from",
    "is_default_rules",
    "tie_breaker",
    "scope",
]


def _parse_rules_once(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
    key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(self._variables.items()))
    rules = _PARSED.get(key)
    if rules is None:
        rules = _PARSED[key] = _parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
    return rules


Stylesheet._parse_rules = _parse_rules_once


# A worker's heap grows to hundreds of thousands of objects (the libraries,
# the suite, what each app leaves to its caches), and Python walks all of it
# at every full collection: 26 of them cost 6.1 of the 45 s of CPU of the
# snapshot and lobby tests run alone. Collections a fifteenth as often (the
# young objects' every 10,000 allocations, the full one after 100 middle
# ones): 2.0 s, 36 s in all. Cycles are still collected, only later; no
# test here checks what the collector frees.
gc.set_threshold(10_000, 50, 100)


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
    for var in ("NO_COLOR", "TEXTUAL_THEME", "GARITO_ASCII", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    # English, whatever the developer's locale; a test that asks for another
    # language sets it (and the process's language is English again after).
    monkeypatch.setenv("LANG", "C.UTF-8")
    from garito.core import i18n
    from garito.store import environ

    i18n.set_default(i18n.ENGLISH)
    # A run's notes (a damaged file's "set aside" told once at the next start)
    # belong to one app's run: a test that set a file aside and never started
    # an app must not leave its notice to whichever test this worker runs next.
    environ.notes().clear()
    yield home
    environ.notes().clear()
    i18n.set_default(i18n.ENGLISH)


@pytest.fixture
def snap_compare(snap_compare, request):
    """The snapshot plugin's ``snap_compare``, and on the screen it takes
    the checks of tests/walk.py: no text cut at 80×24, no dialog showing the
    key bar of the screen under it."""
    from .walk import checked

    return checked(snap_compare, request.node.name)


# The tests that mostly wait (on SSH clients, server processes, sockets and
# their timeouts) go first: xdist hands each worker its share in this order,
# so their waits overlap the other workers' CPU work instead of being left
# alone at the end of the run with a core idle.
WAITING = (
    "test_ssh.py",
    "test_serve_hostile.py",
    "test_serve_workers.py",
    "test_serve_lifecycle.py",
    "test_cluster.py",
    "test_cluster_ssh.py",
)


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.path.name not in WAITING)  # stable: file order otherwise


@pytest.fixture
def recorded(monkeypatch):
    """What the app writes to its terminal, frame after frame (a headless
    app that draws, as to a terminal: ``tests.terminal``)."""
    import textual.drivers.headless_driver as headless

    from .terminal import recorded_driver

    written: list[str] = []
    driver = recorded_driver()
    driver.written = written
    monkeypatch.setattr(headless, "HeadlessDriver", driver)
    return written


@pytest.fixture
def redis_server(tmp_path):
    """A real redis-server of the test's own (``tests.redis_server``), killed at its end."""
    from .redis_server import RedisServer

    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
