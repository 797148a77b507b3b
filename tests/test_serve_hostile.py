"""``garito serve`` against clients that mean harm, over real SSH (asyncssh's
client) on loopback only. Every test is bounded (a count of connections, of
bytes, a timeout), and none asserts a time: what held is shown by what
happened (a bystander's key answered while the flood is still being
digested; a count that never passed its limit; file descriptors back to
where they were)."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import sys
from unittest import mock

import asyncssh
import pytest

from garito.server import ssh
from garito.server.homes import FOLDER, encode
from garito.server.keys import KeysError
from garito.server.ssh import MAX_COLS, MAX_ROWS, Serve

from .helpers import sync

TIMEOUT = 60.0
MENU = b"parlor"  # the menu's banner line: the app is up


async def started(tmp_path, **options) -> tuple[Serve, int]:
    options.setdefault("guests", True)
    server = Serve(tmp_path / "serve", **options)
    port = await server.start("127.0.0.1", 0)
    return server, port


class Client:
    """One SSH connection, and (once ``play`` is called) its terminal."""

    def __init__(self, conn: asyncssh.SSHClientConnection) -> None:
        self.conn = conn
        self.process = None
        self.seen = b""
        self.reader: asyncio.Task | None = None

    @classmethod
    async def connect(cls, port: int, name: str, **options) -> Client:
        if "options" not in options:
            options.setdefault("client_keys", None)
            options.update(username=name, known_hosts=None)
        conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, **options), TIMEOUT)
        return cls(conn)

    async def play(self, size=(80, 24), term="xterm-256color", read=True, **options) -> Client:
        self.process = await self.conn.create_process(
            term_type=term, term_size=size, encoding=None, **options
        )
        if read:
            self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.seen += chunk

    async def wait(self, needle: bytes, start: int = 0, timeout: float = TIMEOUT) -> int:
        """Until ``needle`` is shown after ``start``; where it ends."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (at := self.seen.find(needle, start)) < 0:
            if loop.time() > end or (self.reader is not None and self.reader.done()):
                raise AssertionError(f"never shown: {needle!r}; last: {self.seen[-300:]!r}")
            await asyncio.sleep(0.02)
        return at + len(needle)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
        if self.reader is not None:
            self.reader.cancel()


async def until(test, timeout: float = TIMEOUT, every: float = 0.05) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        if loop.time() > end:
            raise AssertionError(f"still not: {test}")
        await asyncio.sleep(every)


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def terminal_of(server: Serve, user: str) -> ssh.Terminal:
    return next(t for t in server.terminals if t.user == user)


async def refused(port: int, name: str, **options) -> bool:
    """Whether a connection as ``name`` is turned away."""
    try:
        client = await Client.connect(port, name, **options)
    except (asyncssh.Error, OSError):
        return True
    await client.close()
    return False


# ---------------------------------------------------------------- floods


@sync
async def test_a_paste_flood_holds_up_nobody_else(tmp_path, caplog):
    caplog.set_level(logging.INFO, "garito.serve")
    server, port = await started(tmp_path)
    try:
        bea = await (await Client.connect(port, "bea")).play()
        ana = await (await Client.connect(port, "ana")).play()
        await bea.wait(MENU)
        await ana.wait(MENU)
        flood = b"x" * (1 << 20)  # a key the menu ignores, a megabyte of it, unbracketed
        ana.process.stdin.write(flood)
        await until(lambda: terminal_of(server, "ana").paused)  # the server stopped reading her
        mark = len(bea.seen)
        bea.process.stdin.write(b"\x1b[B")  # ↓: the menu's cursor moves
        await bea.wait(b"\x1b[", mark, timeout=30)  # the echo comes...
        unsent = ana.process.stdin.channel.get_write_buffer_size()
        assert unsent > len(flood) // 2  # ...while most of the flood has not even left her client
        carl = await (await Client.connect(port, "carl")).play()  # and a newcomer gets in
        await carl.wait(MENU)
        assert "types faster than the app reads" in caplog.text
        for c in (ana, bea, carl):
            await c.close()
        await until(lambda: not server.terminals)
    finally:
        await server.close()


