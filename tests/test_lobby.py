"""The lobby and a shared table, in the app (Pilot) against a table server
in the test's own loop; the other players speak the protocol directly."""

from __future__ import annotations

import asyncio

import pytest

from garito.server import tables
from garito.tui.app import GarApp
from garito.widgets.choice import Choice

from .helpers import sync
from .test_tables import Conn, play_my_turns, served


@pytest.fixture(autouse=True)
def no_pace(monkeypatch):
    monkeypatch.setattr(tables, "PACE", 0.0)


async def until(pilot, test, timeout: float = 10.0) -> None:
    """Let the app run until ``test()`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        if loop.time() > end:
            raise AssertionError(f"still not: {test.__doc__ or test}")
        await pilot.pause(0.02)


async def to_lobby(pilot) -> None:
    app = pilot.app
    await pilot.pause()
    options = app.screen.query_one("#games")
    ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
    options.highlighted = ids.index("lobby")
    await pilot.press("enter")
    await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen" and app.screen.connected)


def lobby_text(app) -> str:
    return "\n".join(str(o.prompt) for o in app.screen.query_one("#tables").options)


@sync
async def test_a_table_opened_in_the_lobby_is_played_to_the_end_with_a_player_from_elsewhere(monkeypatch):
    server, path = await served()
    monkeypatch.setenv("GARITO_TABLES", path)
    app = GarApp(bot_delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_lobby(pilot)
            assert "No table yet" in app.screen.status and "New table" in lobby_text(app)
            await pilot.press("n")
            await until(pilot, lambda: type(app.screen).__name__ == "GamePicker")
            await pilot.press("enter")  # Gemelos, the first game
            await until(pilot, lambda: type(app.screen).__name__ == "NewGameScreen")
            assert not app.screen.query_one("#seed-row").display  # the server deals the dice
            app.screen.query_one("#kind-1", Choice).value = "human"  # an open seat
            await pilot.pause()
            await pilot.press("enter")
            await until(pilot, lambda: type(app.screen).__name__ == "GemelosScreen")
            table = app.screen
            assert table.seating.seat == 0 and table.match.names == ("Player 1", "Seat 2")
            assert server.tables[1].match.seats[1].is_human and 1 in server.tables[1].free_seats()

            bea = await Conn.open(path, "Bea")
            await bea.send(op="join", table=1)
            await until(pilot, lambda: table.match.names == ("Player 1", "Bea"))
            assert table.match.state.rng == () and table.match.seed == 0  # no dice to come here
            bea_plays = asyncio.create_task(play_my_turns(bea, 1))
            rolls = 0
            loop = asyncio.get_running_loop()
            end = loop.time() + 30
            while type(app.screen).__name__ != "MatchOverScreen" and loop.time() < end:
                if app.screen is table and table.notice_open:
                    await pilot.press("space")  # a round's result
                elif app.screen is table and table.human_to_act:
                    await pilot.press("space")
                    rolls += 1
                await pilot.pause(0.02)
            end = await asyncio.wait_for(bea_plays, 10)
            final = server.tables[1].match
            assert table.match.actions == final.actions and table.match.state.events == final.state.events
            assert rolls == sum(1 for e in final.state.events if e.kind == "roll" and e.seat == 0)
            assert end["over"] and table.match.seed == final.seed  # told at the end
            assert "back to the lobby" in str(app.screen.query(".dialog-keys").first().render())
            from garito.core.match import Match
            from garito.store.history import History

            with History() as history:
                (entry,) = history.entries()
                record = history.record(entry.id)
            assert record == final.to_record() and entry.players == ("Player 1", "Bea")
            assert Match.from_record(record).state == final.state  # the kept record replays
            await pilot.press("enter")
            await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
            assert 1 in server.tables and not server.tables[1].players.get(0)  # Ana is up
            await bea.send(op="leave", table=1)
            await until(pilot, lambda: not server.tables)  # both left: the table closed
            assert "No table yet" in app.screen.status
    finally:
        await server.close()
