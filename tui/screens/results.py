"""The match's end, shared by the games: the result, then a rematch or the
menu (``MatchOver``, in the table's own box, ``widgets.notice``, as a
round's result is); and the titled box over the table that a game's own
questions are asked in (``_Box``: Red Man's moment)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
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


WIDE = 64  # the match-over box: wider than a round's, for the match's sheet

_KEYS = {
    "match": N_("n: rematch (same seats and rules)    Enter: menu"),
    "table": N_("n: rematch (seats move on)    Enter: back to the lobby"),
    "watch": N_("Enter: back to the lobby"),
}


class MatchOver:
    """The end of a match, shown in the table's own box (``widgets.notice``):
    its title and sheet, and what the keys do now.

    * ``match``: n for a rematch (same seats and rules), Enter to the menu;
    * ``table`` (a player's, at a shared table): n asks the others for a
      rematch (it begins when every player still seated has asked: the
      seats move one place on, the seats of those who left open); Enter
      goes back to the lobby, which says no. The table's screen tells it
      who has asked (``asked``);
    * ``watch`` (a spectator's): Enter back to the lobby, the one key.

    A pushed screen for it drew the whole table again under it, dimmed,
    each time any of it changed (8 ms a time at 80x24, four times a match,
    measured), and the table again as it closed."""

    def __init__(self, kind: str, title: str, body: Text | str, keys: str = "") -> None:
        self.kind = kind
        self.title, self.body = title, body
        self.own_keys = keys if kind != "watch" else ""  # a game's own line (Barras: a new session)
        self.mine = False  # this player has asked for a rematch (a shared table)
        self.asked: list[str] = []  # who has, by name

    def offers(self, what: str) -> bool:
        """Whether ``what`` (rematch, menu, lobby) is a key's to do now."""
        if what == "rematch":
            return self.kind == "match" or (self.kind == "table" and not self.mine)
        return (what == "menu") == (self.kind == "match")

    def keys(self) -> str:
        """The line under the sheet: what the keys do, and who has asked."""
        who = ", ".join(self.asked)
        if self.kind != "table" or not (self.mine or who):
            return self.own_keys or _(_KEYS[self.kind])
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
        asked = _("{names} asked for a rematch.").format(names=who)
        return asked + "\n" + _("n: rematch too    Enter: back to the lobby")
