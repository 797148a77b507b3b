"""The shared tables' protocol as typed messages: one frozen dataclass per
kind of line, with its ``to_dict`` (the JSON object on the wire, its ``op``
first) and the one place each is read back and checked (``client_message``
on the server, ``server_message`` in the app). ``server/tables.py`` speaks
it; ``tui/link.py`` and the lobby read and send it.

What a client sends is checked for its shape here: a broken protocol is
``Cut`` (told why, then disconnected), a malformed message ``Refused`` (one
error line, the connection goes on). What it asks is the server's to judge
(the rules of a game, a seat's name, whose turn it is).

What the server sends is read back strictly (``ValueError`` for anything
not as this module writes it): the app trusts its own server, and a line it
cannot read is left alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

from garito.core import catalog, wire
from garito.core.dice import MT, STREAMS
from garito.core.i18n import N_
from garito.core.match import Match, Seat
from garito.core.names import printable


class Cut(Exception):
    """The connection broke the protocol: told why, then closed."""


class Refused(Exception):
    """A message that cannot be done (or is malformed): answered with one
    error line, and the connection goes on."""


def said(text: object, limit: int) -> str:
    """Something a client sent, fit to be said back or logged: printable, short."""
    return printable(str(text))[:limit]


# ---------------------------------------------------------------- client → server


@dataclass(frozen=True)
class Hello:
    """First, always: who this is (at a server that admits by token, the
    token ``admit`` gave its app)."""

    op: ClassVar[str] = "hello"
    name: object = None  # the server judges it (core.identity)
    token: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "name": self.name, "token": self.token}


@dataclass(frozen=True)
class ListTables:
    """The whole listing of open tables."""

    op: ClassVar[str] = "list"

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op}


@dataclass(frozen=True)
class SeatAsked:
    """One seat of a ``create``: a kind, a computer's level and name (the
    server checks those against the game's rules and the names at the table)."""

    kind: str
    level: object = None
    name: object = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "name": self.name}

    @classmethod
    def read(cls, given: object) -> SeatAsked:
        """A seat as ``create`` gives it: an object, or ``human`` or
        ``computer:level``."""
        if isinstance(given, dict):
            kind, level, name = given.get("kind"), given.get("level"), given.get("name")
        elif isinstance(given, str):
            kind, _, level = given.partition(":")
            name = None
        else:
            raise Refused("a seat is 'human', 'computer:level' or an object")
        if kind not in ("human", "computer"):
            raise Refused(f"a seat is human or computer, not {said(str(kind), 20)!r}")
        return cls(kind, level, name)


@dataclass(frozen=True)
class Create:
    """A new table: the creator sits in its first human seat; the config is
    one the new-game dialog could make (``variants.offered_config``)."""

    op: ClassVar[str] = "create"
    game: str
    seats: tuple[object, ...]  # each read with SeatAsked.read, in order, by the server
    config: object = None
    seed: object = None  # only a server made with chosen_seeds takes one
    private: bool = False  # not listed: joined by its code (``JoinCode``)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"op": self.op, "game": self.game, "config": self.config}
        out["seats"] = [s.to_dict() if isinstance(s, SeatAsked) else s for s in self.seats]
        if self.seed is not None:
            out["seed"] = self.seed
        if self.private:
            out["private"] = True
        return out


@dataclass(frozen=True)
class Join:
    """A free human seat, or the seat this name left (a reconnection)."""

    op: ClassVar[str] = "join"
    table: int

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table}


@dataclass(frozen=True)
class Watch:
    """The table, as a spectator."""

    op: ClassVar[str] = "watch"
    table: int

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table}


@dataclass(frozen=True)
class Leave:
    """Up from the seat (held as if dropped) or out of the audience."""

    op: ClassVar[str] = "leave"
    table: int

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table}


@dataclass(frozen=True)
class Fill:
    """Computers take the open seats (asked by a player seated there)."""

    op: ClassVar[str] = "fill"
    table: int

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table}


MAX_ACTION = 256  # characters: the longest move of any game's notation is far shorter


