"""Result dialogs shared by the games: a round's outcome, the match's end."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from garito.widgets.glyphs import ascii_text, to_ascii
from garito.widgets.keybar import KeyBar


class _Box(ModalScreen):
    """A titled box over the table, with its keys spelled out under the body
    and on its own key bar (the table's, under it, would offer the table's)."""

    KEYS = ""
    CLASSES = "dialog"

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        title, body, keys = self.title_text, self.body, self.KEYS
        if self.app.ascii_only:  # the core's words may hold signs
            title, body, keys = to_ascii(title), ascii_text(body), to_ascii(keys)
        with Vertical(classes=self.CLASSES) as box:
            box.border_title = Content(title)  # text, never markup
            # text, never markup: the body and the keys' line name players
            yield Static(body, classes="dialog-body", markup=False)
            yield Static(keys, classes="dialog-keys", markup=False)
        yield KeyBar()


class InfoScreen(_Box):
    """A boxed message; Space or Enter goes on. With ``auto_close``
    (seconds) it also goes on by itself, for tables with no human to press
    a key."""

    KEYS = "Space / Enter: continue"
    BINDINGS = [
        Binding("space,enter", "close", "Continue"),
        Binding("escape", "close", "Continue", show=False),
    ]

    def __init__(self, title: str, body: Text | str, *, auto_close: float | None = None) -> None:
        super().__init__(title, body)
        self.auto_close = auto_close

    def on_mount(self) -> None:
        if self.auto_close is not None:
            self.set_timer(self.auto_close, self.action_close)

    def action_close(self) -> None:
        if self.is_current:
            self.dismiss(None)


class MatchOverScreen(_Box):
    """The end of a match: the result, then a rematch (True) or the menu."""

    KEYS = "n: rematch (same seats and rules)    Enter: menu"
    CLASSES = "dialog wide"
    BINDINGS = [
        Binding("n,r", "rematch", "Rematch"),
        Binding("enter,escape", "menu", "Menu"),
    ]

    def action_rematch(self) -> None:
        self.dismiss(True)

    def action_menu(self) -> None:
        self.dismiss(False)
