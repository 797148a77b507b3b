"""Shared tables: the authoritative games of a Garito server, and the small
JSON-lines protocol its players' apps speak to it over a local socket (its
messages typed and checked in ``server/messages.py``).

A line from a client is one JSON object with an ``op``:

``{"op": "hello", "name": "Ana"}``            first, always: who this is (at a
                                              server that admits by token,
                                              ``"token"``: ``admit`` gave it)
``{"op": "list"}``                            the open tables
``{"op": "create", "game": "gemelos", "seats": ["human", "computer:hard"],
  "config": {...}}``                          a new table; the creator sits
                                              in its first human seat (a seat
                                              may also be {"kind", "level",
                                              "name"}); the config is one the
                                              new-game dialog could make
``{"op": "join", "table": 1}``                a free human seat, or the seat
                                              this name left (a reconnection)
``{"op": "watch", "table": 1}``               as a spectator
``{"op": "act", "table": 1, "action": "roll"}``  a move, in the game's notation
``{"op": "leave", "table": 1}``               up from the seat (held as if
                                              dropped) or out of the audience
``{"op": "fill", "table": 1}``                computers take the open seats
                                              (asked by a player seated there)

The server answers ``welcome`` (with the listing of open tables), ``tables``
(the whole listing, when asked with ``list``), ``table`` (one table's entry
in the listing, to everyone, when it opens or changes) and ``closed`` (a
table gone from the listing): a lobby is told what changed, never the whole
listing again. ``error`` says why something was refused (a move the rules
refuse names the rule; a malformed message is answered with one such line)
and, after every change at a table, ``state`` goes to everyone there: the
game, rules, seats and moves so far, and the state *as that seat may hold
it* (the rules' ``masked``: never the dice stream, never another seat's secrets; a
spectator holds no seat's), its view, legal moves and story. Games whose
every hand is secret (their rules' ``spectators`` False) have no spectators.

Fair dice: each table's seed is drawn with ``secrets`` (128 bits) and its
dice come from a cryptographic stream (``dice.COUNTER``); the table's
listing and every state carry ``commitment``, the seed's hash, from the
start, and the seed itself once the match is over, so each player's record
can be checked (``garito verify``). Only a server made with
``chosen_seeds=True`` (tests) takes a ``seed`` from a client.

Limits: a connection that sends something that is not a protocol line, a
line over ``MAX_LINE`` bytes, or more than ``RATE`` lines a second (with a
burst of ``BURST``) is told why and cut off, and so is one that leaves more
than ``BACKLOG`` bytes unread; the others play on. At most ``MAX_TABLES``
tables are open, ``PER_PLAYER`` of them with any one player, and a name sits
in one seat of a table. Wrong private-table codes are counted per name and
address, lines said per name, across connections (``Allowance``). A dropped
player's seat is held ``HOLD`` seconds for the same name to come back (each
drop its own timer, called off when they do); then a computer takes it
over, unless nobody is left at the table: an
abandoned table closes, and its record is kept for the players who sat there
(``keep``), as are those of the tables open when the server stops.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from garito.core import catalog, wire
from garito.core.contract import AnyRules
from garito.core.dice import COUNTER, commitment, secret_seed
from garito.core.errors import IllegalAction
from garito.core.identity import problem
from garito.core.match import Match, Seat
from garito.core.names import printable
from garito.core.session import Session
from garito.core.variants import offered_config
from garito.core.words import COMPUTER_NAMES

from .messages import (
    CODE_LENGTH,
    CODE_LETTERS,
    LEADERS,
    WRONG_CODES,
    Act,
    AskLeaders,
    Closed,
    Create,
    Cut,
    Ended,
    Error,
    Fill,
    Hello,
    Join,
    JoinCode,
    Leader,
    Leaders,
    Leave,
    ListedSeat,
    Listing,
    ListTables,
    Mute,
    Refused,
    Rematch,
    Said,
    Say,
    SeatAsked,
    ServerMessage,
    StateUpdate,
    TableChanged,
    Tables,
    Watch,
    Welcome,
    client_message,
    said,
)

if TYPE_CHECKING:  # the ratings' library comes with the server's extra
    from garito.store.ratings import Rating, Ratings

log = logging.getLogger("garito.tables")

MAX_LINE = 8192
RATE = 20.0  # lines per second, on average
BURST = 40
HOLD = 180.0  # seconds a dropped player's seat waits
PACE = 0.7  # seconds a computer seat takes over its move, so people can follow it
BACKLOG = 8 << 20  # bytes a client may leave unread: a long match's state is ~100 KB a line
MAX_TABLES = 64
PER_PLAYER = 3  # unfinished tables one name may sit at (or have a seat held at) at once

SAY_RATE = 0.5  # chat lines a second, on average, per name: a flood is refused, play is not
SAY_BURST = 5
MUTES = 100  # names one player may mute
MUTERS = 1000  # players whose mutes are kept beyond their connection (the newest)
NEWS = 5  # tables' ends kept for a player who was away (the newest)
NEWS_NAMES = 1000  # players with news waiting
# Wrong private-table codes are counted per name and per address (an IPv6
# address by its /64), not per connection: a connection is cut after
# WRONG_CODES, and coming back (a new lobby, a new login) starts where it
# left off. One wrong code is forgiven every CODE_WAIT seconds, so one
# address tries at most 1,440 codes a day of the 32^5 (33.5 million).
CODE_WAIT = 60.0
GUESSERS = 10_000  # names (or addresses) each allowance remembers (the newest)

Keep = Callable[[Match, tuple[str, ...], str], None]  # (match, its players' names, why it closed)
# (the finished match, the names of the people seated at its end, present or
# not, and when the server saw it end): called in a thread
Record = Callable[[Match, tuple[str, ...], str], None]


@dataclass(eq=False)
class Client:
    writer: asyncio.StreamWriter
    name: str = ""
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)
    gone: bool = False  # cut off for leaving too much unread
    mutes: set[str] = field(default_factory=set)  # names whose chat this player does not hear (its name's)
    origin: str = ""  # where the connection's player logged in from (``origin_of``), if told
    listed: dict[int, Listing] = field(default_factory=dict)  # the listing as this lobby has it

    def send(self, message: ServerMessage) -> None:
        if self.gone or self.writer.is_closing():
            return
        line = json.dumps(message.to_dict(), default=str, ensure_ascii=False)
        self.writer.write((line + "\n").encode())
        backlog = self.writer.transport.get_write_buffer_size()
        if backlog > BACKLOG:
            # A client that does not read would grow the server's memory
            # with every broadcast: it goes, the others play on.
            self.gone = True
            log.warning("cut off %s: %d bytes left unread", self.name or "a connection", backlog)
            self.writer.transport.abort()

    def spend(self) -> None:
        """One line's worth of the rate limit; Cut when it is used up."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            raise Cut(f"more than {RATE:g} messages a second")
        self.tokens -= 1


