"""``garito serve``: Garito over SSH, for players with a plain ``ssh`` client,
made to be left open to strangers.

Each connection gets the Garito app in a terminal of its own: an app in a
worker process (``worker``: a few of them host every player's app, each on
a Textual driver that draws on its session's socket), the client's terminal
size (resizes forwarded), bytes passed through untouched (no line editing
in between), the locale the client sent kept for the app. Each player's
name has its own Garito home (saves, settings, history) under the server's
data directory (``homes``). A connection can only play: one terminal
session, no command, no shell, no port, agent or X11 forwarding, no file
transfer.

Who comes in: with ``--authorized-keys``, a key logs in only as the name(s)
it is bound to (``keys``); with ``--guests``, nobody is asked for anything and
the SSH user name is the player's name. Either way a name is 1 to 12
printable characters (``garito.core.identity``). The host key is made once and
kept under the data directory.

Nothing a client does can stall the others or fill the host:

* the server's loop never waits on a client: the app's end is non-blocking; keys
  go to the app no faster than ``KEY_RATE``; a session keeps at most
  ``IN_HIGH`` bytes of keys the app has not taken (then it stops reading
  the channel, and SSH's window stops the client) and ``OUT_HIGH`` bytes of
  screen the client has not taken (then it stops reading the app, whose
  writes wait); a client that takes nothing for ``STALL`` seconds is let go;
* terminal sizes are clamped to ``MAX_COLS`` x ``MAX_ROWS`` at the start and
  on every resize, and a terminal type that is not a plain name is replaced;
* ``Limits``: connections at once (a refusal never frees a place), per
  address, apps running, a grace period to log in and to open the terminal,
  an idle time without a key, and each worker's address space;
* the door (OpenSSH's MaxStartups and PerSourcePenalties, made for a game):
  new connections from one address are let in at ``ARRIVALS`` a second
  (a burst of the per-address limit, at least ``ARRIVAL_BURST``), the rest
  closed before a word of SSH, so nobody makes the host do key exchanges
  by the hundred; connections not logged in yet have a budget of their own,
  half the total (``STARTUPS`` at least): past ``STARTUPS`` of them, or with
  every place taken, a new one first takes the place of the oldest one with
  no banner after ``STALLED`` seconds (a real client sends its own at once;
  one that drips it a byte at a time has not), or else with no key exchange
  after ``KEX_STALLED``, or else the oldest of the address holding most of
  the budget (when it holds more than the newcomer's), and is otherwise,
  in the budget's last quarter, dropped at random, more surely the fuller
  the budget; a connection is in the budget until its game starts (logged
  in with no terminal is not playing); one with no key exchange after
  ``PRE_AUTH`` seconds, or no terminal ``NO_TERMINAL`` seconds after its
  login, is closed, and so is one whose session ended or was refused (a
  connection has one session); addresses are counted as the tables count
  them (an IPv6 /64 is one);
* the apps live in worker processes (``pool``, ``worker``), each started in
  a session of its own, signals back at their defaults, with the kernel's
  parent-death signal (``child``); when a connection ends its app is asked
  to quit, then dropped; what one app may take of its worker (time, screen,
  memory) is bounded there;
* SIGTERM or SIGINT stop the server: no new connection, the tables closed
  (the record of every match still being played kept in its players' homes),
  every app ended, the tables' socket folder removed, a last log line.

The layers are kept apart: limits and identity live in ``Serve`` and
``_Connection``, the buffering and flow control in ``Terminal``, and the
app behind a terminal is a ``pool.WorkerApp`` (a socket to its worker's
driver) or, for another program or to be measured against
(``bench/serve_designs.py``), a ``_PtyApp`` (a child process on a pty):
the same face, a non-blocking descriptor, a size, a hang-up, an exit.

The shared tables live here too (``tables.TableServer``), on a local socket
in a private folder; each app is told where (``GARITO_TABLES``) and given a
token that says who it is (``GARITO_TABLES_TOKEN``: the login name behind
it), so its menu offers "Shared tables".
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import random
import re
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncssh

from garito.core.identity import problem
from garito.core.names import printable
from garito.store.ratings import Ratings

from . import child as child_setup
from .homes import home_for
from .keys import KeyBook
from .logs import PrintableLog, log_to_stderr  # noqa: F401 - PrintableLog: the server's log format
from .pool import Pool, WorkerApp
from .store import Allowance
from .tables import TableServer, origin_of

log = logging.getLogger("garito.serve")

# The app, started through the child's own set-up (``child.main``); given a
# command (``Serve(app=...)``), that set-up becomes the command instead.
CHILD = [sys.executable, "-c", "from garito.server.child import main; main()"]
WORKER = [sys.executable, "-c", "from garito.server.worker import main; main()"]
DESIGNS = ("workers", "fork", "pty")  # how apps are hosted: see bench/serve_designs.py
PASSED = ("PATH", "LANG", "LC_ALL", "PYTHONPATH")  # the server's own environment an app process gets

MAX_COLS, MAX_ROWS = 500, 200  # a 4K screen in a 7-pixel font; the app at this size: see README
IN_HIGH, IN_LOW = 64 << 10, 16 << 10  # keys waiting for the app: stop reading the client / read again
# Keys reach the app's process at most this fast. In a worker the driver
# hands them on at the session's share and drops what is over it
# (``driver.KEY_SHARE``), parsed: so a megabyte pasted by mistake is gone in a
# minute, where at 1 KB/s it would be typed for a quarter of an hour,
# and no flood grows the app. A person types tens of bytes a second; a
# mouse dragged across the terminal sends about a kilobyte.
KEY_RATE, KEY_BURST = 16 << 10, 16 << 10
OUT_HIGH, OUT_LOW = 256 << 10, 64 << 10  # screen waiting for the client: stop reading the app / again
OUT_MAX = 1 << 20  # screen waiting beyond any pause: the client is let go
STALL = 60.0  # seconds a client may take nothing of its screen
WINDOW = 256 << 10  # SSH channel window: what a client may send before it must wait for us
KILL_AFTER = 3.0  # seconds an app has to end after its hang-up
ROAM_WAIT = 5.0  # seconds a finished match waits to reach the cluster's copy of its players' homes
# What the server offers, strongest first (README, "Over SSH"): a hybrid
# post-quantum exchange and X25519 (every OpenSSH since 6.5); no finite-field
# groups (a group18 exchange costs the server 12 ms of its loop against a
# client that computes nothing: DHEat), no SHA-1, no NIST curves. Authenticated ciphers first; MACs only
# encrypt-then-MAC with 128-bit tags or more. The host key is Ed25519.
KEX_ALGS = [
    "mlkem768x25519-sha256",
    "curve25519-sha256",
    "curve25519-sha256@libssh.org",
]
CIPHERS = [
    "chacha20-poly1305@openssh.com",
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes192-ctr",
    "aes128-ctr",
]
MACS = ["hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com", "umac-128-etm@openssh.com"]
ARRIVALS = 5.0  # new connections a second from one address, once its burst is spent
ARRIVAL_BURST = 10  # at least: the per-address limit, if larger
STARTUPS = 10  # connections not logged in yet past which a newcomer may be dropped (OpenSSH's default too)
STALLED = 0.25  # seconds without the client's banner after which a connection may give its place away
KEX_STALLED = 4.0  # seconds without a key exchange after which it may (a real one takes a few round trips)
PRE_AUTH = 10.0  # seconds a connection has for its key exchange
NO_TERMINAL = 10.0  # seconds a logged-in connection has to start its game (or the login grace, if shorter)
TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
DEFAULT_TERM = "xterm-256color"
LOCALE = re.compile(r"[A-Za-z]{1,8}(_[A-Za-z0-9]{1,8})?([.][A-Za-z0-9-]{1,16})?(@[A-Za-z0-9]{1,16})?")
# What the app set on the client's terminal, undone when it is ended rather
# than quitting: the main screen, no mouse reports, no bracketed paste, the cursor.
RESTORE = (
    b"".join(b"\x1b[?%dl" % mode for mode in (1049, 1000, 1002, 1003, 1006, 1015, 2004, 1004))
    + b"\x1b[?25h\x1b[0m"
)


@dataclass(frozen=True)
class Limits:
    """What one server lets in at once; see ``garito serve --help``. The
    budget of connections not logged in yet is half ``max_connections``
    (``STARTUPS`` at least)."""

    max_connections: int = 50  # SSH connections, logged in or not
    max_players: int = 40  # apps running
    per_address: int = 8  # connections from one address
    login_grace: float = 30.0  # seconds to log in, and then to open the terminal
    idle: float = 1800.0  # seconds without a key before an app is ended
    app_memory: int = 512 << 20  # bytes of address space a process of apps may map (a worker: all its apps)
    workers: int = os.cpu_count() or 1  # worker processes the apps are spread over at least (a core each)
    per_worker: int = 24  # apps a worker holds at most (a full garbage collection stops them all)
    warm: int = 1  # workers kept started while nobody plays, for the next to come (pool)


def host_key(folder: Path) -> asyncssh.SSHKey:
    """The server's host key, made the first time and kept (mode 0600)."""
    path = folder / "ssh_host_ed25519_key"
    if path.exists():
        return asyncssh.read_private_key(str(path))
    folder.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    return key


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """A terminal size the app can be given: 0 (unknown) is 80x24, and no
    side beyond ``MAX_COLS`` x ``MAX_ROWS`` (the app's memory grows with it)."""
    width = width if isinstance(width, int) and width > 0 else 80
    height = height if isinstance(height, int) and height > 0 else 24
    return min(width, MAX_COLS), min(height, MAX_ROWS)


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def terminal_type(term: object) -> str:
    """The client's TERM if it is a plain terminal name, else the default."""
    if isinstance(term, str) and TERM.fullmatch(term):
        return term
    return DEFAULT_TERM


