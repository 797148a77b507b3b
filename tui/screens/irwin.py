"""The Irwin's Revenge table: the five statuettes (who holds each, what takes
it, your exact chance with your dice), the dice, the players, the story;
then the final phase with the best use of the Ant and the Eagle offered
after each throw, and the victory-points sheet."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import irwin as ir
from garito.core.irwin.odds import best_ant_number, best_change, take_chance, throw_win_chance
from garito.core.irwin.rules import FIGURES, STATUETTES
from garito.core.match import Match
from garito.widgets.dice import DiceTray, Die
from garito.widgets.glyphs import glyphs
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard, SeatRow
from garito.widgets.text import styled

from .game import GameScreen

SHORT_WHEN = {
    "crab": "even + odd",
    "ant": "two below 5",
    "jellyfish": "two sum to 7",
    "eagle": "a 1 and a 10",
    "salamander": "two in a row",
}


class IrwinScreen(GameScreen):
    BINDINGS = [
        Binding("space,enter", "act('name')", "Name and throw"),
        Binding("space,enter", "act('throw')", "Throw"),
        Binding("space,enter", "act('choose')", "Choose"),
        Binding("space,enter", "act('confirm')", "Confirm"),
        Binding("space,enter", "hurry", "Hurry"),
        # ↑/↓ go down the statuettes' list; ←/→ turn the one-line choices
        # (the Salamander's deal, the Ant's number, a change), as each line shows.
        Binding("up,k", "pick(-1)", show=False),
        Binding("down,j", "pick(1)", "Choose", key_display="↑/↓"),
        Binding("left,h", "turn(-1)", show=False),
        Binding("right,l", "turn(1)", "Change", key_display="←/→"),
        *(Binding(str(d), f"digit({d})", show=False) for d in range(1, 7)),
        Binding("x", "keep", "Keep as is"),
        Binding("p", "crab_pass", "Pass"),
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

    def __init__(self, match: Match, seating=None) -> None:
        super().__init__(match, seating)
        self.pick = 0  # the statuette, deal, Ant number or change being chosen
        self._pick_for: tuple[int, str] | None = None

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=IrwinScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="irwin-left"):
                with Panel("Statuettes", id="statuettes-panel"):
                    yield Scoreboard(label="Statuette", id="statuettes").data_bind(
                        columns=IrwinScreen.columns, rows=IrwinScreen.rows
                    )
                with Panel("Dice", id="dice-panel"):
                    yield DiceTray().data_bind(IrwinScreen.dice, IrwinScreen.caption)
                yield Line(id="prompt").data_bind(text=IrwinScreen.prompt)
                yield Line(id="choice").data_bind(text=IrwinScreen.choice)
            with Vertical(id="irwin-right"):
                with Panel("Players", id="players-panel"):
                    yield Scoreboard(label="Player", id="players").data_bind(
                        columns=IrwinScreen.seat_columns, rows=IrwinScreen.seat_rows
                    )
                yield from self.log_panel()
        yield KeyBar()

    # ------------------------------------------------------------ match → widgets

    def show(self) -> None:
        m = self.match
        s = ir.view(m.state, self.viewer)
        names = m.names
        dash = glyphs(self.app.ascii_only)["dash"]
        seat = s.to_act
        stage = {
            "expedition": "the expedition",
            "salamander": "the Salamander's deal",
            "ant": "the Ant's number",
            "final": "the final phase",
            "adjust": "the final phase",
            "crab": "the final phase",
            "over": "the end",
        }[s.stage]
        turn = f" {dash} {names[seat]}" if seat is not None else ""
        extra = f" ({s.throws_left} throws)" if s.stage == "expedition" and s.throws_left > 1 else ""
        self.heading = f"Irwin's Revenge {dash} {stage}{turn}{extra}"
        key = (len(m.actions), s.stage)
        if self._pick_for != key:
            self._pick_for = key
            self.pick = self._default_pick(s)
        self._show_statuettes(s)
        self._show_players(s)
        self._show_dice(s)
        self._show_choice(s, seat)
        self.tell_story(s.events)

    def _show_statuettes(self, s: ir.View) -> None:
        gl = glyphs(self.app.ascii_only)
        names = self.match.names
        me = s.to_act if s.to_act is not None else self.viewer
        n = ir.dice_count(s, me)
        self.columns = ("Holder", "Taken with", f"{n}d10")
        choosing = s.stage == "expedition" and self.is_human(s.to_act)
        in_play = ir.in_play(s)
        rows = []
        for i, st in enumerate(STATUETTES):
            h = s.holder[i]
            holder = names[h][:8] if h >= 0 else gl["pending"]
            chance = f"{take_chance(st, n):4.0%}" if h < 0 else ""
            rows.append(
                SeatRow(
                    f"{i + 1} {FIGURES[st]}",
                    (f"{holder:<8}", f"{SHORT_WHEN[st]:<12}", chance),
                    turn=choosing and in_play and in_play[self.pick % len(in_play)] == st,
                    lead=h == me,
                    out=h >= 0 and h != me,
                )
            )
        self.rows = tuple(rows)

    def _show_players(self, s: ir.View) -> None:
        self.seat_columns = ("Held", "VP")
        rows = []
        for i, seat in enumerate(self.match.seats):
            held = len(ir.held_by(s, i))
            rows.append(
                SeatRow(
                    seat.name[:9],
                    (str(held), f"{ir.score(s, i).total:+d}"),
                    turn=i == s.to_act,
                    computer=not seat.is_human,
                )
            )
        self.seat_rows = tuple(rows)

    def _show_dice(self, s: ir.View) -> None:
        names = self.match.names
        last = next((e for e in reversed(s.events) if e.kind in ("throw", "fthrow", "change", "won")), None)
        if last is None:
            self.dice = (Die(0, 10, "dim"), Die(0, 10, "dim"))
            self.caption = f"{names[s.turn]} goes first"
            return
        if last.kind == "throw":
            mark = "win" if last.taken else "lose"
            self.dice = tuple(Die(v, 10, mark) for v in last.dice)
            got = "takes it" if last.taken else "misses"
            self.caption = f"{names[last.seat]}: the {FIGURES[last.statuette]}, {got}"
            return
        won = last.kind == "won"
        self.dice = tuple(Die(v, 6, "win" if won else "", str(v)) for v in last.dice)
        self.caption = f"{names[last.seat]}: {'-'.join(map(str, last.dice))}" + (
            f", {last.text}" if won else ""
        )

    # ------------------------------------------------------------ choices

    def _options(self, s: ir.View) -> list[ir.Action]:
        """What the pick cycles through at this stage, the advised first."""
        seat = s.to_act
        if s.stage == "expedition":
            return [ir.Action("name", statuette=x) for x in ir.in_play(s)]
        if s.stage == "salamander":
            return [ir.Action("salamander", statuette=d) for d in ir.DEALS]
        if s.stage == "ant":
            return [ir.Action("ant", number=n) for n in range(1, 7)]
        if s.stage == "adjust" and seat is not None:
            options = ir.adjustments(s, seat)
            best = best_change(s.dice, ir.blessings(s, seat), s.ant_number)
            if best is not None and best != (-1, -1, 0):
                a, j, v = best
                first = ir.Action("change", ant=a, eagle=j, value=v)
                options.remove(first)
                options.insert(0, first)
            return options
        return []

    def _default_pick(self, s: ir.View) -> int:
        if s.stage == "ant" and s.to_act is not None:
            return best_ant_number(ir.blessings(s, s.to_act)) - 1
        return 0

    def _show_choice(self, s: ir.View, seat: int | None) -> None:
        gl = glyphs(self.app.ascii_only)
        names = self.match.names
        if seat is None:
            self.prompt, self.choice = "The game is over.", ""
            return
        name = names[seat]
        if not self.is_human(seat):
            self.prompt, self.choice = f"{name} is thinking{gl['ellipsis']}", ""
            return
        options = self._options(s)
        L, R = gl["left"], gl["right"]
        if s.stage == "expedition":
            st = options[self.pick % len(options)].statuette
            n = ir.dice_count(s, seat)
            first = " first attempt (+10)" if st not in s.attempts[seat] else ""
            self.prompt = styled(
                f"[b]$name[/b]: name a statuette ({gl['updown']} or 1{gl['range']}5), Enter throws {n}d10.",
                name=name,
            )
            self.choice = styled(
                f"{L} the {FIGURES[st]} {R}  {take_chance(st, n):.0%}{first}\n[dim]curse: $curse[/dim]",
                curse=ir.rules.CURSE[st],
            )
        elif s.stage == "salamander":
            deal = options[self.pick % len(options)].statuette
            self.prompt = styled("[b]$name[/b]: the Salamander's blessing before the final.", name=name)
            said = {"keep": "keep it", "renounce": "renounce it: +15", "cede": "cede it to the rival: +30"}[
                deal
            ]
            self.choice = f"{L} {said} {R}"
        elif s.stage == "ant":
            n = options[self.pick % len(options)].number
            bless = ir.blessings(s, seat)
            self.prompt = styled(
                f"[b]$name[/b]: the Ant's number for every throw ({gl['arrows']} or 1{gl['range']}6).",
                name=name,
            )
            self.choice = f"{L} {n} {R}  wins {throw_win_chance(bless, n):.1%} of throws"
        elif s.stage == "final":
            bless = ir.blessings(s, seat)
            p = throw_win_chance(bless, s.ant_number)
            self.prompt = styled("[b]$name[/b]: throw five dice (Space).", name=name)
            self.choice = styled(f"[dim]a throw wins {p:.1%} with your blessings[/dim]")
        elif s.stage == "crab":
            p = throw_win_chance(ir.blessings(s, seat), s.ant_number)
            self.prompt = styled(
                "[b]$name[/b]: the Crab's second throw: Space throws again, p passes.", name=name
            )
            self.choice = styled(f"[dim]a throw wins {p:.1%} and costs a point[/dim]")
        elif s.stage == "adjust":
            act = options[self.pick % len(options)]
            after = ir.changed_dice(s.dice, act, s.ant_number)
            wins = ir.final_wins(after, ir.blessings(s, seat))
            what = self._describe_change(act, s)
            verdict = "[b]wins[/b]" if wins else "does not win"
            best = " (the best use)" if self.pick % len(options) == 0 and wins else ""
            self.prompt = styled(f"[b]$name[/b]: $what {gl['dash']} {verdict}{best}.", name=name, what=what)
            self.choice = styled(
                f"{L} {'-'.join(map(str, after))} {R}  [dim]Enter confirms, x keeps the throw[/dim]"
            )
        self.refresh_bindings()

    def _describe_change(self, act: ir.Action, s: ir.View) -> str:
        parts = []
        if act.ant >= 0:
            parts.append(f"the Ant puts {s.ant_number} on die {act.ant + 1}")
        if act.eagle >= 0:
            parts.append(f"the Eagle sets die {act.eagle + 1} to {act.value}")
        return " and ".join(parts) if parts else "no change"

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple) -> bool | None:
        if action == "hurry":
            return self.thinking
        st = self.match.state.stage
        if action == "act":
            wanted = {"expedition": "name", "final": "throw", "crab": "throw", "adjust": "confirm"}
            return self.human_to_act and parameters[0] == wanted.get(st, "choose")
        if action == "pick":
            return self.human_to_act and st == "expedition"
        if action == "turn":
            return self.human_to_act and st in ("salamander", "ant", "adjust")
        if action == "digit":
            return self.human_to_act and st in ("expedition", "salamander", "ant", "adjust")
        if action == "crab_pass":
            return self.human_to_act and st == "crab"
        if action == "keep":
            return self.human_to_act and st == "adjust"
        return True

    def action_act(self, _what: str = "") -> None:
        s = ir.view(self.match.state, self.viewer)
        if s.stage in ("final", "crab"):
            self.play(ir.THROW)
            return
        options = self._options(s)
        if options:
            self.play(options[self.pick % len(options)])

    def action_pick(self, delta: int) -> None:
        self.pick += delta
        self.show()

    action_turn = action_pick  # the same choice, on a one-line picker

    def action_crab_pass(self) -> None:
        self.play(ir.PASS)

    def action_digit(self, d: int) -> None:
        s = ir.view(self.match.state, self.viewer)
        if s.stage == "expedition" and d <= 5:
            st = STATUETTES[d - 1]
            if st in ir.in_play(s):
                self.pick = ir.in_play(s).index(st)
        elif s.stage == "ant":
            self.pick = d - 1
        self.show()

    def action_keep(self) -> None:
        self.play(ir.KEEP)

    # ------------------------------------------------------------ the end

    def finished(self) -> None:
        from garito.store import bests

        m = self.match
        res = ir.result(m.state)
        names = m.names
        records = bests.record("irwin", {names[i]: res.scores[i].total for i in (0, 1)})
        body = Text()
        body.append(
            f"{names[res.winner]} wins with {res.scores[res.winner].total} victory points.\n\n", "bold"
        )
        body.append(f"{'':<36}{names[0][:9]:>9} {names[1][:9]:>9}\n", "dim")
        for key, label in ir.Score.ROWS:
            a, b = getattr(res.scores[0], key), getattr(res.scores[1], key)
            if a or b:
                body.append(f"{label:<36}{a:>+9d} {b:>+9d}\n")
        body.append(f"{'Total':<36}{res.scores[0].total:>+9d} {res.scores[1].total:>+9d}\n", "bold")
        body.append("\nBest ever: ", "dim")
        body.append(
            "  ".join(
                f"{n} {records[n][0]}{' (new!)' if records[n][1] else ''}" for n in names if n in records
            )
        )
        body.append(f"\nSeed {m.seed}", "dim")
        self.show_result("Victory points", body)
