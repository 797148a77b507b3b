"""The language a player reads, per session, with the standard library only.

One process may serve many players (``garito serve``), each in a language
of their own, so the language is a context variable, not a global: a
session sets it once (``use``) and everything that runs in that context,
the core's narration included, speaks it. The words come from gettext
catalogs (``locale/<lang>/LC_MESSAGES/garito.mo``, compiled from the
``.po`` beside it when the package is built); English is the source text
itself and needs no catalog.

Texts are marked for extraction as ``_("...")`` and ``ngettext(...)``; a
text that must be kept untranslated where it is defined (a constant, read
later in the player's language) is marked ``N_("...")`` and translated as it
is shown with ``_(value)``.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path

DOMAIN = "garito"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
ENGLISH = "en"
# The languages a player may choose, each named in its own words.
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "gl": "Galego"}

_NONE = gettext.NullTranslations()
# The session's language where one is set (``use``), else the process's
# (``set_default``): a thread from an executor starts with an empty
# context, and a process that is one player's (the app, the CLI) speaks
# that player's language in every thread.
_language: ContextVar[_Voice | None] = ContextVar("garito_language", default=None)
_default = ENGLISH


class _Voice:
    """A session's language, one object shared by every task and thread of
    the session (each holds a copy of its context taken when it started):
    a language chosen later in any of them is then spoken in all."""

    __slots__ = ("language",)

    def __init__(self, language: str) -> None:
        self.language = language


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalog of ``language`` (loaded once per process); English, or a
    language whose catalog is missing, reads the source texts."""
    if language == ENGLISH:
        return _NONE
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as f:
            return gettext.GNUTranslations(f)
    except OSError:
        return _NONE


def _checked(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    return language


def use(language: str) -> Token[_Voice | None]:
    """Speak ``language`` (one of LANGUAGES) in this context from now on
    (one session of a process that serves many)."""
    return _language.set(_Voice(_checked(language)))


def choose(language: str) -> None:
    """The player chose ``language``: their session speaks it from now on,
    in every task of it; a process that is one player's, everywhere."""
    voice = _language.get()
    if voice is None:
        set_default(language)
    else:
        voice.language = _checked(language)


def set_default(language: str) -> None:
    """Speak ``language`` wherever no session chose one (a process that is
    one player's)."""
    global _default
    _default = _checked(language)


def language() -> str:
    """The language spoken here."""
    voice = _language.get()
    return _default if voice is None else voice.language


def _(message: str) -> str:
    """``message`` in the language spoken here."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the language spoken here (its plural rule)."""
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as meant in ``context`` (one English word, two senses)."""
    return translations(language()).pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog; translated where it is shown."""
    return message


def from_locale(value: str | None) -> str | None:
    """The language a POSIX locale names (``gl_ES.UTF-8`` is ``gl``), or
    None when it names none of Garito's (``C``, ``POSIX``, ``fr_FR``)."""
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].strip().lower()
    if code in ("c", "posix"):
        return ENGLISH
    return code if code in LANGUAGES else None


def from_environ(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for, as POSIX reads it: the first
    of LC_ALL, LC_MESSAGES and LANG that is set decides; None when it names
    no language Garito speaks."""
    import os

    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if value:
            return from_locale(value)
    return None
