"""The Irwin's Revenge table: the five statuettes (who holds each, what takes
it, your exact chance with your dice), the dice, the players, the story;
then the final phase with the best use of the Ant and the Eagle offered
after each throw, and the victory-points sheet.

Glue: what the table shows comes from the presenter
(``tui/presenters/irwin.py``) as plain values the widgets are bound to; the
keys map to moves, the picker's place is the screen's own."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import irwin as ir
from garito.core.i18n import N_, _
from garito.core.match import Match
from garito.widgets.dice import DiceTray
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard
from garito.widgets.values import Die, SeatRow

from ..presenters import irwin as present
from .game import GameScreen


class IrwinScreen(GameScreen):
    BINDINGS = [
        Binding("space,enter", "act('name')", N_("Name and throw")),
        Binding("space,enter", "act('throw')", N_("Throw")),
        Binding("space,enter", "act('choose')", N_("Choose")),
        Binding("space,enter", "act('confirm')", N_("Confirm")),
        Binding("space,enter", "hurry", N_("Hurry")),
        # ↑/↓ go down the statuettes' list; ←/→ turn the one-line choices
        # (the Salamander's deal, the Ant's number, a change), as each line shows.
        Binding("up,k", "pick(-1)", show=False),
        Binding("down,j", "pick(1)", N_("Choose"), key_display="↑/↓"),
        Binding("left,h", "turn(-1)", show=False),
        Binding("right,l", "turn(1)", N_("Change"), key_display="←/→"),
        *(Binding(str(d), f"digit({d})", show=False) for d in range(1, 7)),
        Binding("x", "keep", N_("Keep as is")),
        Binding("p", "crab_pass", N_("Pass")),
    ]

    heading: var[str] = var("")
    columns: var[tuple[str, ...]] = var(())
    rows: var[tuple[SeatRow, ...]] = var(())
    seat_columns: var[tuple[str, ...]] = var(())
    seat_rows: var[tuple[SeatRow, ...]] = var(())
    dice: var[tuple[Die, ...]] = var(())
    caption: var[str] = var("")
    prompt: var[str | Text] = var("")
    choice: var[str | Text] = var("")

    def _begin(self, match: Match[Any, Any, Any]) -> None:
        super()._begin(match)
        self.pick = 0  # the statuette, deal, Ant number or change being chosen
        self._pick_for: tuple[int, str] | None = None

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=IrwinScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="irwin-left"):
                with Panel(_("Statuettes"), id="statuettes-panel"):
                    yield Scoreboard(label=_("Statuette"), id="statuettes").data_bind(
                        columns=IrwinScreen.columns, rows=IrwinScreen.rows
                    )
                with Panel(_("Dice"), id="dice-panel"):
                    yield DiceTray().data_bind(IrwinScreen.dice, IrwinScreen.caption)
                yield Line(id="prompt").data_bind(text=IrwinScreen.prompt)
                yield Line(id="choice").data_bind(text=IrwinScreen.choice)
            with Vertical(id="irwin-right"):
                with Panel(_("Players"), id="players-panel"):
                    yield Scoreboard(label=_("Player"), id="players").data_bind(
                        columns=IrwinScreen.seat_columns, rows=IrwinScreen.seat_rows
                    )
                yield from self.log_panel()
        yield KeyBar()

    # ------------------------------------------------------------ match → widgets

    def _seats(self) -> present.Seats:
        seats = self.match.seats
        here = frozenset(i for i in range(len(seats)) if self.is_human(i))
        return present.Seats(self.match.names, tuple(not s.is_human for s in seats), here)

    def _view(self) -> ir.View:
        return ir.view(self.match.state, self.viewer)

    def show(self) -> None:
        view = self._view()
        # A new move starts the picker afresh, at the advised option.
        key = (len(self.match.actions), view.stage)
        if self._pick_for != key:
            self._pick_for = key
            self.pick = present.default_pick(view)
        t = present.table(view, self._seats(), ascii_only=self.app.ascii_only, pick=self.pick)
        self.heading = t.heading
        self.columns, self.rows = t.columns, t.rows
        self.seat_columns, self.seat_rows = t.seat_columns, t.seat_rows
        self.dice, self.caption = t.dice, t.caption
        self.prompt, self.choice = t.prompt, t.choice
        self.refresh_bindings()
        self.tell_story(t.events)

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hurry":
            return self.thinking
        if action in ("act", "pick", "turn", "digit", "crab_pass", "keep"):
            works = self.keys_now(self._keys, self.human_to_act)
            return (parameters[0] if action == "act" else action) in works
        return True

    def _keys(self, mine: bool) -> frozenset[str]:
        return present.keys(ir.legal_actions(self.match.state), mine)

    def action_act(self, _what: str = "") -> None:
        action = present.chosen(self._view(), self.pick)
        if action is not None:
            self.play(action)

    def action_pick(self, delta: int) -> None:
        self.pick += delta
        self.show()

    action_turn = action_pick  # the same choice, on a one-line picker

    def action_crab_pass(self) -> None:
        self.play(ir.PASS)

    def action_digit(self, d: int) -> None:
        self.pick = present.digit_pick(self._view(), d, self.pick)
        self.show()

    def action_keep(self) -> None:
        self.play(ir.KEEP)

    # ------------------------------------------------------------ the end

    def finished(self) -> None:
        from garito.store import bests

        m = self.match
        res = ir.result(m.state)
        assert res is not None
        names = m.names
        best = bests.record("irwin", {names[i]: res.scores[i].total for i in (0, 1)})
        self.show_result(_("Victory points"), present.score_sheet(res, names, best, seed=m.seed))
