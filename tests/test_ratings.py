"""The shared tables' ratings (store/ratings.py): equal to OpenSkill's own
computation, kept across a restart, a busy store's results kept waiting
and applied once, a damaged store set aside, over the table protocol."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from garito.core import catalog
from garito.core.match import Match, Seat
from garito.core.session import Session
from garito.core.variants import offered_config
from garito.server import tables
from garito.server.tables import TableServer
from garito.store import ratings as rt
from garito.store.ratings import FILE, PENDING, Rating, Ratings, result_of

from .helpers import sync
from .test_tables import Conn, play_my_turns


@pytest.fixture(autouse=True)
def no_pace(monkeypatch):
    monkeypatch.setattr(tables, "PACE", 0.0)


def played(game: str, seats: tuple[Seat, ...], seed: int) -> Match:
    """A match of ``game`` played to its end, every seat's moves chosen by
    the computer at the seat's level (a person's seat: the strongest)."""
    rules = catalog.rules(game)
    session = Session(Match.start(game, offered_config(rules, len(seats), {}), seed, seats), here=())
    while not session.over:
        seat = session.to_act
        assert seat is not None
        state = session.match.state
        level = seats[seat].level if not seats[seat].is_human else rules.levels[-1]
        session.play(rules.choose(rules.view(state, seat), rules.legal_actions(state), level))
    return session.match


def person(name: str) -> Seat:
    return Seat(name, "human", "hard")


def computer(level: str, name: str = "Ramón") -> Seat:
    return Seat(name, "computer", level)


# A known series: people and computer levels, two to four seats, Gemelos and Red Man's Throw.
SERIES = [
    ("gemelos", (person("Ana"), person("Bea")), 1),
    ("gemelos", (person("Ana"), computer("hard"), person("Cid")), 2),
    ("gemelos", (computer("easy"), person("Bea"), computer("hard", "Carmela"), person("Cid")), 3),
    ("redman", (person("Ana"), computer("easy")), 4),
    ("gemelos", (person("Bea"), person("Ana")), 5),
    ("redman", (computer("hard"), person("Ana")), 6),
    ("gemelos", (person("Cid"), computer("easy")), 7),
]


def by_the_library(matches: list[Match]) -> dict[tuple[str, str], tuple[float, float]]:
    """The series rated by calling OpenSkill directly, the standings as ranks."""
    model = PlackettLuce()
    held: dict[tuple[str, str], object] = {}
    for match in matches:
        keys = [(match.game, s.name if s.is_human else f"computer:{s.level}") for s in match.seats]
        ranks = [{"win": 1, "draw": 2, "loss": 3}[o] for o in match.rules.outcome(match.state)]
        teams = [[held.get(k) or model.rating()] for k in keys]
        for k, [new] in zip(keys, model.rate(teams, ranks=ranks)):
            held[k] = new
    return {k: (r.mu, r.sigma) for k, r in held.items()}  # type: ignore[attr-defined]


def the_series() -> list[Match]:
    return [played(game, seats, seed) for game, seats, seed in SERIES]


def test_a_known_series_rates_as_openskill_itself_does(tmp_path):
    matches = the_series()
    outcomes = {tuple(m.rules.outcome(m.state)) for m in matches}
    assert len(outcomes) > 2  # winners in different seats: the ranks matter
    ratings = Ratings(tmp_path)
    ratings.open()
    for n, match in enumerate(matches):
        ratings.played(match, f"2026-12-01T00:00:{n:02d}.000000+00:00")
    expected = by_the_library(matches)
    assert {k: (r.mu, r.sigma) for k, r in ratings.table.items()} == expected
    assert ratings.table[("gemelos", "Ana")].matches == 3
    assert ratings.table[("gemelos", "computer:hard")].name == "hard"
    # What is shown: the ordinal, mu - 3 sigma, to a tenth.
    mu, sigma = expected[("gemelos", "Ana")]
    assert ratings.shown("gemelos", person("Ana")) == round(mu - 3 * sigma, 1)
    assert ratings.shown("gemelos", person("Nobody")) is None
    leaders = ratings.leaders("gemelos")
    assert [r.ordinal for r in leaders] == sorted((r.ordinal for r in leaders), reverse=True)
    place, mine = ratings.place("gemelos", "Ana")  # type: ignore[misc]
    assert leaders[place - 1] == mine
    ratings.close()
    # The store took the same numbers.
    db = sqlite3.connect(tmp_path / FILE)
    stored = {(g, k): (mu, s) for g, k, mu, s in db.execute("SELECT game, key, mu, sigma FROM ratings")}
    assert stored == expected
    assert db.execute("SELECT count(*) FROM results").fetchone()[0] == len(matches)
    assert not list((tmp_path / PENDING).glob("*.json"))  # each result's file gone once stored


def test_a_level_in_several_seats_takes_their_average_as_one_match():
    match = played("gemelos", (person("Ana"), computer("hard"), computer("hard", "Carmela")), 11)
    ratings = Ratings(None)
    ratings.played(match, "2026-12-01T00:00:00.000000+00:00")
    model = PlackettLuce()
    ranks = [{"win": 1, "draw": 2, "loss": 3}[o] for o in match.rules.outcome(match.state)]
    [[ana], [h1], [h2]] = model.rate([[model.rating()] for _ in range(3)], ranks=ranks)
    hard = ratings.table[("gemelos", "computer:hard")]
    assert (hard.mu, hard.sigma, hard.matches) == ((h1.mu + h2.mu) / 2, (h1.sigma + h2.sigma) / 2, 1)
    assert (ratings.table[("gemelos", "Ana")].mu, ratings.table[("gemelos", "Ana")].sigma) == (
        ana.mu,
        ana.sigma,
    )
    # One player in every seat: nothing to learn, nothing rated.
    alone = played("gemelos", (computer("hard"), computer("hard", "Carmela")), 12)
    assert result_of(alone, "x") is None


def test_the_ratings_survive_a_restart_and_a_result_is_counted_once(tmp_path):
    matches = the_series()
    first = Ratings(tmp_path)
    first.open()
    for n, match in enumerate(matches):
        first.played(match, f"2026-12-01T00:00:{n:02d}.000000+00:00")
    first.close()
    again = Ratings(tmp_path)
    again.open()
    assert again.table == first.table
    # The same result told twice (a pending file left by a stop between the
    # store's commit and the file's removal) counts once, in memory and on disk.
    result = result_of(matches[0], "2026-12-01T00:00:00.000000+00:00")
    assert result is not None
    (tmp_path / PENDING).mkdir(exist_ok=True)
    (tmp_path / PENDING / "20261201000000-left.json").write_text(json.dumps(result))
    third = Ratings(tmp_path)
    third.open()
    third.close()
    assert third.table == first.table
    assert not list((tmp_path / PENDING).glob("*.json"))
    db = sqlite3.connect(tmp_path / FILE)
    assert db.execute("SELECT count(*) FROM results").fetchone()[0] == len(matches)


def test_a_busy_store_leaves_the_result_waiting_and_the_next_start_applies_it_once(tmp_path):
    ratings = Ratings(tmp_path, wait=0.05)
    ratings.open()
    holder = sqlite3.connect(tmp_path / FILE, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the store
    # Two results whose order matters: Ana beats Bea, then Bea beats Ana.
    first = played("gemelos", (person("Ana"), person("Bea")), 1)
    second = next(m for seed in range(2, 40) if (m := played("gemelos", (person("Ana"), person("Bea")), seed))
                  and m.rules.outcome(m.state) != first.rules.outcome(first.state))  # fmt: skip
    ratings.played(first, "2026-12-01T00:00:01.000000+00:00")
    ratings.played(second, "2026-12-01T00:00:02.000000+00:00")
    shown = dict(ratings.table)  # the lobby sees them at once, from memory
    for _ in range(200):
        if len(list((tmp_path / PENDING).glob("*.json"))) == 2:
            break
        threading_pause()
    ratings.close(timeout=0.3)
    waiting = list((tmp_path / PENDING).glob("*.json"))
    assert len(waiting) == 2  # not lost: waiting in their files
    holder.execute("ROLLBACK")
    holder.close()
    assert sqlite3.connect(tmp_path / FILE).execute("SELECT count(*) FROM results").fetchone()[0] == 0
    later = Ratings(tmp_path)
    later.open()
    assert later.table == shown  # applied at the start, in order, in memory...
    backwards = Ratings(None)
    for m, at in ((second, "2"), (first, "1")):
        backwards.played(m, at)
    assert backwards.table != shown  # (the other order would not give them)
    later.close()
    assert not list((tmp_path / PENDING).glob("*.json"))  # ...and in the store, its file gone
    once_more = Ratings(tmp_path)
    once_more.open()
    once_more.close()
    assert once_more.table == shown  # once
    assert sqlite3.connect(tmp_path / FILE).execute("SELECT count(*) FROM results").fetchone()[0] == 2


def test_a_store_busy_for_a_while_takes_the_result_when_freed(tmp_path):
    ratings = Ratings(tmp_path, wait=0.05)
    ratings.open()
    holder = sqlite3.connect(tmp_path / FILE, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    ratings.played(played("redman", (person("Ana"), computer("easy")), 2), "2026-12-01T00:00:02.000000+00:00")
    ratings.played(played("redman", (person("Ana"), computer("hard")), 3), "2026-12-01T00:00:03.000000+00:00")
    threading_pause(0.3)
    holder.execute("ROLLBACK")  # freed: the writer takes both, in order
    holder.close()
    ratings.close()
    again = Ratings(tmp_path)
    again.open()
    assert again.table == ratings.table
    assert not list((tmp_path / PENDING).glob("*.json"))


def test_a_damaged_store_is_set_aside_with_one_line_and_a_new_one_begun(tmp_path, caplog):
    (tmp_path / FILE).write_bytes(b"not a database at all " * 100)
    (tmp_path / PENDING).mkdir()
    (tmp_path / PENDING / "1-bad.json").write_text("{ not json")
    (tmp_path / PENDING / "2-wrong.json").write_text(json.dumps({"game": "gemelos", "seats": "x"}))
    with caplog.at_level(logging.WARNING, logger="garito.ratings"):
        ratings = Ratings(tmp_path)
        ratings.open()
    assert (tmp_path / (FILE + ".corrupt")).read_bytes().startswith(b"not a database")
    lines = [r.getMessage() for r in caplog.records]
    assert sum("set aside" in line for line in lines) == 3, lines  # the store and two waiting files
    assert sorted(p.name for p in (tmp_path / PENDING).iterdir()) == [
        "1-bad.json.corrupt",
        "2-wrong.json.corrupt",
    ]
    ratings.played(played("gemelos", (person("Ana"), person("Bea")), 1), "2026-12-01T00:00:01.000000+00:00")
    ratings.close()
    db = sqlite3.connect(tmp_path / FILE)
    assert db.execute("PRAGMA user_version").fetchone()[0] == rt.SCHEMA
    assert db.execute("SELECT count(*) FROM ratings").fetchone()[0] == 2


def test_a_store_from_a_newer_garito_is_left_alone_and_the_results_wait(tmp_path, caplog):
    db = sqlite3.connect(tmp_path / FILE)
    db.execute(f"PRAGMA user_version = {rt.SCHEMA + 1}")
    db.close()
    with caplog.at_level(logging.WARNING, logger="garito.ratings"):
        ratings = Ratings(tmp_path)
        ratings.open()
    assert any("newer Garito" in r.getMessage() for r in caplog.records)
    ratings.played(played("gemelos", (person("Ana"), person("Bea")), 1), "2026-12-01T00:00:01.000000+00:00")
    assert ratings.shown("gemelos", person("Ana")) is not None  # in memory this time
    ratings.close()
    assert len(list((tmp_path / PENDING).glob("*.json"))) == 1  # kept for a Garito that can store it
    assert sqlite3.connect(tmp_path / FILE).execute("PRAGMA user_version").fetchone()[0] == rt.SCHEMA + 1


def test_rows_a_stranger_wrote_into_the_store_are_left_out(tmp_path):
    ratings = Ratings(tmp_path)
    ratings.open()
    ratings.close()
    db = sqlite3.connect(tmp_path / FILE)
    db.execute("INSERT INTO ratings VALUES ('gemelos', 'Ana', 'Ana', 0, 30.0, 2.0, 3)")
    db.execute("INSERT INTO ratings VALUES ('gemelos', 'Bad', 'Bad', 0, 'x', 2.0, 3)")
    db.execute("INSERT INTO ratings VALUES ('gemelos', 'Neg', 'Neg', 0, 20.0, -1.0, 3)")
    db.commit()
    db.close()
    again = Ratings(tmp_path)
    again.open()
    again.close()
    assert list(again.table) == [("gemelos", "Ana")]


def test_a_leaderboard_from_the_server_is_read_within_bounds():
    from garito.server.messages import LEADERS, Leaders, Refused, client_message, server_message

    row = {"name": "[b]x\x1b[31m", "rating": 1.5, "matches": 2, "computer": False}
    board = server_message({"op": "leaders", "game": "gemelos", "rows": [row] * 1000, "place": 3, "own": row})
    assert isinstance(board, Leaders) and len(board.rows) == LEADERS
    assert board.rows[0].name == "[b]x[31m"  # no control character reaches the terminal
    for bad in (float("nan"), float("inf"), "1.5", None):
        with pytest.raises(ValueError):
            server_message(
                {"op": "leaders", "game": "gemelos", "rows": [{**row, "rating": bad, "matches": bad}]}
            )
    with pytest.raises(Refused):
        client_message({"op": "leaders", "game": 7})
    assert client_message({"op": "leaders", "game": "g" * 10_000}).game == "g" * 40  # type: ignore[union-attr]


def threading_pause(seconds: float = 0.01) -> None:
    import time

    time.sleep(seconds)


# ---------------------------------------------------------------- over the protocol


async def rated_server(folder: Path) -> tuple[TableServer, str]:
    ratings = Ratings(folder)
    await asyncio.to_thread(ratings.open)
    server = TableServer(chosen_seeds=True, ratings=ratings)
    path = str(Path(tempfile.mkdtemp()) / "t.sock")
    await server.start(path)
    return server, path


@sync
async def test_a_finished_table_rates_its_players_and_the_ratings_survive_a_server_restart():
    folder = Path(tempfile.mkdtemp())
    server, path = await rated_server(folder)
    try:
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=7)
        await ana.until(lambda m: m["op"] == "state")
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        await asyncio.gather(play_my_turns(ana, 1), play_my_turns(bea, 1))
        match = server.tables[1].match
        await ana.send(op="leaders", game="gemelos")
        board = await ana.until(lambda m: m["op"] == "leaders")
        expected = by_the_library([match])
        rows = {r["name"]: r for r in board["rows"]}
        for name in ("Ana", "Bea"):
            mu, sigma = expected[("gemelos", name)]
            assert rows[name]["rating"] == round(mu - 3 * sigma, 1) and rows[name]["matches"] == 1
        assert board["own"]["name"] == "Ana" and board["rows"][board["place"] - 1]["name"] == "Ana"
        # The lobby's listing carries each seated player's rating at that game.
        cid = await Conn.open(path, "Cid")
        await cid.send(op="create", game="gemelos", seats=["human", "human"], seed=8)
        await cid.until(lambda m: m["op"] == "state")
        await ana.send(op="join", table=2)
        listed = await cid.until(
            lambda m: m["op"] == "table" and m["table"]["table"] == 2 and m["table"]["free"] == 0
        )
        seats = listed["table"]["seats"]
        assert seats[0]["rating"] is None and seats[1]["rating"] == rows["Ana"]["rating"]
        # A game nobody played has an empty board; a game that is not one is refused.
        await cid.send(op="leaders", game="willie")
        assert (await cid.until(lambda m: m["op"] == "leaders"))["rows"] == []
        await cid.send(op="leaders", game="[b]chess")
        assert "No game" in (await cid.until(lambda m: m["op"] == "error"))["rule"]
        for c in (ana, bea, cid):
            await c.close()
    finally:
        await server.close()
    server, path = await rated_server(folder)  # the server again, over the same data folder
    try:
        dan = await Conn.open(path, "Dan")
        await dan.send(op="leaders", game="gemelos")
        again = await dan.until(lambda m: m["op"] == "leaders")
        assert again["rows"] == board["rows"] and again["own"] is None
        await dan.close()
    finally:
        await server.close()


# ---------------------------------------------------------------- the leaderboard screen


def _rated_in_memory() -> Ratings:
    """Gemelos: 17 people ahead of the app's own player (who is not among
    the first rows), one of them named with markup, and the hard level."""
    ratings = Ratings(None)
    for n in range(17):
        name = "[b]Bea[/b]" if n == 3 else f"P{n:02d}"
        seats = [[name, name, False, 1], ["computer:hard", "hard", True, 3]]
        ratings.apply({"game": "gemelos", "finished": f"{n}", "commitment": "", "seats": seats})
    seats = [["computer:hard", "hard", True, 2], ["Player 1", "Player 1", False, 2]]
    ratings.apply({"game": "gemelos", "finished": "last", "commitment": "", "seats": seats})
    return ratings


@sync
async def test_the_leaderboard_screen_from_the_lobby(monkeypatch):
    from garito.tui.app import GarApp
    from garito.tui.screens.leaders import LeadersScreen

    from .test_lobby import to_lobby, until

    server = TableServer(chosen_seeds=True, ratings=_rated_in_memory())
    path = str(Path(tempfile.mkdtemp()) / "t.sock")
    await server.start(path)
    monkeypatch.setenv("GARITO_TABLES", path)
    try:
        async with GarApp(bot_delay=0).run_test(size=(80, 24)) as pilot:
            app = pilot.app
            await to_lobby(pilot)
            # connected as the welcome came; the key bar follows the bindings
            # refreshed after, once the screen is idle
            await until(pilot, lambda: "Ratings" in str(app.screen.query_one("KeyBar").render()))
            assert "Ratings" in str(app.screen.query_one("KeyBar").render())
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, LeadersScreen) and app.screen.board is not None)
            screen = app.screen
            assert screen.game == "gemelos" and "Ratings — Gemelos" in str(screen.heading)
            board = screen.board
            assert board is not None and len(board.rows) == 15  # the first rows; the player's own below
            assert board.place is not None and board.place > 15 and board.own.name == "Player 1"
            # The board is kept before the table is painted: wait for the
            # player's own row, the last one drawn.
            await until(pilot, lambda: "(you)" in "\n".join(screen_text(app)))
            lines = "\n".join(screen_text(app))
            assert "[b]Bea[/b]" in lines  # a name as typed, never markup
            assert "Computer (hard)" not in lines  # it lost 17 times: below the first rows
            own = next(line for line in lines.splitlines() if "Player 1" in line)
            assert own.split()[:4] == [str(board.place), "Player", "1", "(you)"], own  # marked, below
            await pilot.press("right")  # the next game: nobody rated there
            await until(pilot, lambda: screen.board is not None and screen.game == "redman")
            await until(
                pilot, lambda: "Nobody is rated at Red Man's Throw yet" in "\n".join(screen_text(app))
            )
            await pilot.press("left", "left")  # back past the first game to the last
            await until(pilot, lambda: screen.board is not None and screen.game == "willie")
            await pilot.press("escape")
            await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
            # The server goes while a leaderboard is asked for: it says so, not "Asking…" for ever.
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, LeadersScreen) and app.screen.board is not None)
            await server.close()
            await until(pilot, lambda: app.screen.lost)
            await pilot.press("right")
            await until(pilot, lambda: "table server is gone" in "\n".join(screen_text(app)))
    finally:
        await server.close()


def screen_text(app) -> list[str]:
    from .helpers import screen_lines

    return screen_lines(app)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["gemelos", "redman"]),
            st.sampled_from(["Ana", "Bea", "Cid", "hard", "computer:hard", "Dora"]),
            st.floats(0, 50),
            st.floats(0.5, 9),
            st.integers(0, 3),
        ),
        max_size=40,
    ),
    st.lists(
        st.tuples(st.sampled_from(["Ana", "Bea", "Cid", "Dora"]), st.sampled_from(["Ana", "Bea"])), max_size=4
    ),
)
@settings(max_examples=200, deadline=None)
def test_the_leaderboard_kept_in_order_answers_as_sorting_every_time(rows, results):
    """The leaderboard is sorted once a result, not once a question: it
    answers exactly as sorting everyone for every question would."""
    ratings = Ratings(None)
    for game, key, mu, sigma, matches in rows:
        name = key.removeprefix("computer:")
        ratings.table[(game, key)] = Rating(name, key.startswith("computer:"), mu, sigma, matches)
    ratings._boards.clear()  # (written straight into the table here)
    for n, (a, b) in enumerate(results):
        ratings.leaders("gemelos")  # kept in order before the result...
        if a != b:
            ratings.apply(
                {
                    "game": "gemelos",
                    "finished": str(n),
                    "commitment": "",
                    "seats": [[a, a, False, 1], [b, b, False, 3]],
                }
            )
    for game in ("gemelos", "redman"):  # ...and after it
        everyone = sorted(
            (r for (g, _k), r in ratings.table.items() if g == game and r.matches),
            key=lambda r: (-r.ordinal, r.name),
        )
        assert ratings.leaders(game, 15) == everyone[:15]
        for key in {k for g, k in ratings.table if g == game}:
            mine = ratings.table[(game, key)]
            better = sum(1 for r in everyone if (-r.ordinal, r.name) < (-mine.ordinal, mine.name))
            expected = None if not mine.matches else (better + 1, mine)
            assert ratings.place(game, key) == expected
