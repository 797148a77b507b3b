"""A function's source as its file has it, for the checks that Textual's
code is the code Garito's changes were written against (``lean``,
``compositor``, ``repaint``, ``tui.driver``).

``inspect.getsource`` finds where a function ends with Python's own
tokenizer, written in Python: 7 ms of every start for the seven functions
checked, 3% of the app's start-up. The function's code says its first line
and the last line anything of it runs at (its nested functions' included);
its block goes on over the lines indented deeper (what closes that line),
and is read as the file has it."""

from __future__ import annotations

import linecache
import textwrap
import zlib
from types import CodeType


def source_mark(source: str) -> str:
    """What a check keeps of a source: its length and CRC-32, enough to
    tell another version's code from the one expected (not a guard against
    anyone: a collision changes nothing but which code draws). zlib is
    loaded with Textual already; hashlib's OpenSSL took 1.2 ms of every
    start."""
    data = source.encode()
    return f"{len(data)}:{zlib.crc32(data):08x}"


def fingerprint(function) -> str:
    """The mark of a function's dedented source ("" if it has none)."""
    try:
        source = textwrap.dedent(source_of(function))
    except (OSError, TypeError, AttributeError):
        return ""
    return source_mark(source)


def unlike(found: dict[str, str], expected: dict[str, str]) -> str:
    """The names whose fingerprints are not the ones expected, for a
    warning ("" where all are)."""
    return ", ".join(name for name in expected if found.get(name) != expected[name])


def source_of(function) -> str:
    """The lines of ``function`` from its ``def`` (or first decorator) to
    the end of its block. OSError if its file cannot be read."""
    while hasattr(function, "__wrapped__"):  # functools.wraps: the function wrapped
        function = function.__wrapped__
    code: CodeType = function.__code__
    lines = linecache.getlines(code.co_filename)
    if not lines:
        raise OSError(f"no source for {function!r}")
    first = code.co_firstlineno - 1
    end = _last_line(code)
    # and on over what closes its last line (a bracket on a line of its
    # own): the lines indented deeper than the def
    margin = _indent(lines[first])
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > margin):
        end += 1
    while end > first + 1 and not lines[end - 1].strip():
        end -= 1
    return "".join(lines[first:end])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _last_line(code: CodeType) -> int:
    last = max((line for *_, line in code.co_lines() if line is not None), default=code.co_firstlineno)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            last = max(last, _last_line(const))
    return last
