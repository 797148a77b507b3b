"""What the app keeps of a match as it is played: a game's watcher.

A game screen's ``Session`` calls its ``Keeper`` after every move (and the
screen once when it opens): an unfinished match is saved (``store.saves``:
Continue on the menu resumes it), a finished one goes into the history,
once. At a shared table the server keeps the match; a player keeps the
finished record (its seed comes with the end), a spectator nothing.

Saving never stops play: a save that fails is said once and play goes on;
a history that cannot take the match (another Garito holds it) leaves it
waiting in ``pending/`` (its save kept) for a later start, the player told.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from typing import Any

from textual.app import App

from garito.core.i18n import _
from garito.core.match import Match


class Keeper:
    def __init__(
        self, app: App[Any], *, shared: bool = False, seated: bool = True, finished: Callable[[], str] = str
    ) -> None:
        self.app = app
        # When a shared table's server saw the match end: its record then is
        # the very one the server keeps for this player (store.pending.send_to).
        self.finished = finished
        self.shared = shared
        self.seated = seated  # a shared table's player (a spectator keeps nothing)
        self._kept = False  # the finished match is in the history (or waiting for it)
        self._save_failed = False
        # Where the saves' thread says a save failed: the app's loop, in the
        # app's context (at a server, the player's).
        self._loop = asyncio.get_running_loop()
        self._context = contextvars.copy_context()

    def __call__(self, match: Match[Any, Any, Any]) -> None:
        over = match.over
        if self.shared:
            if self.seated and over:
                self._into_history(match)
            return
        if over:
            self._into_history(match)
            return
        from garito.store import saves

        saves.save_soon(match, self._not_saved)

    def _not_saved(self, error: OSError) -> None:
        """A save could not be written (heard in the saves' own thread): said
        once, on the app's loop, and play goes on. Handed over without
        waiting for it: the loop may itself be waiting for the saves (the
        menu reading them)."""
        if self._save_failed:
            return
        self._save_failed = True
        said = _("The game cannot be saved ({reason}); play goes on.").format(reason=error.strerror or error)
        try:
            self._loop.call_soon_threadsafe(self._say_not_saved, said, context=self._context)
        except RuntimeError:
            pass  # the app has ended meanwhile

    def _say_not_saved(self, said: str) -> None:
        self.app.notify(said, title=_("Not saved"), severity="error", timeout=8)

    def _into_history(self, match: Match[Any, Any, Any]) -> None:
        """The save and the pending file are written at once; the history,
        which may wait seconds for another Garito, in a thread of the app's
        (it outlives the screen; the pending file keeps the match if the app
        stops)."""
        from garito.store.pending import hold, keep

        if self._kept:
            return
        self._kept = True
        held = hold(match, saved=not self.shared, finished=self.finished() if self.shared else "")
        app = self.app

        async def into_the_history() -> None:
            # In a copy of the context: see GameScreen.think.
            problem = await asyncio.to_thread(keep, held)
            if problem:
                app.notify(problem, title=_("Not in the history yet"), severity="warning", timeout=12)

        app.run_worker(into_the_history(), group="history", description="a finished match into the history")
