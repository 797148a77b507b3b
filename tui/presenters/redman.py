"""What the Red Man's Throw table shows: plain Python, no Textual. The
screen (``tui/screens/redman.py``) binds it to its widgets.

``table`` gives everything the table binds at one moment (heading, seat
rows, the ledger of rounds, dice, caption, prompt, the call line, the stake
on offer and the story); ``keys`` which of the game's keys work now, from
the legal moves; ``next_call`` and ``type_die`` move the call picker;
``round_sheet``, ``match_sheet`` and ``moment`` the round's result, the
match's end and the Red Man's words, from the core's own records of them.
Nothing is hidden in this game: both seats see the same table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from garito.core.i18n import N_, _, ngettext, pgettext
from garito.core.redman import (
    PREDICTIONS,
    ROUNDS,
    SALVATION,
    Action,
    Config,
    Event,
    Result,
    RoundResult,
    View,
    describe,
    is_prediction,
    ledger_net,
    next_match,
    prediction_chance,
    prediction_label,
    show,
    taken,
)
from garito.core.redman.odds import later_red_men, prediction_edge, round_chances
from garito.widgets.glyphs import glyphs
from garito.widgets.text import pad, styled
from garito.widgets.values import Die, SeatRow

CALLS: tuple[str, ...] = ("", *PREDICTIONS)
"""The call picker's choices in order; "" is no call."""


@dataclass(frozen=True)
class Seats:
    """Who sits at the table, as the table shows them."""

    names: tuple[str, ...]
    computer: tuple[bool, ...]  # played by a computer (marked on its row)
    here: frozenset[int]  # played from this keyboard


@dataclass(frozen=True)
class StakeOffer:
    """The stake bar for the seat to stake: its limits and a note."""

    seat: int
    low: int
    high: int
    note: str


@dataclass(frozen=True)
class Table:
    heading: str
    columns: tuple[str, ...]
    rows: tuple[SeatRow, ...]
    ledger_columns: tuple[str, ...]
    ledger_rows: tuple[SeatRow, ...]
    dice: tuple[Die, ...]
    caption: str
    prompt: str | Text
    call: str | Text  # the call line ("" when no call is being made here)
    stake: StakeOffer | None  # None: the stake bar is hidden
    events: tuple[Event, ...]


def caller(view: View, seats: Seats) -> int | None:
    """The seat played here about to roll its hand (and call it), if any."""
    seat = view.to_act
    if view.stage != "roll" or seat is None or seat not in seats.here:
        return None
    return seat


def table(
    view: View, seats: Seats, *, ascii_only: bool, call: str = "", typed: str = "", upto: int | None = None
) -> Table:
    """The table as it stands; ``call`` is the call picked so far (with
    predictions on) and ``typed`` the exact dice being typed. While a
    round's result is on screen (``upto``: the next round's first event)
    it shows that round as it ended: its number, stake and hands, the
    story up to its end, nobody to act."""
    cfg = view.config
    dash = glyphs(ascii_only)["dash"]
    staked = cfg.bets != "off"
    ended = view.ledger[-1] if upto is not None and view.ledger else None
    number, stake = (ended.number, ended.stake) if ended else (view.round, view.stake)
    if number == SALVATION:
        stage = _("round 7, the Salvation")
    else:
        stage = _("round {number} of {rounds}").format(number=number, rounds=ROUNDS)
    bet = f" {dash} " + _("stake {chips}").format(chips=stake) if stake else ""
    calls = f" {dash} " + _("predictions") if cfg.bets == "predictions" else ""
    heading = f"Red Man's Throw {dash} {stage}{bet}{calls}"
    columns = (_("Won"), _("Hand"), _("Chips"), _("Ledger")) if staked else (_("Won"), _("Hand"))
    names = seats.names
    # A hand's column is 7 wide ("6-6-3★ "); a longer name widens it up to
    # 9, which the panel holds twice beside Won: "Player 1" and "Player 2"
    # cut to 7 read the same.
    ledger_columns = tuple(set_cell_size(name, min(9, max(7, cell_len(name)))) for name in names[:2]) + (
        (_("Won"),) if staked else ()
    )
    dice, caption = _dice(view, names)
    if ended:
        prompt: str | Text = _("Round {number}: {player} wins.").format(
            number=ended.number, player=names[ended.winner]
        )
        call_line: str | Text = ""
        stake_offer = None
        events = view.events[:upto]
    else:
        prompt = _prompt(view, seats, ascii_only)
        call_line = _call_line(view, seats, call, typed, ascii_only)
        stake_offer = _stake(view, seats, ascii_only)
        events = view.events
    return Table(
        heading,
        columns,
        _rows(view, seats, staked, ascii_only, ended),
        ledger_columns,
        _ledger(view, staked, ascii_only, ended),
        dice,
        caption,
        prompt,
        call_line,
        stake_offer,
        events,
    )


