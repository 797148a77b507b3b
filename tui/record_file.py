"""A record file as the commands that take one read it (``garito replay``,
``garito verify``): its size looked at before anything is read, and never
more read than the largest record, whatever the file is (a sparse file of a
gigabyte, a pipe, ``/dev/zero``)."""

from __future__ import annotations

import os
import stat

from garito.core.i18n import _

MAX_BYTES = 1 << 24  # a record of the longest match (a Willie match to 500, ~3,000 moves) is far smaller


class TooBig(ValueError):
    pass


def read_bounded(path: str) -> bytes:
    """The file's bytes; OSError if it can't be read, TooBig (its one line)
    if it holds more than any record."""
    with open(path, "rb") as f:
        info = os.fstat(f.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > MAX_BYTES:
            raise TooBig(_("{path} is larger than any record").format(path=path))
        raw = f.read(MAX_BYTES + 1)  # a pipe or a device says no size: read no further than a record
    if len(raw) > MAX_BYTES:
        raise TooBig(_("{path} is larger than any record").format(path=path))
    return raw
