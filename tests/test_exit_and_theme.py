"""What the command leaves behind: its exit status after an error that
stopped the app (with the traceback kept in a file), a theme given for one
run (never remembered), a theme chosen in the app (remembered, whichever the
palette offers), and ``garito serve`` refused in one line where it cannot run."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

import pytest

from garito.store import settings
from garito.tui import cli
from garito.tui.app import GarApp

from .helpers import sync


def run_in_a_terminal(argv, env, timeout=60.0) -> tuple[int, str]:
    """Run the garito command in a pseudo-terminal of 80×24: (status, output)."""
    master, slave = pty.openpty()
    import fcntl
    import struct
    import termios

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    child = subprocess.Popen(
        [sys.executable, "-c", "from garito.tui.cli import entry; entry()", *argv],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    out = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        elif child.poll() is not None:
            break
    status = child.wait(timeout=10)
    os.close(master)
    return status, out.decode("utf-8", "replace")


def test_an_error_that_stops_the_app_exits_1_with_one_line_and_its_traceback_in_a_file(garito_home, tmp_path):
    # The app is made to fail at its start by a sitecustomize of the test's own.
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "from garito.tui.app import GarApp\n"
        "def boom(self):\n"
        "    raise RuntimeError('a fault planted by the test')\n"
        "GarApp.on_mount = boom\n"
    )
    env = dict(os.environ, PYTHONPATH=str(hook), TERM="xterm-256color")
    status, out = run_in_a_terminal([], env)
    assert status == 1
    crashes = list((garito_home / "crashes").glob("crash-*.log"))
    assert len(crashes) == 1
    text = crashes[0].read_text()
    assert "RuntimeError: a fault planted by the test" in text and "Traceback" in text
    assert f"garito: the app stopped on an error; what happened is in {crashes[0]}\r\n" in out
    assert "Traceback" not in out and "a fault planted" not in out


def test_a_good_run_exits_0(garito_home):
    env = dict(os.environ, TERM="xterm-256color")
    status, out = run_in_a_terminal(["--version"], env)
    assert status == 0 and "garito " in out
    assert not (garito_home / "crashes").exists()


@sync
async def test_a_theme_given_for_a_run_is_not_remembered(garito_home):
    settings.update(theme="textual-light")
    app = GarApp(theme="ansi-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "ansi-dark"
    assert settings.load()["theme"] == "textual-light"


@sync
async def test_a_theme_chosen_in_the_app_is_remembered_any_the_palette_offers(garito_home):
    app = GarApp(theme="ansi-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+t")  # Garito's own four, in turn
        await pilot.pause()
        assert settings.load()["theme"] == "ansi-light"
        app.theme = "nord"  # what the palette's theme picker does
        await pilot.pause()
    assert settings.load()["theme"] == "nord"
    again = GarApp()
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


def test_serve_without_its_extra_says_what_to_install(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "asyncssh" else real(name, *a)
    )
    assert cli.main(["serve", "--guests"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err == "garito: error: garito serve needs the SSH server's libraries: pip install 'garito[serve]'\n"
    )


def test_serve_on_a_system_without_pseudo_terminals_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(os, "name", "nt")
    assert cli.main(["serve", "--guests"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("garito: error: garito serve needs a POSIX system")
    assert err.count("\n") == 1


@pytest.mark.parametrize("theme", ["textual-dark", "nord", "gruvbox"])
def test_any_theme_the_palette_offers_may_be_given(theme):
    assert theme in GarApp().available_themes
