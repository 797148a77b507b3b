"""Small screens every part of the app uses: "too small", confirmations,
the hand-off between players at one keyboard."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from garito.core.i18n import N_, _
from garito.widgets.keybar import KeyBar


class TooSmallScreen(ModalScreen[None]):
    """Covers everything while the terminal is below 80×24; the app removes
    it as soon as the terminal is large enough again, and keeps it on top of
    any screen opened meanwhile. Nothing underneath is lost: the screens
    below keep their state."""

    BINDINGS = [Binding("escape", "nothing", show=False)]

    # Not called "Notice": CSS type selectors match a class's name, and the
    # round-result box (widgets.notice.Notice) is kept off screen by its own
    # ``Notice`` rule, which would take this one off screen too.
    class SizeNotice(Widget):
        size_now: reactive[tuple[int, int]] = reactive((0, 0))

        def render(self) -> Text:
            w, h = self.size_now or (self.app.size.width, self.app.size.height)
            playing = any(getattr(s, "HOLDS_A_GAME", False) for s in self.app.screen_stack)
            return Text.assemble(
                (_("Garito needs a terminal of at least 80×24.") + "\n", "bold"),
                _("This one is {width}×{height}: please enlarge it.").format(width=w, height=h) + "\n",
                # ^q: as the key bar and the other notices name the key
                _("Your game is kept as it is. ^q quits.") if playing else _("Nothing is lost. ^q quits."),
                justify="center",
            )

    def compose(self) -> ComposeResult:
        notice = self.SizeNotice(id="too-small")
        notice.size_now = (self.app.size.width, self.app.size.height)
        yield notice

    def action_nothing(self) -> None:
        pass


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; y/Enter says yes, n/Escape says no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-title", markup=False)
            if self.detail:
                yield Static(self.detail, classes="dialog-body", markup=False)
            yield Static(_("[b]y[/b] / Enter: yes    [b]n[/b] / Escape: no"), classes="dialog-keys")
        yield KeyBar()  # the screen under it would offer its own keys

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HandOffScreen(Screen[None]):
    """Between two players at one keyboard in a game with secrets: a whole
    screen (not a dialog over the table) so nothing of the previous
    player's hand shows while the keyboard changes hands."""

    BINDINGS = [
        Binding("enter,space", "ready", N_("Ready")),
        Binding("escape", "nothing", show=False),
    ]

    def __init__(self, name: str, previous: str, secrets: str = "dice come") -> None:
        super().__init__()
        self.player = name
        self.previous = previous
        self.secrets = secrets  # "dice come", "cards come": what is about to show

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="handoff") as box:
            box.border_title = _("Hand-off")
            # Names are text: the Statics take no markup, the keys' line puts
            # the name in as a variable.
            yield Static(
                _("Pass the keyboard to {player}.").format(player=self.player),
                classes="dialog-title",
                markup=False,
            )
            if self.secrets == "cards come":
                next_ = _("{player}'s cards come next.")
            else:
                next_ = _("{player}'s dice come next.")
            who = (
                _("{previous}, look away:").format(previous=self.previous)
                if self.previous
                else _("Everyone else, look away:")
            )
            yield Static(f"{who} {next_.format(player=self.player)}", classes="dialog-body", markup=False)
            ready = Content.from_markup(_("[b]Enter[/b]: $player is ready"), player=self.player)
            yield Static(ready, classes="dialog-keys")

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_nothing(self) -> None:
        pass
