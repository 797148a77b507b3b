"""The server's log: one line an event, every line as text.

Kept apart from ``ssh`` so that a worker process (``worker``) logs the same
way without importing the SSH stack.
"""

from __future__ import annotations

import logging
import sys

from garito.core.names import printable


class PrintableLog(logging.Formatter):
    """Every log line as text, asyncssh's included (it names the user
    logging in): nothing a client sent can move an operator's cursor,
    recolour the terminal, or forge a line of its own with a newline."""

    def format(self, record: logging.LogRecord) -> str:
        record.msg, record.args = printable(record.getMessage()), ()
        return super().format(record)


def no_window_changes(record: logging.LogRecord) -> bool:
    """asyncssh logs each window change a client asks for: a client sending
    thousands a second grew the log by 300 KB a second (measured). Garito
    says a size it clamps, once a session."""
    # asyncssh puts its connection and channel before it: "[conn=3, chan=0] Received..."
    return not (record.name.startswith("asyncssh") and "Received window change" in str(record.msg))


def log_to_stderr(fmt: str = "%(asctime)s %(name)s %(message)s") -> None:
    # sys.__stderr__: a Textual app hosted in the same process redirects sys.stderr while it runs
    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(PrintableLog(fmt))
    handler.addFilter(no_window_changes)
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    # asyncssh's own lines are four a connection, refused ones too: a flood's
    # megabyte a second. Its warnings still come; the server says the rest.
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
