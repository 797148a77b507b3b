"""The match's end, shared by the games: the result, then a rematch or the
menu. (A round's result is the table's own box, ``widgets.notice``.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from garito.core.i18n import N_, _
from garito.widgets.glyphs import ascii_text, to_ascii
from garito.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from textual import getters

    from ..app import GarApp


class _Box(ModalScreen[bool]):
    """A titled box over the table, with its keys spelled out under the body
    and on its own key bar (the table's, under it, would offer the table's)."""

    KEYS = ""
    CLASSES = "dialog"
    if TYPE_CHECKING:
        app = getters.app(GarApp)

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        title, body, keys = self.title_text, self.body, _(self.KEYS) if self.KEYS else ""
        if self.app.ascii_only:  # the core's words may hold signs
            title, body, keys = to_ascii(title), ascii_text(body), to_ascii(keys)
        with Vertical(classes=self.CLASSES) as box:
            box.border_title = Content(title)  # text, never markup
            # text, never markup: the body and the keys' line name players
            yield Static(body, classes="dialog-body", markup=False)
            yield Static(keys, classes="dialog-keys", markup=False)
        yield KeyBar()


class MatchOverScreen(_Box):
    """The end of a match: the result, then a rematch (True) or the menu."""

    KEYS = N_("n: rematch (same seats and rules)    Enter: menu")
    CLASSES = "dialog wide"
    BINDINGS = [
        Binding("n,r", "rematch", N_("Rematch")),
        Binding("enter,escape", "menu", N_("Menu")),
    ]

    def action_rematch(self) -> None:
        self.dismiss(True)

    def action_menu(self) -> None:
        self.dismiss(False)


class WatchOverScreen(MatchOverScreen):
    """The end of a match one watched at a shared table: a spectator asks no
    rematch, so Enter back to the lobby is the one key offered."""

    KEYS = N_("Enter: back to the lobby")
    BINDINGS = [Binding("enter,escape", "menu", N_("Lobby"))]

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return action != "rematch"


class TableOverScreen(MatchOverScreen):
    """The end of a match at a shared table: ``n`` asks the others for a
    rematch (it begins when every player still seated has asked: the seats
    move one place on, the seats of those who left open); Enter goes back
    to the lobby, which says no. The table's screen tells it who has asked
    (``asked``)."""

    # One line each, within the box (a name list goes on a line of its own).
    KEYS = N_("n: rematch (seats move on)    Enter: back to the lobby")
    BINDINGS = [
        Binding("n,r", "rematch", N_("Rematch")),
        Binding("enter,escape", "menu", N_("Lobby")),
    ]

    def __init__(self, title: str, body: Text | str, ask) -> None:
        super().__init__(title, body)
        self.ask = ask  # sends this player's rematch
        self.mine = False

    def action_rematch(self) -> None:
        if not self.mine:
            self.mine = True
            self.ask()
            self.query_one(".dialog-keys", Static).update(
                to_ascii(self._keys()) if self.app.ascii_only else self._keys()
            )

    def asked(self, names: list[str]) -> None:
        """Who has asked for a rematch so far."""
        self._asked = names
        if self.is_mounted:
            line = self._keys()
            self.query_one(".dialog-keys", Static).update(to_ascii(line) if self.app.ascii_only else line)

    _asked: list[str] = []

    def _keys(self) -> str:
        who = ", ".join(self._asked)
        if self.mine:
            return (
                (
                    _("Rematch asked ({names}): waiting for the others.").format(names=who)
                    if who
                    else _("Rematch asked: waiting.")
                )
                + "\n"
                + _("Enter: back to the lobby")
            )
        if who:
            return (
                _("{names} asked for a rematch.").format(names=who)
                + "\n"
                + _("n: rematch too    Enter: back to the lobby")
            )
        return _(self.KEYS)

    def compose(self) -> ComposeResult:
        self.KEYS = self._keys()
        yield from super().compose()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return action != "rematch" or not self.mine
