"""The lobby and a shared table, in the app (Pilot) against a table server
in the test's own loop; the other players speak the protocol directly."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from garito.core.gemelos import Config, Rolled
from garito.core.match import Seat
from garito.server import tables
from garito.tui.app import GarApp
from garito.widgets.choice import Choice
from garito.widgets.keybar import KeyBar

from .helpers import box_keys, match_over, over_kind, sync
from .test_tables import Conn, play_my_turns, served


@pytest.fixture(autouse=True)
def no_pace(monkeypatch):
    monkeypatch.setattr(tables, "PACE", 0.0)


async def until(pilot, test, timeout: float = 30.0) -> None:
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


@contextlib.asynccontextmanager
async def at_the_lobby(monkeypatch, before=None):
    """A table server, and the app at its lobby (``before(path)`` first, to
    set tables up); yields (server, path, pilot)."""
    server, path = await served()
    monkeypatch.setenv("GARITO_TABLES", path)
    try:
        if before is not None:
            await before(path)
        async with GarApp(bot_delay=0).run_test(size=(80, 24)) as pilot:
            await to_lobby(pilot)
            yield server, path, pilot
    finally:
        await server.close()


def lobby_text(app) -> str:
    return "\n".join(str(o.prompt) for o in app.screen.query_one("#tables").options)


@sync
async def test_a_table_opened_in_the_lobby_is_played_to_the_end_with_a_player_from_elsewhere(monkeypatch):
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        assert "No table yet" in app.screen.status and "New table" in lobby_text(app)
        await pilot.press("n")
        await until(pilot, lambda: type(app.screen).__name__ == "GamePicker")
        await pilot.press("enter")  # Gemelos, the first game
        await until(pilot, lambda: type(app.screen).__name__ == "NewGameScreen")
        assert not app.screen.query_one("#seed-row").display  # the server deals the dice
        # A table's other seats are open by default: its creator waits for a friend.
        assert app.screen.query_one("#kind-1", Choice).value == "human"
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "GemelosScreen")
        table = app.screen
        assert table.seating.seat == 0 and table.match.names == ("Player 1", "Seat 2")
        assert server.tables[1].match.seats[1].is_human and 1 in server.tables[1].free_seats()
        assert table.prompt == "Waiting for a player in seat 2." and not table.check_action("roll", ())
        await pilot.press("space")  # nothing: the table waits
        assert not server.tables[1].match.actions

        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        await until(pilot, lambda: table.match.names == ("Player 1", "Bea"))
        said = [(n.title, n.message) for n in app._notifications]
        assert ("A player joins", "Bea takes seat 2.") in said  # told, not only shown
        assert table.match.state.rng == () and table.match.seed == 0  # no dice to come here
        bea_plays = asyncio.create_task(play_my_turns(bea, 1))
        rolls = 0
        loop = asyncio.get_running_loop()
        end = loop.time() + 30
        while not match_over(app) and loop.time() < end:
            if app.screen is table and table.notice_open:
                await pilot.press("space")  # a round's result
            elif app.screen is table and table.human_to_act:
                await pilot.press("space")
                rolls += 1
            await pilot.pause(0.02)
        end = await asyncio.wait_for(bea_plays, 10)
        final = server.tables[1].match
        assert table.match.actions == final.actions and table.match.state.events == final.state.events
        assert rolls == sum(1 for e in final.state.events if isinstance(e, Rolled) and e.seat == 0)
        assert end["over"] and table.match.seed == final.seed  # told at the end
        assert "back to the lobby" in box_keys(app)
        from garito.core.match import Match
        from garito.store.history import History

        with History() as history:
            (entry,) = history.entries()
            record = history.record(entry.id)
        assert record == final.to_record() and entry.players == ("Player 1", "Bea")
        assert Match.from_record(record).state == final.state  # the kept record replays
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        # Ana's leave reaches the server after her screen is back at the lobby
        await until(pilot, lambda: not server.tables[1].players.get(0))
        assert 1 in server.tables and not server.tables[1].players.get(0)  # Ana is up
        await bea.send(op="leave", table=1)
        await until(pilot, lambda: not server.tables)  # both left: the table closed
        # the server's word of it comes to the lobby after
        await until(pilot, lambda: "No table yet" in app.screen.status)
        assert "No table yet" in app.screen.status


def game_screen(app):
    from garito.tui.screens.game import GameScreen

    return next((s for s in app.screen_stack if isinstance(s, GameScreen)), None)


@pytest.mark.parametrize("game", ["gemelos", "redman", "barras", "irwin", "decimus", "willie"])
@sync
async def test_every_game_plays_at_a_shared_table_from_the_seats_masked_state(game, monkeypatch):
    """The app's seat is played with the computer's own choice from what the
    app holds (the masked state); the server's computer seats answer."""

    from garito.core import catalog

    rules = catalog.rules(game)
    config = rules.default_config()
    computers = tuple(Seat(f"C{i}", "computer", rules.levels[0]) for i in range(1, config.players))
    seats = (Seat("me"),) + computers
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        app.screen._create((game, config, seats))
        await until(pilot, lambda: game_screen(app) is not None)
        table = game_screen(app)
        held = server.tables[1]
        assert table.seating.seat == 0 and table.match.names[1:] == held.match.names[1:]
        loop = asyncio.get_running_loop()
        end = loop.time() + 90
        # Play up to 60 moves of the table; then stop moving and let the app
        # catch up (closing what is over the table) with the server.
        while loop.time() < end and not match_over(app):
            caught_up = table.match.actions == held.match.actions and not table._incoming
            mine = rules.to_act(held.match.state) == 0  # the server waits for this app: all is still
            if len(held.match.actions) >= 60 and caught_up and mine and not table.notice_open:
                break
            if app.screen is not table:
                await pilot.press("enter")  # a question or a moment over the table
            elif table.notice_open:
                await pilot.press("space")
            elif table.human_to_act and len(held.match.actions) < 60:
                state = table.match.state
                legal = rules.legal_actions(state)
                table.play(rules.choose(rules.view(state, 0), legal, rules.levels[0]))
            await pilot.pause(0.01)
        assert table.match.actions == held.match.actions
        assert rules.view(table.match.state, 0) == rules.view(held.match.state, 0)
        names = held.match.names
        assert table._story == [rules.narrate(e, names) for e in held.match.state.events]
        assert rules.is_over(held.match.state) or len(held.match.actions) >= 60  # never stalled


