"""GameScreen: what every game screen shares.

It holds the ``Match``, applies actions through the core (refusing illegal
ones with the rule's own words), saves after every action, runs computer
seats in a thread worker with a short pace the player can skip, and backs
out to the menu with a confirmation. A game's screen subclasses it, lays out
its widgets and turns the match into what they show (``show``).

At a shared table (``seating``) the server holds the match: ``play`` sends
the move, and each match the server sends back (``receive``) goes through
the same ``after_action`` flow as a move played here; only the screen's own
seat is played from this keyboard (``is_human``), nothing is saved but the
finished match's record, and no computer thinks here.
"""

from __future__ import annotations

import importlib
import threading
from collections import deque

from textual import work
from textual.binding import Binding
from textual.reactive import var
from textual.screen import Screen

from garito.core.errors import IllegalAction
from garito.core.match import Match


class GameScreen(Screen[None]):
    # A game whose seats hold secrets (Decimus's dice) shows one human's
    # view at a time and, between two humans, a hand-off screen.
    HIDES_HANDS = False
    SECRETS = "dice come"  # what the hand-off screen says is about to show

    BINDINGS = [
        # While a round's result is open, Space, Enter or Escape close it
        # (on_key) and nothing else is bound (check_action); this binding puts
        # it on the key bar.
        Binding("escape", "close_notice", "Continue", key_display="Space"),
        Binding("escape", "leave", "Menu"),
        Binding("question_mark,f1", "rules", "Rules"),
        Binding("b", "fill", "Computers take the open seats"),
        Binding("pageup", "scroll_log(-1)", "Log", show=False),
        Binding("pagedown", "scroll_log(1)", "Log", show=False),
    ]

    # What a StakeBar is bound to, on the screens of games with stakes (see
    # ``offer_stake``); screens without one leave them be.
    amount: var[int] = var(0)
    low: var[int] = var(0)
    high: var[int] = var(0)
    note: var[str] = var("")
    staking: var[bool] = var(False)

    def __init__(self, match: Match, seating=None) -> None:
        super().__init__()
        self.match = match
        self.seating = seating  # a shared table's Seating (tui.link), or None
        self.rules = match.rules
        self.bot = importlib.import_module(self.rules.__name__ + ".bot")
        self._hurry = threading.Event()
        self._save_failed = False
        self._kept = False  # the finished match is in the history
        self.frames: list[Match] | None = None  # a replay: the match after each move
        self.at = 0  # the replay's move
        self.busy = False  # a computer seat is thinking, or a result is on screen
        self.thinking = False  # a computer seat is choosing its move
        self._pending = None  # a computer's move that waits for a dialog to close
        self._notice_then = None  # what happens when the round's result closes
        self._notice_timer = None  # closes it at a table with no human
        self._reveal = None  # opens it a moment after the move that ended the round
        self._notice = None  # the round's result box, once mounted
        self.ended: int | None = None  # a round's result is up: the table shows events[:ended]
        self._story: list[str] = []  # the log so far; events only ever grow
        self._story_names: tuple[str, ...] = match.names
        self._stake_for: tuple[int, int] | None = None  # (move number, seat) the amount belongs to
        humans = [i for i, s in enumerate(match.seats) if s.is_human]
        if seating is not None:  # only this screen's own seat is played here
            humans = [] if seating.seat is None else [seating.seat]
        self._humans = humans
        self._incoming: deque[Match] = deque()  # the server's matches, waiting for a result box
        self._flowing = False  # a received move's after_action has not finished
        self.awaiting = False  # a move was sent to the server, not answered yet
        self.open_seats: list[int] = []  # a shared table's seats nobody has taken yet
        self.away: list[int] = []  # a shared table's seats whose player left (kept a while)
        self.shown_to = humans[0] if humans else 0  # whose secrets the table may show

    # ------------------------------------------------------------ hooks

    def show(self) -> None:
        """Update the widgets from ``self.match`` (subclasses)."""

    def after_action(self, before: Match, after: Match, proceed) -> None:
        """Called after each action; call ``proceed()`` when play may go on
        (a subclass shows round results here first)."""
        proceed()

    def finished(self) -> None:
        """The match is over (subclasses show the result with ``show_result``)."""

    def rematch_config(self):
        """The rules of the next match when the player asks for one."""
        return self.match.config

    # ------------------------------------------------------------ helpers for show()

    def is_human(self, seat: int | None) -> bool:
        """The seat is played from this keyboard."""
        if self.seating is not None:
            return seat is not None and seat == self.seating.seat
        return seat is not None and self.match.seats[seat].is_human

    @property
    def shared(self) -> bool:
        return self.seating is not None

    @property
    def viewer(self) -> int:
        """The seat whose view the table shows: the human to act, else the
        first human (a game that hides nothing shows the same to all)."""
        if self.HIDES_HANDS:
            return self.shown_to
        seat = self.seat_to_act
        if self.is_human(seat):
            return seat  # type: ignore[return-value]
        return self._humans[0] if self._humans else 0

    def tell_story(self, events) -> None:
        """Narrate the events not yet in the log (events only ever grow)."""
        from garito.widgets.gamelog import GameLog

        names = self.match.names
        if names != self._story_names:  # a shared table's seat was taken: the story says who
            self._story, self._story_names = [], names
        del self._story[len(events) :]  # a replay stepping back
        self._story += [self.rules.narrate(e, names) for e in events[len(self._story) :]]
        self.query_one(GameLog).tell(self._story)

    def stake_bar(self, label: str = "Stake"):
        """The StakeBar for ``compose``, bound to the values ``offer_stake`` sets."""
        from garito.widgets.stake import StakeBar

        return StakeBar(label, id="stake").data_bind(
            GameScreen.amount, GameScreen.low, GameScreen.high, GameScreen.note, active=GameScreen.staking
        )

    def log_panel(self):
        """The titled log for ``compose`` (``yield from self.log_panel()``)."""
        from garito.widgets.gamelog import GameLog
        from garito.widgets.panel import Panel

        with Panel("Log", id="log-panel"):
            yield GameLog(id="log")

    def offer_stake(self, seat: int, low: int, high: int, note: str) -> None:
        """Show the stake bar for ``seat``: the amount starts at ``low`` on
        each new decision and keeps the player's choice while it lasts."""
        key = (len(self.match.actions), seat)
        if self._stake_for != key:
            self._stake_for = key
            self.amount = low
        self.low, self.high = low, high
        self.amount = max(low, min(high, self.amount))
        self.note = note
        self.staking = True

    def hide_stake(self) -> None:
        self.staking = False
        self._stake_for = None

    def action_stake_by(self, delta: int) -> None:
        self.amount = max(self.low, min(self.high, self.amount + delta))

    def hold_round(self, before: Match, after: Match, proceed):
        """While a round's result is on screen the table shows the round
        that ended, not the next one the same move began: the events up to
        the next round's first (``ended``). Returns what closes the box."""
        events, new = after.state.events, range(len(after.state.events) - 1, len(before.state.events) - 1, -1)
        self.ended = next((i for i in new if events[i].kind == "round"), len(events))
        self.show()

        def closed(_=None) -> None:
            self.ended = None
            proceed()

        return closed

    def round_box(self, title: str, body, then) -> None:
        """Show a round's result over the table; ``then()`` when it closes.
        It opens a moment after the move that ended the round (half the
        computer's pace: 0.35 s), so the last roll or card is seen first and
        the key that made it is answered at once. It closes by itself at a
        table with no human."""
        self._notice_then = then
        pause = min(0.35, self.app.bot_delay / 2)
        if pause > 0:
            self._reveal = self.set_timer(pause, lambda: self._open_box(title, body))
            self.refresh_bindings()
        else:
            self._open_box(title, body)

    def _open_box(self, title: str, body) -> None:

        self._reveal = None
        self._notice.open(title, body, self.size)
        if not self._humans:
            # its own timer, stopped when the box closes: a timer left over
            # from an earlier box would close a later one early
            self._notice_timer = self.set_timer(max(1.5, 3 * self.app.bot_delay), self.action_close_notice)
        self.refresh_bindings()

    @property
    def notice_open(self) -> bool:
        """A round's result is on screen, or about to be: only its keys work."""

        # Asked for every key binding whenever the key bar is refreshed: a
        # DOM query here took a fifth of the app's time per key.
        return self._reveal is not None or (self._notice is not None and self._notice.is_open)

    def action_close_notice(self) -> None:

        if not self.notice_open or self._reveal is not None:
            return  # nothing open, or not yet
        if self._notice_timer is not None:
            self._notice_timer.stop()
            self._notice_timer = None
        self._notice.close()
        then, self._notice_then = self._notice_then, None
        self.refresh_bindings()
        if then is not None:
            then(None)
        self.on_screen_resume()  # a computer's move that waited for it

    # ------------------------------------------------------------ replays

    def replay(self, at: int | None = None) -> GameScreen:
        """Make this screen a replay of its (finished or not) match: the
        table after each move, stepped with ← →, Home and End."""
        frames = [
            Match.start(
                self.match.game, self.match.config, self.match.seed, self.match.seats, self.match.dice
            )
        ]
        for action in self.match.actions:
            frames.append(frames[-1].play(action))
        self.frames = frames
        self.at = len(frames) - 1 if at is None else max(0, min(at, len(frames) - 1))
        return self

    def step_to(self, at: int) -> None:
        assert self.frames is not None
        self.at = max(0, min(at, len(self.frames) - 1))
        self.match = self.frames[self.at]
        self.show()
        self.hide_stake()  # nobody stakes in a replay
        last = len(self.frames) - 1
        move = (
            f"move {self.at} of {last}: {self.match.actions[-1]}" if self.at else f"the start (0 of {last})"
        )
        self.prompt = f"Replay, {move}.  ←/→ step, Home End, Esc back"

    def _replay_key(self, event) -> None:
        keys = {"left": -1, "right": 1, "pageup": -10, "pagedown": 10}
        if event.key in keys:
            self.step_to(self.at + keys[event.key])
        elif event.key == "home":
            self.step_to(0)
        elif event.key == "end":
            self.step_to(len(self.frames or ()) - 1)
        elif event.key == "escape":
            self.app.pop_screen()

    def on_key(self, event) -> None:
        if self.frames is not None:
            event.stop()  # a replay's keys, and nothing of the game's
            event.prevent_default()
            self._replay_key(event)
            return
        if self.notice_open:
            event.stop()  # before the bindings: only the result's keys now
            event.prevent_default()
            if event.key in ("space", "enter", "escape"):
                self.action_close_notice()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "close_notice":
            return self.notice_open and self._reveal is None
        if self.notice_open or self.frames is not None:
            return action == "leave" and self.frames is not None
        if self.open_seats:  # a shared table waiting for its players
            return action in ("leave", "rules", "scroll_log", "fill") and (
                action != "fill" or self.seating.seat is not None
            )
        if action == "fill":
            return False
        return self.allows(action, parameters)

    def allows(self, action: str, parameters: tuple) -> bool | None:
        """Whether a key's action is offered now (a game's screen decides)."""
        return True

    def show_result(self, title: str, body, keys: str = "") -> None:
        """The match's end; then a rematch (``rematch_config``) or the menu."""
        from .results import MatchOverScreen

        screen = MatchOverScreen(title, body)
        if self.shared:
            keys = "Enter: back to the lobby"
        if keys:
            screen.KEYS = keys
        self.app.push_screen(screen, self._after_match)

    def _after_match(self, rematch: bool | None) -> None:
        self.app.pop_screen()
        if self.shared:
            self._leave_table()
            return
        if rematch:
            from garito.core.dice import fresh_seed

            m = self.match
            self.app.open_match(Match.start(m.game, self.rematch_config(), fresh_seed(), m.seats))

    # ------------------------------------------------------------ flow

    def on_mount(self) -> None:
        from garito.widgets.notice import Notice

        self._notice = Notice()
        self.mount(self._notice)
        # Colours a screen picks itself (the suits) follow the theme.
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.show())
        if self.frames is not None:
            self.busy = True  # nobody plays in a replay
            self.step_to(self.at)
            return
        self.persist()  # a game is saved from its first screen, not its first move
        seat = self.seat_to_act
        if self.shared and self._humans:
            self.shown_to = self._humans[0]
        gate = self.HIDES_HANDS and len(self._humans) > 1 and self.is_human(seat)
        if gate:
            self.shown_to = seat  # type: ignore[assignment]
        self.show()
        if gate:
            # Two humans at one keyboard: nobody's secrets before the first
            # of them says they are the one looking.
            self._hand_off(seat, first=True)  # type: ignore[arg-type]
        self.call_after_refresh(self.next_turn)

    @property
    def seat_to_act(self) -> int | None:
        return self.rules.to_act(self.match.state)

    @property
    def human_to_act(self) -> bool:
        return self.is_human(self.seat_to_act) and not self.busy and not self.awaiting

    def next_turn(self) -> None:
        self._flowing = False
        if self._incoming:  # the server moved on while a result was open
            self._take(self._incoming.popleft())
            return
        if self.rules.is_over(self.match.state):
            self.show()  # the whole story (a result box may have held the table as it was)
            self.finished()
            return
        seat = self.seat_to_act
        if self.shared:
            # another player's or the server's computer's move: it comes by receive()
            self.busy = not self.is_human(seat)
            self.thinking = False
            self.show()
        elif seat is not None and not self.match.seats[seat].is_human:
            self.busy = self.thinking = True
            self._hurry.clear()
            self.show()
            self.think(len(self.match.actions), seat)
        elif self.HIDES_HANDS and seat is not None and seat != self.shown_to:
            self._hand_off(seat)
        else:
            self.busy = self.thinking = False
            self.show()
        self.refresh_bindings()

    def _hand_off(self, seat: int, first: bool = False) -> None:
        from .notices import HandOffScreen

        self.busy = True
        names = self.match.names

        def ready(_=None) -> None:
            self.shown_to = seat
            self.busy = False
            self.show()
            self.refresh_bindings()

        self.app.push_screen(
            HandOffScreen(names[seat], "" if first else names[self.shown_to], self.SECRETS), ready
        )

    def play(self, action) -> bool:
        """Apply ``action`` for the seat to act; False (and a notice naming
        the rule) if the rules refuse it. At a shared table the move goes to
        the server, which answers with the match or the rule (``refused``)."""
        if self.shared:
            if self.awaiting:
                return False  # one move at a time: the last one is on its way
            self.awaiting = True
            self._flowing = False
            self.seating.send(op="act", table=self.seating.table, action=str(action))
            self.refresh_bindings()
            return True
        before = self.match
        try:
            self.match = before.play(action)
        except IllegalAction as e:
            self.notify(e.rule, title="Not allowed", severity="warning")
            return False
        self.persist()
        self.show()
        self.busy = True
        self.refresh_bindings()
        self.after_action(before, self.match, self._proceed)
        return True

    def _proceed(self, *_args) -> None:
        self.busy = False
        self.next_turn()

    # ------------------------------------------------------------ a shared table

    def validate_prompt(self, text: str) -> str:
        """Every game screen's prompt line (``prompt``) says first that a
        shared table waits for its players."""
        if self.open_seats:
            seats = " and ".join(str(s + 1) for s in self.open_seats)
            many = len(self.open_seats) > 1
            return f"Waiting for {'players' if many else 'a player'} in seat{'s' if many else ''} {seats}."
        seat = self.seat_to_act if self.away else None
        if seat in self.away and not self.rules.is_over(self.match.state):
            return f"{self.match.names[seat]} left the table: waiting 3 minutes."
        return text

    def receive(self, match: Match, open_seats=(), away=()) -> None:
        """The server's match after a change at the table."""
        self.open_seats, self.away = list(open_seats), list(away)
        if self._flowing or self._incoming or self._notice is None:
            # after the result on screen closes (or the screen is up)
            self._incoming.append(match)
            return
        self._take(match)

    def _take(self, after: Match) -> None:
        before, self.match = self.match, after
        self.awaiting = False
        if len(after.actions) != len(before.actions) + 1:
            self.next_turn()  # a seat taken or left, or a first sight: no move to show
            return
        self.persist()
        self.show()
        self.busy = self._flowing = True
        self.refresh_bindings()
        self.after_action(before, after, self._proceed)

    def refused(self, rule: str) -> None:
        """The server refused this screen's move (or anything it asked)."""
        self.awaiting = False
        self.notify(rule, title="Not allowed", severity="warning")
        self.refresh_bindings()

    def action_fill(self) -> None:
        if self.shared and self.open_seats:
            self.seating.send(op="fill", table=self.seating.table)

    def _leave_table(self) -> None:
        self.seating.send(op="leave", table=self.seating.table)

    def persist(self) -> None:
        from garito.store import saves

        if self.frames is not None:
            return
        if self.shared:
            # The server keeps the match; a player keeps the finished record
            # (its seed comes with the end), a spectator nothing.
            if self.seating.seat is not None and self.rules.is_over(self.match.state):
                self._keep_in_history()
            return
        if self.rules.is_over(self.match.state):
            self._keep_in_history()
            return
        try:
            saves.save(self.match)
        except OSError as e:
            if not self._save_failed:
                self._save_failed = True
                self.notify(
                    f"The game cannot be saved ({e.strerror or e}); play goes on.",
                    title="Not saved",
                    severity="error",
                    timeout=8,
                )

    def _keep_in_history(self) -> None:
        """A finished match goes into the history, once; if the history
        cannot take it, it waits in ``pending/`` (its save kept) for a later
        start, the player is told, and play goes on. The save and the
        pending file are written at once; the history, which may wait
        seconds for another Garito, in a thread of the app's (it outlives
        this screen; the pending file keeps the match if the app stops)."""
        from garito.store.pending import hold, keep

        if self._kept:
            return
        self._kept = True
        held = hold(self.match, saved=not self.shared)
        app = self.app

        def into_the_history() -> None:
            problem = keep(held)
            if problem:
                try:
                    app.call_from_thread(
                        app.notify, problem, title="Not in the history yet", severity="warning", timeout=12
                    )
                except RuntimeError:
                    pass  # the app closed meanwhile: the match waits all the same

        app.run_worker(into_the_history, thread=True, group="history")

    # ------------------------------------------------------------ computer seats

    # Not exclusive: a computer seat that moves again at once (Willie's draws)
    # would cancel the worker that is still returning its move; a stale move is
    # dropped by _computer_moves, and leaving cancels the group.
    @work(thread=True, group="bot")
    def think(self, moves: int, seat: int) -> None:
        state = self.match.state
        view = self.rules.view(state, seat)
        legal = self.rules.legal_actions(state)
        action = self.bot.choose(view, legal, self.match.seats[seat].level)
        self._hurry.wait(self.app.bot_delay)
        try:
            self.app.call_from_thread(self._computer_moves, moves, action)
        except RuntimeError:
            pass  # the app closed while it thought

    def _computer_moves(self, moves: int, action) -> None:
        if len(self.match.actions) != moves or self not in self.app.screen_stack:
            return  # the match moved on (or was left) while it thought
        if self.app.screen is not self or self.notice_open:
            self._pending = (moves, action)  # a result, rules or a question are open: wait
            return
        self.busy = self.thinking = False
        self.play(action)

    def on_screen_resume(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self.call_after_refresh(self._computer_moves, *pending)

    def action_hurry(self) -> None:
        self._hurry.set()

    def on_unmount(self) -> None:
        self._hurry.set()  # a thinking computer seat lets go at once

    # ------------------------------------------------------------ leaving

    def action_leave(self) -> None:
        if self.rules.is_over(self.match.state) or self.frames is not None:
            self.app.pop_screen()
            if self.shared:
                self._leave_table()
            return
        from .notices import ConfirmScreen

        if self.shared:
            if self.seating.seat is None:  # a spectator just goes
                self._leave_table()
                self.app.pop_screen()
                return

            def up(yes: bool | None) -> None:
                if yes:
                    self._leave_table()
                    self.app.pop_screen()

            self.app.push_screen(
                ConfirmScreen(
                    "Leave this table?",
                    "Your seat is kept for 3 minutes: take it again from the lobby.\n"
                    "Then a computer plays it.",
                ),
                up,
            )
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.workers.cancel_group(self, "bot")
                self._hurry.set()
                self.app.pop_screen()

        self.app.push_screen(
            ConfirmScreen("Leave this game?", "It is saved: Continue on the menu resumes it."),
            answer,
        )

    def action_scroll_log(self, pages: int) -> None:
        from garito.widgets.gamelog import GameLog

        for log in self.query(GameLog):
            log.page(-pages)

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(self.match.game, self.match.config))