@dataclass(frozen=True)
class Act:
    """A move, in the game's notation."""

    op: ClassVar[str] = "act"
    table: int
    action: str

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table, "action": self.action}


@dataclass(frozen=True)
class Rematch:
    """At a finished table, a seated player's answer to a rematch: yes
    (``accept``) or no (up from the table: the seat opens for the rematch)."""

    op: ClassVar[str] = "rematch"
    table: int
    accept: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table, "accept": self.accept}


MAX_SAY = 200  # characters of one chat line
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 5
WRONG_CODES = 5  # private tables' codes a connection may get wrong before it is cut off
LEADERS = 15  # rows of a leaderboard the server sends (and a client reads): the screen at 80x24
# The keyboard-shy's phrases (Tab in the chat line goes through them).
# Offered in the speaker's language (the chat line translates them); what
# is sent is the text.
CANNED = (
    N_("Good luck!"),
    N_("Well played."),
    N_("I tip my hat."),
    N_("Thanks!"),
    N_("Nice one!"),
    N_("Good game."),
)


def said_line(text: object) -> str:
    """A chat line as the server passes it on: printable, one line (every
    run of blanks one space), at most ``MAX_SAY`` characters."""
    if not isinstance(text, str):
        raise Refused("a chat line is text")
    return " ".join(printable(text.replace("\n", " ").replace("\t", " ")).split())[:MAX_SAY]


@dataclass(frozen=True)
class Say:
    """A chat line: at a table (its players' channel, or its spectators'
    when a spectator says it), or in the lobby (``table`` None)."""

    op: ClassVar[str] = "say"
    table: int | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table, "text": self.text}


@dataclass(frozen=True)
class Mute:
    """Hear no more from ``name`` (``on`` False: hear them again)."""

    op: ClassVar[str] = "mute"
    name: str
    on: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "name": self.name, "on": self.on}


@dataclass(frozen=True)
class JoinCode:
    """A private table, by the code its creator was given."""

    op: ClassVar[str] = "code"
    code: str

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "code": self.code}


@dataclass(frozen=True)
class AskLeaders:
    """A game's leaderboard (``Leaders`` answers)."""

    op: ClassVar[str] = "leaders"
    game: str

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "game": self.game}


ClientMessage = (
    Hello
    | ListTables
    | Create
    | Join
    | Watch
    | Leave
    | Fill
    | Act
    | Rematch
    | Say
    | Mute
    | JoinCode
    | AskLeaders
)
TABLE_OPS: dict[str, type[Join | Watch | Leave | Fill]] = {
    "join": Join,
    "watch": Watch,
    "leave": Leave,
    "fill": Fill,
}


def _table_id(m: dict[str, Any]) -> int:
    value = m.get("table")
    if type(value) is not int:
        raise Refused(f"a table is a number, not {said(repr(value), 40)}")
    return value


def client_message(m: dict[str, Any]) -> ClientMessage:
    """The message a client's line holds (a JSON object with an ``op``)."""
    op = m["op"]
    if op == "hello":
        token = m.get("token")
        return Hello(m.get("name"), token if isinstance(token, str) else None)
    if op == "list":
        return ListTables()
    if op == "create":
        game, seats = m.get("game"), m.get("seats")
        if not isinstance(game, str):
            raise Refused("a table needs a game")
        if not isinstance(seats, list):
            raise Refused("a table's seats are a list")
        return Create(game, tuple(seats), m.get("config"), m.get("seed"), m.get("private") is True)
    if op in TABLE_OPS:
        return TABLE_OPS[op](_table_id(m))
    if op == "act":
        number, text = _table_id(m), m.get("action")
        if not isinstance(text, str) or len(text) > MAX_ACTION:
            raise Refused("a move is written as text")
        return Act(number, text)
    if op == "rematch":
        return Rematch(_table_id(m), m.get("accept") is not False)
    if op == "say":
        where = m.get("table")
        return Say(None if where is None else _table_id(m), said_line(m.get("text")))
    if op == "mute":
        name = m.get("name")
        if not isinstance(name, str) or not name.strip():
            raise Refused("mute whom? a name")
        return Mute(said(name.strip(), 40), m.get("on") is not False)
    if op == "code":
        code = m.get("code")
        if not isinstance(code, str):
            raise Refused("a table's code is text")
        return JoinCode(said(code, 20).strip().upper())
    if op == "leaders":
        game = m.get("game")
        if not isinstance(game, str):
            raise Refused("a leaderboard is a game's")
        return AskLeaders(said(game, 40))
    raise Cut(f"unknown op {said(op, 20)!r}")


