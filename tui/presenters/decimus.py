"""What the Decimus table shows, from one seat's view: plain Python, no
Textual. The screen (``tui/screens/decimus.py``) binds it to its widgets.

``table`` gives everything the table binds at one moment (heading, the
dice with the caption under them, the games and the players, the prompt
and the bet on offer); ``keys`` which of the game's keys work now, from the
legal moves; ``stake_note`` what a bet would make the seat's total;
``showdown_sheet`` and ``match_sheet`` the showdown's box and the match's
end, from the core's events and ``Result``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from garito.core.decimus import (
    GAMES,
    MAX_RAISE,
    PASS,
    STAND,
    TITLES,
    Action,
    BetPlaced,
    BettingOpened,
    Event,
    Folded,
    Passed,
    Pending,
    PointAlone,
    Rerolled,
    Result,
    RoundStarted,
    Settled,
    Showdown,
    Unscored,
    View,
    describe,
    hand_dice,
    narrate,
    rerolls_left,
    round_events,
)
from garito.core.decimus.bot import game_equity
from garito.core.i18n import _, ngettext, pgettext
from garito.widgets.glyphs import glyphs
from garito.widgets.text import styled
from garito.widgets.values import Die, SeatRow


@dataclass(frozen=True)
class Seats:
    """Who sits at the table, as the table shows them."""

    names: tuple[str, ...]
    computer: tuple[bool, ...]  # played by a computer (marked on its row)
    here: frozenset[int]  # played from this keyboard


@dataclass(frozen=True)
class StakeOffer:
    """The bet bar for the seat to speak: its label and limits."""

    seat: int
    label: str  # "Bet" while nobody has bet, then "Raise by"
    low: int
    high: int


@dataclass(frozen=True)
class Table:
    heading: str
    dice: tuple[Die, ...]
    caption: str
    game_columns: tuple[str, ...]
    game_rows: tuple[SeatRow, ...]
    seat_columns: tuple[str, ...]
    seat_rows: tuple[SeatRow, ...]
    prompt: str | Text
    stake: StakeOffer | None  # None: the bet bar is hidden
    events: tuple[Event, ...]  # the story as far as the table shows it


def table(
    view: View,
    seats: Seats,
    *,
    ascii_only: bool,
    picked: frozenset[int] = frozenset(),
    my_move: bool = False,
    showdown: int | None = None,
) -> Table:
    """The table as ``view``'s seat sees it: ``picked`` the dice chosen to
    reroll, ``my_move`` whether the viewer is to act from this keyboard now;
    while the showdown's box is open, ``showdown`` is its event's index and
    the table shows the round that ended, not the next one's secrets."""
    events = view.events if showdown is None else view.events[: showdown + 1]
    story = round_events(events if showdown is None else events[:showdown])
    first = story[0] if story else None
    number = first.number if isinstance(first, RoundStarted) else view.round
    dash = glyphs(ascii_only)["dash"]
    names = seats.names
    seat = view.to_act
    if showdown is not None:
        doing = _("the showdown")
    elif seat is None:
        doing = _("the end")
    elif view.stage == "roll":
        doing = _("{name} rolls").format(name=names[seat])
    else:
        doing = _("{game}, {name} to speak").format(game=TITLES[view.game], name=names[seat])
    where = _("round {number}, to {target}").format(number=number, target=view.config.target)
    heading = f"Decimus {dash} {where} {dash} {doing}"
    dice = view.dice
    if showdown is not None:
        shown = events[showdown]
        assert isinstance(shown, Showdown)
        dice = shown.hands[view.seat]
    rolling = showdown is None and view.stage == "roll" and my_move
    faces, caption = _dice(view, dice, picked if rolling else None, showdown is not None)
    game_rows = _games(view, story, dice, names, betting=showdown is None and view.stage == "bet")
    seat_rows = _players(view, story, seats, ascii_only, showdown is not None)
    prompt, stake = _prompt(view, seats, ascii_only, showdown is not None)
    return Table(
        heading,
        faces,
        caption,
        (_("Your hand"), _("Bets")),
        game_rows,
        (_("Pts"), _("Rerolls")),
        seat_rows,
        prompt,
        stake,
        events,
    )


