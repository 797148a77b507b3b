"""A Textual driver that speaks to one player's terminal over a socket,
without a thread or a pty of its own: many apps share one worker process
and its event loop (``worker``).

The socket's other end is the server's ``Terminal`` (``ssh``), which passes
the SSH channel's bytes through as it did a pty's, rate-limited and bounded.
Keys come in when the loop says the socket has some, and are parsed here as
Textual's own terminal driver parses them (``XTermParser``); the screen goes
out as the app writes it, and what the socket does not take at once waits
in a queue of whole writes. A session that lets ``QUEUE_MAX`` bytes of
screen pile up (its player reads nothing, or the server stopped reading it)
does not grow: the waiting writes are dropped, and the whole screen is
drawn again once the socket takes data again, so the terminal still ends up
showing what the app shows. Nor do the keys: a bracketed paste is let
through up to ``PASTE_MAX`` characters and cut there (``paste``).

The escape sequences that set the terminal up and put it back are Textual's
``LinuxDriver``'s, minus what needs a local tty (termios, job control
signals, in-band resize queries).
"""

from __future__ import annotations

import asyncio
import logging
import os
from codecs import getincrementaldecoder
from collections import deque
from typing import Any

from textual import events
from textual.driver import Driver
from textual.geometry import Size
from textual.messages import InBandWindowResize

from .paste import PASTE_MAX, PasteCap

log = logging.getLogger("garito.serve")

READ = 4096  # bytes of keys taken from the socket at a time (the server paces them)
QUEUE_MAX = 256 << 10  # screen waiting for the socket: past it, drop and redraw later
TICK = 0.1  # how soon a lone Escape is a key, as Textual's own driver ticks

SETUP = (
    "\x1b[?1049h"  # the alternate screen
    "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"  # mouse reports
    "\x1b[?25l"  # no cursor
    "\x1b[?1004h"  # focus in/out
    "\x1b[>25u"  # Kitty's keyboard protocol (disambiguate, all keys, text)
    "\x1b[?2026$p"  # does the terminal keep frames whole (synchronized output)?
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no line wrap
)
TEARDOWN = (
    "\x1b[?2004l"  # no bracketed paste
    "\x1b[?7h"  # line wrap
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"  # no mouse reports
    "\x1b[<u"  # Kitty's protocol off, before leaving the alternate screen
    "\x1b[?1049l"  # the main screen
    "\x1b[?25h"  # the cursor
    "\x1b[?1004l"  # no focus reports
)


