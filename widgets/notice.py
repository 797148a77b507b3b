"""Notice: a titled box shown over the table in place, for a round's result
and for the match's end.

A pushed dialog screen makes Textual repaint the whole terminal (17–28 KB
at 80×24, 40–110 ms), on opening and on closing. A box laid out in the
game screen, moved into view and out again, cost a layout of the whole
screen each way (1.2 ms of arranging every widget, then their sizes
checked and the box's text wrapped and drawn anew: 4 ms a layout, two a
round, measured at Gemelos). A Notice is never laid out: it stays in the
screen (its styles follow the theme and the ASCII mode, as any widget's)
with ``display: none``, draws its own lines when it opens, and the
screen's compositor lays them over the table
(``widgets.compositor.RowCompositor.overlay``). Opening it draws its
region, closing it what was under it, and nothing else.

Its lines are drawn as Textual draws such a box: the same styles, borders,
padding and wrapping, the body and the keys' line each by its own (hidden)
widget's styles, laid into the box's content as the compositor would lay
them (a test holds the cells to Textual's own drawing of the box). It never
takes focus: the screen routes the keys to it while it is open.
"""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from garito.core.i18n import N_, _

from .glyphs import ascii_text, is_ascii, to_ascii

WIDTH = 52
CONTINUE = N_("Space / Enter: continue")  # a round's result: its keys' line


class NoticeBody(Widget):
    """The styles of the result's text (names in it are text, never markup)."""


class NoticeKeys(Widget):
    """The styles of the line that says what the keys do."""


