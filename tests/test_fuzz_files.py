"""Hostile files: thousands of type-mutated JSON documents, derived from real
valid ones (``mutations.py``), as saves, settings, best scores, history rows
and records given to ``garito replay``/``export``.

Whatever a file holds: nothing raises; a file that does not parse into the
right types is set aside (its content kept as it was) or reported in one
line; what is good beside it still loads; and the next start is quiet (no
crash, nor a message, at every start). ``make test`` runs a few hundred
examples of each (seconds); ``make test-long`` (``-m slow``) ten times more.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import random
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from garito.core import catalog
from garito.core.match import Match, RecordError, Seat
from garito.core.names import printable
from garito.store import bests, saves, stats
from garito.store import settings as prefs
from garito.store.history import History, _derived
from garito.tui import cli
from garito.tui.app import GarApp
from garito.tui.games import default_names
from garito.tui.screens.game import GameScreen
from garito.tui.screens.menu import MenuScreen
from garito.tui.screens.profile import ProfileScreen

from .helpers import settle, sync
from .mutations import deep, dumps, mutate
from .test_hardening import played

GAMES = [g.id for g in catalog.GAMES]
# Examples per test: a few hundred cheap ones (a settings file reads in a
# millisecond), fewer of the dearer (a folder of six saves replays them all).
CHEAP = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEAR = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def saved() -> dict[str, dict]:
    """A real save of each game, some moves in (a game in progress)."""
    out = {}
    for game in GAMES:
        m = next(m for m in (played(game, n) for n in (10, 6, 3, 0)) if not m.rules.is_over(m.state))
        out[game] = m.to_record()
    return out


@functools.cache
def finished() -> dict[str, Match]:
    """A finished match of each game, computers playing."""
    out = {}
    for game in GAMES:
        rules = catalog.rules(game)
        config = rules.default_config()
        m = Match.start(
            game, config, 3, tuple(Seat(f"P{i}", "computer", rules.levels[-1]) for i in range(config.players))
        )
        while not rules.is_over(m.state):
            seat = rules.to_act(m.state)
            m = m.play(
                rules.choose(rules.view(m.state, seat), rules.legal_actions(m.state), rules.levels[-1])
            )
        out[game] = m
    return out


SETTINGS = {
    "player": "Ana",
    "theme": "nord",
    "seats": {
        "gemelos": [
            {"name": "Ana", "kind": "human", "level": "hard"},
            {"name": "Ramón", "kind": "computer", "level": "easy"},
        ],
        "willie": [
            {"name": "Ana", "kind": "human"},
            {"name": "Lucía", "kind": "computer", "level": "normal"},
        ],
    },
    "later": {"a key": "a newer Garito's"},
}
BESTS = {"irwin": {"Ana": 20, "Bea": 12}, "decimus": {"Ana": 3}}


@contextlib.contextmanager
def home():
    """A Garito home of its own for one example (hypothesis runs many in
    one test)."""
    before = os.environ.get("GARITO_HOME")
    with tempfile.TemporaryDirectory(prefix="garito-fuzz-") as folder:
        os.environ["GARITO_HOME"] = folder
        try:
            yield Path(folder)
        finally:
            if before is None:
                del os.environ["GARITO_HOME"]
            else:
                os.environ["GARITO_HOME"] = before


def picker(data):
    return lambda options: data.draw(st.sampled_from(list(options)))


def one_line(message: str) -> bool:
    return bool(message) and "\n" not in message and len(message) < 400 and "Traceback" not in message


def exercise(match: Match) -> None:
    """What the app does with a match it read: the menu's summary, each
    seat's view, the moves, the story, the computer's choice, saving."""
    rules, state, names = match.rules, match.state, match.names
    assert all(n == printable(n) for n in names)
    rules.summary(state, names)
    for seat in range(len(match.seats)):
        rules.view(state, seat)
    legal = rules.legal_actions(state)
    for event in state.events:
        rules.narrate(event, names)
    seat = rules.to_act(state)
    if seat is not None and legal and not match.seats[seat].is_human:
        rules.choose(rules.view(state, seat), legal, match.seats[seat].level)
    text = match.to_json()
    text.encode("utf-8")
    assert Match.from_json(text).state == state


# ---------------------------------------------------------------- saves


def saves_case(data) -> None:
    pick = picker(data)
    bad = data.draw(st.sets(st.sampled_from(GAMES), min_size=1))
    with home():
        texts = {}
        for game in GAMES:
            doc = mutate(saved()[game], pick) if game in bad else saved()[game]
            texts[game] = dumps(doc)
            path = saves.save_path(game)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(texts[game], encoding="utf-8")
        found, damaged = saves.load_all()
        by_game = {s.game: s for s in found}
        for game in set(GAMES) - bad:  # nothing good is lost
            assert by_game[game].match.to_record() == saved()[game]
        for s in found:
            exercise(s.match)
        for d in damaged:
            assert one_line(d.reason), d.reason
            assert d.moved_to.read_text(encoding="utf-8") == texts[d.path.stem]  # kept as it was
        set_aside = {d.path.stem for d in damaged}
        for game in bad:  # offered, set aside, or a finished match (nothing to continue)
            assert game in by_game or game in set_aside or Match.from_json(texts[game]).state.over
        assert saves.load_all()[1] == []  # the next start is quiet


@DEAR
@given(st.data())
def test_fuzzed_saves_load_or_are_set_aside(data):
    saves_case(data)


@pytest.mark.slow
@LONG
@given(st.data())
def test_fuzzed_saves_long(data):
    saves_case(data)


# ---------------------------------------------------------------- settings and best scores


def settings_case(data) -> None:
    with home() as folder:
        text = dumps(mutate(SETTINGS, picker(data)))
        (folder / "settings.json").write_text(text, encoding="utf-8")
        got = prefs.load()
        problem = prefs.take_problem()
        assert isinstance(got, dict)
        assert isinstance(got.get("theme", ""), str) and isinstance(got.get("seats", {}), dict)
        name = prefs.player()
        assert isinstance(name, str) and name == printable(name) and 0 < len(name) <= 12
        prefs.player_known()
        default_names(["human", "computer", "human"])
        if problem:
            assert one_line(problem)
            assert (folder / "settings.json.corrupt").read_text(encoding="utf-8") == text
        else:
            assert (folder / "settings.json").read_text(encoding="utf-8") == text  # untouched
        prefs.load()
        assert prefs.take_problem() == ""  # said once: the next start is quiet
        prefs.update(theme="nord")
        assert prefs.load()["theme"] == "nord"


@CHEAP
@given(st.data())
def test_fuzzed_settings_are_read_or_set_aside(data):
    settings_case(data)


@pytest.mark.slow
@LONG
@given(st.data())
def test_fuzzed_settings_long(data):
    settings_case(data)


def bests_case(data) -> None:
    with home() as folder:
        text = dumps(mutate(BESTS, picker(data)))
        (folder / "bests.json").write_text(text, encoding="utf-8")
        got = bests.load()
        problem = bests.take_problem()
        for names in got.values():
            assert all(type(v) is int for v in names.values())
        if problem:
            assert one_line(problem)
            assert (folder / "bests.json.corrupt").read_text(encoding="utf-8") == text
        bests.load()
        assert bests.take_problem() == ""
        assert bests.record("irwin", {"Ana": 5})["Ana"][0] >= 5


@CHEAP
@given(st.data())
def test_fuzzed_best_scores_are_read_or_set_aside(data):
    bests_case(data)


@pytest.mark.slow
@LONG
@given(st.data())
def test_fuzzed_best_scores_long(data):
    bests_case(data)


# ---------------------------------------------------------------- history rows and the commands

# what SQLite lets into the NOT NULL columns game and finished
SQL_VALUES = (0, -1, 1.5, "", "chess", "gemelos", b"\x00\xff", "2026-13-45T99", "[/]")
COLUMNS = ("game", "finished", "record", "players", "outcome", "records")


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def insert(rows: list[dict]) -> None:
    """Rows written into the history as another program might."""
    db = sqlite3.connect(History().path)
    with db:
        for row in rows:
            sql = f"INSERT INTO matches ({', '.join(row)}) VALUES (?, ?, ?, ?, ?, ?)"
            db.execute(sql, tuple(row.values()))
    db.close()


def history_case(data) -> None:
    pick = picker(data)
    with home():
        with History() as h:
            good = {h.add(m): m for m in finished().values()}
        rows = []
        for _ in range(data.draw(st.integers(1, 4))):
            m = pick(list(finished().values()))
            row = dict(
                zip(COLUMNS, (m.game, "2026-02-01T10:00:00+00:00", m.to_json(), *_derived(m)), strict=True)
            )
            column = pick(COLUMNS)
            if column in ("game", "finished"):
                row[column] = pick(SQL_VALUES)
            else:
                row[column] = dumps(mutate(json.loads(row[column]), pick))
            rows.append(row)
        insert(rows)
        bad_ids = [i for i in range(1, len(good) + len(rows) + 1) if i not in good]
        with History() as h:
            entries = h.entries()
            assert {e.id for e in entries} >= set(good)  # nothing good is lost
            assert len(entries) + h.left_out == len(good) + len(rows)
        for line in stats.lines(entries):
            stats.record_text(line)
        for argv in (["stats"], ["history"], ["audit"]):
            code, out, err = run(argv)
            assert code == 0 and (not err or one_line(err.strip())), (argv, err)
        for match_id in bad_ids[:2] + list(good)[:1]:
            for argv in (["export", str(match_id)], ["export", str(match_id), "--text"]):
                code, out, err = run(argv)
                assert code in (0, 1) and (not err or one_line(err.strip())), (argv, err)
                if code == 0 and argv[-1] != "--text":
                    json.loads(out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzzed_history_rows_are_left_out_in_one_line(data):
    history_case(data)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzzed_history_rows_long(data):
    history_case(data)


# ---------------------------------------------------------------- records given to `garito replay`


def replay_case(data) -> None:
    pick = picker(data)
    game = pick(GAMES)
    text = dumps(mutate(finished()[game].to_record(), pick))
    with home() as folder:
        path = folder / "record.json"
        path.write_text(text, encoding="utf-8")
        try:
            match = cli.read_record(str(path))
        except cli.UsageError as e:
            assert one_line(str(e))
            with pytest.raises(RecordError):
                Match.from_json(text)
        else:
            exercise(match)
            from garito.tui.history_cli import transcript

            transcript(match.to_record())


@CHEAP
@given(st.data())
def test_fuzzed_records_given_to_replay_are_read_or_refused_in_one_line(data):
    replay_case(data)


@pytest.mark.slow
@LONG
@given(st.data())
def test_fuzzed_records_given_to_replay_long(data):
    replay_case(data)


# ---------------------------------------------------------------- nested too deep


def test_files_nested_too_deep_are_set_aside_not_a_crash(garito_home, tmp_path):
    text = deep()
    path = saves.save_path("gemelos")
    path.parent.mkdir(parents=True)
    path.write_text(text)
    found, damaged = saves.load_all()
    assert found == [] and one_line(damaged[0].reason)
    (garito_home / "settings.json").write_text(text)
    (garito_home / "bests.json").write_text(text)
    assert prefs.load() == {} and one_line(prefs.take_problem())
    assert bests.load() == {} and one_line(bests.take_problem())
    record = tmp_path / "deep.json"
    record.write_text(text)
    with pytest.raises(cli.UsageError):
        cli.read_record(str(record))


# ---------------------------------------------------------------- the app starts


@pytest.mark.parametrize("seed", range(3))
@sync
async def test_the_app_starts_over_fuzzed_files_and_says_each_once(seed, garito_home):
    rng = random.Random(seed)
    pick = rng.choice
    for game in GAMES:
        doc = mutate(saved()[game], pick) if game != "gemelos" else saved()[game]  # one good save
        path = saves.save_path(game)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(doc))
    (garito_home / "settings.json").write_text(dumps(mutate(SETTINGS, pick)))
    (garito_home / "bests.json").write_text(dumps(mutate(BESTS, pick)))
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        if isinstance(app.screen, ProfileScreen):  # the name was not readable: asked again
            await pilot.press("escape")
            await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert "gemelos" in app.screen.saves  # the good save is offered
        said = [n.message for n in app._notifications]
        assert all(one_line(m) for m in said)
        menu = app.screen
        for game, save in list(menu.saves.items()):  # every save offered opens (computers play on)
            menu.open(f"continue:{game}")
            await settle(pilot)
            table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
            assert table.match.actions[: len(save.match.actions)] == save.match.actions
            while app.screen is not menu:
                app.pop_screen()
            await settle(pilot)
    app = GarApp()  # the next start: nothing more to say
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen) and not list(app._notifications)


@pytest.mark.parametrize(
    "column, value",
    [
        ("records", '[{"rounds_won": 1' + "0" * 400 + "}, {}]"),  # past a float's range
        ("records", '[{"rounds_won": NaN}, {}]'),
        ("players", '["Ana", 7]'),
        ("outcome", '["win", "won"]'),
        ("finished", "[/]"),
        ("game", "chess"),
    ],
)
def test_history_rows_found_by_the_long_fuzz_are_left_out(column, value):
    m = finished()["gemelos"]
    with History() as h:
        good = h.add(m)
    row = dict(zip(COLUMNS, (m.game, "2026-02-01T10:00:00+00:00", m.to_json(), *_derived(m)), strict=True))
    row[column] = value
    insert([row])
    with History() as h:
        assert [e.id for e in h.entries()] == [good] and h.left_out == 1
    code, out, err = run(["stats"])
    assert code == 0 and one_line(err.strip())
