"""garito serve: the app over SSH, with asyncssh's client on loopback."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from garito.core.gemelos import Rolled
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
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "ana").write_bytes(key.export_public_key())  # Ana's authorized_keys
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
            saved = tmp_path / "serve" / "ssh-players" / "ana" / "saves" / "gemelos.json"
            for _ in range(int(TIMEOUT / 0.05)):  # the table is up: the game is saved from its first screen
                if saved.is_file():
                    break
                await asyncio.sleep(0.05)
            process.stdin.write(b"\x11")  # ctrl+q
            await asyncio.wait_for(process.wait_closed(), TIMEOUT)
            assert process.exit_status == 0
        # a Garito home of its own, where its game is saved
        assert (tmp_path / "serve" / "ssh-players" / "ana" / "saves" / "gemelos.json").is_file()
    finally:
        await server.close()


@sync
async def test_an_unknown_key_is_refused(tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "mallory").write_bytes(client_key(tmp_path).export_public_key())
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


class Player:
    """One ``ssh`` player: a connection, a terminal, and all it was shown."""

    def __init__(self, conn, process) -> None:
        self.conn, self.process = conn, process
        self.seen = b""
        self.mark = 0  # where the next ``wait`` starts looking
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, port: int, name: str) -> Player:
        conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, client_keys=None)
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        return cls(conn, process)

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.seen += chunk

    async def wait(self, needle: bytes, timeout: float = TIMEOUT) -> None:
        """Until ``needle`` is shown (after the last thing waited for). A line
        drawn over others (a box over the table) comes in pieces, one per
        widget under it, each with its cursor move: found once those are
        taken out, everything seen so far is passed."""
        import re

        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (at := self.seen.find(needle, self.mark)) < 0:
            seen = len(self.seen)
            if needle in re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", self.seen[self.mark :]):
                self.mark = seen
                return
            if loop.time() > end or self.reader.done():
                text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b" ", self.seen[self.mark :])[-3000:]
                raise AssertionError(f"never shown: {needle!r}; the last shown: {text!r}")
            await asyncio.sleep(0.05)
        self.mark = at + len(needle)

    async def keys(self, *keys: bytes, pause: float = 0.3) -> None:
        for key in keys:
            self.process.stdin.write(key)
            await asyncio.sleep(pause)

    async def to_lobby(self) -> None:
        await self.wait(b"Shared tables")  # on the menu: the server has tables
        await asyncio.sleep(0.5)
        await self.keys(*[DOWN] * 6, b"\r")  # Gemelos ... Willie, then Shared tables
        await self.wait(b"You are ")

    async def open_gemelos_table(self, private: bool = False) -> None:
        """From an empty lobby: a new Gemelos table, seat 2 open for another
        player (and private if asked), waiting for that player."""
        await self.wait(b"No table yet")
        await self.keys(b"\r")  # New table...
        await self.wait(b"which game?")
        await self.keys(b"\r")  # Gemelos
        await self.wait(b"New table")
        await self.wait(b"open seat")  # seat 2 is open for another player by default
        if private:
            await self.keys(*[DOWN] * 7, RIGHT)  # Private: on
            await self.wait(b"not listed in the lobby")
        await self.keys(b"\r")
        await self.wait(b"Waiting for a player in seat 2.")

    async def roll_until_over(self) -> None:
        """Space, as a player would, until the match is over: it rolls on
        this player's turns, closes the result boxes, and does nothing
        otherwise."""
        while b"Match over" not in self.seen[self.mark :]:
            self.process.stdin.write(b" ")
            await self.answered(len(self.seen), 0.25)
        await self.wait(b"Match over")

    async def answered(self, size: int, most: float) -> None:
        """Until the screen changes after ``size`` bytes were shown (a key
        answered, or another player's move), ``most`` seconds at most: a
        key nothing answers (not this player's turn) waits them all."""
        loop = asyncio.get_running_loop()
        end = loop.time() + most
        while len(self.seen) == size and loop.time() < end:
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
        self.reader.cancel()


DOWN, UP, RIGHT = b"\x1b[B", b"\x1b[A", b"\x1b[C"


@sync
async def test_two_players_over_ssh_play_a_gemelos_table_to_the_end_watched_by_a_third(tmp_path):
    server, port = await started(tmp_path, guests=True)
    tables = server.tables
    try:
        ana = await Player.connect(port, "ana")
        await ana.to_lobby()
        await ana.open_gemelos_table()
        assert [s.name for s in tables.tables[1].match.seats] == ["ana", "Seat 2"]

        bea = await Player.connect(port, "bea")
        await bea.to_lobby()
        await bea.wait(b"1 table open, 1 with a free seat.")
        await bea.keys(b"\r")  # the table is the first line: a seat
        await bea.wait(b"Gemelos \xe2\x80\x94")
        await ana.wait(b"bea")  # ana's table shows who sat down
        assert tables.tables[1].players.keys() == {0, 1}

        eve = await Player.connect(port, "eve")
        await eve.to_lobby()
        await eve.wait(b"Full. Enter or w: watch.")
        await eve.keys(b"\r")
        await eve.wait(b" is rolling")  # the table, as everyone sees it
        assert len(tables.tables[1].watchers) == 1

        # A round's worth of moves, then bea's connection drops. The match
        # goes on until her drop reaches the server (ana rolls, and a key of
        # bea's may still be on its way) and a finished table holds no seat:
        # after one round nobody is near the three wins that end it.
        playing = [asyncio.create_task(p.roll_until_over()) for p in (ana, bea)]
        while len(tables.tables[1].match.actions) < 2:
            await asyncio.sleep(0.05)
        playing[1].cancel()
        await bea.close()
        for _ in range(int(TIMEOUT / 0.05)):  # her app hangs up, its link closes, the seat is kept
            if tables.tables[1].held:
                break
            await asyncio.sleep(0.05)
        assert tables.tables[1].held == {1: "bea"}
        moves = len(tables.tables[1].match.actions)
        await ana.wait(b"waiting 3 minutes.")  # "bea left the table: ..." when it is her turn

        # She comes back: her seat is waiting for her in the lobby.
        bea = await Player.connect(port, "bea")
        await bea.to_lobby()
        await bea.wait(b"Enter takes it back.")
        await bea.keys(b"\r")
        await bea.wait(b"Gemelos \xe2\x80\x94")
        back = tables.tables[1]
        assert not back.held and back.players[1] and len(back.match.actions) >= moves
        assert back.match.seats[1].is_human and back.match.names[1] == "bea"  # nobody played for her
        playing[1] = asyncio.create_task(bea.roll_until_over())
        await asyncio.wait_for(asyncio.gather(*playing), 120)
        await eve.wait(b"Match over")

        final = tables.tables[1].match
        assert final.rules.is_over(final.state) and final.names == ("ana", "bea")
        # the spectator saw the rolls come (the first, and the last before the end;
        # test_lobby checks a spectator's whole story, line by line)
        rolls = [e for e in final.state.events if isinstance(e, Rolled)]
        for e in (rolls[0], rolls[-1]):
            said = final.rules.narrate(e, final.names)  # "ana rolls 7+2 = 9 ...", "bea rolls twins of 4 ..."
            assert " ".join(said.split()[:4]).encode() in eve.seen  # the log's first line of it
        for p in (ana, bea, eve):
            await p.close()
    finally:
        await server.close()


@sync
async def test_over_ssh_a_private_table_is_joined_by_its_code_and_unseen_in_a_third_lobby(tmp_path):
    server, port = await started(tmp_path, guests=True)
    tables = server.tables
    try:
        ana = await Player.connect(port, "ana")
        await ana.to_lobby()
        await ana.open_gemelos_table(private=True)
        code = tables.tables[1].code
        assert code is not None and len(code) == 5
        await ana.wait(b"private: code " + code.encode())  # on her table, to tell a friend

        eve = await Player.connect(port, "eve")
        await eve.to_lobby()
        await eve.wait(b"No table yet")  # a private table is nobody else's business
        await eve.keys(b"c")
        await eve.wait(b"Join a private table")
        wrong = "ZZZZZ" if code != "ZZZZZ" else "YYYYY"
        await eve.keys(wrong.lower().encode(), b"\r")
        await eve.wait(b"Wrong code")

        bea = await Player.connect(port, "bea")
        await bea.to_lobby()
        await bea.wait(b"No table yet")
        await bea.keys(b"c")
        await bea.wait(b"Join a private table")
        await bea.keys(code.lower().encode(), b"\r")
        await bea.wait(b"private: code " + code.encode())  # at the table, her screen says it too
        await ana.wait(b"bea")  # ana's table shows who sat down
        assert tables.tables[1].players.keys() == {0, 1}
        assert [s.name for s in tables.tables[1].match.seats] == ["ana", "bea"]
        await asyncio.sleep(1)
        shown = eve.seen[eve.mark :]
        assert b"1 table open" not in shown and b"Gemelos" not in shown  # still not in her lobby
        for p in (ana, bea, eve):
            await p.close()
    finally:
        await server.close()


@sync
async def test_over_ssh_two_players_and_a_spectator_talk_ask_a_rematch_and_are_rated(tmp_path):
    """Talk, rematch and ratings as the issue puts them, over real SSH: a
    player with a markup name, a spectator's channel that players hear only
    when they ask, a flood refused, a rematch asked by both with the seats
    moved on, and the finished match rated as OpenSkill rates it."""
    from openskill.models import PlackettLuce

    server, port = await started(tmp_path, guests=True)
    tables = server.tables
    bo = "[b]bo[/b]"  # a name that is markup: shown as typed, everywhere
    try:
        ana = await Player.connect(port, "ana")
        await ana.to_lobby()
        await ana.open_gemelos_table()

        b = await Player.connect(port, bo)
        await b.to_lobby()
        await b.wait(b"1 table open, 1 with a free seat.")
        await b.keys(b"\r")
        await b.wait(b"Gemelos \xe2\x80\x94")
        await ana.wait(bo.encode())  # her table shows the name as typed

        eve = await Player.connect(port, "eve")
        await eve.to_lobby()
        await eve.wait(b"Full. Enter or w: watch.")
        await eve.keys(b"\r")
        await eve.wait(b" is rolling")

        # A player talks: both others see it, with the speaker's name.
        await ana.keys(b"/", b"good luck [/]", b"\r")
        for p in (b, eve):
            await p.wait(b"ana: good luck [/]")
        # The spectator talks in the spectators' channel: players hear it
        # only after /spectators.
        await eve.keys(b"/", b"first aside", b"\r")
        await eve.wait(b"eve (watching): first aside")
        await asyncio.sleep(1)
        assert b"first aside" not in ana.seen and b"first aside" not in b.seen
        await ana.keys(b"/", b"/spectators", b"\r")
        await ana.wait(b"eve (watching): first aside")  # the channel shown, what it said too
        await eve.keys(b"/", b"second aside", b"\r")
        await ana.wait(b"eve (watching): second aside")
        await asyncio.sleep(1)
        assert b"aside" not in b.seen  # bo never asked to hear the spectators
        # A flood: five lines at once, then the server refuses.
        await b.keys(b"/", pause=0.1)
        for n in range(8):
            await b.keys(f"line {n}".encode(), b"\r", pause=0.05)
            if n < 7:
                await b.keys(b"/", pause=0.05)
        await b.wait(b"talking too fast")
        await ana.wait(f"{bo}: line 0".encode())
        await asyncio.sleep(1)
        assert f"{bo}: line 7".encode() not in ana.seen

        # The match to its end, then a rematch asked by both.
        await asyncio.wait_for(asyncio.gather(ana.roll_until_over(), b.roll_until_over()), 120)
        first = tables.tables[1].match
        assert first.rules.is_over(first.state) and first.names == ("ana", bo)
        await ana.keys(b"n")
        await b.wait(b"ana asked for a rematch")
        await b.keys(b"n")
        for _ in range(int(TIMEOUT / 0.05)):
            again = tables.tables[1].match
            if again is not first:
                break
            await asyncio.sleep(0.05)
        assert again.names == (bo, "ana")  # the seats moved one place on
        assert not again.state.events or not again.rules.is_over(again.state)

        # The first match rated, as OpenSkill rates it (the winner first).
        model = PlackettLuce()
        won = [s == "win" for s in first.rules.outcome(first.state)]
        ranks = [1 if w else 2 for w in won]
        new = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
        for seat, [rating] in zip(first.seats, new):
            shown = server.ratings.shown("gemelos", seat)
            assert shown == round(rating.mu - 3 * rating.sigma, 1)
        for p in (ana, b, eve):
            await p.close()
    finally:
        await server.close()
