"""The player's own terminal's driver (``tui.driver``): its input thread is
woken by input, by a pending escape's deadline and by the app closing, and
by nothing else."""

from __future__ import annotations

import asyncio
import os
import pty
import selectors
import signal
import threading
import tty

import pytest
from textual import events
from textual.drivers.linux_driver import LinuxDriver

from garito.tui import driver
from garito.tui.app import GarApp

from .helpers import sync


def test_the_input_thread_is_textuals_own():
    assert driver.textuals() == driver.EXPECTED


def test_the_app_plays_on_the_quiet_driver_and_a_named_driver_is_kept(monkeypatch):
    assert issubclass(GarApp().driver_class, LinuxDriver)
    assert GarApp().driver_class is not LinuxDriver
    monkeypatch.setattr("textual.constants.DRIVER", "textual.drivers.linux_driver:LinuxDriver")
    assert GarApp().driver_class is LinuxDriver


def test_a_changed_textual_keeps_its_own_driver(monkeypatch, caplog):
    monkeypatch.setattr(driver, "EXPECTED", "0:00000000")
    assert driver.quiet(LinuxDriver) is LinuxDriver
    assert "input thread is not the one expected" in caplog.text


class Counted(selectors.SelectSelector):
    waits: list[float | None] = []

    def select(self, timeout=None):
        self.waits.append(timeout)
        return super().select(timeout)


@pytest.fixture
def terminal(monkeypatch):
    """A pseudo-terminal for the driver to read, and the signals its
    constructor takes (Ctrl+Z) given back after."""
    master, slave = pty.openpty()
    tty.setraw(slave)  # as the driver sets the player's terminal
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    monkeypatch.setattr(driver.selectors, "SelectSelector", Counted)
    Counted.waits = []
    opened = [master, slave]
    yield opened  # a test that closes one takes it out
    for sig, handler in handlers.items():
        signal.signal(sig, handler)
    for fd in set(opened) & {master, slave}:
        os.close(fd)


@sync
async def test_the_input_thread_waits_for_input_an_escape_or_the_end(terminal):
    master, slave = terminal
    received: list[events.Key] = []
    got = threading.Event()

    class Driven(driver.quiet(LinuxDriver)):  # type: ignore[misc]
        def send_message(self, message):
            if isinstance(message, events.Key):
                received.append(message)
                got.set()

    class NoApp:
        pass

    driven = Driven(NoApp(), debug=False)  # type: ignore[arg-type]
    driven.fileno = slave
    thread = threading.Thread(target=driven.run_input_thread)
    thread.start()
    try:
        os.write(master, b"a")
        assert await asyncio.to_thread(got.wait, 5)
        assert [k.key for k in received] == ["a"]
        # Idle: the thread waits without a deadline (Textual's woke ten
        # times a second to look at its parser and its exit event).
        await asyncio.sleep(0.5)
        assert Counted.waits == [None, None]
        # A lone escape is the Esc key once the parser's deadline passes:
        # the thread waits that long, then for input again.
        got.clear()
        os.write(master, b"\x1b")
        assert await asyncio.to_thread(got.wait, 5)
        assert [k.key for k in received] == ["a", "escape"]
        deadline = Counted.waits[2]
        assert deadline is not None and 0 < deadline <= 0.2
        assert Counted.waits[-1] is None
        # A character in two reads (half of ñ, then the rest) is one key,
        # and the half alone is not taken for the terminal gone.
        got.clear()
        os.write(master, "ñ".encode()[:1])
        await asyncio.sleep(0.2)
        os.write(master, "ñ".encode()[1:])
        assert await asyncio.to_thread(got.wait, 5)
        assert received[-1].character == "ñ" and thread.is_alive()
        # A sequence Textual's parser breaks on is dropped; the next key comes.
        got.clear()
        os.write(master, b"\x1b[1114112u")
        await asyncio.sleep(0.3)
        os.write(master, b"b")
        assert await asyncio.to_thread(got.wait, 5)
        assert [k.key for k in received][-1] == "b"
    finally:
        driven.exit_event.set()  # as the app closes: wakes the thread
        await asyncio.to_thread(thread.join, 5)
    assert not thread.is_alive()


@sync
async def test_a_terminal_that_hangs_up_ends_the_app(terminal):
    # Textual's thread read nothing from a closed terminal again and again
    # (a core's worth, for as long as the app lived, measured).
    master, slave = terminal
    ended = asyncio.Event()

    class NoApp:
        def exit(self):
            ended.set()

    driven = driver.quiet(LinuxDriver)(NoApp(), debug=False)  # type: ignore[arg-type]
    driven.fileno = slave
    thread = threading.Thread(target=driven.run_input_thread)
    thread.start()
    os.close(master)
    terminal.remove(master)
    await asyncio.wait_for(ended.wait(), 5)
    await asyncio.to_thread(thread.join, 5)
    assert not thread.is_alive()
