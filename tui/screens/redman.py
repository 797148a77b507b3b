"""The Red Man's Throw table: the two seats, the dice, the ledger of rounds,
the stake and the call, and the story.

Glue: what the table shows comes from the presenter
(``tui/presenters/redman.py``) as plain values the widgets are bound to, so
a roll repaints only what changed; the keys map to moves. Nothing is hidden
in this game, so the table shows the same to both players.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import redman as rm
from garito.core.i18n import N_, _
from garito.core.match import Match
from garito.widgets.dice import DiceTray, face_lines
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard
from garito.widgets.values import Die, SeatRow

from ..presenters import redman as present
from .game import GameScreen, Waiting
from .results import _Box


class RedManScreen(GameScreen):
    BINDINGS = [
        Binding("space,enter", "roll", N_("Roll")),
        Binding("space,enter", "stake", N_("Stake")),
        Binding("space,enter", "hurry", N_("Hurry")),
        Binding("t,space,enter", "tip", N_("I tip my hat"), key_display="t"),
        Binding("left,minus,h", "stake_by(-1)", N_("Less"), key_display="←"),
        Binding("right,plus,l", "stake_by(1)", N_("More"), key_display="→"),
        Binding("left,h", "call_by(-1)", N_("Call"), show=False),
        Binding("right,l", "call_by(1)", N_("Call"), key_display="←/→"),
        Binding("home", "stake_by(-1000)", show=False),
        Binding("end", "stake_by(1000)", show=False),
        *(Binding(str(d), f"digit({d})", show=False) for d in range(1, 7)),
        Binding("backspace,0", "call_none", show=False),
    ]

    heading: var[str] = var("")
    columns: var[tuple[str, ...]] = var(())
    rows: var[tuple[SeatRow, ...]] = var(())
    ledger_columns: var[tuple[str, ...]] = var(())
    ledger_rows: var[tuple[SeatRow, ...]] = var(())
    dice: var[tuple[Die, ...]] = var(())
    caption: var[str] = var("")
    prompt: var[str | Text] = var("")
    call_text: var[str | Text] = var("")

    def _begin(self, match: Match[Any, Any, Any]) -> None:
        super()._begin(match)
        self._call_for: tuple[int, int] | None = None
        self.call = ""  # the call the human is about to make
        self._typed = ""  # exact dice being typed

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=RedManScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="left"):
                with Panel(_("Table"), id="seats-panel"):
                    yield Scoreboard().data_bind(RedManScreen.columns, RedManScreen.rows)
                with Panel(_("Dice"), id="dice-panel"):
                    yield DiceTray().data_bind(RedManScreen.dice, RedManScreen.caption)
                yield Line(id="prompt").data_bind(text=RedManScreen.prompt)
                yield Line(id="call").data_bind(text=RedManScreen.call_text)
                yield self.stake_bar()
            with Vertical(id="right"):
                with Panel(_("Rounds"), id="ledger-panel"):
                    yield Scoreboard(label="#", id="ledger").data_bind(
                        columns=RedManScreen.ledger_columns, rows=RedManScreen.ledger_rows
                    )
                yield from self.log_panel()
        yield KeyBar()

    # ------------------------------------------------------------ match → widgets

    def _seats(self) -> present.Seats:
        seats = self.match.seats
        here = frozenset(i for i in range(len(seats)) if self.is_human(i))
        return present.Seats(self.match.names, tuple(not s.is_human for s in seats), here)

    def show(self) -> None:
        view = rm.view(self.match.state, 0)
        seats = self._seats()
        # A new roll made here starts with no call picked.
        calling = present.caller(view, seats)
        key = None if calling is None else (len(self.match.actions), calling)
        if key is not None and self._call_for != key:
            self.call, self._typed = "", ""
        self._call_for = key
        t = present.table(
            view, seats, ascii_only=self.app.ascii_only, call=self.call, typed=self._typed, upto=self.ended
        )
        self.heading, self.columns, self.rows = t.heading, t.columns, t.rows
        self.ledger_columns, self.ledger_rows = t.ledger_columns, t.ledger_rows
        self.dice, self.caption = t.dice, t.caption
        if t.stake is None:
            self.hide_stake()
        else:
            self.offer_stake(t.stake.seat, t.stake.low, t.stake.high, t.stake.note)
        self.call_text = t.call
        self.prompt = t.prompt
        self.tell_story(t.events)

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hurry":
            return self.thinking
        if action in ("roll", "stake", "stake_by", "tip", "call_by", "digit", "call_none"):
            return action in self.keys_now(self._keys, self.human_to_act)
        return True

    def _keys(self, mine: bool) -> frozenset[str]:
        return present.keys(rm.legal_actions(self.match.state), mine)

    def action_roll(self) -> None:
        if self.call and self.match.state.stage == "roll":
            self.play(rm.Action("roll", prediction=self.call))
        else:
            self.play(rm.ROLL)

    def action_stake(self) -> None:
        self.play(rm.Action("stake", self.amount))

    def action_tip(self) -> None:
        self.play(rm.TIP)

    def action_call_by(self, delta: int) -> None:
        self._typed = ""
        self.call = present.next_call(self.call, delta)
        self.show()

    def action_call_none(self) -> None:
        self.call, self._typed = "", ""
        self.show()

    def action_digit(self, face: int) -> None:
        typing = present.type_die(self._typed, face)
        self._typed = typing.typed
        if typing.refused:
            self.notify(typing.refused, severity="warning")
        elif typing.call is not None:
            self.call = typing.call
        self.show()

    # ------------------------------------------------------------ results

    def after_action(
        self, before: Match[Any, Any, Any], after: Match[Any, Any, Any], proceed: Callable[..., None]
    ) -> None:
        b, a = before.state, after.state
        if a.red_man is not None and b.red_man is None:
            loser = 1 - a.red_man
            if self.is_human(loser):
                self.app.push_screen(
                    RedManMoment(self.match, ask=True, ascii_only=self.app.ascii_only), self._tipped
                )
                return
            proceed()  # the computer answers with its own move
            return
        if a.stage == "over" and a.red_man is not None and not self.is_human(1 - a.red_man):
            # The computer's answer: shown as the exchange (a human's was just typed).
            self.app.push_screen(RedManMoment(self.match, ask=False, ascii_only=self.app.ascii_only), proceed)
            return
        if len(a.ledger) > len(b.ledger):
            title, body = present.round_sheet(
                a.ledger[-1], a.wins, after.names, ascii_only=self.app.ascii_only
            )
            self.round_box(title, body, self.hold_round(before, after, proceed))
            return
        proceed()

    def _tipped(self, tipped: bool | None) -> None:
        self.waiting = Waiting.NOTHING
        if tipped:
            self.play(rm.TIP)
        else:
            self.next_turn()  # the answer is still owed: the t key stays offered

    def finished(self) -> None:
        m = self.match
        res = rm.result(m.state)
        assert res is not None
        body, keys = present.match_sheet(
            res, m.state.ledger, m.names, m.config, seed=m.seed, ascii_only=self.app.ascii_only
        )
        self.show_result(_("Match over"), body, keys)

    def rematch_config(self) -> rm.Config:
        """Chips carried on, the other seat rolling first (a session)."""
        res = rm.result(self.match.state)
        assert res is not None
        return rm.next_match(self.match.config, res)


class RedManMoment(_Box):
    """6-6-6: the Red Man's line, and the loser's answer (a key) when the
    loser is at the keyboard; dismisses with True once the hat is tipped."""

    CLASSES = "dialog redman"
    BINDINGS = [
        Binding("t,enter,space", "answer", N_("I tip my hat")),
        Binding("escape", "later", N_("Later"), show=False),
    ]

    def __init__(self, match: Match[Any, Any, Any], *, ask: bool, ascii_only: bool = False) -> None:
        body = Text(justify="center")
        faces = [face_lines(Die(6, 6), ascii_only) for _ in range(3)]
        for row in range(len(faces[0])):
            body.append("  ".join(f[row] for f in faces) + "\n", "bold red")
        body.append(present.moment(rm.view(match.state, 0), match.names, ask=ask))
        super().__init__(_("The Red Man"), body)
        self.ask = ask
        self.KEYS = _("t: “I tip my hat”") if ask else _("Space / Enter: the result")

    def action_answer(self) -> None:
        self.dismiss(True)

    def action_later(self) -> None:
        self.dismiss(not self.ask)
