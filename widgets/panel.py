"""Panel: a titled, bordered box of the table (the ``panel`` class of the
app's CSS), so a screen says ``with Panel("Log", id="log-panel"):``."""

from __future__ import annotations

from textual.containers import Vertical
from textual.content import Content


class Panel(Vertical):
    def __init__(self, title: str, *, classes: str = "", **kwargs) -> None:
        super().__init__(classes=f"panel {classes}".strip(), **kwargs)
        self.border_title = Content(title)  # a title is text, never markup
