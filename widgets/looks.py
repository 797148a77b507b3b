"""Keep what a widget whose few looks come back drew for each of them.

The key bar swings between the same few sets of keys as a match goes on
(Roll, then Hurry while the computer moves, then Roll again), and Textual
draws its line anew each time: the text turned into cells, the widget's
style and the app's colour filter laid over them, about 1 ms a paint at
80×24, two or three paints a key. A widget with this mixin names its look
(``look()``: every value its ``render`` draws from) and keeps the lines of
the last few looks, so a look drawn before costs a lookup. The lines are
Textual's own, kept from the first time: what is drawn is the same to the
cell.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

# A mixin of Widgets: the type checker sees it as one.
_Base = Widget if TYPE_CHECKING else object

LOOKS = 16  # looks kept per widget: a screen's key bar has a handful


class KeptLooks(_Base):  # type: ignore[misc, valid-type]
    """Mixin for a render() widget: ``look()`` returns a hashable value
    that holds everything ``render`` draws from, but for the styles, which
    the mixin adds itself.

    A widget that repaints only some rows (``RowRepaint``) may use it too:
    a kept look leaves Textual's own caches as they were, with every row
    marked since their last drawing still marked, so the next look not
    kept is drawn from them right."""

    _looks: LRUCache[Hashable, list[Strip]] | None = None

    def look(self) -> Hashable:
        raise NotImplementedError

    def render_lines(self, crop: Region) -> list[Strip]:
        if self.text_selection is not None:  # a mouse selection is drawn over the text
            return super().render_lines(crop)
        # Beside the look, everything Textual draws it with: the size, the
        # style and the component classes' styles (colours follow the theme
        # and the screen under it), the opacity and the app's line filters
        # (ASCII, ANSI colours).
        components = component_mark(self)
        key = (
            self.look(),
            self.size,
            crop,
            self.visual_style,
            components,
            self.opacity,
            tuple(self.get_line_filters()),
        )
        if self._looks is None:
            self._looks = LRUCache(LOOKS)
        lines = self._looks.get(key)
        if lines is None:
            lines = super().render_lines(crop)
            self._looks.set(key, lines)
        return lines


def text_look(content: str | Text) -> Hashable:
    """A ``str`` or a Rich ``Text`` as a look: its characters and styles."""
    if isinstance(content, str):
        return content
    return (
        content.plain,
        tuple(content.spans),
        content.style,
        content.justify,
        content.overflow,
        content.no_wrap,
        content.end,
    )


def component_styles(widget: Widget) -> dict[str, Style]:
    """The Rich style of each of the widget's component classes, worked out
    again only when a style they come from changed (the test Textual makes
    for the widget's own style): Textual forgets them at every refresh, and
    asking for them anew was a quarter of a kept look's cost and most of a
    score table's rows."""
    mark = component_mark(widget)
    kept = widget.__dict__.get("_component_styles_kept")
    if kept is None or kept[0] != mark:
        kept = (mark, {name: widget.get_component_rich_style(name) for name in widget.COMPONENT_CLASSES})
        widget.__dict__["_component_styles_kept"] = kept
    return kept[1]


def component_mark(widget: Widget) -> Hashable:
    """What the component classes' styles come from (``component_styles``)."""
    names = _sorted_names(type(widget))
    return (
        widget.visual_style,
        widget.styles._cache_key,
        tuple(widget._component_styles[name]._cache_key for name in names),
    )


_NAMES: dict[type, tuple[str, ...]] = {}


def _sorted_names(kind: type) -> tuple[str, ...]:
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = tuple(sorted(kind.COMPONENT_CLASSES))  # type: ignore[attr-defined]
    return names
