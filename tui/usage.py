"""The one exception a command's bad argument raises: ``cli`` prints its
message in one line and exits 2. Apart from ``cli``, so that a command kept
in a module of its own (``verify_cli``) raises it without importing ``cli``,
which imports that command."""

from __future__ import annotations


class UsageError(Exception):
    pass
