"""Where an error that stopped the app is kept: one file per crash under
``<data>/crashes/``, the traceback in plain text, so the terminal gets one
line pointing at it instead of a screenful (over SSH, nobody else would ever
see it). The newest ``KEEP`` are kept."""

from __future__ import annotations

import traceback
from datetime import UTC, datetime
from pathlib import Path

from .atomic import write_atomic
from .paths import data_dir

KEEP = 20


def folder() -> Path:
    return data_dir() / "crashes"


def keep(error: BaseException, version: str) -> Path | None:
    """Write ``error``'s traceback; its path, or None if nothing can be written."""
    when = datetime.now(UTC)
    text = f"Garito {version} stopped on an error at {when.isoformat(timespec='seconds')}.\n\n" + "".join(
        traceback.format_exception(error)
    )
    path = folder() / f"crash-{when.strftime('%Y%m%d-%H%M%S-%f')}.log"
    try:
        write_atomic(path, text)
        for old in sorted(folder().glob("crash-*.log"))[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        return None
    return path