def _rows(
    view: View, seats: Seats, staked: bool, ascii_only: bool, ended: RoundResult | None = None
) -> tuple[SeatRow, ...]:
    """A row a seat; ``ended``: a round that ended, its hands shown while
    its result is up (nobody is then to act)."""
    pending = glyphs(ascii_only)["pending"]
    leader = 0 if view.wins[0] > view.wins[1] else 1 if view.wins[1] > view.wins[0] else None
    rows = []
    for i, name in enumerate(seats.names):
        hand = view.hands[i] if ended is None else ended.hands[i]
        cells = [str(view.wins[i]), f"{show(hand) if hand else pending:<5}"]
        if staked and view.over:  # settled: the ledger is paid into the chips
            cells += [str(view.chips[i] + view.net[i]), _("paid")]
        elif staked:
            cells += [str(view.chips[i]), f"{view.net[i]:+d}" if view.net[i] else "0"]
        rows.append(
            SeatRow(
                name,
                tuple(cells),
                turn=i == view.to_act and view.stage != "hat" and ended is None,
                lead=i == leader or i == view.red_man,
                computer=seats.computer[i],
            )
        )
    return tuple(rows)


def _ledger(
    view: View, staked: bool, ascii_only: bool, ended: RoundResult | None = None
) -> tuple[SeatRow, ...]:
    """A row a round, 1 to 6 and the Salvation; cells padded to their widest
    so the columns never shift as hands come. ``ended``: a round that ended,
    its result up, and the round to come not marked yet."""
    pending = glyphs(ascii_only)["pending"]
    done = {r.number: r for r in view.ledger}
    rows = []
    for n in range(1, SALVATION + 1):
        label = pgettext("the Salvation's round", "S") if n == SALVATION else str(n)
        r = done.get(n)
        if r is not None:
            cells = [ledger_hand(r, i, ascii_only) for i in (0, 1)]
            if staked:
                # Every round is the Red Man's once he came: each shows what
                # he takes from it.
                won = taken(r, view.red_man, view.config.edition)
                cells.append((f"{won:+d}" if won else "0") if r.stake else pending)
            rows.append(SeatRow(label, tuple(cells), lead=r.red_man))
        elif n == view.round and not view.over and ended is None:
            cells = [f"{show(h) if h else pending:<7}" for h in view.hands]
            rows.append(SeatRow(label, tuple(cells), turn=True))
        else:
            rows.append(SeatRow(label, (pending, pending), out=True))
    return tuple(rows)


def ledger_hand(r: RoundResult, seat: int, ascii_only: bool) -> str:
    """ "6-6-4*": the hand, a star for the round's winner, ✓/✗ for a call."""
    gl = glyphs(ascii_only)
    if r.salvation:
        text = str(r.rolloffs[-1][seat])
    else:
        hand = r.hands[seat]
        text = show(hand) if hand else gl["pending"]
    if seat == r.winner:
        text += gl["lead"]
    fate = r.right[seat]
    if fate is not None:
        text += gl["hit"] if fate else gl["miss"]
    return f"{text:<7}"


