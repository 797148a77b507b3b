"""What the Willie table shows, from one seat's view: plain Python, no
Textual. The screen (``tui/screens/willie.py``) binds it to its widgets;
the turn's work on the table (the bench, the cursor, the wild picker) is
the screen's own interaction, checked by the core's ``Bench``.

``heading``, ``players`` and ``waiting_prompt`` give what the table binds
while no turn is worked on here; ``keys`` which of the turn's moves work
now, from the legal moves; ``score_sheet`` and ``match_sheet`` the round's
result and the match's end, from the core's ``RoundScore`` and ``Result``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import set_cell_size
from rich.text import Text

from garito.core.i18n import _, ngettext
from garito.core.willie import Action, Bonuses, Result, RoundScored, View, points
from garito.widgets.glyphs import glyphs
from garito.widgets.text import styled
from garito.widgets.values import SeatRow

# The column where a score sheet line's words start (after the name, points
# and the score).
SHEET_PARTS = 25
ORDINAL = {1: "first", 2: "second", 3: "third"}


@dataclass(frozen=True)
class Seats:
    """Who sits at the table, as the table shows them."""

    names: tuple[str, ...]
    computer: tuple[bool, ...]  # played by a computer (marked on its row)
    here: frozenset[int]  # played from this keyboard


def heading(view: View, names: Sequence[str], *, ascii_only: bool, ended: bool = False) -> str:
    """The title line: the round, the target, what is happening, the pile."""
    dash = glyphs(ascii_only)["dash"]
    seat = view.to_act
    if ended:
        doing = _("the round is over")
    elif seat is None:
        doing = _("the end")
    elif view.stage == "close":
        doing = _("{name} may close").format(name=names[seat])
    elif view.last_turns is not None:
        doing = _("{name}: last turn, no draw").format(name=names[seat])
    else:
        drawn = {
            1: _("{name}: first card drawn"),
            2: _("{name}: second card drawn"),
            3: _("{name}: third card drawn"),
        }.get(view.draws) or _("{name}: {nth} card drawn")
        doing = drawn.format(name=names[seat], nth=view.draws)
    where = _("round {number}, to {target}").format(number=view.round, target=view.config.target)
    pile = _("pile {count}").format(count=view.pile_count)
    return f"Willie {dash} {where} {dash} {doing} {dash} {pile}"


def players(view: View, seats: Seats) -> tuple[tuple[str, ...], tuple[SeatRow, ...]]:
    """The players' columns and rows: cards in hand, points, rounds won."""
    top = max(view.scores)
    lead = view.scores.count(top) == 1 and top > 0
    rows = tuple(
        SeatRow(
            name[:9],
            (f"{view.hand_sizes[i]:>3}", f"{view.scores[i]:>3}", f"{view.rounds_won[i]:>2}"),
            turn=i == view.to_act,
            lead=lead and view.scores[i] == top,
            computer=seats.computer[i],
        )
        for i, name in enumerate(seats.names)
    )
    return (_("Cards"), _("Pts"), _("Won")), rows


def waiting_prompt(view: View, seats: Seats, *, ascii_only: bool, ended: bool = False) -> str | Text:
    """The prompt while no turn is worked on here (the work has its own)."""
    names = seats.names
    seat = view.to_act
    if ended:
        return _("The round is over: the cards are as it ended.")
    if seat is None:
        return _("The match is over.")
    if seat not in seats.here:
        return _("{name} is thinking").format(name=names[seat]) + glyphs(ascii_only)["ellipsis"]
    if seat != view.seat:
        return _("{name}'s turn.").format(name=names[seat])
    if view.stage == "close":
        pts = points(view.hand)
        return styled(
            ngettext(
                "[b]$name[/b], you hold {count} point: c closes the round, Enter plays on.",
                "[b]$name[/b], you hold {count} points: c closes the round, Enter plays on.",
                pts,
            ).format(count=pts),
            name=names[seat],
        )
    return ""


