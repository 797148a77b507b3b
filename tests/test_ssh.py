"""garito serve: the app over SSH, with asyncssh's client on loopback."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from garito.server.ssh import Serve, host_key

from .helpers import sync

TIMEOUT = 30


async def read_until(process, needle: bytes) -> bytes:
    seen = b""
    while needle not in seen:
        chunk = await asyncio.wait_for(process.stdout.read(65536), TIMEOUT)
        if not chunk:
            break
        seen += chunk
    return seen


async def started(tmp_path, **options):
    server = Serve(tmp_path / "serve", **options)
    port = await server.start("127.0.0.1", 0)
    return server, port


def client_key(tmp_path, name="ana"):
    key = asyncssh.generate_private_key("ssh-ed25519")
    return key


@sync
async def test_a_player_with_a_listed_key_gets_the_app_in_a_terminal(tmp_path):
    key = client_key(tmp_path)
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    server, port = await started(tmp_path, authorized_keys=str(keys))
    try:
        async with asyncssh.connect(
            "127.0.0.1", port, username="ana", client_keys=[key], known_hosts=None
        ) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            screen = await read_until(process, b"ana")  # the menu, with the user's name as the player's
            assert b"\x1b[" in screen and b"Welcome" not in screen
            process.change_terminal_size(100, 30)
            await asyncio.sleep(0.5)
            process.stdin.write(b"\r")  # a new game of Gemelos: the dialog, with the name in seat 1
            await read_until(process, b"New game")
            process.stdin.write(b"\r")  # start it
            await read_until(process, b"Gemelos")
            await asyncio.sleep(1.0)  # the table is up: the game is saved from its first screen
            process.stdin.write(b"\x11")  # ctrl+q
            await asyncio.wait_for(process.wait_closed(), TIMEOUT)
            assert process.exit_status == 0
        # a Garito home of its own, where its game is saved
        assert (tmp_path / "serve" / "ssh-players" / "ana" / "saves" / "gemelos.json").is_file()
    finally:
        await server.close()


@sync
async def test_an_unknown_key_is_refused(tmp_path):
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(client_key(tmp_path).export_public_key())
    server, port = await started(tmp_path, authorized_keys=str(keys))
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect(
                "127.0.0.1", port, username="mallory", client_keys=[client_key(tmp_path)], known_hosts=None
            )
    finally:
        await server.close()


@sync
async def test_guests_come_in_by_name_and_a_command_is_refused(tmp_path):
    server, port = await started(tmp_path, guests=True)
    try:
        async with asyncssh.connect(
            "127.0.0.1", port, username="bea", known_hosts=None, client_keys=None
        ) as conn:
            result = await asyncio.wait_for(conn.run("cat /etc/passwd"), TIMEOUT)
            assert result.exit_status == 1 and b"played in a terminal" in result.stderr.encode()
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 22)
    finally:
        await server.close()


@sync
async def test_the_host_key_is_made_once_and_kept(tmp_path):
    first = host_key(tmp_path / "k")
    again = host_key(tmp_path / "k")
    assert first.export_public_key() == again.export_public_key()
    assert oct((tmp_path / "k" / "ssh_host_ed25519_key").stat().st_mode & 0o777) == "0o600"


@sync
async def test_connections_beyond_the_limit_are_turned_away(tmp_path):
    server, port = await started(tmp_path, guests=True, max_connections=1)
    try:
        async with asyncssh.connect("127.0.0.1", port, username="a", known_hosts=None, client_keys=None):
            with pytest.raises((asyncssh.Error, OSError)):
                async with asyncssh.connect(
                    "127.0.0.1", port, username="b", known_hosts=None, client_keys=None
                ):
                    pass
        await asyncio.sleep(0.2)
        async with asyncssh.connect("127.0.0.1", port, username="c", known_hosts=None, client_keys=None):
            pass  # room again once the first has gone
    finally:
        await server.close()


@sync
async def test_a_bounded_load_of_players_each_against_the_computer(tmp_path):
    # The small, bounded form of bench/serve_load.py (50 connections, with
    # figures): eight guests at once, each starts Gemelos against the
    # computer from the menu and rolls; every key gets an echo, nobody is lost.
    server, port = await started(tmp_path, guests=True, max_connections=8)

    async def player(n: int) -> int:
        async with asyncssh.connect(
            "127.0.0.1", port, username=f"p{n}", known_hosts=None, client_keys=None
        ) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            await read_until(process, b"parlor")
            await asyncio.sleep(0.5)
            process.stdin.write(b"\r")
            await read_until(process, b"New game")
            await asyncio.sleep(0.3)
            process.stdin.write(b"\r")
            await read_until(process, b"Gemelos \xe2\x80\x94")
            echoes = 0
            for _ in range(3):
                await asyncio.sleep(1.0)
                process.stdin.write(b" ")
                if await asyncio.wait_for(process.stdout.read(65536), TIMEOUT):
                    echoes += 1
            process.stdin.write(b"\x11")
            await asyncio.wait_for(process.wait_closed(), TIMEOUT)
            return echoes

    try:
        assert await asyncio.gather(*(player(n) for n in range(8))) == [3] * 8
        players = sorted(p.name for p in (tmp_path / "serve" / "ssh-players").iterdir())
        assert players == [f"p{n}" for n in range(8)]
    finally:
        await server.close()
