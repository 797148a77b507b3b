"""What the Gemelos table shows, from one seat's view: plain Python, no
Textual. The screen (``tui/screens/gemelos.py``) binds it to its widgets.

``table`` gives everything the table binds at one moment (heading, seat
rows, dice, caption, prompt, the stake on offer and the story so far);
``keys`` which of the game's keys work now, from the legal moves;
``round_sheet`` and ``match_sheet`` the round's result and the match's end,
from the core's own records of them (``RoundResult``, ``Result``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from garito.core.gemelos import (
    Action,
    Event,
    Result,
    RoundResult,
    RoundStarted,
    Staked,
    Throw,
    View,
    describe,
    stake_limits,
)
from garito.core.gemelos.odds import seat_chances
from garito.core.i18n import _, ngettext, pgettext
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
    """The stake bar for the seat to stake: its limits and a note of its odds."""

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
    stake: StakeOffer | None  # None: the stake bar is hidden
    events: tuple[Event, ...]  # the story as far as the table shows it


def pips(wins: int, needed: int, ascii_only: bool) -> str:
    """Round wins against the target: ●●○."""
    gl = glyphs(ascii_only)
    return gl["win"] * wins + gl["slot"] * (needed - wins)


def table(view: View, seats: Seats, *, ascii_only: bool, ended: bool = False, upto: int = 0) -> Table:
    """The table as ``view``'s seat sees it. While a round's result is on
    screen (``ended``) it shows that round as it ended: the story up to
    ``upto`` (the next round's first event), the winner's row marked."""
    cfg = view.config
    names = seats.names
    gl = glyphs(ascii_only)
    staked = cfg.stakes != "off"
    last_round = view.history[-1] if ended and view.history else None
    events = view.events[:upto] if last_round else view.events

    stage = f" {gl['dash']} " + _("roll-off") if view.rolloff and not last_round else ""
    pot = last_round.pot if last_round else view.pot
    heading = (
        f"Gemelos {gl['dash']} "
        + _("round {number}").format(number=last_round.number if last_round else view.round)
        + f"{stage} {gl['dash']} "
        + _("first to {count} wins").format(count=cfg.wins_needed)
        + (f" {gl['dash']} " + _("pot {chips}").format(chips=pot) if staked else "")
    )

    roll = pgettext("column", "Roll")  # the hand rolled, not the key that rolls
    columns = (_("Wins"), roll, _("Chips"), _("Stake")) if staked else (_("Wins"), roll)
    throws = last_round.throws if last_round else view.round_throws
    hands = {t.seat: t.dice for t in throws}  # a roll-off overwrites
    stakes = stakes_of(events, len(names)) if last_round else view.stakes
    leaders = (last_round.winner,) if last_round else view.leaders
    rows = []
    for i, name in enumerate(names):
        hand = hands.get(i)
        roll = (_short(hand) if hand else gl["pending"]).replace(" = ", "=")
        cells = [pips(view.wins[i], cfg.wins_needed, ascii_only), roll]
        if staked:
            stake = stakes[i]
            cells += [str(view.chips[i]), gl["pending"] if stake is None else str(stake)]
        rows.append(
            SeatRow(
                name,
                tuple(cells),
                turn=i == view.to_act and not view.over and not last_round,
                lead=i in leaders,
                computer=seats.computer[i],
            )
        )

    last = throws[-1] if throws else None
    if last_round and last is not None:
        mark = "win" if last.seat == last_round.winner else "lose"
        dice = (Die(last.dice[0], 8, mark), Die(last.dice[1], 8, mark))
        caption = f"{names[last.seat]}: {describe(last.dice)}"
    elif last is not None:
        mark = "win" if last.seat in view.leaders else "lose"
        dice = (Die(last.dice[0], 8, mark), Die(last.dice[1], 8, mark))
        caption = _caption(view, last, names)
    elif view.history:
        # Until the new round's first roll, the dice that decided the last
        # round stay on the table.
        won = view.history[-1]
        final = won.winning_throw
        dice = (Die(final.dice[0], 8, "win"), Die(final.dice[1], 8, "win"))
        caption = _("Round {number}: {player} won with {hand}").format(
            number=won.number, player=names[won.winner], hand=describe(final.dice)
        )
    else:
        dice = (Die(0, 8, "dim"), Die(0, 8, "dim"))
        caption = _("Round {number}: {player} rolls first").format(
            number=view.round, player=names[view.first]
        )

    if last_round:
        stake_offer = None
        prompt: str | Text = _("Round {number}: {player} wins.").format(
            number=last_round.number, player=names[last_round.winner]
        )
    else:
        stake_offer = _stake(view, seats)
        prompt = _prompt(view, seats, ascii_only)
    return Table(heading, columns, tuple(rows), dice, caption, prompt, stake_offer, events)


def _short(hand: tuple[int, int]) -> str:
    """A hand in the table's narrow column (twins said in fewer letters
    where the language needs more)."""
    if hand[0] == hand[1]:
        return pgettext("table", "twins of {face}").format(face=hand[0])
    return describe(hand)


def stakes_of(events: Sequence[Event], seats: int) -> list[int | None]:
    """Each seat's stake in the last round of ``events``."""
    start = max((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), default=0)
    stakes: list[int | None] = [None] * seats
    for e in events[start:]:
        if isinstance(e, Staked):
            stakes[e.seat] = e.amount
    return stakes


