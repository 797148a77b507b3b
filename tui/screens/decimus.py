"""The Decimus table: your five secret dice (pick the ones to reroll), the
four games with your hand in each and how its betting stands, the bet
panel, the players and the story. At the showdown a box settles each
pending game with its reason. Between two humans at one keyboard the
shared ``GameScreen`` hands the keyboard over with a screen that hides the
dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import decimus as dx
from garito.core.i18n import N_, _, pgettext
from garito.core.match import Match
from garito.widgets.dice import DiceTray
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard
from garito.widgets.stake import StakeBar
from garito.widgets.values import Die, SeatRow

from ..presenters import decimus as present
from .game import GameScreen


class DecimusScreen(GameScreen):
    HIDES_HANDS = True

    BINDINGS = [
        Binding("enter,space", "reroll", N_("Reroll")),  # ⏎ on the bar: the prompt says Enter
        Binding("enter,space", "stand", N_("Done"), show=False),  # the prompt says so; d is shown
        Binding("space,enter", "bet", N_("Bet")),
        Binding("space,enter", "raise", N_("Raise")),
        Binding("space,enter", "hurry", N_("Hurry")),
        *(Binding(str(d), f"pick({d - 1})", show=False) for d in range(1, 6)),
        Binding("r", "reroll_any", show=False),
        Binding("d", "stand_any", N_("Done")),
        Binding("left,minus,h", "stake_by(-1)", N_("Less"), key_display="←"),
        Binding("right,plus,l", "stake_by(1)", N_("More"), key_display="→"),
        Binding("home", "stake_by(-1000)", show=False),
        Binding("end", "stake_by(1000)", show=False),
        Binding("p", "move('pass')", N_("Pass")),
        Binding("s", "move('see')", N_("See")),
        Binding("f", "move('fold')", N_("Fold")),
    ]

    heading: var[str] = var("")
    game_columns: var[tuple[str, ...]] = var(())
    game_rows: var[tuple[SeatRow, ...]] = var(())
    seat_columns: var[tuple[str, ...]] = var(())
    seat_rows: var[tuple[SeatRow, ...]] = var(())
    dice: var[tuple[Die, ...]] = var(())
    caption: var[str] = var("")
    prompt: var[str | Text] = var("")

    def _begin(self, match: Match[Any, Any, Any]) -> None:
        super()._begin(match)
        self.picked: set[int] = set()
        self._picked_for: tuple[int, int] | None = None
        self._showdown: int | None = None  # the showdown event on screen, between rounds

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=DecimusScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="decimus-left"):
                with Panel(_("Your dice"), id="dice-panel"):
                    yield DiceTray(gap=1).data_bind(DecimusScreen.dice, DecimusScreen.caption)
                with Panel(pgettext("decimus", "Games"), id="games-panel"):
                    yield Scoreboard(label=pgettext("decimus", "Game"), id="games-table").data_bind(
                        columns=DecimusScreen.game_columns, rows=DecimusScreen.game_rows
                    )
                yield Line(id="prompt").data_bind(text=DecimusScreen.prompt)
                yield self.stake_bar(_("Raise by"))
            with Vertical(id="decimus-right"):
                with Panel(_("Players"), id="players-panel"):
                    yield Scoreboard(label=_("Player"), id="players").data_bind(
                        columns=DecimusScreen.seat_columns, rows=DecimusScreen.seat_rows
                    )
                yield from self.log_panel()
        yield KeyBar()

    # ------------------------------------------------------------ match → widgets

    def _seats(self) -> present.Seats:
        seats = self.match.seats
        here = frozenset(i for i in range(len(seats)) if self.is_human(i))
        return present.Seats(self.match.names, tuple(not s.is_human for s in seats), here)

    def show(self) -> None:
        view = dx.view(self.match.state, self.viewer)
        key = (len(self.match.actions), self.viewer)
        if self._picked_for != key:  # a move made, or another seat's view: nothing picked
            self._picked_for, self.picked = key, set()
        my_move = view.to_act == self.viewer and self.is_human(view.to_act) and not self.busy
        t = present.table(
            view,
            self._seats(),
            ascii_only=self.app.ascii_only,
            picked=frozenset(self.picked),
            my_move=my_move,
            showdown=self._showdown,
        )
        self.heading = t.heading
        self.dice, self.caption = t.dice, t.caption
        self.game_columns, self.game_rows = t.game_columns, t.game_rows
        self.seat_columns, self.seat_rows = t.seat_columns, t.seat_rows
        self.prompt = t.prompt
        if t.stake is None:
            self.hide_stake()
        else:
            self.query_one(StakeBar).label = t.stake.label
            self.offer_stake(t.stake.seat, t.stake.low, t.stake.high, "")
            self._note()
        self.tell_story(t.events)
        self.refresh_bindings()

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hurry":
            return self.thinking
        if action in (
            "reroll",
            "reroll_any",
            "stand",
            "stand_any",
            "pick",
            "bet",
            "raise",
            "stake_by",
            "move",
        ):
            mine = self.human_to_act and self._showdown is None
            name = f"move:{parameters[0]}" if action == "move" else action
            return name in self.keys_now(self._keys, mine, bool(self.picked))
        return True

    def _keys(self, mine: bool, picked: bool) -> frozenset[str]:
        return present.keys(dx.legal_actions(self.match.state), mine, picked)

    def action_pick(self, i: int) -> None:
        self.picked ^= {i}
        self.show()

    def action_reroll(self) -> None:
        self.play(dx.Action("reroll", dice=tuple(sorted(self.picked))))

    def action_reroll_any(self) -> None:
        self.action_reroll()  # with nothing picked the rules refuse it, by name

    def action_stand(self) -> None:
        self.play(dx.STAND)

    action_stand_any = action_stand  # d: the same, whatever is picked

    def action_bet(self) -> None:
        self.play(dx.Action("bet", amount=self.amount))

    action_raise = action_bet  # the same move; the key bar names it by the moment

    def action_stake_by(self, delta: int) -> None:
        super().action_stake_by(delta)
        self._note()

    def _note(self) -> None:
        self.note = present.stake_note(dx.view(self.match.state, self.viewer), self.amount)

    def action_move(self, kind: str) -> None:
        self.play(dx.Action(kind))

    # ------------------------------------------------------------ showdown and end

    def after_action(
        self, before: Match[Any, Any, Any], after: Match[Any, Any, Any], proceed: Callable[..., None]
    ) -> None:
        new = after.state.events[len(before.state.events) :]
        at = next((i for i, e in enumerate(new) if isinstance(e, dx.Showdown)), None)
        if at is None:
            proceed()
            return
        showdown = self._showdown = len(before.state.events) + at
        self.show()

        def closed(_: object = None) -> None:
            self._showdown = None
            proceed()

        m = self.match
        body = present.showdown_sheet(
            m.state.events, showdown, m.names, m.state.scores, ascii_only=self.app.ascii_only
        )
        self.round_box(_("Showdown"), body, closed)

    def finished(self) -> None:
        m = self.match
        res = dx.result(m.state)
        assert res is not None
        self.show_result(_("Match over"), present.match_sheet(res, m.names, seed=m.seed))
