"""Best scores ever, per game and player name (Irwin's Revenge keeps its
victory points like the original's statistics menu). Every value is checked
as it is read (``jsonfile``): what cannot be read is set aside and said once
(``take_problem``), the records that can be read are kept; a file that
cannot be written loses the new record, never the game."""

from __future__ import annotations

import json
from typing import Any

from garito.core.checks import is_whole
from garito.core.i18n import N_
from garito.core.names import clean

from . import environ
from .atomic import write_atomic
from .jsonfile import DROP, read_object
from .paths import config_dir

LARGEST = 10**12  # no score a match makes; past it a number is not a score


def _path():
    return config_dir() / "bests.json"


def _check(game: str, names: Any) -> Any:
    if not isinstance(names, dict):
        return DROP
    return {n: v for n, v in names.items() if is_whole(v) and abs(v) <= LARGEST and clean(n) == n}


def load() -> dict[str, dict[str, int]]:
    data, problem = read_object(_path(), _check, N_("The best scores (bests.json)"))
    run = environ.notes()  # this player's run (a worker under garito serve hosts many)
    run["bests-problem"] = run.get("bests-problem") or problem  # told once, by take_problem
    return data


def take_problem() -> str:
    """What reading the best scores set aside in this run ("" if nothing), once."""
    run = environ.notes()
    problem = str(run.get("bests-problem") or "")  # a Said: in the language in use now
    run["bests-problem"] = ""
    return problem


def record(game: str, scores: dict[str, int]) -> dict[str, tuple[int, bool]]:
    """Enter this game's scores; for each name, its best ever and whether
    this game set it."""
    data = load()
    table = data.setdefault(game, {})
    out = {}
    for name, value in scores.items():
        new = name not in table or value > table[name]
        if new:
            table[name] = value
        out[name] = (table[name], new)
    try:
        write_atomic(_path(), json.dumps(data, indent=1, ensure_ascii=False))
    except OSError:
        pass
    return out