def client_locale(env: object) -> str:
    """The locale the client's SSH sent (``LC_ALL``, else ``LANG``: ssh's
    usual ``SendEnv LANG LC_*``) if it is a plain locale name, else ""."""
    if not isinstance(env, Mapping):
        return ""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if isinstance(value, str) and LOCALE.fullmatch(value):
            return value
    return ""


def shown(text: object, limit: int = 40) -> str:
    """Anything a client sent, fit for the log: printable, and short."""
    return printable(str(text))[:limit]


# ------------------------------------------------------------------ the app


class _PtyApp:
    """The app in a child process on a pty: the master end non-blocking.
    ``Terminal`` reads and writes ``fd`` as the loop says it can. (The
    design before workers, kept to serve another program, ``Serve(app=...)``,
    and to be measured against them: ``bench/serve_designs.py``.)"""

    def __init__(self, argv: list[str], base_env: dict[str, str]) -> None:
        self.argv, self.base_env = argv, base_env
        self.fd = -1
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, env: dict[str, str], width: int, height: int) -> None:
        """Start it; on any failure everything opened here is closed again."""
        master, slave = os.openpty()
        try:
            _set_size(slave, width, height)
            os.set_blocking(master, False)
            self.process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env={**self.base_env, **env},
                start_new_session=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.fd = master

    @property
    def pid(self) -> int:
        return self.process.pid if self.process is not None else 0

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def wait(self) -> int:
        assert self.process is not None
        return await self.process.wait()

    def resize(self, width: int, height: int) -> None:
        if self.fd >= 0:
            _set_size(self.fd, width, height)  # the app's process group gets SIGWINCH

    def signal(self, sig: int) -> None:
        """To the app's whole process group (it leads a session of its own)."""
        if self.running:
            try:
                os.killpg(self.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


# ------------------------------------------------------------------ a session


class Terminal(asyncssh.SSHServerSession):
    """One player's terminal: the bytes between the SSH channel and the app,
    bounded both ways, and the app's life tied to the channel's."""

    def __init__(self, serve: Serve, connection: _Connection) -> None:
        self.serve, self.connection = serve, connection
        self.chan: asyncssh.SSHServerChannel | None = None
        self.user = ""
        self.term: str | None = None  # None: no pty was asked for
        self.size = (80, 24)
        self.command: str | None = None
        self.locale = ""  # the client's, if it sent one (LANG, LC_ALL): for the app to speak it
        self.app = serve.new_app()
        self.keys_in = bytearray()  # keys the app has not read yet
        self.paused = False  # not reading the channel: the app is behind
        self.behind = False  # paused since the app last caught up (for one log line each way)
        self.stalled_at: float | None = None  # when the client stopped taking its screen
        self.last_key = time.monotonic()
        self.ending = ""  # why the session is being ended, once it is
        self.finished = asyncio.get_running_loop().create_future()
        self._writer_on = self._reader_on = False
        self.allowance, self._allowed_at = float(KEY_BURST), time.monotonic()  # the keys' rate limit
        self._refill: asyncio.TimerHandle | None = None
        self._timers: list[asyncio.TimerHandle] = []
        self._task: asyncio.Task | None = None
        self.started = False  # the client asked for its shell (or a command)
        self._clamp_said = False

    # -------------------------------------------------- asyncssh's calls

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan
        self.user = chan.get_extra_info("username") or ""
        chan.set_write_buffer_limits(high=OUT_HIGH, low=OUT_LOW)

    def pty_requested(self, term_type: str, term_size: tuple, term_modes) -> bool:
        term = terminal_type(term_type)
        if term != term_type:
            log.warning("%s: terminal type %r replaced by %s", self.who, shown(term_type), term)
        width, height = clamp_size(*term_size[:2])
        if (width, height) != tuple(term_size[:2]):
            log.warning("%s: terminal size %sx%s clamped to %dx%d", self.who, *term_size[:2], width, height)
        self.term, self.size = term, (width, height)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # refused with a word once the session starts
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no sftp, no anything

    def session_started(self) -> None:
        self.started = True
        self.locale = client_locale(self.chan.get_environment() if self.chan is not None else {})
        if self.command is not None or self.term is None:
            self._refuse("Garito is played in a terminal: connect with ssh -t, no command.")
            return
        why = self.serve._take_place(self)
        if why:
            log.warning("%s turned away: %s", self.who, why)
            self._refuse(f"Garito: {why}. Try again in a while.")
            return
        self.serve.unauthed.pop(self.connection, None)  # playing: out of the budget of those not yet
        self._task = asyncio.create_task(self._run())

    def data_received(self, data: bytes, datatype) -> None:
        self.last_key = time.monotonic()
        if self.ending or datatype is not None:
            return
        self.keys_in += data
        self._feed()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        size = clamp_size(width, height)
        if size != (width, height) and not self._clamp_said:
            self._clamp_said = True  # once a session: a client may ask thousands a second
            log.warning("%s: terminal size %sx%s clamped to %dx%d", self.who, width, height, *size)
        self.size = size
        try:
            self.app.resize(*size)
        except OSError:
            pass

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        pass  # a client does not signal the app

    def eof_received(self) -> bool:
        self.end("the client closed its input")
        return True

    def pause_writing(self) -> None:
        """The client has not taken ``OUT_HIGH`` bytes of its screen: the app
        waits (its pty is not read) until it has."""
        self._stop_reading_app()
        if self.stalled_at is None:
            self.stalled_at = time.monotonic()
            self._later(STALL, self._check_stall)

    def resume_writing(self) -> None:
        self.stalled_at = None
        self._start_reading_app()

    def connection_lost(self, exc: Exception | None) -> None:
        self.chan = None
        self.end("the connection closed")

    # -------------------------------------------------- the app

    @property
    def who(self) -> str:
        return f"{shown(self.user) or '?'} ({self.connection.peer})"

    async def _run(self) -> None:
        user = self.user
        token = self.serve.tables.admit(user, self.connection.address)
        status = None
        keeping: asyncio.Task | None = None
        home: Path | None = None
        try:
            try:
                home = home_for(self.serve.home, user)
                home.mkdir(mode=0o700, parents=True, exist_ok=True)
                if self.serve.roaming is not None:  # what they did on other hosts, here first
                    await self.serve.roaming.arrive(user, home)
                    keeping = asyncio.create_task(self.serve.roaming.keep(user, home))
                env = self.serve.session_env(
                    TERM=self.term or DEFAULT_TERM,
                    GARITO_HOME=str(home),
                    GARITO_PLAYER=user,
                    GARITO_TABLES=self.serve.tables_path,
                    GARITO_TABLES_TOKEN=token,
                    GARITO_LOCALE=self.locale,
                )
                await self.app.start(env, *self.size)
            except Exception as e:  # too many open files, no memory, a full disk: this session only
                log.warning("%s: the app could not start: %s", self.who, e)
                self._refuse("Garito could not start here just now. Try again in a while.")
                return
            # A worker's lines about a session name it by its number only.
            session = getattr(self.app, "id", None)
            where = f"pid {self.app.pid}" + (f", session {session}" if session else "")
            log.info("%s plays (%s, %dx%d)", self.who, where, *self.size)
            if self.ending:  # the connection went while the app started
                self._hang_up()
            self._start_reading_app()
            self._feed()
            self._later(self.serve.limits.idle, self._check_idle)
            status = await self.app.wait()
            self.ending = self.ending or getattr(self.app, "why", "")  # a worker's own reason
        finally:
            self.serve.tables.dismiss(token)
            if keeping is not None:
                keeping.cancel()
            if self.serve.roaming is not None and home is not None:  # their last changes, to the cluster
                self.serve.roaming.leave(user, home)
            self._stop_reading_app()
            self._stop_writing_app()
            if self._refill is not None:
                self._refill.cancel()
            self.app.close()
            for timer in self._timers:
                timer.cancel()
            self.serve._give_place(self)
            if status is not None:
                why = f", {self.ending}" if self.ending else ""
                said = signal.Signals(-status).name if status < 0 else status
                log.info("%s left (status %s%s)", self.who, said, why)
                self._close(0 if status == 0 and not self.ending else 1)
            if not self.finished.done():
                self.finished.set_result(None)
            self._end_connection()

    def end(self, why: str) -> None:
        """End the app (hang-up, then kill) and then the session."""
        if self.ending:
            return
        self.ending = why
        if self.app.running:
            self._hang_up()
        elif self._task is None:  # never started: nothing to wait for
            self._close(1)
            if not self.finished.done():
                self.finished.set_result(None)

    def _hang_up(self) -> None:
        """The app's terminal hangs up; an app still there after
        ``KILL_AFTER`` seconds is killed."""
        self.app.signal(signal.SIGHUP)
        self._later(KILL_AFTER, lambda: self.app.signal(signal.SIGKILL))

    def _refuse(self, message: str) -> None:
        if self.chan is not None:
            self.chan.write_stderr((message + "\r\n").encode())
        self.ending = self.ending or "refused"
        self._close(1)
        if not self.finished.done():
            self.finished.set_result(None)
        self._end_connection()

    def _end_connection(self) -> None:
        """A connection has one session: once it has ended (or was refused),
        the connection goes too, a moment later (the exit status sent)
        rather than holding a place with nothing in it."""
        conn = self.connection.conn
        if conn is not None:
            asyncio.get_running_loop().call_later(1.0, conn.close)

    def _close(self, status: int) -> None:
        chan, self.chan = self.chan, None
        if chan is None:
            return
        if self.ending and self.ending not in (
            "refused",
            "the connection closed",
            "the client closed its input",
        ):
            chan.write(RESTORE + f"\r\nGarito: {self.ending}.\r\n".encode())
        chan.exit(status)

    def _later(self, delay: float, callback) -> None:
        self._timers.append(asyncio.get_running_loop().call_later(delay, callback))

    def _check_idle(self) -> None:
        idle = time.monotonic() - self.last_key
        limit = self.serve.limits.idle
        if idle >= limit:
            log.info("%s: no key for %.0f s", self.who, idle)
            self.end(f"no key for {limit / 60:.0f} minutes: the game is saved, come back any time")
        elif not self.ending:
            self._later(limit - idle, self._check_idle)

    def _check_stall(self) -> None:
        if self.stalled_at is not None and time.monotonic() - self.stalled_at >= STALL:
            log.warning("%s took nothing of its screen for %.0f s: let go", self.who, STALL)
            self.end("the screen was not read")
        elif self.stalled_at is not None:
            self._later(STALL - (time.monotonic() - self.stalled_at), self._check_stall)

    # -------------------------------------------------- bytes both ways

    def _start_reading_app(self) -> None:
        if not self._reader_on and self.app.fd >= 0 and self.stalled_at is None:
            asyncio.get_running_loop().add_reader(self.app.fd, self._from_app)
            self._reader_on = True

    def _stop_reading_app(self) -> None:
        if self._reader_on:
            asyncio.get_running_loop().remove_reader(self.app.fd)
            self._reader_on = False

    def _from_app(self) -> None:
        try:
            data = os.read(self.app.fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""  # EIO: the app has closed its terminal
        if not data:
            self._stop_reading_app()  # its exit is seen by _run
            return
        if self.chan is None:
            return  # nobody to show it to: read and dropped while the app ends
        self.chan.write(data)
        if self.chan is not None and self.chan.get_write_buffer_size() > OUT_MAX:
            log.warning("%s left %d bytes of its screen unread: let go", self.who, OUT_MAX)
            self.end("the screen was not read")

    def _feed(self) -> None:
        """Keys to the app, as fast as it can be expected to take them
        (``KEY_RATE``, with a burst of ``KEY_BURST``) and its pty takes
        them; the rest waits (the loop says when the pty takes more, a timer
        when the rate allows more), within ``IN_HIGH``."""
        fd = self.app.fd
        if fd >= 0:
            self._allow()
            while self.keys_in and self.allowance >= 1:
                try:
                    n = os.write(fd, self.keys_in[: min(65536, int(self.allowance))])
                except BlockingIOError:
                    break
                except OSError:
                    self.keys_in.clear()  # the app is gone
                    break
                del self.keys_in[:n]
                self.allowance -= n
            if self.keys_in and self.allowance >= 1:
                self._start_writing_app()  # the pty is full: when it takes more
            else:
                self._stop_writing_app()
                if self.keys_in and self._refill is None:  # the rate: when it allows more
                    wait = min(1.0, (min(len(self.keys_in), 4096) - self.allowance) / KEY_RATE)
                    self._refill = asyncio.get_running_loop().call_later(max(0.01, wait), self._refilled)
        waiting = len(self.keys_in)
        if not self.paused and waiting > IN_HIGH and self.chan is not None:
            self.paused = True
            self.chan.pause_reading()
            if not self.behind:
                self.behind = True
                log.info(
                    "%s types faster than the app reads: %d bytes waiting, reading paused", self.who, waiting
                )
        elif self.paused and waiting <= IN_LOW:
            self.paused = False
            # resumed on the next turn of the loop: asyncssh hands over what
            # it kept at once, which must not come back into this call
            asyncio.get_running_loop().call_soon(self._resume_reading)
        if self.behind and not waiting:
            self.behind = False
            log.info("%s: the app has read every key", self.who)

    def _allow(self) -> None:
        now = time.monotonic()
        self.allowance = min(KEY_BURST, self.allowance + (now - self._allowed_at) * KEY_RATE)
        self._allowed_at = now

    def _refilled(self) -> None:
        self._refill = None
        self._feed()

    def _resume_reading(self) -> None:
        if self.chan is not None and not self.paused and not self.ending:
            self.chan.resume_reading()

    def _start_writing_app(self) -> None:
        if not self._writer_on:
            asyncio.get_running_loop().add_writer(self.app.fd, self._feed)
            self._writer_on = True

    def _stop_writing_app(self) -> None:
        if self._writer_on:
            asyncio.get_running_loop().remove_writer(self.app.fd)
            self._writer_on = False


# ------------------------------------------------------------------ a connection


class _Connection(asyncssh.SSHServer):
    def __init__(self, serve: Serve) -> None:
        self.serve = serve
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address, self.peer, self.origin = "", "?", ""
        self.counted = False  # holds one of the server's places (and one of its address's)
        self.sessions = 0
        self.terminal: Terminal | None = None
        self.user = ""
        self.keyed = False  # its key exchange is done (it has asked to log in)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address, self.peer = str(peer[0]), f"{peer[0]}:{peer[1]}"
        self.origin = origin_of(self.address)  # an IPv6 /64 is one address, as the tables count it
        why = self.serve._take_connection(self)
        if why:
            self.serve._refused(self, why)
            conn.abort()  # no SSH word yet: a disconnect message would read as a broken banner
            return
        self.counted = True
        deadline = min(PRE_AUTH, self.serve.limits.login_grace)
        self._deadline = asyncio.get_running_loop().call_later(deadline, self._no_key_exchange)
        log.info("connection from %s (%d open)", self.peer, len(self.serve.connections))

    def spoke(self) -> bool:
        """Whether the client's banner has come (its first line)."""
        return self.conn is not None and self.conn.get_extra_info("client_version") is not None

    def _no_key_exchange(self) -> None:
        if not self.keyed and self.counted:
            log.info("%s: no key exchange in time: closed", self.peer)
            self.let_go()

    def let_go(self) -> None:
        """Closed at once, its place given back now (not when the loop
        next hears it gone)."""
        if self.counted:
            self.counted = False
            self.serve._give_connection(self)
        if self._deadline is not None:
            self._deadline.cancel()
        if self.conn is not None:
            self.conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        if not self.counted:
            return  # a refused connection held no place: it frees none
        self.counted = False
        self.serve._give_connection(self)
        said = f": {shown(exc, 80)}" if exc else ""
        log.info("connection from %s closed%s (%d open)", self.peer, said, len(self.serve.connections))

    def begin_auth(self, username: str) -> bool:
        self.keyed = True
        why = problem(username)
        if why is not None:
            log.warning("%s: login name %r refused: %s", self.peer, shown(username), why)
            assert self.conn is not None  # a connection made is asked for its login
            try:
                self.conn.send_auth_banner(f"Garito: {why}.\r\n")
            except OSError:
                pass
            return True  # and no way to log in with it: validate_public_key says no
        return not self.serve.guests  # guests: no authentication at all

    def auth_completed(self) -> None:
        assert self.conn is not None
        self.user = self.conn.get_extra_info("username") or ""
        log.info("%s logged in as %s", self.peer, shown(self.user))
        # Logged in: the game must start soon too (until it does, the
        # connection stays in the budget of those not playing yet).
        grace = min(NO_TERMINAL, self.serve.limits.login_grace)
        asyncio.get_running_loop().call_later(grace, self._no_terminal)

    def _no_terminal(self) -> None:
        # A session channel opened and left without a shell asked for holds
        # the connection's place as surely as no channel at all.
        started = self.terminal is not None and self.terminal.started
        if not started and self.counted and self.conn is not None:
            log.info("%s opened no terminal in time: closed", self.peer)
            self.let_go()

    def public_key_auth_supported(self) -> bool:
        return not self.serve.guests

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if problem(username) is not None or self.serve.keys is None:
            return False
        ok = self.serve.keys.allows(username, key, self.address, self.address)
        if not ok:
            log.info("%s: a key not bound to %s", self.peer, shown(username))
        return ok

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def session_requested(self):
        if self.sessions:
            log.warning("%s: a second session on one connection refused", self.peer)
            return False
        self.sessions += 1
        self.terminal = Terminal(self.serve, self)
        return self.terminal


# ------------------------------------------------------------------ the server


class Serve:
    def __init__(
        self,
        home: Path,
        *,
        authorized_keys: str | None = None,
        guests: bool = False,
        app: list[str] | None = None,
        design: str = "workers",
        redis: str | None = None,
        **limits,
    ) -> None:
        self.home = home
        self.guests = guests
        self.keys = KeyBook(authorized_keys) if authorized_keys and not guests else None
        self.limits = Limits(**limits)
        self.argv = CHILD + list(app or ())
        # Another program (tests, benches) is served on a pty of its own.
        self.design = "pty" if app else design
        if self.design not in DESIGNS:
            raise ValueError(f"design: one of {', '.join(DESIGNS)}")
        self.pool: Pool | None = None
        self.connections: set[_Connection] = set()
        self.unauthed: dict[_Connection, float] = {}  # not logged in yet -> when it came (monotonic)
        self.arrivals = Allowance(max(ARRIVAL_BURST, self.limits.per_address), 1 / ARRIVALS)
        self.by_address: dict[str, int] = {}
        self._refusals: dict[str, float] = {}  # address -> when its last refusal was said
        self.turned_away = 0  # connections refused at the door, since the start
        self.terminals: set[Terminal] = set()
        self.server: asyncssh.SSHAcceptor | None = None
        # Every finished shared match rated, kept beside the players' homes;
        # a cluster's are Redis's, mirrored in each host's memory.
        self.ratings = Ratings(home / "ratings" if redis is None else None)
        # One host keeps its tables in its memory; with a Redis, every host
        # of the cluster reads and writes the same records.
        store = None
        self.roaming = None  # a cluster's: each player's home follows them to every host
        if redis is not None:
            from .redis_store import RedisStore
            from .roaming import Roaming

            store = RedisStore(redis)
            self.roaming = Roaming(RedisStore(redis))  # a connection of its own: it outlasts the tables'
        self.redis = redis
        self.tables = TableServer(
            tokens=True, keep=self._keep, record=self._record, ratings=self.ratings, store=store
        )
        self._folder = ""
        self.tables_path = ""
        self._loop: asyncio.AbstractEventLoop | None = None

    # -------------------------------------------------- apps

    def _process_env(self) -> dict[str, str]:
        """What every app process gets: the server's path, language and
        Python path, and the set-up ``child`` reads."""
        env = {k: v for k, v in os.environ.items() if k in PASSED}
        env.update(
            COLORTERM="truecolor",
            TERM=DEFAULT_TERM,
            MALLOC_ARENA_MAX="2",  # threads' malloc arenas count against the address space
            **{child_setup.SERVER: str(os.getpid()), child_setup.MEMORY: str(self.limits.app_memory)},
        )
        return env

    def session_env(self, **env: str) -> dict[str, str]:
        """One player's own environment (``store.environ``): their home,
        name, tables, terminal and locale; the computer's pace if the
        server was given one."""
        if os.environ.get("GARITO_BOT_DELAY"):
            env.setdefault("GARITO_BOT_DELAY", os.environ["GARITO_BOT_DELAY"])
        return {k: v for k, v in env.items() if v}

    def new_app(self):
        if self.design == "pty":
            return _PtyApp(self.argv, self._process_env())
        return WorkerApp(self._pool())

    def _pool(self) -> Pool:
        if self.pool is None:
            self.pool = Pool(
                WORKER,
                self._process_env(),
                workers=self.limits.workers,
                per_worker=self.limits.per_worker,
                players=self.limits.max_players,
                memory=self.limits.app_memory,
                fork=self.design == "fork",
                warm=self.limits.warm,
            )
        return self.pool

    # -------------------------------------------------- places

    def _take_connection(self, c: _Connection) -> str:
        now = time.monotonic()
        if self.arrivals.left(c.origin, now) < 1:
            return "too many new connections from that address"
        self.arrivals.spend(c.origin, now)
        if self.by_address.get(c.origin, 0) >= self.limits.per_address:
            return f"{self.by_address[c.origin]} connections from that address already"
        budget = max(STARTUPS, self.limits.max_connections // 2)
        waiting = len(self.unauthed)
        full = len(self.connections) >= self.limits.max_connections
        if (full or waiting >= STARTUPS) and not self._make_room(now, c.origin):
            if full:
                return f"{len(self.connections)} connections already"
            # Early drop, as OpenSSH's MaxStartups, in the last quarter of the
            # budget: more likely the fuller (below it a newcomer is let in:
            # a crowd of real clients at once is not turned away).
            late = max(STARTUPS, budget * 3 // 4)
            if waiting >= budget or (
                waiting >= late and random.random() < (waiting - late + 1) / (budget - late + 1)
            ):
                return f"{waiting} connections not logged in yet"
        self.connections.add(c)
        self.unauthed[c] = now
        self.by_address[c.origin] = self.by_address.get(c.origin, 0) + 1
        return ""

    def _make_room(self, now: float, origin: str) -> bool:
        """A connection not playing yet gives its place to a new one from
        ``origin``: the oldest with no banner after ``STALLED`` seconds (a
        real client sends its own at once); else the oldest of the address
        holding most of the budget, if it holds more than ``origin`` (a
        crowd of fresh connections from a few addresses can't keep the
        others out); else the oldest not playing after ``KEX_STALLED``.
        False if none."""
        silent = [(t, c) for c, t in self.unauthed.items() if now - t >= STALLED and not c.spoke()]
        held: dict[str, list[tuple[float, _Connection]]] = {}
        for c, t in self.unauthed.items():
            held.setdefault(c.origin, []).append((t, c))
        most = max(held.values(), key=len, default=[])
        crowded = most if len(most) > len(held.get(origin, [])) + 1 else []
        slow = [(t, c) for c, t in self.unauthed.items() if now - t >= KEX_STALLED]
        for what, candidates in (
            ("no banner", silent),
            ("its address's share", crowded),
            ("not playing", slow),
        ):
            if candidates:
                began, oldest = min(candidates, key=lambda tc: tc[0])
                log.info("%s: %s after %.1f s, its place given to a newcomer", oldest.peer, what, now - began)
                oldest.let_go()
                return True
        return False

    def _give_connection(self, c: _Connection) -> None:
        self.unauthed.pop(c, None)
        self.connections.discard(c)
        left = self.by_address.get(c.origin, 1) - 1
        if left > 0:
            self.by_address[c.origin] = left
        else:
            self.by_address.pop(c.origin, None)

    def _take_place(self, t: Terminal) -> str:
        if len(self.terminals) >= self.limits.max_players:
            return f"{len(self.terminals)} players are in already"
        self.terminals.add(t)
        return ""

    def _refused(self, c: _Connection, why: str) -> None:
        """Said in the log once a minute an address at most: a flood's
        thousands of refusals are one line, not thousands."""
        self.turned_away += 1
        now = time.monotonic()
        if now - self._refusals.get(c.origin, -60.0) >= 60.0:
            if len(self._refusals) >= 10_000:
                self._refusals.clear()
            self._refusals[c.origin] = now
            log.warning("refused %s: %s (said once a minute for that address)", c.peer, why)

    def _give_place(self, t: Terminal) -> None:
        self.terminals.discard(t)

    def _keep(self, match, names: tuple[str, ...], why: str) -> None:
        """A shared match that ended unfinished: its record (seed shown, so
        it replays and verifies) goes to each of its players' homes."""
        from garito.store.atomic import write_atomic

        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        for name in set(names):
            if problem(name) is not None:
                continue
            path = (
                home_for(self.home, name)
                / "unfinished-tables"
                / f"{stamp}-{match.game}-{match.commitment[:8]}.json"
            )
            write_atomic(path, match.to_json() + "\n")
            log.info(
                "the record of %s's unfinished %s (%s) is kept in %s", shown(name), match.game, why, path
            )

    def _record(self, match, names: tuple[str, ...], finished: str) -> None:
        """A finished shared match (called in a thread): into each of its
        players' histories, present or not (``pending.send_to``)."""
        from garito.store.pending import send_to

        for name in set(names):
            if problem(name) is None:
                path = send_to(home_for(self.home, name), match, finished)
                log.info(
                    "the record of %s's %s is kept for their history (%s)", shown(name), match.game, path.name
                )
        if self.roaming is not None and self._loop is not None:  # and in the cluster's copy of each home
            valid = [n for n in set(names) if problem(n) is None]
            pushed = asyncio.run_coroutine_threadsafe(
                self.roaming.record(valid, finished, match.to_json()), self._loop
            )
            try:
                pushed.result(ROAM_WAIT)
            except Exception as e:  # Redis down or slow: the homes here hold it, brought over at a visit
                pushed.cancel()
                log.warning("the record of a %s not in the cluster's homes yet (%s)", match.game, e)

    # -------------------------------------------------- start and stop

    async def start(self, host: str, port: int) -> int:
        """Listen; returns the port (useful when ``port`` is 0)."""
        # A short private path: a unix socket's path has a length limit, and
        # only this server's own children may speak to the tables.
        self._loop = asyncio.get_running_loop()
        self._folder = tempfile.mkdtemp(prefix="garito-")
        self.tables_path = os.path.join(self._folder, "tables.sock")
        try:
            await asyncio.to_thread(self.ratings.open)  # a busy or damaged store: said in the log
            await self.tables.start(self.tables_path)
            self.server = await asyncssh.create_server(
                lambda: _Connection(self),
                host,
                port,
                server_host_keys=[host_key(self.home)],
                session_factory=None,
                encoding=None,
                line_editor=False,
                allow_scp=False,
                agent_forwarding=False,
                x11_forwarding=False,
                sftp_factory=None,
                login_timeout=self.limits.login_grace,
                kex_algs=KEX_ALGS,
                encryption_algs=CIPHERS,
                mac_algs=MACS,
                keepalive_interval=60,
                keepalive_count_max=3,
                window=WINDOW,
            )
        except BaseException:
            await self.tables.close()
            shutil.rmtree(self._folder, ignore_errors=True)
            raise
        if self.design != "pty":
            self._pool().keep_warm()  # the first player of the evening waits for no worker
        return self.server.sockets[0].getsockname()[1]

    async def close(self, why: str = "the server stopped") -> None:
        """No new connection; the tables closed (their records kept), every
        app ended, every connection closed, the socket folder removed."""
        if self.server is not None:
            self.server.close()
        await self.tables.close()
        terminals = list(self.terminals)
        for t in terminals:
            t.end(why)
        if terminals:
            await asyncio.wait([t.finished for t in terminals], timeout=KILL_AFTER + 2)
        if self.pool is not None:
            await self.pool.close()
        closing = [c.conn for c in self.connections if c.conn is not None]
        for conn in closing:
            conn.close()
        if closing:
            await asyncio.wait([asyncio.create_task(conn.wait_closed()) for conn in closing], timeout=5)
        if self.server is not None:
            await self.server.wait_closed()
        if self.roaming is not None:  # the homes of those who left, to the cluster (bounded)
            await self.roaming.close()
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


async def serve_forever(home: Path, host: str, port: int, **options) -> None:
    """Serve until SIGTERM or SIGINT, then stop cleanly (``Serve.close``)."""
    log_to_stderr()
    server = Serve(home, **options)
    bound = await server.start(host, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    how = "guests" if options.get("guests") else f"keys from {options.get('authorized_keys')}"
    log.info("Garito serves on %s port %d (%s), tables at %s", host, bound, how, server.tables_path)
    if server.redis is not None:
        log.info("the tables are shared on Redis as host %s", server.tables.store.host)
    if host in ("127.0.0.1", "::1", "localhost"):
        log.info("only this machine may connect: --host 0.0.0.0 lets the network in")
    try:
        await stop.wait()
        log.info("stopping: %d players, %d tables", len(server.terminals), len(server.tables.tables))
    finally:
        players, tables = len(server.terminals), len(server.tables.tables)
        await server.close()
        log.info("Garito stopped: %s let go, %s closed", _count(players, "player"), _count(tables, "table"))
