"""The app's side of a shared table: the connection to the table server
(``garito.server.tables``) and the match a seat's screen draws from.

``garito serve`` tells each player's app where its tables are with
``GARITO_TABLES`` (the server's local socket); the lobby connects, says who
this is, and from then on every line the server sends comes to it. A game
screen at a shared table holds a ``Seating``: its table and seat, and how to
send a move. It never applies a move itself: the server does, and answers
with the match as this seat may hold it (``match_of``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass

from garito.core import catalog, wire
from garito.core.dice import MT, STREAMS
from garito.core.match import Match, Seat
from garito.store import environ

ENV = "GARITO_TABLES"
LIMIT = 1 << 24  # a long match's state is a long line


def tables_socket() -> str | None:
    """Where this app's shared tables are, if it was started by a server."""
    return environ.get(ENV) or None


@dataclass(frozen=True)
class Seating:
    """A game screen's place at a shared table: ``seat`` None is a spectator."""

    table: int
    seat: int | None
    send: Callable[..., None]


def match_of(data: dict) -> Match:
    """The match of a ``state`` message, with the state as this seat holds it
    (its seed is 0 until the match is over; then the real one, so the record
    replays), the kind of its dice stream and the commitment to its seed the
    table published (so the record can be verified: ``core.fairness``)."""
    info = catalog.get(data["game"])
    rules = info.load()
    stream, promised = data.get("stream", MT), data.get("commitment") or ""
    if stream not in STREAMS or not isinstance(promised, str):
        raise ValueError("a table's dice are not described")
    return Match(
        info.id,
        rules.Config.from_dict(data["config"]),
        data.get("seed") or 0,
        tuple(Seat.from_dict(s) for s in data["seats"]),
        tuple(rules.Action.parse(a) for a in data["actions"]),
        wire.decode(data["state"], rules),
        stream=stream,
        commitment=promised,
    )


class Link:
    """One connection to the table server: ``send`` a message; every line
    that comes back is handed to ``receive`` (None once the server is gone)."""

    def __init__(self, receive: Callable[[dict | None], None]) -> None:
        self.receive = receive
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, path: str, hello: dict) -> None:
        """Connect, say ``hello``, and read until the connection ends."""
        try:
            reader, self.writer = await asyncio.open_unix_connection(path, limit=LIMIT)
            self.send(**hello)
            while line := await reader.readline():
                try:
                    message = json.loads(line)
                except (ValueError, RecursionError):
                    continue
                if isinstance(message, dict):
                    self.receive(message)
        except (OSError, ValueError, asyncio.IncompleteReadError):
            pass
        finally:
            self.close()
            self.receive(None)

    def send(self, **message) -> None:
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write((json.dumps(message, ensure_ascii=False) + "\n").encode())

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