def _caption(view: View, last: Throw, names: Sequence[str]) -> str:
    name = names[last.seat]
    hand = describe(last.dice)
    if last.seat in view.leaders and len(view.leaders) == 1:
        return _("{player}: {hand}, leading").format(player=name, hand=hand)
    if last.seat in view.leaders:
        return _("{player}: {hand}, tied for the lead").format(player=name, hand=hand)
    return f"{name}: {hand}"


def _stake(view: View, seats: Seats) -> StakeOffer | None:
    """The stake bar, for a seat played here whose stake it is."""
    seat = view.to_act
    if view.phase != "stake" or seat is None or seat not in seats.here:
        return None
    limits = stake_limits(view, seat)
    win, lose, void = seat_chances(view, seat)
    tie = " " + _("void {chance:.1%}").format(chance=void) if void else ""
    note = (
        _("chips {chips}  win {win:.1%} lose {lose:.1%}").format(chips=view.chips[seat], win=win, lose=lose)
        + tie
    )
    return StakeOffer(seat, limits.start, limits.stop - 1, note)


def _prompt(view: View, seats: Seats, ascii_only: bool) -> str | Text:
    seat = view.to_act
    if seat is None:
        return _("The match is over.")
    name = seats.names[seat]
    if seat not in seats.here:
        doing = _("{player} is staking") if view.phase == "stake" else _("{player} is rolling")
        return doing.format(player=name) + ("..." if ascii_only else "…")
    if view.phase == "stake":
        arrows = glyphs(ascii_only)["arrows"]
        return styled(
            _("[b]$name[/b]: your stake ({arrows} to change, Enter).").replace("{arrows}", arrows), name=name
        )
    if view.rolloff:
        return styled(_("[b]$name[/b], your roll-off: press Space."), name=name)
    return styled(_("[b]$name[/b], your roll: press Space."), name=name)


def keys(legal: Sequence[Action], my_move: bool) -> frozenset[str]:
    """The game's keys that work now: Space rolls, ←/→ and Enter stake, on
    the move of a seat played here (``my_move``), as the legal moves allow."""
    if not my_move:
        return frozenset()
    kinds = {a.kind for a in legal}
    out = set()
    if "roll" in kinds:
        out.add("roll")
    if "stake" in kinds:
        out |= {"stake", "stake_by"}
    return frozenset(out)


def round_sheet(
    r: RoundResult, wins: Sequence[int], names: Sequence[str], *, needed: int, ascii_only: bool
) -> tuple[str, Text]:
    """A round's result box: its title and its lines, one line a throw and
    each seat's wins after its last throw (six seats fit the box at 80×24)."""
    gl = glyphs(ascii_only)
    body = Text()
    body.append(_("{player} wins the round").format(player=names[r.winner]) + "\n", "bold")
    reason = str(r.reason)
    body.append(reason[0].upper() + reason[1:] + ".\n\n")
    last = {t.seat: k for k, t in enumerate(r.throws)}
    for k, t in enumerate(r.throws):
        star = gl["lead"] if t is r.winning_throw else " "
        won = pips(wins[t.seat], needed, ascii_only) if last[t.seat] == k else ""
        body.append(f" {star} {pad(names[t.seat], 12)} {describe(t.dice):<14} {won}".rstrip() + "\n")
    if r.pot:
        body.append(
            "\n"
            + _("Pot {pot}: {player} takes {chips}").format(
                pot=r.pot, player=names[r.winner], chips=r.payout[r.winner]
            )
        )
        back = [f"{names[i]} {p}" for i, p in enumerate(r.payout) if p and i != r.winner]
        if back:
            body.append(" " + _("(back to {players})").format(players=", ".join(back)))
    body.rstrip()
    return _("Round {number}").format(number=r.number), body


def match_sheet(
    res: Result,
    history: Sequence[RoundResult],
    names: Sequence[str],
    *,
    staked: bool,
    seed: int,
    ascii_only: bool,
) -> Text:
    """The match's end: the winner, each seat's wins (and chips), the rounds."""
    gl = glyphs(ascii_only)
    body = Text()
    body.append(_("{player} wins the match").format(player=names[res.winner]), "bold")
    rounds = ngettext(" in {count} round", " in {count} rounds", res.rounds).format(count=res.rounds)
    voids = (
        " " + ngettext("({count} void)", "({count} void)", res.voids).format(count=res.voids)
        if res.voids
        else ""
    )
    body.append(rounds + voids + ".\n\n")
    order = sorted(range(len(names)), key=lambda i: (-res.wins[i], -res.chips[i], i))
    seat, wins, chips, net = (
        _("Seat"),
        _("Wins"),
        _("Chips"),
        _("Net"),
    )  # (f-strings hide texts from extraction)
    head = f"   {seat:<12} {wins:<5}" + (f"  {chips:>5}  {net:>6}" if staked else "")
    body.append(head + "\n", "dim")
    for i in order:
        star = gl["lead"] if i == res.winner else " "
        line = f" {star} {pad(names[i], 12)} {res.wins[i]:<5}"
        if staked:
            line += f"  {res.chips[i]:>5}  {res.net[i]:>+6}"
        body.append(line + "\n")
    body.append("\n" + _("Rounds:") + " ", "dim")
    body.append("  ".join(f"{r.number}:{names[r.winner]}" for r in history))
    body.append("\n" + _("Seed {seed}").format(seed=seed), "dim")
    return body