def origin_of(address: str) -> str:
    """Who guesses codes from ``address``, for counting them: an IPv4
    address, or an IPv6 one's /64 (one subscriber's, not one machine's)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Allowance:
    """What someone may still do, by key (a name, or an origin), across
    their connections: ``burst`` at once, one more every ``every`` seconds;
    the newest GUESSERS keys remembered (one forgotten has its whole burst)."""

    def __init__(self, burst: int, every: float) -> None:
        self.burst, self.every = burst, every
        self.spent: dict[str, tuple[float, float]] = {}  # key -> (left, when counted)

    def left(self, key: str, now: float) -> float:
        left, stamp = self.spent.get(key, (self.burst, now))
        return min(self.burst, left + (now - stamp) / self.every)

    def spend(self, key: str, now: float) -> float:
        """One spent: what is left."""
        left = self.left(key, now) - 1
        self.spent.pop(key, None)  # the newest last
        self.spent[key] = (left, now)
        while len(self.spent) > GUESSERS:
            del self.spent[next(iter(self.spent))]
        return left


@dataclass(eq=False)
class Table:
    id: int
    session: Session[Any, Any, Any]  # the match, played by the server's computers, nobody's keyboard
    players: dict[int, Client] = field(default_factory=dict)  # seat -> who is sitting there
    held: dict[int, str] = field(default_factory=dict)  # seat -> the name that left it
    timers: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # seat -> its hold's end
    watchers: set[Client] = field(default_factory=set)
    busy: bool = False  # a computer seat is thinking
    code: str | None = None  # a private table's: not listed, joined by it
    finished: str = ""  # when the match ended (ISO 8601, UTC): its records all say so
    rematch: set[int] = field(default_factory=set)  # seats whose players asked for a rematch

    @property
    def match(self) -> Match[Any, Any, Any]:
        return self.session.match

    @match.setter
    def match(self, match: Match[Any, Any, Any]) -> None:
        self.session.match = match  # who sits where: not a move

    @property
    def rules(self) -> AnyRules:
        return self.match.rules

    @property
    def over(self) -> bool:
        return self.rules.is_over(self.match.state)

    def free_seats(self) -> list[int]:
        return [
            i
            for i, s in enumerate(self.match.seats)
            if s.is_human and i not in self.players and i not in self.held
        ]

    def names(self) -> set[str]:
        """The names seated here or holding a seat."""
        return {c.name for c in self.players.values()} | set(self.held.values())

    def at(self, client: Client) -> bool:
        """The client sits here, holds a seat here, or watches."""
        return client in self.watchers or client.name in self.names()

    def seat_of(self, client: Client) -> int | None:
        return next((s for s, c in self.players.items() if c is client), None)

    def listing(self, ratings: Callable[[str, Seat], float | None] | None = None) -> Listing:
        """The table's entry in the lobbies' listing (with each seat's
        rating, from ``ratings``)."""
        return Listing(
            table=self.id,
            game=self.match.game,
            title=self.rules.title,
            seats=tuple(
                ListedSeat(
                    name=s.name if (i in self.players or not s.is_human) else None,
                    kind=s.kind,
                    level=s.level if not s.is_human else None,
                    held=i in self.held,
                    held_for=self.held.get(i),
                    rating=None
                    if ratings is None or (s.is_human and i not in self.players)
                    else ratings(self.match.game, s),
                )
                for i, s in enumerate(self.match.seats)
            ),
            free=len(self.free_seats()),
            config=self.match.config.to_dict(),
            over=self.over,
            commitment=self.match.commitment,
            private=self.code is not None,
            code=self.code,
        )

    def summary(self) -> dict[str, Any]:
        return self.listing().to_dict()


def _leader(rating: Rating) -> Leader:
    """A leaderboard's row of a ``store.ratings.Rating``: its ordinal, to a tenth."""
    return Leader(rating.name, round(rating.ordinal, 1), rating.matches, rating.computer)


