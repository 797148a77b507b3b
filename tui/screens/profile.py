"""The player's name: asked once at the first start, changed from the menu
("Player: ..."), and given to the first human seat of every new game."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from garito.core.i18n import N_, _
from garito.core.names import clean, printable
from garito.store import settings
from garito.widgets.field import Field
from garito.widgets.keybar import KeyBar

from .laidout import LaidOut


class ProfileScreen(LaidOut, ModalScreen[str]):
    """Type a name, Enter keeps it; Escape keeps the one there was."""

    BINDINGS = [Binding("escape", "keep", N_("Leave it as it is"))]

    def __init__(self, first: bool = False) -> None:
        super().__init__()
        self.first = first

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = _("Welcome to Garito") if self.first else _("Your name")
            yield Static(
                _("Your name at the table (the first human seat of each new game; the statistics keep it):"),
                classes="dialog-body",
            )
            yield Field(
                settings.player() if not self.first else "",
                placeholder=settings.default_player(),
                max_length=12,
                id="player-name",
            )
            # Escape says what the key bar says: the name stays (at the welcome,
            # the default one, and the welcome is not shown again).
            yield Static(_("Enter: save it    Escape: leave it as it is"), classes="dialog-keys")
        yield KeyBar()

    def on_input_changed(self, event: Input.Changed) -> None:
        kept = printable(event.value)
        if kept != event.value:  # a pasted escape sequence or newline: the name keeps its letters
            event.input.value = kept

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = clean(event.value).strip()[:12] or settings.player()
        settings.update(player=name)
        self.dismiss(name)

    def action_keep(self) -> None:
        if self.first:
            settings.update(player=settings.player())  # asked once: not at every start
        self.dismiss(settings.player())
