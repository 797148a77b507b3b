"""PlainLines: a widget with nothing around its text draws its lines
without Textual's per-line styling pass.

Textual (8.2.8) draws every line of a widget through its styles cache:
each line's border, padding, outline, hatch, tint and opacity are worked
out, a new line is made of the content's segments, and the app's filters
(its colours) are laid over that new line, so nothing of them is kept from
one drawing to the next. For a widget with none of those (the key bar, a
log, a score table, a prompt) that pass is the content line, made as wide
as the widget, filtered: here it is exactly that, on the content line
itself, so a line drawn before (a die's face, a log line moved up a row)
keeps its filtered look (measured at Gemelos: 17% of the app's time in
that pass, most of it for lines that had not changed). Padding at the left
and right (the title, the prompt, the stake bar) is two blank cells' runs
around the content line, as the pass makes them.

What is drawn is what Textual draws, to the cell (a test compares the two
for every such widget, in every theme); any widget with a border, padding
above or below, an outline, hatch, tint, opacity below 1, a title, or a
link under the mouse is drawn by Textual as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from textual.css.styles import RenderStyles
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style

if TYPE_CHECKING:
    from textual.widget import Widget as _Base
else:
    _Base = object

_BACKGROUNDS: dict[tuple[object, object], object] = {}  # (base, own) colour -> the line's Rich style


def plain(widget) -> bool:
    """Whether Textual's styling pass would leave ``widget``'s content lines
    as they are (but for their width and the app's filters)."""
    styles: RenderStyles = widget.styles
    gutter = styles.gutter
    if gutter.top or gutter.bottom or widget._border_title is not None or widget._border_subtitle is not None:
        return False
    if any(edge for edge, _ in styles.outline) or any(edge for edge, _ in styles.border):
        return False
    if styles.tint.a or widget.opacity != 1.0 or styles.text_opacity != 1.0:
        return False
    if styles.has_rule("hatch") and styles.hatch != "none":
        return False
    return not (widget.auto_links and widget.hover_style._link_id)


def _background(base, own):
    key = (base, own)
    style = _BACKGROUNDS.get(key)
    if style is None:
        if len(_BACKGROUNDS) > 256:
            _BACKGROUNDS.clear()
        style = _BACKGROUNDS[key] = Style(background=base + own).rich_style
    return style


def _blank(width: int, style) -> list[Segment]:
    return [Segment(" " * width, style)] if width else []


class PlainLines(_Base):
    """Mixin for a Widget: its lines, when it is ``plain``, drawn as
    Textual's styling pass would draw them, without the pass."""

    def render_lines(self, crop: Region) -> list[Strip]:
        if self.BLANK or not plain(self):
            return super().render_lines(crop)
        base, background = self.background_colors
        inner = _background(base, background)
        width, height = self.region.size
        _top, right, _bottom, left = self.styles.gutter  # padding alone: there is no border
        inside = width - left - right
        filters = self.get_line_filters()
        render_line = self.render_line
        lines: list[Strip] = []
        for y in crop.line_range:
            line = (render_line(y) if y < height else Strip.blank(inside, inner)).adjust_cell_length(
                inside, inner
            )
            if left or right:
                line = Strip([*_blank(left, inner), *line, *_blank(right, inner)], width)
            for line_filter in filters:
                line = line.apply_filter(line_filter, background)
            lines.append(line)
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            lines = [line.crop(x1, x2) for line in lines]
        return lines