# ---------------------------------------------------------------- server → client


def _int(value: object, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{what} is a number")
    return value


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} is text")
    return value


def _maybe_str(value: object, what: str) -> str | None:
    return None if value is None else _str(value, what)


def _maybe_float(value: object, what: str) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
        raise ValueError(f"{what} is a number")
    return float(value)  # type: ignore[arg-type]


def _ints(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{what} is a list")
    return tuple(_int(v, what) for v in value)


def _dict(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is an object")
    return value


@dataclass(frozen=True)
class ListedSeat:
    """A seat as the listing shows it: a person's name only once seated."""

    name: str | None
    kind: str
    level: str | None
    held: bool
    held_for: str | None
    rating: float | None = None  # the seat's rating at this game (its ordinal), once it has one

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "held": self.held,
            "held_for": self.held_for,
            "rating": self.rating,
        }

    @classmethod
    def from_dict(cls, d: object) -> ListedSeat:
        d = _dict(d, "a seat")
        return cls(
            _maybe_str(d.get("name"), "a name"),
            _str(d.get("kind"), "a seat's kind"),
            _maybe_str(d.get("level"), "a level"),
            bool(d.get("held")),
            _maybe_str(d.get("held_for"), "a name"),
            _maybe_float(d.get("rating"), "a rating"),
        )


@dataclass(frozen=True)
class Listing:
    """One open table in the lobby's listing."""

    table: int
    game: str
    title: str
    seats: tuple[ListedSeat, ...]
    free: int
    config: dict[str, Any]
    over: bool
    commitment: str
    private: bool = False  # listed only to those at it
    code: str | None = None  # a private table's code, told to those at it

    def to_dict(self) -> dict[str, Any]:
        out = {
            "table": self.table,
            "game": self.game,
            "title": self.title,
            "seats": [s.to_dict() for s in self.seats],
            "free": self.free,
            "config": self.config,
            "over": self.over,
            "commitment": self.commitment,
        }
        if self.private:
            out |= {"private": True, "code": self.code}
        return out

    @classmethod
    def from_dict(cls, d: object) -> Listing:
        d = _dict(d, "a table")
        seats = d.get("seats")
        if not isinstance(seats, list):
            raise ValueError("a table's seats are a list")
        return cls(
            _int(d.get("table"), "a table"),
            _str(d.get("game"), "a game"),
            _str(d.get("title"), "a title"),
            tuple(ListedSeat.from_dict(s) for s in seats),
            _int(d.get("free"), "free seats"),
            _dict(d.get("config"), "a config"),
            bool(d.get("over")),
            str(d.get("commitment") or ""),
            bool(d.get("private")),
            _maybe_str(d.get("code"), "a code"),
        )


def _listings(value: object) -> tuple[Listing, ...]:
    if not isinstance(value, list):
        raise ValueError("the tables are a list")
    return tuple(Listing.from_dict(t) for t in value)


@dataclass(frozen=True)
class Welcome:
    """The answer to ``hello``: the name the server knows this player by."""

    op: ClassVar[str] = "welcome"
    name: str
    tables: tuple[Listing, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "name": self.name, "tables": [t.to_dict() for t in self.tables]}


@dataclass(frozen=True)
class Tables:
    """The whole listing (asked with ``list``)."""

    op: ClassVar[str] = "tables"
    tables: tuple[Listing, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "tables": [t.to_dict() for t in self.tables]}


@dataclass(frozen=True)
class TableChanged:
    """One table opened or changed: a lobby is told what changed, never the
    whole listing again."""

    op: ClassVar[str] = "table"
    table: Listing

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table.to_dict()}


