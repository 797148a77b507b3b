"""A worker: one process that hosts many players' apps on one event loop.

``garito serve`` starts a few of these (one per core by default: ``pool``)
rather than a Python and a Textual per player. Each player's app is an
ordinary ``GarApp`` whose terminal is a socket to the server (``driver``),
run as a task in a context of its own: its ``environ.Scope`` (the player's
home, name, tables token, locale) and its session, which everything the app
starts (tasks, timers, callbacks, thread workers) inherits. Textual and
Garito are imported once per worker and their objects frozen out of the
garbage collector's reach (``gc.freeze``), so a player costs only their
own app's objects.

What one session may take of its worker, since the kernel's limits hold
for the worker as a whole:

* **CPU**: every callback the loop runs, and every thread worker, is
  charged to the session whose context it runs in. A session that used
  more than ``CPU_SHARE`` of a core over the last ``CPU_WINDOW`` seconds
  (``CPU_SHARE_BUSY`` while the worker's sessions together take
  ``CPU_BUSY``) gets no more keys or resizes until it is back under half
  of it (the server then holds them, within its bounds); one still over
  its share ``CPU_OVER`` seconds later, with nothing coming in, is ended.
* **Screen**: at most ``driver.QUEUE_MAX`` bytes wait for the socket;
  past that, frames are dropped and the screen drawn again later.
* **Memory**: the worker's own address space is capped (``RLIMIT_AS``,
  set up by ``child``), the server gives it a bounded number of sessions
  and none once its resident memory nears that cap (``pool``), and the
  terminal sizes it is given are clamped by the server.
* **Crashes**: an exception in one app ends that app alone (Textual
  catches it; the player sees the traceback, as on a terminal of their
  own); if the worker itself dies, its players are told and the server
  starts another for whoever comes next while the other workers play on.

The server speaks to a worker over a Unix seqpacket socket (its standard
input): one JSON object a message, a session's socket passed along with
``start`` (``SCM_RIGHTS``). Server to worker: ``start`` (id, size, env),
``resize``, ``hangup`` (the app is asked to quit), ``kill`` (it is
dropped), ``stop`` (no more sessions: leave when the last one ends). Worker
to server: ``ready``, ``ended`` (id, status, why), ``load`` (resident
memory, sessions).

``fork_server`` is the same worker used the other way (measured against
it in ``bench/serve_designs.py``): one process imports everything,
freezes it, and forks a one-session worker for each player.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import io
import json
import logging
import os
import signal
import socket
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from garito.store import environ
from garito.widgets import lean

from . import child
from .driver import SocketDriver

log = logging.getLogger("garito.serve")

MESSAGE_MAX = 1 << 16  # one control message
CPU_WINDOW = 10.0  # seconds over which a session's CPU is counted
CPU_SHARE = 0.5  # of a core, over the window: past it the session's input waits
CPU_OVER = 60.0  # seconds over its share with its input waiting: the session is ended
# A worker whose sessions together take CPU_BUSY of a core is busy: then a
# session's share is CPU_SHARE_BUSY. Three sessions just under half a core
# each held up every other player of their worker; a player at a human pace
# takes a few hundredths of a core (about 11 ms a key, the computer's moves
# included), so none of them waits.
CPU_BUSY = 0.8
CPU_SHARE_BUSY = 0.1
DRAIN = 2.0  # seconds an ended app's last screen has to reach the server
REPORT = 2.0  # seconds between the worker's reports to the server
THREADS = 128  # threads at once (a computer seat holds one while it chooses, not while it waits its pace)
THREAD_STACK = 1 << 20  # each thread's stack (the address space counts every thread's)
GC_SAID = 0.1  # seconds: a collection that held the worker's games this long is logged

_SESSION: contextvars.ContextVar[Session | None] = contextvars.ContextVar("garito_session", default=None)


# ------------------------------------------------------------------ accounting


def _charge_callbacks() -> None:
    """Charge every callback the loop runs to the session it runs for."""
    run = asyncio.events.Handle._run
    clock = time.thread_time

    def _run(self) -> None:
        session = self._context.get(_SESSION)
        if session is None:
            return run(self)
        start = clock()
        try:
            return run(self)
        finally:
            session.cpu += clock() - start

    asyncio.events.Handle._run = _run  # type: ignore[method-assign]


def _in_context(fn, *args, **kwargs):
    session = _SESSION.get()
    if session is None:
        return fn(*args, **kwargs)
    start = time.thread_time()
    try:
        return fn(*args, **kwargs)
    finally:
        session.cpu += time.thread_time() - start


class SessionThreads(ThreadPoolExecutor):
    """The loop's default executor: each job runs in the context of whoever
    submitted it (``asyncio.to_thread`` carries it, ``run_in_executor``
    alone does not), so a computer seat thinking in a thread reads its own
    player's home and is charged to its own session."""

    def submit(self, fn, /, *args, **kwargs):
        context = contextvars.copy_context()
        return super().submit(context.run, _in_context, fn, *args, **kwargs)