@sync
async def test_a_paste_in_the_same_worker_holds_up_nobody_and_its_player_is_told(tmp_path):
    # One worker for both: Textual's pumps handle every key waiting before
    # they yield, so keys handed to the paster's app all at once held the
    # bystander's echo for seconds (bench/fairness.py). The paster's keys go
    # a turn at a time, within a share; what is over it is dropped and said.
    server, port = await started(tmp_path, workers=1)
    try:
        bea = await (await Client.connect(port, "bea")).play()
        ana = await (await Client.connect(port, "ana")).play()
        await bea.wait(MENU)
        await ana.wait(MENU)
        assert terminal_of(server, "ana").app.pid == terminal_of(server, "bea").app.pid  # one worker
        mark = len(ana.seen)
        flood = b"x" * (1 << 20)
        ana.process.stdin.write(flood)
        await ana.wait(b"Too many keys", mark)  # told, in one line, while the flood goes on
        for key in (b"\x1b[B", b"\x1b[A"):
            at = len(bea.seen)
            bea.process.stdin.write(key)
            await bea.wait(b"\x1b[", at)
        assert ana.process.stdin.channel.get_write_buffer_size() > len(flood) // 2
        for c in (ana, bea):
            await c.close()
        await until(lambda: not server.terminals)
    finally:
        await server.close()


@sync
async def test_a_connection_flood_holds_at_max_connections(tmp_path, caplog):
    caplog.set_level(logging.INFO, "garito.serve")
    server, port = await started(tmp_path, max_connections=10, per_address=100, login_grace=6)
    flooded, flood_port = await started(tmp_path / "flood", max_connections=10, per_address=100)
    graced = server
    try:
        # Ten silent sockets take every place; a newcomer at once is refused
        # (they are fresh), and the refusal frees no place...
        silent = [await asyncio.open_connection("127.0.0.1", port) for _ in range(10)]
        await until(lambda: len(server.connections) == 10)
        opened = asyncio.get_running_loop().time()
        assert await refused(port, "ana")
        assert len(server.connections) == 10 or asyncio.get_running_loop().time() - opened >= ssh.STALLED
        # ...but once they have sat a second without a key exchange, a
        # newcomer takes the oldest one's place, and the rest are let go at
        # the deadline (the login grace, shorter here than PRE_AUTH).
        await asyncio.sleep(ssh.STALLED)
        assert not await refused(port, "ana")
        for reader, _ in silent:
            await asyncio.wait_for(reader.read(), TIMEOUT)  # the server closed it
        await until(lambda: not server.connections)

        # Eighty at once (at a server with the usual grace: no place is
        # given back while they come): ten get in, and the count never passes ten.
        server, port = flooded, flood_port
        highest = 0
        watching = True

        async def watch() -> None:
            nonlocal highest
            while watching:
                highest = max(highest, len(server.connections))
                await asyncio.sleep(0.005)

        watcher = asyncio.create_task(watch())
        said_before = caplog.text.count("refused 127.0.0.1")
        results = await asyncio.gather(
            *(Client.connect(port, f"p{n}") for n in range(80)), return_exceptions=True
        )
        watching = False
        await watcher
        inside = [c for c in results if isinstance(c, Client)]
        # Some get in (those not logged in yet have half the places, and past
        # half of those a newcomer may be dropped at random), never more than ten.
        assert 1 <= len(inside) <= 10 and highest <= 10 and len(server.connections) == len(inside)
        assert server.turned_away >= 70 and caplog.text.count("refused 127.0.0.1") - said_before == 1  # once
        for c in inside:
            await c.close()
        await until(lambda: not server.connections)
        again = await (await Client.connect(port, "ana")).play()  # room again
        await again.wait(MENU)
        await again.close()
    finally:
        await graced.close()
        await flooded.close()


@sync
async def test_one_address_holds_at_most_its_share(tmp_path):
    server, port = await started(tmp_path, per_address=2)
    try:
        first = [await Client.connect(port, f"a{n}") for n in range(2)]
        assert await refused(port, "a3")
        other = await Client.connect(port, "b", local_addr=("127.0.0.2", 0))  # another address
        assert server.by_address == {"127.0.0.1": 2, "127.0.0.2": 1}
        for c in [*first, other]:
            await c.close()
        await until(lambda: not server.by_address)
    finally:
        await server.close()


