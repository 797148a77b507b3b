"""The server's side of its workers (``worker``): starting them, choosing
one for each new player, watching over them, and the face a player's app
in a worker shows to ``ssh.Terminal`` (``WorkerApp``: the same as a pty
child's, a non-blocking descriptor to read the screen from and write keys
to, a size, a hang-up, a kill, an exit status).

How sessions are placed:

* each worker is started through ``child`` like an app process of its own:
  its own session, signals at their defaults, the parent-death signal, and
  the address-space cap (``--app-memory``) for the worker as a whole;
* a new player goes, among the workers that take more (fewer than
  ``per_worker`` players, since a full garbage collection stops every
  player of a worker while it walks all their objects, and resident memory
  under ``FULL`` of its cap), to the one that took the fewest newcomers
  over the last ``ARRIVING`` seconds, then the one with the fewest players.
  A session costs most as it starts (its screens composed, its first
  frames drawn: 100-200 ms of CPU to a game, measured, against a few ms a
  key after): a crowd sent to the emptiest worker alone, 10 players a
  second, asked one core for two;
* another worker is started ahead of need, so that a crowd's newcomers are
  spread over every core and none waits for a worker to start: while fewer
  than ``workers`` (one per core) have ``SPARE`` places or more, and when
  half a worker's places or fewer are left among them all; when none can
  take the player, one is started for them (if that fails, they are told
  so: nothing else is held for them);
* a worker that has not been heard from for ``WATCHDOG`` seconds (a
  session stuck in a loop holds its event loop) is killed; when a worker
  dies its players are told and the others play on in theirs;
* one worker is kept warm, started with the server and holding no game,
  so that the first player of an evening does not wait a worker's start
  (a third of a second of CPU, more on a busy host); when the last player
  has gone, every worker is let go and a fresh one is started warm in
  their place: what the games left in a worker's memory is given back.

``fork=True`` is the design measured against this one: a single fork
server, and a worker forked from it for each player.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import time
from functools import partial

log = logging.getLogger("garito.serve")

MESSAGE_MAX = 1 << 16
START = 30.0  # seconds a worker has to say it is ready
WATCHDOG = 20.0  # seconds a worker may go unheard (it reports every 2 s)
FULL = 0.75  # of its address-space cap: a worker this resident takes nobody new
STOP_AFTER = 5.0  # seconds a stopped worker has to leave before it is killed
SPARE = 4  # places: a worker with fewer left is not counted as open for the next crowd
REWARM = 5.0  # seconds after a worker was lost before the warm one is started again
ARRIVING = 5.0  # seconds a newcomer counts against its worker's share of the next ones
RESIZE_GAP = 0.05  # seconds between two sizes of one session sent to its worker (the last one wins)


class Worker:
    """One worker process, as the server sees it."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.process: asyncio.subprocess.Process | None = None
        self.sock: socket.socket | None = None
        self.pid = 0
        self.apps: dict[int, WorkerApp] = {}  # every session it hosts, ending or not
        self.hosted = False  # it has had a session: its memory is no longer fresh
        self.stopped = False  # let go by the pool (not lost)
        self.players = 0  # sessions not being ended: what placement counts
        self.ready = asyncio.get_running_loop().create_future()
        self.accepting = True
        self.rss = 0
        self.arrived: list[float] = []  # when its newest sessions were placed (the last ARRIVING s)
        self.heard = time.monotonic()
        self.gone = asyncio.Event()
        self._out: list[tuple[bytes, list[int]]] = []

    async def start(self, argv: list[str], env: dict[str, str]) -> None:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = await asyncio.create_subprocess_exec(
                *argv, stdin=theirs.fileno(), env=env, start_new_session=True
            )
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        self.attach(mine, self.process.pid)
        self.pool._keep(self._reap())

    def attach(self, sock: socket.socket, pid: int) -> None:
        self.sock, self.pid = sock, pid
        sock.setblocking(False)
        asyncio.get_running_loop().add_reader(sock, self._control)

    async def _reap(self) -> None:
        assert self.process is not None
        status = await self.process.wait()
        self._lost(f"status {status}")

    # -------------------------------------------------- the line to it

    def send(self, fds: list[int] | None = None, **message) -> bool:
        if self.sock is None:
            return False
        data = json.dumps(message).encode()
        try:
            if fds:
                socket.send_fds(self.sock, [data], fds)
            else:
                self.sock.send(data)
        except BlockingIOError:
            # Its line is full: it is not reading (stuck); the watchdog sees to it.
            log.warning("worker %d does not read its line: a message dropped", self.pid)
            return False
        except OSError:
            return False
        return True

    def _control(self) -> None:
        if self.sock is None:
            return
        try:
            data = self.sock.recv(MESSAGE_MAX)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._lost("its line closed")
            return
        self.heard = time.monotonic()
        try:
            m = json.loads(data)
            op = m["op"]
        except (ValueError, KeyError, TypeError):
            return
        if op == "ready":
            if not self.ready.done():
                self.ready.set_result(None)
        elif op == "ended":
            app = self.apps.pop(m.get("id"), None)
            if app is not None:
                app._ended(int(m.get("status", 1)), str(m.get("why", "")))
        elif op == "load":
            self.rss = int(m.get("rss", 0))

    def _lost(self, why: str) -> None:
        """Its process ended (or its line closed): its players are told."""
        if self.gone.is_set():
            return
        self.gone.set()
        self.accepting = False
        if self.sock is not None:
            asyncio.get_running_loop().remove_reader(self.sock)
            self.sock.close()
            self.sock = None
        if not self.ready.done():
            self.ready.set_exception(OSError(f"the worker ended before it was ready ({why})"))
            self.ready.exception()  # retrieved: whoever waits for it hears it
        apps, self.apps = list(self.apps.values()), {}
        if apps:
            log.warning("worker %d ended (%s) with %d players in it", self.pid, why, len(apps))
        for app in apps:
            app._ended(1, "the server's worker for this game stopped; your game is saved")
        self.pool._worker_gone(self)

    # -------------------------------------------------- its life

    def stop(self) -> None:
        """Take nobody new; leave once its players have gone."""
        self.accepting = False
        self.stopped = True
        self.send(op="stop")

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        elif self.process is None and self.pid:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.process is None:
            self._lost("killed")


