"""GameLog: the running story of a game, newest line at the bottom."""

from __future__ import annotations

from textual.widgets import RichLog


class GameLog(RichLog, can_focus=False):
    """A word-wrapped log that shows lines as they are told.

    It never takes the focus, so it never takes the game's keys; the screen
    scrolls it (PageUp/PageDown).

    ``tell`` takes the whole story so far and writes only what is new, so a
    screen can hand it the full list on every update (idempotent), and a
    resumed game shows its whole story.
    """

    DEFAULT_CSS = """
    GameLog { overflow-y: auto; scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=20, **kwargs)
        self._told = 0

    def tell(self, lines: list[str] | tuple[str, ...]) -> None:
        if len(lines) < self._told:
            self.clear()
            self._told = 0
        for line in lines[self._told:]:
            self.write(line)
        self._told = len(lines)
