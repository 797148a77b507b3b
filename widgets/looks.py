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

    _components: tuple[object, tuple[Style, ...]] | None = None

    def look(self) -> Hashable:
        raise NotImplementedError

    def _component_looks(self) -> tuple[Style, ...]:
        """The component classes' styles, worked out again only when a
        style they come from changed (Textual's own test for the widget's
        style): every refresh forgets Textual's copy, and asking for them
        anew was a quarter of a kept look's cost."""
        names = sorted(self.COMPONENT_CLASSES)
        mark = (
            self.visual_style,
            self.styles._cache_key,
            tuple(self._component_styles[name]._cache_key for name in names),
        )
        if self._components is None or self._components[0] != mark:
            self._components = (mark, tuple(self.get_component_rich_style(name) for name in names))
        return self._components[1]

    def render_lines(self, crop: Region) -> list[Strip]:
        if self.text_selection is not None:  # a mouse selection is drawn over the text
            return super().render_lines(crop)
        # Beside the look, everything Textual draws it with: the size, the
        # style and the component classes' styles (colours follow the theme
        # and the screen under it), the opacity and the app's line filters
        # (ASCII, ANSI colours).
        components = self._component_looks()
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