@sync
async def test_one_terminal_per_connection_and_a_cap_on_games(tmp_path, caplog):
    caplog.set_level(logging.INFO, "garito.serve")
    server, port = await started(tmp_path, max_players=2)
    try:
        ana = await (await Client.connect(port, "ana")).play()
        await ana.wait(MENU)
        for _ in range(5):  # more terminals on the same connection
            with pytest.raises(asyncssh.ChannelOpenError):
                await ana.conn.create_process(term_type="xterm", term_size=(80, 24))
        assert len(server.terminals) == 1
        bea = await (await Client.connect(port, "bea")).play()
        await bea.wait(MENU)
        carl = await (await Client.connect(port, "carl")).play(read=False)
        await asyncio.wait_for(carl.process.wait_closed(), TIMEOUT)
        said = await carl.process.stderr.read()
        assert carl.process.exit_status == 1 and b"2 players are in already" in said
        assert len(server.terminals) == 2 and "a second session on one connection refused" in caplog.text
        for c in (ana, bea, carl):
            await c.close()
    finally:
        await server.close()


# ---------------------------------------------------------------- sizes


@sync
async def test_huge_and_invalid_sizes_are_clamped_and_leak_nothing(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.INFO, "garito.serve")
    server, port = await started(tmp_path, per_address=100)
    try:
        warm = await (await Client.connect(port, "warm")).play()  # the loop's own first-use files
        await warm.wait(MENU)
        await warm.close()
        await until(lambda: not server.terminals and not server.connections)
        before = open_fds()

        hostile = [
            ((65535, 65535), "xterm"),
            ((65536, 24), "xterm"),  # no longer fits the kernel's 16 bits
            ((2**32 - 1, 2**32 - 1), "xterm"),
            ((0, 0), "xterm\x00evil"),  # a NUL in TERM: the environment cannot hold it
            ((80, 24), "x" * 500),
            ((80, 24), "../../../bin/sh"),
            ((100, 30), "\x1b]0;owned\x07"),
        ]
        sizes = []
        for n, (size, term) in enumerate(hostile * 2):
            c = await (await Client.connect(port, f"s{n}")).play(size=size, term=term)
            await c.wait(b"\x1b[")  # the app drew something
            t = terminal_of(server, f"s{n}")
            c.process.change_terminal_size(2**32 - 1, 70000)  # and a resize out of all bounds
            await until(lambda t=t: t.size == (MAX_COLS, MAX_ROWS))
            sizes.append(t.size)
            await c.close()
        assert all(s == (MAX_COLS, MAX_ROWS) for s in sizes)
        assert "terminal type" in caplog.text and "clamped to 500x200" in caplog.text

        # A set-up that fails half-way (no more processes, say) closes what it opened.
        async def no_process(*args, **kwargs):
            raise OSError(11, "Resource temporarily unavailable")

        monkeypatch.setattr(asyncio, "create_subprocess_exec", no_process)
        for n in range(20):
            c = await (await Client.connect(port, f"f{n}")).play(read=False)
            await asyncio.wait_for(c.process.wait_closed(), TIMEOUT)
            assert b"could not start" in await c.process.stderr.read()
            await c.close()
        await until(lambda: not server.terminals and not server.connections)
        await until(lambda: open_fds() <= before)  # every pty, socket and pipe closed again
    finally:
        await server.close()


@sync
async def test_an_app_at_the_largest_size_is_held_by_its_memory_cap(tmp_path):
    cap = 768 << 20
    server, port = await started(tmp_path, app_memory=cap)
    try:
        c = await (await Client.connect(port, "ana")).play(size=(MAX_COLS, MAX_ROWS))
        await c.wait(MENU)
        pid = terminal_of(server, "ana").app.pid
        with open(f"/proc/{pid}/limits") as f:
            limit = next(line for line in f if line.startswith("Max address space"))
        assert limit.split()[3:5] == [str(cap), str(cap)]  # soft and hard: the app cannot raise it
        await c.close()
    finally:
        await server.close()


# ---------------------------------------------------------------- a client that does not read