def _dice(
    view: View, dice: tuple[int, ...], picked: frozenset[int] | None, showdown: bool
) -> tuple[tuple[Die, ...], str]:
    """The five dice and the caption under them: while the seat rerolls
    (``picked`` not None) the picked ones dimmed and the rerolls left; while
    a game is bet, the dice that make its hand."""
    if picked is not None:
        faces = tuple(Die(v, 6, "dim" if i in picked else "") for i, v in enumerate(dice))
        cells = [_("{die}: reroll").format(die=i + 1) if i in picked else f"{i + 1}" for i in range(5)]
        left = rerolls_left(view, view.seat)
        caption = " ".join(f"{c:^9}" for c in cells)
        return faces, caption + "\n" + ngettext("{count} reroll left", "{count} rerolls left", left).format(
            count=left
        )
    game = view.game if not showdown and view.stage == "bet" else ""
    hand = set(hand_dice(game, dice)) if game else set()
    faces = tuple(Die(v, 6, "win" if i in hand else "") for i, v in enumerate(dice))
    if game:
        return faces, f"{TITLES[game]}: {describe(game, dice)}"
    if view.stage == "roll" and not showdown:
        done = view.standing[view.seat]
        return faces, _("Your dice stand.") if done else _("Waiting for the rival's rerolls.")
    return faces, ""


BETS_ROOM = 23  # the Bets column's room at 80 columns, the games' names whole


def _games(
    view: View, story: Sequence[Event], dice: tuple[int, ...], names: Sequence[str], *, betting: bool
) -> tuple[SeatRow, ...]:
    """A row a game: the viewer's hand in it and how its betting stands."""
    status: dict[str, str] = {}
    unscored: set[str] = set()
    for e in story:
        match e:
            case BettingOpened(game) | BetPlaced(_, game) | Passed(_, game):
                status[game] = _("betting")
            case Pending(game, points):
                # points at stake, waiting for the showdown (Spanish and
                # Galician say it in the plural: "12 pendientes")
                status[game] = ngettext("{points} pending", "{points} pending", points).format(points=points)
            case Folded(seat, game, points):
                status[game] = _("+{points} {name} (fold)").format(points=points, name=names[1 - seat][:9])
            case PointAlone(seat, game):
                status[game] = _("+1 {name} (alone)").format(name=names[seat][:9])
            case Unscored(game):
                status[game] = _("not scored")
                unscored.add(game)
            case Settled(seat, game, points):
                status[game] = f"+{points} {names[seat][:9]}"
    rows = []
    for g in GAMES:
        cell = status.get(g, "")
        if betting and g == view.game:
            a, b = view.totals
            who = [names[0][:9], names[1][:9]]
            cell = f"{who[0]}: {a}  {who[1]}: {b}"
            if cell_len(cell) > BETS_ROOM:
                # The viewer's own name gives way ("Your hand" is the
                # column beside): hot seat's "Player 1: 0  Player 2: 0" cut
                # the games' names to "Un en …" at 80 columns.
                who[view.seat] = pgettext("decimus bets: the viewer", "you")
                cell = f"{who[0]}: {a}  {who[1]}: {b}"
        rows.append(
            SeatRow(
                TITLES[g],
                (f"{describe(g, dice, short=True) if dice else '':<14}", cell),
                turn=betting and g == view.game,
                out=g in unscored,
            )
        )
    return tuple(rows)


def _players(
    view: View, story: Sequence[Event], seats: Seats, ascii_only: bool, showdown: bool
) -> tuple[SeatRow, ...]:
    """A row a player: points and the dice rerolled each time (public)."""
    counts: dict[int, list[str]] = {0: [], 1: []}
    for e in story:
        if isinstance(e, Rerolled):
            counts[e.seat].append(str(len(e.dice)))
    scores = view.scores
    lead = 0 if scores[0] > scores[1] else 1 if scores[1] > scores[0] else None
    pending = glyphs(ascii_only)["pending"]
    return tuple(
        SeatRow(
            name[:9],
            (f"{scores[i]:>3}", ",".join(counts[i]) or pending),
            turn=not showdown and i == view.to_act,
            lead=i == lead,
            computer=seats.computer[i],
        )
        for i, name in enumerate(seats.names)
    )


