"""StakeBar: the amount a player is about to wager, and (second line) a
note on what it is worth.

Display only: the screen owns the keys (←/→ to change, Enter to place) and
passes ``amount``, the limits and a ``note`` (chips, chances) down.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from garito.core.i18n import _

from .glyphs import glyphs, is_ascii
from .looks import KeptLooks
from .plain import PlainLines


class StakeBar(KeptLooks, PlainLines, Widget, can_focus=False):
    DEFAULT_CSS = """
    StakeBar { height: 2; }
    """
    COMPONENT_CLASSES = {"stakebar--amount", "stakebar--note"}

    amount: reactive[int] = reactive(0)
    low: reactive[int] = reactive(0)
    high: reactive[int] = reactive(0)
    note: reactive[str] = reactive("")
    active: reactive[bool] = reactive(False)  # blank (but keeping its place) when not

    def __init__(self, label: str = "Stake", **kwargs) -> None:
        super().__init__(**kwargs)
        self.label = label

    def look(self) -> tuple:
        # The bar comes and goes with the turn (Decimus, Barras), at the
        # same amount and limits: a look drawn before costs a lookup.
        return self.active, self.label, self.amount, self.low, self.high, self.note, is_ascii(self)

    def render(self) -> Text:
        g = glyphs(is_ascii(self))
        text = Text(no_wrap=True, overflow="ellipsis")
        if not self.active:
            return text
        text.append(f"{self.label} ")
        text.append(
            f"{g['left']} {self.amount:>2} {g['right']}", self.get_component_rich_style("stakebar--amount")
        )
        text.append(
            "  " + _("limits {low}{range}{high}").format(low=self.low, range=g["range"], high=self.high)
        )
        if self.note:
            text.append("\n" + self.note, self.get_component_rich_style("stakebar--note"))
        return text
