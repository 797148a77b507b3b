"""The Red Man's Throw table: the two seats, the dice, the ledger of rounds,
the stake and the call, and the story.

As on every Garito table, the screen turns the match into small values the
widgets are bound to, so a roll repaints only what changed. Nothing is
hidden in this game, so the table shows the same to both players.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var

from garito.core import redman as rm
from garito.core.match import Match
from garito.core.redman.game import ledger_net
from garito.core.redman.odds import later_red_men, prediction_edge, round_chances
from garito.widgets.dice import DiceTray, Die, face_lines
from garito.widgets.glyphs import glyphs
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line
from garito.widgets.panel import Panel
from garito.widgets.scoreboard import Scoreboard, SeatRow
from garito.widgets.text import styled

from .game import GameScreen, Waiting
from .results import _Box

CALLS = ("", *rm.PREDICTIONS)  # "" is no call


class RedManScreen(GameScreen):
    BINDINGS = [
        Binding("space,enter", "roll", "Roll"),
        Binding("space,enter", "stake", "Stake"),
        Binding("space,enter", "hurry", "Hurry"),
        Binding("t,space,enter", "tip", "I tip my hat", key_display="t"),
        Binding("left,minus,h", "stake_by(-1)", "Less", key_display="←"),
        Binding("right,plus,l", "stake_by(1)", "More", key_display="→"),
        Binding("left,h", "call_by(-1)", "Call", show=False),
        Binding("right,l", "call_by(1)", "Call", key_display="←/→"),
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

    def __init__(self, match: Match, seating=None) -> None:
        super().__init__(match, seating)
        self._call_for: tuple[int, int] | None = None
        self.call = ""  # the call the human is about to make
        self._typed = ""  # exact dice being typed

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=RedManScreen.heading)
        with Horizontal(id="table"):
            with Vertical(id="left"):
                with Panel("Table", id="seats-panel"):
                    yield Scoreboard().data_bind(RedManScreen.columns, RedManScreen.rows)
                with Panel("Dice", id="dice-panel"):
                    yield DiceTray().data_bind(RedManScreen.dice, RedManScreen.caption)
                yield Line(id="prompt").data_bind(text=RedManScreen.prompt)
                yield Line(id="call").data_bind(text=RedManScreen.call_text)
                yield self.stake_bar()
            with Vertical(id="right"):
                with Panel("Rounds", id="ledger-panel"):
                    yield Scoreboard(label="#", id="ledger").data_bind(
                        columns=RedManScreen.ledger_columns, rows=RedManScreen.ledger_rows
                    )
                yield from self.log_panel()
        yield KeyBar()

    # ------------------------------------------------------------ match → widgets

    def show(self) -> None:
        m = self.match
        s = rm.view(m.state, 0)
        cfg = s.config
        gl = glyphs(self.app.ascii_only)
        dash = gl["dash"]
        staked = cfg.bets != "off"

        if s.round == rm.SALVATION:
            stage = "round 7, the Salvation"
        else:
            stage = f"round {s.round} of {rm.ROUNDS}"
        bet = f" {dash} stake {s.stake}" if s.stake else ""
        calls = f" {dash} predictions" if cfg.bets == "predictions" else ""
        self.heading = f"Red Man's Throw {dash} {stage}{bet}{calls}"

        self._show_seats(s, staked)
        self._show_ledger(s, staked)
        self._show_dice(s)
        seat = s.to_act
        self._show_stake(s, seat)
        self._show_call(s, seat)
        self.prompt = self._prompt(s, seat)
        self.tell_story(s.events)

    def _show_seats(self, s: rm.View, staked: bool) -> None:
        gl = glyphs(self.app.ascii_only)
        self.columns = ("Won", "Hand", "Chips", "Ledger") if staked else ("Won", "Hand")
        leader = 0 if s.wins[0] > s.wins[1] else 1 if s.wins[1] > s.wins[0] else None
        rows = []
        for i, seat in enumerate(self.match.seats):
            hand = s.hands[i]
            cells = [str(s.wins[i]), f"{rm.show(hand) if hand else gl['pending']:<5}"]
            if staked and s.over:  # settled: the ledger is paid into the chips
                cells += [str(s.chips[i] + s.net[i]), "paid"]
            elif staked:
                cells += [str(s.chips[i]), f"{s.net[i]:+d}" if s.net[i] else "0"]
            rows.append(
                SeatRow(
                    seat.name,
                    tuple(cells),
                    turn=i == s.to_act and s.stage != "hat",
                    lead=i == leader or i == s.red_man,
                    computer=not seat.is_human,
                )
            )
        self.rows = tuple(rows)

    def _show_ledger(self, s: rm.View, staked: bool) -> None:
        gl = glyphs(self.app.ascii_only)
        names = self.match.names
        # Cells padded to their widest so the columns never shift as hands come.
        self.ledger_columns = (f"{names[0][:7]:<7}", f"{names[1][:7]:<7}") + (("Won",) if staked else ())
        done = {r.number: r for r in s.ledger}
        rows = []
        for n in range(1, rm.SALVATION + 1):
            label = "S" if n == rm.SALVATION else str(n)
            r = done.get(n)
            if r is not None:
                cells = [self._ledger_hand(r, i) for i in (0, 1)]
                if staked:
                    # Every round is the Red Man's: each shows what he takes
                    # from it, every chip his rival put in.
                    won = r.net[r.winner] if s.red_man is None else r.paid[1 - s.red_man]
                    if s.red_man is not None and s.config.edition == 1:
                        won = r.stake
                    cells.append((f"{won:+d}" if won else "0") if r.stake else gl["pending"])
                rows.append(SeatRow(label, tuple(cells), lead=r.red_man))
            elif n == s.round and not s.over:
                cells = [f"{rm.show(h) if h else gl['pending']:<7}" for h in s.hands]
                rows.append(SeatRow(label, tuple(cells), turn=True))
            else:
                rows.append(SeatRow(label, (gl["pending"], gl["pending"]), out=True))
        self.ledger_rows = tuple(rows)

    def _ledger_hand(self, r: rm.RoundResult, seat: int) -> str:
        """ "6-6-4*": the hand, a star for the round's winner, ✓/✗ for a call."""
        gl = glyphs(self.app.ascii_only)
        if r.salvation:
            text = str(r.rolloffs[-1][seat])
        else:
            hand = r.hands[seat]
            text = rm.show(hand) if hand else gl["pending"]
        if seat == r.winner:
            text += gl["lead"]
        fate = r.right[seat]
        if fate is not None:
            text += gl["hit"] if fate else gl["miss"]
        return f"{text:<7}"

    def _show_dice(self, s: rm.View) -> None:
        names = self.match.names
        if s.red_man is not None:
            self.dice = tuple(Die(6, 6, "hot") for _ in range(3))
            self.caption = f"6-6-6: {names[s.red_man]} is the Red Man"
            return
        if s.stage in ("rolloff", "salvation") and s.rolloffs:
            a, b = s.rolloffs[-1]
            self.dice = (Die(a, 6, "held"), Die(b, 6, "held"))
            self.caption = f"{names[0]} {a}, {names[1]} {b}: tied, again"
            return
        rolled = [i for i in (s.first, 1 - s.first) if s.hands[i] is not None]
        if rolled and not s.over:
            seat = rolled[-1]
            hand = s.hands[seat]
            self.dice = tuple(Die(v, 6) for v in hand)
            if len(rolled) == 2:
                self.caption = f"Both {rm.show(hand)}: a roll-off"
            else:
                self.caption = f"{names[seat]}: {rm.describe(hand)}"
            return
        if s.ledger:
            r = s.ledger[-1]
            if r.rolloffs:
                a, b = r.rolloffs[-1]
                self.dice = (
                    Die(a, 6, "win" if r.winner == 0 else "lose"),
                    Die(b, 6, "win" if r.winner else "lose"),
                )
                what = "the Salvation" if r.salvation else f"round {r.number}'s roll-off"
                self.caption = f"{names[r.winner]} won {what}, {max(a, b)}-{min(a, b)}"
            else:
                hand = r.hands[r.winner]
                self.dice = tuple(Die(v, 6, "win") for v in hand)
                self.caption = f"Round {r.number}: {names[r.winner]}, {rm.describe(hand)}"
            return
        self.dice = tuple(Die(0, 6, "dim") for _ in range(3))
        self.caption = f"Round {s.round}: {names[s.first]} rolls first"

    def _show_stake(self, s: rm.View, seat: int | None) -> None:
        if s.stage not in ("stake", "answer") or not self.is_human(seat) or s.limits is None:
            self.hide_stake()
            return
        r = s.limits
        if s.stage == "answer":
            dash = glyphs(self.app.ascii_only)["dash"]
            self.offer_stake(
                seat,
                s.proposal,
                r.stop - 1,
                f"{s.proposal} matches, more raises once {dash} chips {s.chips[seat]}",
            )
        else:
            note = f"chips {s.chips[seat]}, ledger {s.net[seat]:+d}".replace("+0", "0")
            self.offer_stake(seat, r.start, r.stop - 1, note)

    def _show_call(self, s: rm.View, seat: int | None) -> None:
        if s.stage != "roll" or not self.is_human(seat):
            self.call_text = ""
            self._call_for = None
            return
        key = (len(self.match.actions), seat)
        if self._call_for != key:
            self._call_for = key
            self.call, self._typed = "", ""
        rival = s.hands[1 - seat]
        win, lose = round_chances(rival=rival)
        if s.config.bets != "predictions":
            self.call_text = styled(f"[dim]win {win:.1%} lose {lose:.1%}[/dim]")
            return
        gl = glyphs(self.app.ascii_only)
        if self._typed:
            label = "exactly " + "-".join(self._typed) + gl["ellipsis"]
            more = 3 - len(self._typed)
            detail = f"type {more} more {'die' if more == 1 else 'dice'}"
        else:
            label = rm.prediction_label(self.call) if self.call else "no call"
            # Each choice the same way, so they compare: the chance of what
            # it pays on (the call coming; with no call, winning the round)
            # and what the round is worth with it, in stakes.
            later = later_red_men(s.config, s.wins, s.round, seat)
            edge = prediction_edge(self.call, rival, later) if self.call else 0.0
            worth = f"worth {win - lose + edge:+.2f} stake"
            if self.call:
                detail = f"comes {rm.prediction_chance(self.call):.1%}, {worth}"
            else:
                detail = f"win {win:.1%}, {worth}"
        line = f"Call [b]{gl['left']} $label {gl['right']}[/b]"
        self.call_text = styled(f"{line}\n[dim]$detail[/dim]", label=label, detail=detail)

    def _prompt(self, s: rm.View, seat: int | None) -> str | Text:
        names = self.match.names
        if seat is None:
            return "The match is over."
        name = names[seat]
        if not self.is_human(seat):
            verb = {"stake": "proposing a stake", "answer": "answering", "hat": "answering the Red Man"}.get(
                s.stage, "rolling"
            )
            return f"{name} is {verb}{glyphs(self.app.ascii_only)['ellipsis']}"
        arrows = glyphs(self.app.ascii_only)["arrows"]
        if s.stage == "stake":
            return styled(f"[b]$name[/b]: propose the stake ({arrows}, Enter).", name=name)
        if s.stage == "answer":
            return styled(
                f"[b]$name[/b]: $rival proposes {s.proposal}. Enter to match; {arrows} to raise.",
                name=name,
                rival=names[1 - seat],
            )
        if s.stage == "rolloff":
            return styled("[b]$name[/b]: equal hands. Space rolls off, one die each.", name=name)
        if s.stage == "salvation":
            return styled("[b]$name[/b]: the Salvation. Space rolls one die each.", name=name)
        if s.stage == "hat":
            return styled("[b]$name[/b]: the Red Man waits. Press t: “I tip my hat.”", name=name)
        rival = s.hands[1 - seat]
        beat = f" to beat {rm.show(rival)}" if rival else ""
        if s.config.bets == "predictions":
            return styled(
                f"[b]$name[/b], your roll$beat: call it ({arrows}, or type dice), Space.",
                name=name,
                beat=beat,
            )
        return styled("[b]$name[/b] rolls$beat (Space).", name=name, beat=beat)

    # ------------------------------------------------------------ keys

    def allows(self, action: str, parameters: tuple) -> bool | None:
        if action == "hurry":
            return self.thinking
        if action in ("roll", "stake", "stake_by", "tip", "call_by", "digit", "call_none"):
            if not self.human_to_act:
                return False
            st = self.match.state.stage
            if action in ("stake", "stake_by"):
                return st in ("stake", "answer")
            if action == "tip":
                return st == "hat"
            if action == "roll":
                return st in ("roll", "rolloff", "salvation")
            return st == "roll" and self.match.config.bets == "predictions"
        return True

    def action_roll(self) -> None:
        st = self.match.state.stage
        if st == "roll" and self.call:
            self.play(rm.Action("roll", prediction=self.call))
        else:
            self.play(rm.ROLL)

    def action_stake(self) -> None:
        self.play(rm.Action("stake", self.amount))

    def action_stake_by(self, delta: int) -> None:
        self.amount = max(self.low, min(self.high, self.amount + delta))

    def action_tip(self) -> None:
        self.play(rm.TIP)

    def action_call_by(self, delta: int) -> None:
        self._typed = ""
        self.call = CALLS[(CALLS.index(self.call) + delta) % len(CALLS)]
        self.show()

    def action_call_none(self) -> None:
        self.call, self._typed = "", ""
        self.show()

    def action_digit(self, face: int) -> None:
        self._typed = (self._typed if len(self._typed) < 3 else "") + str(face)
        if len(self._typed) == 3:
            text = "-".join(sorted(self._typed, reverse=True))
            self._typed = ""
            if text == "6-6-6":
                self.notify("6-6-6 cannot be called: the Red Man voids every call.", severity="warning")
            else:
                self.call = text
        self.show()

    # ------------------------------------------------------------ results

    def after_action(self, before: Match, after: Match, proceed) -> None:
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
            self._round_result(a.ledger[-1], proceed)
            return
        proceed()

    def _tipped(self, tipped: bool | None) -> None:
        self.waiting = Waiting.NOTHING
        if tipped:
            self.play(rm.TIP)
        else:
            self.next_turn()  # the answer is still owed: the t key stays offered

    def _round_result(self, r: rm.RoundResult, then) -> None:
        m = self.match
        s = m.state
        names = m.names
        gl = glyphs(self.app.ascii_only)
        body = Text()
        what = "the Salvation" if r.salvation else "the round"
        body.append(f"{names[r.winner]} wins {what}\n", "bold")
        body.append(r.reason[0].upper() + r.reason[1:] + ".\n\n")
        for i in (0, 1):
            star = gl["lead"] if i == r.winner else " "
            if r.salvation:
                shown = f"throws {r.rolloffs[-1][i]}"
            else:
                hand = r.hands[i]
                shown = f"{rm.show(hand)}  {rm.describe(hand)}" if hand else ""
            body.append(f" {star} {names[i]:<10} {shown}\n")
        for i, (call, fate) in enumerate(zip(r.predictions, r.right)):
            if call:
                body.append(
                    f"   {names[i]} called {rm.prediction_label(call)}: {'right' if fate else 'wrong'}.\n"
                )
        if r.stake:
            gain = r.net[r.winner]
            if gain:
                body.append(f"\nStake {r.stake}: {names[r.winner]} {gain:+d} on the ledger.\n")
            else:
                body.append(f"\nStake {r.stake}: a push, no chips change hands.\n")
        body.append(f"\n   {names[0]} {s.wins[0]}{gl['range']}{s.wins[1]} {names[1]}")
        self.round_box("Salvation" if r.salvation else f"Round {r.number}", body, then)

    def finished(self) -> None:
        m = self.match
        res = rm.result(m.state)
        gl = glyphs(self.app.ascii_only)
        names = m.names
        staked = m.config.bets != "off"
        body = Text()
        w = names[res.winner]
        if res.red_man:
            body.append(f"{w} is the Red Man: every round and every pot.\n", "bold")
        elif res.salvation:
            body.append(f"{w} wins at the Salvation, {max(res.wins)}{gl['range']}{min(res.wins)}.\n", "bold")
        else:
            body.append(f"{w} wins the match {max(res.wins)}{gl['range']}{min(res.wins)}.\n", "bold")
        body.append("\n")
        head = f"   {'Seat':<12} {'Rounds':<7}" + ("  Before  After     Net" if staked else "")
        body.append(head + "\n", "dim")
        start = m.config.start_chips
        for i in (0, 1):
            star = gl["lead"] if i == res.winner else " "
            line = f" {star} {names[i]:<12} {res.wins[i]:<7}"
            if staked:
                line += f"  {start[i]:>6}  {res.chips[i]:>5}  {res.net[i]:>+6}"
            body.append(line + "\n")
        body.append("\nRounds: ", "dim")
        body.append(
            "  ".join(f"{'S' if r.salvation else r.number}:{names[r.winner]}" for r in m.state.ledger)
        )
        body.append(f"\nSeed {m.seed}", "dim")
        nxt = rm.next_match(m.config, res)
        carried = "chips carried" if nxt.chips else "fresh bankrolls" if staked else "same rules"
        self.show_result(
            "Match over", body, f"n: rematch ({carried}, {names[nxt.first]} first)    Enter: menu"
        )

    def rematch_config(self) -> rm.Config:
        """Chips carried on, the other seat rolling first (a session)."""
        return rm.next_match(self.match.config, rm.result(self.match.state))


