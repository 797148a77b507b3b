"""Whether this app was started by ``garito serve``, and where its shared
tables are: the server tells each player's app with ``GARITO_TABLES`` (the
table server's local socket). The menu asks at every start, so this module
holds the question alone: ``link``, which talks to the tables, brings the
table protocol and the records' code with it (21 ms of CPU at start,
measured with their bytecode compiled, for an option a local player never
sees)."""

from __future__ import annotations

from garito.store import environ

ENV = "GARITO_TABLES"


def tables_socket() -> str | None:
    """Where this app's shared tables are, if it was started by a server."""
    return environ.get(ENV) or None
