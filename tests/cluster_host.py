"""One host of a test cluster in a process of its own, to be SIGKILLed:
``python -m tests.cluster_host REDIS_URL SOCKET`` serves the shared tables
on SOCKET (chosen seeds, computers at once) until killed."""

from __future__ import annotations

import asyncio
import sys

from garito.server import tables
from garito.server.redis_store import RedisStore
from garito.server.tables import TableServer


async def main(url: str, path: str) -> None:
    tables.PACE = 0.0
    server = TableServer(chosen_seeds=True, store=RedisStore(url))
    await server.start(path)
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