class RedManMoment(_Box):
    """6-6-6: the Red Man's line, and the loser's answer (a key) when the
    loser is at the keyboard; dismisses with True once the hat is tipped."""

    CLASSES = "dialog redman"
    BINDINGS = [
        Binding("t,enter,space", "answer", "I tip my hat"),
        Binding("escape", "later", "Later", show=False),
    ]

    def __init__(self, match: Match, *, ask: bool, ascii_only: bool = False) -> None:
        s = match.state
        names = match.names
        red, loser = names[s.red_man], names[1 - s.red_man]
        body = Text(justify="center")
        faces = [face_lines(Die(6, 6), ascii_only) for _ in range(3)]
        for row in range(len(faces[0])):
            body.append("  ".join(f[row] for f in faces) + "\n", "bold red")
        body.append(f"\n{red}: “Looks like I'm the Red Man.”\n", "bold")
        if match.config.bets != "off":
            # Every chip the rival put in, nothing of his own lost.
            took = s.net[s.red_man]
            ledger = ledger_net(s.ledger[:-1], None)[s.red_man]  # as it stood before the 6-6-6
            body.append(f"Every chip {loser} put in is {red}'s: {took:+d}")
            body.append(f" (the ledger stood at {ledger:+d})" if s.ledger[:-1] else "")
            body.append(".\n")
        if ask:
            body.append(f"\n{loser}, your answer: press t.")
        else:
            body.append(f"{loser}: “I tip my hat.”")
        super().__init__("The Red Man", body)
        self.ask = ask
        self.KEYS = "t: “I tip my hat”" if ask else "Space / Enter: the result"

    def action_answer(self) -> None:
        self.dismiss(True)

    def action_later(self) -> None:
        self.dismiss(not self.ask)
