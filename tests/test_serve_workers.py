"""``garito serve``'s workers: many players' apps in one process, each with
its own home, name and notes, its own bounds, and its own end. Over real
SSH on loopback where a player's view is the point; the pieces (the
scopes, the driver's queue, a session's share of the CPU) directly.
Bounded, and no timing is asserted."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap

from garito.server import driver as socket_driver
from garito.server.homes import home_for
from garito.server.worker import (
    CPU_BUSY,
    CPU_OVER,
    CPU_SHARE,
    CPU_SHARE_BUSY,
    CPU_WINDOW,
    Session,
    SessionThreads,
    Worker,
)
from garito.store import environ, paths, settings

from .helpers import sync
from .test_serve_hostile import MENU, TIMEOUT, Client, alive, started, terminal_of, until

GAME = "Gemelos \u2014".encode()


# ---------------------------------------------------------------- one worker, several players


@sync
async def test_players_sharing_a_worker_each_keep_to_their_own_home_and_notes(tmp_path):
    server, port = await started(tmp_path, workers=1)
    root = tmp_path / "serve"
    ana_home = home_for(root, "ana")
    ana_home.mkdir(parents=True)
    (ana_home / "settings.json").write_text("[1, 2")  # damaged: set aside, and told to her alone
    try:
        ana = await (await Client.connect(port, "ana")).play()
        bea = await (await Client.connect(port, "bea")).play()
        for c in (ana, bea):
            await c.wait(MENU)
        assert terminal_of(server, "ana").app.pid == terminal_of(server, "bea").app.pid  # one worker
        await ana.wait(b"Set aside")
        for c in (ana, bea):
            await asyncio.sleep(0.5)
            c.process.stdin.write(b"\r")  # Gemelos: the dialog, with the player's own name in seat 1
        at_ana, at_bea = await ana.wait(b"New game"), await bea.wait(b"New game")
        await ana.wait(b"ana", at_ana - 2000)
        await bea.wait(b"bea", at_bea - 2000)
        for c in (ana, bea):
            await asyncio.sleep(0.5)
            c.process.stdin.write(b"\r")
            await c.wait(GAME)
        await until(lambda: (ana_home / "saves" / "gemelos.json").is_file())
        await until(lambda: (home_for(root, "bea") / "saves" / "gemelos.json").is_file())
        assert b"Set aside" not in bea.seen
        assert json.loads((ana_home / "saves" / "gemelos.json").read_text())["seats"][0]["name"] == "ana"
        for c in (ana, bea):
            await c.close()
    finally:
        await server.close()


@sync
async def test_the_locale_a_client_sends_is_kept_for_its_app_and_spoken_there(tmp_path):
    server, port = await started(tmp_path, workers=1)
    try:
        ana = await (await Client.connect(port, "ana")).play(env={"LANG": "es_ES.UTF-8"})
        bea = await (await Client.connect(port, "bea")).play(env={"LC_ALL": "../../x\x1b[2J"})
        cai = await (await Client.connect(port, "cai")).play(env={"LANG": "gl_ES.UTF-8"})
        # One worker, three languages: each player's menu in their own.
        await ana.wait(b"un garito de dados y cartas")
        await bea.wait(MENU)
        await cai.wait(b"un garito de dados e cartas")
        assert terminal_of(server, "ana").app.pid == terminal_of(server, "cai").app.pid
        # the menu's last lines come after its banner, maybe in a later read
        await ana.wait(b"Salir")
        await cai.wait("Saír".encode())
        await bea.wait(b"Quit")
        assert b"Salir" in ana.seen and "Saír".encode() in cai.seen and b"Quit" in bea.seen
        assert terminal_of(server, "ana").locale == "es_ES.UTF-8"
        assert terminal_of(server, "bea").locale == ""
        for c in (ana, bea, cai):
            await c.close()
    finally:
        await server.close()

    scope = environ.Scope({"GARITO_LOCALE": "es_ES.UTF-8", "LANG": "C.UTF-8"})
    import contextvars

    context = contextvars.copy_context()
    context.run(environ.enter, scope)
    assert context.run(environ.locale) == "es_ES.UTF-8"  # what the app reads, per player


@sync
async def test_a_worker_that_dies_lets_its_players_go_and_the_next_one_gets_another(tmp_path):
    server, port = await started(tmp_path, workers=1)
    try:
        ana = await (await Client.connect(port, "ana")).play()
        await ana.wait(MENU)
        pid = terminal_of(server, "ana").app.pid
        os.kill(pid, signal.SIGKILL)  # as the kernel's OOM killer, or a crash in C, would
        await asyncio.wait_for(ana.process.wait_closed(), TIMEOUT)
        assert ana.process.exit_status == 1 and b"worker for this game stopped" in ana.seen
        await until(lambda: not server.terminals)
        bea = await (await Client.connect(port, "bea")).play()
        await bea.wait(MENU)
        assert terminal_of(server, "bea").app.pid != pid
        await ana.close()
        await bea.close()
        await until(lambda: not alive(pid))
    finally:
        await server.close()


@sync
async def test_an_idle_server_keeps_a_worker_warm_with_no_game_and_a_fresh_one_after_everyone(tmp_path):
    server, port = await started(tmp_path, workers=1)
    try:
        assert server.pool is not None
        await until(lambda: [w.ready.done() for w in server.pool.workers] == [True])  # before anyone came
        warm = server.pool.workers[0]
        assert warm.players == 0 and not warm.apps
        ana = await (await Client.connect(port, "ana")).play()
        await ana.wait(MENU)
        assert terminal_of(server, "ana").app.pid == warm.pid  # no start waited for
        await ana.close()
        await until(lambda: not alive(warm.pid))  # what her game left in it is given back
        await until(lambda: len(server.pool.workers) == 1 and server.pool.workers[0].ready.done())
        fresh = server.pool.workers[0]
        assert fresh.pid != warm.pid and fresh.players == 0 and not fresh.hosted
    finally:
        await server.close()
    assert not alive(fresh.pid)


def _pool_of(*players: int, per_worker: int = 24, size: int = 2):
    """A pool of ready workers with these many players each (no process)."""
    from garito.server.pool import Pool
    from garito.server.pool import Worker as Held

    pool = Pool(["false"], {}, workers=size, per_worker=per_worker, players=100, memory=0, warm=0)
    spares: list[int] = []

    async def spare() -> None:
        spares.append(len(pool.workers))

    pool._spare = spare  # type: ignore[method-assign]
    for n in players:
        w = Held(pool)
        w.ready.set_result(None)
        w.players = n
        pool.workers.append(w)
    return pool, spares


@sync
async def test_a_crowd_is_spread_over_the_open_workers_by_their_newest_arrivals_not_sent_to_the_emptiest():
    pool, _ = _pool_of(10, 2)
    a, b = pool.workers
    picks = [await pool.place() for _ in range(6)]
    # Placing does not seat anyone (the app's start does): by players alone
    # all six would go to b, one core asked for all their starts.
    assert picks == [b, a, b, a, b, a]


@sync
async def test_the_next_worker_is_started_while_half_a_worker_of_places_is_left_or_a_core_has_none():
    pool, spares = _pool_of(12, 11)
    await pool.place()
    await asyncio.sleep(0)
    assert spares == []  # 25 places left, over two open workers
    pool, spares = _pool_of(18, 18)
    await pool.place()
    await asyncio.sleep(0)
    assert spares == [2]  # 12 places left: half a worker's
    pool, spares = _pool_of(2, 21)
    await pool.place()
    await asyncio.sleep(0)
    assert spares == [2]  # only one worker with room: the crowd would have one core


@sync
async def test_a_worker_stuck_in_a_loop_is_killed_by_the_watchdog(tmp_path, monkeypatch):
    from garito.server import pool

    monkeypatch.setattr(pool, "WATCHDOG", 4.0)
    server, port = await started(tmp_path, workers=1)
    try:
        ana = await (await Client.connect(port, "ana")).play()
        await ana.wait(MENU)
        pid = terminal_of(server, "ana").app.pid
        os.kill(pid, signal.SIGSTOP)  # as an app stuck in a loop would hold its worker's loop
        await asyncio.wait_for(ana.process.wait_closed(), TIMEOUT)  # unheard: killed, she is let go
        assert ana.process.exit_status == 1 and b"worker for this game stopped" in ana.seen
        await until(lambda: not alive(pid))
        bea = await (await Client.connect(port, "bea")).play()
        await bea.wait(MENU)
        for c in (ana, bea):
            await c.close()
    finally:
        await server.close()


def _sockets_of(pid: int) -> dict[int, str]:
    """Every socket ``pid`` holds: inode -> its local address ("" for an
    unnamed Unix socket, else the address it is bound to)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    found = {}
    with open("/proc/net/unix") as f:
        next(f)
        for line in f:
            fields = line.split()
            if int(fields[6]) in inodes:
                found[int(fields[6])] = fields[7] if len(fields) > 7 else ""
    for table in ("tcp", "tcp6", "udp", "udp6"):
        try:
            with open(f"/proc/net/{table}") as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if int(fields[9]) in inodes:
                        found[int(fields[9])] = f"{table} {fields[1]}"
        except FileNotFoundError:
            pass
    return found


