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

A table is its record, kept in the server's table store (``server/store.py``:
this host's memory, or a Redis that several hosts share,
``server/redis_store.py``): its opening, then each seat taken, move, hold,
fill and rematch as an entry, appended only if the record is still the
length this host decided on, and replayed by every host with people at the
table. A clustered host also looks at every record and host once a second
(``PATROL``): what it missed is caught up with, the seats of a host that is
gone are held for their players, and a computer nobody moves is moved.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import ipaddress
import json
import logging
import math
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
from garito.core.match import Match, RecordError, Seat
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
from .store import MAX_ENTRY, Damaged, MemoryStore, StoreDown, TableStore

if TYPE_CHECKING:  # the ratings' library comes with the server's extra
    from garito.store.ratings import Rating, Ratings

    from .cluster_ratings import ClusterRatings

log = logging.getLogger("garito.tables")

MAX_LINE = 8192
WAITING = 1024  # connections the table socket lets wait to be taken (the kernel caps it: somaxconn)
RATE = 20.0  # lines per second, on average
BURST = 40
HOLD = 180.0  # seconds a dropped player's seat waits
PACE = 0.7  # seconds a computer seat takes over its move, so people can follow it
BACKLOG = 8 << 20  # bytes a client may leave unread: a long match's state is ~100 KB a line
MAX_TABLES = 64
PER_ORIGIN = 8  # unfinished tables opened from one address (an IPv6 /64) at once
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
# address tries at most 1,440 codes a day of the 32^5 (33.5 million). With
# several hosts the counts are the store's: a second host is no second try.
CODE_WAIT = 60.0
PATROL = 1.0  # seconds between a clustered host's looks at every record and host
TRIES = 5  # appends one message tries when other hosts' entries keep coming first
UNAVAILABLE = "The shared tables are unavailable: retrying."

Keep = Callable[[Match, tuple[str, ...], str], None]  # (match, its players' names, why it closed)
# (the finished match, the names of the people seated at its end, present or
# not, and when the server saw it end): called in a thread
Record = Callable[[Match, tuple[str, ...], str], None]

# What a record's entries say ("t"), besides the opening ("new"):
# sit (a name takes a seat, from a host), away (a seated player left
# mid-match: the seat is held until "until"), up (left a finished match),
# act and bot (a person's and a computer's move), fill (computers take the
# open seats), expire (a hold ran out), ask (a rematch asked for), rematch
# (a new match at the table: its seed, drawn by the host that wrote it).
ENTRIES = frozenset({"new", "sit", "away", "up", "act", "bot", "fill", "expire", "ask", "rematch"})


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


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


def tag_of(origin: str) -> str:
    """What a table's record says of where it was opened from: enough to
    count an address's tables by, nothing to read the address back from."""
    return hashlib.sha256(f"garito-origin\x00{origin}".encode()).hexdigest()[:16] if origin else ""


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


