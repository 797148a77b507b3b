"""Line: one bound line of text (markup allowed), repainted only when its
``text`` changes. Cheaper than updating a Static by hand, and bindable."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class Line(Widget, can_focus=False):
    DEFAULT_CSS = """
    Line { height: auto; }
    """

    text: reactive[str] = reactive("")

    def render(self) -> Text:
        return Text.from_markup(self.text, overflow="fold")
