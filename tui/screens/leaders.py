"""A game's leaderboard at a Garito server, from the lobby (``r``): the
best players by rating, the computers' levels among them, your own row
marked (and shown below the others when you are not among them); ← → choose
the game. The ratings are the server's (``store.ratings``): the ordinal,
mu - 3 sigma, of OpenSkill's Plackett-Luce model."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Static

from garito.core import catalog
from garito.core.i18n import N_, _
from garito.core.names import printable
from garito.server.messages import Leader, Leaders
from garito.widgets.glyphs import glyphs, is_ascii
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line

if TYPE_CHECKING:
    from textual import getters

    from ..app import GarApp


def shown_name(row: Leader) -> str:
    """A row's name as the player reads it: a person's as it is, a computer
    by its level in the player's language."""
    if row.computer:
        return _("Computer ({level})").format(level=_(printable(row.name)))
    return printable(row.name)


class LeadersScreen(Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(GarApp)

    DEFAULT_CSS = """
    #leaders-body { padding: 0 1; }
    #leaders-table { height: auto; }
    #leaders-note { margin-top: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("left,h", "game(-1)", N_("Game"), key_display="←→"),
        Binding("right,l", "game(1)", N_("Game"), show=False),
    ]
    heading: var[str] = var("")

    def __init__(self, ask: Callable[[str], None], me: str, game: str | None = None) -> None:
        """``ask(game)`` asks the server for a game's leaderboard (the
        answer comes to ``show``); ``me``: the name the server knows this
        player by."""
        super().__init__()
        self.ask, self.me = ask, me
        self.games = [g.id for g in catalog.GAMES]
        self.choice = self.games.index(game) if game in self.games else 0
        self.board: Leaders | None = None
        self.lost = ""  # why no answer will come (the connection is gone)

    @property
    def game(self) -> str:
        return self.games[self.choice]

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=LeadersScreen.heading)
        with Vertical(id="leaders-body"):
            yield Static(id="leaders-table")
            yield Static(
                _(
                    "A rating is mu - 3 sigma of OpenSkill's Plackett-Luce model, from every finished "
                    "match at this server's shared tables: a newcomer starts at 0. Computers are "
                    "rated by level, so you can measure yourself against them."
                ),
                id="leaders-note",
                markup=False,
            )
        yield KeyBar()

    def on_mount(self) -> None:
        self._choose()

    def action_game(self, delta: int) -> None:
        self.choice = (self.choice + delta) % len(self.games)
        self._choose()

    def _choose(self) -> None:
        title = catalog.get(self.game).title
        self.heading = _("Ratings — {game}   (←/→ another game)").format(game=title)
        self.board = None
        if self.lost:
            self.query_one("#leaders-table", Static).update(Text(self.lost, "dim"))
            return
        self.query_one("#leaders-table", Static).update(Text(_("Asking the server…"), "dim"))
        self.ask(self.game)

    def gone(self, why: str) -> None:
        """The connection to the server is lost: no answer will come."""
        self.lost = why
        if self.board is None:
            self.query_one("#leaders-table", Static).update(Text(why, "dim"))

    def show(self, board: Leaders) -> None:
        """The server's answer (one for another game than the one now
        chosen is left alone: the player moved on)."""
        if board.game != self.game:
            return
        self.board = board
        body = self.query_one("#leaders-table", Static)
        if not board.rows:
            title = catalog.get(self.game).title
            body.update(
                Text(
                    _(
                        "Nobody is rated at {game} yet: a match finished at a shared table rates its players."
                    ).format(game=title),
                    "dim",
                )
            )
            return
        table = Table(box=None, pad_edge=False, expand=False)
        table.add_column("", justify="right")
        table.add_column(_("Player"))
        table.add_column(_("Rating"), justify="right")
        table.add_column(_("Matches"), justify="right")
        mine = False
        for place, row in enumerate(board.rows, 1):
            own = not row.computer and row.name == self.me
            mine = mine or own
            table.add_row(*self._cells(place, row, own), style="bold reverse" if own else None)
        if not mine and board.own is not None and board.place is not None:
            table.add_row(Text(glyphs(is_ascii(self))["ellipsis"]), "", "", "")
            table.add_row(*self._cells(board.place, board.own, True), style="bold reverse")
        body.update(table)

    def _cells(self, place: int, row: Leader, own: bool) -> tuple[Text, Text, Text, Text]:
        # a name is text: a Rich table would read a str cell as markup
        name = Text(shown_name(row), "italic" if row.computer else "")
        if own:
            name.append("  " + _("(you)"))
        return Text(f"{place}"), name, Text(f"{row.rating:.1f}"), Text(str(row.matches))
