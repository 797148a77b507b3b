"""DiceTray: a row of dice drawn as their solids' faces.

Each die is a ``Die(value, sides, mark)``: value 0 draws a blank (not yet
rolled) die; ``mark`` is "" or one of "win", "lose", "held", "dim", "hot", which
the CSS of the tray colours (component classes), so a theme can restyle
them. d8 faces are triangles, d6 faces show pips, other dice a numbered box.
"""

from __future__ import annotations

from textual.geometry import Region
from textual.reactive import reactive
from textual.widget import Widget

from .glyphs import is_ascii
from .looks import KeptLooks, component_styles
from .strips import Run, StripRows
from .values import Die

__all__ = ["DiceTray", "Die", "face_lines"]


_PIPS = {
    1: ("   ", " o ", "   "),
    2: ("o  ", "   ", "  o"),
    3: ("o  ", " o ", "  o"),
    4: ("o o", "   ", "o o"),
    5: ("o o", " o ", "o o"),
    6: ("o o", "o o", "o o"),
}


def face_lines(die: Die, ascii_only: bool) -> list[str]:
    """The die's picture: lines of equal width (five for a d6, four else)."""
    v = die.label or (str(die.value) if die.value else "?")
    if die.sides == 8:
        # A single-cell apex keeps every row's inside odd, so the number
        # sits in the middle.
        if ascii_only:
            return ["   ^   ", "  / \\  ", f" /{v:^3}\\ ", "/_____\\"]
        return ["   ▲   ", "  ╱ ╲  ", f" ╱{v:^3}╲ ", "╱▁▁▁▁▁╲"]
    if die.sides == 6 and not die.label:
        pip = "o" if ascii_only else "●"
        blank = ("       ", f"   {v}   ", "       ")
        rows = [" " + " ".join(r).replace("o", pip) + " " for r in _PIPS[die.value]] if die.value else blank
        if ascii_only:
            return ["+-------+", *[f"|{r}|" for r in rows], "+-------+"]
        return ["┌───────┐", *[f"│{r}│" for r in rows], "└───────┘"]
    if ascii_only:
        return ["+-----+", "|     |", f"|{v:^5}|", "+-----+"]
    return ["┌─────┐", "│     │", f"│{v:^5}│", "└─────┘"]


class DiceTray(KeptLooks, StripRows, Widget, can_focus=False):
    """Shows ``dice``, with a one-line ``caption`` under them."""

    DEFAULT_CSS = """
    DiceTray { height: auto; min-height: 5; }
    """
    COMPONENT_CLASSES = {
        "dicetray--win",
        "dicetray--lose",
        "dicetray--held",
        "dicetray--dim",
        "dicetray--hot",
        "dicetray--caption",
    }

    # Not repainted by themselves: the watchers repaint only the dice (and
    # the caption) that changed, so a roll of one die over SSH costs one die.
    dice: reactive[tuple[Die, ...]] = reactive((), repaint=False)
    caption: reactive[str] = reactive("", repaint=False)

    def __init__(self, gap: int = 2, **kwargs) -> None:
        super().__init__(**kwargs)
        self.gap = gap  # columns between two dice

    _shown_size = None

    def watch_dice(self, old: tuple[Die, ...], new: tuple[Die, ...]) -> None:
        if len(old) != len(new) or not self.is_mounted or self._shown_size != self.size:
            self.refresh()
            return
        ascii_only = is_ascii(self)
        x = 0
        regions = []
        for a, b in zip(old, new):
            width = len(face_lines(b, ascii_only)[0])
            if a != b:
                regions.append(Region(x, 0, width, len(face_lines(b, ascii_only))))
            x += width + self.gap
        if regions:
            # One span from the first changed die to the last: separate
            # regions on the same lines go out as overlapping writes.
            self.refresh(Region.from_union(regions))

    def watch_caption(self, old: str, new: str) -> None:
        if not self.is_mounted or self._shown_size != self.size:
            self.refresh()
            return
        height = max((len(face_lines(d, is_ascii(self))) for d in self.dice), default=0)
        self.refresh(Region(0, height, self.size.width, max(1, self.size.height - height)))

    def look(self) -> object:
        return self.dice, self.caption, self.gap, is_ascii(self)

    def runs(self) -> list[list[Run]]:
        """Each row of the dice, then the caption. Dice of one mark side by
        side make one run (gap included): fewer escape codes on the wire."""
        self._shown_size = self.size
        ascii_only = is_ascii(self)
        pictures = [(face_lines(d, ascii_only), d.mark) for d in self.dice]
        height = max((len(p) for p, _ in pictures), default=0)
        rows = []
        for row in range(height):
            runs: list[Run] = []
            run: tuple[str, ...] = ()
            run_mark = None
            for i, (lines, mark) in enumerate(pictures):
                piece = (" " * self.gap if i else "") + (
                    lines[row] if row < len(lines) else " " * len(lines[0])
                )
                if run and mark != run_mark:
                    runs.append((run, self._style(run_mark)))
                    run = ()
                run, run_mark = (*run, piece), mark
            runs.append((run, self._style(run_mark)))
            rows.append(runs)
        if self.caption:  # one row a line (Decimus's is two)
            style = component_styles(self)["dicetray--caption"]
            rows += [[(line, style)] for line in self.caption.split("\n")]
        elif rows:
            rows.append([])
        return rows

    def _style(self, mark: str | None):
        return component_styles(self)[f"dicetray--{mark}"] if mark else ""