@sync
async def test_a_client_that_reads_nothing_is_bounded_then_let_go(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.INFO, "garito.serve")
    monkeypatch.setattr(ssh, "STALL", 3.0)
    server, port = await started(tmp_path)
    try:
        # A small window: the client's own SSH stack takes 16 KB and no more.
        c = await (await Client.connect(port, "ana")).play(size=(200, 60), read=False, window=16 << 10)
        t = terminal_of(server, "ana")
        highest = 0
        for n in range(400):  # every resize repaints the whole screen
            if t.ending:
                break
            c.process.change_terminal_size(200 - n % 2, 60)
            await asyncio.sleep(0.02)
            if t.chan is not None:
                highest = max(highest, t.chan.get_write_buffer_size())
        await until(lambda: bool(t.ending))
        assert t.ending == "the screen was not read" and t.stalled_at is not None
        assert highest <= ssh.OUT_MAX  # what it left unread stayed within the bound
        assert "took nothing of its screen" in caplog.text
        await until(lambda: not server.terminals)
        await c.close()
    finally:
        await server.close()


# ---------------------------------------------------------------- who comes in


def make_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@sync
async def test_a_key_logs_in_only_as_the_names_its_file_binds_it_to(tmp_path):
    a, b, c = make_key(), make_key(), make_key()
    folder = tmp_path / "keys"
    folder.mkdir()
    (folder / "ana").write_bytes(a.export_public_key())
    (folder / "bea").write_bytes(b.export_public_key())
    server, port = await started(tmp_path, guests=False, authorized_keys=str(folder))
    try:
        assert not await refused(port, "ana", client_keys=[a])
        assert await refused(port, "ana", client_keys=[b])  # Bea's key is not Ana's
        assert await refused(port, "bea", client_keys=[a])
        assert await refused(port, "carl", client_keys=[c])  # no file: nobody
        assert await refused(port, "../keys/ana", client_keys=[a])  # no way out of the folder
        assert await refused(port, ".", client_keys=[a])
        (folder / "carl").write_bytes(c.export_public_key())  # a player added: no restart
        assert not await refused(port, "carl", client_keys=[c])
        (folder / "carl").chmod(0o666)  # anyone may write it: not trusted
        assert await refused(port, "carl", client_keys=[c])
    finally:
        await server.close()


@sync
async def test_in_one_file_a_key_is_bound_by_its_principals(tmp_path):
    a, b, c = make_key(), make_key(), make_key()
    keys = tmp_path / "authorized_keys"
    keys.write_text(
        f'principals="ana" {a.export_public_key().decode()}'
        f'principals="bea,beatriz" {b.export_public_key().decode()}'
        f"{c.export_public_key().decode()}"  # bound to nobody
    )
    server, port = await started(tmp_path, guests=False, authorized_keys=str(keys))
    try:
        assert not await refused(port, "ana", client_keys=[a])
        assert await refused(port, "bea", client_keys=[a])
        assert not await refused(port, "beatriz", client_keys=[b])
        assert await refused(port, "ana", client_keys=[b])
        assert await refused(port, "ana", client_keys=[c]) and await refused(port, "c", client_keys=[c])
    finally:
        await server.close()
    unbound = tmp_path / "unbound"
    unbound.write_bytes(c.export_public_key())
    with pytest.raises(KeysError, match="bound to a name"):
        Serve(tmp_path / "serve", authorized_keys=str(unbound))


@sync
async def test_names_are_checked_and_none_reaches_outside_its_own_home(tmp_path, caplog):
    caplog.set_level(logging.INFO, "garito.serve")
    server, port = await started(tmp_path, per_address=100)
    root = tmp_path / "serve"
    try:
        for bad in ["a" * 13, " ana", "ana "]:  # what SSH lets through, Garito does not
            assert await refused(port, bad)
        assert caplog.text.count("refused:") == 3
        real = asyncssh.connection.saslprep

        def unchecked_by_the_client(name: str) -> str:  # the server (same module) still checks
            return name if sys._getframe(1).f_code.co_name == "prepare" else real(name)

        with mock.patch.object(asyncssh.connection, "saslprep", unchecked_by_the_client):
            for bad in ["ana\x1b[2J", "ana\u202e", "x\ny", "\x07"]:  # SSH's own check (SASLprep)
                assert await refused(port, bad)
        raw = re.compile(r"[\x00-\x1f\x7f\u202e]")
        assert not any(raw.search(r.getMessage()) for r in caplog.records)  # nothing raw reached the log

        names = ["..", ".", "a/b", "a_b", "Ana", "ana", "saves", "ñandú", "n%0000f1"]
        clients = [await (await Client.connect(port, n)).play() for n in names]
        for c in clients:
            await c.wait(MENU)
        homes = sorted(p.name for p in (root / FOLDER).iterdir())
        assert homes == sorted(encode(n) for n in names) and len(set(homes)) == len(names)
        # beside the homes: the server's own host key and the shared tables' ratings
        assert sorted(p.name for p in root.iterdir()) == ["ratings", FOLDER, "ssh_host_ed25519_key"]
        for c in clients:
            await c.close()
    finally:
        await server.close()


