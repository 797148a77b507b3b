"""Palette: Textual's command palette (ctrl+p), which keys typed faster
than it closes do not break.

Textual's palette (8.2.8) closes with ``dismiss``, which pops whatever
screen is on top: a second Enter that came before the first close had
run popped the menu under it ("Can't pop screen"), and a search begun by a
key typed as it closed looked for its list on a palette already gone
(``NoMatches``). Either ended the player's app: over SSH, five quick
ctrl+p, a key and Enter did it. Here a palette closes only itself, and a
search that finds the palette closed ends quietly.
"""

from __future__ import annotations

from textual import work
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.css.query import NoMatches


class Palette(CommandPalette):
    def dismiss(self, result=None) -> AwaitComplete:
        if self.app.screen is not self:  # closed already: the screen under it is not its to close
            return AwaitComplete.nothing()
        return super().dismiss(result)

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        try:
            await CommandPalette._gather_commands.__wrapped__(self, search_value)  # type: ignore[attr-defined]
        except NoMatches:
            if self.is_attached and self.app.screen is self:
                raise  # not the race: a real fault, to be seen
