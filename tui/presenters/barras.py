"""What the Barras table shows: plain Python, no Textual. The screen
(``tui/screens/barras.py``) binds it to its widgets.

``table`` gives everything the table binds at one moment (heading, seat
rows, the bar and the last throw, prompt, the bet on offer with its exact
chances, the chip history and the story); ``keys`` which of the game's keys
work now, from the legal moves; ``round_sheet`` and ``session_sheet`` the
round's result and the session's end, from the core's own records of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from garito.core.barras import (
    Action,
    Event,
    Result,
    RolledOff,
    RoundResult,
    RoundStarted,
    View,
    stake_limits,
)
from garito.core.barras import (
    Rolled as Thrown,
)
from garito.core.barras.odds import beat_chance, win_chance
from garito.core.i18n import N_, _, ngettext, pgettext
from garito.widgets.glyphs import glyphs
from garito.widgets.text import pad, styled
from garito.widgets.values import Die, SeatRow


@dataclass(frozen=True)
class Seats:
    """Who sits at the table, as the table shows them."""

    names: tuple[str, ...]
    computer: tuple[bool, ...]  # played by a computer (marked on its row)
    here: frozenset[int]  # played from this keyboard


@dataclass(frozen=True)
class StakeOffer:
    """The bet bar for the seat to bet: its limits and a note of its odds."""

    seat: int
    low: int
    high: int
    note: str


@dataclass(frozen=True)
class Table:
    heading: str
    columns: tuple[str, ...]
    rows: tuple[SeatRow, ...]
    dice: tuple[Die, ...]
    caption: str
    prompt: str | Text
    stake: StakeOffer | None  # None: the bet bar is hidden
    series: tuple[tuple[int, ...], ...]  # each player's chips after each round
    labels: tuple[str, ...]
    events: tuple[Event, ...]  # the story as far as the table shows it


def table(
    view: View,
    seats: Seats,
    *,
    ascii_only: bool,
    ended: bool = False,
    upto: int = 0,
    odds: bool = True,
) -> Table:
    """The table as it stands. While a round's result is on screen
    (``ended``) it shows that round as it ended: the story up to ``upto``
    (the next round's first event). ``odds``: the bet bar shows the chances."""
    cfg = view.config
    gl = glyphs(ascii_only)
    dash = gl["dash"]
    last_round = view.history[-1] if ended and view.history else None
    events = view.events[:upto] if last_round else view.events
    bar = last_round.bar if last_round else view.bar
    heading = (
        f"Barras {dash} "
        + _("round {number}").format(number=last_round.number if last_round else view.round)
        + f" {dash} "
        + _("bar {bar}").format(bar=bar)
        + f" {dash} "
        + _("bets {low}–{high}, fee {fee}, solo {solo}")
        .format(low=cfg.stake_min, high=cfg.stake_max, fee=cfg.fee, solo=cfg.solo)
        .replace("–", gl["range"])
    )
    dice, caption = _dice(view, bar, events, seats.names)
    if last_round:
        stake = None
        prompt: str | Text = _("Round {number} is over.").format(number=last_round.number)
    else:
        stake = _stake(view, seats, odds)
        prompt = _prompt(view, seats, ascii_only)
    series, labels = chips(view, seats.names)
    return Table(
        heading,
        (_("Chips"), pgettext("column", "Bet"), pgettext("column", "Throw"), _("Net")),
        _rows(view, seats, last_round, ascii_only),
        dice,
        caption,
        prompt,
        stake,
        series,
        labels,
        events,
    )


def chips(view: View, names: Sequence[str]) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    """The chart's lines, each player's chips after each round, and its labels."""
    series = tuple(tuple(row[i] for row in view.chip_history) for i in range(len(names)))
    return series, tuple(name[:8] for name in names)


def _rows(view: View, seats: Seats, ended: RoundResult | None, ascii_only: bool) -> tuple[SeatRow, ...]:
    gl = glyphs(ascii_only)
    bets, throws, bar = (ended.bets, ended.throws, ended.bar) if ended else (view.bets, view.throws, view.bar)
    rows = []
    for i, name in enumerate(seats.names):
        bet = bets[i]
        out = view.chips[i] == 0 and i not in view.order and not (ended and bet)
        if out:
            bet_cell = _("out")
        elif bet is None:
            bet_cell = gl["pending"]
        else:
            bet_cell = str(bet) if bet else _("sits")
        throw = throws[i]
        throw_cell = gl["pending"] if throw is None else f"{throw}{gl['lead'] if throw > bar else ''}"
        net = view.chips[i] - view.config.bankroll
        rows.append(
            SeatRow(
                name,
                (f"{view.chips[i]:>5}", f"{bet_cell:<4}", f"{throw_cell:<5}", f"{net:+d}" if net else "0"),
                turn=i == view.to_act and not ended,
                computer=seats.computer[i],
                out=out,
            )
        )
    return tuple(rows)


def _dice(view: View, bar: int, events: Sequence[Event], names: Sequence[str]) -> tuple[tuple[Die, ...], str]:
    croupier = next((e for e in reversed(events) if isinstance(e, RoundStarted)), None)
    tens, units = croupier.dice if croupier is not None else view.bar_dice
    shown = (Die(tens, 10, "held", f"{tens:02d}"), Die(units, 10, "held", str(units)))
    last = last_throw(events)
    if last is None:
        return shown, _("Bar {bar}: to win, throw more").format(bar=bar)
    mark = "win" if last.value > bar else "lose"
    a, b = last.dice
    said = (
        _("Bar {bar}  {player} rolls off {value}")
        if isinstance(last, RolledOff)
        else _("Bar {bar}  {player} throws {value}")
    )
    return shown + (Die(a, 10, mark, f"{a:02d}"), Die(b, 10, mark, str(b))), (
        said.format(bar=bar, player=names[last.seat], value=last.value)
    )


def last_throw(events: Sequence[Event]) -> Thrown | RolledOff | None:
    """The latest throw (or roll-off) of the round ``events`` end in."""
    for e in reversed(events):
        if isinstance(e, RoundStarted):
            return None
        if isinstance(e, (Thrown, RolledOff)):
            return e
    return None


def _stake(view: View, seats: Seats, odds: bool) -> StakeOffer | None:
    """The bet bar, for a seat played here whose bet it is."""
    seat = view.to_act
    if view.stage != "bet" or seat is None or seat not in seats.here:
        return None
    r = stake_limits(view, seat)
    if odds:
        rivals = sum(1 for i, bet in enumerate(view.bets) if bet and i != seat)
        win = win_chance(view.bar, rivals)
        against = (
            _("the table {chance:.1%} vs {rivals} in").format(chance=win, rivals=rivals)
            if rivals
            else _("nobody in yet")
        )
        note = _("beat {bar}: {chance:.1%}, {against}").format(
            bar=view.bar, chance=beat_chance(view.bar), against=against
        )
    else:
        note = _("o shows the odds")
    return StakeOffer(seat, r.start, r.stop - 1, note)


def _prompt(view: View, seats: Seats, ascii_only: bool) -> str | Text:
    seat = view.to_act
    if seat is None:
        return _("The table is closed.")
    name = seats.names[seat]
    gl = glyphs(ascii_only)
    if seat not in seats.here:
        doing = _("{player} is deciding") if view.stage == "bet" else _("{player} is rolling")
        return doing.format(player=name) + gl["ellipsis"]
    if view.stage == "bet":
        return styled(
            _("[b]$name[/b]: bet ({arrows}, Enter) or s to sit out.").format(arrows=gl["arrows"]), name=name
        )
    if view.stage == "rolloff":
        return styled(_("[b]$name[/b]: tied for the highest. Space rolls off."), name=name)
    return styled(_("[b]$name[/b], your throw: press Space."), name=name)


def keys(legal: Sequence[Action], my_move: bool) -> frozenset[str]:
    """The game's keys that work now, on the move of a seat played here
    (``my_move``), as the legal moves allow: betting (←/→, Enter), sitting
    out and the odds while bets are decided, Space to throw. Cashing out
    (closing the table) is the screen's call: any seat may, at any time."""
    if not my_move:
        return frozenset()
    kinds = {a.kind for a in legal}
    out = set()
    if "sit" in kinds:
        out |= {"bet", "sit", "stake_by", "odds"}
    if "roll" in kinds:
        out.add("roll")
    return frozenset(out)


# ---------------------------------------------------------------- results

_HEADLINES = {
    "fee": N_("Nobody bets: the table fee"),
    "house": N_("Nobody beats the bar: the house keeps the bets"),
    "solo": N_("$winner beats the bar alone"),
    "table": N_("$winner takes the table"),
}


def round_sheet(r: RoundResult, names: Sequence[str], *, ascii_only: bool) -> tuple[str, Text]:
    """A round's result box: its title and its lines, one a player in it."""
    gl = glyphs(ascii_only)
    body = Text()
    winner = names[r.winner] if r.winner is not None else ""
    body.append(_(_HEADLINES[r.kind]).replace("$winner", winner) + "\n", "bold")
    body.append(_("The bar: {bar}").format(bar=r.bar) + "\n\n")
    # "sat out" as wide as a bet's words, so the nets line up.
    sat, wide = _("sat out"), len(_("bet {bet:<3} threw {throw:<4}").format(bet=0, throw=0)) + 1
    for i, name in enumerate(names):
        if not r.bets[i] and not r.delta[i]:
            continue
        throw = r.throws[i]
        star = gl["lead"] if i == r.winner else " "
        shown = (
            _("bet {bet:<3} threw {throw:<4}").format(bet=r.bets[i], throw=throw)
            if throw is not None
            else sat.ljust(wide)
        )
        body.append(f" {star} {pad(name, 10)} {shown} {r.delta[i]:+d}\n")
    if r.rolloffs:
        body.append(
            "   "
            + _("Roll-off:")
            + " "
            + _(", then ").join(" / ".join(str(v) for v in p) for p in r.rolloffs)
            + "\n"
        )
    if r.house:
        said = _("The house wins {chips}.") if r.house > 0 else _("The house pays {chips}.")
        body.append("\n" + said.format(chips=abs(r.house)))
    else:
        body.append("\n" + _("The bets change hands between the players."))
    return _("Round {number}").format(number=r.number), body


def session_sheet(res: Result, names: Sequence[str], *, ascii_only: bool) -> Text:
    """The session's end above its chart: how it closed, each player's chips
    and net, the house's."""
    gl = glyphs(ascii_only)
    body = Text()
    if res.closed:
        closes = ngettext(
            "The table closes after {count} round (cashed out).",
            "The table closes after {count} rounds (cashed out).",
            res.rounds,
        )
    else:
        closes = ngettext(
            "The table closes after {count} round (out of players with chips).",
            "The table closes after {count} rounds (out of players with chips).",
            res.rounds,
        )
    body.append(closes.format(count=res.rounds) + "\n\n", "bold")
    # The headings translated outside the f-string, where extraction finds them.
    h_player, h_chips, h_net, house = _("Player"), _("Chips"), _("Net"), _("The house")
    body.append(f"   {h_player:<12} {h_chips:>6} {h_net:>6}\n", "dim")
    for i in sorted(range(len(names)), key=lambda i: (-res.chips[i], i)):
        star = gl["lead"] if i == res.winner and res.net[i] > 0 else " "
        body.append(f" {star} {pad(names[i], 12)} {res.chips[i]:>6} {res.net[i]:>+6}\n")
    body.append(f"   {house:<12} {'':>6} {res.house:>+6}\n\n")
    return body
