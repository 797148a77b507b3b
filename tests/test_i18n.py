"""Garito in Spanish and Galician: every text the code marks has both
translations, with its placeholders and plural forms right; the language
comes from --lang, the settings or the locale, per session; the rules pages
and the CLI speak it."""

from __future__ import annotations

import asyncio
import contextvars
import gettext
import json
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from garito.core import i18n
from garito.tui import cli

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("core", "tui", "widgets", "store", "server", "garito")
LANGS = ("es", "gl")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def catalog(lang: str):
    with (ROOT / "core" / "locale" / lang / "LC_MESSAGES" / "garito.po").open("rb") as f:
        return read_po(f, locale=lang)


def extracted() -> set[str]:
    """Every text the code marks, as the catalogs key it."""
    found = set()
    for source in SOURCES:
        for _file, _line, message, _comments, context in extract_from_dir(
            ROOT / source, keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True
        ):
            key = message[0] if isinstance(message, tuple) else message
            found.add(key if context is None else f"{context}\x04{key}")
    return found


def _key(message) -> str:
    key = message.id[0] if isinstance(message.id, tuple) else message.id
    return key if message.context is None else f"{message.context}\x04{key}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_the_code_marks_is_translated(lang):
    marked = extracted()
    assert len(marked) > 100
    po = catalog(lang)
    translated = {
        _key(m) for m in po if m.id and all(m.string if isinstance(m.string, tuple) else [m.string])
    }
    fuzzy = {_key(m) for m in po if m.id and m.fuzzy}
    missing = sorted(marked - translated)
    assert not missing, (
        f"{len(missing)} untranslated in {lang} (make messages, then translate): {missing[:5]}"
    )
    assert not fuzzy, f"fuzzy in {lang}: {sorted(fuzzy)[:5]}"


def _fields(text: str) -> list[str]:
    """What a translation must carry over: {placeholders}, $variables,
    [b]markup[/b] and %-escapes."""
    names = sorted(
        f"{{{f}{'!' + c if c else ''}}}" for _, f, _, c in string.Formatter().parse(text) if f is not None
    )
    return names + sorted(re.findall(r"\$\w+|\[/?\w*\]|%%", text))


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_placeholders_markup_and_plural_forms(lang):
    po = catalog(lang)
    assert po.num_plurals == 2 and po.plural_expr == "(n != 1)"  # gettext's rule for es and gl
    for m in po:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            assert len(m.string) == 2 and all(m.string), m.id
            for form in m.string:
                assert _fields(form) == _fields(m.id[1]), (m.id, form)
        else:
            assert _fields(m.string) == _fields(m.id), (m.id, m.string)


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalog_says_what_its_source_says(lang, tmp_path):
    from garito.core.locale.compile import mo_bytes

    po_path = ROOT / "core" / "locale" / lang / "LC_MESSAGES" / "garito.po"
    mo = tmp_path / "garito.mo"
    mo.write_bytes(mo_bytes(po_path.read_text(encoding="utf-8")))
    with mo.open("rb") as f:
        read = gettext.GNUTranslations(f)
    for m in catalog(lang):
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            assert [read.ngettext(*m.id, n) for n in (1, 2, 5)] == [m.string[0], m.string[1], m.string[1]]
        elif m.context:
            assert read.pgettext(m.context, m.id) == m.string
        else:
            assert read.gettext(m.id) == m.string
    # and the one the package reads (built from it) is the same
    installed = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "garito.mo"
    assert installed.read_bytes() == mo.read_bytes()


