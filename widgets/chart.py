"""Chart: a small line plot of a few series over time, in text cells.

Each series gets its own marker shape as well as its own colour (so it
reads without colour, and in ASCII), with a one-line legend under the plot.
Where several series meet in one cell (players level on chips) the cell
shows how many, and the legend says so: no series hides behind another.
``plot_lines`` does the drawing and is used on its own where a plot goes in
a dialog's text.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from garito.core.i18n import _

from .glyphs import is_ascii
from .plain import PlainLines

MARKERS = "●■▲◆✚✖"
ASCII_MARKERS = "o#^*+x"
STYLES = ("bold cyan", "bold yellow", "bold magenta", "bold green", "bold red", "bold blue")


def plot_lines(
    series: tuple[tuple[int, ...], ...],
    labels: tuple[str, ...],
    width: int,
    height: int,
    *,
    ascii_only: bool = False,
) -> Text:
    """The plot as text: ``height`` rows of ``width`` cells (axis included),
    then the legend. A cell shared by n series shows the digit n."""
    markers = ASCII_MARKERS if ascii_only else MARKERS
    out = Text(no_wrap=True, overflow="crop")
    values = [v for s in series for v in s]
    if not values or height < 2:
        return out
    # The values' own range, not from zero: chip counts drift around a start.
    top, bottom = max(values), min(values)
    if top == bottom:  # a flat line sits in the middle, between honest labels
        top, bottom = top + 1, bottom - 1
    axis_w = len(str(top)) + 1
    plot_w = max(1, width - axis_w)
    points = max(len(s) for s in series)
    grid: list[list[set[int]]] = [[set() for _ in range(plot_w)] for _ in range(height)]
    span = max(1, top - bottom)
    for k, s in enumerate(series):
        for i, v in enumerate(s):
            # The latest points get the rightmost columns; a long session is
            # squeezed so the whole of it fits.
            x = i if points <= plot_w else round(i * (plot_w - 1) / (points - 1))
            y = height - 1 - round((v - bottom) * (height - 1) / span)
            grid[y][x].add(k)
    shared = sorted({len(cell) for row in grid for cell in row if len(cell) > 1})
    for row in range(height):
        label = str(top) if row == 0 else str(bottom) if row == height - 1 else ""
        out.append(f"{label:>{axis_w - 1}}{'|' if ascii_only else '┤'}", "dim")
        for cell in grid[row]:
            if not cell:
                out.append(" ")
            elif len(cell) > 1:
                out.append(str(len(cell)), "bold")
            else:
                (k,) = cell
                out.append(markers[k % len(markers)], STYLES[k % len(STYLES)])
        out.append("\n")
    items = [(markers[k % len(markers)], STYLES[k % len(STYLES)], name) for k, name in enumerate(labels)]
    if shared:
        items.append(("/".join(map(str, shared)), "bold", _("together")))
    x = 0
    for mark, style, name in items:
        item = f" {name}  "
        if x and x + len(mark) + len(item) > width:  # the legend wraps rather than being cut
            out.append("\n")
            x = 0
        out.append(mark, style)
        out.append(item)
        x += len(mark) + len(item)
    return out


def legend_height(labels: tuple[str, ...], width: int) -> int:
    """How many lines the legend takes at ``width`` (without the item for
    series that meet, which the plot adds when it has some)."""
    lines, x = 1, 0
    for name in labels:
        item = len(name) + 4  # marker, space, name, two spaces
        if x and x + item > width:
            lines, x = lines + 1, 0
        x += item
    return lines


class Chart(PlainLines, Widget, can_focus=False):
    """Plots ``series`` (one tuple of values per label) to fit its size."""

    DEFAULT_CSS = """
    Chart { height: 1fr; }
    """

    series: reactive[tuple[tuple[int, ...], ...]] = reactive(())
    labels: reactive[tuple[str, ...]] = reactive(())

    def render(self) -> Text:
        width, height = self.size
        rows = max(2, height - legend_height(self.labels, width))
        text = plot_lines(self.series, self.labels, width, rows, ascii_only=is_ascii(self))
        over = len(text.plain.split("\n")) - height
        if over > 0 and rows > 2:  # the legend's "level" item took a line more
            text = plot_lines(self.series, self.labels, width, max(2, rows - over), ascii_only=is_ascii(self))
        return text