def keys(view: View, legal: Sequence[Action], my_move: bool) -> frozenset[str]:
    """The turn's moves that work now for a seat played here (``my_move``),
    as the legal moves allow: c closes and Enter plays on after a turn; d
    draws (passes, in the last turns when nothing is drawn)."""
    if not my_move:
        return frozenset()
    kinds = {a.kind for a in legal}
    out: set[str] = set()
    if {"close", "continue"} <= kinds:
        out |= {"close", "carry_on"}
    if "pass" in kinds:
        out.add("draw" if view.last_turns is None else "pass_turn")
    return frozenset(out)


def _flow(words: Sequence[str], at: int, indent: int, width: int) -> str:
    """``words`` joined by spaces from column ``at`` of a score sheet line,
    going on under ``indent`` past ``width``: never a word cut in two
    ("empty hand" / "+5")."""
    out = ""
    for k, word in enumerate(words):
        if k and at + 1 + len(word) > width:
            out += "\n" + " " * indent
            at = indent
        elif k:
            out += " "
            at += 1
        out += word
        at += len(word)
    return out


def score_sheet(
    scored: RoundScored, totals: Sequence[int], names: Sequence[str], *, width: int, ascii_only: bool
) -> Text:
    """A round's result box: who closed, each seat's hand points, its score
    and the parts that make it (as the core scored them), its cards left,
    and the totals after the round; its lines ``width`` columns at most
    (the round box's inside)."""
    e = scored.score
    n = len(names)
    body = Text()
    if e.closer is not None:
        pts = e.hand_points[e.closer]
        said = ngettext(
            "{name} closes with {count} point in hand.", "{name} closes with {count} points in hand.", pts
        )
        body.append(said.format(name=names[e.closer], count=pts) + "\n")
    else:
        body.append(_("The pile ran out and nobody closed.") + "\n")
    # How the winner's score is made, in the rule's words: "won: 2 × 18"
    # read as a riddle to a newcomer.
    how = (
        _("The lower hand wins twice the difference.")
        if e.doubled
        else _("The lowest hand wins its difference to each other hand.")
    )
    body.append(_flow(how.split(), 0, 0, width) + "\n\n", "dim")
    times = "x" if ascii_only else chr(215)
    for i in range(n):
        delta = e.scores[i]
        body.append(set_cell_size(names[i], 10), "bold")
        body.append(" " + _("{points} pts").format(points=f"{e.hand_points[i]:>2}") + "  ")
        body.append(f"{delta:+3d}", "bold green" if delta > 0 else "bold red" if delta < 0 else "")
        parts = []
        won = e.won_from(i)
        if won:
            if e.doubled:
                parts.append(_("won: {sum}").format(sum=f"2 {times} {won[0]}"))
            else:
                parts.append(_("won: {sum}").format(sum=" + ".join(map(str, won))))
        if e.closer_penalty and i == e.closer:
            parts.append(_("closer -5"))
        if i in e.empty_bonus:
            parts.append(_("empty hand +5"))
        if parts:
            words = [f"{p}," for p in parts[:-1]] + parts[-1:]
            body.append("   " + _flow(words, SHEET_PARTS, SHEET_PARTS, width), "dim")
        body.append("\n")
        body.append("  " + _flow(scored.hands[i] or (_("(no cards)"),), 2, 2, width) + "\n", "dim")
    body.append(
        "\n" + _("Totals: {totals}").format(totals=" · ".join(f"{names[i]} {totals[i]}" for i in range(n))),
        "bold",
    )
    return body


def match_sheet(res: Result, bonus: Bonuses | None, names: Sequence[str], *, seed: int) -> Text:
    """The match's end: the winner (or a draw), the totals with the end
    bonuses, the rounds played."""
    body = Text()
    if res.winner is None:
        body.append(_("The match is drawn.") + "\n", "bold")
    else:
        body.append(_("{name} wins the match.").format(name=names[res.winner]) + "\n", "bold")
    body.append("\n")
    for i, name in enumerate(names):
        extra = (
            "  " + _("(bonus {delta})").format(delta=f"{bonus.deltas[i]:+d}")
            if bonus and bonus.deltas[i]
            else ""
        )
        body.append(f"{set_cell_size(name, 12)} {res.scores[i]:>3}{extra}\n")
    after = ngettext("After {count} round.", "After {count} rounds.", res.rounds).format(count=res.rounds)
    body.append("\n" + after + "  " + _("Seed {seed}").format(seed=seed), "dim")
    return body
