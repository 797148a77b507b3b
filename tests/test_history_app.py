"""The statistics and history screens, and replays, driven by keys."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from garito.store.history import History
from garito.tui import cli
from garito.tui.app import GarApp
from garito.tui.screens.game import GameScreen
from garito.tui.screens.history import HistoryScreen, StatsScreen

from .helpers import settle, sync
from .test_history import finished

WHEN = datetime(2026, 11, 29, 19, 7, tzinfo=UTC)


def seed_history() -> list:
    kept = [finished("irwin", 5), finished("gemelos", 6), finished("irwin", 7)]
    with History() as h:
        for m in kept:
            h.add(m, finished=WHEN)
    return kept


@sync
async def test_the_statistics_screen_by_keys():
    seed_history()
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(StatsScreen())
        await settle(pilot)
        screen = app.screen
        assert screen.heading.startswith("Statistics — all games")
        # by player, each one's games in the menu's order (Gemelos before Irwin)
        assert [(x.player, x.game) for x in screen.shown] == [
            ("Ana", "gemelos"),
            ("Ana", "irwin"),
            ("Bea", "gemelos"),
            ("Bea", "irwin"),
        ]
        await pilot.press(*["right"] * 4)  # all, Gemelos, Red Man, Barras, Irwin
        await settle(pilot)
        assert screen.heading.startswith("Statistics — Irwin's Revenge")
        assert [x.played for x in screen.shown] == [2, 2]
        assert screen.message.startswith("Ana: Best victory-point total")
        assert len(screen.series) == 2 and screen.labels == ("Ana win %", "Bea win %")
        await pilot.press("left", "left")  # Red Man: nothing kept
        await settle(pilot)
        assert screen.message == "No finished matches of Red Man's Throw yet." and not screen.shown
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, StatsScreen)


@sync
async def test_history_replays_a_match_back_and_forth_and_exports_it(garito_home):
    kept = seed_history()
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(HistoryScreen())
        await settle(pilot)
        await pilot.press("down")  # the newest first: 3, then 2 (Gemelos)
        await pilot.press("enter")
        await settle(pilot)
        replay = app.screen
        assert isinstance(replay, GameScreen) and replay.frames is not None
        gemelos = kept[1]
        assert replay.at == 0 and replay.match.actions == ()
        await pilot.press("right", "right", "right")
        await settle(pilot)
        assert replay.at == 3 and replay.match.actions == gemelos.actions[:3]
        assert replay.match.state == replay.frames[3].state
        assert replay.prompt.startswith(f"Replay, move 3 of {len(gemelos.actions)}: roll.")
        await pilot.press("left")
        await settle(pilot)
        assert replay.at == 2 and replay.match.actions == gemelos.actions[:2]
        await pilot.press("space", "enter", "r", "s")  # the game's own keys do nothing here
        await settle(pilot)
        assert replay.at == 2 and len(replay.match.actions) == 2
        await pilot.press("end")
        await settle(pilot)
        assert replay.match.state == gemelos.state
        await pilot.press("home")
        await settle(pilot)
        assert replay.at == 0
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("j", "t")
        await settle(pilot)
    exported = garito_home / "exports"
    assert json.loads((exported / "garito-2.json").read_text())["game"] == "gemelos"
    assert (exported / "garito-2.txt").read_text().startswith("Gemelos: Ana (computer, hard)")


@sync
async def test_an_empty_history_says_so():
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(HistoryScreen())
        await settle(pilot)
        await pilot.press("enter", "j")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        assert "No finished matches yet." in str(
            app.screen.query_one("OptionList").get_option_at_index(0).prompt
        )


def test_replay_reads_a_record_file_or_says_why_not(tmp_path, capsys):
    good = tmp_path / "m.json"
    good.write_text(finished("decimus", 2).to_json())
    assert cli.read_record(str(good)).game == "decimus"
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": 1, "game": "decimus"}')
    for argv in (["replay", str(tmp_path / "none.json")], ["replay", str(bad)], ["replay"]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("garito: error:") and err.count("\n") == 1


@sync
async def test_the_dice_audit_screen():
    from garito.tui.screens.history import AuditScreen

    seed_history()
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(StatsScreen())
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        assert [f.sides for f in screen.results] == [6, 8, 10]  # Irwin: d10 then d6; Gemelos: d8
        assert all(f.rolls == sum(f.counts) > 0 and 0 <= f.p <= 1 for f in screen.results)


@sync
async def test_the_first_start_asks_a_name_once_and_seats_take_it(garito_home):
    from garito.store import settings
    from garito.tui.screens.menu import MenuScreen
    from garito.tui.screens.profile import ProfileScreen

    (garito_home / "settings.json").unlink()
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
        await pilot.press(*"Maruxa", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen) and settings.load()["player"] == "Maruxa"
        assert "Maruxa" in str(app.screen.query_one("#games").get_option("player").prompt)
        app.screen.open("game:gemelos")
        await settle(pilot)
        assert app.screen.query_one("#name-0").value == "Maruxa"
    again = GarApp()
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(again.screen, MenuScreen)  # asked once
        again.screen.open("player")
        await settle(pilot)
        await pilot.press(*["backspace"] * 6, *"Xurxo", "enter")
        await settle(pilot)
        assert settings.load()["player"] == "Xurxo"


@sync
async def test_escape_at_the_first_start_keeps_the_default_and_asks_no_more(garito_home):
    from garito.store import settings
    from garito.tui.screens.menu import MenuScreen

    (garito_home / "settings.json").unlink()
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen) and settings.load()["player"] == "Player 1"


@sync
async def test_history_says_a_shared_tables_dice_were_verified():
    from .test_fairness import finished as shared

    fair, forged = shared("gemelos", 2**127 + 3), shared("gemelos", 2**127 + 4)
    local = finished("irwin", 5)
    with History() as h:
        for m in (local, fair, forged):
            h.add(m, finished=WHEN)
        record = json.loads(forged.to_json())
        record["seed"] += 1  # the file changed after the match: not the seed the table committed to
        h.db.execute("UPDATE matches SET record = ? WHERE id = 3", (json.dumps(record),))
        h.db.commit()
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(HistoryScreen())
        await settle(pilot)
        fair_line = app.screen.query_one("#history-fair")
        said = []
        for _ in range(3):  # newest first: the forged one, the fair one, the local one
            said.append(str(fair_line.render()) if fair_line.display else None)
            await pilot.press("down")
            await settle(pilot)
    assert said[0].startswith("Shared table: dice NOT verified: the seed is not the one committed to")
    assert said[1].startswith("Shared table: dice verified. The seed is the one committed to before play")
    assert said[2] is None  # a local match: nothing to say
