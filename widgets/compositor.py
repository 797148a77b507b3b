"""RowCompositor: Textual's compositor, drawing for a partial update only
what the terminal is sent.

Textual (8.2.8) answers a partial update (some widgets, or regions, marked
dirty) by drawing every widget that overlaps the rectangle around all of
them, each over its whole height in that rectangle, and cutting every one
of those lines at every edge; the terminal is then sent only the dirty
spans. A roll at Gemelos marks the dice, the score table, the prompt, the
log and the key bar dirty: their rectangle is the whole screen, so the
screen, its containers and its panels were drawn under the five widgets
(1.4 ms a frame; measured alone on the table as it stands after a roll).

Here the rows are composed from the widgets seen in them: for each row of
a dirty span, the front-most widget over each cut of the row (its
"owner", worked out once per layout, row by row as asked), and each such
widget is drawn only over the rows where it owns a cut the update sends
(0.8 ms for the same frame; 0.09 ms where only the dice changed, 0.5).

What reaches the terminal is what Textual's own update sends: the same
cells from the same strips, and one cursor move fewer where a span ends
exactly at a cut (Textual moved there and drew nothing). ``install`` makes
every screen's compositor one of these, once it has checked that Textual's
partial update is the one this was written against; otherwise it leaves
Textual's and logs a warning.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.color import ColorSystem
from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
from textual.geometry import Region
from textual.strip import SGR_STYLES, Strip

from .source import fingerprint, unlike

if TYPE_CHECKING:
    from textual.widget import Widget

log = logging.getLogger("garito")

# A row's owners: (where a cut starts, where it ends, the widget seen there).
Owners = list[tuple[int, int, "Widget"]]

# What this compositor stands in for, as Textual 8.2.8 has it: the partial
# update it replaces, the chops it fills as Textual fills them, and the
# ChopsUpdate that sends them (the length and CRC-32 of each one's dedented
# source: ``source_mark``).
EXPECTED = {
    "Compositor.render_partial_update": "771:1d595876",
    "Compositor._render_chops": "1571:5cebe8ba",
    "ChopsUpdate.render_segments": "1100:7748d188",
}


def textuals() -> dict[str, str]:
    """The fingerprints of Textual's own code this compositor stands in for."""
    return {
        "Compositor.render_partial_update": fingerprint(Compositor.render_partial_update),
        "Compositor._render_chops": fingerprint(Compositor._render_chops),
        "ChopsUpdate.render_segments": fingerprint(ChopsUpdate.render_segments),
    }


