"""The Gemelos table: seats, the dice of the round, stakes, and the story.

The screen turns the match into small reactive values (title, rows, dice,
caption, prompt, stake) that the widgets are bound to, so one roll repaints
only the widgets whose values changed.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import gemelos as g
from garito.core.gemelos.odds import seat_chances
from garito.core.match import Match
from garito.widgets.dice import DiceTray, Die
from garito.widgets.glyphs import glyphs
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard, SeatRow
from garito.widgets.text import styled

from .game import GameScreen


class GemelosScreen(GameScreen):
    BINDINGS = [
        Binding("space,enter", "roll", "Roll"),
        Binding("space,enter", "stake", "Place stake"),
        Binding("space,enter", "hurry", "Hurry"),
        Binding("left,minus,h", "stake_by(-1)", "Less", key_display="←"),
        Binding("right,plus,l", "stake_by(1)", "More", key_display="→"),
        Binding("home", "stake_by(-1000)", show=False),
        Binding("end", "stake_by(1000)", show=False),
    ]

    # Plain data for the bound widgets (var: setting one repaints the widgets
    # bound to it, not the whole screen).
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
                with Panel("Table", id="seats-panel"):
                    yield Scoreboard().data_bind(GemelosScreen.columns, GemelosScreen.rows)
                with Panel("Dice", id="dice-panel"):
                    yield DiceTray().data_bind(GemelosScreen.dice, GemelosScreen.caption)
                yield Line(id="prompt").data_bind(text=GemelosScreen.prompt)
                yield self.stake_bar()
            yield from self.log_panel()
        yield KeyBar()

    def on_mount(self) -> None:
        # Sizes are fixed for the match, so updates repaint and never re-layout.
        self.query_one(Scoreboard).styles.height = len(self.match.seats) + 1
        # GameScreen.on_mount runs next by itself: Textual calls a message's
        # handlers up the class hierarchy (calling it here too ran it twice,
        # with two result boxes and two computer moves started).

    # ------------------------------------------------------------ match → widgets

    def show(self) -> None:
        m = self.match
        s = g.view(m.state, self.viewer)
        cfg = s.config
        names = m.names
        ph = s.phase
        seat = s.to_act
        gl = glyphs(self.app.ascii_only)
        staked = cfg.stakes != "off"
        # A round's result on screen: the table as that round ended.
        ended = s.history[-1] if self.ended is not None and s.history else None
        events = s.events[: self.ended] if ended else s.events

        stage = f" {gl['dash']} roll-off" if s.rolloff and not ended else ""
        pot = ended.pot if ended else s.pot
        self.heading = (
            f"Gemelos {gl['dash']} round {ended.number if ended else s.round}{stage} "
            f"{gl['dash']} first to {cfg.wins_needed} wins" + (f" {gl['dash']} pot {pot}" if staked else "")
        )

        self.columns = ("Wins", "Roll", "Chips", "Stake") if staked else ("Wins", "Roll")
        throws = ended.throws if ended else s.round_throws
        hands = {t.seat: t.dice for t in throws}  # a roll-off overwrites
        stakes = self._stakes_of(events, len(m.seats)) if ended else s.stakes
        leaders = (ended.winner,) if ended else s.leaders
        rows = []
        for i, seat_info in enumerate(m.seats):
            pips = self._pips(s.wins[i])
            hand = hands.get(i)
            roll = (g.describe(hand) if hand else gl["pending"]).replace(" = ", "=")
            cells = [pips, roll]
            if staked:
                stake = stakes[i]
                cells += [str(s.chips[i]), gl["pending"] if stake is None else str(stake)]
            rows.append(
                SeatRow(
                    seat_info.name,
                    tuple(cells),
                    turn=i == seat and not s.over and not ended,
                    lead=i in leaders,
                    computer=not seat_info.is_human,
                )
            )
        self.rows = tuple(rows)

        last = throws[-1] if throws else None
        if ended and last is not None:
            mark = "win" if last.seat == ended.winner else "lose"
            self.dice = (Die(last.dice[0], 8, mark), Die(last.dice[1], 8, mark))
            self.caption = f"{names[last.seat]}: {g.describe(last.dice)}"
        elif last is not None:
            mark = "win" if last.seat in s.leaders else "lose"
            self.dice = (Die(last.dice[0], 8, mark), Die(last.dice[1], 8, mark))
            self.caption = self._caption(s, last)
        elif s.history:
            # Until the new round's first roll, the dice that decided the last
            # round stay on the table.
            won = s.history[-1]
            final = won.winning_throw
            self.dice = (Die(final.dice[0], 8, "win"), Die(final.dice[1], 8, "win"))
            self.caption = f"Round {won.number}: {names[won.winner]} won with {g.describe(final.dice)}"
        else:
            self.dice = (Die(0, 8, "dim"), Die(0, 8, "dim"))
            self.caption = f"Round {s.round}: {names[s.first]} rolls first"

        if ended:
            self.hide_stake()
            self.prompt = f"Round {ended.number}: {names[ended.winner]} wins."
        else:
            self._show_stake(ph, seat)
            self.prompt = self._prompt(ph, seat)
        self.tell_story(events)

    @staticmethod
    def _stakes_of(events, seats: int) -> list[int | None]:
        """Each seat's stake in the last round of ``events``."""
        start = max((i for i, e in enumerate(events) if e.kind == "round"), default=0)
        stakes: list[int | None] = [None] * seats
        for e in events[start:]:
            if e.kind == "stake":
                stakes[e.seat] = e.amount
        return stakes

    def _pips(self, wins: int) -> str:
        """Round wins against the target: ●●○."""
        gl = glyphs(self.app.ascii_only)
        return gl["win"] * wins + gl["slot"] * (self.match.config.wins_needed - wins)

    def _caption(self, s: g.View, last: g.Throw) -> str:
        name = self.match.names[last.seat]
        hand = g.describe(last.dice)
        if last.seat in s.leaders and len(s.leaders) == 1:
            return f"{name}: {hand}, leading"
        if last.seat in s.leaders:
            return f"{name}: {hand}, tied for the lead"
        return f"{name}: {hand}"

    def _show_stake(self, ph: str, seat: int | None) -> None:
        if ph != "stake" or not self.is_human(seat):
            self.hide_stake()
            return
        s = g.view(self.match.state, seat)
        r = g.stake_range(s, seat)
        win, lose, void = seat_chances(s, seat)
        tie = f" void {void:.1%}" if void else ""
        self.offer_stake(
            seat, r.start, r.stop - 1, f"chips {s.chips[seat]}  win {win:.1%} lose {lose:.1%}{tie}"
        )

    def _prompt(self, ph: str, seat: int | None) -> str | Text:
        if seat is None:
            return "The match is over."
        name = self.match.names[seat]
        if not self.is_human(seat):
            verb = "staking" if ph == "stake" else "rolling"
            return f"{name} is {verb}{'...' if self.app.ascii_only else '…'}"
        if ph == "stake":
            arrows = glyphs(self.app.ascii_only)["arrows"]
            return styled(f"[b]$name[/b]: your stake ({arrows} to change, Enter).", name=name)
        what = "roll-off" if self.match.state.rolloff else "roll"
        return styled(f"[b]$name[/b], your {what}: press Space.", name=name)

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple) -> bool | None:
        if action in ("roll", "stake", "stake_by"):
            if not self.human_to_act:
                return False
            ph = g.phase(self.match.state)
            return ph == ("roll" if action == "roll" else "stake")
        if action == "hurry":
            return self.thinking
        return True

    def action_roll(self) -> None:
        self.play(g.ROLL)

    def action_stake(self) -> None:
        self.play(g.Action("stake", self.amount))

    # ------------------------------------------------------------ results

    def after_action(self, before: Match, after: Match, proceed) -> None:
        b, a = before.state, after.state
        if a.voids > b.voids:
            self.notify("Absolute tie: the round is void and replayed.", title="Void round", timeout=3)
        if len(a.history) > len(b.history):
            self._round_result(a.history[-1], self.hold_round(before, after, proceed))
        else:
            proceed()

    def _round_result(self, r: g.RoundResult, then) -> None:
        m = self.match
        s = m.state
        names = m.names
        gl = glyphs(self.app.ascii_only)
        body = Text()
        body.append(f"{names[r.winner]} wins the round\n", "bold")
        body.append(r.reason[0].upper() + r.reason[1:] + ".\n\n")
        # One line a throw, and each seat's wins after its last throw: six
        # seats fit the box at 80×24.
        last = {t.seat: k for k, t in enumerate(r.throws)}
        for k, t in enumerate(r.throws):
            star = gl["lead"] if t is r.winning_throw else " "
            pips = self._pips(s.wins[t.seat]) if last[t.seat] == k else ""
            body.append(f" {star} {names[t.seat]:<12} {g.describe(t.dice):<14} {pips}".rstrip() + "\n")
        if r.pot:
            body.append(f"\nPot {r.pot}: {names[r.winner]} takes {r.payout[r.winner]}")
            back = [f"{names[i]} {p}" for i, p in enumerate(r.payout) if p and i != r.winner]
            if back:
                body.append(f" (back to {', '.join(back)})")
        body.rstrip()
        self.round_box(f"Round {r.number}", body, then)

    def finished(self) -> None:
        res = g.result(self.match.state)
        m = self.match
        gl = glyphs(self.app.ascii_only)
        staked = m.config.stakes != "off"
        body = Text()
        body.append(f"{m.names[res.winner]} wins the match", "bold")
        body.append(f" in {res.rounds} rounds" + (f" ({res.voids} void)" if res.voids else "") + ".\n\n")
        order = sorted(range(len(m.seats)), key=lambda i: (-res.wins[i], -res.chips[i], i))
        head = f"   {'Seat':<12} {'Wins':<5}" + ("  Chips     Net" if staked else "")
        body.append(head + "\n", "dim")
        for i in order:
            star = gl["lead"] if i == res.winner else " "
            line = f" {star} {m.names[i]:<12} {res.wins[i]:<5}"
            if staked:
                line += f"  {res.chips[i]:>5}  {res.net[i]:>+6}"
            body.append(line + "\n")
        body.append("\nRounds: ", "dim")
        body.append("  ".join(f"{r.number}:{m.names[r.winner]}" for r in m.state.history))
        body.append(f"\nSeed {m.seed}", "dim")
        self.show_result("Match over", body)