class TableServer:
    def __init__(
        self,
        *,
        tokens: bool = False,
        chosen_seeds: bool = False,
        keep: Keep | None = None,
        record: Record | None = None,
        ratings: Ratings | None = None,
    ) -> None:
        # With tokens, a connection is whoever ``admit`` gave its token to
        # (the SSH login), never the name it claims: nobody takes another
        # player's held seat by calling themselves by that name.
        self.tokens: dict[str, str] | None = {} if tokens else None
        self.origins: dict[str, str] = {}  # token -> where its player logged in from
        # Wrong codes by name and by origin, lines said by name: a new
        # connection (a new lobby) does not start them again.
        self.guesses = {
            "name": Allowance(WRONG_CODES, CODE_WAIT),
            "origin": Allowance(WRONG_CODES, CODE_WAIT),
        }
        self.talk = Allowance(SAY_BURST, 1 / SAY_RATE)
        self.mutes: dict[str, set[str]] = {}  # name -> whom they mute: kept for their next lobby
        self.chosen_seeds = chosen_seeds
        self.keep = keep
        self.record = record
        self.ratings = ratings  # None: nothing is rated
        self.news: dict[str, list[Ended]] = {}  # name -> the ends of its tables it missed
        self.tables: dict[int, Table] = {}
        self.clients: set[Client] = set()
        self._next = 1
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task] = set()
        self._handlers: set[asyncio.Task] = set()  # one per connection
        self._closing = False

    # ------------------------------------------------------------ serving

    def admit(self, name: str, address: str = "") -> str:
        """A token for one player's app to say hello with, as ``name``
        (logged in from ``address``: wrong codes are counted by it too)."""
        assert self.tokens is not None
        token = secrets.token_hex(16)
        self.tokens[token] = name
        if address:
            self.origins[token] = origin_of(address)
        return token

    def dismiss(self, token: str) -> None:
        if self.tokens is not None:
            self.tokens.pop(token, None)
        self.origins.pop(token, None)

    async def start(self, path: str) -> None:
        self._server = await asyncio.start_unix_server(self._connection, path=path, limit=MAX_LINE)

    async def close(self) -> None:
        """Stop: no new connection, every table closed (the record of each
        match still being played kept for its players), every connection
        ended."""
        self._closing = True  # connections ending now leave no timers behind
        if self._server is not None:
            self._server.close()
        for table in list(self.tables.values()):
            self._close_table(table, "the server stopped")
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in list(self.clients):
            client.writer.close()
        if self._handlers:  # each connection's reader sees its end and returns
            await asyncio.wait(self._handlers, timeout=2)
        if self._server is not None:
            await self._server.wait_closed()
        if self.ratings is not None:  # the results given so far into the store
            await asyncio.to_thread(self.ratings.close)

    def _spawn(self, coro) -> asyncio.Task | None:
        if self._closing:
            coro.close()
            return None
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = Client(writer)
        self.clients.add(client)
        handler = asyncio.current_task()
        if handler is not None:
            self._handlers.add(handler)
            handler.add_done_callback(self._handlers.discard)
        try:
            while not client.gone:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    raise Cut(f"a line longer than {MAX_LINE} bytes") from None
                if not line:
                    break
                client.spend()
                try:
                    message = json.loads(line)
                except (ValueError, RecursionError):
                    raise Cut("not a JSON line") from None
                if not isinstance(message, dict) or not isinstance(message.get("op"), str):
                    raise Cut("a message is a JSON object with an op")
                self._answer(client, message)
                await writer.drain()
        except Cut as e:
            log.warning("cut off %s: %s", client.name or "a connection", e)
            client.send(Error(f"Disconnected: {e}."))
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self.clients.discard(client)
            self._dropped(client)
            writer.close()

    def _answer(self, client: Client, message: dict[str, Any]) -> None:
        """Do what ``message`` asks; whatever is wrong with it is answered
        with one error line (Cut, for a broken protocol, ends the connection)."""
        try:
            self._handle(client, message)
        except (Cut, ConnectionError):
            raise
        except Refused as e:
            client.send(Error(str(e)))
        except (TypeError, ValueError, LookupError, AttributeError, RecursionError) as e:
            log.info("%s sent a malformed %s: %s", client.name or "a connection", message["op"][:20], e)
            client.send(Error(f"A malformed message: {said(str(e), 200)}."))
        except Exception:  # a fault of the server's own: the connection and the tables go on
            log.exception("answering %s", client.name or "a connection")
            client.send(Error("The server could not do that."))

    # ------------------------------------------------------------ messages

    def _handle(self, client: Client, m: dict[str, Any]) -> None:
        if m["op"] != "hello" and not client.name:
            raise Cut("say hello first")
        message = client_message(m)
        if isinstance(message, Hello):
            self._hello(client, message)
        elif isinstance(message, ListTables):
            client.listed = {t.table: t for t in self._listing(client)}
            client.send(Tables(tuple(client.listed.values())))
        elif isinstance(message, Create):
            self._create(client, message)
        elif isinstance(message, JoinCode):
            self._join_code(client, message.code)
        elif isinstance(message, Say):
            self._say(client, message)
        elif isinstance(message, Mute):
            self._mute(client, message)
        elif isinstance(message, AskLeaders):
            self._leaders(client, message.game)
        else:
            table = self.tables.get(message.table)
            if isinstance(message, Leave) and (
                table is None or (client not in table.watchers and table.seat_of(client) is None)
            ):
                # Up from a table one is not at: nothing to do, nothing said
                # (whether a private table by that number is open is no one
                # else's business), nobody's lobby told again.
                return
            if table is None or (table.code is not None and not table.at(client)):
                raise Refused(f"No table {message.table}.")  # a private table is no one else's business
            if isinstance(message, Join):
                self._join(client, table)
            elif isinstance(message, Watch):
                self._watch(client, table)
            elif isinstance(message, Leave):
                self._leave(client, table)
            elif isinstance(message, Fill):
                self._fill(client, table)
            elif isinstance(message, Rematch):
                self._rematch(client, table, message.accept)
            else:
                self._act(client, table, message)

    def _hello(self, client: Client, m: Hello) -> None:
        if client.name:
            raise Refused("You have said hello already.")
        if self.tokens is not None:
            name = self.tokens.get(m.token) if m.token is not None else None
            if name is None:
                raise Cut("an unknown token")
            client.origin = self.origins.get(m.token or "", "")
        else:
            given = m.name.strip() if isinstance(m.name, str) else m.name
            why = problem(given)
            if why is not None:
                raise Cut(f"hello needs a name: {why}")
            assert isinstance(given, str)
            name = given
        client.name = name
        client.mutes = self.mutes.pop(name, set())  # one set for all of this name's connections
        self.mutes[name] = client.mutes  # the newest last
        while len(self.mutes) > MUTERS:
            del self.mutes[next(iter(self.mutes))]
        client.listed = {t.table: t for t in self._listing(client)}
        client.send(Welcome(client.name, tuple(client.listed.values())))
        for ended in self.news.pop(name, []):  # how the tables they left ended
            client.send(ended)

    def _rated(self, game: str, seat: Seat) -> float | None:
        return None if self.ratings is None else self.ratings.shown(game, seat)

    def _listing(self, client: Client) -> list[Listing]:
        """The tables ``client`` may see: every public one, and the private
        ones they sit at, hold a seat at or watch."""
        return [t.listing(self._rated) for t in self.tables.values() if t.code is None or t.at(client)]

    def _announce(self) -> None:
        """Every lobby is told what changed in its listing: the tables that
        opened or changed, and those that closed (or it may no longer see);
        nothing when nothing did."""
        everyone = {t.id: t.listing(self._rated) for t in self.tables.values()}
        for client in list(self.clients):
            if not client.name:
                continue
            now = {
                n: entry
                for n, entry in everyone.items()
                if self.tables[n].code is None or self.tables[n].at(client)
            }
            changes: list[ServerMessage] = [Closed(n) for n in client.listed if n not in now]
            changes += [TableChanged(e) for n, e in now.items() if client.listed.get(n) != e]
            client.listed = now
            for change in changes:
                client.send(change)

    # ------------------------------------------------------------ talk

    def _say(self, client: Client, m: Say) -> None:
        if not m.text:
            raise Refused("Nothing to say.")
        if m.table is None:
            audience = [c for c in self.clients if c.name]
            spectator, where = False, "the lobby"
        else:
            table = self.tables.get(m.table)
            if table is None or not table.at(client):
                raise Refused(f"You are not at table {m.table}.")
            spectator = table.seat_of(client) is None
            audience = [*table.players.values(), *table.watchers]
            where = f"table {table.id}" + (" (spectators)" if spectator else "")
        if self.talk.left(client.name, time.monotonic()) < 1:
            raise Refused("You are talking too fast: wait a moment.")
        self.talk.spend(client.name, time.monotonic())
        log.info("chat at %s: %s says %s", where, client.name, m.text)  # who said what, kept
        line = Said(m.table, client.name, m.text, spectator)
        for c in audience:
            if client.name not in c.mutes:
                c.send(line)

    def _mute(self, client: Client, m: Mute) -> None:
        if not m.on:
            client.mutes.discard(m.name)
        elif len(client.mutes) >= MUTES:
            raise Refused(f"You mute {MUTES} players already.")
        elif m.name == client.name:
            raise Refused("You cannot mute yourself.")
        else:
            client.mutes.add(m.name)
        log.info("%s %s %s", client.name, "mutes" if m.on else "hears again", m.name)

    def _leaders(self, client: Client, game: str) -> None:
        try:
            rules = catalog.rules(game)
        except LookupError:
            raise Refused(f"No game {said(game, 20)!r}.") from None
        if self.ratings is None:
            client.send(Leaders(rules.id, ()))
            return
        rows = tuple(_leader(r) for r in self.ratings.leaders(rules.id, LEADERS))
        mine = self.ratings.place(rules.id, client.name)
        place, own = (None, None) if mine is None else (mine[0], _leader(mine[1]))
        client.send(Leaders(rules.id, rows, place, own))

    # ------------------------------------------------------------ private tables and rematches

    def _new_code(self) -> str:
        taken = {t.code for t in self.tables.values()}
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in taken:
                return code

    def _join_code(self, client: Client, code: str) -> None:
        now = time.monotonic()
        whom = [("name", client.name)] + ([("origin", client.origin)] if client.origin else [])
        if min(self.guesses[kind].left(key, now) for kind, key in whom) < 1:
            # Guessing goes on from a new connection: not even looked up.
            raise Cut(f"{WRONG_CODES} wrong table codes: try again in a minute")
        table = next((t for t in self.tables.values() if t.code is not None and t.code == code), None)
        if table is None:
            left = min(self.guesses[kind].spend(key, now) for kind, key in whom)
            if left < 1:
                log.warning("%s (%s): %d wrong table codes", client.name, client.origin or "?", WRONG_CODES)
                raise Cut(f"{WRONG_CODES} wrong table codes")
            raise Refused(f"No table has the code {code!r}.")
        log.info("table %d: %s comes with its code", table.id, client.name)
        back = client.name in table.held.values()
        if back or table.free_seats():
            self._join(client, table)
        else:
            self._watch(client, table)
        self._announce()

    def _rematch(self, client: Client, table: Table, accept: bool) -> None:
        seat = table.seat_of(client)
        if seat is None:
            raise Refused("Only a player seated at the table answers a rematch.")
        if not table.over:
            raise Refused("The match is not over yet.")
        if not accept:
            log.info("table %d: %s will not play again", table.id, client.name)
            self._leave(client, table)
            return
        table.rematch.add(seat)
        log.info("table %d: %s asks for a rematch", table.id, client.name)
        if not self._rematch_if_all(table):
            self._broadcast(table)

    def _rematch_if_all(self, table: Table) -> bool:
        """When every player still seated at the finished table has asked for
        a rematch, it begins: the seats moved one place on (so another seat
        begins), same rules, new dice; the seats of those who left are open."""
        if not (table.over and table.rematch and table.players and set(table.players) <= table.rematch):
            return False
        old = table.match
        n = len(old.seats)
        seats: list[Seat] = []
        for i in range(n):
            was = (i - 1) % n
            seat = old.seats[was]
            if seat.is_human and was not in table.players:
                seat = Seat(f"Seat {i + 1}", "human", seat.level)  # open for whoever comes
            seats.append(seat)
        seed = old.seed + 1 if self.chosen_seeds else secret_seed()  # tests: the dice known
        match = Match.start(
            old.game, old.config, seed, tuple(seats), stream=COUNTER, commitment=commitment(seed)
        )
        for timer in table.timers.values():
            timer.cancel()
        table.session = Session(match, here=(), pace=PACE)
        table.players = {(s + 1) % n: c for s, c in table.players.items()}
        table.held, table.timers, table.rematch, table.finished = {}, {}, set(), ""
        log.info("table %d: a rematch, seed committed to %s", table.id, match.commitment[:16])
        self._broadcast(table)
        return True

    def _ended(self, table: Table) -> None:
        """The match is over: its record goes to every person seated at its
        end, here or away (``record``, in a thread), its result to the
        ratings, and those away are told how it ended."""
        table.finished = datetime.now(UTC).isoformat(timespec="microseconds")
        match, names = table.match, table.match.names
        humans = tuple(
            n
            for i, n in enumerate(names)
            if match.seats[i].is_human and (i in table.players or i in table.held)
        )
        if self.ratings is not None:
            try:
                self.ratings.played(match, table.finished)
            except Exception:  # said in the log; the table goes on
                log.exception("table %d: its result could not be rated", table.id)
        if self.record is not None and humans:
            self._spawn(asyncio.to_thread(self._record, match, humans, table.finished))
        summary = printable(table.rules.summary(match.state, names))
        news = Ended(table.id, table.rules.title, summary)
        for name in set(table.held.values()):
            here = [c for c in self.clients if c.name == name]
            for c in here:  # in the lobby: told at once
                c.send(news)
            if not here:
                if name not in self.news and len(self.news) >= NEWS_NAMES:
                    del self.news[next(iter(self.news))]
                self.news[name] = [*self.news.get(name, []), news][-NEWS:]

    def _record(self, match: Match, humans: tuple[str, ...], finished: str) -> None:
        assert self.record is not None
        try:
            self.record(match, humans, finished)
        except Exception:  # said in the log; the tables go on
            log.exception("the record of a finished %s could not be kept", match.game)

    def _watch(self, client: Client, table: Table) -> None:
        if not table.rules.spectators:
            raise Refused(f"{table.rules.title} hides every player's hand: it has no spectators.")
        table.watchers.add(client)
        self._send_state(table, client, None)

    def _fill(self, client: Client, table: Table) -> None:
        """Nobody comes: computers take the open seats (at the strongest level)."""
        if client not in table.players.values():
            raise Refused("Only a player seated at the table fills its seats.")
        seats = list(table.match.seats)
        names = iter(n for n in COMPUTER_NAMES if n not in table.match.names)
        for i in table.free_seats():
            seats[i] = Seat(next(names, f"Computer {i + 1}"), "computer", table.rules.levels[-1])
            log.info("table %d: a computer takes open seat %d", table.id, i + 1)
        table.match = dataclasses.replace(table.match, seats=tuple(seats))
        self._broadcast(table)

    def _leave(self, client: Client, table: Table) -> None:
        table.watchers.discard(client)
        for seat, c in list(table.players.items()):
            if c is client:
                self._vacate(table, seat, client)
        if not self._rematch_if_all(table):
            self._tidy(table)
            self._broadcast(table) if table.over and table.id in self.tables else self._announce()

    def _create(self, client: Client, m: Create) -> None:
        try:
            rules = catalog.rules(m.game)
            config = offered_config(rules, len(m.seats), m.config)
        except (LookupError, ValueError) as e:
            raise Refused(said(str(e), 200)) from None
        seats: list[Seat] = []
        for i, seat in enumerate(m.seats):
            seats.append(self._seat(rules, i, SeatAsked.read(seat), {s.name for s in seats}))
        if not any(s.is_human for s in seats):
            raise Refused("a table needs a human seat")
        seed = m.seed
        if seed is None:
            seed = secret_seed()
        elif not self.chosen_seeds:
            raise Refused("the server draws the dice: a table takes no seed")
        elif type(seed) is not int or seed < 0:
            raise Refused("the seed is a whole number")
        mine = [t for t in self.tables.values() if client.name in t.names() and not t.over]
        if len(mine) >= PER_PLAYER:
            raise Refused(f"You sit at {len(mine)} tables already: leave one first.")
        if len(self.tables) >= MAX_TABLES:
            raise Refused("The server has as many tables as it can hold: join one, or try later.")
        match = Match.start(rules.id, config, seed, tuple(seats), stream=COUNTER, commitment=commitment(seed))
        table = Table(
            self._next, Session(match, here=(), pace=PACE), code=self._new_code() if m.private else None
        )
        self._next += 1
        self.tables[table.id] = table
        kinds = [s.kind for s in seats]
        log.info("table %d: %s opened by %s, seats %s, seed committed to %s", table.id, rules.title,
                 client.name, kinds, match.commitment[:16])  # fmt: skip
        self._join(client, table)

    def _seat(self, rules: AnyRules, i: int, given: SeatAsked, taken: set[str]) -> Seat:
        """Seat ``i`` as a ``create`` describes it (the dialog's kinds,
        levels and names only)."""
        if given.kind == "human":
            return Seat(f"Seat {i + 1}", "human", rules.levels[-1])  # a person brings a name
        level, name = given.level, given.name
        if level in (None, ""):
            level = rules.levels[-1]
        if not isinstance(level, str) or level not in rules.levels:
            raise Refused(f"a computer plays {' or '.join(rules.levels)}, not {said(str(level), 20)!r}")
        if name is None or (isinstance(name, str) and not name.strip()):
            name = next((n for n in COMPUTER_NAMES if n not in taken), f"Computer {i + 1}")
        elif isinstance(name, str):
            name = name.strip()
        why = problem(name)
        if why is not None:
            raise Refused(f"seat {i + 1}: {why}")
        assert isinstance(name, str)  # a name without a problem is text
        if name in taken:
            raise Refused("two seats have the same name")
        return Seat(name, "computer", level)

    def _join(self, client: Client, table: Table) -> None:
        back = [s for s, name in table.held.items() if name == client.name]
        if not back and client.name in table.names():
            raise Refused("You already sit at this table.")
        free = table.free_seats()
        if back:
            seat = back[0]
            del table.held[seat]
            timer = table.timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
        elif free:
            seat = free[0]
        else:
            raise Refused("No free seat at this table: watch it instead.")
        seats = list(table.match.seats)
        seats[seat] = dataclasses.replace(seats[seat], name=client.name)
        table.match = dataclasses.replace(table.match, seats=tuple(seats))
        table.players[seat] = client
        table.watchers.discard(client)
        log.info("table %d: %s %s seat %d", table.id, client.name, "back in" if back else "takes", seat + 1)
        self._broadcast(table)

    def _act(self, client: Client, table: Table, m: Act) -> None:
        seat = next((s for s, c in table.players.items() if c is client), None)
        if seat is None:
            raise Refused("You are not seated at this table.")
        if table.session.to_act != seat or table.busy:
            raise Refused("It is not your turn.")
        if table.free_seats():
            waiting = ", ".join(str(s + 1) for s in table.free_seats())
            raise Refused(f"The table waits for its players: seat {waiting} is open.")
        try:
            table.session.play(table.rules.parse_action(m.action))
        except IllegalAction as e:
            raise Refused(e.rule) from None
        except ValueError as e:
            raise Refused(said(str(e), 200)) from None
        self._broadcast(table)

    # ------------------------------------------------------------ play

    def _broadcast(self, table: Table) -> None:
        if table.over and not table.finished:
            self._ended(table)
        for seat, client in list(table.players.items()):
            self._send_state(table, client, seat)
        for client in list(table.watchers):
            self._send_state(table, client, None)
        self._tidy(table)
        self._announce()
        self._computer_turn(table)

    def _tidy(self, table: Table) -> None:
        """A finished table closes when its last player has left it."""
        if not table.players and table.over and table.id in self.tables:
            self._close_table(table, "")

    def _close_table(self, table: Table, why: str) -> None:
        """The table leaves the listing; ``why`` an unfinished match ended
        (its record kept for its players)."""
        if self.tables.pop(table.id, None) is None:
            return
        for timer in table.timers.values():
            timer.cancel()
        names = table.match.names
        if table.over:
            log.info(
                "table %d closed: %s", table.id, printable(table.rules.summary(table.match.state, names))
            )
            return
        humans = tuple(
            n
            for i, n in enumerate(names)
            if table.match.seats[i].is_human and (i in table.players or i in table.held)
        )
        log.info("table %d closed after %d moves: %s", table.id, len(table.match.actions), why)
        if self.keep is not None and humans:
            try:
                self.keep(table.match, humans, why)
            except Exception:  # the record could not be written: said in the log, the others go on
                log.exception("table %d: its record could not be kept", table.id)

    def _send_state(self, table: Table, client: Client, seat: int | None) -> None:
        rules, state = table.rules, table.match.state
        names = table.match.names
        match = table.match
        over = rules.is_over(state)
        to_act = rules.to_act(state)
        client.send(
            StateUpdate(
                table=table.id,
                seat=seat,
                game=match.game,
                config=match.config.to_dict(),
                seats=tuple(s.to_dict() for s in match.seats),
                actions=tuple(str(a) for a in match.actions),
                state=wire.encode(rules.masked(state, seat)),
                seed=match.seed if over else None,
                stream=match.stream,
                commitment=match.commitment,
                to_act=to_act,
                over=over,
                summary=rules.summary(state, names),
                log=tuple(rules.narrate(e, names) for e in state.events),
                open=tuple(table.free_seats()),
                away=tuple(sorted(table.held)),
                view=dataclasses.asdict(rules.view(state, seat)) if seat is not None else None,
                legal=tuple(str(a) for a in rules.legal_actions(state)) if to_act == seat else (),
                finished=table.finished,
                rematch=tuple(sorted(table.rematch)),
                code=table.code,
            )
        )

    def _computer_turn(self, table: Table) -> None:
        """A computer seat's move: chosen in a thread (``Session.computer_move``)
        at the table's pace, played unless the match moved meanwhile."""
        seat = table.session.computer_to_move()
        if table.busy or seat is None or table.id not in self.tables:
            return
        table.busy = True
        self._spawn(self._computer_moves(table, seat))

    async def _computer_moves(self, table: Table, seat: int) -> None:
        session = table.session
        moves = session.moves
        action, _ = await asyncio.gather(
            asyncio.to_thread(session.computer_move, seat), asyncio.sleep(session.pace)
        )
        table.busy = False
        if table.id not in self.tables:
            return  # closed meanwhile
        session.play_computer(moves, action)
        self._broadcast(table)

    # ------------------------------------------------------------ leaving

    def _dropped(self, client: Client) -> None:
        for table in list(self.tables.values()):
            table.watchers.discard(client)
            for seat, c in list(table.players.items()):
                if c is client:
                    self._vacate(table, seat, client)
                    self._rematch_if_all(table)
        for table in list(self.tables.values()):
            self._tidy(table)
        self._announce()

    def _vacate(self, table: Table, seat: int, client: Client) -> None:
        """The seat is held for ``client``'s name to come back to: a timer of
        its own, called off if they do."""
        del table.players[seat]
        table.rematch.discard(seat)
        if table.over or self._closing:
            return
        log.info("table %d: %s left seat %d, held for %g s", table.id, client.name, seat + 1, HOLD)
        table.held[seat] = client.name
        old = table.timers.pop(seat, None)
        if old is not None:
            old.cancel()
        timer = self._spawn(self._expire(table, seat, client.name))
        if timer is not None:
            table.timers[seat] = timer
        self._broadcast(table)  # the others see the seat waiting

    async def _expire(self, table: Table, seat: int, name: str) -> None:
        await asyncio.sleep(HOLD)
        if table.timers.get(seat) is asyncio.current_task():
            del table.timers[seat]
        if table.held.get(seat) != name or table.id not in self.tables:
            return  # they came back (or the table is gone)
        if not table.players:
            # Nobody is left at the table: it is abandoned, not handed to
            # computers to play out for no one (once the last hold is over).
            if not table.timers:
                self._close_table(table, "abandoned: nobody came back")
                self._announce()
            return
        del table.held[seat]
        seats = list(table.match.seats)
        seats[seat] = Seat(f"{name} (computer)", "computer", table.rules.levels[-1])
        log.info("table %d: a computer takes %s's seat %d", table.id, name, seat + 1)
        table.match = dataclasses.replace(table.match, seats=tuple(seats))
        self._broadcast(table)