@sync
async def test_a_spectator_sees_every_move_of_a_table(monkeypatch):
    players = []

    async def full_table(path):
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=11)
        await ana.until(lambda m: m["op"] == "state")
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        await bea.until(lambda m: m["op"] == "state")
        players.extend((ana, bea))

    async with at_the_lobby(monkeypatch, full_table) as (server, path, pilot):
        app = pilot.app
        assert "Full. Enter or w: watch." in str(app.screen.query_one("#table-about").render())
        await pilot.press("enter")
        await until(pilot, lambda: game_screen(app) is not None)
        table = game_screen(app)
        assert table.seating.seat is None and not table._humans
        a, b = await asyncio.gather(*(play_my_turns(p, 1) for p in players))
        final = server.tables[1].match
        await until(pilot, lambda: table.match.actions == final.actions, timeout=30)
        assert table._story == a["log"]  # every line of the story
        await until(pilot, lambda: over_kind(app) == "watch")
        # a spectator asks no rematch: Enter back to the lobby is all it offers
        await until(pilot, lambda: app.screen.query_one(KeyBar).render().plain)  # drawn
        bar = app.screen.query_one(KeyBar).render().plain
        assert "Lobby" in bar and "Rematch" not in bar and "Menu" not in bar
        await pilot.press("n")
        await pilot.pause()
        assert over_kind(app) == "watch"
        await pilot.press("escape")
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        await until(pilot, lambda: not server.tables[1].watchers)  # the leave reaches the server after
        assert not server.tables[1].watchers


