"""The player's own terminal: Textual's Linux driver, its input thread woken
by input alone.

Textual's input thread waits for the terminal with a tenth of a second's
timeout, to see whether the app is closing and whether a lone escape has
waited long enough to be the Esc key: ten wakings a second for as long as
the app runs, each taking the interpreter's lock from the app. Measured in
a pseudo-terminal, 1.6 ms of CPU per idle second, and 2.2 ms per key over a
match against the computer (keys at a person's pace), a sixth of the app's
whole CPU per key. This one waits for the terminal, for a pipe written as
the app stops reading, or for an escape's timeout when one is pending, and
for nothing else.

The thread's code is Textual's own with those waits, and a parser made anew
where Textual's breaks (on a key code past Unicode it raised at every key
after, and the app ended); if Textual's is not the code it was written
against, Textual's driver is used unchanged."""

from __future__ import annotations

import logging
import os
import selectors
import threading
from codecs import getincrementaldecoder

from textual._loop import loop_last
from textual._parser import ParseError
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.driver import Driver

from garito.widgets.source import source_mark, source_of

log = logging.getLogger("garito")

# LinuxDriver.run_input_thread as Textual 8.2.8 has it (``source_mark``).
EXPECTED = "1784:4662a1df"


def textuals() -> str | None:
    try:
        from textual.drivers.linux_driver import LinuxDriver
    except ImportError:  # no termios: not a POSIX terminal
        return None
    source = source_of(LinuxDriver.run_input_thread)
    return source_mark(source)


def quiet(driver: type[Driver]) -> type[Driver]:
    """The quiet driver in place of Textual's Linux driver, if Textual's
    input thread is the one it was written against; any other, as it is."""
    try:
        from textual.drivers.linux_driver import LinuxDriver
    except ImportError:
        return driver
    if driver is not LinuxDriver:
        return driver
    if textuals() != EXPECTED:
        log.warning("Textual's input thread is not the one expected: its own is kept")
        return driver
    return _quiet_driver()


class _Waking(threading.Event):
    """The driver's exit event: setting it also wakes the input thread."""

    def __init__(self) -> None:
        super().__init__()
        self.wake_fd: int | None = None

    def set(self) -> None:
        super().set()
        fd = self.wake_fd
        if fd is not None:
            try:
                os.write(fd, b"x")
            except OSError:  # the thread is gone, its pipe closed
                pass


_made: type[Driver] | None = None


def _quiet_driver() -> type[Driver]:
    global _made
    if _made is not None:
        return _made
    from textual.drivers.linux_driver import LinuxDriver

    class QuietLinuxDriver(LinuxDriver):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.exit_event = _Waking()

        def run_input_thread(self) -> None:
            """Textual's, but waiting with no timeout unless an escape is
            pending (the parser's own deadline)."""
            exit_event = self.exit_event
            assert isinstance(exit_event, _Waking)
            wake_read, wake_write = os.pipe()
            exit_event.wake_fd = wake_write
            selector = selectors.SelectSelector()
            selector.register(self.fileno, selectors.EVENT_READ)
            selector.register(wake_read, selectors.EVENT_READ)

            fileno = self.fileno
            EVENT_READ = selectors.EVENT_READ

            parser = XTermParser(self._debug)
            broke = False

            def parse(step, *text: str) -> None:
                # Textual's parser breaks for good on some sequences (a key
                # code past Unicode, ESC[1114112u): they are dropped, and a
                # new parser reads what comes next.
                nonlocal parser, broke
                try:
                    for event in step(*text):
                        self.process_message(event)
                except Exception as error:  # noqa: BLE001 - the keys go on
                    if not broke:
                        broke = True
                        log.warning("keys Textual could not read were dropped: %s", type(error).__name__)
                    parser = XTermParser(self._debug)

            decode = getincrementaldecoder("utf-8")().decode
            read = os.read

            def timeout() -> float | None:
                deadline = parser._timeout_time
                return None if deadline is None else max(0.0, deadline - get_time())

            def process_selector_events(
                selector_events: list[tuple[selectors.SelectorKey, int]],
                final: bool = False,
            ) -> bool:
                """False once the terminal is gone."""
                terminal = [(key, mask) for key, mask in selector_events if key.fd == fileno]
                for last, (_selector_key, mask) in loop_last(terminal):
                    if mask & EVENT_READ:
                        try:
                            data = read(fileno, 1024 * 4)
                        except OSError:  # EIO: the terminal hung up
                            data = b""
                        if not data:
                            return False
                        # (nothing decoded yet: half of a character, its
                        # other half to come)
                        if unicode_data := decode(data, final=final and last):
                            parse(parser.feed, unicode_data)
                parse(parser.tick)
                return True

            try:
                while not exit_event.is_set():
                    if not process_selector_events(selector.select(timeout())):
                        # The terminal is gone (its window closed, the
                        # connection dropped): Textual's thread read nothing
                        # again and again, a core's worth, for as long as the
                        # app lived. The app ends, its games saved as always.
                        self._loop.call_soon_threadsafe(self._app.exit)
                        return
                selector.unregister(self.fileno)
                process_selector_events(selector.select(0.1), final=True)
            finally:
                exit_event.wake_fd = None
                selector.close()
                os.close(wake_read)
                os.close(wake_write)
                try:
                    for _event in parser.feed(""):
                        pass
                except (EOFError, ParseError):
                    pass

    _made = QuietLinuxDriver
    return _made