# ------------------------------------------------------------------ a session


def _speak_the_players_language() -> None:
    """The session speaks its player's language (chosen in the app, else
    their SSH client's locale): the worker's own is nobody's."""
    from garito.core import i18n
    from garito.tui.cli import players_language

    i18n.use(players_language())


class Session:
    """One player's app in this worker."""

    def __init__(self, worker: Worker, sid: int, fd: int, size: tuple[int, int], env: dict) -> None:
        self.worker, self.id, self.fd, self.size = worker, sid, fd, size
        self.scope = environ.Scope(env)
        self.app: Any = None  # its GarApp (the server imports no app)
        self.driver: SocketDriver | None = None
        self.task: asyncio.Task | None = None
        self.cpu = 0.0
        self.samples: deque[tuple[float, float]] = deque()
        self.over_since: float | None = None  # when it passed its share, input waiting since
        self.waiting_size: tuple[int, int] | None = None  # a resize held while it is over
        self.hung_up = False
        self.why = ""
        self.done = False
        self._drained: asyncio.Event | None = None
        self.errors = io.StringIO()

    def start(self) -> None:
        context = contextvars.copy_context()
        context.run(environ.enter, self.scope)
        context.run(_SESSION.set, self)
        context.run(_speak_the_players_language)
        self.task = asyncio.get_running_loop().create_task(self.run(), context=context)

    async def run(self) -> None:
        status = 1
        try:
            from rich.console import Console

            from garito.tui.app import GarApp

            app = self.app = GarApp()
            app.driver_class = partial(SocketDriver, channel=self)  # type: ignore[assignment]
            width = self.size[0]
            app.error_console = Console(
                file=self.errors, width=width, force_terminal=True, color_system="truecolor", markup=False
            )
            await app.run_async(size=self.size)
            status = -signal.SIGHUP if self.hung_up else (app.return_code or 0)
        except asyncio.CancelledError:
            status = -signal.SIGKILL
        except Exception as e:  # the app could not even start: this session only
            log.warning("session %d: the app failed: %s", self.id, f"{type(e).__name__}: {e}")
            self.errors.write(f"Garito could not start: {type(e).__name__}\n")
        finally:
            await self._last_words()
            self.finish(status)

    async def _last_words(self) -> None:
        """What the app printed as it failed goes to the player, and the
        last screen to the server, within ``DRAIN`` seconds."""
        driver = self.driver
        if driver is None or driver.closed or self.done:
            return
        said = self.errors.getvalue()
        if said:
            log.warning("session %d: the app stopped on an error: %s", self.id, _last_line(said))
            driver.write(said.replace("\n", "\r\n"))
            driver.flush()
        if driver.queued:
            self._drained = asyncio.Event()
            try:
                await asyncio.wait_for(self._drained.wait(), DRAIN)
            except TimeoutError:
                pass

    def finish(self, status: int) -> None:
        """Close its socket and tell the server, once."""
        if self.done:
            return
        self.done = True
        if self.driver is not None:
            self.driver.disable_input()
            self.driver._close_output()
        try:
            os.close(self.fd)
        except OSError:
            pass
        self.worker.ended(self, status)

    # -------------------------------------------------- the driver's calls

    def attach(self, driver: SocketDriver) -> None:
        self.driver = driver

    def output_drained(self) -> None:
        if self._drained is not None:
            self._drained.set()

    def input_closed(self) -> None:
        self.hang_up()

    # -------------------------------------------------- the server's calls

    def resize(self, width: int, height: int) -> None:
        self.size = (width, height)
        if self.over_since is not None:
            self.waiting_size = (width, height)  # when it is back under its share
        elif self.driver is not None:
            self.driver.resize(width, height)

    def hang_up(self) -> None:
        if self.hung_up or self.done:
            return
        self.hung_up = True
        if self.app is not None and self.app.is_running:
            self.app.exit()
        elif self.task is not None:
            self.task.cancel()

    def kill(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.finish(-signal.SIGKILL)

    # -------------------------------------------------- its share

    def share(self, now: float) -> float | None:
        """The share of a core the session used over the last
        ``CPU_WINDOW`` seconds; None while its history is too short to judge."""
        self.samples.append((now, self.cpu))
        while len(self.samples) > 1 and now - self.samples[0][0] > CPU_WINDOW:
            self.samples.popleft()
        then, cpu = self.samples[0]
        if now - then < CPU_WINDOW / 2:
            return None
        return (self.cpu - cpu) / (now - then)

    def judge(self, now: float, share: float | None, busy: bool = False) -> None:
        """Its input waits while it is over its share (``CPU_SHARE``, or
        ``CPU_SHARE_BUSY`` when its worker is ``busy``), and comes again
        once it is under half of it; it is ended ``CPU_OVER`` seconds over."""
        if share is None:
            return
        limit = CPU_SHARE_BUSY if busy else CPU_SHARE
        if share > limit:
            if self.over_since is None:
                self.over_since = now
                if self.driver is not None:
                    self.driver.pause_input()
                log.warning(
                    "session %d uses %.0f%% of a core%s: its input waits",
                    self.id,
                    share * 100,
                    " while its worker is busy" if busy else "",
                )
            elif now - self.over_since > CPU_OVER:
                log.warning("session %d over its share for %.0f s: ended", self.id, now - self.over_since)
                self.why = "it took more than its share of the server's time"
                self.hang_up()
        elif self.over_since is not None and share < limit / 2:
            self.over_since = None
            if self.driver is not None:
                self.driver.resume_input()
                if self.waiting_size is not None:
                    self.driver.resize(*self.waiting_size)
            self.waiting_size = None


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


# ------------------------------------------------------------------ the worker


class Worker:
    """The sessions of this process, and its line to the server."""

    def __init__(self, sock: socket.socket, *, single: bool = False) -> None:
        self.sock = sock
        self.single = single  # forked for one session: leave when it ends
        self.sessions: dict[int, Session] = {}
        self.stopping = False
        self.done: asyncio.Future | None = None
        self._out: deque[bytes] = deque()
        self._ticks = 0

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(SessionThreads(THREADS, thread_name_prefix="garito"))
        self.done = loop.create_future()
        self.sock.setblocking(False)
        loop.add_reader(self.sock, self._control)
        collector.sessions = lambda: len(self.sessions)
        gc.callbacks.append(collector)
        self.send(op="ready", pid=os.getpid())
        ticker = loop.call_later(1.0, self._tick)
        try:
            await self.done
        finally:
            ticker.cancel()
            loop.remove_reader(self.sock)
            collector.said()

    # -------------------------------------------------- the line to the server

    def send(self, **message) -> None:
        data = json.dumps(message).encode()
        if self._out:
            self._out.append(data)
            return
        try:
            self.sock.send(data)
        except BlockingIOError:
            self._out.append(data)
            asyncio.get_running_loop().add_writer(self.sock, self._flush)
        except OSError:
            pass  # the server is gone: _control hears it

    def _flush(self) -> None:
        while self._out:
            try:
                self.sock.send(self._out[0])
            except BlockingIOError:
                return
            except OSError:
                self._out.clear()
                break
            self._out.popleft()
        asyncio.get_running_loop().remove_writer(self.sock)

    def _control(self) -> None:
        try:
            data, fds, _flags, _addr = socket.recv_fds(self.sock, MESSAGE_MAX, 1)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        if not data:
            self._server_gone()
            for fd in fds:
                os.close(fd)
            return
        try:
            m = json.loads(data)
            op = m["op"]
        except (ValueError, KeyError, TypeError):
            log.warning("worker %d: a control message it cannot read", os.getpid())
            for fd in fds:
                os.close(fd)
            return
        if op == "start" and fds:
            self._start(m, fds[0])
            return
        for fd in fds:
            os.close(fd)
        session = self.sessions.get(m.get("id"))
        if op == "resize" and session is not None:
            session.resize(*m["size"])
        elif op == "hangup" and session is not None:
            session.why = session.why or m.get("why", "")
            session.hang_up()
        elif op == "kill" and session is not None:
            session.kill()
        elif op == "stop":
            self.stopping = True
            self._maybe_done()

    def _start(self, m: dict, fd: int) -> None:
        try:
            sid, (width, height), env = int(m["id"]), m["size"], dict(m["env"])
            os.set_blocking(fd, False)
        except (KeyError, TypeError, ValueError, OSError):
            os.close(fd)
            return
        session = Session(self, sid, fd, (int(width), int(height)), env)
        self.sessions[sid] = session
        session.start()

    def ended(self, session: Session, status: int) -> None:
        self.sessions.pop(session.id, None)
        self.send(op="ended", id=session.id, status=status, why=session.why)
        self._maybe_done()

    def _maybe_done(self) -> None:
        if (self.stopping or self.single) and not self.sessions and self.done and not self.done.done():
            self.done.set_result(None)

    def _server_gone(self) -> None:
        """The server closed our line (or died): every app is asked to quit,
        and whatever is still there after a while is dropped."""
        self.stopping = True
        asyncio.get_running_loop().remove_reader(self.sock)
        for session in list(self.sessions.values()):
            session.hang_up()
        asyncio.get_running_loop().call_later(3.0, self._kill_all)
        self._maybe_done()

    def _kill_all(self) -> None:
        for session in list(self.sessions.values()):
            session.kill()
        self._maybe_done()

    def judge_shares(self, now: float) -> None:
        """Each session's CPU against its share, the worker busy or not."""
        sessions = list(self.sessions.values())
        shares = [session.share(now) for session in sessions]
        busy = sum(share or 0.0 for share in shares) >= CPU_BUSY
        for session, share in zip(sessions, shares):
            session.judge(now, share, busy)

    def _tick(self) -> None:
        self.judge_shares(time.monotonic())
        self._ticks += 1
        if self._ticks % int(REPORT) == 0:
            self.send(op="load", rss=_resident(), sessions=len(self.sessions), gc=collector.take())
        asyncio.get_running_loop().call_later(1.0, self._tick)


class Collector:
    """Times every collection the worker's players wait for, on the clock
    and in CPU (on a busy machine the first is mostly others' time): the
    longest since the last report goes to the server, any past ``GC_SAID``
    to the log, and the worker's total to the log as it leaves
    (``bench/serve_load.py`` reports them).

    Setting long-lived objects aside (``gc.freeze`` every 30 s after a
    collection, all collected again after some games ended or the worker
    grew) was tried and measured against the thresholds alone, 48 players
    at a time: the collector took 10.0-11.5 ms of CPU per key rather than
    7.1-8.2, and its longest collection was no shorter (834-969 ms of CPU
    rather than 979-1083; the first freeze after players arrive walks them
    all). It is not done. Nor is collecting the oldest generation only when
    the worker has grown (past max(32 MB, half its size after the last),
    Python's own count of it turned off): measured beside the thresholds
    alone (``bench/serve_load.py``, 50, 100 and 200 players, each tree in
    turn), the collector took 5.9-7.4 ms of CPU per key rather than 4.1-4.7
    and its longest collection 483-654 ms of CPU rather than 123-164: the
    worker grows as players arrive and as caches fill, so it collected
    whole as often, and walked more each time."""

    def __init__(self) -> None:
        self.started = self.started_cpu = 0.0
        self.longest = 0.0
        self.count = 0
        self.total_cpu = self.longest_cpu = 0.0  # seconds, since the worker started
        self.sessions = lambda: 0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.started, self.started_cpu = time.perf_counter(), time.thread_time()
            return
        took, cpu = time.perf_counter() - self.started, time.thread_time() - self.started_cpu
        self.longest = max(self.longest, took)
        self.count += 1
        self.total_cpu += cpu
        self.longest_cpu = max(self.longest_cpu, cpu)
        if took >= GC_SAID:
            log.info(
                "worker %d: a collection (generation %d) held its %d games %.0f ms (%.0f ms of CPU)",
                os.getpid(),
                info.get("generation", -1),
                self.sessions(),
                took * 1000,
                cpu * 1000,
            )

    def said(self) -> None:
        log.info(
            "worker %d: %d collections took %.0f ms of CPU, the longest %.0f ms",
            os.getpid(),
            self.count,
            self.total_cpu * 1000,
            self.longest_cpu * 1000,
        )

    def take(self) -> float:
        longest, self.longest = self.longest, 0.0
        return longest


collector = Collector()


def _resident() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


# ------------------------------------------------------------------ start-up


def _share_parsed_css() -> None:
    """Every app parses the same style sheets (Garito's and each widget's
    defaults) with its theme's variables: parsed once per worker, for each
    set of variables, rather than once per player (a fifth of an app's
    start, measured). The rule sets are only read once parsed."""
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules
    shared: dict[tuple, list] = {}

    def _parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(sorted(self._variables.items())))
        rules = shared.get(key)
        if rules is None:
            rules = shared[key] = parse(self, css, read_from, is_default_rules, tie_breaker, scope)
        return rules

    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]