@sync
async def test_a_player_who_drops_is_waited_for_then_played_by_a_computer(monkeypatch):
    monkeypatch.setattr(tables, "HOLD", 3.0)
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        app.screen._create(("gemelos", Config(), (Seat("Ana"), Seat("open seat"))))
        await until(pilot, lambda: game_screen(app) is not None)
        table = game_screen(app)
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        # Bea seated, as Ana's screen knows it, before Ana's key
        await until(pilot, lambda: table.human_to_act and table.match.names[1] == "Bea")
        await pilot.press("space")  # Ana rolls first; then it is Bea's turn
        await until(pilot, lambda: table.seat_to_act == 1 and table.prompt == "Bea is rolling…")
        await bea.close()
        await until(pilot, lambda: table.prompt == "Bea left the table: waiting 3 minutes.")
        bea = await Conn.open(path, "Bea")  # she is back in time
        await bea.send(op="join", table=1)
        await until(pilot, lambda: table.prompt == "Bea is rolling…")
        await bea.close()  # and gone for good: a computer plays her seat
        await until(pilot, lambda: table.match.names[1] == "Bea (computer)")
        await until(pilot, lambda: len(table.match.actions) >= 2)  # the computer rolled for her
        assert not server.tables[1].match.seats[1].is_human


@sync
async def test_the_story_names_a_player_who_takes_a_seat_after_it_began(monkeypatch):
    from garito.core import willie as wx

    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        app.screen._create(("willie", wx.Config(), (Seat("Ana"), Seat("open seat"))), seed=1)
        await until(pilot, lambda: game_screen(app) is not None)
        table = game_screen(app)
        await until(pilot, lambda: "Seat 2 draws a first card." in table._story)
        bea = await Conn.open(path, "Bea")
        await bea.send(op="join", table=1)
        await until(pilot, lambda: "Bea draws a first card." in table._story)
        assert not any("Seat 2" in line for line in table._story)


@sync
async def test_nobody_comes_and_computers_take_the_open_seats(monkeypatch):
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        app.screen._create(("gemelos", Config(players=3), (Seat("Ana"), Seat("open"), Seat("open"))))
        await until(pilot, lambda: game_screen(app) is not None)
        table = game_screen(app)
        await until(pilot, lambda: table.prompt == "Waiting for players in seats 2 and 3.")
        assert table.check_action("fill", ()) and not table.check_action("roll", ())
        eve = await Conn.open(path, "Eve")
        await eve.send(op="fill", table=1)  # not hers to ask
        assert "Only a player seated" in (await eve.until(lambda m: m["op"] == "error"))["rule"]
        await pilot.press("b")
        await until(pilot, lambda: not table.open_seats)
        assert [(s.name, s.kind, s.level) for s in server.tables[1].match.seats[1:]] == [
            ("Ramón", "computer", "hard"),
            ("Lucía", "computer", "hard"),
        ]
        assert str(table.prompt).endswith("your roll: press Space.") and not table.check_action("fill", ())
        await pilot.press("space")
        # Ana, then the two computers: three actions at least, for the
        # computers may roll on at once (PACE is 0 here: a roll-off for a
        # shared lead, or the next round, which a computer opens), and the
        # count may pass three between two looks.
        await until(pilot, lambda: len(table.match.actions) >= 3)


@sync
async def test_the_first_table_to_open_takes_the_cursor(monkeypatch):
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        options = app.screen.query_one("#tables")
        assert options.highlighted_option.id == "new"
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=1)
        await until(pilot, lambda: app.screen.tables)
        assert options.highlighted_option.id == "1"  # Enter now sits there
        await pilot.press("down")
        assert options.highlighted_option.id == "new"
        await ana.send(op="create", game="gemelos", seats=["human", "computer:hard"], seed=1)
        await until(pilot, lambda: len(app.screen.tables) == 2)
        assert options.highlighted_option.id == "new"  # where the player put it
        await pilot.press("up")
        about = str(app.screen.query_one("#table-about").render())
        assert "2  Ramón, computer (hard)" in about and "Full. Enter or w: watch." in about
        await pilot.press("down")
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "GamePicker")


@sync
async def test_the_lobby_says_when_the_table_server_is_gone(monkeypatch):
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        lobby = pilot.app.screen
        assert lobby.check_action("new", ())
        await server.close()
        await until(pilot, lambda: "table server is gone" in lobby.status)
        assert not lobby.check_action("new", ()) and not lobby.check_action("open", ())
        await pilot.press("escape")
        await until(pilot, lambda: type(pilot.app.screen).__name__ == "MenuScreen")


