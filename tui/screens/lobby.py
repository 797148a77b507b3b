"""The lobby of a Garito server's shared tables: the open tables, a new
table, a seat to take or a table to watch.

The lobby holds the app's one connection to the table server (``tui.link``)
for as long as it is open: leaving it leaves the server (a seat still in
play is held for a while). Every line from the server comes here; a table's
state goes to the game screen playing or watching it, which the lobby opens
the first time one comes.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import var
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from garito.core import catalog
from garito.core.i18n import N_, _, ngettext
from garito.core.names import printable
from garito.server.messages import (
    CANNED,
    CODE_LENGTH,
    MAX_SAY,
    WRONG_CODES,
    AskLeaders,
    Closed,
    Create,
    Ended,
    Error,
    Hello,
    Join,
    JoinCode,
    Leaders,
    ListedSeat,
    Listing,
    Mute,
    Said,
    Say,
    SeatAsked,
    ServerMessage,
    StateUpdate,
    TableChanged,
    Tables,
    Watch,
    Welcome,
)
from garito.store import environ
from garito.widgets.chat import ChatLine
from garito.widgets.field import Field
from garito.widgets.gamelog import GameLog
from garito.widgets.keybar import KeyBar

from ..link import Link, Seating
from ..served import tables_socket
from .game import GameScreen
from .leaders import LeadersScreen

if TYPE_CHECKING:
    from textual import getters

    from ..app import GarApp

NEW = "new"
TALK_KEPT = 100  # lines of the lobby's talk kept
QUIET = N_("Nobody has said a word yet: t talks to everyone in the lobby.")
OPENING = -1  # the table asked for, before its number comes back


class LobbyScreen(Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(GarApp)

    # Listed by how often a player needs them: at 80 columns the last of
    # them give way to an ellipsis (see KeyBar), never Menu, Rules or Quit,
    # and the README lists every lobby key.
    KEYBAR_LAST = ("leave", "rules", "quit")

    BINDINGS = [
        Binding("enter", "open", N_("Sit / watch"), priority=True),
        Binding("n", "new", N_("New table")),
        Binding("t,slash", "chat", N_("Talk"), key_display="t"),
        Binding("r", "ratings", N_("Ratings")),
        Binding("c", "code", N_("Code")),
        Binding("w", "watch", N_("Watch")),
        Binding("escape", "leave", N_("Menu")),
        Binding("question_mark,f1", "rules", N_("Rules")),
        Binding("j", "cursor(1)", show=False),
        Binding("k", "cursor(-1)", show=False),
    ]

    status: var[str] = var(N_("Connecting to the tables…"))

    def watch_status(self, status: str) -> None:
        if self.is_mounted:
            self.query_one("#lobby-status", Static).update(_(status))

    def __init__(self, path: str | None = None) -> None:
        super().__init__()
        self.path = path or tables_socket()
        self.link = Link(self._received)
        self.me = ""  # the name the server knows this player by
        self.tables: list[Listing] = []
        self.playing: GameScreen | None = None  # the table's screen, while one is open
        self.table: int | None = None  # the table this player sits at or watches
        self.connected = False
        self.news = ""  # how a table this player left ended, told once
        self.talk: list[str] = []  # the lobby's talk, newest last
        self.wrong_codes = 0  # private tables' codes the server refused (it hangs up at WRONG_CODES)
        self.by_code = False  # a code was sent: an error is its refusal
        self._link_task: asyncio.Task | None = None

    def compose(self) -> ComposeResult:
        yield Static(_("Shared tables"), id="title")
        with Horizontal(id="lobby-body"):
            yield OptionList(id="tables")
            yield Static(id="table-about")
        yield GameLog(id="lobby-talk")  # what is said in the lobby (t to talk)
        yield Static(_(self.status), id="lobby-status", markup=False)  # it holds the player's name
        yield ChatLine(CANNED, MAX_SAY)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#tables", OptionList).border_title = _("Tables")
        self.query_one("#table-about", Static).border_title = _("Table")
        self._fill()
        self.query_one("#lobby-talk", GameLog).tell([_(QUIET)])
        self.connect()

    def connect(self) -> None:
        """The connection lives as long as the lobby: a task of its own, not a
        worker (workers are work that ends; tests wait for them)."""
        from garito.store import settings

        if not self.path:
            self.status = _("No table server: shared tables are played over `garito serve`.")
            return
        hello = Hello(settings.player(), environ.get("GARITO_TABLES_TOKEN"))
        self._link_task = asyncio.create_task(self.link.run(self.path, hello))

    def on_unmount(self) -> None:
        self.link.close()
        if self._link_task is not None:
            self._link_task.cancel()

    # ------------------------------------------------------------ the server's lines

    def _received(self, m: ServerMessage | None) -> None:
        if m is None:
            if not self.is_attached:
                return  # the lobby closed its own connection
            self.connected = False
            self.status = _("The table server is gone: Esc goes back to the menu.")
            if (playing := self._at_table()) is not None:
                playing.refused(_("The connection to the table server was lost."))
            if isinstance(self.app.screen, LeadersScreen):
                self.app.screen.gone(self.status)
            self.refresh_bindings()
            return
        if isinstance(m, Welcome):
            self.connected, self.me = True, m.name
            self.sub_title = self.me
            self._list(list(m.tables), arriving=True)
        elif isinstance(m, Tables):
            self._list(list(m.tables))
        elif isinstance(m, TableChanged):  # one table opened or changed
            rest = [o for o in self.tables if o.table != m.table.table]
            self._list(sorted([*rest, m.table], key=lambda o: o.table))
        elif isinstance(m, Closed):  # a table gone from the listing
            self._list([t for t in self.tables if t.table != m.table])
        elif isinstance(m, StateUpdate):
            self._state(m)
        elif isinstance(m, Said):
            if m.table is None:
                self.talk = [*self.talk, f"{m.name}: {m.text}"][-TALK_KEPT:]
                self.query_one("#lobby-talk", GameLog).tell(self.talk or [_(QUIET)])
            elif (playing := self._at_table()) is not None and m.table == self.table:
                playing.hear(m.name, m.text, m.spectator)
        elif isinstance(m, Ended):  # a table this player left ended meanwhile
            told = _("Table {number} ({game}) ended while you were away: {summary}").format(
                number=m.table, game=m.title, summary=m.summary
            )
            self.news = told
            self.status = told
            self.notify(told, title=_("Your table"), timeout=12, markup=False)
        elif isinstance(m, Leaders):
            if isinstance(self.app.screen, LeadersScreen):
                self.app.screen.show(m)
        elif isinstance(m, Error):
            if self.by_code and self.table == OPENING:
                self._wrong_code(m.rule)
            elif (playing := self._at_table()) is not None:
                playing.refused(m.rule)
            else:
                self.notify(m.rule, title=_("Not allowed"), severity="warning", markup=False)

    def _state(self, m: StateUpdate) -> None:
        if self.table == OPENING:
            self.table, self.by_code = m.table, False
        if m.table != self.table:
            return  # a table this player has just left
        try:
            match = m.match()
        except (KeyError, LookupError, ValueError, TypeError) as e:
            self.notify(
                _("A table's state could not be read: {why}").format(why=e), severity="error", markup=False
            )
            return
        if (playing := self._at_table()) is not None:
            if match.commitment == playing.session.match.commitment:
                playing.finished_at = m.finished
                playing.receive(match, m.open, m.away)
                playing.asked_rematch(m.rematch)
                return
            # A rematch at this table: its new match on a screen of its own.
            while self.app.screen is not self:
                self.app.pop_screen()
        from ..games import screen_for

        self.playing = screen_for(match, Seating(m.table, m.seat, self.link.send, m.code))
        self.playing.open_seats, self.playing.away = list(m.open), list(m.away)
        self.playing.finished_at = m.finished
        if m.seat is None:
            self.notify(
                _("You watch table {number}. Esc leaves it.").format(number=m.table), timeout=4, markup=False
            )
        self.app.push_screen(self.playing)

    def _at_table(self) -> GameScreen | None:
        """The table's screen, while it is open."""
        return self.playing if self.playing is not None and self.playing in self.app.screen_stack else None

    def on_screen_resume(self) -> None:
        if self.playing is not None and self._at_table() is None:
            self.playing, self.table = None, None  # back from the table
        self.query_one("#tables", OptionList).focus()
        self.query_one("#lobby-talk", GameLog).tell(self.talk or [_(QUIET)])

    # ------------------------------------------------------------ the listing

    def _list(self, tables: list[Listing], arriving: bool = False) -> None:
        # The first table to open, while the cursor had nowhere to be but
        # "New table...", takes the cursor (Enter then sits there).
        first = not self.tables
        self.tables = [t for t in tables if not t.over]
        self._fill(arriving or first)
        n = len(self.tables)
        free = sum(1 for t in self.tables if t.free)
        me = self.me
        if self.news:  # said until the listing next changes
            self.status, self.news = self.news, ""
            return
        self.status = (
            ngettext(
                "You are {me}. {count} table open, {free} with a free seat.",
                "You are {me}. {count} tables open, {free} with a free seat.",
                n,
            ).format(me=me, count=n, free=free)
            if n
            else _("You are {me}. No table yet: n opens one.").format(me=me)
        )

    def _fill(self, arriving: bool = False) -> None:
        """The listing; the cursor stays on its table, and on arriving it
        goes to the player's kept seat, else the first free one."""
        options = self.query_one("#tables", OptionList)
        keep = options.highlighted_option.id if options.highlighted_option else None
        if arriving:
            wanted = [t for t in self.tables if self._mine(t)] or [t for t in self.tables if t.free]
            keep = str(wanted[0].table) if wanted else None
        options.clear_options()
        rows: list[Option | None] = []
        for t in self.tables:
            rows.append(Option(self._row(t), id=str(t.table)))
        if rows and not self.app.ascii_only:
            rows.append(None)
        rows.append(Option(Text(_("New table…"), "bold"), id=NEW))
        options.add_options(rows)
        ids = [o.id for o in rows if o is not None]
        options.highlighted = ids.index(keep) if keep in ids else 0
        self._about()

    def _row(self, t: Listing) -> Text:
        text = Text(f"{t.table:>2} ", "dim")
        text.append(f"{t.title:<16}")
        for i, seat in enumerate(t.seats):
            if i:
                text.append(" ")
            text.append(*self._seat(seat, short=True))
        return text

    def _seat(self, seat: ListedSeat, short: bool = False) -> tuple[str, str]:
        """How a seat of the listing reads, and its style: appended to a
        ``Text``, so a name is shown as it is, never read as markup."""
        if seat.held:
            who = printable(seat.held_for or _("a player"))
            said = _("{name} (away)") if short else _("{name}, away: kept 3 minutes")
            return (said.format(name=who), "italic dim")
        if seat.name is None:
            return (_("·open·") if short else _("open: Enter takes it"), "bold green")
        name = printable(seat.name)
        if seat.kind == "computer":
            level = f" ({printable(seat.level)})" if seat.level else ""
            return (name if short else _("{name}, computer{level}").format(name=name, level=level), "")
        return (name, "bold")

    def _selected(self) -> Listing | str | None:
        option = self.query_one("#tables", OptionList).highlighted_option
        if option is None:
            return None
        if option.id == NEW:
            return NEW
        return next((t for t in self.tables if str(t.table) == option.id), None)

    def on_option_list_option_highlighted(self, _event) -> None:
        self._about()
        self.refresh_bindings()

    def on_option_list_option_selected(self, _event) -> None:
        self.action_open()

    def _about(self) -> None:
        about = self.query_one("#table-about", Static)
        t = self._selected()
        about.border_title = _("Table")  # the panel's title says what the cursor is on
        if t is None:
            about.update("")
            return
        if t == NEW:
            about.border_title = _("New table")
            about.update(
                Text.assemble(
                    (_("A new table") + "\n\n", "bold"),
                    _(
                        "Choose the game, the seats (open for other players, or computers) "
                        "and the rules; you sit in the first seat and the others join from here."
                    ),
                )
            )
            return
        assert isinstance(t, Listing)
        rules = catalog.rules(t.game)
        text = Text()
        text.append(f"{rules.title}", "bold")
        text.append("  " + _("table {number}").format(number=t.table) + "\n\n", "dim")
        rated = any(s.rating is not None for s in t.seats)
        seats = Table.grid(padding=(0, 1))  # with ratings: a column of their own, never wrapped away
        seats.add_column(no_wrap=True)
        seats.add_column()
        seats.add_column(justify="right", no_wrap=True)
        for i, seat in enumerate(t.seats):
            if not rated:
                text.append(f"{i + 1}  ")
                text.append(*self._seat(seat))
                text.append("\n")
                continue
            rating = Text("" if seat.rating is None else f"{seat.rating:.1f}", "cyan", no_wrap=True)
            seats.add_row(Text(f"{i + 1}"), Text(*self._seat(seat)), rating)
        head = text
        if rated:
            head.rstrip()  # the grid follows, after one blank line
            head.append("\n")
            text = Text()
            text.append(_("Beside a name: its rating.") + "\n", "dim")
        try:
            config = rules.config_from_dict(t.config)
            values = {v.key: getattr(config, v.key) for v in rules.variants}
            rows = [
                f"{_(v.label)}: {_(v.label_of(values[v.key]))}" for v in rules.variants if v.active(values)
            ]
        except (TypeError, ValueError, LookupError):
            rows = [_("Rules this Garito does not know")]
        if rows:
            text.append("\n" + "\n".join(rows) + "\n", "dim")
        if t.private and t.code:  # told to a friend, who joins with it (c)
            text.append(_("Private: code {code}").format(code=printable(t.code)) + "\n", "bold")
            text.append(_("Not listed: friends join with c and the code.") + "\n", "dim")
        if t.commitment:  # the seed's hash, published before the first die (garito verify)
            text.append(_("Dice sealed: {hash}").format(hash=printable(t.commitment)[:12]) + "\n", "dim")
        text.append("\n")
        if self._mine(t):
            text.append(_("Your seat is kept here: Enter takes it back."), "italic")
        elif t.free:
            text.append(_("Enter: sit   w: watch"), "italic")
        elif rules.spectators:
            text.append(_("Full. Enter or w: watch."), "italic")
        else:
            text.append(_("Full, and every hand is secret: nothing to watch."), "italic")
        about.border_title = _("Table {number}").format(number=t.table)
        about.update(Group(head, seats, text) if rated else text)

    def _mine(self, t: Listing) -> bool:
        return any(s.held_for == self.me for s in t.seats)

    # ------------------------------------------------------------ keys

    def action_cursor(self, delta: int) -> None:
        tables = self.query_one("#tables", OptionList)
        tables.action_cursor_down() if delta > 0 else tables.action_cursor_up()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if self.is_mounted and self.query_one(ChatLine).is_open:
            return False  # the keys are the chat line's while it is open
        if action in ("chat", "code", "ratings"):
            return self.connected
        if action in ("open", "watch", "new"):
            if action == "watch" and not isinstance(self._selected(), Listing):
                return False  # on "New table…" there is nothing to watch
            return self.connected
        if action == "rules":
            return isinstance(self._selected(), Listing)
        return True

    def action_open(self) -> None:
        t = self._selected()
        if t == NEW:
            self.action_new()
        elif isinstance(t, Listing):
            if t.free or self._mine(t):
                self._go(Join(t.table))
            else:
                self._go(Watch(t.table))

    def action_watch(self) -> None:
        t = self._selected()
        if isinstance(t, Listing):
            self._go(Watch(t.table))

    def _go(self, message: Join | Watch) -> None:
        self.table = message.table
        self.link.send(message)

    def action_new(self) -> None:
        def chosen(game: str | None) -> None:
            if game:
                from .newgame import NewGameScreen

                self.app.push_screen(NewGameScreen(game, shared=True), self._create)

        self.app.push_screen(GamePicker(), chosen)

    def _create(self, table, seed: int | None = None) -> None:
        """Open the table the dialog describes (its dice: the server's, or
        ``seed``'s when a test gives one)."""
        if not table:
            return
        game, config, seats = table[:3]
        private = len(table) > 3 and table[3]
        self.table, self.by_code = OPENING, False
        self.link.send(
            Create(
                game,
                tuple(SeatAsked(s.kind, s.level, s.name) for s in seats),
                config.to_dict(),
                seed,
                private,
            )
        )

    def action_code(self) -> None:
        def chosen(code: str | None) -> None:
            if code:
                self.table, self.by_code = OPENING, True
                self.link.send(JoinCode(code))

        self.app.push_screen(CodeDialog(WRONG_CODES - self.wrong_codes), chosen)

    def _wrong_code(self, rule: str) -> None:
        """The server refused a code: say so, and how many more it allows."""
        self.table, self.by_code = None, False
        self.wrong_codes += 1
        left = WRONG_CODES - self.wrong_codes
        if rule.startswith("Disconnected") or left < 1:  # the server counts them, across lobbies too
            self.notify(rule, title=_("Wrong code"), severity="warning", timeout=8, markup=False)
            return
        more = ngettext(
            "{left} more wrong code and the server hangs up.",
            "{left} more wrong codes and the server hangs up.",
            left,
        ).format(left=left)
        self.notify(f"{rule}\n{more}", title=_("Wrong code"), severity="warning", timeout=8, markup=False)

    def action_ratings(self) -> None:
        """The leaderboard of the game under the cursor (or the first)."""
        t = self._selected()
        game = t.game if isinstance(t, Listing) else None
        self.app.push_screen(LeadersScreen(lambda g: self.link.send(AskLeaders(g)), self.me, game))

    def action_chat(self) -> None:
        self.query_one(ChatLine).open()
        self.refresh_bindings()

    def on_chat_line_sent(self, event: ChatLine.Sent) -> None:
        word, _sep, rest = event.text.partition(" ")
        if word in ("/mute", "/unmute") and rest.strip():
            self.link.send(Mute(rest.strip(), word == "/mute"))
            said = _("Muted: {name}") if word == "/mute" else _("You hear again: {name}")  # the table's words
            self.notify(said.format(name=rest.strip()), markup=False)
        else:
            self.link.send(Say(None, event.text))
        self.refresh_bindings()

    def on_descendant_blur(self, event) -> None:
        if isinstance(event.widget, ChatLine):
            self.query_one("#tables", OptionList).focus()
        self.refresh_bindings()

    def action_leave(self) -> None:
        self.link.close()
        self.app.pop_screen()

    def action_rules(self) -> None:
        t = self._selected()
        if isinstance(t, Listing):
            from .rules import RulesScreen

            self.app.push_screen(RulesScreen(t.game))


