"""Cards on the table and in a hand: ``MeldTable`` and ``Hand``.

They know nothing of any game's rules. A screen gives them ``Face``s (the
card's text, its colour, whether it is picked or fresh), which melds to
mark as wrong and notes to print under them, and a cursor; they lay the
cards out in rows, and a click posts ``Clicked`` with the card's place. Only
the rows that change are repainted (``RowRepaint``): moving the cursor over
SSH costs the two rows it leaves and enters.

A card reads ``7r``; picked it reads ``[7r]``, so a picked card differs by
more than colour; under the cursor it is drawn in reverse.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .glyphs import glyphs, is_ascii
from .plain import PlainLines
from .rows import RowRepaint, char_looks

NO_CURSOR = (-2, -2)


class Face(NamedTuple):
    text: str
    colour: str = ""  # a Rich colour; "" for the terminal's own
    picked: bool = False
    fresh: bool = False  # just drawn or just played: underlined


def _card(face: Face, cursor: bool) -> Text:
    # One style for the card and its margins: one escape sequence per card
    # (three cost twice the bytes over SSH), and the cursor a block around it.
    left, right = ("[", "]") if face.picked else (" ", " ")
    style = Style(color=face.colour or None, bold=True, underline=face.fresh, reverse=cursor)
    return Text(f"{left}{face.text}{right}", style)


class _Cards(PlainLines, RowRepaint, Widget, can_focus=False):
    """What both widgets share: rows of cards with a hit map for clicks.

    When only the look of some cards changed (the cursor moved, nothing was
    picked or moved), only those cards are repainted, not their rows."""

    _hits: list[tuple[int, int, int, tuple[int, int]]] = []
    _cells: dict[tuple[int, int, int], tuple] = {}  # (row, x0, x1) -> what the cell shows
    _shown_cells: dict[tuple[int, int, int], tuple] | None = None

    def _layout(self) -> list[Text]:
        raise NotImplementedError

    def _rows(self) -> list[tuple[str, tuple]]:
        return self._row_keys(self._layout())

    @staticmethod
    def _row_keys(rows: list[Text]) -> list[tuple[str, tuple]]:
        # The whole text, trailing spaces too: a card's margins are part of
        # its look (the cursor's block, an underline), so a row's repaint
        # must reach its last card's right margin, on the row as it was and
        # as it is.
        return [(t.plain, char_looks(t, len(t.plain))) for t in rows]

    def _changed(self) -> None:
        if not self.is_mounted:
            return
        before, cells_before = self._shown, self._shown_cells
        rows = self._rows()
        cells = dict(self._cells)
        if (
            before is not None
            and cells_before is not None
            and before[0] == self.content_size
            and [r[0] for r in before[1]] == [r[0] for r in rows]
            and cells.keys() == cells_before.keys()
        ):
            # the same text in the same places: only styles changed, cell by cell
            self._shown, self._shown_cells = (self.content_size, rows), cells
            changed = [k for k, v in cells.items() if cells_before[k] != v]
            if changed:
                self.refresh(*(Region(x0, row, x1 - x0, 1) for row, x0, x1 in changed))
            return
        self.repaint_rows(rows)

    def render(self) -> Text:
        rows = self._layout()
        self.shown(self._row_keys(rows))
        self._shown_cells = dict(self._cells)
        return Text("\n").join(rows)

    def _hit(self, x: int, y: int) -> tuple[int, int] | None:
        for row, x0, x1, place in self._hits:
            if row == y and x0 <= x < x1:
                return place
        return None


class MeldTable(_Cards):
    """Melds laid out in aligned columns (or one after another when that
    does not fit); a marked meld has a cross before it. ``slot`` (if set)
    is a last place to drop cards into a new meld, and the cursor may stand
    on it: ``(len(melds), 0)``."""

    DEFAULT_CSS = """
    MeldTable { height: 1fr; }
    """

    class Clicked(Message):
        def __init__(self, meld: int, index: int) -> None:
            super().__init__()
            self.meld = meld
            self.index = index

    melds: reactive[tuple[tuple[Face, ...], ...]] = reactive((), repaint=False)
    marked: reactive[tuple[bool, ...]] = reactive((), repaint=False)
    notes: reactive[tuple[str, ...]] = reactive((), repaint=False)
    cursor: reactive[tuple[int, int]] = reactive(NO_CURSOR, repaint=False)
    slot: reactive[str] = reactive("", repaint=False)
    empty: reactive[str] = reactive("", repaint=False)  # shown when there is no meld
    columns = 1  # melds per row as last laid out: the cursor's ↑/↓ step

    def watch_melds(self) -> None:
        self._changed()

    def watch_marked(self) -> None:
        self._changed()

    def watch_notes(self) -> None:
        self._changed()

    def watch_cursor(self) -> None:
        self._changed()

    def watch_slot(self) -> None:
        self._changed()

    def on_resize(self) -> None:
        self.refresh()

    def _blocks(self) -> list[tuple[Text, list[Any]]]:
        """Each meld (and the slot) as a block of text with its cards' places."""
        g = glyphs(is_ascii(self))
        blocks: list[tuple[Text, list[Any]]] = []
        for m, cards in enumerate(self.melds):
            bad = m < len(self.marked) and self.marked[m]
            block = Text(g["miss"] if bad else " ", "bold red" if bad else "")
            places = []
            for i, face in enumerate(cards):
                cell = _card(face, self.cursor == (m, i))
                places.append(
                    (block.cell_len, block.cell_len + cell.cell_len, (m, i), (face, self.cursor == (m, i)))
                )
                block.append_text(cell)
            blocks.append((block, places))
        if self.slot:
            m = len(self.melds)
            on = self.cursor[0] == m
            block = Text(" ")
            block.append(f"{self.slot} ", Style(dim=not on, reverse=on, italic=True))
            blocks.append((block, [(1, block.cell_len, (m, 0), (self.slot, on))]))
        return blocks

    def _layout(self) -> list[Text]:
        """The melds in aligned columns; when they would not fit the height,
        one after another, wrapping."""
        width = max(20, self.content_size.width)
        blocks = self._blocks()
        rows: list[Text] = []
        hits = []
        if not self.melds and self.empty:  # wrapped here: one Text per row on screen
            rows += Text(self.empty, "dim italic").wrap(self.app.console, width)
        cell = max((b.cell_len for b, _ in blocks), default=1)
        cols = max(1, (width + 1) // (cell + 1))
        grid_rows = -(-len(blocks) // cols)
        if grid_rows + len(self.notes) + len(rows) <= max(1, self.content_size.height) or cols == 1:
            self.columns = cols
            for r in range(grid_rows):
                line = Text()
                for k, (block, places) in enumerate(blocks[r * cols : (r + 1) * cols]):
                    x = k * (cell + 1)
                    line.append(" " * (x - line.cell_len))
                    hits += [(len(rows), x + a, x + b, place, look) for a, b, place, look in places]
                    line.append_text(block)
                rows.append(line)
        else:
            self.columns = 1
            line = Text()
            for block, places in blocks:
                if line.cell_len and line.cell_len + 1 + block.cell_len > width:
                    rows.append(line)
                    line = Text()
                if line.cell_len:
                    line.append(" ")
                x = line.cell_len
                hits += [(len(rows), x + a, x + b, place, look) for a, b, place, look in places]
                line.append_text(block)
            if line.cell_len:
                rows.append(line)
        for note in self.notes:  # wrapped here: one Text per row on screen
            rows += Text(note, "red").wrap(self.app.console, width)
        self._hits = [h[:4] for h in hits]
        self._cells = {(row, x0, x1): look for row, x0, x1, _place, look in hits}
        return rows

    def on_click(self, event: events.Click) -> None:
        place = self._hit(event.x - self.gutter.left, event.y - self.gutter.top)
        if place is not None:
            self.post_message(self.Clicked(*place))


class Hand(_Cards):
    """A player's cards in a row, wrapping; ``cursor`` is an index or -1."""

    DEFAULT_CSS = """
    Hand { height: auto; min-height: 1; }
    """

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    # Not laid out again by itself: a layout reflows the whole screen (a
    # card drawn or played changes the hand on most of Willie's moves); the
    # watcher asks for one only when the hand's rows are more or fewer.
    cards: reactive[tuple[Face, ...]] = reactive((), repaint=False)
    cursor: reactive[int] = reactive(-1, repaint=False)
    empty: reactive[str] = reactive("", repaint=False)

    def watch_cards(self) -> None:
        size = self.content_size
        if self.is_mounted and self.get_content_height(None, None, size.width) != size.height:
            self.refresh(repaint=False, layout=True)
        self._changed()

    def watch_cursor(self) -> None:
        self._changed()

    def _layout(self) -> list[Text]:
        width = max(10, self.content_size.width)
        rows, hits, line = [], [], Text()
        cells: dict[tuple[int, int, int], tuple] = {}
        if not self.cards:
            self._hits, self._cells = [], {}
            return [Text(self.empty, "dim italic")]
        for i, face in enumerate(self.cards):
            cell = _card(face, self.cursor == i)
            if line.cell_len + cell.cell_len > width:
                rows.append(line)
                line = Text()
            hits.append((len(rows), line.cell_len, line.cell_len + cell.cell_len, (i, 0)))
            cells[(len(rows), line.cell_len, line.cell_len + cell.cell_len)] = (face, self.cursor == i)
            line.append_text(cell)
        rows.append(line)
        self._hits = hits
        self._cells = cells
        return rows

    def get_content_height(self, container, viewport, width: int) -> int:
        total, line = 1, 0
        for face in self.cards:
            w = cell_len(face.text) + 2
            if line and line + w > width:
                total, line = total + 1, 0
            line += w
        return total

    def on_click(self, event: events.Click) -> None:
        place = self._hit(event.x - self.gutter.left, event.y - self.gutter.top)
        if place is not None:
            self.post_message(self.Clicked(place[0]))