@dataclass(eq=False)
class Table:
    """One shared table as its record says it stands (every host replays
    the same entries), and this host's own people at it."""

    id: int
    session: Session[Any, Any, Any]  # the match, played by the server's computers, nobody's keyboard
    players: dict[int, Client] = field(default_factory=dict)  # seat -> who sits there, on this host
    held: dict[int, str] = field(default_factory=dict)  # seat -> the name that left it
    timers: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # seat -> its hold's end, here
    watchers: set[Client] = field(default_factory=set)  # this host's spectators
    busy: bool = False  # a computer seat is thinking, here
    code: str | None = None  # a private table's: not listed, joined by it
    finished: str = ""  # when the match ended (ISO 8601, UTC): its records all say so
    rematch: set[int] = field(default_factory=set)  # seats whose players asked for a rematch
    sitting: dict[int, str] = field(default_factory=dict)  # seat -> the name seated there, on any host
    hosts: dict[int, str] = field(default_factory=dict)  # seat -> the host its player reached
    until: dict[int, float] = field(default_factory=dict)  # held seat -> when its hold ends (epoch s)
    length: int = 0  # the record's entries replayed here
    by: str = ""  # a tag of the address it was opened from (``tag_of``): its share of the tables
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one append or catching up at a time

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
            if s.is_human and i not in self.sitting and i not in self.players and i not in self.held
        ]

    def names(self) -> set[str]:
        """The names seated here or holding a seat."""
        return {c.name for c in self.players.values()} | set(self.sitting.values()) | set(self.held.values())

    def at(self, client: Client) -> bool:
        """The client sits here, holds a seat here, or watches."""
        return client in self.watchers or client.name in self.names()

    def seat_of(self, client: Client) -> int | None:
        return next((s for s, c in self.players.items() if c is client), None)

    def humans(self) -> tuple[str, ...]:
        """The names of the people seated at the match, present or held."""
        return tuple(
            n
            for i, n in enumerate(self.match.names)
            if self.match.seats[i].is_human and (i in self.sitting or i in self.held)
        )

    def listing(self, ratings: Callable[[str, Seat], float | None] | None = None) -> Listing:
        """The table's entry in the lobbies' listing (with each seat's
        rating, from ``ratings``)."""
        return Listing(
            table=self.id,
            game=self.match.game,
            title=self.rules.title,
            seats=tuple(
                ListedSeat(
                    name=s.name if (i in self.sitting or not s.is_human) else None,
                    kind=s.kind,
                    level=s.level if not s.is_human else None,
                    held=i in self.held,
                    held_for=self.held.get(i),
                    rating=None
                    if ratings is None or (s.is_human and i not in self.sitting)
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


# ---------------------------------------------------------------- reading entries


def _entry(line: object) -> dict[str, Any]:
    """One entry of a record as the store gave it: checked like a client's line."""
    if not isinstance(line, str) or len(line.encode()) > MAX_ENTRY:
        raise Damaged("an entry that is not a line Garito writes")
    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):
        raise Damaged("an entry that is not JSON") from None
    if not isinstance(entry, dict) or entry.get("t") not in ENTRIES:
        raise Damaged(f"an entry of no known kind: {said(str(entry)[:40], 40)}")
    return entry


def _whole(entry: dict[str, Any], key: str, below: int | None = None) -> int:
    value = entry.get(key)
    if type(value) is not int or value < 0 or (below is not None and value >= below):
        raise Damaged(f"a {entry['t']} entry's {key} is {said(str(value), 20)}")
    return value


def _text(entry: dict[str, Any], key: str, limit: int = 200) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or len(value) > limit:
        raise Damaged(f"a {entry['t']} entry's {key} is not a short text")
    return value


def _opening(entry: dict[str, Any]) -> tuple[Match[Any, Any, Any], str | None]:
    """The match a record opens with, and its private code: every value
    checked as a record from anywhere is (``Match.from_record``)."""
    if entry.get("t") != "new":
        raise Damaged("a record that does not begin with a table's opening")
    record, code = entry.get("match"), entry.get("code")
    if not isinstance(record, dict) or record.get("actions") != []:
        raise Damaged("a table's opening without its match")
    if code is not None and (
        not isinstance(code, str) or len(code) != CODE_LENGTH or set(code) - set(CODE_LETTERS)
    ):
        raise Damaged("a private code Garito does not make")
    try:
        match = Match.from_record(record)
        offered_config(match.rules, len(match.seats), match.config.to_dict())
    except (RecordError, ValueError) as e:
        raise Damaged(f"a table's opening: {e}") from None
    if match.stream != COUNTER or match.commitment != commitment(match.seed):
        raise Damaged("a shared table's dice are a committed counter stream")
    return match, code


class TableServer:
    def __init__(
        self,
        *,
        tokens: bool = False,
        chosen_seeds: bool = False,
        keep: Keep | None = None,
        record: Record | None = None,
        ratings: Ratings | None = None,
        store: TableStore | None = None,
    ) -> None:
        # With tokens, a connection is whoever ``admit`` gave its token to
        # (the SSH login), never the name it claims: nobody takes another
        # player's held seat by calling themselves by that name.
        self.tokens: dict[str, str] | None = {} if tokens else None
        self.origins: dict[str, str] = {}  # token -> where its player logged in from
        # The records, the hosts alive, the allowances: this host's memory,
        # or a store the hosts of a cluster share.
        self.store: TableStore = store if store is not None else MemoryStore()
        self.mutes: dict[str, set[str]] = {}  # name -> whom they mute: kept for their next lobby
        self.chosen_seeds = chosen_seeds
        self.keep = keep
        self.record = record
        self.ratings = ratings  # None: nothing is rated
        # A cluster's ratings are its store's, mirrored in ``ratings``.
        self.rated: ClusterRatings | None = None
        if ratings is not None and self.store.shared:
            from .cluster_ratings import ClusterRatings

            self.rated = ClusterRatings(self.store, ratings, self._ratings_moved)
        self.news: dict[str, list[Ended]] = {}  # name -> the ends of its tables it missed
        self.tables: dict[int, Table] = {}
        self.damaged: set[int] = set()  # tables whose records were set aside
        self._entries: dict[int, Listing] = {}  # each table's entry in the listing, as last announced
        self.clients: set[Client] = set()
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task] = set()
        self._handlers: set[asyncio.Task] = set()  # one per connection
        self._catching: set[int] = set()  # tables being caught up with now
        self._closing = False

    @property
    def shared(self) -> bool:
        return self.store.shared

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
        await self.store.open(self._heard)
        if self.shared:
            try:  # the tables the other hosts have open: in the lobby from the first hello
                await self._look_around()
            except StoreDown:
                pass  # the patrol tries again, once a second
            self._spawn(self._patrol())
        # A crowd's connections at once (a host's players back from another
        # that died): asyncio's 100 waiting was a reset connection for the
        # hundred-and-first, measured.
        self._server = await asyncio.start_unix_server(
            self._connection, path=path, limit=MAX_LINE, backlog=WAITING
        )

    async def close(self) -> None:
        """Stop: no new connection, every connection ended. One host alone
        closes its tables (the record of each match still being played kept
        for its players); a host of a cluster leaves them to the others, its
        players' seats held for them to come back through another host."""
        if self.shared:
            for table in list(self.tables.values()):
                for seat, client in list(table.players.items()):
                    try:
                        await self._vacate(table, seat, client)
                    except (StoreDown, Damaged, Refused):
                        pass  # the others see this host gone in a few seconds anyway
        self._closing = True  # connections ending now leave no timers behind
        if self._server is not None:
            self._server.close()
        if not self.shared:
            for table in list(self.tables.values()):
                self._close_table(table, "the server stopped")
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:  # bounded: a store's client may take a cancellation for a timeout and go on
            await asyncio.wait(tasks, timeout=5)
        for client in list(self.clients):
            client.writer.close()
        if self._handlers:  # each connection's reader sees its end and returns
            await asyncio.wait(self._handlers, timeout=2)
        if self._server is not None:
            await self._server.wait_closed()
        await self.store.close()
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
                await self._answer(client, message)
                await writer.drain()
        except Cut as e:
            log.warning("cut off %s: %s", client.name or "a connection", e)
            client.send(Error(f"Disconnected: {e}."))
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self.clients.discard(client)
            try:
                await self._dropped(client)
            finally:
                writer.close()

    async def _answer(self, client: Client, message: dict[str, Any]) -> None:
        """Do what ``message`` asks; whatever is wrong with it is answered
        with one error line (Cut, for a broken protocol, ends the connection)."""
        try:
            await self._handle(client, message)
        except (Cut, ConnectionError):
            raise
        except Refused as e:
            client.send(Error(str(e)))
        except StoreDown:
            client.send(Error(UNAVAILABLE))
        except Damaged as e:
            who = client.name or "a connection"
            log.warning("%s's %s met a damaged record: %s", who, message["op"][:20], e)
            client.send(Error("That table's record is damaged: it is set aside."))
        except (TypeError, ValueError, LookupError, AttributeError, RecursionError) as e:
            log.info("%s sent a malformed %s: %s", client.name or "a connection", message["op"][:20], e)
            client.send(Error(f"A malformed message: {said(str(e), 200)}."))
        except Exception:  # a fault of the server's own: the connection and the tables go on
            log.exception("answering %s", client.name or "a connection")
            client.send(Error("The server could not do that."))

    # ------------------------------------------------------------ messages

    async def _handle(self, client: Client, m: dict[str, Any]) -> None:
        if m["op"] != "hello" and not client.name:
            raise Cut("say hello first")
        message = client_message(m)
        if isinstance(message, Hello):
            self._hello(client, message)
        elif isinstance(message, ListTables):
            client.listed = {t.table: t for t in self._listing(client)}
            client.send(Tables(tuple(client.listed.values())))
        elif isinstance(message, Create):
            await self._create(client, message)
        elif isinstance(message, JoinCode):
            await self._join_code(client, message.code)
        elif isinstance(message, Say):
            await self._say(client, message)
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
                await self._join(client, table)
            elif isinstance(message, Watch):
                self._watch(client, table)
            elif isinstance(message, Leave):
                await self._leave(client, table)
            elif isinstance(message, Fill):
                await self._fill(client, table)
            elif isinstance(message, Rematch):
                await self._rematch(client, table, message.accept)
            else:
                await self._act(client, table, message)

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

    def _announce(self, only: Table | None = None) -> None:
        """Every lobby is told what changed in its listing: the tables that
        opened or changed, and those that closed (or it may no longer see);
        nothing when nothing did. Only the tables whose entry changed since
        the last call are looked at for each lobby (and the private ones,
        whose audience may change with no change of entry): every lobby
        against every table was 63% of a host's time at 200 players on 50
        tables (profiled), for the one or two tables a move changes.
        ``only``: the one table that may have changed (its entry alone made
        again; the others' entries kept)."""
        if only is None:
            everyone = {t.id: t.listing(self._rated) for t in self.tables.values()}
        else:
            everyone = {n: e for n, e in self._entries.items() if n in self.tables}
            if self.tables.get(only.id) is only:
                everyone[only.id] = only.listing(self._rated)
        touched = {n for n, entry in everyone.items() if self._entries.get(n) != entry}
        touched |= {n for n in self._entries if n not in everyone}
        touched |= {n for n, t in self.tables.items() if t.code is not None}
        self._entries = everyone
        if not touched:
            return
        for client in list(self.clients):
            if not client.name:
                continue
            changes: list[ServerMessage] = []
            for n in sorted(touched):
                table = self.tables.get(n)
                entry = (
                    everyone.get(n)
                    if table is not None and (table.code is None or table.at(client))
                    else None
                )
                if entry is None:
                    if client.listed.pop(n, None) is not None:
                        changes.append(Closed(n))
                elif client.listed.get(n) != entry:
                    client.listed[n] = entry
                    changes.append(TableChanged(entry))
            for change in changes:
                client.send(change)

    # ------------------------------------------------------------ talk

    async def _say(self, client: Client, m: Say) -> None:
        if not m.text:
            raise Refused("Nothing to say.")
        spectator = False
        if m.table is not None:
            table = self.tables.get(m.table)
            if table is None or not table.at(client):
                raise Refused(f"You are not at table {m.table}.")
            spectator = table.seat_of(client) is None
        if not await self.store.take("talk", client.name, SAY_BURST, 1 / SAY_RATE):
            raise Refused("You are talking too fast: wait a moment.")
        where = "the lobby" if m.table is None else f"table {m.table}"
        where += " (spectators)" if spectator else ""
        log.info("chat at %s: %s says %s", where, client.name, m.text)  # who said what, kept
        line = {"table": m.table, "name": client.name, "text": m.text, "spectator": spectator}
        await self.store.publish("talk", json.dumps(line, ensure_ascii=False))

    def _heard(self, channel: str, payload: str) -> None:
        """A line a host published (this one's own too): talk for this
        host's players, or word that a table's record grew."""
        try:
            if channel == "talk":
                self._deliver(payload)
            elif channel in ("rated", "subscribed") and self.rated is not None:
                self.rated.heard(channel, payload)
            elif channel == "appends":
                self._appended(payload)
        except (ValueError, TypeError, KeyError, RecursionError) as e:  # not a line Garito publishes
            log.warning("a foreign line on %s set aside: %s", channel[:20], said(str(e), 80))

    def _appended(self, payload: str) -> None:
        """Word of an append ("N:length:entry"): the very next entry of a
        table this host holds, and not being caught up with, is replayed at
        once (no read of the record: the word carries it); anything else,
        caught up with from the record."""
        head, _, rest = payload.partition(":")
        length, _, line = rest.partition(":")
        n, length_n = int(head), int(length)
        table = self.tables.get(n)
        if table is not None and table.length >= length_n:
            return  # had already (this host's own, or read meanwhile)
        if (
            table is None
            or n in self.damaged
            or table.lock.locked()
            or not table.length  # its opening still being written here
            or table.length != length_n - 1
            or not line
        ):
            self._spawn(self._catch_up(n))
            return
        try:
            self._replay(table, _entry(line), live=True)
        except Damaged as e:
            self._set_aside(n, str(e))
            return
        table.length += 1
        if self.tables.get(n) is table:
            self._broadcast(table)

    def _deliver(self, payload: str) -> None:
        line = json.loads(payload)
        if not isinstance(line, dict):
            raise ValueError("a line said is an object")
        n, name, text, spectator = line["table"], line["name"], line["text"], line["spectator"]
        if (n is not None and type(n) is not int) or not isinstance(name, str) or not isinstance(text, str):
            raise ValueError("a line said has a table, a name and a text")
        said_line = Said(n, printable(name)[:40], text[:2000], spectator is True)
        if n is None:
            audience = [c for c in self.clients if c.name]
        else:
            table = self.tables.get(n)
            audience = [] if table is None else [*table.players.values(), *table.watchers]
        for c in audience:
            if said_line.name not in c.mutes:
                c.send(said_line)

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

    # ------------------------------------------------------------ the records

    async def _commit(
        self,
        table: Table,
        entry: dict[str, Any],
        *,
        tell: bool = True,
        seen: int | None = None,
        then: Callable[[], None] | None = None,
    ) -> bool:
        """``entry`` appended to the table's record, if the record is still
        the length this host saw when it decided (``seen``: by default, now,
        as the caller's checks were made with no wait between them and this
        call), and replayed here; ``then`` runs at once after it. False if
        another entry came first (caught up with, for the caller to decide
        again): an entry is never written for a record it was not decided
        on, so every host's replay accepts every entry."""
        seen = table.length if seen is None else seen
        entry["at"] = _now()
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        if len(line.encode()) > MAX_ENTRY:
            raise Refused("That is too much for one move.")
        async with table.lock:
            if self.tables.get(table.id) is not table:
                raise Refused(f"No table {table.id}.")
            # A move for a seat not to act now is never written, whatever led
            # to it: every host's replay would refuse it, and set the table aside.
            mover = entry.get("seat") if entry["t"] in ("act", "bot") else None
            ok = (
                table.length == seen
                and (mover is None or table.session.to_act == mover)
                and await self.store.append(table.id, seen, line)
            )
            if ok:
                table.length += 1
                self._replay(table, entry, live=True)
                if then is not None:
                    then()
        if not ok:
            await self._catch_up(table.id)
            return False
        if tell:  # (not told: the caller's next entry follows at once)
            self._broadcast(table)
        return True

    async def _look_around(self) -> None:
        """Every open table's record caught up with: new ones read, grown
        ones replayed on, gone ones closed here too. Only a table this host
        had in the store before it asked can be gone: one opened while the
        answer was on its way is not in it yet."""
        known = {n: table for n, table in self.tables.items() if table.length}
        lengths = await self.store.lengths()
        self.damaged &= set(lengths)  # a table set aside is forgotten once the store has let it go
        for n, length in lengths.items():
            table = self.tables.get(n)
            if n not in self.damaged and (table is None or table.length < length):
                await self._catch_up(n)
        for n, table in known.items():
            if n not in lengths and self.tables.get(n) is table:
                log.warning("table %d is gone from the shared tables: closed here too", n)
                self._close_table(table, "gone from the shared tables", dropped=True)
                self._announce()

    async def _catch_up(self, n: int) -> None:
        """Table ``n`` replayed to the end of its record (read first if it is
        new here); a record that does not replay is set aside."""
        if n in self.damaged:
            return
        table = self.tables.get(n)
        try:
            if table is None:
                if n in self._catching:
                    return
                self._catching.add(n)
                try:
                    entries = await self.store.read(n, 0)
                finally:
                    self._catching.discard(n)
                if not entries or n in self.tables:
                    return
                opening = _entry(entries[0])
                match, code = _opening(opening)
                by = opening.get("by")
                by = by if isinstance(by, str) and len(by) <= 16 else ""
                table = Table(n, Session(match, here=(), pace=PACE), code=code, length=1, by=by)
                rest = entries[1:]
                live = False  # what happened before this host came is not done again here
                self.tables[n] = table
            else:
                live = True
            async with table.lock:
                if live:
                    rest = await self.store.read(n, table.length)
                for line in rest:
                    self._replay(table, _entry(line), live=live)
                    table.length += 1
        except Damaged as e:
            self._set_aside(n, str(e))
            return
        if self.tables.get(n) is table and (rest or not live):  # nothing new: nobody told again
            self._broadcast(table)

    def _set_aside(self, n: int, why: str) -> None:
        log.warning("table %d: its record is set aside: %s", n, said(why, 200))
        self.damaged.add(n)
        table = self.tables.pop(n, None)
        if table is not None:
            for timer in table.timers.values():
                timer.cancel()
            for client in [*table.players.values(), *table.watchers]:
                client.send(Error(f"Table {n}'s record is damaged: it is set aside."))
        self._announce()

    def _replay(self, table: Table, entry: dict[str, Any], *, live: bool) -> None:
        """One entry of the table's record applied to it as it stands here:
        the same on every host. ``live``: the entry is news here (the match's
        end is then rated and kept by this host too)."""
        kind, seats = entry["t"], len(table.match.seats)
        at = entry.get("at", "")
        if kind == "new":
            raise Damaged("a second opening")
        if kind == "rematch":
            self._begin_again(table, _whole(entry, "seed"), _text(entry, "commitment"))
            return
        if kind == "fill":
            given = entry.get("seats")
            if not isinstance(given, dict):
                raise Damaged("a fill entry without its seats")
            new = list(table.match.seats)
            for i, seat in given.items():
                s = int(i)
                if not 0 <= s < seats or not new[s].is_human:
                    raise Damaged("a fill entry for a seat that is not open")
                new[s] = Seat.from_dict(seat)
                if new[s].is_human:
                    raise Damaged("a fill entry seats a person")
            table.match = dataclasses.replace(table.match, seats=tuple(new))
            return
        seat = _whole(entry, "seat", seats)
        if kind in ("act", "bot"):
            if table.session.to_act != seat or table.match.seats[seat].is_human != (kind == "act"):
                raise Damaged(f"a move for seat {seat + 1}, out of turn")
            try:
                table.session.play(table.rules.parse_action(_text(entry, "a")))
            except (IllegalAction, ValueError) as e:
                raise Damaged(f"a move the rules refuse: {said(str(e), 80)}") from None
            if table.over and not table.finished:
                table.finished = at if isinstance(at, str) and at else _now()
                if live:
                    self._ended(table)
            return
        if kind == "ask":
            table.rematch.add(seat)
            return
        name = _text(entry, "name", 60)
        if kind == "sit":
            host = _text(entry, "host", 40)
            if not table.match.seats[seat].is_human:
                raise Damaged("a person sat in a computer's seat")
            table.held.pop(seat, None)
            table.until.pop(seat, None)
            timer = table.timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
            mine = table.players.get(seat)
            if mine is not None and (host != self.store.host or mine.name != name):
                # The same name sat down again through another host: the
                # newest connection plays the seat, this one watches no more.
                del table.players[seat]
                mine.send(Error(f"You sat down at table {table.id} from another connection."))
            table.sitting[seat], table.hosts[seat] = name, host
            new = list(table.match.seats)
            new[seat] = dataclasses.replace(new[seat], name=name)
            table.match = dataclasses.replace(table.match, seats=tuple(new))
        elif kind in ("away", "up"):
            self._stood(table, seat)
            if kind == "away":
                until = entry.get("until")
                if not isinstance(until, (int, float)) or not math.isfinite(until):
                    raise Damaged("an away entry without its hold's end")
                # Never longer than a hold from now (a writer's clock ahead,
                # or a value no host writes, holds a seat no longer).
                table.held[seat], table.until[seat] = name, min(float(until), time.time() + HOLD)
                self._hold(table, seat, name)
        elif kind == "expire":
            if table.held.get(seat) != name:
                raise Damaged("a hold ended that was not held")
            table.until.pop(seat, None)
            if not table.sitting:
                # Nobody is left at the table: it is abandoned, not handed to
                # computers to play out for no one (once the last hold is over).
                if not table.until:
                    # Dropped by every host that closes it (once is enough, and
                    # the host that wrote the entry may have died before it
                    # could); kept for its players by the hosts that saw it end.
                    self._close_table(table, "abandoned: nobody came back", dropped=True, kept=live)
                return
            del table.held[seat]
            new = list(table.match.seats)
            new[seat] = Seat(f"{name} (computer)", "computer", table.rules.levels[-1])
            log.info("table %d: a computer takes %s's seat %d", table.id, name, seat + 1)
            table.match = dataclasses.replace(table.match, seats=tuple(new))

    def _stood(self, table: Table, seat: int) -> None:
        table.sitting.pop(seat, None)
        table.hosts.pop(seat, None)
        table.players.pop(seat, None)
        table.rematch.discard(seat)

    def _hold(self, table: Table, seat: int, name: str) -> None:
        old = table.timers.pop(seat, None)
        if old is not None:
            old.cancel()
        timer = self._spawn(self._expire(table, seat, name))
        if timer is not None:
            table.timers[seat] = timer

    # ------------------------------------------------------------ private tables and rematches

    def _new_code(self) -> str:
        taken = {t.code for t in self.tables.values()}
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in taken:
                return code

    async def _join_code(self, client: Client, code: str) -> None:
        whom = [("name", client.name)] + ([("origin", client.origin)] if client.origin else [])
        # A guess is taken from the allowance before the code is looked up
        # (one step each, so guesses sent at once can't all pass the check),
        # and given back if the code was right.
        taken = [
            (kind, key) for kind, key in whom if await self.store.take(kind, key, WRONG_CODES, CODE_WAIT)
        ]
        if len(taken) < len(whom):
            for kind, key in taken:
                await self.store.give_back(kind, key, WRONG_CODES, CODE_WAIT)
            # Guessing goes on from a new connection: not even looked up.
            raise Cut(f"{WRONG_CODES} wrong table codes: try again in a minute")
        table = next((t for t in self.tables.values() if t.code is not None and t.code == code), None)
        if table is not None:
            for kind, key in taken:
                await self.store.give_back(kind, key, WRONG_CODES, CODE_WAIT)
        else:
            left = min([await self.store.left(kind, key, WRONG_CODES, CODE_WAIT) for kind, key in whom])
            if left < 1:
                log.warning("%s (%s): %d wrong table codes", client.name, client.origin or "?", WRONG_CODES)
                raise Cut(f"{WRONG_CODES} wrong table codes")
            raise Refused(f"No table has the code {code!r}.")
        log.info("table %d: %s comes with its code", table.id, client.name)
        back = client.name in table.held.values()
        if back or table.free_seats():
            await self._join(client, table)
        else:
            self._watch(client, table)
        self._announce()

    async def _rematch(self, client: Client, table: Table, accept: bool) -> None:
        seat = table.seat_of(client)
        if seat is None:
            raise Refused("Only a player seated at the table answers a rematch.")
        if not table.over:
            raise Refused("The match is not over yet.")
        if not accept:
            log.info("table %d: %s will not play again", table.id, client.name)
            await self._leave(client, table)
            return
        log.info("table %d: %s asks for a rematch", table.id, client.name)
        for _ in range(TRIES):
            asked = seat in table.rematch
            last = set(table.sitting) - table.rematch == {seat}  # the rematch begins at once
            if asked or await self._commit(table, {"t": "ask", "seat": seat}, tell=not last):
                if not await self._rematch_if_all(table) and last:
                    self._broadcast(table)
                return
            if table.seat_of(client) != seat or not table.over:
                return
        raise Refused(UNAVAILABLE)

    def _all_asked(self, table: Table) -> bool:
        return bool(table.over and table.rematch and table.sitting and set(table.sitting) <= table.rematch)

    async def _rematch_if_all(self, table: Table) -> bool:
        """When every player still seated at the finished table has asked for
        a rematch, it begins: the seats moved one place on (so another seat
        begins), same rules, new dice; the seats of those who left are open."""
        for _ in range(TRIES):
            if not self._all_asked(table):
                return False
            seed = table.match.seed + 1 if self.chosen_seeds else secret_seed()  # tests: the dice known
            entry = {"t": "rematch", "seed": seed, "commitment": commitment(seed)}
            if await self._commit(table, entry):
                return True
        return False

    def _begin_again(self, table: Table, seed: int, committed: str) -> None:
        if not self._all_asked(table) or committed != commitment(seed):
            raise Damaged("a rematch not every player asked for")
        old = table.match
        n = len(old.seats)
        seats: list[Seat] = []
        for i in range(n):
            was = (i - 1) % n
            seat = old.seats[was]
            if seat.is_human and was not in table.sitting:
                seat = Seat(f"Seat {i + 1}", "human", seat.level)  # open for whoever comes
            seats.append(seat)
        match = Match.start(old.game, old.config, seed, tuple(seats), stream=COUNTER, commitment=committed)
        for timer in table.timers.values():
            timer.cancel()
        table.session = Session(match, here=(), pace=PACE)
        table.players = {(s + 1) % n: c for s, c in table.players.items()}
        table.sitting = {(s + 1) % n: c for s, c in table.sitting.items()}
        table.hosts = {(s + 1) % n: c for s, c in table.hosts.items()}
        table.held, table.timers, table.until, table.rematch, table.finished = {}, {}, {}, set(), ""
        log.info("table %d: a rematch, seed committed to %s", table.id, match.commitment[:16])

    def _ended(self, table: Table) -> None:
        """The match is over: its record goes to every person seated at its
        end, here or away (``record``, in a thread), its result to the
        ratings, and those away are told how it ended. In a cluster each host
        does this for the ends it sees: each keeps the records in its own
        homes, and offers the result to the cluster's ratings, which rate
        it once whichever hosts offer it (``cluster_ratings``)."""
        if not table.finished:
            table.finished = _now()
        match, names = table.match, table.match.names
        humans = table.humans()
        if self.rated is not None:  # rated once by the store, whichever hosts offer it
            self._spawn(self._rate(match, table.finished))
        elif self.ratings is not None:
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

    async def _rate(self, match: Match, finished: str) -> None:
        assert self.rated is not None
        await self.rated.played(match, finished)  # the store down: it waits, offered again by the patrol

    def _ratings_moved(self, game: str, keys: list[str]) -> None:
        """Another host's result (or the store's ratings read) moved these
        players' ratings: the tables where they sit show them."""
        from garito.store.ratings import key_of

        moved = set(keys)
        for table in list(self.tables.values()):
            if table.match.game == game and any(
                key_of(s.name, s.kind, s.level)[0] in moved for s in table.match.seats
            ):
                self._announce(table)

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

    async def _fill(self, client: Client, table: Table) -> None:
        """Nobody comes: computers take the open seats (at the strongest level)."""
        if client not in table.players.values():
            raise Refused("Only a player seated at the table fills its seats.")
        for _ in range(TRIES):
            names = iter(n for n in COMPUTER_NAMES if n not in table.match.names)
            seats = {
                str(i): Seat(next(names, f"Computer {i + 1}"), "computer", table.rules.levels[-1]).to_dict()
                for i in table.free_seats()
            }
            if not seats:
                self._broadcast(table)
                return
            if await self._commit(table, {"t": "fill", "seats": seats}):
                for i in seats:
                    log.info("table %d: a computer takes open seat %d", table.id, int(i) + 1)
                return
        raise Refused(UNAVAILABLE)

    async def _leave(self, client: Client, table: Table) -> None:
        table.watchers.discard(client)
        for seat, c in list(table.players.items()):
            if c is client:
                await self._vacate(table, seat, client)
        if not await self._rematch_if_all(table):
            self._tidy(table)
            self._broadcast(table) if table.over and table.id in self.tables else self._announce()

    async def _create(self, client: Client, m: Create) -> None:
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
        # Names cost nothing on a guests' server: an address (an IPv6 /64)
        # opens a share of the tables, whatever names it comes by.
        by = tag_of(client.origin)
        theirs = [t for t in self.tables.values() if by and t.by == by and not t.over]
        if len(theirs) >= PER_ORIGIN:
            raise Refused(f"{len(theirs)} tables are open from your address already: join one, or leave one.")
        if len(self.tables) >= MAX_TABLES and not self._make_room():
            raise Refused("The server has as many tables as it can hold: join one, or try later.")
        match = Match.start(rules.id, config, seed, tuple(seats), stream=COUNTER, commitment=commitment(seed))
        code = self._new_code() if m.private else None
        n = await self.store.new_table()
        opening = {"t": "new", "match": match.to_record(), "code": code, "by": by, "at": _now()}
        table = Table(n, Session(match, here=(), pace=PACE), code=code, by=by)
        self.tables[n] = table
        async with table.lock:  # its own word of the opening may come back first: not replayed again
            try:
                line = json.dumps(opening, ensure_ascii=False, separators=(",", ":"))
                ok = await self.store.append(n, 0, line)
            except BaseException:
                self.tables.pop(n, None)
                raise
            if not ok:  # a number the store gave twice: never this table's
                self.tables.pop(n, None)
                raise Damaged(f"table {n} was opened twice")
            table.length = 1
        kinds = [s.kind for s in seats]
        log.info("table %d: %s opened by %s, seats %s, seed committed to %s", n, rules.title,
                 client.name, kinds, match.commitment[:16])  # fmt: skip
        await self._join(client, table)

    def _make_room(self) -> bool:
        """Every table taken: the one nobody is at (its seats held for players
        gone, or open) whose holds end first gives its place to a newcomer
        (its record kept for its players, as when its holds run out); False
        if people are at every table."""
        empty = [t for t in self.tables.values() if not t.sitting and not t.players and not t.watchers]
        if not empty:
            return False
        table = min(empty, key=lambda t: (min(t.until.values(), default=0.0), t.id))
        self._close_table(table, "closed for a newcomer: the server was full, nobody at it", dropped=True)
        self._announce()
        return True

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

    async def _join(self, client: Client, table: Table) -> None:
        for _ in range(TRIES):
            back = [s for s, name in table.held.items() if name == client.name]
            # Seated through another host (one that died, say): the seat is
            # this connection's now, the newest.
            elsewhere = [
                s
                for s, name in table.sitting.items()
                if name == client.name and table.hosts.get(s) != self.store.host
            ]
            if not back and not elsewhere and client.name in table.names():
                raise Refused("You already sit at this table.")
            free = table.free_seats()
            if back or elsewhere:
                seat = (back or elsewhere)[0]
            elif free:
                seat = free[0]
            else:
                raise Refused("No free seat at this table: watch it instead.")
            entry = {"t": "sit", "seat": seat, "name": client.name, "host": self.store.host}

            def seated(seat: int = seat) -> None:  # in the seat here before anyone is told
                table.players[seat] = client
                table.watchers.discard(client)

            if await self._commit(table, entry, then=seated):
                log.info("table %d: %s %s seat %d", table.id, client.name,
                         "back in" if back or elsewhere else "takes", seat + 1)  # fmt: skip
                return
        raise Refused(UNAVAILABLE)

    async def _act(self, client: Client, table: Table, m: Act) -> None:
        for _ in range(TRIES):
            seat = next((s for s, c in table.players.items() if c is client), None)
            if seat is None:
                raise Refused("You are not seated at this table.")
            if table.session.to_act != seat or table.busy:
                raise Refused("It is not your turn.")
            if table.free_seats():
                waiting = ", ".join(str(s + 1) for s in table.free_seats())
                raise Refused(f"The table waits for its players: seat {waiting} is open.")
            try:
                action = table.rules.parse_action(m.action)
                table.match.play(action)  # refused here, before anything is written
            except IllegalAction as e:
                raise Refused(e.rule) from None
            except ValueError as e:
                raise Refused(said(str(e), 200)) from None
            if await self._commit(table, {"t": "act", "seat": seat, "a": str(action)}):
                return
        raise Refused(UNAVAILABLE)

    # ------------------------------------------------------------ play

    def _broadcast(self, table: Table) -> None:
        if table.over and not table.finished:
            self._ended(table)
        for seat, client in list(table.players.items()):
            self._send_state(table, client, seat)
        for client in list(table.watchers):
            self._send_state(table, client, None)
        self._tidy(table)
        self._announce(table)
        self._computer_turn(table)

    def _tidy(self, table: Table) -> None:
        """A finished table closes when its last player has left it."""
        if not table.sitting and not table.players and table.over and table.id in self.tables:
            self._close_table(table, "", dropped=True)

    def _close_table(self, table: Table, why: str, *, dropped: bool = False, kept: bool = True) -> None:
        """The table leaves the listing; ``why`` an unfinished match ended
        (its record kept for its players, unless ``kept`` is false: a host
        reading an ended record afresh). ``dropped``: its record leaves the
        store too (every host closing it asks; once is enough)."""
        if self.tables.pop(table.id, None) is None:
            return
        if dropped or not self.shared:
            self._spawn(self._drop(table.id))
        for timer in table.timers.values():
            timer.cancel()
        names = table.match.names
        if table.over:
            log.info(
                "table %d closed: %s", table.id, printable(table.rules.summary(table.match.state, names))
            )
            return
        humans = table.humans()
        log.info("table %d closed after %d moves: %s", table.id, len(table.match.actions), why)
        if self.keep is not None and humans and kept:
            try:
                self.keep(table.match, humans, why)
            except Exception:  # the record could not be written: said in the log, the others go on
                log.exception("table %d: its record could not be kept", table.id)

    async def _drop(self, n: int) -> None:
        try:
            await self.store.drop(n)
        except StoreDown:
            pass  # the store is away: the record stays, closed again by whoever reads it next

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

    def _drives(self, table: Table) -> bool:
        """This host plays the table's computers: alone, it always does; in a
        cluster, the hosts with people at the table do (the first append
        wins), and the patrol takes over a table nobody's host moves."""
        return not self.shared or bool(table.players or table.watchers)

    def _computer_turn(self, table: Table, *, anyway: bool = False) -> None:
        """A computer seat's move: chosen in a thread (``Session.computer_move``)
        at the table's pace, played unless the match moved meanwhile."""
        seat = table.session.computer_to_move()
        if table.busy or seat is None or table.id not in self.tables:
            return
        if not anyway and not self._drives(table):
            return
        table.busy = True
        # The record's length now, with the seat: the move is written only if
        # the record is still this long (an entry replayed before the task
        # starts, or while it thinks, makes it decide again).
        self._spawn(self._computer_moves(table, seat, table.length))

    async def _computer_moves(self, table: Table, seat: int, seen: int) -> None:
        session = table.session
        moves = session.moves
        try:
            if table.length != seen:  # moved on before this task began: decided again
                action = None
            else:
                action, _ = await asyncio.gather(
                    asyncio.to_thread(session.computer_move, seat), asyncio.sleep(session.pace)
                )
        except Exception:  # a fault of the server's own: said, and the patrol or the next move tries again
            log.exception("table %d: the computer in seat %d", table.id, seat + 1)
            return
        finally:
            table.busy = False
        if action is None:
            self._computer_turn(table)
            return
        if self.tables.get(table.id) is not table or table.session is not session:
            return  # closed, or a new match meanwhile
        if session.moves != moves or table.length != seen or session.computer_to_move() != seat:
            self._computer_turn(table)  # another host's entry came first: the next move, if any
            return
        try:
            if not await self._commit(table, {"t": "bot", "seat": seat, "a": str(action)}, seen=seen):
                self._computer_turn(table)
        except (StoreDown, Refused, Damaged):
            pass  # the patrol tries again once the store is back

    # ------------------------------------------------------------ leaving

    async def _dropped(self, client: Client) -> None:
        for table in list(self.tables.values()):
            table.watchers.discard(client)
            for seat, c in list(table.players.items()):
                if c is client:
                    try:
                        await self._vacate(table, seat, client)
                        await self._rematch_if_all(table)
                    except (StoreDown, Damaged, Refused):
                        table.players.pop(seat, None)  # the patrol holds the seat once the store is back
        for table in list(self.tables.values()):
            self._tidy(table)
        self._announce()

    async def _vacate(self, table: Table, seat: int, client: Client) -> None:
        """The seat is held for ``client``'s name to come back to (a timer of
        its own on every host, called off if they do); at a finished match,
        simply left."""
        if self._closing and not self.shared:
            self._stood(table, seat)
            return
        for _ in range(TRIES):
            if table.players.get(seat) is not client:
                return
            if table.over:
                entry: dict[str, Any] = {"t": "up", "seat": seat, "name": client.name}
            else:
                until = time.time() + HOLD
                entry = {"t": "away", "seat": seat, "name": client.name, "until": until}
            if await self._commit(table, entry):
                if entry["t"] == "away":
                    log.info("table %d: %s left seat %d, held for %g s",
                             table.id, client.name, seat + 1, HOLD)  # fmt: skip
                return
        raise Refused(UNAVAILABLE)

    async def _expire(self, table: Table, seat: int, name: str) -> None:
        await asyncio.sleep(max(0.0, table.until.get(seat, 0.0) - time.time()))
        if table.timers.get(seat) is asyncio.current_task():
            del table.timers[seat]
        await self._end_hold(table, seat, name)

    async def _end_hold(self, table: Table, seat: int, name: str) -> None:
        for _ in range(TRIES):
            gone = self.tables.get(table.id) is not table
            if gone or table.held.get(seat) != name or seat not in table.until:
                return  # they came back (or the table is gone, or another host ended it)
            try:
                if await self._commit(table, {"t": "expire", "seat": seat, "name": name}):
                    return
            except (StoreDown, Refused, Damaged):
                return  # the patrol ends it once the store is back

    # ------------------------------------------------------------ a cluster's patrol

    async def _patrol(self) -> None:
        """Once a second, a clustered host looks at every record and host:
        records grown while a message was lost are caught up with; the seats
        of a host that is gone are held for their players; holds whose time
        is up (their host gone) are ended; a computer nobody moves is moved
        by the first host alive."""
        while True:
            await asyncio.sleep(PATROL)
            try:
                await self._look_around()
                if self.rated is not None:
                    await self.rated.patrol()
                alive = await self.store.alive()
                first = min(alive) == self.store.host
                now = time.time()
                for table in list(self.tables.values()):
                    for seat in list(table.hosts):
                        # Read again at each seat: an entry replayed during
                        # the last seat's write may have sat someone here anew.
                        host = table.hosts.get(seat)
                        if host is None:
                            continue
                        gone = host not in alive or (host == self.store.host and seat not in table.players)
                        if gone and seat in table.sitting:
                            await self._left_behind(table, seat, table.sitting[seat])
                    for seat, until in list(table.until.items()):
                        if until <= now and seat not in table.timers:
                            await self._end_hold(table, seat, table.held.get(seat, ""))
                    if first and self.tables.get(table.id) is table:
                        self._computer_turn(table, anyway=True)
            except (StoreDown, Refused, Damaged):
                continue
            except Exception:  # a fault of the server's own: said, and tried again in a second
                log.exception("the shared tables' patrol")

    async def _left_behind(self, table: Table, seat: int, name: str) -> None:
        """A seat whose player's host is gone: held for them, as if they had
        dropped (the first host to see it writes so)."""
        if table.over:
            entry: dict[str, Any] = {"t": "up", "seat": seat, "name": name}
        else:
            entry = {"t": "away", "seat": seat, "name": name, "until": time.time() + HOLD}
        if await self._commit(table, entry):
            log.info("table %d: %s's host is gone: seat %d held", table.id, name, seat + 1)