def _prepare() -> None:
    """What every session would otherwise import or build itself: imported
    once here, then frozen (the collector no longer walks it)."""
    _charge_callbacks()
    _share_parsed_css()
    lean.apply()  # lines and layouts the collector need not walk (widgets.lean)
    threading.stack_size(THREAD_STACK)
    import garito.tui.app  # noqa: F401
    import garito.tui.games  # noqa: F401
    import garito.tui.screens.game  # noqa: F401
    import garito.tui.screens.menu  # noqa: F401
    from garito.tui.cli import GC_THRESHOLDS

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def main() -> None:
    """``python -c "from garito.server.worker import main; main()"``, with
    its control socket as standard input (``pool``)."""
    child.setup()
    from .logs import log_to_stderr

    log_to_stderr("%(asctime)s %(name)s[%(process)d] %(message)s")
    _prepare()
    sock = socket.socket(fileno=os.dup(0))
    os.close(0)
    os.open(os.devnull, os.O_RDONLY)  # fd 0 again, for anyone who reads it
    fork = os.environ.pop("GARITO_FORK_SERVER", "") == "1"
    if fork:
        fork_server(sock)
    else:
        asyncio.run(Worker(sock).run())


def fork_server(sock: socket.socket) -> None:
    """The other design: for each ``fork`` request, a child with everything
    already imported hosts that one session; its own control socket goes
    back to the server with its pid."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the children
    while True:
        try:
            data = sock.recv(MESSAGE_MAX)
        except InterruptedError:
            continue
        except OSError:
            data = b""
        if not data:
            return
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            sock.close()
            theirs.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            os.setsid()  # a session of its own, as every app process: the scheduler's group too
            child._die_with_parent(0)
            asyncio.run(Worker(mine, single=True).run())
            os._exit(0)
        mine.close()
        socket.send_fds(sock, [json.dumps({"op": "forked", "pid": pid}).encode()], [theirs.fileno()])
        theirs.close()
