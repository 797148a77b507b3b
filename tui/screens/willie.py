"""The Willie table: the melds, your hand, the players and the story.

On your turn you work on a copy of the table (a ``Bench``): move the cursor
over the melds and your hand, pick cards with Space, and drop them with
Enter on the meld under the cursor, on the "+ new meld" place, or back in
your hand. Each meld is checked as you go and a wrong one is marked with
its reason; End turn is offered only when the whole table is legal and a
card of yours is on it. Undo, reset, the solver's arrange and hint, and a
picker for what a wild stands for are a key each. Hands are secret: between
two humans the shared ``GameScreen`` hands the keyboard over.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import willie as wx
from garito.core.i18n import N_, _, ngettext
from garito.core.match import Match
from garito.core.willie.bench import HAND, Bench, Refused
from garito.core.willie.cards import SUITS, parse, sort_hand
from garito.widgets.cards import NO_CURSOR, Face, Hand, MeldTable
from garito.widgets.glyphs import glyphs
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.notice import WIDTH as NOTICE_WIDTH
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard, SeatRow
from garito.widgets.text import styled

from ..presenters import willie as present
from ..suits import suit_colour
from .game import REMATCH, GameScreen

# The round box's width inside its border and padding.
BOX_INNER = NOTICE_WIDTH - 4
WILD_COLOUR = ""  # the theme's own text colour: no suit


def face_colour(card: str, dark: bool = True) -> str:
    c = parse(card)
    return WILD_COLOUR if c.wild else suit_colour(c.suit, dark)


_ESCAPES = [b for b in GameScreen.BINDINGS if isinstance(b, Binding) and b.key == "escape"]


class WillieScreen(GameScreen):
    HIDES_HANDS = True
    SECRETS = "cards come"
    # Its keys come first on the key bar, which they can overfill at 80
    # columns: then the last of them give way (see KeyBar), not these.
    KEYBAR_LAST = ("let_go", "leave", "rules", "quit")
    # Where Tab goes and how s sorts: listed after the moves' keys, the first
    # to give way on a full bar (the rules page and ? list every key).
    KEYBAR_AFTER = ("new_meld", "switch", "sort")

    BINDINGS = [
        Binding("space,enter", "hurry", N_("Hurry")),
        Binding("left", "go(-1, 0)", show=False),
        Binding("right", "go(1, 0)", show=False),
        Binding("up", "go(0, -1)", show=False),
        Binding("down", "go(0, 1)", show=False),
        Binding("space", "pick", N_("Pick")),
        Binding("enter", "drop", N_("Move here"), key_display="⏎"),
        Binding("enter", "carry_on", N_("Continue"), key_display="⏎"),
        Binding("enter", "declare", N_("Declare"), key_display="⏎"),
        Binding("e", "end_turn", N_("End turn")),
        Binding("d", "draw", N_("Draw")),
        Binding("d", "pass_turn", N_("Pass")),
        Binding("c", "close", N_("Close")),
        Binding("w", "wild", N_("Wild")),
        REMATCH,  # n at the match's end (this screen binds n too)
        Binding("n", "new_meld", N_("New meld")),
        Binding("u", "undo", N_("Undo")),
        Binding("r", "reset", N_("Reset")),
        Binding("tab", "switch", N_("Table")),  # its word says where it goes (key_label)
        # Last, so the learning help gives way first on a full key bar.
        Binding("a", "arrange", N_("Arrange")),
        Binding("h", "hint", N_("Hint")),
        Binding("s", "sort", N_("By rank")),  # what it sorts by next (key_label); gives way first
        # Escape lets go of the picked cards before it leaves: the key bar
        # says which (a screen's own binding of a key replaces its base's,
        # so the base's Escape bindings are listed again, in their order).
        *[b for b in _ESCAPES if b.action != "leave"],
        Binding("escape", "let_go", N_("Let go")),
        *[b for b in _ESCAPES if b.action == "leave"],
    ]

    heading: var[str] = var("")
    melds: var[tuple[tuple[Face, ...], ...]] = var(())
    marked: var[tuple[bool, ...]] = var(())
    notes: var[tuple[str, ...]] = var(())
    table_cursor: var[tuple[int, int]] = var(NO_CURSOR)
    slot: var[str] = var("")
    hand: var[tuple[Face, ...]] = var(())
    hand_cursor: var[int] = var(-1)
    hand_title: var[str | Text] = var("")
    seat_columns: var[tuple[str, ...]] = var(())
    seat_rows: var[tuple[SeatRow, ...]] = var(())
    prompt: var[str | Text] = var("")

    def _begin(self, match: Match[Any, Any, Any]) -> None:
        super()._begin(match)
        self.bench: Bench | None = None
        self.undo: list[Bench] = []
        self.picks: set[tuple[int, int]] = set()
        self.zone = "hand"
        self.at_meld, self.at_card, self.at_hand = 0, 0, 0
        self.by_rank = False
        self.wild_choice: tuple[tuple[int, int], list[str], int] | None = None
        self.say = ""  # what the last step told the player
        self._seen_hand: dict[int, tuple[str, ...]] = {}
        self._fresh_hand: Counter = Counter()
        self._frozen: wx.State | None = None  # the round that just ended, under its result
        self._kept_work: tuple | None = None  # the work last kept beside the save
        self._draw_warned: Bench | None = None  # the work a third draw was said to give up

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=WillieScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="willie-left"):
                with Panel(_("Table"), id="meld-panel"):
                    table = MeldTable(id="melds")
                    table.empty = _("The table is empty: the first meld is three cards or more.")
                    yield table.data_bind(
                        melds=WillieScreen.melds,
                        marked=WillieScreen.marked,
                        notes=WillieScreen.notes,
                        cursor=WillieScreen.table_cursor,
                        slot=WillieScreen.slot,
                    )
                with Panel(_("Your hand"), id="hand-panel"):
                    yield Line(id="hand-title").data_bind(text=WillieScreen.hand_title)
                    hand = Hand(id="hand")
                    hand.empty = _("No cards in hand.")
                    yield hand.data_bind(cards=WillieScreen.hand, cursor=WillieScreen.hand_cursor)
                yield Line(id="prompt").data_bind(text=WillieScreen.prompt)
            with Vertical(id="willie-right"):
                with Panel(_("Players"), id="players-panel"):
                    yield Scoreboard(label=_("Player"), id="players").data_bind(
                        columns=WillieScreen.seat_columns, rows=WillieScreen.seat_rows
                    )
                yield from self.log_panel()
        yield KeyBar()

    # ------------------------------------------------------------ the work in progress

    @property
    def working(self) -> bool:
        """The player to act is a human at the table, in their meld step."""
        s = self.match.state
        return (
            self.frames is None
            and s.stage == "meld"
            and s.turn == self.viewer
            and self.is_human(s.turn)
            and not self.busy
        )

    def _keys(self, viewer: int, mine: bool) -> frozenset[str]:
        s = self.match.state
        return present.keys(wx.view(s, viewer), wx.legal_actions(s), mine)

    def _bench(self) -> Bench | None:
        if not self.working:
            return None
        s = self.match.state
        hand = s.hands[s.turn]
        if self.bench is None:
            self.bench = self._resumed(Bench.begin(s.table, hand, s.config.group_max, s.config.strict))
            self.undo, self.picks = [], set()
        elif self.bench.hand != hand:
            self.bench = self.bench.drawn(hand)  # a draw keeps the work
            self.picks = {p for p in self.picks if p[0] != HAND}
        return self.bench

    def _resumed(self, fresh: Bench) -> Bench:
        """The turn's work as it was left (a game left mid-turn and
        continued), when it is kept for this very move and holds exactly
        the cards of this turn; else the turn's start."""
        from garito.store import saves

        if self.frames is not None or self.shared:
            return fresh
        work = saves.load_work(self.match.game, len(self.match.actions))
        try:
            table = tuple(tuple(str(c) for c in m) for m in work["table"])  # type: ignore[index]
            left = sort_hand(str(c) for c in work["left"])  # type: ignore[index]
            cards = Counter(parse(c).physical for m in table for c in m) + Counter(left)
            start = Counter(parse(c).physical for m in fresh.start for c in m)
            if cards != start + Counter(fresh.hand) or start - Counter(
                parse(c).physical for m in table for c in m
            ):
                return fresh
        except (TypeError, KeyError, ValueError):
            return fresh
        if (table, left) == (fresh.table, fresh.left):
            return fresh  # nothing was done yet
        self.say = _("Your work on the table is as you left it (r resets the turn).")
        return replace(fresh, table=table, left=left)

    def _keep_work(self, bench: Bench) -> None:
        """Keep the turn's work beside the save, so leaving loses nothing."""
        from garito.store import saves

        work = (bench.table, bench.left)
        if self.frames is not None or self.shared or work == self._kept_work:
            return
        self._kept_work = work
        try:
            saves.save_work(
                self.match.game,
                len(self.match.actions),
                {"table": [list(m) for m in bench.table], "left": list(bench.left)},
            )
        except OSError:
            pass  # the game itself is saved (and a failure to save it is reported)

    def after_action(self, before: Match, after: Match, proceed) -> None:
        action = after.actions[-1]
        if action.kind != "pass" or wx.to_act(after.state) != wx.to_act(before.state):
            self.bench, self.undo, self.picks = None, [], set()
            self.zone = "hand"
        self.say = ""
        score = wx.round_scored(before.state, after.state)
        if score is None:
            proceed()
            return
        # Until the box closes the table stays as the round ended, not the next deal.
        self._frozen = wx.ended_round(before.state, action, after.state)
        self.show()

        def closed(_: object = None) -> None:
            self._frozen = None
            proceed()

        totals = self._frozen.scores if self._frozen else after.state.scores
        body = present.score_sheet(
            score, totals, after.names, width=BOX_INNER, ascii_only=self.app.ascii_only
        )
        self.round_box(_("Round {number}").format(number=before.state.round), body, closed)

    # ------------------------------------------------------------ match → widgets

    def show(self) -> None:
        s = wx.view(self._frozen or self.match.state, self.viewer)
        gl = glyphs(self.app.ascii_only)
        bench = self._bench() if self._frozen is None else None
        self.heading = present.heading(
            s, self.match.names, ascii_only=self.app.ascii_only, ended=self._frozen is not None
        )
        self._fresh(s)
        if bench is not None:
            self._show_work(bench, gl)
            self._keep_work(bench)
        else:
            self.wild_choice = None
            self._show_table(s.table, self._last_meld(s), gl)
            self._show_hand(s.hand, set(), None)
            self.table_cursor, self.slot, self.marked, self.notes = NO_CURSOR, "", (), ()
            self.prompt = self._waiting_prompt(s)
        self.seat_columns, self.seat_rows = present.players(s, self._seats())
        self.tell_story(s.events)
        self.refresh_bindings()

    def _fresh(self, s: wx.View) -> None:
        """The cards just drawn into the viewer's hand (underlined)."""
        seen = self._seen_hand.get(self.viewer)
        if seen != s.hand:
            grew = Counter(s.hand) - Counter(seen or ())
            shrank = Counter(seen or ()) - Counter(s.hand)
            self._fresh_hand = (
                grew if seen is not None and not shrank and sum(grew.values()) <= 2 else Counter()
            )
            self._seen_hand[self.viewer] = s.hand

    def _last_meld(self, s: wx.View) -> Counter:
        """The cards the last meld of this round put on the table."""
        for e in reversed(s.events):
            if isinstance(e, wx.Melded):
                return Counter(e.cards)
            if isinstance(e, wx.Dealt):
                break
        return Counter()

    def _show_table(self, table, fresh: Counter, gl, picks=frozenset(), problems=()) -> None:
        dark = self.app.current_theme.dark
        self.melds = tuple(
            tuple(
                Face(c, face_colour(c, dark), (m, i) in picks, parse(c).physical in fresh)
                for i, c in enumerate(cards)
            )
            for m, cards in enumerate(table)
        )
        self.marked = tuple(p is not None for p in problems)

    def _order(self, cards) -> list[int]:
        """The hand's display order: by suit (as kept) or by rank."""
        if not self.by_rank:
            return list(range(len(cards)))

        def key(i: int):
            c = parse(cards[i])
            return (c.rank or 99, "JQK".find(c.face), SUITS.find(c.suit))

        return sorted(range(len(cards)), key=key)

    def _show_hand(self, cards, picks: set[int], cursor: int | None) -> None:
        order = self._order(cards)
        fresh = Counter(self._fresh_hand)
        faces = []
        for i in order:
            c = cards[i]
            new = fresh[c] > 0
            if new:
                fresh[c] -= 1
            faces.append(Face(c, face_colour(c, self.app.current_theme.dark), i in picks, new))
        self.hand = tuple(faces)
        self.hand_cursor = -1 if cursor is None else cursor
        pts = wx.points(cards)
        held = ngettext("{count} card", "{count} cards", len(cards)).format(count=len(cards))
        worth = ngettext("{count} point", "{count} points", pts).format(count=pts)
        # How a hand counts, where it is counted (the rule: a number card
        # 1, J 2, Q 3, K 5); the order it is sorted in is the key bar's s.
        how = _("[dim](a number 1, J 2, Q 3, K 5)[/dim]")
        self.hand_title = styled(f"{held}, {worth} {how}")

    def _show_work(self, bench: Bench, gl) -> None:
        problems = bench.problems()
        played = Counter(parse(c).physical for c in bench.played())
        self._show_table(bench.table, played, gl, self.picks, problems)
        self.slot = _("+ new meld")
        self._clamp(bench)
        hand_picks = {i for m, i in self.picks if m == HAND}
        on_hand = self.zone == "hand"
        self._show_hand(
            bench.left, hand_picks, self._order(bench.left).index(self.at_hand) if on_hand else None
        )
        self.table_cursor = (self.at_meld, self.at_card) if not on_hand else NO_CURSOR
        notes = [f"{gl['miss']} {' '.join(m)}: {p}" for m, p in zip(bench.table, problems) if p]
        if len(notes) > 3:
            notes = notes[:2] + [f"{gl['miss']} and {len(notes) - 2} more melds to mend."]
        self.notes = tuple(notes)
        self.prompt = self._work_prompt(bench, problems, gl)

    def _clamp(self, bench: Bench) -> None:
        if self.zone == "hand" and not bench.left:
            self.zone = "table"
        self.at_hand = max(0, min(self.at_hand, len(bench.left) - 1))
        self.at_meld = max(0, min(self.at_meld, len(bench.table)))
        size = len(bench.table[self.at_meld]) if self.at_meld < len(bench.table) else 1
        self.at_card = max(0, min(self.at_card, size - 1))

    def _work_prompt(self, bench: Bench, problems, gl) -> str | Text:
        if self.wild_choice is not None:
            (m, i), options, at = self.wild_choice
            card = parse(bench.card((m, i))).face
            dark = self.app.current_theme.dark
            shown = " ".join(
                f"[reverse {face_colour(o, dark)}]{o}[/]" if k == at else f"[{face_colour(o, dark)}]{o}[/]"
                for k, o in enumerate(options)
            )
            return styled(
                _("[b]The {wild} stands for:[/b] {options}").format(wild=card, options=shown)
                + "\n"
                + _("[dim]{arrows} choose, Enter declares, Esc leaves it for later, u undoes[/dim]").format(
                    arrows=gl["arrows"]
                )
            )
        s = self.match.state
        first: str | Text = self.say
        if not first and self.picks:
            n = len(self.picks)
            first = ngettext(
                "{count} card picked: Enter moves it onto the meld under the cursor, "
                "n into a new meld; Esc lets go.",
                "{count} cards picked: Enter moves them onto the meld under the cursor, "
                "n into a new meld; Esc lets go.",
                n,
            ).format(count=n)
        if not first:
            problem = bench.problem()
            played = bench.played()
            if problem is None:
                worth = wx.points(played)
                first = styled(
                    ngettext(
                        "[b]The table is legal:[/b] e ends your turn with {cards} ({count} point).",
                        "[b]The table is legal:[/b] e ends your turn with {cards} ({count} points).",
                        worth,
                    ).format(cards=" ".join(played), count=worth)
                )
            elif not bench.changed and not self.picks:
                if s.last_turns is not None:
                    more = _("d passes: this is your last turn.")
                elif s.draws == 0:
                    more = _("d draws your first card.")
                elif s.draws == 1:
                    more = _("d draws your second card.")
                elif s.draws == 2:
                    more = _("d draws your third card and ends your turn.")
                else:
                    more = ""
                if self._here() is None:  # on "+ new meld": nothing here to pick
                    first = _("Tab goes to your hand to pick cards, Enter moves them here; {more}").format(
                        more=more
                    )
                else:
                    first = _("Space picks cards, Enter moves them here; {more}").format(more=more)
            elif any(problems):
                first = _("Mend the marked melds, or u undoes, r resets the turn.")
            else:
                first = problem
        return first

    def _waiting_prompt(self, s: wx.View) -> str | Text:
        if self.frames is not None:
            return self.prompt  # a replay's frame keeps what it said
        return present.waiting_prompt(
            s, self._seats(), ascii_only=self.app.ascii_only, ended=self._frozen is not None
        )

    def _seats(self) -> present.Seats:
        seats = self.match.seats
        here = frozenset(i for i in range(len(seats)) if self.is_human(i))
        return present.Seats(self.match.names, tuple(not s.is_human for s in seats), here)

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple) -> bool | None:
        if action == "hurry":
            return self.thinking
        if self.wild_choice is not None:  # the picker's own keys (on_key), shown here
            return action in ("declare", "undo", "reset") and self.working
        if action == "let_go":
            return self._holding()
        if action == "leave":
            return not self._holding()
        if action in ("rules", "scroll_log"):
            return True  # the rules and the log, whatever the moment
        s = self.match.state
        if action in ("close", "carry_on", "draw", "pass_turn"):
            mine = self.working if action in ("draw", "pass_turn") else self.human_to_act
            return action in self.keys_now(self._keys, self.viewer, mine and s.turn == self.viewer)
        if action == "declare":
            return False  # the picker's key, shown while it is open
        if action == "sort":
            return not self.busy
        working = self.working
        if not working:
            return False
        bench = self._bench()
        assert bench is not None
        if action == "go":
            return True
        if action == "switch":
            # Between the hand and the table, never to a stop with nothing to
            # do: an empty table with nothing picked has no card to move
            # and nowhere yet to put one.
            return self.zone == "table" or bool(bench.table) or bool(self.picks)
        if action == "pick":
            return self._here() is not None  # not on "+ new meld"
        if action in ("drop", "new_meld"):
            return bool(self.picks)
        if action == "end_turn":
            return bench.problem() is None
        if action == "wild":
            return self._wild_here(bench) is not None
        if action in ("arrange", "hint"):
            if not s.config.helpers:
                return False
            return action == "hint" or any(m == HAND for m, _ in self.picks)
        if action == "undo":
            return bool(self.undo)
        if action == "reset":
            return bench.changed or bench.left != sort_hand(bench.hand)
        return True

    def _wild_here(self, bench: Bench) -> tuple[int, int] | None:
        if self.zone != "table" or self.at_meld >= len(bench.table):
            return None
        spot = (self.at_meld, self.at_card)
        if not parse(bench.card(spot)).wild:
            return None
        # Not a J, Q or K with nothing to stand for there (in a Willie, J-Q-K,
        # each is itself); a declared one is said to keep its card.
        return spot if bench.locked(spot) or bench.options(spot) else None

    def on_key(self, event) -> None:
        if self.wild_choice is not None and self.frames is None and not self.notice_open:
            if event.key in ("u", "r"):
                self.wild_choice = None  # undo and reset close the picker and do their work
                return
            event.stop()
            event.prevent_default()
            spot, options, at = self.wild_choice
            if event.key in ("left", "right"):
                self.wild_choice = (spot, options, (at + (1 if event.key == "right" else -1)) % len(options))
            elif event.key in ("enter", "space"):
                self.action_declare()
                return
            elif event.key == "escape":
                self.wild_choice = None
            self.show()
            return
        super().on_key(event)

    def action_go(self, dx: int, dy: int) -> None:
        bench = self._bench()
        if bench is None:
            return
        if dy:
            cols = self.query_one(MeldTable).columns  # ↑/↓ go by rows of melds
            last = len(bench.table)  # the new-meld place
            if self.zone == "hand":
                if dy < 0:
                    self.zone, self.at_meld = "table", last
            elif dy > 0 and self.at_meld // cols == last // cols:
                if bench.left:
                    self.zone = "hand"
            elif dy > 0:
                self.at_meld = min(last, self.at_meld + cols)
            elif self.at_meld >= cols:
                self.at_meld -= cols
        elif self.zone == "hand":
            order = self._order(bench.left)
            at = order.index(self.at_hand) if bench.left else 0
            self.at_hand = order[max(0, min(len(order) - 1, at + dx))] if order else 0
        else:
            size = len(bench.table[self.at_meld]) if self.at_meld < len(bench.table) else 1
            card = self.at_card + dx
            if card < 0 and self.at_meld > 0:
                self.at_meld -= 1
                card = len(bench.table[self.at_meld]) - 1
            elif card >= size and self.at_meld < len(bench.table):
                self.at_meld, card = self.at_meld + 1, 0
            self.at_card = max(0, card)
        self.say = ""
        self.show()

    def action_switch(self) -> None:
        bench = self._bench()
        if bench is None:
            return
        self.zone = "table" if self.zone == "hand" or not bench.left else "hand"
        if self.zone == "table" and not self.picks and bench.table:
            # Onto a card of the table, not "+ new meld" (a place to put
            # picked cards, and nothing is picked).
            self.at_meld = min(self.at_meld, len(bench.table) - 1)
        self.show()

    def key_label(self, binding: Binding) -> str | None:
        if binding.action == "switch":
            return _("Hand") if self.zone == "table" else _("Table")
        if binding.action == "sort":
            return _("By suit") if self.by_rank else _("By rank")
        return super().key_label(binding)

    def _here(self) -> tuple[int, int] | None:
        bench = self.bench
        if bench is None:
            return None
        if self.zone == "hand":
            return (HAND, self.at_hand) if bench.left else None
        if self.at_meld < len(bench.table):
            return (self.at_meld, self.at_card)
        return None

    def action_pick(self) -> None:
        spot = self._here()
        if spot is None:
            return
        self.picks ^= {spot}
        self.say = ""
        self.show()

    def on_meld_table_clicked(self, event: MeldTable.Clicked) -> None:
        if not self.working or self.wild_choice is not None:
            return
        self.zone, self.at_meld, self.at_card = "table", event.meld, event.index
        if self.picks and (event.meld, event.index) not in self.picks and self.allows("drop", ()):
            self.action_drop()
        else:
            self.action_pick()

    def on_hand_clicked(self, event: Hand.Clicked) -> None:
        bench = self._bench()
        if bench is None or self.wild_choice is not None:
            return
        self.zone, self.at_hand = "hand", self._order(bench.left)[event.index]
        self.action_pick()

    def _step(self, change, say: str = "") -> bool:
        """Apply one change to the bench (undoable, letting go of the picked
        cards) and tell the player ``say``; the rule if refused."""
        bench = self._bench()
        if bench is None:
            return False
        try:
            result = change(bench)
        except Refused as e:
            self.notify(str(e), title=_("Not allowed"), severity="warning")
            return False
        if result is None:
            return False
        self.undo.append(bench)
        self.bench = result
        self.picks = set()
        self.say = say
        self.show()
        return True

    def action_drop(self) -> None:
        to = HAND if self.zone == "hand" else self.at_meld
        self._move(to)

    def action_new_meld(self) -> None:
        self._move(len(self.bench.table) if self.bench else 0)

    def _move(self, to: int) -> None:
        bench = self._bench()
        if bench is None:
            return
        try:
            moved = bench.move(sorted(self.picks), to)
        except Refused as e:
            self.notify(str(e), title=_("Not allowed"), severity="warning")
            return
        self.undo.append(bench)
        self.bench = moved.bench
        self.picks = set()
        if moved.landed and moved.landed[0][0] != HAND:
            self.zone = "table"
            self.at_meld, self.at_card = moved.landed[0]
        elif moved.landed:
            self.zone, self.at_hand = "hand", moved.landed[0][1]
        self.say = ""
        if moved.freed:
            faces = _(" and ").join(_("the {wild}").format(wild=f) for f in moved.freed)
            before = {c for meld in bench.table for c in meld}
            again = sorted(
                c
                for meld in moved.bench.table
                for c in meld
                if c not in before and c.split("=")[0] in moved.freed
            )
            if again and all("=" in c for c in again):  # each stands for the one card that fits: declared
                cards = _(" and ").join(c.split("=")[1] for c in again)
                self.say = _("Its real card frees {wilds}: now for {cards}.").format(wilds=faces, cards=cards)
            else:
                self.say = _(
                    "Its real card frees {wilds}: declare it again (w) or move it into another meld."
                ).format(wilds=faces)
        if moved.waiting:
            self.show()
            self._choose_wild(moved.waiting[0], quiet=True)
            return
        self.show()

    def _choose_wild(self, spot: tuple[int, int], quiet: bool = False) -> None:
        """The picker for the wild at ``spot``; ``quiet`` after a move (a
        wild with nothing it could stand for there is marked on the table,
        not told in a notice the player did not ask for)."""
        bench = self.bench
        assert bench is not None
        if bench.locked(spot):
            c = parse(bench.card(spot))
            self.notify(
                _("A declared wild keeps its card ({card}) until the real card frees it.").format(
                    card=c.identity
                ),
                title=_("Not allowed"),
                severity="warning",
            )
            return
        options = bench.options(spot)
        if not options:
            if quiet:
                return
            self.notify(
                _("Put the wild with number cards it can join first."),
                title=_("Nothing to declare"),
                severity="warning",
            )
            return
        self.zone, (self.at_meld, self.at_card) = "table", spot
        self.wild_choice = (spot, options, 0)
        self.show()

    def action_declare(self) -> None:
        if self.wild_choice is None:
            return
        spot, options, at = self.wild_choice
        self.wild_choice = None
        self._step(lambda b: b.declare(spot, options[at]))

    def action_wild(self) -> None:
        bench = self._bench()
        spot = self._wild_here(bench) if bench else None
        if spot is not None:
            self._choose_wild(spot)

    def action_undo(self) -> None:
        if self.undo and self.working:
            self.bench = self.undo.pop()
            self.picks = set()
            self.say = _("Undone.")
            self._off_the_slot()
            self.show()

    def action_reset(self) -> None:
        if self._step(lambda b: b.reset(), _("The turn is back at its start (u undoes the reset).")):
            if self._off_the_slot():
                self.show()

    def _off_the_slot(self) -> bool:
        """An undo or a reset can take away the meld the cursor was on (a
        new meld undone): from the "+ new meld" place it left, where Space
        picks nothing, the cursor goes back to the hand, where the prompt
        says Space picks. True if it moved."""
        bench = self.bench
        if bench is None or self.zone != "table" or self.at_meld < len(bench.table) or not bench.left:
            return False
        self.zone = "hand"
        return True

    def action_arrange(self) -> None:
        bench = self._bench()
        if bench is None:
            return
        picked = [bench.left[i] for m, i in sorted(self.picks) if m == HAND]
        zone, self.zone = self.zone, "table"  # where the arranged cards are
        if not self._step(
            lambda b: b.arranged(picked), _("Arranged: {cards} on the table.").format(cards=" ".join(picked))
        ):
            self.zone = zone
            if self.bench is bench:
                self.say = _("{cards} cannot all go on the table, however it is arranged.").format(
                    cards=" ".join(picked)
                )
                self.show()

    def action_hint(self) -> None:
        bench = self._bench()
        if bench is None:
            return
        played, _plan = bench.hint()
        if not played:
            self.say = _("The solver sees no play from this hand: draw (d) or pass.")
        else:
            pts = wx.points(played)
            want = Counter(played)
            picks = set()
            for i, c in enumerate(bench.left):
                if want[c] > 0:
                    want[c] -= 1
                    picks.add(i)
            self.picks = {(HAND, i) for i in picks}
            self.zone = "hand"
            hint = ngettext(
                "Hint: play {cards} ({count} point); ", "Hint: play {cards} ({count} points); ", pts
            )
            self.say = hint.format(cards=" ".join(played), count=pts) + (
                _("they are picked: a arranges them.")
                if picks
                else _("they are on the table already.")  # the hint is from the turn's start
            )
        self.show()

    def action_end_turn(self) -> None:
        bench = self._bench()
        if bench is None:
            return
        problem = bench.problem()
        if problem:
            self.notify(problem, title=_("Not allowed"), severity="warning")
            return
        self.play(bench.action())

    def action_draw(self) -> None:
        s, bench = self.match.state, self._bench()
        if (
            bench is not None
            and bench.changed
            and s.draws == 2
            and s.last_turns is None
            and self._draw_warned is not bench
        ):
            # The third card ends the turn without a meld: the work on the
            # table would be given up by one key. Said first; d again draws.
            self._draw_warned = bench
            if bench.problem() is None:
                self.say = _(
                    "The third card ends your turn and gives up this work: d again draws it, e plays it."
                )
            else:
                self.say = _("The third card ends your turn and gives up this work: d again draws it.")
            self.show()
            return
        self.play(wx.PASS)

    action_pass_turn = action_draw  # the same move; in the last turns it draws nothing

    def action_close(self) -> None:
        self.play(wx.CLOSE)

    def action_carry_on(self) -> None:
        self.play(wx.CONTINUE)

    def action_sort(self) -> None:
        self.by_rank = not self.by_rank
        self.show()

    def _holding(self) -> bool:
        return self.working and bool(self.picks or self.wild_choice)

    def action_let_go(self) -> None:
        if self._holding():
            self.picks, self.wild_choice = set(), None
            self.say = ""  # a hint's "they are picked" no longer holds
            self.show()

    def action_leave(self) -> None:
        if self._holding():  # Escape first lets go of the picked cards
            self.action_let_go()
            return
        super().action_leave()

    # ------------------------------------------------------------ round and match

    def finished(self) -> None:
        m = self.match
        res = wx.result(m.state)
        assert res is not None
        bonus = next((e for e in reversed(m.state.events) if isinstance(e, wx.Bonuses)), None)
        self.show_result(_("Match over"), present.match_sheet(res, bonus, m.names, seed=m.seed))
