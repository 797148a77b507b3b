"""Where Garito keeps its files.

``platformdirs.user_config_path("garito")`` by default; ``GARITO_HOME``
moves everything elsewhere (tests, portable installs, several profiles).
Under ``garito serve`` it is each player's own home: read from the
player's scope (``environ``), not the process's environment.
"""

from __future__ import annotations

from pathlib import Path

from . import environ


def config_dir() -> Path:
    home = environ.get("GARITO_HOME")
    if home:
        return Path(home)
    import platformdirs

    return platformdirs.user_config_path("garito")


def saves_dir() -> Path:
    return config_dir() / "saves"


def data_dir() -> Path:
    """Where the history lives: ``GARITO_HOME`` too when it is set."""
    home = environ.get("GARITO_HOME")
    if home:
        return Path(home)
    import platformdirs

    return platformdirs.user_data_path("garito")