@sync
async def test_a_worker_holds_no_address_and_its_line_survives_garbage(tmp_path):
    """A worker faces no network: its line to the server and every player's
    terminal are unnamed Unix socket pairs (nothing another process could
    connect to, on any address). And what comes over its line that it
    cannot read (not JSON, wrong types, descriptors with a message it cannot
    take) is set aside, the descriptors closed: the worker and its player
    play on."""
    server, port = await started(tmp_path, workers=1)
    try:
        ana = await (await Client.connect(port, "ana")).play()
        await ana.wait(MENU)
        w = terminal_of(server, "ana").app.worker
        sockets = _sockets_of(w.pid)
        assert sockets and all(address == "" for address in sockets.values()), sockets
        fds = len(os.listdir(f"/proc/{w.pid}/fd"))
        garbage = [
            b"not json",
            b"[1, 2]",
            b'"start"',
            b'{"op": 5}',
            b'{"op": "resize", "id": "x"}',
            b'{"op": "start", "id": "x", "size": 5, "env": 1}',
            b"{" * 5000,
            b"\xff" * 100,
        ]
        for data in garbage:
            w.sock.send(data)
        for data in garbage:  # each with a descriptor it must not keep
            a, b = socket.socketpair()
            socket.send_fds(w.sock, [data], [b.fileno()])
            a.close()
            b.close()
        await asyncio.sleep(1.0)
        assert terminal_of(server, "ana").app.worker is w and alive(w.pid)
        await until(lambda: len(os.listdir(f"/proc/{w.pid}/fd")) <= fds)
        at = len(ana.seen)
        ana.process.stdin.write(b"\x1b[B")  # she still plays: the menu answers her key
        await until(lambda: len(ana.seen) > at)
        await ana.close()
    finally:
        await server.close()


