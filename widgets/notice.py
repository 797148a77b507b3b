"""Notice: a titled box shown over the table in place, for a round's result.

A pushed dialog screen makes Textual repaint the whole terminal (17–28 KB
at 80×24, 40–110 ms), on opening and on closing. A Notice is part of the
game screen, an overlay kept laid out off screen and moved into view:
``display`` would restyle all its siblings (for the ``:last-child``-style
pseudo-classes) and repaint everything; ``visibility`` resizes its children
from nothing, which paints the box a second time. Moved, it writes its own
region, and moved away, what was under it. It never
takes focus, because a focus change restyles every widget of the screen;
the screen routes the keys to it while it is open."""

from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from garito.core.i18n import _

from .glyphs import ascii_text, is_ascii, to_ascii

WIDTH = 52
OFF_SCREEN = (0, 1000)  # kept laid out there, so showing it resizes nothing


class Notice(Vertical, can_focus=False):
    body: Text | str = ""
    _open = False
    _place = (0, 0)

    DEFAULT_CSS = """
    Notice {
        offset: 0 1000;
        overlay: screen;
        position: absolute;
        width: 52;
        height: auto;
        border: round $accent;
        border-title-style: bold;
        border-title-color: $text-accent;
        background: $panel;
        padding: 0 1;
    }
    Notice > .notice-keys { color: $text-muted; margin-top: 1; text-align: center; width: 100%; }
    """

    def compose(self):
        yield Static(id="notice-body", markup=False)  # a round's result names players: text
        yield Static(_("Space / Enter: continue"), classes="notice-keys")

    def open(self, title: str, body: Text | str, size) -> None:
        """Show ``body`` under ``title``, centred in a screen of ``size``."""
        if is_ascii(self):
            title, body = to_ascii(title), ascii_text(body)
        self.border_title = Content(title)  # text, never markup
        self.body = body
        self.query_one("#notice-body", Static).update(body)
        inner = WIDTH - 4
        # Wrapped as the body will be, by words: counting characters fell a
        # line short where a long name pushed a word over.
        text = body if isinstance(body, Text) else Text(str(body))
        lines = len(text.wrap(self.app.console, inner))
        height = min(lines + 4, max(5, size.height - 2))
        self.styles.max_height = size.height - 2
        self._place = (max(0, (size.width - WIDTH) // 2), max(0, (size.height - height) // 2))
        self._open = True
        # Moved on screen once its new content is laid out off screen, where
        # it costs nothing: then only its place changes, and it is drawn once.
        self.call_after_refresh(self._show)

    def _show(self) -> None:
        if self._open:
            self.styles.offset = self._place

    def close(self) -> None:
        self._open = False
        self.styles.offset = OFF_SCREEN

    @property
    def is_open(self) -> bool:
        return self._open