class RowCompositor(Compositor):
    """A compositor whose partial update draws only the rows it sends, each
    from the widgets seen there."""

    _owned_for: tuple[object, object] | None = None
    _owned: dict[int, Owners]
    _overlay: tuple[Widget, Region] | None = None
    _overlaid: tuple[object, object, dict[Widget, tuple[Region, Region]]] | None = None

    # ------------------------------------------------------------ the overlay

    @property
    def overlay(self) -> tuple[Widget, Region] | None:
        """A widget drawn over all the others at a region of the screen,
        never laid out (``widgets.notice``): (the widget, its region)."""
        return self._overlay

    def set_overlay(self, widget: Widget | None, region: Region | None = None) -> None:
        """Draw ``widget`` over everything at ``region`` (None: no overlay):
        where it was and where it is are drawn again at the screen's next
        update (which the caller asks for)."""
        old = self._overlay
        self._overlay = None if widget is None or region is None else (widget, region)
        self._cuts = None  # the overlay's edges cut the rows it covers
        screen = self.size.region
        for placed in (old, self._overlay):
            if placed is not None and (dirty := screen.intersection(placed[1])):
                self._dirty_regions.add(dirty)

    @property
    def visible_widgets(self) -> dict[Widget, tuple[Region, Region]]:
        under = super().visible_widgets
        if self._overlay is None:
            return under
        kept = self._overlaid
        if kept is None or kept[0] is not under or kept[1] is not self._overlay:
            widget, box = self._overlay
            # front first, as Textual orders them
            kept = self._overlaid = (under, self._overlay, {widget: (box, self.size.region), **under})
        return kept[2]

    def get_widget_at(self, x: int, y: int) -> tuple[Widget, Region]:
        if self._overlay is not None and self._overlay[1].contains(x, y):
            return self._overlay  # a click on the box falls on nothing under it
        return super().get_widget_at(x, y)

    # ------------------------------------------------------------ drawing

    def row_owners(self, y: int) -> Owners:
        """Row ``y``'s stretches, each seen of one widget: (x, end, the
        front-most widget there). Neighbouring cuts of one widget are one
        stretch, drawn in one piece: cut at the edges of widgets under it,
        a wide character (龍) over such an edge was sent as two blanks."""
        cuts = self.cuts
        visible = self.visible_widgets
        known = self._owned_for
        if known is None or known[0] is not cuts or known[1] is not visible:
            # Laid out (or scrolled) anew since: Textual makes new cuts and a
            # new map of visible widgets then.
            self._owned_for, self._owned = (cuts, visible), {}
        owners = self._owned.get(y)
        if owners is None:
            owners = self._owned[y] = self._find_owners(cuts[y], y, visible)
        return owners

    @staticmethod
    def _find_owners(cut_set: list[int], y: int, visible) -> Owners:
        # Widgets come front first, as Textual fills its chops: the first
        # widget over a cut is the one seen there.
        owner: dict[int, Widget | None] = dict.fromkeys(cut_set[:-1])
        left = len(owner)
        intersection = Region.intersection
        for widget, (region, clip) in visible.items():
            x, top, width, height = intersection(region, clip)
            if not width or not top <= y < top + height:
                continue
            right = x + width
            for cut in cut_set:
                if cut >= right:
                    break
                if cut >= x and cut in owner and owner[cut] is None:
                    owner[cut] = widget
                    left -= 1
            if not left:
                break
        stretches: Owners = []
        for (x, w), end in zip(owner.items(), cut_set[1:]):
            if w is None:
                continue
            if stretches and stretches[-1][2] is w and stretches[-1][1] == x:
                stretches[-1] = (stretches[-1][0], end, w)
            else:
                stretches.append((x, end, w))
        return stretches

    def render_partial_update(self) -> ChopsUpdate | None:
        regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not regions:
            return None
        height = self.size.height
        spans = [(y, x1, x2) for y, x1, x2 in self._regions_to_spans(regions) if 0 <= y < height]
        if not spans:
            return None
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        self._draw_stretches(self._wanted(spans), chops)
        return SparseChopsUpdate(chops, whole_characters(spans, chops), [cut_set[1:] for cut_set in cuts])

    def _wanted(self, spans) -> dict[Widget, dict[int, set[tuple[int, int]]]]:
        """Widget -> row -> the stretches it is seen in there that a span
        (row, x1, x2) sends."""
        wanted: dict[Widget, dict[int, set[tuple[int, int]]]] = {}
        for y, x1, x2 in spans:
            for x, end, widget in self.row_owners(y):
                if x < x2 and end > x1:
                    wanted.setdefault(widget, {}).setdefault(y, set()).add((x, end))
        return wanted

    def _draw_stretches(
        self, wanted: dict[Widget, dict[int, set[tuple[int, int]]]], chops: list[dict[int, Strip | None]]
    ) -> None:
        """Each widget's lines drawn once for the rows it is wanted in, each
        stretch of them put at its first cut."""
        visible = self.visible_widgets
        intersection = Region.intersection
        for widget, rows in wanted.items():
            region, clip = visible[widget]
            drawn = intersection(region, clip)
            top, bottom = min(rows), max(rows) + 1
            strips = widget.render_lines(
                Region(drawn.x - region.x, top - region.y, drawn.width, bottom - top)
            )
            left = drawn.x
            for y, stretches in rows.items():
                strip = strips[y - top]
                line = chops[y]
                for x, end in stretches:
                    line[x] = strip.crop(x - left, end - left)

    def _render_chops(self, crop: Region, is_rendered_line):
        """Textual's chops (a whole screen's, for a full update or a
        picture), each stretch of a widget in one piece at its first cut,
        the stretch's other cuts empty."""
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1], _EMPTY) for cut_set in cuts]
        width = self.size.width
        rows = [(y, 0, width) for y in crop.line_range if 0 <= y < len(cuts) and is_rendered_line(y)]
        self._draw_stretches(self._wanted(rows), chops)
        return chops

    def render_full_update(self, simplify: bool = False) -> LayoutUpdate:
        update = super().render_full_update(simplify=simplify)
        if simplify:  # a picture of the screen (an SVG), not for a terminal
            return update
        return SparseLayoutUpdate(update.strips, update.region)


def whole_characters(spans: list[tuple[int, int, int]], chops) -> list[tuple[int, int, int]]:
    """The spans, each one that ends inside a wide character (張) taken on to
    its end. Textual crops what it sends at the span's end, and a crop in the
    middle of a wide character sends a blank in its place, which the
    terminal draws over the character's first half, losing all of it (a
    name's character gone from the log until the row is drawn again)."""
    out: list[tuple[int, int, int]] = []
    for y, x1, x2 in spans:
        line = chops[y]
        start = max((x for x, piece in line.items() if piece is not None and x < x2), default=None)
        if start is not None:
            piece = line[start]
            if piece.cell_length != len(piece.text):  # only a wide character can be cut in two
                x2 = start + _past_character(piece, x2 - start)
        if out and out[-1][0] == y and out[-1][2] >= x1:
            out[-1] = (y, out[-1][1], max(out[-1][2], x2))
        else:
            out.append((y, x1, x2))
    return out


