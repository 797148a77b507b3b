"""The door of ``garito serve`` against clients that never log in, on
loopback only, bounded: stalled and dripping clients from seven addresses
while a real player logs in; ssh-audit's audit and its connection-rate
(DHEat) test; the algorithms offered, with the real ``ssh`` client of this
machine (Debian 12's OpenSSH 9.2), a client offering only what current
OpenSSH offers first, and clients offering only what is no longer offered.
The login's time under the stalled clients is measured by bench/door.py;
here it is enough that it gets in while they are still at it."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time

import asyncssh
import pytest

from garito.server import ssh

from .helpers import sync
from .test_serve_hostile import MENU, Client, refused, started

ATTACKERS = [f"127.0.0.{n}" for n in range(2, 9)]


async def stall(address: str, port: int, until: float, opened: list[int]) -> None:
    """From ``address``, as many connections as it is let keep, each sending
    its banner a byte every two seconds and nothing else; one closed by the
    server is opened again at once."""

    async def one() -> None:
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
            except OSError:
                await asyncio.sleep(0.05)
                continue
            opened[0] += 1
            try:
                for byte in b"SSH-2.0-drip\r\n":
                    writer.write(bytes([byte]))
                    try:
                        if not await asyncio.wait_for(reader.read(4096), 2.0) and reader.at_eof():
                            break  # closed by the server: again
                    except TimeoutError:
                        pass
                    if time.monotonic() >= until:
                        break
            except OSError:
                pass
            finally:
                writer.close()

    await asyncio.gather(*(one() for _ in range(8)))


@sync
async def test_a_real_login_gets_in_while_stalled_clients_crowd_the_door(tmp_path):
    server, port = await started(tmp_path)  # the defaults: 50 connections, 8 an address
    until = time.monotonic() + 15
    opened = [0]
    attack = [asyncio.create_task(stall(a, port, until, opened)) for a in ATTACKERS]
    try:
        await asyncio.sleep(2.0)  # every place the door gives them, taken
        assert len(server.unauthed) >= ssh.STARTUPS
        for name in ("ana", "bea", "cid"):
            # A connection turned away at the door (a loaded machine's loop
            # may find no stalled place old enough to give) is tried again,
            # as a person would; bench/door.py counts first tries.
            for attempt in range(3):
                try:
                    player = await (await Client.connect(port, name)).play()
                    break
                except (OSError, asyncssh.Error):
                    if attempt == 2:
                        raise
                    await asyncio.sleep(0.5)
            await player.wait(MENU)
            await player.close()
            assert time.monotonic() < until  # in while the stalled clients were still at the door
        assert len(server.connections) <= server.limits.max_connections
        assert len(server.unauthed) <= max(ssh.STARTUPS, server.limits.max_connections // 2)
        assert opened[0] > 56  # they came back for their places, again and again
    finally:
        for task in attack:
            task.cancel()
        await asyncio.gather(*attack, return_exceptions=True)
        await server.close()


def ssh_audit(port: int) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "ssh_audit", "-p", str(port), "127.0.0.1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return re.sub(r"\x1b\[[0-9;]*m", "", done.stdout)


@sync
async def test_ssh_audit_finds_no_fail_and_the_rate_test_passes(tmp_path):
    server, port = await started(tmp_path)
    try:
        report = await asyncio.to_thread(ssh_audit, port)
        assert "(kex) curve25519-sha256" in report  # it did audit the server
        assert "[fail]" not in report, [line for line in report.splitlines() if "[fail]" in line]
        assert "DHEat" not in report  # no finite-field exchange to rate-test, and the door throttled anyway
        assert not re.search(r"\(mac\) .*(encrypt-and-MAC|64-bit tag)", report)
        assert server.turned_away > 0  # the rate test was met with the door, not with key exchanges
        # Another address is not the one that flooded: in at once.
        other = await (await Client.connect(port, "ana", local_addr=("127.0.0.2", 0))).play()
        await other.wait(MENU)
        await other.close()
        # And the flooding address, after a breath, like anyone.
        await asyncio.sleep(2 * ssh.ARRIVAL_BURST / ssh.ARRIVALS / 4)
        assert not await refused(port, "bea")
    finally:
        await server.close()


@sync
async def test_the_real_ssh_client_gets_the_menu(tmp_path):
    server, port = await started(tmp_path)
    try:
        client = await asyncio.create_subprocess_exec(
            "ssh", "-tt", "-p", str(port), "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
            "ana@127.0.0.1",
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            env={**os.environ, "TERM": "xterm-256color"},
        )  # fmt: skip
        assert client.stdout is not None
        seen = b""
        end = time.monotonic() + 30
        while MENU not in seen and time.monotonic() < end:
            try:
                seen += await asyncio.wait_for(client.stdout.read(65536), 1.0)
            except TimeoutError:
                pass
            if client.returncode is not None:
                break
        assert MENU in seen, seen[-500:]
        client.kill()
        await client.wait()
    finally:
        await server.close()


# What OpenSSH 10 offers first (its defaults, in its order): the server's
# choice among them is the post-quantum hybrid.
OPENSSH_10 = {
    "kex_algs": ["mlkem768x25519-sha256", "curve25519-sha256", "curve25519-sha256@libssh.org",
                 "ecdh-sha2-nistp256", "diffie-hellman-group16-sha512"],
    "encryption_algs": ["chacha20-poly1305@openssh.com", "aes128-ctr", "aes128-gcm@openssh.com"],
    "mac_algs": ["umac-64-etm@openssh.com", "umac-128-etm@openssh.com", "hmac-sha2-256-etm@openssh.com"],
}  # fmt: skip


@sync
async def test_current_clients_get_the_strongest_and_weak_offers_are_refused(tmp_path):
    server, port = await started(tmp_path)
    try:
        player = await Client.connect(port, "ana", **OPENSSH_10)
        assert player.conn.get_extra_info("send_cipher") == "chacha20-poly1305@openssh.com"
        await (await player.play()).wait(MENU)
        await player.close()
        for weak in (
            {"kex_algs": ["diffie-hellman-group14-sha1"]},
            {"kex_algs": ["ecdh-sha2-nistp256"]},
            {"kex_algs": ["diffie-hellman-group-exchange-sha256"]},
            {"kex_algs": ["diffie-hellman-group16-sha512", "diffie-hellman-group18-sha512"]},  # DHEat's food
            {"mac_algs": ["hmac-sha1"], "encryption_algs": ["aes128-ctr"]},
            {"mac_algs": ["umac-64-etm@openssh.com", "hmac-sha2-256"], "encryption_algs": ["aes128-ctr"]},
        ):
            with pytest.raises((asyncssh.Error, OSError)):
                await Client.connect(port, "bea", **weak)
    finally:
        await server.close()


class Stand:
    """A connection as the door sees it, without a socket."""

    def __init__(self, serve: ssh.Serve, address: str, spoke: bool = True) -> None:
        self.serve, self.address, self.peer = serve, address, f"{address}:1"
        self.origin = ssh.origin_of(address)
        self.keyed, self._spoke, self.counted, self.gone = False, spoke, False, False

    def spoke(self) -> bool:
        return self._spoke

    def let_go(self) -> None:
        self.gone = True
        if self.counted:
            self.counted = False
            self.serve._give_connection(self)

    def take(self) -> bool:
        self.counted = not self.serve._take_connection(self)
        return self.counted


def test_a_crowd_of_fresh_connections_from_few_addresses_gives_way_to_another_address(tmp_path):
    """Five addresses keep the budget full with connections that have sent
    their banners and are never old enough to be stalled: a newcomer from a
    sixth takes the place of the biggest holder's oldest, and is itself
    never the one to go while they hold more."""
    serve = ssh.Serve(tmp_path, guests=True)
    crowd = [Stand(serve, f"127.0.0.{2 + n % 5}") for n in range(40)]
    taken = [c for c in crowd if c.take()]
    budget = max(ssh.STARTUPS, serve.limits.max_connections // 2)
    assert len(serve.unauthed) <= budget and len(taken) >= ssh.STARTUPS
    ana = Stand(serve, "127.0.0.50")
    assert ana.take() and any(c.gone for c in taken)
    for c in [Stand(serve, f"127.0.0.{2 + n % 5}") for n in range(40)]:
        c.take()
    assert not ana.gone and ana in serve.unauthed


def test_an_ipv6_64_is_one_address_at_the_door(tmp_path):
    serve = ssh.Serve(tmp_path, guests=True)
    six = [Stand(serve, f"2001:db8::{n:x}") for n in range(1, 41)]
    assert sum(c.take() for c in six) == serve.limits.per_address
    assert Stand(serve, "2001:db8:0:1::1").take()  # another /64


@sync
async def test_a_logged_in_connection_with_no_game_gives_its_place_back(tmp_path, monkeypatch):
    """Logged in (a guest needs nothing), then a session with no terminal,
    or none at all: the connection is closed, not left holding a place."""
    monkeypatch.setattr(ssh, "NO_TERMINAL", 1.0)
    server, port = await started(tmp_path)
    try:
        refused_session = await Client.connect(port, "ana")
        process = await refused_session.conn.create_process(encoding=None)  # no pty: refused
        await asyncio.wait_for(process.wait_closed(), 10)
        await asyncio.wait_for(refused_session.conn.wait_closed(), 10)  # and the connection with it
        idle = await Client.connect(port, "bea")  # no session at all
        await asyncio.wait_for(idle.conn.wait_closed(), 10)
        await until_empty(server)
    finally:
        await server.close()


async def until_empty(server: ssh.Serve) -> None:
    for _ in range(200):
        if not server.connections and not server.unauthed:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{len(server.connections)} connections still held")
