"""``garito serve`` as an operator runs it, in a process of its own: under
``nohup`` (SIGHUP ignored, and so inherited ignored by every child), stopped
with SIGTERM, or killed outright. Every game must end with its connection,
and a stop must leave nothing behind. Loopback only, bounded."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from garito.core.fairness import verify
from garito.server.homes import FOLDER, encode

from .helpers import sync
from .test_serve_hostile import MENU, TIMEOUT, Client, alive, started, until

GARITO = [sys.executable, "-c", "from garito.tui.cli import entry; entry()"]


class Operator:
    """``garito serve --guests`` in its own process, its log in a file."""

    def __init__(self, tmp_path: Path, *prefix: str, options: tuple[str, ...] = ()) -> None:
        self.log_path = tmp_path / "serve.log"
        self.home = tmp_path / "home"
        env = dict(os.environ, GARITO_HOME=str(self.home))
        self.log_file = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            free = s.getsockname()[1]
        self.process = subprocess.Popen(
            [*prefix, *GARITO, "serve", "--guests", "--host", "127.0.0.1", "--port", str(free), *options],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def port(self) -> int:
        await until(lambda: "Garito serves on" in self.log or self.process.poll() is not None)
        found = re.search(r"Garito serves on \S+ port (\d+)", self.log)
        assert found, self.log
        return int(found.group(1))

    def tables_folder(self) -> Path:
        return Path(re.search(r"tables at (\S+)", self.log).group(1)).parent

    async def pid_of(self, user: str) -> int:
        pattern = re.compile(rf"{re.escape(user)} \(\S+\) plays \(pid (\d+)")
        await until(lambda: pattern.search(self.log) is not None)
        # in a worker, with the session's number its worker's lines name it by
        assert re.search(rf"{re.escape(user)} \(\S+\) plays \(pid \d+, session \d+, \d+x\d+\)", self.log)
        return int(pattern.search(self.log).group(1))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.log_file.close()


@pytest.fixture
def nohup():
    found = shutil.which("nohup")
    if found is None:
        pytest.skip("no nohup on this machine")
    return found


def sighup_ignored(pid: int) -> bool:
    with open(f"/proc/{pid}/status") as f:
        ignored = int(next(line for line in f if line.startswith("SigIgn:")).split()[1], 16)
    return bool(ignored & (1 << (signal.SIGHUP - 1)))


@sync
async def test_under_nohup_a_game_ends_with_its_connection_and_sigterm_stops_cleanly(tmp_path, nohup):
    server = Operator(tmp_path, nohup)
    try:
        port = await server.port()
        assert sighup_ignored(server.process.pid)  # as nohup leaves it: inherited by default
        ana = await (await Client.connect(port, "ana")).play()
        await ana.wait(MENU)
        pid = await server.pid_of("ana")
        assert not sighup_ignored(pid)  # the game's own dispositions are the defaults again
        ana.conn.abort()  # the connection drops, no goodbye
        await until(lambda: not alive(pid))  # and the game ends with it

        bea = await (await Client.connect(port, "bea")).play()
        await bea.wait(MENU)
        pid = await server.pid_of("bea")
        folder = server.tables_folder()
        assert folder.is_dir()
        server.process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(server.process.wait, TIMEOUT) == 0
        await asyncio.wait_for(bea.process.wait_closed(), TIMEOUT)  # she is told, and let go
        assert not alive(pid) and not folder.exists()
        assert (
            server.log.rstrip().splitlines()[-1].endswith("Garito stopped: 1 player let go, 0 tables closed")
        )
        await bea.close()
    finally:
        server.stop()


@sync
async def test_a_killed_server_takes_its_games_with_it(tmp_path):
    server = Operator(tmp_path)
    try:
        port = await server.port()
        ana = await (await Client.connect(port, "ana")).play()
        await ana.wait(MENU)
        pid = await server.pid_of("ana")
        server.process.kill()  # no chance to clean up: the kernel's parent-death signal does
        server.process.wait(TIMEOUT)
        await until(lambda: not alive(pid))
        await ana.close()
    finally:
        server.stop()


@sync
async def test_a_match_still_being_played_when_the_server_stops_is_kept_for_its_players(tmp_path):
    serve, port = await started(tmp_path)
    try:
        players = []
        for name in ("ana", "Bea"):
            reader, writer = await asyncio.open_unix_connection(serve.tables_path)
            token = serve.tables.admit(name)
            writer.write(json.dumps({"op": "hello", "token": token}).encode() + b"\n")
            players.append((reader, writer))
        players[0][1].write(b'{"op": "create", "game": "gemelos", "seats": ["human", "human"]}\n')
        await until(lambda: 1 in serve.tables.tables)
        players[1][1].write(b'{"op": "join", "table": 1}\n')
        await until(lambda: len(serve.tables.tables[1].players) == 2)
        for _, writer in players:
            await writer.drain()
    finally:
        await serve.close()
    for name in ("ana", "Bea"):
        kept = list((tmp_path / "serve" / FOLDER / encode(name) / "unfinished-tables").iterdir())
        assert len(kept) == 1
        verdict = verify(json.loads(kept[0].read_text()))
        assert verdict.verified and verdict.match.names == ("ana", "Bea")  # the seed is shown: it verifies
    assert not os.path.exists(serve.tables_path)


def test_the_child_set_up_takes_back_what_nohup_gave(tmp_path):
    # Outside any server: started with SIGHUP ignored and signals blocked,
    # the set-up leaves the app with the defaults and a memory cap.
    code = (
        "import os, signal, resource; from garito.server import child; child.setup();"
        "print(signal.getsignal(signal.SIGHUP) == signal.SIG_DFL,"
        " signal.pthread_sigmask(signal.SIG_BLOCK, []), resource.getrlimit(resource.RLIMIT_AS)[0])"
    )

    def hostile_parent():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})

    env = dict(os.environ, GARITO_APP_MEMORY=str(512 << 20), GARITO_SERVER_PID=str(os.getpid()))
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=hostile_parent,
        timeout=60,
    )
    assert out.stdout.split() == ["True", "set()", str(512 << 20)], out.stderr


def test_a_child_whose_server_is_already_gone_does_not_start(tmp_path):
    env = dict(os.environ, GARITO_SERVER_PID="1")  # not its parent: its server is gone
    out = subprocess.run(
        [sys.executable, "-c", "from garito.server.child import main; main()", "true"], env=env, timeout=60
    )
    assert out.returncode == 1  # and `true` never ran (it exits 0)