# ---------------------------------------------------------------- an app that fails

CRASH = textwrap.dedent(
    """
    import asyncio, json, os, socket, sys
    from garito.server import worker
    worker._prepare()
    from garito.store import environ
    from garito.tui.app import GarApp

    mount = GarApp.on_mount
    def on_mount(self):
        if environ.get("GARITO_PLAYER") == "crash":
            raise RuntimeError("a bug in one app")
        mount(self)
    GarApp.on_mount = on_mount

    async def main():
        control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        w = worker.Worker(theirs)
        running = asyncio.create_task(w.run())
        ends = {}
        for sid, name in ((1, "crash"), (2, "fine")):
            a, b = socket.socketpair()
            a.setblocking(False)
            ends[sid] = a
            env = {"GARITO_HOME": os.path.join(sys.argv[1], name), "GARITO_PLAYER": name}
            socket.send_fds(control, [json.dumps({"op": "start", "id": sid, "size": [80, 24],
                                                 "env": env}).encode()], [b.fileno()])
            b.close()
        seen, ended = {1: b"", 2: b""}, {}
        control.setblocking(False)
        loop = asyncio.get_running_loop()
        while 1 not in ended or b"parlor" not in seen[2]:
            await asyncio.sleep(0.05)
            for sid, a in ends.items():
                try:
                    seen[sid] += a.recv(1 << 20)
                except BlockingIOError:
                    pass
            try:
                m = json.loads(control.recv(1 << 16))
                if m["op"] == "ended":
                    ended[m["id"]] = m["status"]
            except BlockingIOError:
                pass
        ends[2].send(b"\\x1b[B")  # the other one still answers its keys
        before = len(seen[2])
        for _ in range(100):
            await asyncio.sleep(0.05)
            try:
                seen[2] += ends[2].recv(1 << 20)
            except BlockingIOError:
                pass
            if len(seen[2]) > before:
                break
        crashes = os.path.join(sys.argv[1], "crash", "crashes")
        said = "stopped on an error; what happened is in " + crashes in seen[1].decode(errors="replace")
        print(json.dumps({"ended": ended, "said": said,
                          "kept": any("a bug in one app" in open(os.path.join(d, f)).read()
                                      for d, _, fs in os.walk(os.path.join(sys.argv[1], "crash")) for f in fs
                                      if f.startswith("crash-")),
                          "other_answers": len(seen[2]) > before, "sessions": sorted(w.sessions)}),
              file=sys.__stdout__, flush=True)
        os._exit(0)

    asyncio.run(main())
    """
)