class Pool:
    """The server's workers."""

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        *,
        workers: int,
        per_worker: int,
        players: int,
        memory: int,
        fork=False,
        warm: int = 1,
    ) -> None:
        self.argv, self.env = argv, env
        self.warm = 0 if fork else max(0, warm)
        self.size, self.per_worker, self.memory = max(1, workers), max(1, per_worker), memory
        self.most = self.size + max(1, -(-players // self.per_worker))  # a few full of memory, and spares
        self.fork = fork
        self.workers: list[Worker] = []
        self._zygote: Worker | None = None
        self._next = 0
        self._watch: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task] = set()
        self.closed = False

    def _keep(self, coro) -> None:
        """A task of the pool's own, held until it is done (the loop keeps
        only a weak reference to a task)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def players(self) -> int:
        return sum(w.players for w in self.workers)

    def _takes_more(self, w: Worker) -> bool:
        return (
            w.accepting
            and w.ready.done()
            and not w.gone.is_set()
            and w.players < self.per_worker
            and (not self.memory or w.rss < FULL * self.memory)
        )

    def keep_warm(self) -> None:
        """Start the workers kept ready while nobody plays (the server calls
        it as it starts, and the pool once everyone has left)."""
        if self.closed:
            return
        ready = [w for w in self.workers if w.accepting and not w.gone.is_set()]
        for _ in range(self.warm - len(ready)):
            self._keep(self._spare())

    def _recent(self, w: Worker, now: float) -> int:
        while w.arrived and now - w.arrived[0] > ARRIVING:
            w.arrived.pop(0)
        return len(w.arrived)

    def _chosen(self, open_: list[Worker]) -> Worker:
        now = time.monotonic()
        w = min(open_, key=lambda w: (self._recent(w, now), w.players))
        w.arrived.append(now)
        return w

    async def place(self) -> Worker:
        """The worker for a new player (started for them if need be)."""
        if self.closed:
            raise OSError("the server is stopping")
        if self.fork:
            return await self._forked()
        open_ = [w for w in self.workers if self._takes_more(w)]
        starting = [w for w in self.workers if not w.ready.done() and w.accepting]
        room = sum(self.per_worker - w.players for w in open_)
        roomy = sum(1 for w in open_ if self.per_worker - w.players > SPARE)
        if (
            not starting
            and len(self.workers) < self.most
            and open_
            and (roomy < self.size or room <= self.per_worker // 2)
        ):
            self._keep(self._spare())  # the next one, before anyone has to wait for it
        if open_:
            return self._chosen(open_)
        if starting:
            await asyncio.wait(
                [asyncio.ensure_future(w.ready) for w in starting],
                timeout=START,
                return_when=asyncio.FIRST_COMPLETED,
            )
            open_ = [w for w in starting if self._takes_more(w)]
            if open_:
                return self._chosen(open_)
        if len(self.workers) >= self.most:
            raise OSError("every worker is full")
        w = await self._started()
        w.arrived.append(time.monotonic())
        return w

    async def _started(self) -> Worker:
        w = Worker(self)
        self.workers.append(w)
        try:
            await w.start(self.argv, self.env)
            await asyncio.wait_for(asyncio.shield(w.ready), START)
        except BaseException:
            if w in self.workers:
                self.workers.remove(w)
            w.stopped = True  # not warmed again: whoever asked for it hears why
            w.kill()
            raise
        log.info("worker %d started (%d running)", w.pid, len(self.workers))
        self._watching()
        return w

    async def _spare(self) -> None:
        try:
            w = await self._started()
        except Exception as e:
            log.warning("a worker could not start: %s", e)
            return
        if not self.players and sum(1 for each in self.workers if each.accepting) > self.warm:
            w.stop()  # everyone left while it started, and another is kept warm

    def _worker_gone(self, w: Worker) -> None:
        if w in self.workers:
            self.workers.remove(w)
            if w is not self._zygote:
                log.info("worker %d left (%d running)", w.pid, len(self.workers))
        if w is self._zygote:
            self._zygote = None
        elif not w.stopped and not self.closed and self.warm:
            # It died or was killed rather than let go: the warm one again,
            # a little later (a worker that dies as it starts is not
            # restarted in a loop).
            asyncio.get_running_loop().call_later(REWARM, self.keep_warm)

    def session_leaving(self, w: Worker) -> None:
        """One of ``w``'s players is being ended: when nobody is left
        playing anywhere, every worker that hosted a game goes, and a fresh
        one is kept warm."""
        w.players = max(0, w.players - 1)
        if w.players == 0 and self.fork:
            w.stop()
        if not self.players and not self.fork:
            fresh = [each for each in self.workers if each.accepting and not each.hosted][: self.warm]
            for each in list(self.workers):
                if each.accepting and each not in fresh:
                    each.stop()
            self.keep_warm()

    # -------------------------------------------------- the watchdog

    def _watching(self) -> None:
        if self._watch is None and not self.closed:
            self._watch = asyncio.get_running_loop().call_later(WATCHDOG / 4, self._check)

    def _check(self) -> None:
        self._watch = None
        now = time.monotonic()
        for w in list(self.workers):
            if w.ready.done() and not w.gone.is_set() and now - w.heard > WATCHDOG and w is not self._zygote:
                log.warning("worker %d unheard for %.0f s: killed, its players let go", w.pid, now - w.heard)
                w.kill()
        if self.workers:
            self._watching()

    # -------------------------------------------------- the fork server

    async def _forked(self) -> Worker:
        if self._zygote is None or self._zygote.gone.is_set():
            z = Worker(self)
            self._zygote = z
            z.ready.set_result(None)  # it says nothing until asked to fork
            await z.start(self.argv, dict(self.env, GARITO_FORK_SERVER="1"))
            assert z.sock is not None
            z.sock.setblocking(True)
            asyncio.get_running_loop().remove_reader(z.sock)
        line = self._zygote.sock
        if line is None:
            raise OSError("the fork server is gone")
        line.send(b'{"op": "fork"}')
        data, fds, _, _ = await asyncio.get_running_loop().run_in_executor(
            None, partial(socket.recv_fds, line, MESSAGE_MAX, 1)
        )
        if not fds:
            raise OSError("the fork server did not fork")
        w = Worker(self)
        w.attach(socket.socket(fileno=fds[0]), json.loads(data)["pid"])
        self.workers.append(w)
        await asyncio.wait_for(asyncio.shield(w.ready), START)
        self._watching()
        return w

    # -------------------------------------------------- the end

    async def close(self) -> None:
        """Every worker stopped (its players were ended before), and killed
        if it is still there after ``STOP_AFTER`` seconds."""
        self.closed = True
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        workers = list(self.workers) + ([self._zygote] if self._zygote else [])
        for w in workers:
            w.stop()
        if self._zygote is not None and self._zygote.sock is not None:
            self._zygote.sock.close()
            self._zygote.sock = None
        if workers:
            await asyncio.wait([asyncio.create_task(w.gone.wait()) for w in workers], timeout=STOP_AFTER)
        for w in workers:
            if not w.gone.is_set():
                w.kill()
        for w in workers:
            if w.process is not None:
                try:
                    await asyncio.wait_for(w.process.wait(), 2)
                except TimeoutError:
                    pass


class WorkerApp:
    """A player's app in a worker, with the face of a pty child: ``fd`` is
    the server's end of a socket the worker's driver draws on and reads
    keys from."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.worker: Worker | None = None
        self.fd = -1
        self.id = 0
        self.status: int | None = None
        self.why = ""
        self._done = asyncio.Event()
        self._leaving = False
        self._size_wanted: tuple[int, int] | None = None
        self._resizing: asyncio.TimerHandle | None = None

    async def start(self, env: dict[str, str], width: int, height: int) -> None:
        """On a worker; on any failure everything opened here is closed."""
        worker = await self.pool.place()
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            mine.setblocking(False)
            self.pool._next += 1
            self.id = self.pool._next
            worker.apps[self.id] = self
            worker.players += 1
            worker.hosted = True
            self.worker = worker
            if not worker.send([theirs.fileno()], op="start", id=self.id, size=[width, height], env=env):
                worker.apps.pop(self.id, None)
                self._leave()
                raise OSError("the worker did not take the session")
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        self.fd = mine.detach()

    @property
    def pid(self) -> int:
        return self.worker.pid if self.worker is not None else 0

    @property
    def running(self) -> bool:
        return self.worker is not None and self.status is None

    def resize(self, width: int, height: int) -> None:
        """To the worker at once, and then at most one size each
        ``RESIZE_GAP``, the last one asked: a client may send thousands of
        window changes a second (measured), which filled the worker's line,
        and other players' start, hang-up and kill messages were dropped."""
        if self.worker is None or not self.running:
            return
        self._size_wanted = (width, height)
        if self._resizing is None:
            self._send_size()

    def _send_size(self) -> None:
        self._resizing = None
        size, self._size_wanted = self._size_wanted, None
        if size is None or self.worker is None or not self.running:
            return
        self.worker.send(op="resize", id=self.id, size=list(size))
        self._resizing = asyncio.get_running_loop().call_later(RESIZE_GAP, self._send_size)

    def signal(self, sig: int) -> None:
        """SIGHUP: the app is asked to quit; SIGKILL: it is dropped."""
        worker = self.worker
        if worker is None or not self.running:
            return
        self._leave()
        if sig == signal.SIGKILL:
            if not worker.send(op="kill", id=self.id):
                self._ended(-signal.SIGKILL, "")
        else:
            worker.send(op="hangup", id=self.id)

    def _leave(self) -> None:
        if not self._leaving and self.worker is not None:
            self._leaving = True
            self.pool.session_leaving(self.worker)

    def _ended(self, status: int, why: str) -> None:
        if self._resizing is not None:
            self._resizing.cancel()
            self._resizing = None
        if self.status is None:
            self.status, self.why = status, why
            self._leave()
            if self.worker is not None:
                self.worker.apps.pop(self.id, None)
            self._done.set()

    async def wait(self) -> int:
        await self._done.wait()
        assert self.status is not None
        return self.status

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
