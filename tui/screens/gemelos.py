"""The Gemelos table: seats, the dice of the round, stakes, and the story.

Glue: what the table shows comes from the presenter
(``tui/presenters/gemelos.py``) as plain values the widgets are bound to
(var: setting one repaints the widgets bound to it, not the whole screen);
the keys map to moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import gemelos as g
from garito.core.i18n import N_, _
from garito.core.match import Match
from garito.widgets.dice import DiceTray
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard
from garito.widgets.values import Die, SeatRow

from ..presenters import gemelos as present
from .game import GameScreen


class GemelosScreen(GameScreen):
    BINDINGS = [
        Binding("space,enter", "roll", N_("Roll")),
        Binding("space,enter", "stake", N_("Place stake")),
        Binding("space,enter", "hurry", N_("Hurry")),
        Binding("left,minus,h", "stake_by(-1)", N_("Less"), key_display="←"),
        Binding("right,plus,l", "stake_by(1)", N_("More"), key_display="→"),
        Binding("home", "stake_by(-1000)", show=False),
        Binding("end", "stake_by(1000)", show=False),
    ]

    heading: var[str] = var("")
    columns: var[tuple[str, ...]] = var(())
    rows: var[tuple[SeatRow, ...]] = var(())
    dice: var[tuple[Die, ...]] = var(())
    caption: var[str] = var("")
    prompt: var[str | Text] = var("")

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=GemelosScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="left"):
                with Panel(_("Table"), id="seats-panel"):
                    yield Scoreboard().data_bind(GemelosScreen.columns, GemelosScreen.rows)
                with Panel(_("Dice"), id="dice-panel"):
                    yield DiceTray().data_bind(GemelosScreen.dice, GemelosScreen.caption)
                yield Line(id="prompt").data_bind(text=GemelosScreen.prompt)
                yield self.stake_bar()
            yield from self.log_panel()
        yield KeyBar()

    def on_mount(self) -> None:
        # Sizes are fixed for the match, so updates repaint and never re-layout.
        self.query_one(Scoreboard).styles.height = len(self.match.seats) + 1
        # GameScreen.on_mount runs next by itself: Textual calls a message's
        # handlers up the class hierarchy.

    def _seats(self) -> present.Seats:
        seats = self.match.seats
        here = frozenset(i for i in range(len(seats)) if self.is_human(i))
        return present.Seats(self.match.names, tuple(not s.is_human for s in seats), here)

    def show(self) -> None:
        view = g.view(self.match.state, self.viewer)
        t = present.table(
            view,
            self._seats(),
            ascii_only=self.app.ascii_only,
            ended=self.ended is not None,
            upto=self.ended or 0,
        )
        self.heading, self.columns, self.rows = t.heading, t.columns, t.rows
        self.dice, self.caption = t.dice, t.caption
        if t.stake is None:
            self.hide_stake()
        else:
            self.offer_stake(t.stake.seat, t.stake.low, t.stake.high, t.stake.note)
        self.prompt = t.prompt
        self.tell_story(t.events)

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("roll", "stake", "stake_by"):
            return action in self.keys_now(self._keys, self.human_to_act)
        if action == "hurry":
            return self.thinking
        return True

    def _keys(self, mine: bool) -> frozenset[str]:
        return present.keys(g.legal_actions(self.match.state), mine)

    def action_roll(self) -> None:
        self.play(g.ROLL)

    def action_stake(self) -> None:
        self.play(g.Action("stake", self.amount))

    # ------------------------------------------------------------ results

    def after_action(
        self, before: Match[Any, Any, Any], after: Match[Any, Any, Any], proceed: Callable[..., None]
    ) -> None:
        b, a = before.state, after.state
        if a.voids > b.voids:
            self.notify(_("Absolute tie: the round is void and replayed."), title=_("Void round"), timeout=3)
        if len(a.history) > len(b.history):
            title, body = present.round_sheet(
                a.history[-1],
                a.wins,
                after.names,
                needed=a.config.wins_needed,
                ascii_only=self.app.ascii_only,
            )
            self.round_box(title, body, self.hold_round(before, after, proceed))
        else:
            proceed()

    def finished(self) -> None:
        m = self.match
        res = g.result(m.state)
        assert res is not None
        body = present.match_sheet(
            res,
            m.state.history,
            m.names,
            staked=m.config.stakes != "off",
            seed=m.seed,
            ascii_only=self.app.ascii_only,
        )
        self.show_result(_("Match over"), body)