def test_an_app_that_fails_ends_alone_and_its_player_is_shown_why(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", CRASH, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["ended"] == {"1": 1}  # the failing app alone, status 1
    assert result["said"]  # its player sees the line a terminal of their own would show
    assert result["kept"]  # and the traceback is kept in their own home
    assert result["other_answers"] and result["sessions"] == [2]


# ---------------------------------------------------------------- the pieces


def test_each_session_reads_its_own_scope_and_the_process_its_environment(tmp_path, monkeypatch):
    import contextvars

    monkeypatch.setenv("GARITO_HOME", str(tmp_path / "local"))
    assert paths.config_dir() == tmp_path / "local"  # local use: the environment, as before
    homes = {}
    for name in ("ana", "bea"):
        context = contextvars.copy_context()
        scope = environ.Scope({"GARITO_HOME": str(tmp_path / name), "GARITO_PLAYER": name})
        context.run(environ.enter, scope)
        homes[name] = context.run(lambda: (paths.config_dir(), settings.player(), environ.get("PATH")))
    assert homes["ana"] == (tmp_path / "ana", "ana", None)  # nothing leaks in from the worker's own
    assert homes["bea"] == (tmp_path / "bea", "bea", None)
    assert paths.config_dir() == tmp_path / "local"


def test_a_thread_worker_runs_in_the_scope_of_the_session_that_started_it(tmp_path):
    import contextvars

    async def main():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(SessionThreads(4))
        context = contextvars.copy_context()
        context.run(environ.enter, environ.Scope({"GARITO_HOME": str(tmp_path / "ana")}))

        async def in_session():
            return await loop.run_in_executor(None, paths.config_dir)

        return await loop.create_task(in_session(), context=context)

    assert asyncio.run(main()) == tmp_path / "ana"


class _Driver:
    def __init__(self):
        self.paused = 0
        self.resized = []

    def pause_input(self):
        self.paused += 1

    def resume_input(self):
        self.paused -= 1

    def resize(self, width, height):
        self.resized.append((width, height))


class _Worker:
    def ended(self, session, status):
        pass


def test_a_session_over_its_share_of_the_cpu_waits_and_then_is_ended():
    session = Session(_Worker(), 1, -1, (80, 24), {})
    session.driver = _Driver()
    hung = []
    session.hang_up = lambda: hung.append(True)
    t = 0.0
    for _ in range(int(CPU_WINDOW)):  # within its share: nothing happens
        t += 1
        session.cpu += CPU_SHARE / 2
        session.judge(t, session.share(t))
    assert session.over_since is None and session.driver.paused == 0
    for _ in range(int(CPU_WINDOW)):  # a core's worth of work, second after second
        t += 1
        session.cpu += 1.0
        session.judge(t, session.share(t))
    assert session.over_since is not None and session.driver.paused == 1  # its input waits
    session.resize(120, 40)
    assert session.driver.resized == []  # so do its resizes
    while not hung and t < 10 * CPU_OVER:
        t += 1
        session.cpu += 1.0
        session.judge(t, session.share(t))
    assert hung and "more than its share" in session.why  # still over, long after: ended

    calm = Session(_Worker(), 2, -1, (80, 24), {})
    calm.driver = _Driver()
    for _ in range(int(CPU_WINDOW)):
        t += 1
        calm.cpu += 1.0
        calm.judge(t, calm.share(t))
    calm.resize(100, 30)
    for _ in range(3 * int(CPU_WINDOW)):  # back under: its input and the last size come
        t += 1
        calm.judge(t, calm.share(t))
    assert calm.over_since is None and calm.driver.paused == 0 and calm.driver.resized == [(100, 30)]


def test_sessions_that_together_keep_their_worker_busy_wait_and_the_others_play_on():
    # Three sessions each just under half a core: alone, each within its
    # share; together, a busy worker, where every other player waited.
    worker = Worker.__new__(Worker)
    worker.sessions = {}
    for n in range(4):
        worker.sessions[n] = Session(_Worker(), n, -1, (80, 24), {})
        worker.sessions[n].driver = _Driver()
    heavy, human = [worker.sessions[n] for n in range(3)], worker.sessions[3]
    assert 3 * 0.3 >= CPU_BUSY and 0.3 < CPU_SHARE and 0.3 > CPU_SHARE_BUSY > 0.03
    t = 0.0
    for _ in range(int(CPU_WINDOW)):
        t += 1
        for s in heavy:
            s.cpu += 0.3
        human.cpu += 0.03  # a player at a human pace, the computer's moves with it
        worker.judge_shares(t)
    assert [s.driver.paused for s in heavy] == [1, 1, 1]  # their input waits...
    assert human.driver.paused == 0 and human.over_since is None  # ...not the player's
    for _ in range(int(CPU_WINDOW)):  # waiting, they take nothing: the worker is free again
        t += 1
        human.cpu += 0.03
        worker.judge_shares(t)
    assert [s.driver.paused for s in heavy] == [0, 0, 0] and human.driver.paused == 0

    # One session at 0.3 of a core on a worker that is not busy: its share holds.
    alone = Worker.__new__(Worker)
    alone.sessions = {0: Session(_Worker(), 0, -1, (80, 24), {})}
    alone.sessions[0].driver = _Driver()
    for _ in range(3 * int(CPU_WINDOW)):
        t += 1
        alone.sessions[0].cpu += 0.3
        alone.judge_shares(t)
    assert alone.sessions[0].driver.paused == 0


@sync
async def test_screen_the_socket_does_not_take_is_dropped_and_drawn_again_later():
    refreshed = []

    class Screen:
        def refresh(self):
            refreshed.append(True)

    class App:
        _running = True
        _screen_stack = [Screen()]
        screen = _screen_stack[0]

    class Channel:
        drained = 0

        def __init__(self, fd):
            self.fd = fd

        def attach(self, driver):
            pass

        def output_drained(self):
            Channel.drained += 1

    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        d = socket_driver.SocketDriver(App(), channel=Channel(writer.fileno()), size=(80, 24))
        frame = "x" * 20_000
        for _ in range(200):  # 4 MB of screen nobody reads
            d.write(frame)
            d.flush()
            assert d.queued <= socket_driver.QUEUE_MAX + len(frame)
        reader.setblocking(False)
        for _ in range(200):  # the reader comes back and takes it all
            await asyncio.sleep(0.01)
            try:
                while reader.recv(1 << 20):
                    pass
            except BlockingIOError:
                pass
            if not d.queued:
                break
        assert not d.queued and Channel.drained
        assert refreshed  # the whole screen again
    finally:
        reader.close()
        writer.close()


@contextlib.contextmanager
def _keys_driver():
    """A socket driver reading keys, as a started app's: its parser made,
    its socket and its escape timer let go after."""

    class Pump:  # the parts of Textual's message pumps the driver reads
        focused = None

        def __init__(self):
            self._message_queue: asyncio.Queue = asyncio.Queue()

    class App(Pump):
        _running = True

        def __init__(self):
            super().__init__()
            self._screen_stack = [Pump()]

    class Channel:  # a worker's session, as the driver sees it
        id = 7

        def __init__(self, fd):
            self.fd = fd

        def attach(self, driver):
            pass

    reader, writer = socket.socketpair()
    d = socket_driver.SocketDriver(App(), channel=Channel(writer.fileno()), size=(80, 24))
    d._new_parser()
    try:
        yield d
    finally:
        d.disable_input()
        reader.close()
        writer.close()


@sync
async def test_keys_textuals_parser_cannot_read_are_dropped_and_the_next_keys_come(caplog):
    # Each of these broke Textual's parser for good: every key after raised
    # (and was a traceback in the log), ctrl+q too.
    from textual import events

    with _keys_driver() as d:
        keys: list[str] = []
        d.process_message = lambda event: keys.append(event.key) if isinstance(event, events.Key) else None
        broken = ("\x1b[1114112u", "\x1b[97;1;1114112u", "\x1b[97:1114112u", "\x1b[97;1:9u")
        broken += ("\x1b[99999999999~",)
        for bad in broken:
            keys.clear()
            d._feed(bad)
            d._feed("a")
            d._feed("\x11")
            assert keys[-2:] == ["a", "ctrl+q"], (bad, keys)
        broke = [r for r in caplog.records if "could not read" in r.getMessage()]
        assert len(broke) == 1 and not broke[0].exc_info  # once a session, no traceback
        # named as the server's line of who plays in it names it
        assert broke[0].getMessage().startswith("session 7: ")


@sync
async def test_an_escape_typed_just_after_another_key_is_a_key_without_waiting_for_the_next():
    # The driver ticked the parser 0.1 s after a key; an Escape typed 30 ms
    # later timed out after that tick, and waited for the next key to come.
    from textual import events

    with _keys_driver() as d:
        keys: list[str] = []
        d.process_message = lambda event: keys.append(event.key) if isinstance(event, events.Key) else None
        for gap in (0.03, 0.0, 0.09):
            keys.clear()
            d._feed("\x1b[B")
            await asyncio.sleep(gap)
            d._feed("\x1b")
            await asyncio.sleep(0.35)
            assert keys == ["down", "escape"], gap
        keys.clear()
        await asyncio.sleep(0.3)
        assert d._tick is None and keys == []  # nothing held: no tick set, none due


@sync
async def test_the_redraw_after_dropped_screen_draws_every_line():
    """What the driver asks of a real app once the socket drains: the whole
    screen written again (a same-size Resize, asked before, drew nothing)."""
    from textual.app import App
    from textual.widgets import Static

    class Shown(App):
        def compose(self):
            yield Static("what the player should see")

    app = Shown()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        drawn = []
        display = app._display

        def spy(screen, update):
            drawn.append(update)
            return display(screen, update)

        app._display = spy
        driver = socket_driver.SocketDriver.__new__(socket_driver.SocketDriver)
        driver._app = app
        driver._redraw()
        await pilot.pause()
        regions = [u.region for u in drawn if u is not None and hasattr(u, "region")]
        assert any(r.width == 80 and r.height == 24 for r in regions), drawn


PATCHES = textwrap.dedent(
    """
    import json, random, sys
    from textual.strip import Strip
    from rich.segment import Segment
    from rich.style import Style
    from textual import _compositor
    divide, crop_extend, arrange = Strip.divide, Strip.crop_extend, _compositor.Compositor._arrange_root
    from garito.server import worker
    worker._prepare()
    rng = random.Random(5)
    same = True
    for _ in range(2000):
        segments = [Segment("ab" * rng.randint(0, 3), Style(bold=rng.random() < 0.5)) for _ in range(3)]
        strip = Strip(segments)
        n = strip.cell_length
        cuts = sorted(rng.randint(0, n + 2) for _ in range(rng.randint(1, 3)))
        start, end = rng.randint(-1, n + 1), rng.randint(0, n + 2)
        a, b = Strip.divide(strip, cuts), divide(Strip(segments), cuts)
        c, d = Strip.crop_extend(strip, start, end, None), crop_extend(Strip(segments), start, end, None)
        same &= [s.text for s in a] == [s.text for s in b] and c.text == d.text
        same &= c.cell_length == d.cell_length
    print(json.dumps({"same": same, "layout": _compositor.Compositor._arrange_root is not arrange,
                      "divide": Strip.divide is not divide}))
    """
)


def test_the_workers_textual_fixes_draw_the_same_and_apply_to_the_pinned_textual():
    out = subprocess.run([sys.executable, "-c", PATCHES], capture_output=True, text=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"same": True, "layout": True, "divide": True}


@sync
async def test_a_storm_of_window_changes_reaches_the_worker_as_a_few_sizes_and_the_last():
    # A client sent 3,000 window changes a second: each was a message on the
    # worker's line, which filled, and other players' start, hang-up and
    # kill messages were dropped.
    from garito.server import pool

    class Pool:
        def session_leaving(self, worker):
            pass

    class Worker:
        sent: list[dict] = []
        apps: dict = {}

        def send(self, fds=None, **message):
            self.sent.append(message)
            return True

    app = pool.WorkerApp(Pool())  # type: ignore[arg-type]
    app.worker, app.id = Worker(), 7  # type: ignore[assignment]
    for i in range(3000):
        app.resize(80 + i % 50, 24 + i % 7)
        if i % 300 == 0:
            await asyncio.sleep(0.01)  # the storm goes on for a few tenths of a second
    assert Worker.sent[0] == {"op": "resize", "id": 7, "size": [80, 24]}  # the first at once
    await asyncio.sleep(3 * pool.RESIZE_GAP)
    last = 80 + 2999 % 50, 24 + 2999 % 7
    assert Worker.sent[-1]["size"] == list(last)  # the last one wins
    assert len(Worker.sent) <= 2 + 0.2 / pool.RESIZE_GAP + 10  # a few, not 3,000
    app._ended(0, "")
    assert app._resizing is None


@sync
async def test_a_size_typed_as_keys_never_reaches_the_app():
    # A terminal's in-band size report, typed by a client: Textual's parser
    # made it a Resize of any size, past the clamp (a few of 12000×12000 took
    # a worker's memory, and every game on it).
    from textual import events

    with _keys_driver() as d:
        sent: list = []
        d.send_message = sent.append  # type: ignore[method-assign]
        d._feed("\x1b[48;12000;12000;0;0t")
        d._feed("a")
        assert not [m for m in sent if isinstance(m, events.Resize)]
        assert [m.key for m in sent if isinstance(m, events.Key)] == ["a"]
        d.resize(100, 30)  # the channel's own size, clamped by the server, comes
        assert [m.size for m in sent if isinstance(m, events.Resize)] == [(100, 30)]


async def _drained(d, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while d._held and loop.time() < end:
        await asyncio.sleep(0.01)
    assert not d._held


@sync
async def test_a_flood_of_keys_goes_to_the_app_a_turn_at_a_time_within_its_share_and_the_rest_is_dropped(
    caplog,
):
    # Textual's pumps handle every message waiting before they yield: 16 KB
    # of keys handed over at once held every other player of the worker for
    # seconds (bench/fairness.py).
    from textual import events

    with _keys_driver() as d:
        handed: list = []
        d.send_message = handed.append  # type: ignore[method-assign]
        told: list[str] = []
        d._app.notify = lambda message, **_options: told.append(message)
        d._feed("x" * 1000)
        assert len(handed) == socket_driver.KEYS_PER_TURN  # one turn's worth, the rest at the next turns
        assert d.dropped == 1000 - socket_driver.KEYS_HELD  # what no turn will take soon
        await _drained(d)
        assert len(handed) == socket_driver.KEY_SHARE  # the share's burst, and no more
        assert all(isinstance(e, events.Key) and e.key == "x" for e in handed)
        # Over the share now: plain keys are dropped before they are parsed...
        d._feed("y" * socket_driver.KEYS_HELD)
        parsed: list[str] = []
        feed = d._parser.feed
        d._parser.feed = lambda text: (parsed.append(text), feed(text))[1]
        d._feed("z" * 500 + "\x1b[")
        assert parsed == ["\x1b["]
        # ...but never the rest of a sequence the parser has begun: it reads it whole.
        d._feed("Bzz")
        assert parsed[-1] == "Bzz"
        await _drained(d)
        handed.clear()
        d._feed("\x1b[A")
        await _drained(d)
        assert [e.key for e in handed] == ["up"]
        assert told == ["Keys came faster than a game can take them: the rest were dropped."]  # once
        assert [r.getMessage() for r in caplog.records if "share" in r.getMessage()] == [
            "session 7: keys over its share were dropped"
        ]


@sync
async def test_keys_wait_while_the_app_has_not_handled_the_last_ones():
    with _keys_driver() as d:
        handed: list = []
        d.send_message = handed.append  # type: ignore[method-assign]
        d._app._message_queue.put_nowait("a message of the app's own, not handled yet")
        d._feed("abc")
        assert handed == []
        d._app._message_queue.get_nowait()
        await _drained(d)
        assert [e.key for e in handed] == ["a", "b", "c"]
