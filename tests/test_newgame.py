"""The new-game dialog of every game: every choice whole at 80×24, arrows
only where there is a choice, and a computer's level shown (and why it does
not count) when the rules leave it nothing to decide."""

from __future__ import annotations

import pytest

from garito.core import catalog
from garito.tui.app import GarApp
from garito.tui.screens.newgame import NewGameScreen
from garito.widgets.choice import Choice

from .helpers import screen_lines, settle, sync

GAMES = [g.id for g in catalog.GAMES]


def whole(dialog: NewGameScreen, choice: Choice) -> None:
    """The choice is drawn whole: inside its panel, on its one line."""
    geometry = dialog.find_widget(choice)
    assert geometry.clip.contains_region(geometry.region), f"{choice.id} is cut by its panel"
    need = choice.get_content_width(choice.parent.content_size, dialog.size)
    assert need <= choice.content_size.width, f"{choice.id} needs {need} columns"


@pytest.mark.parametrize("language", ["en", "es", "gl"])
@pytest.mark.parametrize("game", GAMES)
def test_every_choice_of_every_game_is_drawn_whole(game, language):
    # (ASCII mode draws the arrows as < and >: the same widths.)
    from garito.core import i18n

    i18n.set_default(language)  # the process's, as the CLI sets it (conftest resets it)

    @sync
    async def run():
        app = GarApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            app.push_screen(NewGameScreen(game))
            await settle(pilot)
            dialog = app.screen
            # the rules in one column: their arrows, and the seed's field
            rules = [c for c in dialog.query("#variants Choice") if c.display]
            seed = dialog.query_one("#seed")
            starts = {dialog.find_widget(c).region.x + len(c.label) for c in rules}
            columns = {dialog.find_widget(c).region.x + c.label_width + 1 for c in rules}
            assert len(columns) == 1 and max(starts) < min(columns)
            assert dialog.find_widget(seed).region.x == columns.pop()
            whole(dialog, seed)
            left, right = "◂", "▸"
            for choice in list(dialog.query(Choice)):
                for _ in choice.options:
                    choice.action_step(1)
                    await pilot.pause()
                    for shown in dialog.query(Choice):
                        if shown.display and shown.parent.display and shown.visible:
                            whole(dialog, shown)
                    for line in screen_lines(app):
                        if left in line:
                            assert line.count(left) == line.count(right), line

    run()


@sync
async def test_no_arrows_where_there_is_no_choice():
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(NewGameScreen("redman"))  # two players, always
        await settle(pilot)
        players = app.screen.query_one("#players", Choice)
        assert not players.focusable
        assert app.screen.focused is not players
        line = next(line for line in screen_lines(app) if "Players" in line).split("│")[1]  # the seats panel
        assert "◂" not in line and "▸" not in line and " 2 " in line


@pytest.mark.parametrize("has_save", [False, True])
def test_a_computer_level_is_shown_and_why_it_does_not_count_without_stakes(has_save):
    sync(_level_shown_and_why)(has_save)


async def _level_shown_and_why(has_save):
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(NewGameScreen("gemelos", has_save=has_save))
        await settle(pilot)
        dialog = app.screen
        level = dialog.query_one("#level-1", Choice)
        assert level.visible and level.disabled  # shown, not offered
        text = "\n".join(screen_lines(app))
        assert "Hard" in text
        dialog.query_one("#kind-1").focus()
        await settle(pilot)
        status = " ".join(str(dialog.query_one("#newgame-status").render()).split())
        assert "nothing to choose" in status and "stakes" in status
        dialog.query_one("#var-stakes", Choice).value = "blind"
        await settle(pilot)
        assert level.visible and not level.disabled


@sync
async def test_a_seat_made_a_computer_never_takes_another_computers_name():
    # Decimus: two seats always, the second a computer (Ramón); the first
    # made a computer too takes Ramón, and the second's default moves on.
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(NewGameScreen("decimus"))
        await settle(pilot)
        dialog = app.screen
        dialog.query_one("#kind-0", Choice).focus()
        await pilot.press("right")
        await settle(pilot)
        kinds = [dialog.query_one(f"#kind-{i}", Choice).value for i in (0, 1)]
        names = [dialog.query_one(f"#name-{i}").value for i in (0, 1)]
        assert kinds == ["computer", "computer"] and names == ["Ramón", "Lucía"]
        await pilot.press("left")  # back to a person: Ramón's name back to the second seat
        await settle(pilot)
        assert [dialog.query_one(f"#name-{i}").value for i in (0, 1)][1] == "Ramón"


@sync
async def test_a_player_named_like_a_computer_starts_a_game_with_the_default_seats():
    # A player called Ramón met "two seats have the same name" at the first
    # Enter: the first computer seat was Ramón too.
    from garito.store import settings
    from garito.tui.games import default_names
    from garito.tui.screens.game import GameScreen

    settings.update(player="Ramón")
    assert default_names(["human", "computer", "computer"]) == ["Ramón", "Lucía", "Tomás"]
    # with no seat of the player's, the computers take every name there is
    assert default_names(["computer"] * 6) == ["Ramón", "Lucía", "Tomás", "Inés", "Xoán", "Carmela"]
    app = GarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(NewGameScreen("gemelos"))
        await settle(pilot)
        dialog = app.screen
        assert [dialog.query_one(f"#name-{i}").value for i in (0, 1)] == ["Ramón", "Lucía"]
        dialog.action_start()
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.match.names == ("Ramón", "Lucía")


@pytest.mark.parametrize("language", ["en", "es", "gl"])
def test_every_rule_label_leaves_the_seed_field_room(language):
    # The rules' labels share one column, as wide as the widest: the seed's
    # field (12) takes the rest of the panel's 28, so a label has 15 at most.
    import contextvars

    from garito.core import i18n

    def labels() -> list[str]:
        i18n.use(language)
        return [i18n._(v.label) for info in catalog.GAMES for v in catalog.rules(info.id).variants]

    assert [label for label in contextvars.copy_context().run(labels) if len(label) > 15] == []
