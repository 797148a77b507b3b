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

A session takes its share of the worker's loop and no more. Textual's
message pumps handle every message waiting before they yield, so a burst of
keys handed over at once held every other player of the worker until it was
digested (16 KB of pasted keys: 4.8 s without an echo for a neighbour,
``bench/fairness.py``). The events parsed from the keys wait here and go to
the app ``KEYS_PER_TURN`` at a time, the next ones only once the app, its
screen and the focused widget have handled the last (a loop turn between:
the neighbours' turn), and at most ``KEY_SHARE`` a second, far past a
person's typing or a mouse dragged. What is over the share (``KEYS_HELD``
waiting) is dropped, a plain run of keys once half of that waits, before it
is even parsed, and the player is told in one line.

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

from garito.core.i18n import _

from .paste import PASTE_MAX, PasteCap

log = logging.getLogger("garito.serve")

READ = 1024  # bytes of keys taken from the socket at a time: Textual parses 7-14 us a character
KEYS_PER_TURN = 32  # events handed to the app at once: the rest after its pumps have handled them
KEY_SHARE = 256  # events a second a session hands its app at most, with a burst of as many
KEYS_HELD = 256  # events waiting for the app: past it, keys are dropped
AGAIN = 0.002  # seconds before looking again whether the app has handled its keys
BUSY_MOST = 0.05  # seconds an app busy with messages of its own waits for its keys at most
DROPS_SAID = 10.0  # seconds: the player is told of dropped keys at most this often
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
        self._held: deque[Any] = deque()  # parsed events waiting for the app's turn
        self._handing: asyncio.TimerHandle | None = None
        self._busy_since: float | None = None
        self._allowance, self._allowed_at = float(KEY_SHARE), 0.0
        self.dropped = 0  # events dropped over the session's share
        self._drops_said = -DROPS_SAID
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
        self._take(message)

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
        if len(self._held) >= KEYS_HELD // 2:
            text = self._drop_plain(text)
        cuts = self._paste.cuts
        text = self._paste.cut(text)
        if self._paste.cuts and not cuts:  # said once a session
            log.warning("session %s: a paste longer than %d characters was cut", self._session, PASTE_MAX)
        if text:  # (an empty feed is the parser's end of input)
            self._parse(self._parser.feed, text)
        self._tick_when_due()
        self._hand_over()

    def _drop_plain(self, text: str) -> str:
        """With half the room for waiting events taken, the plain keys up to
        the next Escape are dropped unparsed (a character each; parsing them
        is what costs, and so many are a paste): only where
        the parser holds no sequence begun and no paste is open, so what it
        reads next is still whole."""
        if self._paste.inside or self._paste.matched or getattr(self._parser, "_timeout_time", None):
            return text
        at = text.find("\x1b")
        at = len(text) if at < 0 else at
        if at:
            self._dropped_keys(at)
        return text[at:]

    # ------------------------------------------------------------ the share

    def _take(self, event) -> None:
        """A parsed event, to wait for the app's turn (or dropped, over the share)."""
        if len(self._held) >= KEYS_HELD:
            self._dropped_keys(1)
        else:
            self._held.append(event)

    def _hand_over(self) -> None:
        """Up to ``KEYS_PER_TURN`` waiting events to the app, within the
        share, once it has handled the ones before; the rest later."""
        if self._handing is not None or not self._held:
            return
        now = self._loop.time()
        self._allowance = min(float(KEY_SHARE), self._allowance + (now - self._allowed_at) * KEY_SHARE)
        self._allowed_at = now
        if self._allowance < 1:
            self._handing = self._loop.call_later((1 - self._allowance) / KEY_SHARE, self._handed)
            return
        if self._app_busy():
            if self._busy_since is None:
                self._busy_since = now
            if now - self._busy_since < BUSY_MOST:
                self._handing = self._loop.call_later(AGAIN, self._handed)
                return
        self._busy_since = None
        for _n in range(min(KEYS_PER_TURN, int(self._allowance), len(self._held))):
            self._allowance -= 1
            super().process_message(self._held.popleft())
        if self._held:
            self._handing = self._loop.call_later(0, self._handed)

    def _handed(self) -> None:
        self._handing = None
        self._hand_over()

    def _app_busy(self) -> bool:
        """Whether the events handed over are still waiting in the app's,
        its screen's or the focused widget's queue (where a key goes)."""
        app = self._app
        pumps: list[Any] = [app]
        if app._screen_stack:
            screen = app._screen_stack[-1]
            pumps.append(screen)
            if screen.focused is not None:
                pumps.append(screen.focused)
        return any(not pump._message_queue.empty() for pump in pumps)

    def _dropped_keys(self, count: int) -> None:
        if not self.dropped:
            log.warning("session %s: keys over its share were dropped", self._session)
        self.dropped += count
        now = self._loop.time()
        if now - self._drops_said >= DROPS_SAID:
            self._drops_said = now
            self._loop.call_soon(self._tell_dropped)

    def _tell_dropped(self) -> None:
        app = self._app
        if getattr(app, "_running", False) and app._screen_stack and not getattr(app, "_exit", False):
            app.notify(
                _("Keys came faster than a game can take them: the rest were dropped."),
                title=_("Too many keys"),
                severity="warning",
                timeout=4,
            )

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
        self._hand_over()
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
        if self._handing is not None:
            self._handing.cancel()
            self._handing = None
        self._held.clear()

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write(TEARDOWN)
        self.flush()

    def close(self) -> None:
        self.disable_input()
