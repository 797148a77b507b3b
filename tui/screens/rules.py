"""A game's rules and keys, from the markdown the CLI prints too."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static

from garito.core import catalog
from garito.widgets.keybar import KeyBar


def rules_text(game: str) -> str:
    return resources.files("garito.tui").joinpath("rules", f"{game}.md").read_text(encoding="utf-8")


class RulesScreen(Screen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "app.pop_screen", "Back"),
        Binding("j,down", "scroll(1)", "Scroll", show=False),
        Binding("k,up", "scroll(-1)", show=False),
        Binding("space,pagedown", "scroll(10)", "Page down"),
        Binding("b,pageup", "scroll(-10)", show=False),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        yield Static(
            f"Rules {('-' if self.app.ascii_only else '—')} {catalog.get(self.game).title}",
            id="title",
            markup=False,
        )
        with VerticalScroll(id="rules-scroll"):
            yield Markdown(rules_text(self.game), id="rules")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()

    def action_scroll(self, lines: int) -> None:
        self.query_one("#rules-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)
