"""Notice: a titled box shown over the table in place, for a round's result
and for the match's end.

A pushed dialog screen makes Textual repaint the whole terminal (17–28 KB
at 80×24, 40–110 ms), on opening and on closing. A Notice is part of the
game screen, an overlay kept laid out off screen and moved into view:
``display`` would restyle all its siblings (for the ``:last-child``-style
pseudo-classes) and repaint everything; ``visibility`` resizes its children
from nothing, which paints the box a second time. Moved, it writes its own
region, and moved away, what was under it. It never
takes focus, because a focus change restyles every widget of the screen;
the screen routes the keys to it while it is open.

Its new content and its place are set together, after the screen has
drawn what ended the round, so opening it lays the screen out once (a
layout of the game screen is about 2.5 ms at 80×24).
The box and its body never scroll: a change of their size does not lay
the screen out again, which Textual does for any widget whose virtual
(scrollable) size changed, drawing the box a second time."""

from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Static

from garito.core.i18n import N_, _

from .glyphs import ascii_text, is_ascii, to_ascii

WIDTH = 52
CONTINUE = N_("Space / Enter: continue")  # a round's result: its keys' line
OFF_SCREEN = (0, 1000)  # kept laid out there, so showing it resizes nothing


class NoticeBody(Static):
    """The result's text (names in it are text, never markup)."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)


class Notice(Vertical, can_focus=False):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)
    body: Text | str = ""
    _title = ""
    _keys = ""
    _width = WIDTH
    _screen_size = None  # the screen's size when it was opened
    _max_height = 0
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
        yield NoticeBody(id="notice-body", markup=False)  # a round's result names players: text
        yield Static(_(CONTINUE), classes="notice-keys", markup=False)  # names, at a table

    def open(self, title: str, body: Text | str, size, keys: str | None = None, width: int = WIDTH) -> None:
        """Show ``body`` under ``title``, centred in a screen of ``size``, ``width``
        wide, with ``keys`` (what the keys do now) under it."""
        keys = _(CONTINUE) if keys is None else keys
        if is_ascii(self):
            title, body, keys = to_ascii(title), ascii_text(body), to_ascii(keys)
        self._title, self.body, self._keys, self._width, self._screen_size = title, body, keys, width, size
        inner = width - 4
        # Wrapped as the body will be, by words: counting characters fell a
        # line short where a long name pushed a word over.
        text = body if isinstance(body, Text) else Text(str(body))
        lines = len(text.wrap(self.app.console, inner)) + len(Text(keys).wrap(self.app.console, inner))
        height = min(lines + 3, max(5, size.height - 2))
        self._max_height = size.height - 2
        self._place = (max(0, (size.width - width) // 2), max(0, (size.height - height) // 2))
        self._open = True
        # After the screen's next refresh: what ended the round (the last
        # roll, in the log) is drawn first, whole, and the box over it then.
        self.call_after_refresh(self._show)

    def _show(self) -> None:
        if self._open:
            self.border_title = Content(self._title)  # text, never markup
            self.query_one(NoticeBody).update(self.body)
            keys = self.query_one(".notice-keys", Static)
            if str(keys.content) != self._keys:
                keys.update(self._keys)
            if self.styles.width is None or self.styles.width.value != self._width:
                self.styles.width = self._width
            self.styles.max_height = self._max_height
            self.styles.offset = self._place

    def fit(self, size) -> None:
        """Centred again in a screen of ``size`` (the terminal's new size), if open."""
        if self._open and size != self._screen_size:
            self.open(self._title, self.body, size, self._keys, self._width)

    def close(self) -> None:
        self._open = False
        self.styles.offset = OFF_SCREEN

    @property
    def is_open(self) -> bool:
        return self._open