@sync
async def test_names_of_markup_from_the_network_are_drawn_as_typed_in_the_lobby(monkeypatch):
    async def before(path):
        mal = await Conn.open(path, "[b]mal")
        computer = {"kind": "computer", "level": "hard", "name": "[/]"}
        await mal.send(op="create", game="gemelos", seats=["human", "human", computer], seed=1)
        await mal.until(lambda m: m["op"] == "state")

    from garito.store import settings

    settings.update(player="[red]x[/]")
    async with at_the_lobby(monkeypatch, before) as (server, path, pilot):
        app = pilot.app
        await until(pilot, lambda: app.screen.tables)
        row = str(app.screen.query_one("#tables").get_option_at_index(0).prompt)
        about = str(app.screen.query_one("#table-about").render())
        status = str(app.screen.query_one("#lobby-status").render())
        assert "[b]mal" in row and "[/]" in row
        assert "[b]mal" in about and "[/], computer (hard)" in about
        assert status.startswith("You are [red]x[/]. 1 table open")


@sync
async def test_names_of_markup_from_the_network_are_drawn_as_typed_at_the_table(monkeypatch):
    # The game screens draw their prompts with names as text from the change
    # that made every name text in the local app (widgets/text.py) on.
    pytest.importorskip("garito.widgets.text")
    from garito.store import settings

    settings.update(player="[/]")
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        app.screen._create(("gemelos", Config(players=2), (Seat("[/]"), Seat("[b]x", "computer"))), seed=3)
        await until(pilot, lambda: game_screen(app) is not None)
        table = game_screen(app)
        await until(pilot, lambda: "[/]" in str(table.prompt))
        await pilot.press("space")
        await until(pilot, lambda: len(table.match.actions) >= 2)  # [/] rolled, [b]x answered
        assert table.match.names == ("[/]", "[b]x") and app.is_running


