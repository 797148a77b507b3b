"""The hostile suite of the tables (``test_tables_hostile``) again, every
table server in it a host of a cluster on a real Redis of the test's own:
every limit holds when the records, the allowances and the talk are
Redis's."""

from __future__ import annotations

import pytest

from garito.server.redis_store import RedisStore
from garito.server.tables import TableServer

from .test_tables_hostile import *  # noqa: F403 (the same tests, collected here too)


@pytest.fixture(autouse=True)
def clustered(redis_server, monkeypatch):
    made = TableServer.__init__

    def on_redis(self, *args, store=None, **options):
        made(self, *args, store=store if store is not None else RedisStore(redis_server.url), **options)

    monkeypatch.setattr(TableServer, "__init__", on_redis)


# Not again here: it counts each connection's answers line by line, and on
# Redis a line said comes back over pub/sub, so a closed connection's last
# "said" may reach the next one (test_cluster holds talk's allowance across
# hosts instead).
del test_talking_too_fast_does_not_start_again_with_a_new_connection  # noqa: F821