@dataclass(frozen=True)
class Closed:
    """A table gone from the listing."""

    op: ClassVar[str] = "closed"
    table: int

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table}


@dataclass(frozen=True)
class Error:
    """Why something was refused (a move the rules refuse names the rule)."""

    op: ClassVar[str] = "error"
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "rule": self.rule}


@dataclass(frozen=True)
class StateUpdate:
    """A table after a change, as one seat may hold it (``seat`` None: a
    spectator): its game, rules, seats and moves so far, its state masked
    for that seat (``Rules.masked``), the seed once the match is over, and,
    for a seat, its view and (on its turn) its legal moves."""

    op: ClassVar[str] = "state"
    table: int
    seat: int | None
    game: str
    config: dict[str, Any]
    seats: tuple[dict[str, Any], ...]
    actions: tuple[str, ...]
    state: Any  # wire.encode of the masked state
    seed: int | None
    stream: str
    commitment: str
    to_act: int | None
    over: bool
    summary: str
    log: tuple[str, ...]
    open: tuple[int, ...] = ()
    away: tuple[int, ...] = ()
    view: dict[str, Any] | None = field(default=None)
    legal: tuple[str, ...] | None = None
    finished: str = ""  # when the server saw the match end (ISO 8601): every copy of the record says so
    rematch: tuple[int, ...] = ()  # the seats that asked for a rematch of the finished match
    code: str | None = None  # a private table's code

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "op": self.op,
            "table": self.table,
            "seat": self.seat,
            "game": self.game,
            "config": self.config,
            "seats": list(self.seats),
            "actions": list(self.actions),
            "state": self.state,
            "seed": self.seed,
            "stream": self.stream,
            "commitment": self.commitment,
            "to_act": self.to_act,
            "over": self.over,
            "summary": self.summary,
            "log": list(self.log),
            "moves": len(self.actions),
            "open": list(self.open),
            "away": list(self.away),
        }
        if self.finished:
            out["finished"] = self.finished
        if self.rematch:
            out["rematch"] = list(self.rematch)
        if self.code:
            out["code"] = self.code
        if self.seat is not None:
            out["view"] = self.view
            out["legal"] = list(self.legal or ())
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StateUpdate:
        seat, to_act, seed = d.get("seat"), d.get("to_act"), d.get("seed")
        actions, seats, log = d.get("actions"), d.get("seats"), d.get("log", [])
        stream, promised = d.get("stream", MT), d.get("commitment") or ""
        if stream not in STREAMS or not isinstance(promised, str):
            raise ValueError("a table's dice are not described")
        if not isinstance(actions, list) or not isinstance(seats, list) or not isinstance(log, list):
            raise ValueError("a table's moves and seats are lists")
        return cls(
            table=_int(d.get("table"), "a table"),
            seat=None if seat is None else _int(seat, "a seat"),
            game=_str(d.get("game"), "a game"),
            config=_dict(d.get("config"), "a config"),
            seats=tuple(_dict(s, "a seat") for s in seats),
            actions=tuple(_str(a, "a move") for a in actions),
            state=d.get("state"),
            seed=None if seed is None else _int(seed, "a seed"),
            stream=stream,
            commitment=promised,
            to_act=None if to_act is None else _int(to_act, "a seat"),
            over=bool(d.get("over")),
            summary=str(d.get("summary", "")),
            log=tuple(str(line) for line in log),
            open=_ints(d.get("open", []), "an open seat"),
            away=_ints(d.get("away", []), "a seat held"),
            finished=_str(d.get("finished", ""), "a finish time"),
            rematch=_ints(d.get("rematch", []), "a seat"),
            code=_maybe_str(d.get("code"), "a code"),
        )

    def match(self) -> Match[Any, Any, Any]:
        """The match as this seat holds it (its seed is 0 until the match is
        over; then the real one, so the record replays), with the kind of
        its dice stream and the commitment to its seed the table published
        (so the record can be verified: ``core.fairness``)."""
        rules = catalog.rules(self.game)
        return Match(
            rules.id,
            rules.config_from_dict(self.config),
            self.seed or 0,
            tuple(Seat.from_dict(s) for s in self.seats),
            tuple(rules.parse_action(a) for a in self.actions),
            wire.decode(self.state, rules),
            stream=self.stream,
            commitment=self.commitment,
        )