async def play_app_turns(pilot, table) -> None:
    """The app's player plays its turns (Space) until its match is over."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while not match_over(app) and loop.time() < end:
        if app.screen is table and (table.notice_open or table.human_to_act):
            await pilot.press("space")
        await pilot.pause(0.02)


@sync
async def test_a_rematch_at_a_shared_table_is_real_and_the_seats_move_on(monkeypatch):
    async def before(path):
        pass

    async with at_the_lobby(monkeypatch, before) as (server, path, pilot):
        app = pilot.app
        bea = await Conn.open(path, "Bea")
        await bea.send(op="create", game="gemelos", seats=["human", "human"], seed=11)
        await bea.until(lambda m: m["op"] == "state")
        await until(pilot, lambda: "Bea" in lobby_text(app))
        await pilot.press("enter")  # the cursor came to the table with a free seat
        await until(pilot, lambda: type(app.screen).__name__ == "GemelosScreen")
        table = app.screen
        bea_plays = asyncio.create_task(play_my_turns(bea, 1))
        await play_app_turns(pilot, table)
        await asyncio.wait_for(bea_plays, 10)
        assert over_kind(app) == "table"
        assert "n: rematch" in box_keys(app)
        await bea.send(op="rematch", table=1)
        await until(pilot, lambda: "Bea asked for a rematch" in box_keys(app))
        await pilot.press("n")
        await until(pilot, lambda: type(app.screen).__name__ == "GemelosScreen" and app.screen is not table)
        again = app.screen
        assert again.match.names == ("Player 1", "Bea") and again.seating.seat == 0
        assert server.tables[1].match.names == ("Player 1", "Bea") and not again.match.actions
        assert [type(s).__name__ for s in app.screen_stack][-2:] == ["LobbyScreen", "GemelosScreen"]


@sync
async def test_the_lobby_panel_names_what_the_cursor_is_on(monkeypatch):
    async def before(path):
        for name in ("Bea", "Cid"):
            c = await Conn.open(path, name)
            await c.send(op="create", game="gemelos", seats=["human", "human"], seed=1)
            await c.until(lambda m: m["op"] == "state")
            if name == "Cid":
                await c.close()

    async with at_the_lobby(monkeypatch, before) as (server, path, pilot):
        app = pilot.app
        lobby = app.screen
        about = lobby.query_one("#table-about")
        options = lobby.query_one("#tables")

        def agree() -> bool:
            option = options.highlighted_option
            return about.border_title == ("New table" if option.id == "new" else f"Table {option.id}")

        assert agree() and about.border_title == "Table 1"
        for key in ("up", "up", "down", "down", "down"):
            await pilot.press(key)
            assert agree(), key
        await pilot.press("down")  # on "New table…": w watches nothing, Enter opens a new table
        assert options.highlighted_option.id == "new" and not lobby.check_action("watch", ())
        await pilot.press("up")
        assert about.border_title == "Table 2"
        server._close_table(server.tables[2], "abandoned")  # the table under the cursor goes
        server._announce()
        await until(pilot, lambda: "Cid" not in lobby_text(app))
        assert agree()


@sync
async def test_talk_at_a_table_and_in_the_lobby(monkeypatch):
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        bea = await Conn.open(path, "[b]Bea[/b]")
        await bea.send(op="create", game="gemelos", seats=["human", "human"], seed=11)
        await bea.until(lambda m: m["op"] == "state")
        await bea.send(op="say", text="hola [i]todos[/i]")  # the lobby's channel
        talk = app.screen.query_one("#lobby-talk")
        await until(pilot, lambda: talk.lines == ("[b]Bea[/b]: hola [i]todos[/i]",))
        await pilot.press("t", *"hi all", "enter")
        m = await bea.until(lambda m: m["op"] == "said" and m["name"] == "Player 1")
        assert m["text"] == "hi all" and m["table"] is None
        await until(pilot, lambda: app.screen.query_one("#tables").highlighted_option.id == "1")
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "GemelosScreen")
        table = app.screen
        await bea.send(op="say", table=1, text="good luck")
        log = table.query_one("#log")
        await until(pilot, lambda: "[b]Bea[/b]: good luck" in log.lines)
        await pilot.press("slash", "tab", "enter")  # the first ready phrase
        m = await bea.until(lambda m: m["op"] == "said" and m["name"] == "Player 1")
        assert m == {"op": "said", "table": 1, "name": "Player 1", "text": "Good luck!", "spectator": False}
        assert (
            not table.query_one("ChatLine").is_open and app.focused is None
        )  # the keys are the game's again


# ---------------------------------------------------------------- private tables


async def open_private_table(pilot) -> str:
    """The app opens a private Gemelos table with an open seat from the
    dialog, as a player does; returns its code, as the table shows it."""
    app = pilot.app
    await pilot.press("n")
    await until(pilot, lambda: type(app.screen).__name__ == "GamePicker")
    await pilot.press("enter")  # Gemelos
    await until(pilot, lambda: type(app.screen).__name__ == "NewGameScreen")
    dialog = app.screen
    dialog.query_one("#kind-1", Choice).value = "human"  # an open seat
    private = dialog.query_one("#private", Choice)
    assert private.value is False  # off unless chosen
    private.focus()
    await pilot.press("right")
    assert private.value is True
    assert "not listed in the lobby" in str(dialog.query_one("#newgame-status").render())
    await pilot.press("enter")
    await until(pilot, lambda: type(app.screen).__name__ == "GemelosScreen")
    subtitle = str(app.screen.query_one("#log-panel").border_subtitle)
    code = subtitle.rsplit(" ", 1)[-1]
    assert subtitle == f"private: code {code}" and len(code) == 5
    return code


@sync
async def test_a_private_table_opened_in_the_app_shows_its_code_and_is_joined_by_it(monkeypatch):
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        app = pilot.app
        code = await open_private_table(pilot)
        assert server.tables[1].code == code
        eve = await Conn.open(path, "Eve")
        await eve.send(op="list")
        assert (await eve.until(lambda m: m["op"] == "tables"))["tables"] == []  # listed to nobody else
        bea = await Conn.open(path, "Bea")
        await bea.send(op="code", code=code)
        m = await bea.until(lambda m: m["op"] == "state")
        assert m["seat"] == 1 and m["code"] == code
        table = app.screen
        await until(pilot, lambda: table.session.match.names == ("Player 1", "Bea"))
        await pilot.press("escape", "y")  # back to the lobby: the table is there, with its code
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        lobby = app.screen
        await until(pilot, lambda: "Gemelos" in lobby_text(app))
        about = str(lobby.query_one("#table-about").render())
        assert f"Private: code {code}" in about and "friends join with c" in about


@sync
async def test_a_friend_joins_a_private_table_by_its_code_and_a_wrong_code_is_refused(monkeypatch):
    async def before(path):
        ana = await Conn.open(path, "Ana")
        await ana.send(op="create", game="gemelos", seats=["human", "human"], seed=7, private=True)
        await ana.until(lambda m: m["op"] == "state")

    async with at_the_lobby(monkeypatch, before) as (server, path, pilot):
        app = pilot.app
        lobby = app.screen
        code = server.tables[1].code
        assert lobby.tables == [] and "Gemelos" not in lobby_text(app)  # not listed to her
        await pilot.press("c")
        await until(pilot, lambda: type(app.screen).__name__ == "CodeDialog")
        dialog = app.screen
        assert "still allows before it hangs up: 5." in str(dialog.query_one("#code-status").render())
        await pilot.press(*"abc", "enter")  # too short: said, nothing sent
        assert "has 5 letters" in str(dialog.query_one("#code-status").render())
        await pilot.press("escape")  # Esc leaves it
        assert app.screen is lobby
        wrong = "ZZZZZ" if code != "ZZZZZ" else "YYYYY"
        await pilot.press("c", *wrong.lower(), "enter")
        await until(pilot, lambda: any(n.title == "Wrong code" for n in app._notifications))
        told = next(n for n in app._notifications if n.title == "Wrong code").message
        assert told == f"No table has the code '{wrong}'.\n4 more wrong codes and the server hangs up."
        assert app.screen is lobby and lobby.table is None
        await pilot.press("c")
        await until(pilot, lambda: type(app.screen).__name__ == "CodeDialog")
        assert "hangs up: 4." in str(app.screen.query_one("#code-status").render())
        await pilot.press(*code.lower(), "enter")
        await until(pilot, lambda: type(app.screen).__name__ == "GemelosScreen")
        assert app.screen.seating.seat == 1 and app.screen.seating.code == code
        assert f"private: code {code}" == str(app.screen.query_one("#log-panel").border_subtitle)


@sync
async def test_a_lobby_cut_off_for_wrong_codes_says_so_and_promises_no_more(monkeypatch):
    """The server counts wrong codes across connections: a new lobby after
    the cut is cut off at its first one, and no count of codes still
    allowed goes with the words (it read "4 more wrong codes")."""

    async def before(path):
        for _ in range(5):  # this name's five, spent from another connection
            eve = await Conn.open(path, "Player 1")  # the app's name
            await eve.send(op="code", code="ZZZZZ")
            await eve.until(lambda m: m["op"] == "error")
            await eve.close()

    async with at_the_lobby(monkeypatch, before) as (server, path, pilot):
        app = pilot.app
        await pilot.press("c", *"zzzzz", "enter")
        await until(pilot, lambda: any(n.title == "Wrong code" for n in app._notifications))
        told = next(n for n in app._notifications if n.title == "Wrong code").message
        assert told == "Disconnected: 5 wrong table codes: try again in a minute."


@sync
async def test_a_private_table_opened_in_one_app_is_joined_by_code_from_another(monkeypatch):
    async with at_the_lobby(monkeypatch) as (server, path, pilot):
        code = await open_private_table(pilot)
        from garito.store import settings

        monkeypatch.setattr(settings, "player", lambda: "Bea")  # the friend's app, under her name
        async with GarApp(bot_delay=0).run_test(size=(80, 24)) as friend:
            await to_lobby(friend)
            other = friend.app
            assert "Gemelos" not in lobby_text(other)  # not listed to her
            await friend.press("c")
            await until(friend, lambda: type(other.screen).__name__ == "CodeDialog")
            await friend.press(*code, "enter")
            await until(friend, lambda: type(other.screen).__name__ == "GemelosScreen")
            assert other.screen.seating.seat == 1 and other.screen.seating.code == code
            table = pilot.app.screen
            names = ("Player 1", "Bea")
            await until(pilot, lambda: table.session.match.names == names and not table.open_seats)
