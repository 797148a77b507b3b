"""Line: bound text, repainted only where it changed.

Cheaper than updating a Static by hand, and bindable. ``text`` is a ``str``,
drawn as it is (never parsed as markup: a prompt holds players' names), or
a Rich ``Text`` the screen styled (``widgets.text.styled``). When the text
changes, only the wrapped rows that differ are repainted, each from its
first changed cell to its last: a prompt that changes one word of one row
costs that stretch of that row, not the whole block with its blank rows.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from .glyphs import ascii_text, is_ascii
from .looks import KeptLooks, text_look
from .plain import PlainLines
from .rows import RowRepaint, char_looks
from .text import as_text


class Line(KeptLooks, PlainLines, RowRepaint, Widget, can_focus=False):
    DEFAULT_CSS = """
    Line { height: auto; }
    """

    # Not laid out again by itself: a layout reflows the whole screen, and
    # the title and the prompt change on nearly every move (40 keys of
    # Gemelos against the computer: 112 screen layouts, 80 without them).
    # The watcher asks for one only where the text's rows or width set the
    # widget's size.
    text: reactive[str | Text] = reactive("", repaint=False)

    def _text(self) -> Text:
        text = as_text(self.text, overflow="fold")
        return ascii_text(text) if is_ascii(self) else text

    _rows_of: tuple[object, list[tuple[str, tuple]]] | None = None  # the last rows worked out, and for what

    def _rows(self) -> list[tuple[str, tuple]]:
        """The rows on screen: (plain text, what each character looks like),
        so a change of style alone also counts as a change, and only the
        cells that changed are repainted. Asked as the text changes and
        again as it is drawn: wrapped once."""
        width = max(1, self.content_size.width)
        mark = (self.look(), width)
        if self._rows_of is not None and self._rows_of[0] == mark:
            return self._rows_of[1]
        lines = self._text().wrap(self.app.console, width)
        rows = []
        for line in lines:
            plain = line.plain.rstrip()
            rows.append((plain, char_looks(line, len(plain))))
        self._rows_of = (mark, rows)
        return rows

    def watch_text(self) -> None:
        if not self.is_mounted:
            return
        rows = self._rows()
        height, width = self.styles.height, self.styles.width
        if (width is not None and width.is_auto) or (
            (height is None or height.is_auto) and (self._shown is None or len(self._shown[1]) != len(rows))
        ):
            self.refresh(layout=True)
            return
        self.repaint_rows(rows)

    def look(self) -> object:
        return text_look(self.text), is_ascii(self)

    def render(self) -> Text:
        self.shown(self._rows())
        return self._text()