def _dice(view: View, names: Sequence[str]) -> tuple[tuple[Die, ...], str]:
    if view.red_man is not None:
        return tuple(Die(6, 6, "hot") for _ in range(3)), _("6-6-6: {player} is the Red Man").format(
            player=names[view.red_man]
        )
    if view.stage in ("rolloff", "salvation") and view.rolloffs:
        a, b = view.rolloffs[-1]
        return (Die(a, 6, "held"), Die(b, 6, "held")), _("{first} {a}, {second} {b}: tied, again").format(
            first=names[0], a=a, second=names[1], b=b
        )
    rolled = [(i, h) for i in (view.first, 1 - view.first) if (h := view.hands[i]) is not None]
    if rolled and not view.over:
        seat, hand = rolled[-1]
        dice = tuple(Die(v, 6) for v in hand)
        if len(rolled) == 2:
            return dice, _("Both {hand}: a roll-off").format(hand=show(hand))
        return dice, f"{names[seat]}: {describe(hand)}"
    if view.ledger:
        r = view.ledger[-1]
        if r.rolloffs:
            a, b = r.rolloffs[-1]
            said = (
                _("{player} won the Salvation, {high}-{low}")
                if r.salvation
                else _("{player} won round {number}'s roll-off, {high}-{low}")
            )
            return (
                Die(a, 6, "win" if r.winner == 0 else "lose"),
                Die(b, 6, "win" if r.winner else "lose"),
            ), said.format(player=names[r.winner], number=r.number, high=max(a, b), low=min(a, b))
        won = r.hands[r.winner]
        assert won is not None  # a round won without a roll-off was won by a hand
        return tuple(Die(v, 6, "win") for v in won), _("Round {number}: {player}, {hand}").format(
            number=r.number, player=names[r.winner], hand=describe(won)
        )
    return tuple(Die(0, 6, "dim") for _ in range(3)), _("Round {number}: {player} rolls first").format(
        number=view.round, player=names[view.first]
    )


def _stake(view: View, seats: Seats, ascii_only: bool) -> StakeOffer | None:
    """The stake bar, for a seat played here that proposes or answers."""
    seat = view.to_act
    if view.stage not in ("stake", "answer") or seat is None or seat not in seats.here or view.limits is None:
        return None
    r = view.limits
    if view.stage == "answer":
        dash = glyphs(ascii_only)["dash"]
        note = _("{amount} matches, more raises once {dash} chips {chips}").format(
            amount=view.proposal, dash=dash, chips=view.chips[seat]
        )
        return StakeOffer(seat, view.proposal, r.stop - 1, note)
    note = (
        _("chips {chips}, ledger {net:+d}")
        .format(chips=view.chips[seat], net=view.net[seat])
        .replace("+0", "0")
    )
    return StakeOffer(seat, r.start, r.stop - 1, note)


def _call_line(view: View, seats: Seats, call: str, typed: str, ascii_only: bool) -> str | Text:
    seat = caller(view, seats)
    if seat is None:
        return ""
    rival = view.hands[1 - seat]
    win, lose = round_chances(rival=rival)
    if view.config.bets != "predictions":
        return styled("[dim]" + _("win {win:.1%} lose {lose:.1%}").format(win=win, lose=lose) + "[/dim]")
    gl = glyphs(ascii_only)
    if typed:
        label = _("exactly {hand}").format(hand="-".join(typed)) + gl["ellipsis"]
        more = 3 - len(typed)
        detail = ngettext("type {count} more die", "type {count} more dice", more).format(count=more)
    else:
        label = prediction_label(call) if call else _("no call")
        # Each choice the same way, so they compare: the chance of what it
        # pays on (the call coming; with no call, winning the round) and
        # what the round is worth with it, in stakes.
        later = later_red_men(view.config, view.wins, view.round, seat)
        edge = prediction_edge(call, rival, later) if call else 0.0
        worth = _("worth {value:+.2f} stake").format(value=win - lose + edge)
        if call:
            detail = _("comes {chance:.1%}, {worth}").format(chance=prediction_chance(call), worth=worth)
        else:
            detail = _("win {chance:.1%}, {worth}").format(chance=win, worth=worth)
    line = _("Call") + f" [b]{gl['left']} $label {gl['right']}[/b]"
    return styled(f"{line}\n[dim]$detail[/dim]", label=label, detail=detail)


_WAITING = {
    "stake": N_("{player} is proposing a stake"),
    "answer": N_("{player} is answering"),
    "hat": N_("{player} is answering the Red Man"),
}


