"""Palette: Textual's command palette (ctrl+p), which keys typed faster
than it closes do not break.

Textual's palette (8.2.8) closes with ``dismiss``, which pops whatever
screen is on top: a second Enter that came before the first close had
run popped the menu under it ("Can't pop screen"), and a search begun by a
key typed as it closed looked for its list on a palette already gone
(``NoMatches``). Either ended the player's app: over SSH, five quick
ctrl+p, a key and Enter did it. Here a palette closes only itself, and a
search that finds the palette closed ends quietly.

An Enter typed before the search for the last key has settled waits for
it: at once, it ran the command the list showed before (Quit, for a
search begun with "q" and typed on quickly).
"""

from __future__ import annotations

from textual import on, work
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.css.query import NoMatches
from textual.widgets import Input
from textual.worker import WorkerState


class Palette(CommandPalette):
    _enter_waits = False  # an Enter came while the search ran: taken once it ends

    def _searching(self) -> bool:
        return any(
            w.node is self
            and w.group == self._GATHER_COMMANDS_GROUP
            and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for w in self.workers
        )

    @on(Input.Submitted)
    def _enter_after_the_search(self, event: Input.Submitted) -> None:
        # Before Textual's own handler (this class comes first): held back
        # while the list is still the last search's.
        if self._searching():
            event.stop()
            event.prevent_default()
            self._enter_waits = True

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
            return
        if self._enter_waits and self.is_attached and self.app.screen is self:
            self._enter_waits = False
            self.call_after_refresh(self._select_or_command)
