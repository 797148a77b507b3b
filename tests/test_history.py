"""The history (SQLite), its statistics, the dice audit and their commands."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from collections import Counter

import pytest

from garito.core import catalog, gemelos
from garito.core.audit import chi2_sf, fairness, rolled
from garito.core.match import Match, Seat
from garito.store import history as hist
from garito.store import stats
from garito.store.history import Entry, History, HistoryError
from garito.tui import cli


def finished(game: str, seed: int, names=("Ana", "Bea", "Cai")) -> Match:
    rules = catalog.rules(game)
    config = rules.default_config()
    m = Match.start(
        game, config, seed, tuple(Seat(names[i], "computer", rules.levels[-1]) for i in range(config.players))
    )
    while not rules.is_over(m.state):
        seat = rules.to_act(m.state)
        m = m.play(rules.choose(rules.view(m.state, seat), rules.legal_actions(m.state), rules.levels[-1]))
    return m


def test_an_empty_file_is_migrated_to_the_latest_schema(tmp_path):
    with History(tmp_path / "h.sqlite3") as h:
        assert h.version == hist.SCHEMA == 2
        assert h.entries() == []


def test_version_1_is_migrated_and_its_matches_filled_in(tmp_path):
    path = tmp_path / "h.sqlite3"
    m = finished("gemelos", 3)
    db = sqlite3.connect(path)
    hist._v1(db)
    db.execute("PRAGMA user_version = 1")
    db.execute(
        "INSERT INTO matches (game, finished, record) VALUES (?, ?, ?)",
        ("gemelos", "2026-01-02T03:04:05+00:00", m.to_json()),
    )
    damaged = dict(m.to_record(), actions=["roll", "stake 99"])
    db.execute(
        "INSERT INTO matches (game, finished, record) VALUES (?, ?, ?)",
        ("gemelos", "2026-01-03T00:00:00+00:00", json.dumps(damaged)),
    )
    db.commit()
    db.close()
    with History(path) as h:
        assert h.version == 2
        (entry,) = h.entries()  # the one that no longer replays is kept, not counted
        assert entry.players == ("Ana", "Bea") and entry.finished.startswith("2026-01-02")
        res = catalog.rules("gemelos").result(m.state)
        assert entry.outcome[res.winner] == "win" and entry.outcome[1 - res.winner] == "loss"
        assert entry.records[0]["rounds_won"] == m.state.wins[0]
        assert len(list(h.records())) == 2


def _writer(args) -> None:
    path, seed = args
    m = finished("gemelos", seed)
    with History(path) as h:
        for _ in range(15):
            h.add(m)


def test_two_processes_write_at_once(tmp_path):
    path = tmp_path / "h.sqlite3"
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        pool.map(_writer, [(path, 1), (path, 2)])
    with History(path) as h:
        entries = h.entries()
    assert len(entries) == 30 and len({e.id for e in entries}) == 30


def test_a_damaged_file_is_set_aside_and_a_new_history_starts(tmp_path):
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"this is not a database, just words" * 100)
    with pytest.raises(HistoryError, match="damaged.*moved to h.sqlite3.corrupt"):
        History(path)
    assert (tmp_path / "h.sqlite3.corrupt").read_bytes().startswith(b"this is not")
    with History(path) as h:
        h.add(finished("irwin", 1))
        assert len(h.entries()) == 1


def test_a_busy_history_says_so_and_loses_nothing(tmp_path, monkeypatch):
    path = tmp_path / "h.sqlite3"
    with History(path) as h:
        h.add(finished("gemelos", 1))
    monkeypatch.setattr(hist, "WAIT", 0.1)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    with pytest.raises(HistoryError, match="busy"):
        hist.keep(finished("gemelos", 2), path)
    other.execute("ROLLBACK")
    other.close()
    with History(path) as h:
        assert len(h.entries()) == 1


def test_a_history_from_a_newer_garito_is_refused(tmp_path):
    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 7")
    db.close()
    with pytest.raises(HistoryError, match="newer Garito"):
        History(path)
    assert path.exists()  # not set aside: it is not damaged


def E(i, game, players, outcome, records=None) -> Entry:
    return Entry(
        i, game, f"2026-01-{i:02d}", tuple(players), tuple(outcome), tuple(records or [{}] * len(players))
    )


def test_statistics_per_player_and_game():
    entries = [
        E(1, "irwin", ["Ana", "Bea"], ["win", "loss"], [{"vp": 20}, {"vp": 12}]),
        E(2, "irwin", ["Bea", "Ana"], ["loss", "win"], [{"vp": 9}, {"vp": 25}]),
        E(3, "irwin", ["Ana", "Bea"], ["loss", "win"], [{"vp": 18}, {"vp": 21}]),
        E(4, "redman", ["Ana", "Bea"], ["win", "loss"], [{"red_man": 1}, {"red_man": 0}]),
        E(5, "redman", ["Ana", "Bea"], ["win", "loss"], [{"red_man": 1}, {"red_man": 0}]),
        E(6, "decimus", ["Ana", "Bea"], ["draw", "draw"], [{"per_round": 3.0}, {"per_round": 3.0}]),
        E(7, "decimus", ["Ana", "Bea"], ["win", "loss"], [{"per_round": 5.0}, {"per_round": 2.0}]),
    ]
    by = {(x.player, x.game): x for x in stats.lines(entries)}
    ana = by["Ana", "irwin"]
    assert (ana.played, ana.won, ana.lost, ana.drawn) == (3, 2, 1, 0)
    assert ana.streak == "L1" and ana.best_streak == 2 and ana.records == {"vp": 25}
    assert ana.rate_over_time == [1.0, 1.0, 2 / 3]
    assert by["Ana", "redman"].records == {"red_man": 2} and by["Ana", "redman"].streak == "W2"
    assert by["Ana", "decimus"].records == {"per_round": 4.0} and by["Ana", "decimus"].drawn == 1
    assert stats.record_text(ana) == "Best victory-point total 25"
    assert [x.game for x in stats.lines(entries, "Bea")] == ["irwin", "redman", "decimus"]


def test_barras_is_won_or_lost_against_the_house():
    m = finished("barras", 4)
    entry = hist._derived(m)
    outcome = json.loads(entry[1])
    bank = m.config.bankroll
    assert outcome == ["win" if c > bank else "loss" if c < bank else "draw" for c in m.state.chips]


def test_the_audit_counts_every_die_of_every_record():
    a, b = finished("gemelos", 1), finished("redman", 2)
    faces, bad = rolled([a.to_json(), b.to_record(), "{not json"])
    assert bad == 1
    # Gemelos rolls two d8 per throw, each in the story with its dice
    shown = Counter(d for e in a.state.events if isinstance(e, gemelos.Rolled) for d in e.dice)
    assert faces[8] == shown
    assert set(faces) == {6, 8} and sum(faces[6].values()) >= 3 * len(b.state.ledger)


def test_the_chi_square_test():
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(20, 7) == pytest.approx(0.00557, abs=1e-5)
    fair = fairness(6, Counter({1: 100, 2: 98, 3: 103, 4: 99, 5: 101, 6: 99}))
    assert fair.dof == 5 and fair.p > 0.99 and fair.rolls == 600
    loaded = fairness(6, Counter({1: 80, 2: 80, 3: 80, 4: 80, 5: 80, 6: 200}))
    assert loaded.chi2 == pytest.approx(120.0) and loaded.p < 1e-9


def test_the_commands(capsys):
    assert cli.main(["stats"]) == 0
    assert "No finished matches yet." in capsys.readouterr().out
    hist.keep(finished("irwin", 5))
    hist.keep(finished("gemelos", 6))
    assert cli.main(["stats", "--player", "Ana"]) == 0
    out = capsys.readouterr().out
    assert "Irwin's Revenge" in out and "Best victory-point total" in out and "Gemelos" in out
    assert cli.main(["history"]) == 0
    out = capsys.readouterr().out
    assert "1 " in out and "Ana, Bea" in out
    assert cli.main(["export", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "irwin"
    assert cli.main(["export", "2", "--text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Gemelos: Ana (computer, hard), Bea (computer, hard)") and "1. roll" in out
    assert cli.main(["export", "9"]) == 2  # a match number it does not hold is a bad argument
    assert capsys.readouterr().err == "garito: error: no match 9 in the history\n"
    assert cli.main(["export", "99999999999999999999999"]) == 2  # past SQLite's integers too
    assert capsys.readouterr().err.count("\n") == 1
    assert cli.main(["audit"]) == 0
    out = capsys.readouterr().out
    assert "d10:" in out and "d8:" in out and "chi-square" in out


@pytest.mark.parametrize(
    "argv", [["export"], ["export", "0"], ["export", "x"], ["stats", "--game", "chess"], ["history", "extra"]]
)
def test_bad_history_arguments_exit_2(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("garito: error:") and err.count("\n") == 1
