"""Shared tables: the authoritative games of a Garito server, and the small
JSON-lines protocol its players' apps speak to it over a local socket.

A line from a client is one JSON object with an ``op``:

``{"op": "hello", "name": "Ana"}``            first, always: who this is (at a
                                              server that admits by token,
                                              ``"token"``: ``admit`` gave it)
``{"op": "list"}``                            the open tables
``{"op": "create", "game": "gemelos", "seats": ["human", "computer:hard"],
  "config": {...}, "seed": 7}``               a new table; the creator sits
                                              in its first human seat (a seat
                                              may also be {"kind", "level",
                                              "name"})
``{"op": "join", "table": 1}``                a free human seat, or the seat
                                              this name left (a reconnection)
``{"op": "watch", "table": 1}``               as a spectator
``{"op": "act", "table": 1, "action": "roll"}``  a move, in the game's notation
``{"op": "leave", "table": 1}``               up from the seat (held as if
                                              dropped) or out of the audience
``{"op": "fill", "table": 1}``                computers take the open seats
                                              (asked by a player seated there)

The server answers ``welcome``, ``tables`` (also unasked, to everyone, when
a table opens, fills, empties or ends), ``error`` (``rule`` says why; a
move the rules refuse names the rule) and, after every change at a table,
``state`` to everyone there: the game, rules, seats and moves so far, and
the state *as that seat may hold it* (``wire.masked``: never the dice
stream, never another seat's secrets; a spectator holds no seat's), its
view, legal moves and story; the seed once the match is over, so the record
can be kept and replayed. Games whose every hand is secret
(``SPECTATORS = False``) have no spectators.

A connection that sends something that is not a protocol line, a line over
``MAX_LINE`` bytes, or more than ``RATE`` lines a second (with a burst of
``BURST``) is told why and cut off; the others play on. A dropped player's
seat is held ``HOLD`` seconds for the same name to come back; then a
computer player takes it over.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from garito.core import catalog, wire
from garito.core.errors import IllegalAction
from garito.core.match import Match, Seat
from garito.core.words import COMPUTER_NAMES

log = logging.getLogger("garito.tables")

MAX_LINE = 8192
RATE = 20.0  # lines per second, on average
BURST = 40
HOLD = 180.0  # seconds a dropped player's seat waits
PACE = 0.7  # seconds a computer seat takes over its move, so people can follow it


class Cut(Exception):
    """The connection broke the protocol: told why, then closed."""


@dataclass(eq=False)
class Client:
    writer: asyncio.StreamWriter
    name: str = ""
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)

    def send(self, message: dict) -> None:
        if not self.writer.is_closing():
            self.writer.write((json.dumps(message, default=str, ensure_ascii=False) + "\n").encode())

    def spend(self) -> None:
        """One line's worth of the rate limit; Cut when it is used up."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            raise Cut(f"more than {RATE:g} messages a second")
        self.tokens -= 1


@dataclass(eq=False)
class Table:
    id: int
    match: Match
    players: dict[int, Client] = field(default_factory=dict)  # seat -> who is sitting there
    held: dict[int, str] = field(default_factory=dict)  # seat -> the name that left it
    watchers: set[Client] = field(default_factory=set)
    busy: bool = False  # a computer seat is thinking

    @property
    def rules(self):
        return self.match.rules

    def free_seats(self) -> list[int]:
        return [
            i
            for i, s in enumerate(self.match.seats)
            if s.is_human and i not in self.players and i not in self.held
        ]

    def summary(self) -> dict:
        info = catalog.get(self.match.game)
        return {
            "table": self.id,
            "game": self.match.game,
            "title": info.title,
            "seats": [
                {
                    "name": s.name if (i in self.players or not s.is_human) else None,
                    "kind": s.kind,
                    "level": s.level if not s.is_human else None,
                    "held": i in self.held,
                    "held_for": self.held.get(i),
                }
                for i, s in enumerate(self.match.seats)
            ],
            "free": len(self.free_seats()),
            "config": self.match.config.to_dict(),
            "over": self.rules.is_over(self.match.state),
        }