class Notice(Widget, can_focus=False):
    body: Text | str = ""
    title = ""
    keys = ""
    _width = WIDTH
    _screen_size: Size | None = None  # the screen's size when it was opened
    _open = False
    _shown = False  # drawn over the table (after the screen's next refresh)
    box = Region()  # where it is drawn, on the screen
    _lines: tuple[object, list[Strip]] | None = None  # (what they were drawn from, the box's lines)

    DEFAULT_CSS = """
    Notice {
        display: none;
        position: absolute;  /* laid out only where the compositor cannot overlay it */
        overlay: screen;
        border: round $accent;
        border-title-style: bold;
        border-title-color: $text-accent;
        background: $panel;
        padding: 0 1;
    }
    Notice > NoticeKeys { color: $text-muted; margin-top: 1; text-align: center; }
    Notice > * { display: none; }  /* their styles draw the box; they are never laid out */
    """

    def compose(self):
        yield NoticeBody()
        yield NoticeKeys()

    def open(
        self, title: str, body: Text | str, size: Size, keys: str | None = None, width: int = WIDTH
    ) -> None:
        """Show ``body`` under ``title``, centred in a screen of ``size``, ``width``
        wide, with ``keys`` (what the keys do now) under it."""
        keys = _(CONTINUE) if keys is None else keys
        if is_ascii(self):
            title, body, keys = to_ascii(title), ascii_text(body), to_ascii(keys)
        self.title, self.body, self.keys, self._width, self._screen_size = title, body, keys, width, size
        self._lines = None
        self._open = True
        # After the screen's next refresh: what ended the round (the last
        # roll, in the log) is drawn first, whole, and the box over it then.
        self.call_after_refresh(self._show)

    def _show(self) -> None:
        # The screen may have gone meanwhile (a rematch's new match came in
        # the same refresh): its boxes are unmounted, nothing to show.
        if not self.is_attached or not self.query(NoticeBody):
            return
        if self._open and self._screen_size is not None:
            width, size = self._width, self._screen_size
            height = len(self.render_box())
            self._shown = True
            self._place(
                Region(max(0, (size.width - width) // 2), max(0, (size.height - height) // 2), width, height)
            )

    def fit(self, size: Size) -> None:
        """Centred again in a screen of ``size`` (the terminal's new size), if open."""
        if self._open and size != self._screen_size:
            self.open(self.title, self.body, size, self.keys, self._width)

    def close(self) -> None:
        self._open = False
        if self._shown:
            self._shown = False
            self._place(None)

    @property
    def is_open(self) -> bool:
        return self._open

    def _place(self, box: Region | None) -> None:
        from .compositor import RowCompositor

        self.box = box or Region()
        screen = self.screen
        compositor = screen._compositor
        if isinstance(compositor, RowCompositor):
            compositor.set_overlay(self if box else None, box)
            # An update of the screen, for regions no widget marked. Not
            # screen.refresh(region): Textual repaints only the screen's own
            # regions then, and the widgets marked with them (the key bar,
            # changed with the box) wait for their next change.
            screen._dirty_widgets.add(screen)
            screen.check_idle()
        else:
            # Textual's own compositor (one this was not written against):
            # laid out as a widget over the others.
            self.styles.offset = (box.x, box.y) if box else (0, 0)
            self.styles.width, self.styles.height = (box.width, box.height) if box else (0, 0)
            self.display = box is not None

    # ------------------------------------------------------------ drawing

    def render_box(self) -> list[Strip]:
        """The box's lines, drawn as Textual draws a box laid out with these
        styles: the body and the keys' line as their own widgets, under the
        box's border, padding and title."""
        body, keys = self.query_one(NoticeBody), self.query_one(NoticeKeys)
        mark = (
            self.title,
            id(self.body),
            self.keys,
            self._width,
            self._screen_size,
            self.visual_style,
            body.visual_style,
            keys.visual_style,
            self.styles._cache_key,
            keys.styles._cache_key,
            tuple(self.get_line_filters()),
        )
        if self._lines is not None and self._lines[0] == mark:
            return self._lines[1]
        width = self._width
        inner = width - self.styles.gutter.width
        text = self.body if isinstance(self.body, Text) else Content(str(self.body))
        gap: list[Strip | None] = [None] * keys.styles.margin.top
        rows = _drawn(body, text, inner) + gap + _drawn(keys, Content(self.keys), inner)
        screen = self._screen_size or Size(width, len(rows) + 2)
        height = min(len(rows) + self.styles.gutter.height, max(5, screen.height - 2))
        content = Size(inner, height - self.styles.gutter.height)
        # Where no child is, the box's own content (its background), as
        # Textual draws a container.
        own = Visual.to_strips(self, visualize(self, self.render()), inner, content.height, self.visual_style)

        def content_line(y: int) -> Strip:
            row = rows[y] if y < len(rows) else None
            return own[y] if row is None else row

        base, background = self.background_colors
        app = self.app
        lines = self._styles_cache.render(
            self.styles,
            Size(width, height),
            base,
            background,
            content_line,
            self.get_line_filters(),
            (Content(self.title), *self._get_title_style_information(base)),
            None,
            content_size=content,
            padding=self.styles.padding,
            crop=Region(0, 0, width, height),
            opacity=self.opacity,
            ansi_theme=app.ansi_theme,
            native_ansi=app.native_ansi_color,
        )
        self._styles_cache.clear()  # drawn whole each time: nothing of it is kept there
        self._lines = (mark, lines)
        return lines

    def render_lines(self, crop: Region) -> list[Strip]:
        """The box's lines in ``crop`` (what the compositor shows of it)."""
        lines = self.render_box()
        return [line.crop(crop.x, crop.right) for line in lines[crop.y : crop.bottom]]


def _drawn(widget: Widget, content: Text | Content, width: int) -> list[Strip | None]:
    """``content`` drawn ``width`` wide by ``widget``'s styles, as Textual
    draws a widget of auto height showing it (its lines before any filter:
    the box's filters are laid over all of it)."""
    visual = visualize(widget, content, markup=False)
    strips = Visual.to_strips(widget, visual, width, None, widget.visual_style)
    base, background = widget.background_colors
    app = widget.app
    size = Size(width, len(strips))
    drawn = widget._styles_cache.render(
        widget.styles,
        size,
        base,
        background,
        strips.__getitem__,
        [],
        None,
        None,
        content_size=size,
        padding=widget.styles.padding,
        crop=size.region,
        opacity=widget.opacity,
        ansi_theme=app.ansi_theme,
        native_ansi=app.native_ansi_color,
    )
    widget._styles_cache.clear()
    return list(drawn)