def _prompt(
    view: View, seats: Seats, ascii_only: bool, showdown: bool
) -> tuple[str | Text, StakeOffer | None]:
    gl = glyphs(ascii_only)
    names = seats.names
    seat = view.to_act
    if showdown:
        return _("The showdown: the dice are on the table."), None
    if seat is None:
        return _("The match is over."), None
    if seat not in seats.here:
        return _("{name} is thinking").format(name=names[seat]) + gl["ellipsis"], None
    if seat != view.seat:
        return _("{name}'s turn.").format(name=names[seat]), None
    if view.stage == "roll":
        return styled(
            _(
                "[b]$name[/b]: pick dice to reroll (1{range}5), then Enter; with none picked, Enter is done."
            ).format(range=gl["range"]),
            name=names[seat],
        ), None
    rival = 1 - seat
    mine, theirs = view.totals[seat], view.totals[rival]
    if not view.bet_made:
        said = _("nobody has bet yet: pass or bet")
    else:
        said = _(
            "{name} is at {theirs}, you at {mine}: see {theirs}, raise, or fold (they score {given})"
        ).format(name=names[rival], theirs=theirs, mine=mine, given=mine or 1)
    prompt = styled(
        _("[b]$name[/b], $title: $said. [dim]Your chance to win it: {chance}.[/dim]").format(
            chance=f"{game_equity(view):.0%}"
        ),
        name=names[seat],
        title=TITLES[view.game],
        said=said,
    )
    return prompt, StakeOffer(seat, _("Raise by") if view.bet_made else _("Bet"), 1, MAX_RAISE)


def stake_note(view: View, amount: int) -> str:
    """What betting ``amount`` makes the speaker's total (a raise is on top
    of the rival's)."""
    if view.stage != "bet" or view.to_act is None:
        return ""
    return _("your total would be {total}").format(total=view.totals[1 - view.to_act] + amount)


def keys(legal: Sequence[Action], my_move: bool, picked: bool) -> frozenset[str]:
    """The game's keys that work now, on the move of a seat played here
    (``my_move``), as the legal moves allow: Enter rerolls the ``picked``
    dice or, with none picked, is done; r and d say which whatever is
    picked; 1-5 pick while a reroll is left; Enter bets (raises once a bet
    is made), ←/→ size it; p, s and f pass, see and fold."""
    if not my_move:
        return frozenset()
    out: set[str] = set()
    if STAND in legal:
        out |= {"stand_any"} | (set() if picked else {"stand"})
        if any(a.kind == "reroll" for a in legal):
            out |= {"reroll_any", "pick"} | ({"reroll"} if picked else set())
    if any(a.kind == "bet" for a in legal):
        out |= {"stake_by", "bet" if PASS in legal else "raise"}
    out |= {f"move:{a.kind}" for a in legal if a.kind in ("pass", "see", "fold")}
    return frozenset(out)


def showdown_sheet(
    events: Sequence[Event], at: int, names: Sequence[str], scores: Sequence[int], *, ascii_only: bool
) -> Text:
    """The showdown's box: both hands, how each game went (settled at the
    showdown, or earlier by a fold or a lone hand) and the score after.
    ``events`` is the match's story, ``at`` the showdown's place in it."""
    shown = events[at]
    assert isinstance(shown, Showdown)
    story = round_events(events[:at])
    body = Text()
    for i in (0, 1):
        body.append(set_cell_size(names[i], 12) + " ", "bold")
        body.append("-".join(map(str, sorted(shown.hands[i], reverse=True))) + "\n")
    body.append("\n")
    lines: dict[str, str] = {}
    for e in (*story[1:], *events[at + 1 :]):
        match e:
            case Folded(_, game):
                lines[game] = f"{TITLES[game]}: {narrate(e, names)}"
            case PointAlone(_, game) | Unscored(game) | Settled(_, game):
                lines[game] = narrate(e, names)
            case RoundStarted():
                break
    for g in GAMES:
        if g in lines:
            body.append(lines[g] + "\n")
    dash = glyphs(ascii_only)["dash"]
    body.append(f"\n{names[0]} {scores[0]} {dash} {scores[1]} {names[1]}", "bold")
    return body


def match_sheet(res: Result, names: Sequence[str], *, seed: int) -> Text:
    """The match's end: the winner and the score."""
    body = Text()
    won, lost = res.scores[res.winner], res.scores[1 - res.winner]
    body.append(
        _("{name} wins the match, {won} to {lost}, ").format(name=names[res.winner], won=won, lost=lost),
        "bold",
    )
    body.append(
        ngettext("after {count} round.", "after {count} rounds.", res.rounds).format(count=res.rounds) + "\n"
    )
    body.append("\n" + _("Seed {seed}").format(seed=seed), "dim")
    return body