@dataclass(frozen=True)
class Said:
    """A chat line, with its speaker's name: at a table (``spectator``: in
    its spectators' channel) or in the lobby (``table`` None)."""

    op: ClassVar[str] = "said"
    table: int | None
    name: str
    text: str
    spectator: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "table": self.table,
            "name": self.name,
            "text": self.text,
            "spectator": self.spectator,
        }


@dataclass(frozen=True)
class Ended:
    """A table this player had a seat at ended while they were away."""

    op: ClassVar[str] = "ended"
    table: int
    title: str
    summary: str

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "table": self.table, "title": self.title, "summary": self.summary}


@dataclass(frozen=True)
class Leader:
    """One row of a leaderboard: a person's name, or a computer's level (its
    ``computer`` true); its rating (the ordinal: mu - 3 sigma) and how many
    rated matches it played."""

    name: str
    rating: float
    matches: int
    computer: bool

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rating": self.rating, "matches": self.matches, "computer": self.computer}

    @classmethod
    def from_dict(cls, d: object) -> Leader:
        d = _dict(d, "a row")
        rating = _maybe_float(d.get("rating"), "a rating")
        return cls(printable(_str(d.get("name"), "a name"))[:40], rating or 0.0,
                   _int(d.get("matches"), "matches"), bool(d.get("computer")))  # fmt: skip


@dataclass(frozen=True)
class Leaders:
    """A game's leaderboard, best first (at most ``LEADERS`` rows), and the
    asking player's own place and row once they are rated there."""

    op: ClassVar[str] = "leaders"
    game: str
    rows: tuple[Leader, ...]
    place: int | None = None
    own: Leader | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "game": self.game,
            "rows": [r.to_dict() for r in self.rows],
            "place": self.place,
            "own": None if self.own is None else self.own.to_dict(),
        }


ServerMessage = Welcome | Tables | TableChanged | Closed | Error | StateUpdate | Said | Ended | Leaders


def server_message(m: dict[str, Any]) -> ServerMessage | None:
    """The message of a line from the server; None for a kind this app does
    not know, ValueError for one that is not as the server writes it."""
    op = m.get("op")
    if op == "welcome":
        return Welcome(printable(str(m.get("name", ""))), _listings(m.get("tables", [])))
    if op == "tables":
        return Tables(_listings(m.get("tables", [])))
    if op == "table":
        return TableChanged(Listing.from_dict(m.get("table")))
    if op == "closed":
        return Closed(_int(m.get("table"), "a table"))
    if op == "error":
        return Error(printable(str(m.get("rule", ""))))
    if op == "state":
        return StateUpdate.from_dict(m)
    if op == "said":
        where = m.get("table")
        return Said(
            None if where is None else _int(where, "a table"),
            printable(_str(m.get("name"), "a name")),
            printable(_str(m.get("text"), "a chat line")),
            bool(m.get("spectator")),
        )
    if op == "ended":
        return Ended(_int(m.get("table"), "a table"), printable(_str(m.get("title"), "a title")),
                     printable(_str(m.get("summary"), "a summary")))  # fmt: skip
    if op == "leaders":
        rows = m.get("rows")
        if not isinstance(rows, list):
            raise ValueError("a leaderboard's rows are a list")
        own, place = m.get("own"), m.get("place")
        return Leaders(
            _str(m.get("game"), "a game")[:40],
            tuple(Leader.from_dict(r) for r in rows[:LEADERS]),
            None if place is None else _int(place, "a place"),
            None if own is None else Leader.from_dict(own),
        )
    return None
