"""Result dialogs shared by the games: a round's outcome, the match's end."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from garito.widgets.keybar import KeyBar


class InfoScreen(ModalScreen[None]):
    """A boxed message over the table; Space or Enter goes on. With
    ``auto_close`` (seconds) it also goes on by itself, for tables with no
    human to press a key."""

    BINDINGS = [
        Binding("space,enter", "close", "Continue"),
        Binding("escape", "close", "Continue", show=False),
    ]

    def __init__(self, title: str, body: Text | str, *, auto_close: float | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.auto_close = auto_close

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self.title_text
            yield Static(self.body, classes="dialog-body")
            yield Static("Space / Enter: continue", classes="dialog-keys")

    def on_mount(self) -> None:
        if self.auto_close is not None:
            self.set_timer(self.auto_close, self.action_close)

    def action_close(self) -> None:
        if self.is_current:
            self.dismiss(None)


class MatchOverScreen(ModalScreen[bool]):
    """The end of a match: the result, then a rematch or the menu."""

    BINDINGS = [
        Binding("n,r", "rematch", "Rematch"),
        Binding("enter,escape", "menu", "Menu"),
    ]

    def __init__(self, title: str, body: Text, match) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.match = match

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide") as box:
            box.border_title = self.title_text
            yield Static(self.body, classes="dialog-body")
            yield Static("n: rematch (same seats and rules)    Enter: menu", classes="dialog-keys")
        yield KeyBar()

    def action_rematch(self) -> None:
        self.dismiss(True)

    def action_menu(self) -> None:
        self.dismiss(False)
