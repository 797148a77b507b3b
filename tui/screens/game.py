"""GameScreen: the Textual glue every game screen shares.

The match is driven by a ``Session`` (``core.session``): it applies moves
(refusing illegal ones with the rule's own words), says whose turn it is and
chooses a computer seat's move, which this screen runs in a thread worker at
a pace the player can skip. The session's watcher, a ``Keeper``
(``tui.keeper``), saves after every move and keeps a finished match in the
history. A replay is a ``Replay`` of the match, stepped with the arrows.
What the screen waits for is one value, ``waiting`` (a ``Waiting``): a
person's move, a computer's, the server's answer, another seat's move, a
move's outcome on screen, the hand-off between two people at one keyboard.

A game's screen subclasses it, lays out its widgets and turns the match
into what they show (``show``), and reacts to a move (``after_action``).

At a shared table (``seating``) the server holds the match: ``play`` sends
the move, and each match the server sends back (``receive``) goes through
the same ``after_action`` flow as a move played here; only the screen's own
seat is played from this keyboard, nothing is saved but the finished
match's record, and no computer thinks here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any

from textual import work
from textual.binding import Binding
from textual.reactive import var
from textual.screen import Screen

from garito.core.errors import IllegalAction
from garito.core.i18n import N_, _
from garito.core.match import Match
from garito.core.session import Replay, Session
from garito.server.messages import Act, Fill, Leave, Rematch

from ..keeper import Keeper
from .results import WIDE, MatchOver

if TYPE_CHECKING:
    from rich.text import Text
    from textual import getters
    from textual.timer import Timer

    from garito.widgets.notice import Notice

    from ..app import GarApp


TALK_KEPT = 200  # chat lines a table's log keeps


class Waiting(Enum):
    """What a game screen waits for before the next move."""

    NOTHING = "nothing"  # the seat to act is played here and may move (or the match is over)
    COMPUTER = "computer"  # a computer seat here is choosing its move
    SERVER = "server"  # this seat's move is on its way to the table server
    TABLE = "table"  # another seat's move at a shared table, from the server
    SHOWING = "showing"  # a move's outcome is being shown (a round's result, the Red Man)
    HANDOFF = "handoff"  # the screen that hands the keyboard to the next person
    REPLAY = "replay"  # nobody plays in a replay


# A screen's own binding of a key replaces its base's bindings of that key
# (Textual merges by key): a game screen that binds n itself lists this first.
REMATCH = Binding("n", "over('rematch')", N_("Rematch"))


class GameScreen(Screen[None]):
    HOLDS_A_GAME = True  # the "too small" notice says the game is kept (notices)
    if TYPE_CHECKING:
        app = getters.app(GarApp)
        prompt: var[str | Text]  # each game's screen binds its prompt line to its own

    # A game whose seats hold secrets (Decimus's dice) shows one human's
    # view at a time and, between two humans, a hand-off screen.
    HIDES_HANDS = False
    SECRETS = "dice come"  # what the hand-off screen says is about to show

    BINDINGS = [
        # While a round's result or the match's end is open, only their keys
        # work (on_key, check_action): Space, Enter or Escape close a round's
        # result; n (or r) asks for a rematch and Enter (or Escape) leaves at
        # the match's end. These bindings put them on the key bar, on keys
        # bound already, so that the games' own keys keep their places on it.
        REMATCH,
        Binding("escape", "close_notice", N_("Continue"), key_display="space"),
        Binding("escape", "over('menu')", N_("Menu"), key_display="⏎"),
        Binding("escape", "over('lobby')", N_("Lobby"), key_display="⏎"),
        Binding("escape", "leave", N_("Menu")),
        Binding("question_mark,f1", "rules", N_("Rules")),
        Binding("b", "fill", N_("Computers take the open seats")),
        # "/" and not "t": the Red Man's "I tip my hat" is t
        Binding("slash", "chat", N_("Talk"), key_display="/"),
        Binding("pageup", "scroll_log(-1)", N_("Log"), show=False),
        Binding("pagedown", "scroll_log(1)", N_("Log"), show=False),
    ]

    # What a StakeBar is bound to, on the screens of games with stakes (see
    # ``offer_stake``); screens without one leave them be.
    amount: var[int] = var(0)
    low: var[int] = var(0)
    high: var[int] = var(0)
    note: var[str] = var("")
    staking: var[bool] = var(False)

    def __init__(self, match: Match[Any, Any, Any], seating: Any = None) -> None:
        super().__init__()
        self.seating = seating  # a shared table's Seating (tui.link), or None
        self._notice: Notice | None = None  # the round's result box, once mounted
        self._begin(match)

    def _begin(self, match: Match[Any, Any, Any]) -> None:
        """The screen's state for ``match``, just opened: as the screen is
        made, and again for a rematch played on it (``restart``). A game's
        screen that keeps state of its own sets it here too, after this."""
        seating = self.seating
        self.rules = match.rules
        here = None if seating is None else ([] if seating.seat is None else [seating.seat])
        self.session: Session[Any, Any, Any] = Session(match, here=here, computers=seating is None)
        self.replaying: Replay[Any, Any, Any] | None = None
        self.waiting = Waiting.NOTHING
        self._hurry = asyncio.Event()  # the player asked the computer seat not to pause
        self._read_together = False  # a round's box both players at this keyboard read
        self._thinks_at: int | None = None  # the move a computer seat was asked for
        self._pending: tuple[int, Any] | None = None  # a computer's move waiting for a dialog to close
        self._notice_then: Callable[[object], None] | None = None  # what follows the round's result
        self._notice_timer: Timer | None = None  # closes it at a table with no human
        self._reveal: Timer | None = None  # opens it a moment after the move that ended the round
        self._revealing: tuple[str, Text | str] = ("", "")  # the box on its way: title and body
        self.ended: int | None = None  # a round's result is up: the table shows events[:ended]
        self._story: list[str] = []  # the log so far; events only ever grow
        self._story_names: tuple[str, ...] = match.names
        self._stake_for: tuple[int, int] | None = None  # (move number, seat) the amount belongs to
        self._humans = list(self.session.here)
        self._incoming: deque[Match[Any, Any, Any]] = deque()  # the server's, waiting for a result box
        self.open_seats: list[int] = []  # a shared table's seats nobody has taken yet
        self.away: list[int] = []  # a shared table's seats whose player left (kept a while)
        self.shown_to = self._humans[0] if self._humans else 0  # whose secrets the table may show
        self.finished_at = ""  # when a shared table's server saw the match end
        self.rematch_asked: list[int] = []  # a shared table's seats that asked for a rematch
        self.over: MatchOver | None = None  # the match's end, once it is up
        # A shared table's talk: (events told when it was said, a spectator's, the line)
        self._talk: deque[tuple[int, bool, str]] = deque(maxlen=TALK_KEPT)
        self.hear_spectators = self.seating is not None and self.seating.seat is None
        # (the state, the moment, the keys): see keys_now
        self._keys_memo: tuple[Any, dict[tuple[object, ...], frozenset[str]]] | None = None

    @property
    def match(self) -> Match[Any, Any, Any]:
        """The match on the table: the session's, or a replay's frame."""
        return self.replaying.match if self.replaying is not None else self.session.match

    @property
    def busy(self) -> bool:
        """Something other than a move from here is awaited (a computer, a
        result on screen, a hand-off, another seat, a replay)."""
        return self.waiting not in (Waiting.NOTHING, Waiting.SERVER)

    @property
    def thinking(self) -> bool:
        """A computer seat here is choosing its move (Space hurries it)."""
        return self.waiting is Waiting.COMPUTER

    @property
    def frames(self) -> list[Match[Any, Any, Any]] | None:
        """A replay's match after each move; None when the match is played."""
        return self.replaying.frames if self.replaying is not None else None

    @property
    def at(self) -> int:
        """The replay's move."""
        return self.replaying.at if self.replaying is not None else len(self.match.actions)

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
        return self.session.plays_here(seat)

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
        self.query_one(GameLog).tell(self._with_talk())

    def _with_talk(self) -> list[str]:
        """The story with the table's talk beside the moves it came after."""
        if not self._talk:
            return self._story
        talk = [(at, line) for at, spectator, line in self._talk if self.hear_spectators or not spectator]
        out: list[str] = []
        i = 0
        for k, line in enumerate(self._story):
            while i < len(talk) and talk[i][0] <= k:
                out.append(talk[i][1])
                i += 1
            out.append(line)
        out += [line for _, line in talk[i:]]
        return out

    def hear(self, name: str, text: str, spectator: bool) -> None:
        """A chat line said at this table (``spectator``: in the spectators'
        channel, shown to a player who chose to hear it)."""
        from garito.widgets.gamelog import GameLog

        who = _("{name} (watching)").format(name=name) if spectator else name
        self._talk.append((len(self._story), spectator, f"{who}: {text}"))
        if self.is_mounted:
            self.query_one(GameLog).tell(self._with_talk())

    def action_chat(self) -> None:
        from garito.widgets.chat import ChatLine

        self.query_one(ChatLine).open()

    def on_chat_line_sent(self, event: Any) -> None:
        """What the player typed: a line for the table, or one of the chat
        line's commands (/spectators, /mute name, /unmute name)."""
        from garito.server.messages import Mute, Say

        text: str = event.text
        word, _sep, rest = text.partition(" ")
        if word == "/spectators":
            from garito.widgets.gamelog import GameLog

            self.hear_spectators = not self.hear_spectators
            self.query_one(GameLog).tell(self._with_talk())
            self.notify(
                _("You hear the spectators.")
                if self.hear_spectators
                else _("The spectators' talk is hidden.")
            )
        elif word in ("/mute", "/unmute") and rest.strip():
            self.seating.send(Mute(rest.strip(), word == "/mute"))
            said = _("Muted: {name}") if word == "/mute" else _("You hear again: {name}")
            self.notify(said.format(name=rest.strip()), markup=False)
        else:
            self.seating.send(Say(self.seating.table, text))

    def stake_bar(self, label: str = ""):
        """The StakeBar for ``compose``, bound to the values ``offer_stake`` sets."""
        from garito.widgets.stake import StakeBar

        return StakeBar(label or _("Stake"), id="stake").data_bind(
            GameScreen.amount, GameScreen.low, GameScreen.high, GameScreen.note, active=GameScreen.staking
        )

    def log_panel(self):
        """The titled log for ``compose`` (``yield from self.log_panel()``)."""
        from garito.widgets.gamelog import GameLog
        from garito.widgets.panel import Panel

        with Panel(_("Log"), id="log-panel") as panel:
            if self.seating is not None and self.seating.code:  # so it can be told to a friend
                from textual.content import Content

                panel.border_subtitle = Content(_("private: code {code}").format(code=self.seating.code))
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
        self.ended = next((i for i in new if self.rules.opens_round(events[i])), len(events))
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
            self._revealing = (title, body)
            self._reveal = self.set_timer(pause, lambda: self._open_box(*self._revealing))
            # The box's own keys from now: the key bar never shows only
            # ^q Quit while the box is on its way (it looked frozen), and
            # Space opens the box at once.
            self.refresh_bindings()
        else:
            self._open_box(title, body)

    def _open_box(self, title: str, body: Text | str) -> None:
        assert self._notice is not None  # mounted with the screen
        self._reveal = None
        self._notice.open(title, body, self.size)
        if not self._humans:
            # its own timer, stopped when the box closes: a timer left over
            # from an earlier box would close a later one early
            self._notice_timer = self.set_timer(max(1.5, 3 * self.app.bot_delay), self.action_close_notice)
        # The box comes after the screen's next refresh: its keys with it, in
        # one frame (at once, the key bar was a frame of its own). Asked of
        # the box, after its own drawing: asked of the screen, the keys could
        # be drawn before the box and the box a frame later.
        self._notice.call_after_refresh(self.refresh_bindings)

    @property
    def notice_open(self) -> bool:
        """A round's result is on screen, or about to be: only its keys work."""

        # Asked for every key binding whenever the key bar is refreshed: a
        # DOM query here took a fifth of the app's time per key.
        return self._reveal is not None or (
            self.over is None and self._notice is not None and self._notice.is_open
        )

    def action_close_notice(self) -> None:
        if self._reveal is not None:  # on its way: shown now, closed by the next key
            self._reveal.stop()
            self._open_box(*self._revealing)
            return
        if self._notice is None or not self.notice_open:
            return  # nothing open
        if self._notice_timer is not None:
            self._notice_timer.stop()
            self._notice_timer = None
        self._notice.close()
        then, self._notice_then = self._notice_then, None
        self.refresh_bindings()
        # A round's box is read by everyone at the keyboard: the next to act
        # is handed it again, even if it was theirs (new secrets are dealt).
        self._read_together = self.HIDES_HANDS and len(self._humans) > 1
        if then is not None:
            then(None)
        self.on_screen_resume()  # a computer's move that waited for it

    # ------------------------------------------------------------ replays

    def replay(self, at: int | None = None) -> GameScreen:
        """Make this screen a replay of its (finished or not) match: the
        table after each move, stepped with ← →, Home and End."""
        self.replaying = Replay(self.session.match, at)
        self.waiting = Waiting.REPLAY
        return self

    def step_to(self, at: int) -> None:
        assert self.replaying is not None
        self.replaying.step_to(at)
        self.show()
        self.hide_stake()  # nobody stakes in a replay
        self.prompt = _("Replay, {where}.  ←/→ step, Home End, Esc back").format(
            where=self.replaying.caption()
        )

    def _replay_key(self, event: Any) -> None:
        assert self.replaying is not None
        keys = {"left": -1, "right": 1, "pageup": -10, "pagedown": 10}
        if event.key in keys:
            self.step_to(self.replaying.at + keys[event.key])
        elif event.key == "home":
            self.step_to(0)
        elif event.key == "end":
            self.step_to(self.replaying.last)
        elif event.key == "escape":
            self.app.pop_screen()

    def on_resize(self, event: Any) -> None:
        if self._notice is not None:
            self._notice.fit(event.size)  # an open box, centred in the new size

    def on_key(self, event: Any) -> None:
        if self.replaying is not None:
            event.stop()  # a replay's keys, and nothing of the game's
            event.prevent_default()
            self._replay_key(event)
            return
        if self.over is not None:
            event.stop()  # the match's end: only its keys now
            event.prevent_default()
            what = {"n": "rematch", "r": "rematch", "enter": "menu", "escape": "menu"}.get(event.key)
            if what == "menu" and self.over.kind != "match":
                what = "lobby"
            if what is not None and self.over.offers(what):
                self.action_over(what)
            return
        if self.notice_open:
            event.stop()  # before the bindings: only the result's keys now
            event.prevent_default()
            if event.key in ("space", "enter", "escape"):
                self.action_close_notice()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if self.over is not None:
            return action == "over" and self.over.offers(str(parameters[0]))
        if action == "over":
            return False
        if action == "chat":
            return self.shared and self.replaying is None
        if action == "close_notice":
            return self.notice_open
        if self.notice_open or self.replaying is not None:
            return action == "leave" and self.replaying is not None
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

    def key_label(self, binding: Binding) -> str | None:
        """The key bar's word for Escape is where it goes: a replay back to
        where it was opened (History), a shared table to the lobby."""
        if binding.action != "leave":
            return None
        if self.replaying is not None:
            return _("Back")
        return _("Lobby") if self.shared else None

    def keys_now(self, compute: Callable[..., frozenset[str]], *moment: object) -> frozenset[str]:
        """``compute(*moment)``, the game's keys that work now, worked out
        once per state of the match and ``moment`` (whose turn, what is
        picked): Textual asks ``allows`` for every binding each time the
        bindings are refreshed, several times a move, and a game's legal
        moves took a quarter of Decimus's CPU per key asked anew each time."""
        state = self.match.state
        if self._keys_memo is None or self._keys_memo[0] is not state:
            self._keys_memo = (state, {})
        known = self._keys_memo[1]
        if moment not in known:
            known[moment] = compute(*moment)
        return known[moment]

    def show_result(self, title: str, body, keys: str = "") -> None:
        """The match's end, in the table's box (``MatchOver``); then a
        rematch (``rematch_config``) or the menu. At a shared table: a
        rematch asked of the others, or the lobby. ``keys``: the game's own
        line for what the keys do."""
        if self.over is not None:
            return  # up already (a shared table's news after the end ends nothing again)
        if self.shared and self.seating.seat is not None:
            kind = "table"
        elif self.shared:
            kind = "watch"  # the watcher's own keys, whatever the game would offer players
        else:
            kind = "match"
        self.over = MatchOver(kind, title, body, keys)
        self.over.asked = self._asked_names()
        self._show_over()

    def _show_over(self) -> None:
        assert self._notice is not None and self.over is not None  # mounted with the screen
        self._notice.open(self.over.title, self.over.body, self.size, keys=self.over.keys(), width=WIDE)
        self.call_after_refresh(self.refresh_bindings)  # with the box, in one frame

    def action_over(self, what: str) -> None:
        """A key of the match's end: ``rematch``, ``menu`` or ``lobby``."""
        if self.over is None or not self.over.offers(what):
            return
        if what == "rematch" and self.over.kind == "table":
            self.over.mine = True
            self.seating.send(Rematch(self.seating.table))
            self._show_over()
            return
        self._after_match(what == "rematch")

    def _asked_names(self) -> list[str]:
        names = self.match.names
        return [names[s] for s in self.rematch_asked if s < len(names)]

    def asked_rematch(self, seats) -> None:
        """The server says who has asked for a rematch."""
        self.rematch_asked = list(seats)
        if self.over is not None and self.over.asked != (asked := self._asked_names()):
            self.over.asked = asked  # every news of the table says who has asked: shown as it changes
            self._show_over()

    def _after_match(self, rematch: bool) -> None:
        if rematch and not self.shared:
            from garito.core.dice import fresh_seed

            m = self.match
            self.restart(Match.start(m.game, self.rematch_config(), fresh_seed(), m.seats))
            return
        self.app.pop_screen()
        if self.shared:
            self._leave_table()  # no rematch for this player: the seat opens for it

    def restart(self, match: Match[Any, Any, Any]) -> None:
        """Play ``match`` (a rematch: the same game and seats) on this very
        screen: what it shows and holds becomes what a new screen for it
        would (a test holds the two to each other, game by game). A new
        screen was composed, styled and laid out for each rematch: 40-55 ms
        of a rematch's key, measured at Gemelos, where the table's widgets
        are the same ones."""
        self.call_off_computer()
        for timer in (self._reveal, self._notice_timer):
            if timer is not None:
                timer.stop()
        if self._notice is not None:
            self._notice.close()
        self._begin(match)
        # The screen's bound values as a new screen has them before it
        # shows its match: a value the new match leaves unset is not the
        # last match's.
        for name, value in self._reactive_defaults().items():
            if getattr(self, name) != value:
                setattr(self, name, value)
        self.refresh_bindings()
        self._play()

    def _reactive_defaults(self) -> dict[str, Any]:
        """Each bound value's first value, as Textual gives it a new screen
        (the game screens' own: Textual's, focus among them, are the screen's)."""
        from textual.reactive import Initialize

        defaults = {}
        for name, reactive in self._reactives.items():
            if name in Screen._reactives:
                continue
            default = reactive._default
            if isinstance(default, Initialize):
                default = default(self)
            elif callable(default):
                default = default()
            defaults[name] = default
        return defaults

    # ------------------------------------------------------------ flow

    def on_mount(self) -> None:
        from garito.widgets.notice import Notice

        self._notice = Notice()
        self.mount(self._notice)
        if self.shared:
            from garito.server.messages import CANNED, MAX_SAY
            from garito.widgets.chat import ChatLine

            self.mount(ChatLine(CANNED, MAX_SAY))
        # Colours a screen picks itself (the suits) follow the theme.
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.show())
        if self.replaying is not None:
            self.step_to(self.replaying.at)
            return
        self._play()

    def _play(self) -> None:
        """The match on the screen begins (or goes on, from a save): kept from
        its first screen, shown, and the first to act is asked."""
        keeper = Keeper(
            self.app,
            shared=self.shared,
            seated=not self.shared or self.seating.seat is not None,
            finished=lambda: self.finished_at,
        )
        self.session.watch(keeper)
        keeper(self.match)  # a game is saved from its first screen, not its first move
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
        return self.is_human(self.seat_to_act) and self.waiting is Waiting.NOTHING

    def next_turn(self) -> None:
        if self._incoming:  # the server moved on while a result was open
            self._take(self._incoming.popleft())
            return
        if self.session.over:
            self.waiting = Waiting.NOTHING
            self.show()  # the whole story (a result box may have held the table as it was)
            self.finished()
            return
        seat = self.seat_to_act
        computer = self.session.computer_to_move()
        if self.shared:
            # another player's or the server's computer's move: it comes by receive()
            self.waiting = Waiting.NOTHING if self.is_human(seat) else Waiting.TABLE
            self.show()
        elif computer is not None:
            self.waiting = Waiting.COMPUTER
            self.show()
            # Asked once a move: the first turn is asked after the screen's
            # first refresh, and a key typed before it (a roll) may have
            # asked the computer already.
            if self._thinks_at != self.session.moves:
                self._thinks_at = self.session.moves
                self._hurry.clear()
                self.think(self.session.match, computer)
        elif self.HIDES_HANDS and seat is not None and (seat != self.shown_to or self._read_together):
            self._hand_off(seat, first=self._read_together)
        else:
            self.waiting = Waiting.NOTHING
            self.show()
        self.refresh_bindings()

    def call_off_computer(self) -> None:
        """A computer seat stops thinking: its move will not come (a table
        cashed out under it)."""
        self.workers.cancel_group(self, "bot")
        self._hurry.set()
        self._thinks_at = None
        self.waiting = Waiting.NOTHING

    def _hand_off(self, seat: int, first: bool = False) -> None:
        from .notices import HandOffScreen

        self.waiting = Waiting.HANDOFF
        names = self.match.names

        def ready(_: object = None) -> None:
            self.shown_to = seat
            self._read_together = False
            self.waiting = Waiting.NOTHING
            self.show()
            self.refresh_bindings()

        self.app.push_screen(
            HandOffScreen(names[seat], "" if first else names[self.shown_to], self.SECRETS), ready
        )

    def play(self, action: Any) -> bool:
        """Apply ``action`` for the seat to act; False (and a notice naming
        the rule) if the rules refuse it. At a shared table the move goes to
        the server, which answers with the match or the rule (``refused``)."""
        if self.shared:
            if self.waiting is Waiting.SERVER:
                return False  # one move at a time: the last one is on its way
            self.waiting = Waiting.SERVER
            self.seating.send(Act(self.seating.table, str(action)))
            self.refresh_bindings()
            return True
        before = self.match
        try:
            after = self.session.play(action)
        except IllegalAction as e:
            self.notify(e.rule, title=_("Not allowed"), severity="warning")
            return False
        self._moved(before, after)
        return True

    def _moved(self, before: Match[Any, Any, Any], after: Match[Any, Any, Any]) -> None:
        """A move is in (``after``): what follows it (``after_action``), then
        the next turn. The table is drawn by the next turn when play goes
        straight on (most moves), else here, as the move left it, while what
        follows waits (a round's box a moment after the move; one that holds
        the table as the round ended drew it so already, and is drawn the
        same again). Drawn before as well, it cost a draw a move (1.1 ms at
        Decimus) that never reached the screen."""
        self.waiting = Waiting.SHOWING
        self.refresh_bindings()
        self.after_action(before, after, self._proceed)
        if self.waiting is Waiting.SHOWING:  # play did not go on (_proceed)
            self.show()

    def _proceed(self, *_args: object) -> None:
        self.waiting = Waiting.NOTHING
        self.next_turn()

    # ------------------------------------------------------------ a shared table

    def validate_prompt(self, text: str) -> str:
        """Every game screen's prompt line (``prompt``) says first that a
        shared table waits for its players."""
        if self.open_seats:
            seats = _(" and ").join(str(s + 1) for s in self.open_seats)
            many = len(self.open_seats) > 1
            return (
                _("Waiting for players in seats {seats}.")
                if many
                else _("Waiting for a player in seat {seats}.")
            ).format(seats=seats)
        seat = self.seat_to_act if self.away else None
        if seat in self.away and not self.rules.is_over(self.match.state):
            return _("{name} left the table: waiting 3 minutes.").format(name=self.match.names[seat])
        return text

    def receive(self, match: Match[Any, Any, Any], open_seats: Any = (), away: Any = ()) -> None:
        """The server's match after a change at the table."""
        mine = self.seating.seat if self.seating is not None else None
        taken = [s for s in self.open_seats if s not in open_seats and s != mine and s < len(match.seats)]
        for seat in taken:
            if match.seats[seat].is_human:  # a computer there was asked for (b)
                self.notify(
                    _("{name} takes seat {seat}.").format(name=match.names[seat], seat=seat + 1),
                    title=_("A player joins"),
                    markup=False,
                )
        self.open_seats, self.away = list(open_seats), list(away)
        if self.waiting is Waiting.SHOWING or self._incoming or self._notice is None:
            # after the result on screen closes (or the screen is up)
            self._incoming.append(match)
            return
        self._take(match)

    def _take(self, after: Match[Any, Any, Any]) -> None:
        before = self.match
        if len(after.actions) != len(before.actions) + 1:
            self.session.match = after  # a seat taken or left, or a first sight: no move
            self.waiting = Waiting.NOTHING
            self.next_turn()
            return
        self.session.advance(after)
        self._moved(before, after)

    def refused(self, rule: str) -> None:
        """The server refused this screen's move (or anything it asked)."""
        if self.waiting is Waiting.SERVER:
            self.waiting = Waiting.NOTHING
        self.notify(rule, title=_("Not allowed"), severity="warning")
        self.refresh_bindings()

    def action_fill(self) -> None:
        if self.shared and self.open_seats:
            self.seating.send(Fill(self.seating.table))

    def _leave_table(self) -> None:
        self.seating.send(Leave(self.seating.table))

    # ------------------------------------------------------------ computer seats

    # Not exclusive: a computer seat that moves again at once (Willie's draws)
    # would cancel the worker that is still returning its move; a stale move is
    # dropped by _computer_moves, and leaving cancels the group.
    # Described, not named by its arguments: Textual's default description
    # is the repr of each, a whole match here (0.2 ms and growing).
    @work(group="bot", description="a computer seat's move")
    async def think(self, match: Match[Any, Any, Any], seat: int) -> None:
        # The choice is made in a thread, by asyncio.to_thread, which runs it
        # in a copy of this context. A Textual thread worker sets itself in
        # the pool thread's own context instead (asyncio's default executor
        # copies none), and stays there, naming this screen, until that
        # thread runs another worker: a game left stayed in memory with it.
        # The seat's pace is waited here, at the same time, not in the
        # thread: a server's worker holds a thread per seat choosing, none
        # per seat waiting.
        choice = asyncio.ensure_future(asyncio.to_thread(self.session.computer_move, seat, match))
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._hurry.wait(), self.app.bot_delay)
            action = await choice
        finally:
            choice.cancel()  # called off while it waited: its move is nobody's now
        self._computer_moves(len(match.actions), action)

    def _computer_moves(self, moves: int, action: Any) -> None:
        if self.session.moves != moves or self not in self.app.screen_stack:
            return  # the match moved on (or was left) while it thought
        if self.app.screen is not self or self.notice_open:
            self._pending = (moves, action)  # a result, rules or a question are open: wait
            return
        self.waiting = Waiting.NOTHING
        self.play(action)

    def on_screen_resume(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self.call_after_refresh(self._computer_moves, *pending)

    def action_hurry(self) -> None:
        self._hurry.set()

    def on_unmount(self) -> None:
        self._hurry.set()  # a thinking computer seat lets go at once
        # Textual's signals hold their subscribers for good (the callback
        # keeps the node its weak key refers to): each game left kept its
        # whole screen, about 0.6 MB, for the life of the app or worker.
        self.app.theme_changed_signal.unsubscribe(self)

    # ------------------------------------------------------------ leaving

    def action_leave(self) -> None:
        if self.session.over or self.replaying is not None:
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
                    _("Leave this table?"),
                    _(
                        "Your seat is kept for 3 minutes: take it again from the lobby.\n"
                        "Then a computer plays it."
                    ),
                ),
                up,
            )
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.call_off_computer()
                self.app.pop_screen()

        self.app.push_screen(
            ConfirmScreen(_("Leave this game?"), _("It is saved: Continue on the menu resumes it.")),
            answer,
        )

    def action_scroll_log(self, pages: int) -> None:
        from garito.widgets.gamelog import GameLog

        for log in self.query(GameLog):
            log.page(-pages)

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(self.match.game, self.match.config))
