"""A terminal, as far as Textual's output goes: what it shows after the
bytes an app wrote (cursor moves, colours, text), cell by cell. Tests hold
what an app sent, frame after frame, to the screen the app holds."""

from __future__ import annotations

import re

from rich.cells import cell_len

# CSI (with private markers), OSC (ended by BEL or ST), other escapes, or a character
_TOKEN = re.compile(
    r"\x1b\[([0-9;:?<>=$]*)([ -/]*[@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]|(.)", re.S
)

# A cell: its character and how it looks (foreground, background, and the
# attributes set), as far as a terminal shows it: a blank's foreground and
# weight show only under a line or reversed.
Look = tuple[str | None, str | None, frozenset[str]]
Cell = tuple[str, Look]
PLAIN: Look = (None, None, frozenset())
_FLAGS = {
    "1": "bold",
    "2": "dim",
    "3": "italic",
    "4": "underline",
    "5": "blink",
    "7": "reverse",
    "8": "conceal",
    "9": "strike",
    "21": "underline2",
    "53": "overline",
}
_OFF = {
    "22": ("bold", "dim"),
    "23": ("italic",),
    "24": ("underline", "underline2"),
    "25": ("blink",),
    "27": ("reverse",),
    "28": ("conceal",),
    "29": ("strike",),
    "55": ("overline",),
}
_ON_A_BLANK = frozenset({"underline", "underline2", "reverse", "strike", "overline"})


def look(sgr: str, start: Look = PLAIN) -> Look:
    """How a cell looks after SGR parameters (as written between ESC [ and
    m) over ``start``."""
    fg, bg, was = start
    flags = set(was)
    codes = sgr.replace(":", ";").split(";") if sgr else [""]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code in ("", "0"):
            fg = bg = None
            flags.clear()
        elif code in _FLAGS:
            flags.add(_FLAGS[code])
        elif code in _OFF:
            flags.difference_update(_OFF[code])
        elif code in ("38", "48"):
            width = 3 if codes[i + 1 : i + 2] == ["5"] else 5
            colour = ";".join(codes[i + 1 : i + width])
            fg, bg = (colour, bg) if code == "38" else (fg, colour)
            i += width - 1
        elif code.isdigit() and (30 <= int(code) <= 37 or 90 <= int(code) <= 97):
            fg = code
        elif code.isdigit() and (40 <= int(code) <= 47 or 100 <= int(code) <= 107):
            bg = code
        elif code == "39":
            fg = None
        elif code == "49":
            bg = None
        i += 1
    return fg, bg, frozenset(flags)


def seen(char: str, how: Look) -> Cell:
    """A cell as the eye sees it."""
    fg, bg, flags = how
    if char.strip():
        return char, how
    shown = flags & _ON_A_BLANK
    return char, (fg if shown else None, bg, shown)


class Terminal:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[Cell]] = [[(" ", PLAIN)] * width for _ in range(height)]
        self.x = self.y = 0
        self.look = PLAIN

    def feed(self, data: str) -> None:
        for match in _TOKEN.finditer(data):
            params, final, char = match.group(1), match.group(2), match.group(3)
            if char is not None:
                self._put(char)
            elif final == "H":
                row, _, col = (params or "1;1").partition(";")
                self.y, self.x = int(row or 1) - 1, int(col or 1) - 1
            elif final == "m":
                self.look = look(params, self.look)
            # anything else (modes, synchronized output, pointer shapes) draws nothing

    def _put(self, char: str) -> None:
        if char == "\n":
            self.y += 1
            return
        if char == "\r":
            self.x = 0
            return
        width = cell_len(char)
        if 0 <= self.y < self.height and 0 <= self.x < self.width:
            row, x = self.cells[self.y], self.x
            # A wide character written over in part is gone whole, as in
            # xterm: the half left is a blank.
            if row[x][0] == "" and x > 0:
                row[x - 1] = seen(" ", row[x - 1][1])
            end = min(x + max(width, 1), self.width)
            if end < self.width and row[end][0] == "":
                row[end] = seen(" ", row[end][1])
            row[x] = seen(char, self.look)
            for extra in range(x + 1, end):
                row[extra] = seen("", self.look)
        self.x += width

    def rows(self) -> list[str]:
        return ["".join(char for char, _ in row) for row in self.cells]

    def differences(self, other: Terminal) -> list[tuple[int, int, Cell, Cell]]:
        """The cells (row, column, here, there) where two terminals differ."""
        return [
            (y, x, mine, theirs)
            for y, (row, other_row) in enumerate(zip(self.cells, other.cells))
            for x, (mine, theirs) in enumerate(zip(row, other_row))
            if mine != theirs
        ]


def drawn_whole(screen) -> Terminal:
    """The screen as the app holds it, every line drawn anew (what a full
    update would send), on a blank terminal."""
    from rich.color import ColorSystem
    from rich.control import Control

    width, height = screen._compositor.size
    terminal = Terminal(width, height)
    # Each style written anew: Strip.render keeps its first rendering and
    # Style keeps its first codes (Strip.render_style, Rich's own render),
    # whatever the console, and both are shared by every app of the process
    # (Strip.blank and Style.parse are cached), so another test's truecolor
    # console would be read here as this app's.
    color_system = screen.app.console._color_system or ColorSystem.TRUECOLOR
    for y, strip in enumerate(screen._compositor.render_strips()):
        line = "".join(
            text if style is None else _written(style, text, color_system) for text, style, _ in strip
        )
        terminal.feed(Control.move_to(0, y).segment.text + line)
    return terminal


def _written(style, text: str, color_system) -> str:
    codes = [
        str(code)
        for bit, code in enumerate((1, 2, 3, 4, 5, 6, 7, 8, 9, 21, 51, 52, 53))
        if style._set_attributes & style._attributes & (1 << bit)
    ]
    if style._color is not None:
        codes += style._color.downgrade(color_system).get_ansi_codes()
    if style._bgcolor is not None:
        codes += style._bgcolor.downgrade(color_system).get_ansi_codes(False)
    return f"\x1b[{';'.join(codes)}m{text}\x1b[0m" if codes else text


def recorded_driver():
    """Textual's headless driver, but the app writes its frames to it, as to
    a terminal, and they are kept (``Recorded.written``; the ``recorded``
    fixture sets it up)."""
    import textual.drivers.headless_driver as headless

    class Recorded(headless.HeadlessDriver):
        written: list[str]

        @property
        def is_headless(self) -> bool:
            return False

        def write(self, data: str) -> None:
            self.written.append(data)

    return Recorded
