"""What the Irwin's Revenge table shows, from one seat's view: plain Python,
no Textual. The screen (``tui/screens/irwin.py``) binds it to its widgets.

``table`` gives everything the table binds at one moment (heading, the
statuettes and the players, dice, prompt, the choice line and the story);
``options``, ``default_pick``, ``chosen`` and ``digit_pick`` the one-line
picker (the statuette to name, the Salamander's deal, the Ant's number, a
change of the final throw, the best use first); ``keys`` which of the game's
keys work now, from the legal moves; ``score_sheet`` the victory points at
the end, from the core's own sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text

from garito.core.i18n import N_, _
from garito.core.irwin import (
    THROW,
    Action,
    Changed,
    Event,
    FinalThrown,
    FinalWon,
    Named,
    Result,
    Score,
    Stage,
    View,
    blessings,
    changed_dice,
    dice_count,
    final_wins,
    held_by,
    in_play,
    legal_actions,
    score,
)
from garito.core.irwin.odds import best_ant_number, best_change, take_chance, throw_win_chance
from garito.core.irwin.rules import CURSE, FIGURES, STATUETTES
from garito.widgets.glyphs import glyphs
from garito.widgets.text import styled
from garito.widgets.values import Die, SeatRow

# What takes each statuette, in the table's twelve columns.
SHORT_WHEN = {
    "crab": N_("even + odd"),
    "ant": N_("two below 5"),
    "jellyfish": N_("two sum to 7"),
    "eagle": N_("a 1 and a 10"),
    "salamander": N_("two in a row"),
}

STAGES: dict[Stage, str] = {
    "expedition": N_("the expedition"),
    "salamander": N_("the Salamander's deal"),
    "ant": N_("the Ant's number"),
    "final": N_("the final phase"),
    "adjust": N_("the final phase"),
    "crab": N_("the final phase"),
    "over": N_("the end"),
}

DEALS_SAID = {
    "keep": N_("keep it"),
    "renounce": N_("renounce it: +15"),
    "cede": N_("cede it to the rival: +30"),
}


@dataclass(frozen=True)
class Seats:
    """Who sits at the table, as the table shows them."""

    names: tuple[str, ...]
    computer: tuple[bool, ...]  # played by a computer (marked on its row)
    here: frozenset[int]  # played from this keyboard


@dataclass(frozen=True)
class Table:
    heading: str
    columns: tuple[str, ...]  # the statuettes' table
    rows: tuple[SeatRow, ...]
    seat_columns: tuple[str, ...]  # the players' table
    seat_rows: tuple[SeatRow, ...]
    dice: tuple[Die, ...]
    caption: str
    prompt: str | Text
    choice: str | Text  # the picker's line under the prompt
    events: tuple[Event, ...]


def table(view: View, seats: Seats, *, ascii_only: bool, pick: int = 0) -> Table:
    """The table as ``view``'s seat sees it, ``pick`` the picker's place
    (counted round the options)."""
    gl = glyphs(ascii_only)
    dash = gl["dash"]
    seat = view.to_act
    turn = f" {dash} {seats.names[seat]}" if seat is not None else ""
    extra = (
        " " + _("({count} throws)").format(count=view.throws_left)
        if view.stage == "expedition" and view.throws_left > 1
        else ""
    )
    me = seat if seat is not None else view.seat
    n = dice_count(view, me)
    dice, caption = _dice(view, seats.names)
    prompt, choice = _prompt(view, seats, pick, ascii_only)
    return Table(
        f"Irwin's Revenge {dash} {_(STAGES[view.stage])}{turn}{extra}",
        (_("Holder"), _("Taken with"), f"{n}d10"),
        _statuettes(view, seats, me, pick, ascii_only),
        (_("Held"), _("VP")),
        tuple(
            SeatRow(
                name[:9],
                (str(len(held_by(view, i))), f"{score(view, i).total:+d}"),
                turn=i == seat,
                computer=seats.computer[i],
            )
            for i, name in enumerate(seats.names)
        ),
        dice,
        caption,
        prompt,
        choice,
        view.events,
    )


def _statuettes(view: View, seats: Seats, me: int, pick: int, ascii_only: bool) -> tuple[SeatRow, ...]:
    """One row a statuette: its holder, what takes it, the chance of taking
    it with the dice ``me`` throws; the one being named marked."""
    pending = glyphs(ascii_only)["pending"]
    n = dice_count(view, me)
    left = in_play(view)
    naming = (
        left[pick % len(left)] if view.stage == "expedition" and view.to_act in seats.here and left else ""
    )
    rows = []
    for i, st in enumerate(STATUETTES):
        h = view.holder[i]
        holder = seats.names[h][:8] if h >= 0 else pending
        chance = f"{take_chance(st, n):4.0%}" if h < 0 else ""
        rows.append(
            SeatRow(
                f"{i + 1} {_(FIGURES[st])}",
                (f"{holder:<8}", f"{_(SHORT_WHEN[st]):<12}", chance),
                turn=st == naming,
                lead=h == me,
                out=h >= 0 and h != me,
            )
        )
    return tuple(rows)


def _dice(view: View, names: Sequence[str]) -> tuple[tuple[Die, ...], str]:
    """The last throw: the expedition's d10s (taken or missed), or the final's
    five d6 as thrown, changed or winning."""
    last = next(
        (e for e in reversed(view.events) if isinstance(e, (Named, FinalThrown, Changed, FinalWon))), None
    )
    if last is None:
        return (Die(0, 10, "dim"), Die(0, 10, "dim")), _("{name} goes first").format(name=names[view.turn])
    if isinstance(last, Named):
        mark = "win" if last.taken else "lose"
        said = _("{name}: the {statuette}, takes it") if last.taken else _("{name}: the {statuette}, misses")
        return tuple(Die(v, 10, mark) for v in last.dice), said.format(
            name=names[last.seat], statuette=_(FIGURES[last.statuette])
        )
    caption = f"{names[last.seat]}: {'-'.join(map(str, last.dice))}"
    mark = ""
    if isinstance(last, FinalWon):
        caption, mark = f"{caption}, {last.why}", "win"
    return tuple(Die(v, 6, mark, str(v)) for v in last.dice), caption


# ---------------------------------------------------------------- the picker


def options(view: View) -> list[Action]:
    """What the picker cycles through now, from the legal moves: the
    statuettes in play, the deals, the Ant's numbers, or the changes of the
    final throw with the best use (a change that wins) first. None while a
    throw is all there is to do."""
    if view.stage in ("final", "crab", "over"):
        return []
    legal = legal_actions(view)
    if view.stage == "adjust" and view.to_act is not None:
        best = best_change(view.dice, blessings(view, view.to_act), view.ant_number)
        if best is not None and best != (-1, -1, 0):
            a, j, v = best
            first = Action("change", ant=a, eagle=j, value=v)
            legal.remove(first)
            legal.insert(0, first)
    return legal


def default_pick(view: View) -> int:
    """Where the picker starts: the Ant's best number, else the first option."""
    if view.stage == "ant" and view.to_act is not None:
        return best_ant_number(blessings(view, view.to_act)) - 1
    return 0


