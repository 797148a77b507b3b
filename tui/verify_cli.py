"""``garito verify FILE``: whether a shared table's record kept its promise.

One line and an exit status: 0 when the seed is the one the table committed
to before its first die and the record replays from it; 1 when it is not (or
the record has no commitment: not a shared table's); 2 when FILE is not a
record at all.
"""

from __future__ import annotations

import json
import sys

from garito.core.i18n import _


def verify(path: str) -> int:
    from garito.core.fairness import verify as check
    from garito.core.match import RecordError

    from .record_file import TooBig, read_bounded
    from .usage import UsageError

    try:
        raw = read_bounded(path)
    except TooBig as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(_("cannot read {path}: {why}").format(path=path, why=e.strerror or e)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(_("{path} is not a text file").format(path=path)) from None
    except (ValueError, RecursionError):
        raise UsageError(_("{path} is not JSON").format(path=path)) from None
    try:
        verdict = check(data)
    except RecordError as e:
        raise UsageError(f"{path}: {e}") from None
    except RecursionError:
        raise UsageError(_("{path}: the record is damaged").format(path=path)) from None
    said = _("{path}: verified: {why}") if verdict.verified else _("{path}: NOT verified: {why}")
    print(said.format(path=path, why=verdict.why))
    return 0 if verdict.verified else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(verify(sys.argv[1]))