class GamePicker(ModalScreen[str]):
    """Which game the new table plays."""

    BINDINGS = [Binding("escape", "dismiss", N_("Back"))]

    def compose(self) -> ComposeResult:
        from textual.containers import Vertical

        with Vertical(classes="dialog") as box:
            box.border_title = _("A new table: which game?")
            yield OptionList(*[Option(info.title, id=info.id) for info in catalog.GAMES], id="picker")
            yield Static(_("↑/↓ choose   Enter: seats and rules   Esc: back"), classes="dialog-keys")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class CodeDialog(ModalScreen[str | None]):
    """A private table's code, typed to join it: Enter joins, Esc leaves."""

    BINDINGS = [Binding("escape", "dismiss", N_("Back"))]

    def __init__(self, allowed: int) -> None:
        super().__init__()
        self.allowed = allowed  # wrong codes the server still allows this connection

    def compose(self) -> ComposeResult:
        from textual.containers import Vertical

        with Vertical(classes="dialog", id="code-dialog") as box:
            box.border_title = _("Join a private table")
            yield Static(
                _("The code its creator told you ({length} letters):").format(length=CODE_LENGTH),
                markup=False,
            )
            yield Field(
                placeholder="ABCDE", restrict=r"[A-Za-z0-9]*", max_length=CODE_LENGTH, compact=True, id="code"
            )
            told = _("Wrong codes the server still allows before it hangs up: {count}.").format(
                count=self.allowed
            )
            yield Static(told, id="code-status", markup=False)
            yield Static(_("Enter: join   Esc: back"), classes="dialog-keys", markup=False)
        yield KeyBar()  # its own keys, not the lobby's under it

    def on_mount(self) -> None:
        field = self.query_one("#code", Input)
        field.cursor_blink = not self.app.is_headless  # still pictures in tests
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        code = event.value.strip().upper()
        if len(code) != CODE_LENGTH:
            self.query_one("#code-status", Static).update(
                _("A table's code has {length} letters.").format(length=CODE_LENGTH)
            )
            return
        self.dismiss(code)