class SocketDriver(Driver):
    """The app's terminal is ``channel.fd``, a non-blocking stream socket;
    ``channel`` (the worker's session) hears when the screen has all gone
    (``output_drained``) and when the socket was closed on the other side
    (``input_closed``), and may pause and resume the keys."""

    def __init__(self, app: Any, *, channel: Any, debug: bool = False, mouse: bool = True, size=None) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.channel = channel
        self.fd: int = channel.fd
        self._queue: deque[bytes] = deque()
        self._queued = 0
        self._pending: list[str] = []  # written since the last flush
        self._writing = False  # the loop watches for the socket taking more
        self._reading = False
        self._dropped = False  # frames were dropped: redraw when the socket drains
        self._sent_of_first = 0  # bytes of the queue's first write already sent
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode
        self._parser: Any = None
        self._paste = PasteCap()
        self._parser_broke = False  # said once in the log
        self._tick: asyncio.TimerHandle | None = None
        self.size = size or (80, 24)
        self.closed = False
        channel.attach(self)

    # ------------------------------------------------------------ output

    def write(self, data: str) -> None:
        self._pending.append(data)

    def flush(self) -> None:
        if not self._pending:
            return
        data = "".join(self._pending).encode("utf-8", "replace")
        self._pending.clear()
        if self.closed:
            return
        if self._queued + len(data) > QUEUE_MAX and self._queue:
            self._drop()
        self._queue.append(data)
        self._queued += len(data)
        self._send()

    def _drop(self) -> None:
        """Drop every whole write still waiting (the first may be half sent:
        it stays), and draw the whole screen again once the socket drains."""
        keep = self._queue[0] if self._half_sent else None
        self._queue.clear()
        self._queued = 0
        if keep is not None:
            self._queue.append(keep)
            self._queued = len(keep)
        self._dropped = True

    @property
    def _half_sent(self) -> bool:
        return self._sent_of_first > 0

    def _send(self) -> None:
        while self._queue:
            head = self._queue[0]
            try:
                n = os.write(self.fd, memoryview(head)[self._sent_of_first :])
            except BlockingIOError:
                break
            except OSError:
                self._close_output()
                return
            self._sent_of_first += n
            if self._sent_of_first < len(head):
                break
            self._queue.popleft()
            self._queued -= len(head)
            self._sent_of_first = 0
        if self._queue:
            if not self._writing:
                self._loop.add_writer(self.fd, self._send)
                self._writing = True
        else:
            if self._writing:
                self._loop.remove_writer(self.fd)
                self._writing = False
            if self._dropped:
                self._dropped = False
                self._redraw()
            self.channel.output_drained()

    def _redraw(self) -> None:
        """The whole screen again, every line of it: the terminal missed
        some of what was drawn. (A Resize to the same size would not do:
        Textual 8.2.8's App ignores one, and nothing is drawn.)"""
        if self._app._running and self._app._screen_stack:
            self._app.screen.refresh()

    def _close_output(self) -> None:
        if self._writing:
            self._loop.remove_writer(self.fd)
            self._writing = False
        self._queue.clear()
        self._queued = 0
        self.closed = True

    @property
    def queued(self) -> int:
        """Bytes of screen not yet taken by the socket."""
        return self._queued - self._sent_of_first

    # ------------------------------------------------------------ input

    def send_message(self, message) -> None:
        # On the app's own loop, in its own thread: no hop through a future.
        self._app.post_message(message)

    def process_message(self, message) -> None:
        # Sizes come from the SSH channel, clamped (``resize``), never from the
        # keys: Textual's parser makes a Resize of any size from a terminal's
        # in-band report (ESC[48;rows;cols;0;0t), which a client may type; a
        # few of 12000×12000 took a worker's memory and every game on it.
        if isinstance(message, (InBandWindowResize, events.Resize)):
            return
        super().process_message(message)

    def _new_parser(self) -> None:
        from textual._xterm_parser import XTermParser

        self._parser = XTermParser(False)
        self._parser.terminal_size = self.size
        self._paste = PasteCap()  # in step with the parser: a new one is in no paste

    def start_application_mode(self) -> None:
        self._new_parser()
        self.write(SETUP)
        self.flush()
        self.resize(*self.size)
        self.resume_input()

    def resize(self, width: int, height: int) -> None:
        self.size = (width, height)
        if self._parser is not None:
            self._parser.terminal_size = (width, height)
        size = Size(width, height)
        self.send_message(events.Resize(size, size))

    def pause_input(self) -> None:
        if self._reading:
            self._loop.remove_reader(self.fd)
            self._reading = False

    def resume_input(self) -> None:
        if not self._reading and not self.closed and self._parser is not None:
            self._loop.add_reader(self.fd, self._read)
            self._reading = True

    def _read(self) -> None:
        try:
            data = os.read(self.fd, READ)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.pause_input()  # the server closed it: the session is being ended
            self.channel.input_closed()
            return
        self._feed(self._decode(data))

    @property
    def _session(self) -> object:
        """The session's number, as the worker's and the server's lines say it."""
        return getattr(self.channel, "id", "?")

    def _feed(self, text: str) -> None:
        cuts = self._paste.cuts
        text = self._paste.cut(text)
        if self._paste.cuts and not cuts:  # said once a session
            log.warning("session %s: a paste longer than %d characters was cut", self._session, PASTE_MAX)
        if text:  # (an empty feed is the parser's end of input)
            self._parse(self._parser.feed, text)
        self._tick_when_due()

    def _tick_when_due(self, fed: bool = True) -> None:
        """Tick the parser when the Escape it holds times out into a key
        (Textual's parser learns the time has passed only when ticked): a
        tick set for an earlier key came too soon for an Escape typed just
        after it, which then waited for the next key. ``fed``: keys came
        (with a Textual whose parser does not say when it times out, a tick
        follows each feed, as Textual's own driver ticks)."""
        if not hasattr(self._parser, "_timeout_time"):
            if fed and self._tick is None:
                self._tick = self._loop.call_later(TICK, self._ticked)
            return
        due = self._parser._timeout_time
        if due is None:
            return
        when = due + 0.001
        if self._tick is not None:
            if self._tick.when() <= when:
                return  # it comes first, and sets the next one if the Escape is still held
            self._tick.cancel()
        self._tick = self._loop.call_at(when, self._ticked)

    def _ticked(self) -> None:
        self._tick = None
        if self._parser is None:
            return
        held = getattr(self._parser, "_timeout_time", None)
        self._parse(self._parser.tick)
        if held is not None and getattr(self._parser, "_timeout_time", None) is None:
            # The parser gave up on the Escape it held (it is a key, or the
            # start of a sequence that never came): so does the paste's cap,
            # or a marker split by the pause would be one to it alone.
            self._paste.timed_out()
        self._tick_when_due(fed=False)

    def _parse(self, step, *text: str) -> None:
        """The events of ``step`` (the parser's feed or tick), each to the
        app. Textual's parser breaks on some sequences a client may send
        (a key code past Unicode, ``ESC[1114112u``; a Kitty sub-field it does
        not read; a number too long for a key) and stays broken, raising at
        every byte after: the sequence is dropped with the rest of what came
        with it, and a new parser reads what comes next. Said once a
        session in the log, never as a traceback."""
        try:
            for event in step(*text):
                self.process_message(event)
        except Exception as error:  # noqa: BLE001 - whatever the parser raises, the keys go on
            if not self._parser_broke:
                self._parser_broke = True
                log.warning(
                    "session %s: keys Textual could not read were dropped: %s",
                    self._session,
                    type(error).__name__,
                )
            self._new_parser()

    def disable_input(self) -> None:
        self.pause_input()
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write(TEARDOWN)
        self.flush()

    def close(self) -> None:
        self.disable_input()