def _past_character(piece: Strip, at: int) -> int:
    """``at`` (cells into ``piece``), or the end of the character it cuts."""
    x = 0
    for segment in piece:
        for char in segment.text:
            width = cell_len(char)
            if x < at < x + width:
                return x + width
            x += width
            if x >= at:
                return at
    return at


# ---------------------------------------------------------------- what is sent

_EMPTY = Strip([], 0)  # a cut inside a stretch drawn whole at the stretch's first

# A style as the terminal is told it: (attribute codes, foreground codes,
# background codes); "" for a colour the style leaves to the terminal.
Look = tuple[frozenset[str], str, str]
PLAIN: Look = (frozenset(), "", "")


class Pen:
    """Writes styled text as a terminal needs it: Textual (Rich) writes
    every piece whole, its colours and attributes and a reset after it
    (``\\x1b[1;38;2;224;224;224;48;2;30;30;30mAna\\x1b[0m``: 41 bytes around
    three letters); the pen tells the terminal only what changed from the
    piece before (a new foreground is ``\\x1b[38;2;r;g;bm``, the same look
    nothing at all), and resets once, at the end. Attributes are turned
    off by a reset, as Rich does."""

    def __init__(self, color_system: ColorSystem) -> None:
        self.color_system = color_system
        self.look = PLAIN
        self.out: list[str] = []

    def write(self, text: str, style: Style | None) -> None:
        if not text:
            return
        self._to(PLAIN if style is None else _look(style, self.color_system))
        if style is not None and style._link:
            # Not Strip.render_style: it keeps a style's first codes whatever
            # the colour system, and styles are shared by every session of a
            # worker (Style.parse is cached).
            text = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{text}\x1b]8;;\x1b\\"
        self.out.append(text)

    def _to(self, look: Look) -> None:
        now = self.look
        if look == now:
            return
        flags, fg, bg = look
        if look == PLAIN:
            codes = ["0"]
        elif now[0] - flags:  # an attribute goes: only a reset takes it off
            codes = ["0", *sorted(flags)]
            codes += [code for code in (fg, bg) if code]
        else:
            codes = sorted(flags - now[0])
            if fg != now[1]:
                codes.append(fg or "39")
            if bg != now[2]:
                codes.append(bg or "49")
        self.out.append(f"\x1b[{';'.join(codes)}m")
        self.look = look

    def done(self) -> str:
        self._to(PLAIN)
        return "".join(self.out)


_LOOKS: dict[tuple[Style, ColorSystem], Look] = {}


def _look(style: Style, color_system: ColorSystem) -> Look:
    key = (style, color_system)
    look = _LOOKS.get(key)
    if look is None:
        if len(_LOOKS) > 4096:
            _LOOKS.clear()
        attributes = style._attributes & style._set_attributes
        flags = frozenset(
            SGR_STYLES[bit] for bit in range(attributes.bit_length()) if attributes & (1 << bit)
        )
        fg = ";".join(style._color.downgrade(color_system).get_ansi_codes()) if style._color else ""
        bg = ";".join(style._bgcolor.downgrade(color_system).get_ansi_codes(False)) if style._bgcolor else ""
        look = _LOOKS[key] = (flags, fg, bg)
    return look


def _color_system(console) -> ColorSystem:
    return console._color_system or ColorSystem.TRUECOLOR


class SparseChopsUpdate(ChopsUpdate):
    """Textual's partial update, written with a ``Pen``: the same cells,
    and no newline between rows (every row begins with a move)."""

    def render_segments(self, console) -> str:
        pen = Pen(_color_system(console))
        out = pen.out
        chops = self.chops
        for y, x1, x2 in self.spans:
            for x, strip in chops[y].items():
                # A stretch of one widget may pass the cuts after it (the
                # row's owners): it ends where its piece does.
                if strip is None or x >= x2 or (end := x + strip.cell_length) <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, min(end, x2) - x)
                out.append(f"\x1b[{y + 1};{x + 1}H")
                for text, style, _control in strip:
                    pen.write(text, style)
        return pen.done()


class SparseLayoutUpdate(LayoutUpdate):
    """Textual's whole-screen update, written with a ``Pen``."""

    def render_segments(self, console) -> str:
        pen = Pen(_color_system(console))
        x = self.region.x
        for y, line in enumerate(self.strips, self.region.y):
            pen.out.append(f"\x1b[{y + 1};{x + 1}H")
            for strip in line:
                for text, style, _control in strip:
                    pen.write(text, style)
        return pen.done()


_installed = False


def install() -> bool:
    """Every screen made from now on composes with a RowCompositor, if
    Textual's code is the code it was written against."""
    global _installed
    if _installed:
        return True
    changed = unlike(textuals(), EXPECTED)
    if changed:
        log.warning(
            "Textual's compositor is not the one expected (%s): its own partial updates are kept", changed
        )
        return False
    from textual import screen

    screen.Compositor = RowCompositor  # type: ignore[misc]
    _installed = True
    return True