# ---------------------------------------------------------------- names are text


@sync
async def test_a_name_of_markup_is_shown_as_typed_in_the_lobby(tmp_path):
    server, port = await started(tmp_path)
    try:
        # Another player (speaking the table protocol directly) opens a table
        # with a computer named in markup.
        reader, writer = await asyncio.open_unix_connection(server.tables_path)
        token = server.tables.admit("[b]mal")
        writer.write(b'{"op": "hello", "token": "%s"}\n' % token.encode())
        computer = '{"kind": "computer", "level": "hard", "name": "[/]"}'
        writer.write(
            b'{"op": "create", "game": "gemelos", "seats": ["human", "human", %s]}\n' % computer.encode()
        )
        await writer.drain()
        await until(lambda: 1 in server.tables.tables)

        c = await (await Client.connect(port, "[red]x[/]")).play()
        at = await c.wait(b"Shared tables")  # the menu, with the server's tables
        await asyncio.sleep(0.5)
        for key in [b"\x1b[B"] * 6 + [b"\r"]:  # down to Shared tables, and in
            c.process.stdin.write(key)
            await asyncio.sleep(0.3)
        at = await c.wait(b"You are [red]x[/].", at)
        plain = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", c.seen)
        assert b"[b]mal" in plain and b"[/]" in plain  # the listing's seats, as typed
        assert len(server.terminals) == 1 and c.reader is not None and not c.reader.done()
        writer.close()
        await c.close()
    finally:
        await server.close()


# ---------------------------------------------------------------- idle and grace


@sync
async def test_a_game_with_no_key_is_closed_after_the_idle_time(tmp_path):
    server, port = await started(tmp_path, idle=2.0)
    try:
        c = await (await Client.connect(port, "ana")).play()
        await asyncio.wait_for(c.process.wait_closed(), TIMEOUT)
        assert c.process.exit_status == 1 and b"no key for" in c.seen
        await c.close()
    finally:
        await server.close()


@sync
async def test_a_logged_in_connection_that_opens_no_terminal_is_closed(tmp_path):
    server, port = await started(tmp_path, login_grace=5)
    try:
        c = await Client.connect(port, "ana")
        await asyncio.wait_for(c.conn.wait_closed(), TIMEOUT)
        await until(lambda: not server.connections)
    finally:
        await server.close()


@sync
async def test_a_session_channel_with_no_shell_asked_is_closed_after_the_grace(tmp_path):
    # A channel opened and left there, no pty, no shell: it held its place
    # (and its address's) for as long as the client liked.
    server, port = await started(tmp_path, login_grace=3)
    try:
        c = await Client.connect(port, "ana")
        chan = asyncssh.channel.SSHClientChannel(
            c.conn, asyncio.get_running_loop(), "strict", None, "strict", 1 << 20, 32768
        )
        chan._session = asyncssh.SSHClientSession()
        await chan._open(b"session")  # a channel, nothing asked on it
        await asyncio.wait_for(c.conn.wait_closed(), TIMEOUT)
        await until(lambda: not server.connections)
    finally:
        await server.close()


def test_the_loopback_has_a_second_address():
    # test_one_address_holds_at_most_its_share connects from 127.0.0.2
    with socket.socket() as s:
        s.bind(("127.0.0.2", 0))