def _prompt(view: View, seats: Seats, ascii_only: bool) -> str | Text:
    names = seats.names
    seat = view.to_act
    if seat is None:
        return _("The match is over.")
    name = names[seat]
    gl = glyphs(ascii_only)
    if seat not in seats.here:
        return _(_WAITING.get(view.stage, N_("{player} is rolling"))).format(player=name) + gl["ellipsis"]
    arrows = gl["arrows"]
    if view.stage == "stake":
        return styled(
            _("[b]$name[/b]: propose the stake ({arrows}, Enter).").format(arrows=arrows), name=name
        )
    if view.stage == "answer":
        return styled(
            _("[b]$name[/b]: $rival proposes {amount}. Enter to match; {arrows} to raise.").format(
                amount=view.proposal, arrows=arrows
            ),
            name=name,
            rival=names[1 - seat],
        )
    if view.stage == "rolloff":
        return styled(_("[b]$name[/b]: equal hands. Space rolls off, one die each."), name=name)
    if view.stage == "salvation":
        return styled(_("[b]$name[/b]: the Salvation. Space rolls one die each."), name=name)
    if view.stage == "hat":
        return styled(_("[b]$name[/b]: the Red Man waits. Press t: “I tip my hat.”"), name=name)
    rival = view.hands[1 - seat]
    beat = " " + _("to beat {hand}").format(hand=show(rival)) if rival else ""
    if view.config.bets == "predictions":
        return styled(
            _("[b]$name[/b], your roll$beat: call it ({arrows}, or type dice), Space.").format(arrows=arrows),
            name=name,
            beat=beat,
        )
    return styled(_("[b]$name[/b] rolls$beat (Space)."), name=name, beat=beat)


# ---------------------------------------------------------------- keys


def keys(legal: Sequence[Action], my_move: bool) -> frozenset[str]:
    """The game's keys that work now, on the move of a seat played here
    (``my_move``), as the legal moves allow: Space rolls, ←/→ and Enter
    stake, t tips the hat, and with a call to make ←/→, digits and
    Backspace pick it."""
    if not my_move:
        return frozenset()
    out = set()
    for a in legal:
        if a.kind == "stake":
            out |= {"stake", "stake_by"}
        elif a.kind == "tip":
            out.add("tip")
        elif a.prediction:
            out |= {"roll", "call_by", "digit", "call_none"}
        else:
            out.add("roll")
    return frozenset(out)


def next_call(call: str, delta: int) -> str:
    """The call ``delta`` places on in the picker (it wraps round)."""
    return CALLS[(CALLS.index(call) + delta) % len(CALLS)]


@dataclass(frozen=True)
class Typing:
    """Exact dice being typed: the digits so far, the call they make once
    three are in (None before, or when refused) and the refusal's words."""

    typed: str
    call: str | None = None
    refused: str = ""


def type_die(typed: str, face: int) -> Typing:
    """One more die typed; the third makes the call (highest first)."""
    typed = (typed if len(typed) < 3 else "") + str(face)
    if len(typed) < 3:
        return Typing(typed)
    text = "-".join(sorted(typed, reverse=True))
    if not is_prediction(text):  # 6-6-6 is the only exact hand that is not
        return Typing("", refused=_("6-6-6 cannot be called: the Red Man voids every call."))
    return Typing("", text)


# ---------------------------------------------------------------- results


def round_sheet(
    r: RoundResult, wins: Sequence[int], names: Sequence[str], *, ascii_only: bool
) -> tuple[str, Text]:
    """A round's result box: its title and its lines."""
    gl = glyphs(ascii_only)
    body = Text()
    won = _("{player} wins the Salvation") if r.salvation else _("{player} wins the round")
    body.append(won.format(player=names[r.winner]) + "\n", "bold")
    reason = str(r.reason)
    body.append(reason[0].upper() + reason[1:] + ".\n\n")
    for i in (0, 1):
        star = gl["lead"] if i == r.winner else " "
        if r.salvation:
            shown = _("throws {face}").format(face=r.rolloffs[-1][i])
        else:
            held = r.hands[i]
            shown = f"{show(held)}  {describe(held)}" if held else ""
        body.append(f" {star} {pad(names[i], 10)} {shown}\n")
    for i, (call, fate) in enumerate(zip(r.predictions, r.right)):
        if call:
            said = _("{player} called {call}: right.") if fate else _("{player} called {call}: wrong.")
            body.append("   " + said.format(player=names[i], call=prediction_label(call)) + "\n")
    if r.stake:
        gain = r.net[r.winner]
        if gain:
            body.append(
                "\n"
                + _("Stake {stake}: {player} {gain:+d} on the ledger.").format(
                    stake=r.stake, player=names[r.winner], gain=gain
                )
                + "\n"
            )
        else:
            body.append(
                "\n" + _("Stake {stake}: a push, no chips change hands.").format(stake=r.stake) + "\n"
            )
    body.append(f"\n   {names[0]} {wins[0]}{gl['range']}{wins[1]} {names[1]}")
    return (_("Salvation") if r.salvation else _("Round {number}").format(number=r.number)), body


