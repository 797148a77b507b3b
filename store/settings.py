"""Small user preferences (theme, language, the player's name, the seats of the last
game of each kind) kept between runs.

Every value is checked as it is read (``jsonfile``): a file that is not a
JSON object, or holds a value of the wrong type, is set aside and said once
(``take_problem``), and the app starts with what could be read.
"""

from __future__ import annotations

import json
from typing import Any

from garito.core.i18n import LANGUAGES, N_, _
from garito.core.names import clean

from . import environ
from .atomic import write_atomic
from .jsonfile import DROP, read_object
from .paths import config_dir


def _path():
    return config_dir() / "settings.json"


def _seats(value: Any) -> Any:
    """{game: [seat, ...]}: the dialog checks each seat as it uses it."""
    if not isinstance(value, dict):
        return DROP
    return {game: seats for game, seats in value.items() if isinstance(seats, list)}


def _check(key: str, value: Any) -> Any:
    if key == "theme":
        return value if isinstance(value, str) else DROP
    if key == "player":
        return clean(value)[:12] if isinstance(value, str) else DROP
    if key == "language":
        return value if isinstance(value, str) and value in LANGUAGES else DROP
    if key == "seats":
        return _seats(value)
    return value  # not this version's: kept as it is


def load() -> dict:
    data, problem = read_object(_path(), _check, N_("Your settings (settings.json)"))
    run = environ.notes()  # this player's run (a worker under garito serve hosts many)
    run["settings-problem"] = run.get("settings-problem") or problem  # told once, by take_problem
    return data


def take_problem() -> str:
    """What reading the settings set aside in this run ("" if nothing), once."""
    run = environ.notes()
    problem = str(run.get("settings-problem") or "")  # a Said: in the language in use now
    run["settings-problem"] = ""
    return problem


def update(**changes) -> None:
    data = load()
    data.update(changes)
    try:
        write_atomic(_path(), json.dumps(data, indent=1))
    except OSError:
        pass  # a preference that cannot be kept is not worth a crash


def default_player() -> str:
    """The name of a player who gave none: "Player 1" in the language spoken
    (beside a hot seat's "Xogador 2", not "Player 1" in English)."""
    return _("Player {number}").format(number=1)


def player() -> str:
    """The player's name: the one kept here; else the one ``garito serve``
    passes (the SSH user name); else "Player 1" (``default_player``)."""
    name = load().get("player")
    if not (isinstance(name, str) and name.strip()):
        name = clean(environ.get("GARITO_PLAYER", ""))
    return name.strip()[:12] or default_player()


def player_known() -> bool:
    """Whether the name is known (the first start asks it otherwise)."""
    return isinstance(load().get("player"), str) or bool(environ.get("GARITO_PLAYER", "").strip())