def chosen(view: View, pick: int) -> Action | None:
    """The move Enter makes: a throw when one is due, else the picked option."""
    if THROW in legal_actions(view):
        return THROW
    offered = options(view)
    return offered[pick % len(offered)] if offered else None


def digit_pick(view: View, digit: int, pick: int) -> int:
    """The picker's place after a digit: 1-5 a statuette still in play by its
    number on the table, 1-6 the Ant's number; else where it was."""
    if view.stage == "expedition" and digit <= 5:
        st = STATUETTES[digit - 1]
        left = in_play(view)
        return left.index(st) if st in left else pick
    if view.stage == "ant":
        return digit - 1
    return pick


def _prompt(view: View, seats: Seats, pick: int, ascii_only: bool) -> tuple[str | Text, str | Text]:
    """The prompt and the choice line under it."""
    gl = glyphs(ascii_only)
    seat = view.to_act
    if seat is None:
        return _("The game is over."), ""
    name = seats.names[seat]
    if seat not in seats.here:
        return _("{name} is thinking").format(name=name) + gl["ellipsis"], ""
    offered = options(view)
    L, R = gl["left"], gl["right"]
    bless = blessings(view, seat)
    if view.stage == "expedition":
        st = offered[pick % len(offered)].statuette
        n = dice_count(view, seat)
        first = " " + _("first attempt (+10)") if st not in view.attempts[seat] else ""
        prompt = styled(
            _("[b]$name[/b]: name a statuette ({updown} or 1{range}5), Enter throws {n}d10.").format(
                updown=gl["updown"], range=gl["range"], n=n
            ),
            name=name,
        )
        shown = _("the {statuette}").format(statuette=_(FIGURES[st]))
        return prompt, styled(
            f"{L} {shown} {R}  {take_chance(st, n):.0%}{first}\n" + _("[dim]curse: $curse[/dim]"),
            curse=_(CURSE[st]),
        )
    if view.stage == "salamander":
        deal = offered[pick % len(offered)].statuette
        prompt = styled(_("[b]$name[/b]: the Salamander's blessing before the final."), name=name)
        return prompt, f"{L} {_(DEALS_SAID[deal])} {R}"
    if view.stage == "ant":
        n = offered[pick % len(offered)].number
        prompt = styled(
            _("[b]$name[/b]: the Ant's number for every throw ({arrows} or 1{range}6).").format(
                arrows=gl["arrows"], range=gl["range"]
            ),
            name=name,
        )
        share = _("wins {chance} of throws").format(chance=f"{throw_win_chance(bless, n):.1%}")
        return prompt, f"{L} {n} {R}  {share}"
    if view.stage == "final":
        p = throw_win_chance(bless, view.ant_number)
        prompt = styled(_("[b]$name[/b]: throw five dice (Space)."), name=name)
        return prompt, styled(
            _("[dim]a throw wins {chance} with your blessings[/dim]").format(chance=f"{p:.1%}")
        )
    if view.stage == "crab":
        p = throw_win_chance(bless, view.ant_number)
        prompt = styled(_("[b]$name[/b]: the Crab's second throw: Space throws again, p passes."), name=name)
        return prompt, styled(
            _("[dim]a throw wins {chance} and costs a point[/dim]").format(chance=f"{p:.1%}")
        )
    # adjust: the change on offer, what it makes of the throw, whether it wins
    act = offered[pick % len(offered)]
    after = changed_dice(view.dice, act, view.ant_number)
    wins = final_wins(after, bless)
    verdict = _("[b]wins[/b]") if wins else _("does not win")
    best = " " + _("(the best use)") if pick % len(offered) == 0 and wins else ""
    what = describe_change(act, view.ant_number)
    prompt = styled(f"[b]$name[/b]: $what {gl['dash']} {verdict}{best}.", name=name, what=what)
    return prompt, styled(
        f"{L} {'-'.join(map(str, after))} {R}  " + _("[dim]Enter confirms, x keeps the throw[/dim]")
    )