class TableServer:
    def __init__(self, *, tokens: bool = False) -> None:
        # With tokens, a connection is whoever ``admit`` gave its token to
        # (the SSH login), never the name it claims: nobody takes another
        # player's held seat by calling themselves by that name.
        self.tokens: dict[str, str] | None = {} if tokens else None
        self.tables: dict[int, Table] = {}
        self.clients: set[Client] = set()
        self._next = 1
        self._server: asyncio.AbstractServer | None = None
        self._announced: list[dict] | None = None
        self._tasks: set[asyncio.Task] = set()
        self._handlers: set[asyncio.Task] = set()  # one per connection
        self._closing = False

    # ------------------------------------------------------------ serving

    def admit(self, name: str) -> str:
        """A token for one player's app to say hello with, as ``name``."""
        import secrets

        assert self.tokens is not None
        token = secrets.token_hex(16)
        self.tokens[token] = name[:24]
        return token

    def dismiss(self, token: str) -> None:
        if self.tokens is not None:
            self.tokens.pop(token, None)

    async def start(self, path: str) -> None:
        self._server = await asyncio.start_unix_server(self._connection, path=path, limit=MAX_LINE)

    async def close(self) -> None:
        self._closing = True  # connections ending now leave no timers behind
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in list(self.clients):
            client.writer.close()
        if self._handlers:  # each connection's reader sees its end and returns
            await asyncio.wait(self._handlers, timeout=2)

    def _spawn(self, coro) -> None:
        if self._closing:
            coro.close()
            return
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = Client(writer)
        self.clients.add(client)
        handler = asyncio.current_task()
        if handler is not None:
            self._handlers.add(handler)
            handler.add_done_callback(self._handlers.discard)
        try:
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    raise Cut(f"a line longer than {MAX_LINE} bytes") from None
                if not line:
                    break
                client.spend()
                try:
                    message = json.loads(line)
                except ValueError:
                    raise Cut("not a JSON line") from None
                if not isinstance(message, dict) or not isinstance(message.get("op"), str):
                    raise Cut("a message is a JSON object with an op")
                self._handle(client, message)
                await writer.drain()
        except Cut as e:
            log.warning("cut off %s: %s", client.name or "a connection", e)
            client.send({"op": "error", "rule": f"Disconnected: {e}."})
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self.clients.discard(client)
            self._dropped(client)
            writer.close()

    # ------------------------------------------------------------ messages

    def _handle(self, client: Client, m: dict) -> None:
        op = m["op"]
        if op == "hello":
            name = m.get("name") if self.tokens is None else self.tokens.get(str(m.get("token")))
            if self.tokens is not None and name is None:
                raise Cut("an unknown token")
            if not isinstance(name, str) or not name.strip() or len(name) > 24:
                raise Cut("hello needs a name of 1 to 24 characters")
            client.name = name.strip()
            client.send({"op": "welcome", "name": client.name, "tables": self._listing()})
            return
        if not client.name:
            raise Cut("say hello first")
        if op == "list":
            client.send({"op": "tables", "tables": self._listing()})
        elif op == "create":
            self._create(client, m)
        elif op in ("join", "watch", "act", "leave", "fill"):
            table = self.tables.get(m.get("table"))  # type: ignore[arg-type]
            if table is None:
                client.send({"op": "error", "rule": f"No table {m.get('table')!r}."})
            elif op == "join":
                self._join(client, table)
            elif op == "watch":
                self._watch(client, table)
            elif op == "leave":
                self._leave(client, table)
            elif op == "fill":
                self._fill(client, table)
            else:
                self._act(client, table, m.get("action"))
        else:
            raise Cut(f"unknown op {op!r}")

    def _listing(self) -> list[dict]:
        return [t.summary() for t in self.tables.values()]

    def _announce(self) -> None:
        """Everyone's lobby is kept current: the listing, when it changed."""
        listing = self._listing()
        if listing == self._announced:
            return
        self._announced = listing
        for client in self.clients:
            if client.name:
                client.send({"op": "tables", "tables": listing})

    def _watch(self, client: Client, table: Table) -> None:
        if not getattr(table.rules, "SPECTATORS", True):
            title = catalog.get(table.match.game).title
            client.send({"op": "error", "rule": f"{title} hides every player's hand: it has no spectators."})
            return
        table.watchers.add(client)
        self._send_state(table, client, None)

    def _fill(self, client: Client, table: Table) -> None:
        """Nobody comes: computers take the open seats (at the strongest level)."""
        if client not in table.players.values():
            client.send({"op": "error", "rule": "Only a player seated at the table fills its seats."})
            return
        seats = list(table.match.seats)
        names = iter(n for n in COMPUTER_NAMES if n not in table.match.names)
        for i in table.free_seats():
            seats[i] = Seat(next(names, f"Computer {i + 1}"), "computer", table.rules.LEVELS[-1])
            log.info("table %d: a computer takes open seat %d", table.id, i + 1)
        table.match = dataclasses.replace(table.match, seats=tuple(seats))
        self._broadcast(table)

    def _leave(self, client: Client, table: Table) -> None:
        table.watchers.discard(client)
        for seat, c in list(table.players.items()):
            if c is client:
                self._vacate(table, seat, client)
        self._tidy(table)
        self._announce()

    def _create(self, client: Client, m: dict) -> None:
        try:
            info = catalog.get(m.get("game"))  # type: ignore[arg-type]
            rules = info.load()
            config = rules.Config.from_dict(dict(m.get("config") or {}, players=len(m.get("seats") or [])))
            seats = []
            for i, given in enumerate(m.get("seats") or []):
                if isinstance(given, dict):
                    kind, level, name = given.get("kind"), given.get("level"), given.get("name")
                else:
                    kind, _, level = str(given).partition(":")
                    name = None
                if kind not in ("human", "computer"):
                    raise ValueError(f"a seat is human or computer, not {kind!r}")
                if kind == "human":
                    level = None  # a person plays it: no level
                elif level and level not in rules.LEVELS:
                    raise ValueError(f"a computer plays {' or '.join(rules.LEVELS)}, not {level!r}")
                if kind == "human":
                    name = f"Seat {i + 1}"  # until a player takes it
                elif name and str(name).strip():
                    name = str(name).strip()[:24]
                else:
                    name = next(n for n in COMPUTER_NAMES if n not in {s.name for s in seats})
                seats.append(Seat(name, kind, level or rules.LEVELS[-1]))
            if not any(s.is_human for s in seats):
                raise ValueError("a table needs a human seat")
            seed = m.get("seed")
            if seed is None:
                from garito.core.dice import fresh_seed

                seed = fresh_seed()
            if not isinstance(seed, int):
                raise ValueError("the seed is a whole number")
            match = Match.start(info.id, config, seed, tuple(seats))
        except (LookupError, ValueError, TypeError) as e:
            client.send({"op": "error", "rule": str(e)})
            return
        table = Table(self._next, match)
        self._next += 1
        self.tables[table.id] = table
        kinds = [s.kind for s in seats]
        log.info("table %d: %s opened by %s, seats %s", table.id, info.title, client.name, kinds)
        self._join(client, table)

    def _join(self, client: Client, table: Table) -> None:
        back = [s for s, name in table.held.items() if name == client.name]
        free = table.free_seats()
        if back:
            seat = back[0]
            del table.held[seat]
        elif free:
            seat = free[0]
        else:
            client.send({"op": "error", "rule": "No free seat at this table: watch it instead."})
            return
        seats = list(table.match.seats)
        seats[seat] = dataclasses.replace(seats[seat], name=client.name)
        table.match = dataclasses.replace(table.match, seats=tuple(seats))
        table.players[seat] = client
        log.info("table %d: %s %s seat %d", table.id, client.name, "back in" if back else "takes", seat + 1)
        self._broadcast(table)

    def _act(self, client: Client, table: Table, text: Any) -> None:
        rules = table.rules
        seat = next((s for s, c in table.players.items() if c is client), None)
        if seat is None:
            client.send({"op": "error", "rule": "You are not seated at this table."})
            return
        if rules.to_act(table.match.state) != seat or table.busy:
            client.send({"op": "error", "rule": "It is not your turn."})
            return
        if table.free_seats():
            waiting = ", ".join(str(s + 1) for s in table.free_seats())
            client.send({"op": "error", "rule": f"The table waits for its players: seat {waiting} is open."})
            return
        try:
            action = rules.Action.parse(str(text))
            table.match = table.match.play(action)
        except IllegalAction as e:
            client.send({"op": "error", "rule": e.rule})
            return
        except ValueError as e:
            client.send({"op": "error", "rule": str(e)})
            return
        self._broadcast(table)

    # ------------------------------------------------------------ play

    def _broadcast(self, table: Table) -> None:
        for seat, client in table.players.items():
            self._send_state(table, client, seat)
        for client in table.watchers:
            self._send_state(table, client, None)
        self._tidy(table)
        self._announce()
        self._computer_turn(table)

    def _tidy(self, table: Table) -> None:
        """A finished table closes when its last player has left it."""
        if not table.players and table.rules.is_over(table.match.state):
            if self.tables.pop(table.id, None) is not None:
                ended = table.rules.summary(table.match.state, table.match.names)
                log.info("table %d closed: %s", table.id, ended)

    def _send_state(self, table: Table, client: Client, seat: int | None) -> None:
        rules, state = table.rules, table.match.state
        names = table.match.names
        match = table.match
        over = rules.is_over(state)
        message: dict = {
            "op": "state",
            "table": table.id,
            "seat": seat,
            "game": match.game,
            "config": match.config.to_dict(),
            "seats": [s.to_dict() for s in match.seats],
            "actions": [str(a) for a in match.actions],
            "state": wire.encode(wire.masked(rules, state, seat)),
            "seed": match.seed if over else None,
            "to_act": rules.to_act(state),
            "over": over,
            "summary": rules.summary(state, names),
            "log": [rules.narrate(e, names) for e in state.events],
            "moves": len(match.actions),
            "open": table.free_seats(),
            "away": sorted(table.held),
        }
        if seat is not None:
            message["view"] = dataclasses.asdict(rules.view(state, seat))
            mine = rules.to_act(state) == seat
            message["legal"] = [str(a) for a in rules.legal_actions(state)] if mine else []
        client.send(message)

    def _computer_turn(self, table: Table) -> None:
        state = table.match.state
        seat = table.rules.to_act(state)
        if table.busy or seat is None or table.match.seats[seat].is_human:
            return
        table.busy = True
        self._spawn(self._think(table, seat))

    async def _think(self, table: Table, seat: int) -> None:
        rules = table.rules
        bot = importlib.import_module(rules.__name__ + ".bot")
        state = table.match.state
        level = table.match.seats[seat].level
        action, _ = await asyncio.gather(
            asyncio.to_thread(bot.choose, rules.view(state, seat), rules.legal_actions(state), level),
            asyncio.sleep(PACE),
        )
        table.busy = False
        if table.match.state is state:  # nothing moved meanwhile
            table.match = table.match.play(action)
        self._broadcast(table)

    # ------------------------------------------------------------ leaving

    def _dropped(self, client: Client) -> None:
        for table in list(self.tables.values()):
            table.watchers.discard(client)
            for seat, c in list(table.players.items()):
                if c is client:
                    self._vacate(table, seat, client)
        for table in list(self.tables.values()):
            self._tidy(table)
        self._announce()

    def _vacate(self, table: Table, seat: int, client: Client) -> None:
        """The seat is held for ``client``'s name to come back to."""
        del table.players[seat]
        if not table.rules.is_over(table.match.state):
            log.info("table %d: %s left seat %d, held for %g s", table.id, client.name, seat + 1, HOLD)
            table.held[seat] = client.name
            self._spawn(self._expire(table, seat, client.name))
            self._broadcast(table)  # the others see the seat waiting

    async def _expire(self, table: Table, seat: int, name: str) -> None:
        await asyncio.sleep(HOLD)
        if table.held.get(seat) != name:
            return  # they came back
        del table.held[seat]
        seats = list(table.match.seats)
        seats[seat] = Seat(f"{name} (computer)", "computer", table.rules.LEVELS[-1])
        log.info("table %d: a computer takes %s's seat %d", table.id, name, seat + 1)
        table.match = dataclasses.replace(table.match, seats=tuple(seats))
        self._broadcast(table)