def test_the_log_shows_whatever_a_client_sent_as_text():
    # asyncssh logs the user name it was given, as it was given: the
    # server's log formatter takes out what a terminal would act on.
    record = logging.LogRecord(
        "asyncssh", logging.INFO, "", 0, "Beginning auth for user %s", ("a\x1b[2J\nb",), None
    )
    line = ssh.PrintableLog("%(name)s %(message)s").format(record)
    assert line == "asyncssh Beginning auth for user a[2Jb"


@pytest.mark.parametrize(
    "argv,message",
    [
        (["serve"], "give --authorized-keys PATH, or --guests to let anyone in"),
        (["serve", "--guests", "--authorized-keys", "x"], "--guests lets anyone in"),
        (
            ["serve", "--guests", "--max-connections", "0"],
            "argument --max-connections: a whole number from 1",
        ),
        (
            ["serve", "--guests", "--max-per-address", "-1"],
            "argument --max-per-address: a whole number from 1",
        ),
        (["serve", "--guests", "--idle-timeout", "soon"], "argument --idle-timeout: a whole number from 1"),
        (["serve", "--guests", "--app-memory", "100"], "--app-memory below 256 MB"),
        (["serve", "--authorized-keys", "/nonexistent/keys"], "cannot read /nonexistent/keys"),
        (["serve", "--guests", "--redis", "localhost:6379"], "--redis takes a URL like redis://HOST:6379/0"),
        (["serve", "--guests", "--redis", "redis://[::1/0"], "--redis takes a URL like redis://HOST:6379/0"),
        (["serve", "--guests", "--redis", "http://h/0"], "--redis takes a URL like redis://HOST:6379/0"),
        (["serve", "--guests", "--redis", "redis://h:port/0"], "--redis: a port is a number"),
    ],
)
def test_a_bad_serve_argument_prints_one_line_and_exits_2(argv, message, capsys):
    from garito.tui import cli

    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"garito: error: {message}") and err.count("\n") == 1


def test_a_keys_file_that_binds_no_key_is_refused_at_the_start(tmp_path, capsys):
    from garito.tui import cli

    keys = tmp_path / "authorized_keys"
    keys.write_bytes(make_key().export_public_key())
    assert cli.main(["serve", "--authorized-keys", str(keys)]) == 2
    err = capsys.readouterr().err
    assert "no key in" in err and 'principals="NAME"' in err and err.count("\n") == 1


def test_window_changes_are_not_each_a_line_of_the_log():
    # asyncssh says each one at INFO: a client asking thousands a second
    # grew the log by 300 KB a second.
    import asyncssh.logging

    from garito.server.logs import no_window_changes

    records: list[logging.LogRecord] = []

    class Kept(logging.Handler):
        def emit(self, record):
            records.append(record)

    kept, package = Kept(), asyncssh.logging.logger.logger
    level = package.level
    package.addHandler(kept)
    package.setLevel(logging.INFO)
    try:  # as asyncssh says it, its connection and channel first
        channel = asyncssh.logging.logger.get_child("channel", "conn=1, chan=0")
        channel.info("Received window change: %sx%s", 80, 24)
    finally:
        package.removeHandler(kept)
        package.setLevel(level)
    (said,) = records
    other = logging.LogRecord("asyncssh", logging.INFO, "", 0, "Beginning auth for user %s", ("ana",), None)
    ours = logging.LogRecord("garito.serve", logging.INFO, "", 0, "Received window change", (), None)
    assert [no_window_changes(r) for r in (said, other, ours)] == [False, True, True]


@sync
async def test_a_player_hanging_up_as_the_menu_comes_leaves_no_crash(tmp_path):
    """A client whose input ends at once (``ssh -tt host </dev/null``): the
    session ends as the app starts, and the app goes quietly, no crash log
    in the player's home (the menu found its parts already taken down)."""
    server, port = await started(tmp_path)
    try:
        for n in range(5):
            client = await Client.connect(port, f"hup{n}")
            await client.play(read=False)
            client.process.stdin.write_eof()
            await asyncio.wait_for(client.process.wait_closed(), TIMEOUT)
            await client.close()
        await until(lambda: not server.terminals)
        homes = tmp_path / "serve" / FOLDER
        assert not list(homes.glob("*/crashes/*")), [p.read_text()[-300:] for p in homes.glob("*/crashes/*")]
    finally:
        await server.close()
