"""The app's side of a shared table: the connection to the table server
(``garito.server.tables``) and the match a seat's screen draws from.

``garito serve`` tells each player's app where its tables are
(``served.tables_socket``); the lobby connects, says who
this is, and from then on every line the server sends comes to it, read as
one of the protocol's typed messages (``server.messages``). A game screen at
a shared table holds a ``Seating``: its table and seat, and how to send a
move. It never applies a move itself: the server does, and answers with the
match as this seat may hold it (``StateUpdate.match``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from garito.core.match import Match
from garito.server.messages import ClientMessage, Hello, ServerMessage, StateUpdate, server_message

LIMIT = 1 << 24  # a long match's state is a long line


@dataclass(frozen=True)
class Seating:
    """A game screen's place at a shared table: ``seat`` None is a spectator."""

    table: int
    seat: int | None
    send: Callable[[ClientMessage], None]
    code: str | None = None  # a private table's: told to friends, who join with it


def match_of(data: dict[str, Any]) -> Match[Any, Any, Any]:
    """The match of a ``state`` line, as its seat holds it."""
    return StateUpdate.from_dict(data).match()


class Link:
    """One connection to the table server: ``send`` a message; every line
    that comes back is handed to ``receive`` as the message it holds (None
    once the server is gone; a line this app cannot read is left alone)."""

    def __init__(self, receive: Callable[[ServerMessage | None], None]) -> None:
        self.receive = receive
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, path: str, hello: Hello) -> None:
        """Connect, say ``hello``, and read until the connection ends."""
        try:
            reader, self.writer = await asyncio.open_unix_connection(path, limit=LIMIT)
            self.send(hello)
            while line := await reader.readline():
                try:
                    data = json.loads(line)
                    message = server_message(data) if isinstance(data, dict) else None
                except (ValueError, TypeError, RecursionError):
                    continue
                if message is not None:
                    self.receive(message)
        except (OSError, ValueError, asyncio.IncompleteReadError):
            pass
        finally:
            self.close()
            self.receive(None)

    def send(self, message: ClientMessage) -> None:
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write((json.dumps(message.to_dict(), ensure_ascii=False) + "\n").encode())

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
