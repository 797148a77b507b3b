"""``garito serve``: Garito over SSH, for players with a plain ``ssh`` client.

Each connection gets the Garito app in its own pseudo-terminal: a child
process per connection with a pty, the client's terminal type and size
(resizes forwarded), bytes passed through untouched (no line editing in
between). Each SSH user name has its own Garito home (saves, settings,
history) under the server's data directory. A connection can only play: no
shell, no port forwarding, no agent or X11 forwarding, no file transfer.

Authentication is by public key against an ``authorized_keys`` file, or,
with ``--guests``, nobody is asked for anything and the user name is the
player's name. The host key is generated once and kept under the user data
directory. Connections beyond ``--max-connections`` are turned away.

The shared tables live here too (``tables.TableServer``), on a local
socket in a private folder; each connection's app is told where
(``GARITO_TABLES``) and given a token that says who it is
(``GARITO_TABLES_TOKEN``, the SSH user name behind it), so its menu offers
"Shared tables".
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import pty
import re
import shutil
import signal
import struct
import sys
import tempfile
import termios
from pathlib import Path

import asyncssh

from .tables import TableServer

log = logging.getLogger("garito.serve")

APP = [sys.executable, "-c", "from garito.tui.cli import entry; entry()"]


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


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(1, height), max(1, width), 0, 0))


def _own_terminal() -> None:
    """In the child: a session of its own with the pty as its controlling
    terminal, so that when the server goes away (the pty's other end
    closes) the kernel hangs the app up instead of leaving it running."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _home_for(root: Path, user: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", user)[:32] or "guest"
    return root / "ssh-players" / safe


class _Server(asyncssh.SSHServer):
    def __init__(self, serve: Serve) -> None:
        self.serve = serve
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        if self.serve.connections >= self.serve.max_connections:
            log.warning("refused %s: %d connections already", peer, self.serve.connections)
            conn.close()
            return
        self.serve.connections += 1
        log.info("connection from %s", peer)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.serve.connections = max(0, self.serve.connections - 1)
            log.info("connection closed: %s", self.conn.get_extra_info("peername"))

    def begin_auth(self, username: str) -> bool:
        return not self.serve.guests  # guests: no authentication at all

    def public_key_auth_supported(self) -> bool:
        return not self.serve.guests

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False


class Serve:
    def __init__(
        self,
        home: Path,
        *,
        authorized_keys: str | None = None,
        guests: bool = False,
        max_connections: int = 50,
        app: list[str] | None = None,
    ) -> None:
        self.home = home
        self.authorized_keys = authorized_keys
        self.guests = guests
        self.max_connections = max_connections
        self.connections = 0
        self.app = app or APP
        self.server: asyncssh.SSHAcceptor | None = None
        self.tables = TableServer(tokens=True)
        self._folder = ""
        self.tables_path = ""

    async def start(self, host: str, port: int) -> int:
        """Listen; returns the port (useful when ``port`` is 0)."""
        # A short private path: a unix socket's path has a length limit, and
        # only this server's own children may speak to the tables.
        self._folder = tempfile.mkdtemp(prefix="garito-")
        self.tables_path = os.path.join(self._folder, "tables.sock")
        await self.tables.start(self.tables_path)
        self.server = await asyncssh.create_server(
            lambda: _Server(self),
            host,
            port,
            server_host_keys=[host_key(self.home)],
            authorized_client_keys=None if self.guests else self.authorized_keys,
            process_factory=self._session,
            encoding=None,
            line_editor=False,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            sftp_factory=None,
        )
        return self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        await self.tables.close()
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        user = process.get_extra_info("username") or "guest"
        if process.command is not None or process.get_terminal_type() is None:
            process.stderr.write(b"Garito is played in a terminal: connect with ssh -t, no command.\r\n")
            process.exit(1)
            return
        width, height, *_ = process.get_terminal_size()
        token = self.tables.admit(user)
        try:
            await self._play(process, user, width, height, token)
        finally:
            self.tables.dismiss(token)

    async def _play(self, process, user: str, width: int, height: int, token: str) -> None:
        master, slave = pty.openpty()
        _set_size(slave, width or 80, height or 24)
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "PYTHONPATH")}
        env.update(
            TERM=process.get_terminal_type() or "xterm-256color",
            COLORTERM="truecolor",
            GARITO_HOME=str(_home_for(self.home, user)),
            GARITO_PLAYER=user[:12],  # the name at the table, changeable from the menu
            GARITO_TABLES=self.tables_path,
            GARITO_TABLES_TOKEN=token,
        )
        child = await asyncio.create_subprocess_exec(
            *self.app, stdin=slave, stdout=slave, stderr=slave, env=env, preexec_fn=_own_terminal
        )
        os.close(slave)
        log.info("%s plays (pid %d)", user, child.pid)
        loop = asyncio.get_running_loop()
        done = asyncio.Event()

        def output() -> None:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if data:
                process.stdout.write(data)
            else:
                loop.remove_reader(master)
                done.set()

        loop.add_reader(master, output)

        async def keys() -> None:
            while not done.is_set():
                try:
                    data = await process.stdin.read(4096)
                except asyncssh.TerminalSizeChanged as e:
                    _set_size(master, e.width, e.height)
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue
                if not data:
                    break  # the client went away
                os.write(master, data)

        reader = asyncio.create_task(keys())
        finished = asyncio.create_task(done.wait())
        await asyncio.wait({reader, finished}, return_when=asyncio.FIRST_COMPLETED)
        if child.returncode is None:
            try:
                os.killpg(child.pid, signal.SIGHUP)
            except ProcessLookupError:
                pass
        status = await child.wait()
        reader.cancel()
        loop.remove_reader(master)
        os.close(master)
        log.info("%s left (status %s)", user, status)
        process.exit(0 if status == 0 else 1)


async def serve_forever(home: Path, host: str, port: int, **options) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    server = Serve(home, **options)
    bound = await server.start(host, port)
    log.info("Garito serves on %s port %d (%s)", host, bound, "guests" if options.get("guests") else "keys")
    try:
        await asyncio.Event().wait()
    finally:
        await server.close()
