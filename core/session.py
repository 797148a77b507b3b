"""One match driven headlessly: the turn loop every front end shares.

A ``Session`` holds a ``Match`` and knows who plays it where: the seats
played from this front end's keyboard (``here``) and whether its computer
seats move here (``computers``: in the app's own games and in the table
server; not in an app at a shared table, whose computers are the server's).
It applies moves (``play``, refused with the rule by ``IllegalAction``),
says whose turn it is and whether a computer moves next
(``computer_to_move``), and chooses that computer's move (``computer_move``:
pure, from the seat's view alone, so a front end runs it in a thread or
``asyncio.to_thread``); a move chosen while the match moved on is dropped
(``play_computer``). The pace a computer takes over its move is data
(``pace``): the front end's timer keeps it. Whatever else must happen when
the match changes (saving it, keeping it in the history once it is over)
is an observer's (``watch``), called after every change, a move here or a
match that came from elsewhere (``advance``: a table server's).

A ``Replay`` is a finished (or unfinished) match's table after each move,
stepped back and forth; nothing is played in it.

No UI, no files, no clock: the game screens and ``server/tables.py`` drive
their matches through this.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic

from .contract import ActionT, ConfigT, Rules, StateT
from .i18n import _
from .match import Match

Watcher = Callable[["Match[Any, Any, Any]"], None]


class Session(Generic[ConfigT, StateT, ActionT]):
    def __init__(
        self,
        match: Match[ConfigT, StateT, ActionT],
        *,
        here: Iterable[int] | None = None,
        computers: bool = True,
        pace: float = 0.0,
    ) -> None:
        self.match = match
        # Every human seat is played here unless said otherwise (a shared
        # table's app plays its own seat; a server, none).
        self.here: tuple[int, ...] = (
            tuple(i for i, s in enumerate(match.seats) if s.is_human) if here is None else tuple(here)
        )
        self.computers = computers
        self.pace = pace  # seconds a computer's move takes, so people can follow it
        self._watchers: list[Watcher] = []

    @property
    def rules(self) -> Rules[Any, StateT, ActionT, Any, Any, Any]:
        return self.match.rules

    # ------------------------------------------------------------ where it stands

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is; None once the match is over."""
        return self.rules.to_act(self.match.state)

    @property
    def over(self) -> bool:
        return self.rules.is_over(self.match.state)

    @property
    def moves(self) -> int:
        return len(self.match.actions)

    def plays_here(self, seat: int | None) -> bool:
        """``seat`` is played from this front end's keyboard."""
        return seat is not None and seat in self.here

    def computer_to_move(self) -> int | None:
        """The computer seat that moves next here; None when the next move
        is a person's (or another's, at a shared table), or the match is over."""
        seat = self.to_act
        if seat is None or not self.computers or self.match.seats[seat].is_human:
            return None
        return seat

    # ------------------------------------------------------------ moves

    def computer_move(self, seat: int, match: Match[ConfigT, StateT, ActionT] | None = None) -> ActionT:
        """The move ``seat``'s computer chooses from its view of the match as
        it is now (or of ``match``, the session's as it was when the move was
        asked for: a thread that starts late must not choose for a match
        that has moved on, perhaps to its end). Pure: a front end calls it
        off its event loop."""
        match = self.match if match is None else match
        rules = match.rules
        state = match.state
        return rules.choose(rules.view(state, seat), rules.legal_actions(state), match.seats[seat].level)

    def play(self, action: ActionT) -> Match[ConfigT, StateT, ActionT]:
        """The match after ``action`` for the seat to act; ``IllegalAction``
        naming the rule if the rules refuse it (and nothing changes)."""
        self.advance(self.match.play(action))
        return self.match

    def play_computer(self, moves: int, action: ActionT) -> bool:
        """Play a computer's ``action`` chosen after ``moves`` moves, unless
        the match moved on meanwhile (then it is dropped: False)."""
        if self.moves != moves or self.over:
            return False
        self.play(action)
        return True

    def advance(self, match: Match[ConfigT, StateT, ActionT]) -> None:
        """The match is now ``match`` (a move here, or one a table server
        sent); the watchers hear of it."""
        self.match = match
        for watcher in list(self._watchers):
            watcher(match)

    def watch(self, watcher: Watcher) -> None:
        """Call ``watcher(match)`` after every change of the match."""
        self._watchers.append(watcher)


class Replay(Generic[ConfigT, StateT, ActionT]):
    """A match's table after each of its moves (frame 0: before the first)."""

    def __init__(self, match: Match[ConfigT, StateT, ActionT], at: int | None = None) -> None:
        frames = [match.restart()]
        for action in match.actions:
            frames.append(frames[-1].play(action))
        self.frames = frames
        self.at = 0
        self.step_to(self.last if at is None else at)

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    @property
    def match(self) -> Match[ConfigT, StateT, ActionT]:
        return self.frames[self.at]

    def step_to(self, at: int) -> Match[ConfigT, StateT, ActionT]:
        """Go to move ``at`` (kept within the match)."""
        self.at = max(0, min(at, self.last))
        return self.match

    def caption(self) -> str:
        """Where the replay is, for the prompt line."""
        if self.at:
            return _("move {at} of {last}: {action}").format(
                at=self.at, last=self.last, action=self.match.actions[-1]
            )
        return _("the start (0 of {last})").format(last=self.last)
