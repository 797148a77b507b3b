"""Type-mutated JSON documents, derived from real valid ones, for the file
fuzz tests (``test_fuzz_files.py``).

A mutation picks a place in the document and changes what is there: another
type (numbers huge and not, NaN and infinities, strings that are markup,
escape sequences, lone surrogates, lists, objects), the key dropped, the
value nested in a list or an object, swapped with a value from elsewhere in
the same document (the most plausible confusion), emptied, or written as a
string. ``mutate`` takes its choices from a ``pick(options)`` function, so
the same mutations run under hypothesis (``data.draw(st.sampled_from(...))``,
which shrinks a failure to the simplest mutation) and from a seeded
``random.Random`` (``rng.choice``) where a test wants a few fixed documents.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

NAN, INF = float("nan"), float("inf")

WEIRD: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    7,
    2**31,
    2**63,
    -(2**63),
    10**30,
    -(10**30),
    10**400,
    1.5,
    -0.0,
    NAN,
    INF,
    -INF,
    "",
    " ",
    "7",
    "-1",
    "1e400",
    "roll",
    "human",
    "computer",
    "hard",
    "gemelos",
    "[/]",
    "[bold]x",
    "[link=https://example.com]y[/link]",
    "\x1b[31mred\x1b[0m",
    "a\x00b\nc",
    "\ud800",
    "é" * 300,
    "x" * 5000,
    "../..",
    [],
    [None],
    [1, 2, 3],
    [[[]]],
    [{}],
    {},
    {"a": 1},
    {"schema": 1},
    {"": None},
)
OPS = ("replace", "replace", "replace", "drop", "list", "object", "swap", "empty", "string")

Pick = Callable[[Sequence[Any]], Any]


def places(doc: Any, at: tuple = ()) -> list[tuple]:
    """Every place in ``doc`` (paths of keys and indexes), the root first."""
    out = [at]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += places(v, at + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += places(v, at + (i,))
    return out


def _get(doc: Any, at: tuple) -> Any:
    for k in at:
        doc = doc[k]
    return doc


def mutate(doc: Any, pick: Pick, most: int = 3) -> Any:
    """``doc`` with one to ``most`` mutations (a deep copy; ``doc`` is kept)."""
    doc = copy.deepcopy(doc)
    for _ in range(pick(range(1, most + 1))):
        at = pick(places(doc))
        op = pick(OPS)
        if not at:  # the whole document
            doc = copy.deepcopy(pick(WEIRD)) if op == "replace" else [doc] if op == "list" else {"x": doc}
            continue
        parent, key = _get(doc, at[:-1]), at[-1]
        value = parent[key]
        if op == "drop" and isinstance(parent, dict):
            del parent[key]
        elif op == "list":
            parent[key] = [value]
        elif op == "object":
            parent[key] = {"x": value}
        elif op == "swap":
            parent[key] = copy.deepcopy(_get(doc, pick(places(doc))))
        elif op == "empty":
            parent[key] = type(value)() if isinstance(value, (list, dict, str)) else None
        elif op == "string":
            parent[key] = json.dumps(value)
        else:
            parent[key] = copy.deepcopy(pick(WEIRD))  # never the constant itself: later steps change it
    return doc


def dumps(doc: Any) -> str:
    """As a file would hold it: NaN and Infinity as JavaScript writes them,
    a lone surrogate escaped (the way it reaches Python's ``json``)."""
    return json.dumps(doc, allow_nan=True)


def deep(levels: int = 100_000) -> str:
    """A JSON text nested deeper than any parser recurses."""
    return "[" * levels + "]" * levels