def match_sheet(
    res: Result,
    ledger: Sequence[RoundResult],
    names: Sequence[str],
    config: Config,
    *,
    seed: int,
    ascii_only: bool,
) -> tuple[Text, str]:
    """The match's end, and the keys line offering the rematch the session
    plays next (``next_match``: chips carried, the other seat first)."""
    gl = glyphs(ascii_only)
    staked = config.bets != "off"
    body = Text()
    w = names[res.winner]
    score = f"{max(res.wins)}{gl['range']}{min(res.wins)}"
    if res.red_man:
        body.append(_("{player} is the Red Man: every round and every pot.").format(player=w) + "\n", "bold")
    elif res.salvation:
        body.append(
            _("{player} wins at the Salvation, {score}.").format(player=w, score=score) + "\n", "bold"
        )
    else:
        body.append(_("{player} wins the match {score}.").format(player=w, score=score) + "\n", "bold")
    body.append("\n")
    # The headings translated outside the f-string, where extraction finds them.
    h_seat, h_rounds = _("Seat"), _("Rounds")
    h_before, h_after, h_net = _("Before"), _("After"), _("Net")
    head = f"   {h_seat:<12} {h_rounds:<7}" + (f"  {h_before:>6}  {h_after:>5}  {h_net:>6}" if staked else "")
    body.append(head + "\n", "dim")
    start = config.start_chips
    for i in (0, 1):
        star = gl["lead"] if i == res.winner else " "
        line = f" {star} {pad(names[i], 12)} {res.wins[i]:<7}"
        if staked:
            line += f"  {start[i]:>6}  {res.chips[i]:>5}  {res.net[i]:>+6}"
        body.append(line + "\n")
    body.append("\n" + _("Rounds:") + " ", "dim")
    salvation = pgettext("the Salvation's round", "S")
    body.append("  ".join(f"{salvation if r.salvation else r.number}:{names[r.winner]}" for r in ledger))
    body.append("\n" + _("Seed {seed}").format(seed=seed), "dim")
    nxt = next_match(config, res)
    if nxt.chips:
        keys = _("n: rematch (chips carried, {player} first)    Enter: menu")
    elif staked:
        keys = _("n: rematch (fresh bankrolls, {player} first)    Enter: menu")
    else:
        keys = _("n: rematch (same rules, {player} first)    Enter: menu")
    return body, keys.format(player=names[nxt.first])


def moment(view: View, names: Sequence[str], *, ask: bool) -> Text:
    """The Red Man's words under his dice, and the loser's answer: asked of
    a loser at the keyboard, said for a computer."""
    red_man = view.red_man
    assert red_man is not None  # the moment follows a 6-6-6
    red, loser = names[red_man], names[1 - red_man]
    body = Text()
    body.append("\n" + _("{player}: “Looks like I'm the Red Man.”").format(player=red) + "\n", "bold")
    if view.config.bets != "off":
        # Every chip the rival put in, nothing of his own lost.
        took = view.net[red_man]
        before = view.ledger[:-1]
        ledger = ledger_net(before, None)[red_man]  # as it stood before the 6-6-6
        body.append(
            _("Every chip {loser} put in is {winner}'s: {took:+d}").format(loser=loser, winner=red, took=took)
        )
        body.append(" " + _("(the ledger stood at {net:+d})").format(net=ledger) if before else "")
        body.append(".\n")
    if ask:
        body.append("\n" + _("{player}, your answer: press t.").format(player=loser))
    else:
        body.append(_("{player}: “I tip my hat.”").format(player=loser))
    return body
