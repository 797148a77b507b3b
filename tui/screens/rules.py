"""A game's rules and keys, from the markdown the CLI prints too.

A page may name a rule variant as ``{{field}}`` (Decimus's ``{{target}}``):
it reads as the match's own setting on the ``?`` screen of a match, and as
the default anywhere else (``garito rules``, the menu)."""

from __future__ import annotations

import re
from importlib import resources
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static

from garito.core import catalog
from garito.widgets.glyphs import to_ascii
from garito.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from textual import getters

    from ..app import GarApp

_FIELD = re.compile(r"\{\{(\w+)\}\}")


def rules_text(game: str, config: Any = None) -> str:
    """The game's rules page, its ``{{field}}``s read from ``config`` (the
    game's defaults when None)."""
    text = resources.files("garito.tui").joinpath("rules", f"{game}.md").read_text(encoding="utf-8")
    if config is None and _FIELD.search(text):
        config = catalog.rules(game).default_config()
    return _FIELD.sub(lambda m: str(getattr(config, m.group(1))), text)


class RulesScreen(Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(GarApp)

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "app.pop_screen", "Back"),
        Binding("j,down", "scroll(1)", "Scroll", show=False),
        Binding("k,up", "scroll(-1)", show=False),
        Binding("space,pagedown", "scroll(10)", "Page down"),
        Binding("b,pageup", "scroll(-10)", show=False),
    ]

    def __init__(self, game: str, config: Any = None) -> None:
        super().__init__()
        self.game = game
        self.config = config  # the match's, when shown from one

    def compose(self) -> ComposeResult:
        yield Static(
            f"Rules {('-' if self.app.ascii_only else '—')} {catalog.get(self.game).title}",
            id="title",
            markup=False,
        )
        with VerticalScroll(id="rules-scroll"):
            text = rules_text(self.game, self.config)
            yield Markdown(to_ascii(text) if self.app.ascii_only else text, id="rules")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()

    def action_scroll(self, lines: int) -> None:
        self.query_one("#rules-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)
