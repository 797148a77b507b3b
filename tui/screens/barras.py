"""The Barras table: the players and their chips, the croupier's bar and
the last throw, the bet with its exact chances, the chip history as a plot,
and the story.

Glue: what the table shows comes from the presenter
(``tui/presenters/barras.py``) as plain values the widgets are bound to; the
keys map to moves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import barras as b
from garito.core.i18n import N_, _, pgettext
from garito.core.match import Match
from garito.widgets.chart import Chart, legend_height, plot_lines
from garito.widgets.dice import DiceTray
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard
from garito.widgets.values import Die, SeatRow

from ..presenters import barras as present
from .game import GameScreen


class BarrasScreen(GameScreen):
    KEYBAR_AFTER = ("odds",)  # the chances are in the prompt too; the amount is not
    BINDINGS = [
        Binding("space,enter", "bet", N_("Bet")),
        Binding("space,enter", "roll", N_("Roll")),
        Binding("space,enter", "hurry", N_("Hurry")),
        Binding("s", "sit", N_("Sit out")),
        Binding("left,minus,h", "stake_by(-1)", N_("Less"), show=False),
        # One key on the bar for both (the prompt says which way is which).
        Binding("right,plus,l", "stake_by(1)", N_("Amount"), key_display="←→"),
        Binding("home", "stake_by(-1000)", show=False),
        Binding("end", "stake_by(1000)", show=False),
        Binding("o", "odds", N_("Odds")),
        Binding("c", "cash_out", N_("Cash out")),
    ]

    heading: var[str] = var("")
    columns: var[tuple[str, ...]] = var(())
    rows: var[tuple[SeatRow, ...]] = var(())
    dice: var[tuple[Die, ...]] = var(())
    caption: var[str] = var("")
    prompt: var[str | Text] = var("")
    series: var[tuple[tuple[int, ...], ...]] = var(())
    labels: var[tuple[str, ...]] = var(())

    def _begin(self, match: Match[Any, Any, Any]) -> None:
        super()._begin(match)
        self.show_odds = True

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=BarrasScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="left"):
                with Panel(_("Table"), id="seats-panel"):
                    yield Scoreboard().data_bind(BarrasScreen.columns, BarrasScreen.rows)
                with Panel(_("Bar and throw"), id="dice-panel"):
                    yield DiceTray().data_bind(BarrasScreen.dice, BarrasScreen.caption)
                yield Line(id="prompt").data_bind(text=BarrasScreen.prompt)
                yield self.stake_bar(pgettext("column", "Bet"))  # the noun: the amount bet
            with Vertical(id="right"):
                with Panel(_("Chips"), id="chart-panel"):
                    yield Chart(id="chart").data_bind(BarrasScreen.series, BarrasScreen.labels)
                yield from self.log_panel()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Scoreboard).styles.height = len(self.match.seats) + 1
        # GameScreen.on_mount runs next by itself: Textual calls a message's
        # handlers up the class hierarchy.

    # ------------------------------------------------------------ match → widgets

    def _seats(self) -> present.Seats:
        seats = self.match.seats
        here = frozenset(i for i in range(len(seats)) if self.is_human(i))
        return present.Seats(self.match.names, tuple(not s.is_human for s in seats), here)

    def show(self) -> None:
        t = present.table(
            b.view(self.match.state, 0),
            self._seats(),
            ascii_only=self.app.ascii_only,
            ended=self.ended is not None,
            upto=self.ended or 0,
            odds=self.show_odds,
        )
        self.heading, self.columns, self.rows = t.heading, t.columns, t.rows
        self.dice, self.caption = t.dice, t.caption
        if t.stake is None:
            self.hide_stake()
        else:
            self.offer_stake(t.stake.seat, t.stake.low, t.stake.high, t.stake.note)
        self.prompt = t.prompt
        self.series, self.labels = t.series, t.labels
        self.tell_story(t.events)

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hurry":
            return self.thinking
        if action == "cash_out":
            if b.CLOSE not in b.legal_actions(self.match.state):
                return False
            if self.shared:  # the table is everyone's: closed on one's own turn only
                return self.human_to_act
            return any(seat.is_human for seat in self.match.seats)
        if action in ("bet", "sit", "stake_by", "odds", "roll"):
            return action in self.keys_now(self._keys, self.human_to_act)
        return True

    def _keys(self, mine: bool) -> frozenset[str]:
        return present.keys(b.legal_actions(self.match.state), mine)

    def action_bet(self) -> None:
        self.play(b.Action("bet", self.amount))

    def action_sit(self) -> None:
        self.play(b.SIT)

    def action_roll(self) -> None:
        self.play(b.ROLL)

    def action_odds(self) -> None:
        self.show_odds = not self.show_odds
        self.show()

    def action_cash_out(self) -> None:
        from .notices import ConfirmScreen

        def answer(yes: bool | None) -> None:
            if yes and not self.match.state.over:
                self.call_off_computer()
                self.play(b.CLOSE)

        self.app.push_screen(
            ConfirmScreen(_("Cash out?"), _("The table closes and everyone takes their chips.")), answer
        )

    # ------------------------------------------------------------ results

    def after_action(
        self, before: Match[Any, Any, Any], after: Match[Any, Any, Any], proceed: Callable[..., None]
    ) -> None:
        if len(after.state.history) > len(before.state.history) and not after.state.closed:
            r = after.state.history[-1]
            # Who bet, and who sat this round out with chips to bet: either
            # is shown how it went (a player out of chips only watches).
            start = after.state.chip_history[-2] if len(after.state.chip_history) > 1 else after.state.chips
            humans_in = [i for i in self._humans if r.bets[i] or start[i] > 0]
            if humans_in or r.kind == "fee" and self._humans:
                title, body = present.round_sheet(r, after.names, ascii_only=self.app.ascii_only)
                self.round_box(title, body, self.hold_round(before, after, proceed))
                return
        proceed()

    def finished(self) -> None:
        m = self.match
        res = b.result(m.state)
        assert res is not None
        body = present.session_sheet(res, m.names, ascii_only=self.app.ascii_only)
        series, labels = present.chips(b.view(m.state, 0), m.names)
        # The chart takes the rows the box has left (at 80×24: 19, less the
        # lines above and the seed), up to six, legend included.
        room = self.app.size.height - 5 - (6 + len(m.seats))
        rows = min(6, room - legend_height(labels, 56))
        chart = plot_lines(series, labels, 56, rows, ascii_only=self.app.ascii_only)
        over = len(chart.plain.split("\n")) - room
        if over > 0:  # the legend's "together" line
            rows -= over
            chart = plot_lines(series, labels, 56, rows, ascii_only=self.app.ascii_only)
        if rows >= 2:
            body.append_text(chart)
        body.append("\n" + _("Seed {seed}").format(seed=m.seed), "dim")
        self.show_result(_("Session over"), body, _("n: a new session (same seats and rules)    Enter: menu"))