def describe_change(act: Action, ant_number: int) -> str:
    parts = []
    if act.ant >= 0:
        parts.append(_("the Ant puts {number} on die {die}").format(number=ant_number, die=act.ant + 1))
    if act.eagle >= 0:
        parts.append(_("the Eagle sets die {die} to {value}").format(die=act.eagle + 1, value=act.value))
    return _(" and ").join(parts) if parts else _("no change")


def keys(legal: Sequence[Action], my_move: bool) -> frozenset[str]:
    """The game's keys that work now, on the move of a seat played here
    (``my_move``), as the legal moves allow. Enter's meaning is named
    (``name``, ``choose``, ``throw``, ``confirm``: the key bar's word);
    ``pick`` (↑/↓) goes down the statuettes, ``turn`` (←/→) turns a one-line
    choice, ``crab_pass`` passes on the Crab's second throw, ``keep`` keeps
    the final throw as it is."""
    if not my_move:
        return frozenset()
    kinds = {a.kind for a in legal}
    out: set[str] = set()
    if "name" in kinds:
        out |= {"name", "pick", "digit"}
    if kinds & {"salamander", "ant"}:
        out |= {"choose", "turn", "digit"}
    if "throw" in kinds:
        out.add("throw")
    if "pass" in kinds:
        out.add("crab_pass")
    if "change" in kinds:
        out |= {"confirm", "turn", "digit", "keep"}
    return frozenset(out)


# ---------------------------------------------------------------- the end


def score_sheet(
    res: Result, names: Sequence[str], bests: Mapping[str, tuple[int, bool]], *, seed: int
) -> Text:
    """The victory points, row by row as the core's sheet has them (a row
    nobody scored left out), then each player's best ever (``bests``: name →
    (best, set by this game)) and the seed."""
    body = Text()
    body.append(
        _("{name} wins with {points} victory points.").format(
            name=names[res.winner], points=res.scores[res.winner].total
        )
        + "\n\n",
        "bold",
    )
    body.append(f"{'':<36}{names[0][:9]:>9} {names[1][:9]:>9}\n", "dim")
    for key, label in Score.ROWS:
        a, b = getattr(res.scores[0], key), getattr(res.scores[1], key)
        if a or b:
            body.append(f"{_(label):<36}{a:>+9d} {b:>+9d}\n")
    total = _("Total")
    body.append(f"{total:<36}{res.scores[0].total:>+9d} {res.scores[1].total:>+9d}\n", "bold")
    body.append("\n" + _("Best ever: "), "dim")
    new = " " + _("(new!)")
    body.append("  ".join(f"{n} {bests[n][0]}{new if bests[n][1] else ''}" for n in names if n in bests))
    body.append("\n" + _("Seed {seed}").format(seed=seed), "dim")
    return body
