"""The Barras table: the players and their chips, the croupier's bar and
the last throw, the bet with its exact chances, the chip history as a plot,
and the story."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import barras as b
from garito.core import words
from garito.core.barras.odds import beat_chance, win_chance
from garito.core.match import Match
from garito.widgets.chart import Chart, legend_height, plot_lines
from garito.widgets.dice import DiceTray, Die
from garito.widgets.glyphs import glyphs
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard, SeatRow
from garito.widgets.text import styled

from .game import GameScreen


class BarrasScreen(GameScreen):
    BINDINGS = [
        Binding("space,enter", "bet", "Bet"),
        Binding("space,enter", "roll", "Roll"),
        Binding("space,enter", "hurry", "Hurry"),
        Binding("s", "sit", "Sit out"),
        Binding("left,minus,h", "stake_by(-1)", "Less", show=False),
        Binding(
            "right,plus,l", "stake_by(1)", "Amount", show=False
        ),  # the prompt says ←/→; the bar keeps room for ^q
        Binding("home", "stake_by(-1000)", show=False),
        Binding("end", "stake_by(1000)", show=False),
        Binding("o", "odds", "Odds"),
        Binding("c", "cash_out", "Cash out"),
    ]

    heading: var[str] = var("")
    columns: var[tuple[str, ...]] = var(())
    rows: var[tuple[SeatRow, ...]] = var(())
    dice: var[tuple[Die, ...]] = var(())
    caption: var[str] = var("")
    prompt: var[str | Text] = var("")
    series: var[tuple[tuple[int, ...], ...]] = var(())
    labels: var[tuple[str, ...]] = var(())

    def __init__(self, match: Match, seating=None) -> None:
        super().__init__(match, seating)
        self.show_odds = True

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=BarrasScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="left"):
                with Panel("Table", id="seats-panel"):
                    yield Scoreboard().data_bind(BarrasScreen.columns, BarrasScreen.rows)
                with Panel("Bar and throw", id="dice-panel"):
                    yield DiceTray().data_bind(BarrasScreen.dice, BarrasScreen.caption)
                yield Line(id="prompt").data_bind(text=BarrasScreen.prompt)
                yield self.stake_bar("Bet")
            with Vertical(id="right"):
                with Panel("Chips", id="chart-panel"):
                    yield Chart(id="chart").data_bind(BarrasScreen.series, BarrasScreen.labels)
                yield from self.log_panel()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Scoreboard).styles.height = len(self.match.seats) + 1
        # GameScreen.on_mount runs next by itself: Textual calls a message's
        # handlers up the class hierarchy (calling it here too ran it twice,
        # with two result boxes and two computer moves started).

    # ------------------------------------------------------------ match → widgets

    def show(self) -> None:
        m = self.match
        s = b.view(m.state, 0)
        cfg = s.config
        gl = glyphs(self.app.ascii_only)
        dash = gl["dash"]
        # A round's result on screen: the table as that round ended.
        ended = s.history[-1] if self.ended is not None and s.history else None
        events = s.events[: self.ended] if ended else s.events
        bar = ended.bar if ended else s.bar
        self.heading = (
            f"Barras {dash} round {ended.number if ended else s.round} {dash} bar {bar} {dash} bets "
            f"{cfg.stake_min}{gl['range']}{cfg.stake_max}, fee {cfg.fee}, solo {cfg.solo}"
        )
        self._show_seats(s, ended)
        self._show_dice(s, bar, events)
        seat = s.to_act
        if ended:
            self.hide_stake()
            self.prompt = f"Round {ended.number} is over."
        else:
            self._show_stake(s, seat)
            self.prompt = self._prompt(s, seat)
        self.series = tuple(tuple(row[i] for row in s.chip_history) for i in range(len(m.seats)))
        self.labels = tuple(name[:8] for name in m.names)
        self.tell_story(events)

    def _show_seats(self, s: b.View, ended: b.RoundResult | None) -> None:
        gl = glyphs(self.app.ascii_only)
        cfg = s.config
        self.columns = ("Chips", "Bet", "Throw", "Net")
        bets, throws, bar = (ended.bets, ended.throws, ended.bar) if ended else (s.bets, s.throws, s.bar)
        rows = []
        for i, seat in enumerate(self.match.seats):
            bet = bets[i]
            out = s.chips[i] == 0 and i not in s.order and not (ended and bet)
            if out:
                bet_cell = "out"
            elif bet is None:
                bet_cell = gl["pending"]
            else:
                bet_cell = str(bet) if bet else "sits"
            throw = throws[i]
            throw_cell = gl["pending"] if throw is None else f"{throw}{gl['lead'] if throw > bar else ''}"
            net = s.chips[i] - cfg.bankroll
            rows.append(
                SeatRow(
                    seat.name,
                    (f"{s.chips[i]:>5}", f"{bet_cell:<4}", f"{throw_cell:<5}", f"{net:+d}" if net else "0"),
                    turn=i == s.to_act and not ended,
                    computer=not seat.is_human,
                    out=out,
                )
            )
        self.rows = tuple(rows)

    def _show_dice(self, s: b.View, bar_value: int, events) -> None:
        names = self.match.names
        croupier = next((e for e in reversed(events) if e.kind == "round"), None)
        tens, units = croupier.dice if croupier is not None else s.bar_dice
        bar = (Die(tens, 10, "held", f"{tens:02d}"), Die(units, 10, "held", str(units)))
        last = self._last_throw(events)
        if last is None:
            self.dice = bar
            self.caption = f"Bar {bar_value}: to win, throw more"
            return
        seat, dice, v, rolloff = last
        mark = "win" if v > bar_value else "lose"
        self.dice = bar + (Die(dice[0], 10, mark, f"{dice[0]:02d}"), Die(dice[1], 10, mark, str(dice[1])))
        what = "rolls off" if rolloff else "throws"
        self.caption = f"Bar {bar_value}  {names[seat]} {what} {v}"

    def _last_throw(self, events):
        """The latest throw of the round ``events`` end in: (seat, dice, value, roll-off?)."""
        for e in reversed(events):
            if e.kind == "round":
                return None
            if e.kind in ("roll", "rolloff"):
                return e.seat, e.dice, e.value, e.kind == "rolloff"
        return None

    def _show_stake(self, s: b.View, seat: int | None) -> None:
        if s.stage != "bet" or not self.is_human(seat):
            self.hide_stake()
            return
        r = b.stake_limits(s, seat)
        if self.show_odds:
            rivals = sum(1 for i, bet in enumerate(s.bets) if bet and i != seat)
            win = win_chance(s.bar, rivals)
            against = f"the table {win:.1%} vs {rivals} in" if rivals else "nobody in yet"
            note = f"beat {s.bar}: {beat_chance(s.bar):.1%}, {against}"
        else:
            note = "o shows the odds"
        self.offer_stake(seat, r.start, r.stop - 1, note)

    def _prompt(self, s: b.View, seat: int | None) -> str | Text:
        if seat is None:
            return "The table is closed."
        name = self.match.names[seat]
        if not self.is_human(seat):
            verb = "deciding" if s.stage == "bet" else "rolling"
            return f"{name} is {verb}{glyphs(self.app.ascii_only)['ellipsis']}"
        arrows = glyphs(self.app.ascii_only)["arrows"]
        if s.stage == "bet":
            return styled(f"[b]$name[/b]: bet ({arrows}, Enter) or s to sit out.", name=name)
        if s.stage == "rolloff":
            return styled("[b]$name[/b]: tied for the highest. Space rolls off.", name=name)
        return styled("[b]$name[/b], your throw: press Space.", name=name)

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple) -> bool | None:
        if action == "hurry":
            return self.thinking
        if action == "cash_out":
            if self.shared:  # the table is everyone's: closed on one's own turn only
                return not self.match.state.over and self.human_to_act
            return not self.match.state.over and any(seat.is_human for seat in self.match.seats)
        if action in ("bet", "sit", "stake_by", "odds"):
            return self.human_to_act and self.match.state.stage == "bet"
        if action == "roll":
            return self.human_to_act and self.match.state.stage in ("roll", "rolloff")
        return True

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
            ConfirmScreen("Cash out?", "The table closes and everyone takes their chips."), answer
        )

    # ------------------------------------------------------------ results

    def after_action(self, before: Match, after: Match, proceed) -> None:
        if len(after.state.history) > len(before.state.history) and not after.state.closed:
            r = after.state.history[-1]
            humans_in = [i for i in self._humans if r.bets[i]]
            if humans_in or r.kind == "fee" and self._humans:
                self._round_result(r, self.hold_round(before, after, proceed))
                return
        proceed()

    def _round_result(self, r: b.RoundResult, then) -> None:
        names = self.match.names
        gl = glyphs(self.app.ascii_only)
        body = Text()
        headline = {
            "fee": "Nobody bets: the table fee",
            "house": "Nobody beats the bar: the house keeps the bets",
            "solo": f"{names[r.winner] if r.winner is not None else ''} beats the bar alone",
            "table": f"{names[r.winner] if r.winner is not None else ''} takes the table",
        }[r.kind]
        body.append(headline + "\n", "bold")
        body.append(f"The bar: {r.bar}\n\n")
        for i, name in enumerate(names):
            if not r.bets[i] and not r.delta[i]:
                continue
            throw = r.throws[i]
            star = gl["lead"] if i == r.winner else " "
            shown = (
                f"bet {r.bets[i]:<3} threw {throw:<4}" if throw is not None else "sat out       " + " " * 5
            )
            body.append(f" {star} {name:<10} {shown} {r.delta[i]:+d}\n")
        if r.rolloffs:
            body.append(
                "   Roll-off: " + ", then ".join(" / ".join(str(v) for v in p) for p in r.rolloffs) + "\n"
            )
        if r.house:
            body.append(f"\nThe house {'wins' if r.house > 0 else 'pays'} {abs(r.house)}.")
        else:
            body.append("\nThe bets change hands between the players.")
        self.round_box(f"Round {r.number}", body, then)

    def finished(self) -> None:
        m = self.match
        res = b.result(m.state)
        gl = glyphs(self.app.ascii_only)
        body = Text()
        how = "cashed out" if res.closed else "out of players with chips"
        body.append(f"The table closes after {words.count(res.rounds, 'round')} ({how}).\n\n", "bold")
        body.append(f"   {'Player':<12} {'Chips':>6} {'Net':>6}\n", "dim")
        order = sorted(range(len(m.seats)), key=lambda i: (-res.chips[i], i))
        for i in order:
            star = gl["lead"] if i == res.winner and res.net[i] > 0 else " "
            body.append(f" {star} {m.names[i]:<12} {res.chips[i]:>6} {res.net[i]:>+6}\n")
        body.append(f"   {'The house':<12} {'':>6} {res.house:>+6}\n\n")
        series = tuple(tuple(row[i] for row in m.state.chip_history) for i in range(len(m.seats)))
        labels = tuple(n[:8] for n in m.names)
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
        body.append(f"\nSeed {m.seed}", "dim")
        self.show_result("Session over", body, "n: a new session (same seats and rules)    Enter: menu")
