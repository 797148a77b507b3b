"""The README's pictures as text, for where an SVG beside the README cannot
be shown (a package index shows the long description alone, and a relative
picture there is a broken one).

Textual's SVG screenshots draw each run of characters as a ``<text>`` at a
column's x (12.2 px a cell) on a line clipped by ``terminal-line-N``: read
back cell by cell, they are the screen as the terminal showed it.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

CELL = 12.2  # px per column in Textual's SVG export
TEXT = re.compile(
    r'<text class="terminal-[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#terminal-line-(\d+)\)">([^<]*)</text>'
)
PICTURE = re.compile(r"^!\[([^\]]*)\]\((screenshots/[\w.-]+\.svg)\)$", re.M)


def screen_text(svg: str) -> str:
    """The terminal's rows of an SVG screenshot, trailing spaces dropped."""
    rows: dict[int, list[str]] = {}
    for x, line, chars in TEXT.findall(svg):
        row = rows.setdefault(int(line), [])
        column = round(float(x) / CELL)
        chars = html.unescape(chars).replace("\xa0", " ")
        if len(row) < column:
            row.extend(" " * (column - len(row)))
        row[column : column + len(chars)] = chars
    last = max(rows, default=-1)
    return "\n".join("".join(rows.get(i, [])).rstrip() for i in range(last + 1))


def readme_with_text_pictures(readme: str, root: Path) -> str:
    """The README with each picture replaced by the screen it shows, as text."""

    def picture(m: re.Match[str]) -> str:
        screen = screen_text((root / m.group(2)).read_text(encoding="utf-8"))
        return f"*{m.group(1)}:*\n\n```text\n{screen}\n```"

    return PICTURE.sub(picture, readme)
