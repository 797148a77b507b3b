"""Choice: a one-line picker cycled with ←/→ (or h/l, space), for forms that
must fit 80×24. Posts ``Choice.Changed`` with the new value.

The arrows round the value say it can be changed: a choice of one value, or
a disabled one, shows its value without them (in their place, so columns
stay aligned), and one value is never focused."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .glyphs import glyphs, is_ascii


class Choice(Widget, can_focus=True):
    DEFAULT_CSS = """
    Choice { height: 1; width: auto; padding: 0 1 0 0; }
    Choice:focus { background: $accent 30%; text-style: bold; }
    Choice:disabled { color: $text-disabled; }
    """
    BINDINGS = [
        Binding("left,h", "step(-1)", "Previous", show=False),
        Binding("right,l,space", "step(1)", "Next", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
    ]

    class Changed(Message):
        def __init__(self, choice: Choice, value: Any) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    index: reactive[int] = reactive(0)

    def __init__(
        self,
        options: list[tuple[str, Any]],
        value: Any = None,
        *,
        label: str = "",
        label_width: int = 0,
        width: int = 0,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.options = list(options)
        self.label = label
        self.label_width = label_width
        self.value_width = width or max(len(t) for t, _ in self.options)
        values = [v for _, v in self.options]
        self.set_reactive(Choice.index, values.index(value) if value in values else 0)
        self.can_focus = len(self.options) > 1  # nothing to change: Tab passes it by

    @property
    def value(self) -> Any:
        return self.options[self.index][1]

    @value.setter
    def value(self, value: Any) -> None:
        self.index = [v for _, v in self.options].index(value)

    def watch_index(self, old: int, new: int) -> None:
        if old != new:
            self.post_message(self.Changed(self, self.value))

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.options)

    def action_jump(self, where: int) -> None:
        self.index = where % len(self.options)

    def on_click(self) -> None:
        self.action_step(1)

    def render(self) -> Text:
        g = glyphs(is_ascii(self))
        text = Text(no_wrap=True)
        if self.label:
            text.append(f"{self.label:<{self.label_width}} ")
        changes = len(self.options) > 1 and not self.disabled
        left, right = (g["left"], g["right"]) if changes else (" ", " ")
        text.append(f"{left} {self.options[self.index][0]:<{self.value_width}} {right}")
        return text
