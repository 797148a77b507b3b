"""The Decimus table: your five secret dice (pick the ones to reroll), the
four games with your hand in each and how its betting stands, the bet
panel, the players and the story. At the showdown a box settles each
pending game with its reason. Between two humans at one keyboard the
shared ``GameScreen`` hands the keyboard over with a screen that hides the
dice."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import decimus as dx
from garito.core.decimus.bot import game_equity
from garito.core.match import Match
from garito.widgets.dice import DiceTray, Die
from garito.widgets.glyphs import glyphs
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard, SeatRow
from garito.widgets.stake import StakeBar
from garito.widgets.text import styled

from .game import GameScreen


class DecimusScreen(GameScreen):
    HIDES_HANDS = True

    BINDINGS = [
        Binding("space,enter", "reroll", "Reroll"),
        Binding("space,enter", "stand", "Done", show=False),  # the prompt says so; d is shown
        Binding("space,enter", "bet", "Bet"),
        Binding("space,enter", "raise", "Raise"),
        Binding("space,enter", "hurry", "Hurry"),
        *(Binding(str(d), f"pick({d - 1})", show=False) for d in range(1, 6)),
        Binding("r", "reroll_any", show=False),
        Binding("d", "stand_any", "Done"),
        Binding("left,minus,h", "stake_by(-1)", "Less", key_display="←"),
        Binding("right,plus,l", "stake_by(1)", "More", key_display="→"),
        Binding("home", "stake_by(-1000)", show=False),
        Binding("end", "stake_by(1000)", show=False),
        Binding("p", "move('pass')", "Pass"),
        Binding("s", "move('see')", "See"),
        Binding("f", "move('fold')", "Fold"),
    ]

    heading: var[str] = var("")
    game_columns: var[tuple[str, ...]] = var(())
    game_rows: var[tuple[SeatRow, ...]] = var(())
    seat_columns: var[tuple[str, ...]] = var(())
    seat_rows: var[tuple[SeatRow, ...]] = var(())
    dice: var[tuple[Die, ...]] = var(())
    caption: var[str] = var("")
    prompt: var[str | Text] = var("")

    def __init__(self, match: Match, seating=None) -> None:
        super().__init__(match, seating)
        self.picked: set[int] = set()
        self._picked_for: tuple[int, int] | None = None
        self._showdown: int | None = None  # the showdown event on screen, between rounds

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=DecimusScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="decimus-left"):
                with Panel("Your dice", id="dice-panel"):
                    yield DiceTray(gap=1).data_bind(DecimusScreen.dice, DecimusScreen.caption)
                with Panel("Games", id="games-panel"):
                    yield Scoreboard(label="Game", id="games-table").data_bind(
                        columns=DecimusScreen.game_columns, rows=DecimusScreen.game_rows
                    )
                yield Line(id="prompt").data_bind(text=DecimusScreen.prompt)
                yield self.stake_bar("Raise by")
            with Vertical(id="decimus-right"):
                with Panel("Players", id="players-panel"):
                    yield Scoreboard(label="Player", id="players").data_bind(
                        columns=DecimusScreen.seat_columns, rows=DecimusScreen.seat_rows
                    )
                yield from self.log_panel()
        yield KeyBar()

    # ------------------------------------------------------------ match → widgets

    def show(self) -> None:
        m = self.match
        s = dx.view(m.state, self.viewer)
        events = s.events
        if self._showdown is not None:
            # Between rounds: the round that ended, not the next one's secrets.
            events = events[: self._showdown + 1]
        story = dx.round_events(events[: self._showdown] if self._showdown is not None else events)
        number = story[0].amount if story else s.round
        dash = glyphs(self.app.ascii_only)["dash"]
        names = m.names
        seat = s.to_act
        if self._showdown is not None:
            doing = "the showdown"
        elif seat is None:
            doing = "the end"
        elif s.stage == "roll":
            doing = f"{names[seat]} rolls"
        else:
            doing = f"{dx.TITLES[s.game]}, {names[seat]} to speak"
        self.heading = f"Decimus {dash} round {number}, to {s.config.target} {dash} {doing}"
        dice = self._dice_shown(s, events)
        self._show_dice(s, dice)
        self._show_games(s, story, dice)
        self._show_players(s, story)
        self._show_bet(s, seat)
        self.tell_story(events)

    def _dice_shown(self, s: dx.View, events) -> tuple[int, ...]:
        if self._showdown is not None:
            both = events[self._showdown].dice
            return both[:5] if self.viewer == 0 else both[5:]
        return s.dice

    def _show_dice(self, s: dx.View, dice) -> None:
        rolling = self._showdown is None and s.stage == "roll" and self._my_move(s)
        key = (len(self.match.actions), self.viewer)
        if self._picked_for != key:
            self._picked_for, self.picked = key, set()
        if rolling:
            self.dice = tuple(Die(v, 6, "dim" if i in self.picked else "") for i, v in enumerate(dice))
            cells = [f"{i + 1} reroll" if i in self.picked else f"{i + 1}" for i in range(5)]
            left = 2 - s.rerolls[self.viewer]
            self.caption = " ".join(f"{c:^9}" for c in cells)
            self.caption += f"\n{left} reroll{'s' if left != 1 else ''} left"
            return
        game = s.game if self._showdown is None and s.stage == "bet" else ""
        hand = set(dx.hand_dice(game, dice)) if game else set()
        self.dice = tuple(Die(v, 6, "win" if i in hand else "") for i, v in enumerate(dice))
        if game:
            self.caption = f"{dx.TITLES[game]}: {dx.describe(game, dice)}"
        elif s.stage == "roll" and self._showdown is None:
            done = s.standing[self.viewer]
            self.caption = "Your dice stand." if done else "Waiting for the rival's rerolls."
        else:
            self.caption = ""

    def _show_games(self, s: dx.View, story, dice) -> None:
        names = self.match.names
        self.game_columns = ("Your hand", "Bets")
        status: dict[str, str] = {}
        for e in story:
            t = e.game
            if e.kind == "game":
                status[t] = "betting"
            elif e.kind == "bet" or e.kind == "pass":
                status[t] = "betting"
            elif e.kind == "pending":
                status[t] = f"{e.amount} pending"
            elif e.kind == "fold":
                status[t] = f"+{e.amount} {names[1 - e.seat][:9]} (fold)"
            elif e.kind == "point":
                status[t] = f"+1 {names[e.seat][:9]} (alone)"
            elif e.kind == "unscored":
                status[t] = "not scored"
            elif e.kind == "settle":
                status[t] = f"+{e.amount} {names[e.seat][:9]}"
        betting = self._showdown is None and s.stage == "bet"
        rows = []
        for g in dx.GAMES:
            cell = status.get(g, "")
            if betting and g == s.game:
                a, b = s.totals
                cell = f"{names[0][:9]}: {a}  {names[1][:9]}: {b}"
            rows.append(
                SeatRow(
                    dx.TITLES[g],
                    (f"{dx.describe(g, dice, short=True) if dice else '':<14}", cell),
                    turn=betting and g == s.game,
                    out=g in status and status[g] == "not scored",
                )
            )
        self.game_rows = tuple(rows)

    def _show_players(self, s: dx.View, story) -> None:
        gl = glyphs(self.app.ascii_only)
        self.seat_columns = ("Pts", "Rerolls")
        counts = {0: [], 1: []}
        for e in story:
            if e.kind == "reroll":
                counts[e.seat].append(str(e.amount))
        lead = 0 if s.scores[0] > s.scores[1] else 1 if s.scores[1] > s.scores[0] else None
        rows = []
        for i, seat in enumerate(self.match.seats):
            rr = ",".join(counts[i]) or gl["pending"]
            rows.append(
                SeatRow(
                    seat.name[:9],
                    (f"{s.scores[i]:>3}", rr),
                    turn=self._showdown is None and i == s.to_act,
                    lead=i == lead,
                    computer=not seat.is_human,
                )
            )
        self.seat_rows = tuple(rows)

    def _my_move(self, s: dx.View) -> bool:
        return s.to_act == self.viewer and self.is_human(s.to_act) and not self.busy

    def _show_bet(self, s: dx.View, seat: int | None) -> None:
        gl = glyphs(self.app.ascii_only)
        names = self.match.names
        if self._showdown is not None:
            self.prompt = "The showdown: the dice are on the table."
            self.hide_stake()
        elif seat is None:
            self.prompt = "The match is over."
            self.hide_stake()
        elif not self.is_human(seat):
            self.prompt = f"{names[seat]} is thinking{gl['ellipsis']}"
            self.hide_stake()
        elif seat != self.viewer:
            self.prompt = f"{names[seat]}'s turn."
            self.hide_stake()
        elif s.stage == "roll":
            self.prompt = styled(
                f"[b]$name[/b]: pick dice to reroll (1{gl['range']}5), then Enter; "
                "with none picked, Enter is done.",
                name=names[seat],
            )
            self.hide_stake()
        else:
            me, rival = seat, 1 - seat
            title = dx.TITLES[s.game]
            mine, theirs = s.totals[me], s.totals[rival]
            odds = game_equity(s)
            if not s.bet_made:
                said = "nobody has bet yet: pass or bet"
            else:
                said = (
                    f"{names[rival]} stands at {theirs}, you at {mine}: see {theirs}, raise, "
                    f"or fold (they score {mine or 1})"
                )
            self.prompt = styled(
                f"[b]$name[/b], $title: $said. [dim]You win it {odds:.0%}.[/dim]",
                name=names[seat],
                title=title,
                said=said,
            )
            self.query_one(StakeBar).label = "Raise by" if s.bet_made else "Bet"
            self.offer_stake(seat, 1, dx.MAX_RAISE, "")
            self._note()
        self.refresh_bindings()

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple) -> bool | None:
        if action == "hurry":
            return self.thinking
        s = self.match.state
        mine = self.human_to_act and self._showdown is None
        if action in ("reroll", "reroll_any", "stand", "stand_any", "pick"):
            # Enter rerolls the picked dice, or is "done" with none picked;
            # r and d say which whatever is picked.
            if not (mine and s.stage == "roll"):
                return False
            can_reroll = s.rerolls[dx.to_act(s)] < 2
            if action == "reroll":
                return can_reroll and bool(self.picked)
            if action in ("reroll_any", "pick"):
                return can_reroll
            if action == "stand":
                return not self.picked
            return True  # d: done, whatever is picked
        if action in ("bet", "raise", "stake_by"):
            if not (mine and s.stage == "bet"):
                return False
            if action == "bet":
                return not s.bet_made
            if action == "raise":
                return s.bet_made
            return True
        if action == "move":
            if not (mine and s.stage == "bet"):
                return False
            return dx.Action(parameters[0]) in dx.legal_actions(s)
        return True

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
        s = self.match.state
        if s.stage == "bet":
            self.note = f"your total would be {s.totals[1 - s.speaker] + self.amount}"

    def action_move(self, kind: str) -> None:
        self.play(dx.Action(kind))

    # ------------------------------------------------------------ showdown and end

    def after_action(self, before: Match, after: Match, proceed) -> None:
        new = after.state.events[len(before.state.events) :]
        at = next((i for i, e in enumerate(new) if e.kind == "showdown"), None)
        if at is None:
            proceed()
            return
        self._showdown = len(before.state.events) + at
        self.show()

        def closed(_=None) -> None:
            self._showdown = None
            proceed()

        self.round_box("Showdown", self._showdown_text(), closed)

    def _showdown_text(self) -> Text:
        m = self.match
        names = m.names
        events = m.state.events[: self._showdown + 1]
        story = dx.round_events(events[: self._showdown])
        shown = events[self._showdown].dice
        body = Text()
        for i in (0, 1):
            dice = shown[:5] if i == 0 else shown[5:]
            body.append(f"{names[i][:12]:<12} ", "bold")
            body.append("-".join(map(str, sorted(dice, reverse=True))) + "\n")
        body.append("\n")
        after = m.state.events[self._showdown + 1 :]
        lines = {}
        for e in story[1:] + after:
            if e.kind in ("fold", "point", "unscored", "settle"):
                text = dx.narrate(e, names)
                if e.kind == "fold":
                    text = f"{dx.TITLES[e.game]}: {text}"
                lines[e.game] = text
            if e.kind == "round":
                break
        for g in dx.GAMES:
            if g in lines:
                body.append(lines[g] + "\n")
        scores = m.state.scores
        dash = glyphs(self.app.ascii_only)["dash"]
        body.append(f"\n{names[0]} {scores[0]} {dash} {scores[1]} {names[1]}", "bold")
        return body

    def finished(self) -> None:
        m = self.match
        res = dx.result(m.state)
        names = m.names
        body = Text()
        won, lost = res.scores[res.winner], res.scores[1 - res.winner]
        body.append(f"{names[res.winner]} wins the match, {won} to {lost}, ", "bold")
        body.append(f"after {res.rounds} round{'s' if res.rounds != 1 else ''}.\n")
        body.append(f"\nSeed {m.seed}", "dim")
        self.show_result("Match over", body)