def test_msgfmt_finds_nothing_wrong_where_it_is_installed():
    msgfmt = "/usr/bin/msgfmt"
    if not os.path.exists(msgfmt):
        pytest.skip("GNU gettext is not installed here")
    for lang in LANGS:
        po = ROOT / "core" / "locale" / lang / "LC_MESSAGES" / "garito.po"
        out = subprocess.run([msgfmt, "--check", "-o", os.devnull, str(po)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr


@pytest.mark.parametrize(
    "environ, lang",
    [
        ({"LANG": "gl_ES.UTF-8"}, "gl"),
        ({"LANG": "es_AR.UTF-8"}, "es"),
        ({"LANG": "es"}, "es"),
        ({"LANG": "gl_ES.UTF-8", "LC_ALL": "es_ES.UTF-8"}, "es"),
        ({"LANG": "es_ES.UTF-8", "LC_MESSAGES": "gl_ES@euro"}, "gl"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, None),
        ({}, None),
    ],
)
def test_the_language_is_the_locales_as_posix_reads_it(environ, lang):
    assert i18n.from_environ(environ) == lang


def test_each_session_speaks_its_own_language():
    def speak(lang):
        i18n.use(lang)
        return i18n._("Quit"), i18n.ngettext("{count} player", "{count} players", 3).format(count=3)

    spoken = [contextvars.copy_context().run(speak, lang) for lang in ("es", "gl", "en")]
    assert spoken == [("Salir", "3 jugadores"), ("Saír", "3 xogadores"), ("Quit", "3 players")]
    assert i18n.language() == "en"  # the process's own, untouched by the sessions
    with pytest.raises(ValueError):
        i18n.use("fr")


def test_a_language_chosen_in_one_task_of_a_session_is_spoken_by_all_its_tasks():
    async def session(start, then):
        i18n.use(start)
        # A task started before the choice (as a screen's message pump is)
        # speaks the language chosen after it in another task.
        seen = asyncio.Event()
        chosen = asyncio.Event()

        async def pump():
            seen.set()
            await chosen.wait()
            return i18n._("Quit")

        listening = asyncio.create_task(pump())
        await seen.wait()
        await asyncio.create_task(asyncio.to_thread(lambda: None))
        i18n.choose(then)
        chosen.set()
        return await listening

    async def both():
        ana = asyncio.create_task(session("es", "gl"), context=contextvars.copy_context())
        bea = asyncio.create_task(session("en", "es"), context=contextvars.copy_context())
        return await ana, await bea

    assert asyncio.run(both()) == ("Saír", "Salir")
    assert i18n.language() == "en"  # nobody's choice became the process's


def test_a_bad_lang_is_one_line_and_status_2(capsys):
    assert cli.main(["--lang", "klingon", "rules", "gemelos"]) == 2
    err = capsys.readouterr().err
    assert err == "garito: error: no language 'klingon' (choose from en, es, gl)\n"


def test_lang_beats_the_locale_and_the_settings_remembered_choice_beats_the_locale(
    capsys, monkeypatch, garito_home
):
    monkeypatch.setenv("LANG", "gl_ES.UTF-8")
    assert cli.main(["play", "gemelos", "--seats", "human"]) == 2
    assert capsys.readouterr().err == "garito: erro: Gemelos é para 2–6 asentos, non 1\n"
    assert cli.main(["--lang=es", "play", "gemelos", "--seats", "human"]) == 2
    assert capsys.readouterr().err == "garito: error: Gemelos es para 2–6 asientos, no 1\n"
    (garito_home / "settings.json").write_text(json.dumps({"player": "Ana", "language": "en"}))
    assert cli.main(["play", "gemelos", "--seats", "human"]) == 2
    assert capsys.readouterr().err == "garito: error: Gemelos is for 2–6 seats, not 1\n"


def test_plurals_follow_the_count(capsys):
    for argv, said in [
        (["--lang", "es", "play", "gemelos", "--names", "Ana"], "--names necesita 2 nombres no vacíos"),
        (
            ["--lang", "gl", "play", "barras", "--seats", "human", "--names", "A,B"],
            "--names precisa 1 nome non",
        ),
    ]:
        assert cli.main(argv) == 2
        assert said in capsys.readouterr().err


def test_a_wrongly_typed_language_in_the_settings_is_set_aside(garito_home):
    from garito.store import settings

    (garito_home / "settings.json").write_text(json.dumps({"player": "Ana", "language": ["gl"]}))
    assert "language" not in settings.load()
    assert settings.take_problem()
    (garito_home / "settings.json").write_text(json.dumps({"player": "Ana", "language": "fr"}))
    assert "language" not in settings.load()
    assert settings.take_problem()


def _garito(*argv, **env):
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    environ.update(env, COLUMNS="80")
    return subprocess.run(
        [sys.executable, "-m", "garito", *argv], capture_output=True, text=True, timeout=60, env=environ
    )


def test_lang_gl_prints_the_galician_rules_page():
    out = _garito("rules", "decimus", LANG="gl_ES.UTF-8")
    assert out.returncode == 0, out.stderr
    assert "A tirada" in out.stdout and "Os catro lances" in out.stdout and "Par con as" in out.stdout
    assert "The roll" not in out.stdout
    out = _garito("rules", "decimus", LANG="es_ES.UTF-8")
    assert "Los cuatro lances" in out.stdout and "Un en dous" in out.stdout
    out = _garito("rules", "decimus", LANG="C.UTF-8")
    assert "The four games" in out.stdout


def test_help_speaks_the_language():
    out = _garito("--help", LANG="es_ES.UTF-8")
    assert out.returncode == 0
    assert out.stdout.startswith("uso: garito")
    assert "muestra esta ayuda y sale" in out.stdout and "imprime las reglas de un juego" in out.stdout


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_written_in_a_language_has_the_english_pages_fields(lang):
    """A page for ``{{target}}`` in English names it in every language."""
    rules = ROOT / "tui" / "rules"
    for page in rules.glob(f"*.{lang}.md"):
        english = rules / page.name.replace(f".{lang}.md", ".md")
        fields = set(re.findall(r"\{\{\w+\}\}", english.read_text(encoding="utf-8")))
        assert fields == set(re.findall(r"\{\{\w+\}\}", page.read_text(encoding="utf-8"))), page.name


def test_what_was_set_aside_is_told_in_the_language_chosen_after_reading_it(garito_home):
    """The settings hold the language, so they are read before it is known:
    what could not be read is put into words when it is told."""
    from garito.core import i18n
    from garito.store import bests, settings

    (garito_home / "settings.json").write_text(json.dumps({"player": "Ana", "language": "es", "seats": 7}))
    (garito_home / "bests.json").write_text("[1, 2]")
    assert settings.load() == {"player": "Ana", "language": "es"}
    bests.load()

    def told() -> tuple[str, str]:
        i18n.use("es")
        in_spanish = settings.take_problem()
        i18n.use("gl")
        return in_spanish, bests.take_problem()

    assert contextvars.copy_context().run(told) == (
        "Tus ajustes (settings.json): algunos valores no se pudieron leer (seats) y empiezan de nuevo; "
        "el archivo tal como estaba se guarda como settings.json.corrupt.",
        "As mellores puntuacións (bests.json): non se puideron ler (non é un obxecto JSON); "
        "o ficheiro tal como estaba gárdase como bests.json.corrupt; comézase de novo.",
    )
    assert settings.take_problem() == "" and bests.take_problem() == ""


def test_a_player_who_gave_no_name_is_player_1_in_the_language_spoken(garito_home, monkeypatch):
    """Beside a hot seat's "Xogador 2", the first seat is "Xogador 1", not
    the English default."""
    from garito.core import i18n
    from garito.store import settings

    (garito_home / "settings.json").write_text("{}")
    monkeypatch.delenv("GARITO_PLAYER", raising=False)

    def named(language: str) -> tuple[str, str]:
        i18n.use(language)
        return settings.player(), settings.default_player()

    assert contextvars.copy_context().run(named, "gl") == ("Xogador 1", "Xogador 1")
    assert contextvars.copy_context().run(named, "es") == ("Jugador 1", "Jugador 1")
    assert contextvars.copy_context().run(named, "en") == ("Player 1", "Player 1")
