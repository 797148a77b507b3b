"""Irwin's Revenge as a state machine (the rules page: ``tui/rules/irwin.md``).

Start: each rolls a d10, the lower goes first (ties re-roll); done when the
game is created. Expedition: on a turn the player names a statuette still in
play and throws two d10 (three while the rival holds the Salamander; two
throws a turn while the rival holds the Eagle); a taken statuette brings its
curse at once (Crab 1d10 / Ant 2d10 points off, rolled by the rival;
Jellyfish: its holder skips its next three turns). Final phase: the
Salamander deal (variant), the Ant's number, then five d6 a throw, the
holder of more statuettes first, until a throw wins; after each throw the
Ant and Eagle holders may change a die; the Crab's holder, when the first
throw of its first final turn does not win, throws again or passes (the
seed's "podrá lanzar dos veces": a may, each throw costing its point).
Victory points as the original's table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, assert_never

from ..dice import MT, RngState, new_stream, roll
from ..errors import IllegalAction
from ..i18n import N_, _
from ..variants import RecordedConfig, Variant, view_of
from .rules import FIGURES, STATUETTES, final_wins, takes, why_wins

Deal = Literal["keep", "renounce", "cede"]
"""The Salamander holder's choice before the final (the variant)."""
Stage = Literal["expedition", "salamander", "ant", "final", "adjust", "crab", "over"]
"""Where the game stands: the expedition; the Salamander's deal and the Ant's
number before the final; a final throw due, one being changed with the Ant
or the Eagle, the Crab's second throw offered; or the game over."""
ActionKind = Literal["name", "salamander", "ant", "throw", "pass", "change"]

DEALS: tuple[Deal, ...] = ("keep", "renounce", "cede")
_DEALS: dict[str, Deal] = {d: d for d in DEALS}  # a move's text to the deal it names


@dataclass(frozen=True)
class Config(RecordedConfig):
    GAME = "Irwin's Revenge"
    players: int = 2
    salamander_deal: Literal["off", "on"] = "off"  # "on": renounce its blessing for +15 or cede it for +30

    def __post_init__(self) -> None:
        if self.players != 2:
            raise ValueError("Irwin's Revenge is for two players")
        if self.salamander_deal not in ("off", "on"):
            raise ValueError("the Salamander deal is off or on")


@dataclass(frozen=True)
class Action:
    """``name crab`` (name a statuette and throw), ``salamander keep|renounce|cede``,
    ``ant N``, ``throw``, ``pass`` (the Crab's second throw not taken),
    ``keep`` (the final throw as it is) or ``change ant=I eagle=J:V`` (dice
    counted from 1)."""

    kind: ActionKind
    statuette: str = ""  # the statuette named, or the Salamander's deal
    number: int = 0  # the Ant's number
    ant: int = -1  # die (0-based) the Ant's number replaces
    eagle: int = -1  # die (0-based) the Eagle sets
    value: int = 0  # what the Eagle sets it to

    def __str__(self) -> str:
        if self.kind == "name":
            return f"name {self.statuette}"
        if self.kind == "salamander":
            return f"salamander {self.statuette}"
        if self.kind == "ant":
            return f"ant {self.number}"
        if self.kind == "change":
            parts = []
            if self.ant >= 0:
                parts.append(f"ant={self.ant + 1}")
            if self.eagle >= 0:
                parts.append(f"eagle={self.eagle + 1}:{self.value}")
            return "change " + " ".join(parts) if parts else "keep"
        return self.kind

    @classmethod
    def parse(cls, text: object) -> Action:
        if not isinstance(text, str):  # a record or a message may hold anything
            raise ValueError(f"Irwin's Revenge actions are written as text, not {type(text).__name__}")
        parts = text.split()
        try:
            if parts in (["throw"], ["keep"], ["pass"]):
                return {"throw": THROW, "keep": KEEP, "pass": PASS}[parts[0]]
            if len(parts) == 2 and parts[0] == "name" and parts[1] in STATUETTES:
                return cls("name", statuette=parts[1])
            if len(parts) == 2 and parts[0] == "salamander" and parts[1] in DEALS:
                return cls("salamander", statuette=parts[1])
            if len(parts) == 2 and parts[0] == "ant" and parts[1] in "123456" and len(parts[1]) == 1:
                return cls("ant", number=int(parts[1]))
            if parts and parts[0] == "change" and 2 <= len(parts) <= 3:
                ant = eagle = -1
                value = 0
                for p in parts[1:]:
                    key, _, rest = p.partition("=")
                    if key == "ant" and ant < 0 and rest in ("1", "2", "3", "4", "5"):
                        ant = int(rest) - 1
                    elif key == "eagle" and eagle < 0:
                        die, _, v = rest.partition(":")
                        if die not in ("1", "2", "3", "4", "5") or v not in ("1", "2", "3", "4", "5", "6"):
                            raise ValueError
                        eagle, value = int(die) - 1, int(v)
                    else:
                        raise ValueError
                return cls("change", ant=ant, eagle=eagle, value=value)
        except ValueError:
            pass
        raise ValueError(f"not an Irwin's Revenge action: {text!r}")


THROW = Action("throw")
KEEP = Action("change")
PASS = Action("pass")


# ---------------------------------------------------------------- the story
# One class per kind of event (their names unique in the package: the wire
# decodes a state's values by class name); ``narrate`` has words for each.


@dataclass(frozen=True)
class StartRolled:
    dice: tuple[int, int]  # each player's d10 for the first turn (ties roll again)


@dataclass(frozen=True)
class GoesFirst:
    seat: int  # the lower d10


@dataclass(frozen=True)
class TurnBegan:
    seat: int


@dataclass(frozen=True)
class CrabOffered:
    seat: int  # the Crab's holder may throw again on its first final turn, or pass


@dataclass(frozen=True)
class Named:
    """An expedition throw: the statuette named, the d10s, whether taken."""

    seat: int
    statuette: str
    dice: tuple[int, ...]
    taken: bool


@dataclass(frozen=True)
class Cursed:
    """A statuette's curse on its new holder: the Crab's and the Ant's
    points off (the rival's d10s), the Jellyfish's skipped turns, the
    Eagle's and the Salamander's hold on the rival's throws."""

    seat: int
    statuette: str
    dice: tuple[int, ...] = ()  # the rival's roll (Crab 1d10, Ant 2d10)
    amount: int = 0  # points off (Crab, Ant), turns to skip (Jellyfish)


@dataclass(frozen=True)
class Skipped:
    seat: int
    left: int  # turns still to skip


@dataclass(frozen=True)
class ExpeditionOver:
    """All five statuettes are taken."""


@dataclass(frozen=True)
class SalamanderDealt:
    seat: int
    deal: Deal


@dataclass(frozen=True)
class AntNumbered:
    seat: int
    number: int  # 1-6, put on a die after each throw


@dataclass(frozen=True)
class FinalBegan:
    seat: int  # who throws first: the holder of more statuettes


@dataclass(frozen=True)
class FinalThrown:
    seat: int
    dice: tuple[int, ...]  # five d6 as they fell


@dataclass(frozen=True)
class Changed:
    seat: int
    dice: tuple[int, ...]  # the throw after the Ant's and the Eagle's changes
    change: str  # the move, as written (``change ant=1 eagle=2:4``)


@dataclass(frozen=True)
class CrabPassed:
    seat: int


@dataclass(frozen=True)
class FinalWon:
    seat: int
    dice: tuple[int, ...]
    why: str  # the rule that makes the throw win


Event = (
    StartRolled
    | GoesFirst
    | TurnBegan
    | CrabOffered
    | Named
    | Cursed
    | Skipped
    | ExpeditionOver
    | SalamanderDealt
    | AntNumbered
    | FinalBegan
    | FinalThrown
    | Changed
    | CrabPassed
    | FinalWon
)


@dataclass(frozen=True)
class Score:
    """One player's victory-points sheet, row by row (the rules page's
    table of victory points)."""

    held: int
    first_tries: int
    won: int
    bare_win: int
    rival_held: int
    throws: int
    curses: int
    deal: int

    @property
    def total(self) -> int:
        return (
            self.held
            + self.first_tries
            + self.won
            + self.bare_win
            + self.rival_held
            + self.throws
            + self.curses
            + self.deal
        )

    ROWS = (
        ("held", N_("+5 each statuette held")),
        ("first_tries", N_("+10 each taken at the first attempt")),
        ("won", N_("+15 winning the final phase")),
        ("bare_win", N_("+50 winning it holding none")),
        ("rival_held", N_("−3 each statuette the rival holds")),
        ("throws", N_("−1 each final-phase throw")),
        ("curses", N_("−x the Crab and Ant curse rolls")),
        ("deal", N_("the Salamander deal")),
    )


@dataclass(frozen=True)
class State:
    config: Config
    seed: int
    rng: RngState = field(repr=False)
    stage: Stage
    first: int  # who began the expedition
    turn: int
    throws_left: int
    skips: tuple[int, int]
    holder: tuple[int, ...]  # per statuette (STATUETTES order): seat, or -1
    attempts: tuple[frozenset[str], frozenset[str]]  # statuettes each has named
    first_tries: tuple[frozenset[str], frozenset[str]]
    penalties: tuple[int, int]
    deal: Deal | Literal[""]  # the Salamander holder's choice, "" before it
    ant_number: int
    final_first: int
    final_throws: tuple[int, int]
    crab_extra: bool  # the Crab's second throw is still to come on its holder's first final turn
    dice: tuple[int, ...]  # the final-phase throw being adjusted, or the last one
    winner: int | None
    events: tuple[Event, ...]

    @property
    def over(self) -> bool:
        return self.stage == "over"


@dataclass(frozen=True)
class View:
    seat: int
    config: Config
    stage: Stage
    to_act: int | None
    turn: int
    throws_left: int
    skips: tuple[int, int]
    holder: tuple[int, ...]
    attempts: tuple[frozenset[str], frozenset[str]]
    first_tries: tuple[frozenset[str], frozenset[str]]
    penalties: tuple[int, int]
    deal: Deal | Literal[""]
    ant_number: int
    final_first: int
    final_throws: tuple[int, int]
    crab_extra: bool
    dice: tuple[int, ...]
    winner: int | None
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Result:
    winner: int
    final_winner: int
    scores: tuple[Score, Score]


# ---------------------------------------------------------------- helpers


def held_by(state: State | View, seat: int) -> frozenset[str]:
    return frozenset(s for s, h in zip(STATUETTES, state.holder) if h == seat)


def in_play(state: State | View) -> tuple[str, ...]:
    return tuple(s for s, h in zip(STATUETTES, state.holder) if h < 0)


def blessings(state: State | View, seat: int) -> frozenset[str]:
    """The blessings a player has in the final: its statuettes', after the
    Salamander deal (renounced: nobody's; ceded: the rival's)."""
    mine = set(held_by(state, seat))
    sal = state.holder[STATUETTES.index("salamander")]
    if state.deal in ("renounce", "cede") and sal == seat:
        mine.discard("salamander")
    if state.deal == "cede" and sal == 1 - seat:
        mine.add("salamander")
    return frozenset(mine)


def dice_count(state: State | View, seat: int) -> int:
    return 3 if state.holder[STATUETTES.index("salamander")] == 1 - seat else 2


def throws_per_turn(state: State | View, seat: int) -> int:
    return 2 if state.holder[STATUETTES.index("eagle")] == 1 - seat else 1


# ---------------------------------------------------------------- the machine


def new_game(config: Config, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> State:
    rng = new_stream(seed, dice, stream)
    events: tuple[Event, ...] = ()
    while True:
        d10s, rng = roll(rng, 10, 2)
        pair = (d10s[0], d10s[1])
        events += (StartRolled(pair),)
        if pair[0] != pair[1]:
            break
    first = 0 if pair[0] < pair[1] else 1
    events += (GoesFirst(first), TurnBegan(first))
    return State(
        config=config,
        seed=seed,
        rng=rng,
        stage="expedition",
        first=first,
        turn=first,
        throws_left=1,
        skips=(0, 0),
        holder=(-1,) * 5,
        attempts=(frozenset(), frozenset()),
        first_tries=(frozenset(), frozenset()),
        penalties=(0, 0),
        deal="",
        ant_number=0,
        final_first=0,
        final_throws=(0, 0),
        crab_extra=False,
        dice=(),
        winner=None,
        events=events,
    )


def to_act(state: State) -> int | None:
    st = state.stage
    if st in ("expedition", "final", "adjust", "crab"):
        return state.turn
    if st == "salamander":
        return state.holder[STATUETTES.index("salamander")]
    if st == "ant":
        return ant_blessed(state)
    return None


def ant_blessed(state: State | View) -> int:
    return state.holder[STATUETTES.index("ant")]


def phase(state: State) -> Stage:
    return state.stage


def adjustments(state: State | View, seat: int) -> list[Action]:
    """Every way to change the final throw: nothing, the Ant's number on one
    die, the Eagle's value on one die, or both."""
    bless = blessings(state, seat)
    ants = [-1] + (list(range(5)) if "ant" in bless else [])
    eagles = [(-1, 0)] + ([(j, v) for j in range(5) for v in range(1, 7)] if "eagle" in bless else [])
    return [Action("change", ant=a, eagle=e, value=v) for a in ants for e, v in eagles]


def legal_actions(state: State | View) -> list[Action]:
    """The moves of the seat to act (a view holds all it takes: nothing in
    this game is hidden), in the order the table offers them."""
    st = state.stage
    if st == "expedition":
        return [Action("name", statuette=s) for s in in_play(state)]
    if st == "salamander":
        return [Action("salamander", statuette=d) for d in DEALS]
    if st == "ant":
        return [Action("ant", number=n) for n in range(1, 7)]
    if st == "final":
        return [THROW]
    if st == "crab":
        return [THROW, PASS]
    if st == "adjust":
        return adjustments(state, state.turn)
    return []


def _refusal(state: State, action: Action) -> IllegalAction | None:
    st = state.stage
    if st == "over":
        return IllegalAction(_("The game is over."), action)
    if action in legal_actions(state):
        return None
    if st == "expedition":
        if action.kind == "name":
            fig = FIGURES.get(action.statuette)
            return IllegalAction(
                _("The {statuette} is no longer in play.").format(
                    statuette=_(fig) if fig else action.statuette
                ),
                action,
            )
        return IllegalAction(_("In the expedition you name a statuette still in play, then throw."), action)
    if st == "salamander":
        return IllegalAction(
            _("First the Salamander's holder keeps, renounces (+15) or cedes (+30) its blessing."), action
        )
    if st == "ant":
        return IllegalAction(_("First the Ant's holder picks its number, 1 to 6."), action)
    if st == "final":
        return IllegalAction(_("In the final phase you throw five dice."), action)
    if st == "crab":
        return IllegalAction(_("The Crab's second throw: throw again or pass."), action)
    if action.kind == "change":
        return IllegalAction(
            _("Only the Ant (its number) and the Eagle (any value) change a die, one each."), action
        )
    return IllegalAction(_("Keep the throw or change it with your Ant or Eagle first."), action)


def apply(state: State, action: Action) -> State:
    refused = _refusal(state, action)
    if refused is not None:
        raise refused
    st = state.stage
    if st == "expedition":
        return _expedition_throw(state, action.statuette)
    if st == "salamander":
        deal = _DEALS[action.statuette]
        holder = state.holder[STATUETTES.index("salamander")]
        state = replace(state, deal=deal, events=state.events + (SalamanderDealt(holder, deal),))
        return _before_final(state)
    if st == "ant":
        state = replace(
            state,
            ant_number=action.number,
            events=state.events + (AntNumbered(ant_blessed(state), action.number),),
        )
        return _start_final(state)
    if st == "final":
        return _final_throw(state)
    if st == "crab":
        if action == THROW:
            return _final_throw(replace(state, stage="final"))
        seat, nxt = state.turn, 1 - state.turn
        events: tuple[Event, ...] = (CrabPassed(seat), TurnBegan(nxt))
        return replace(state, stage="final", turn=nxt, crab_extra=False, events=state.events + events)
    return _adjust(state, action)


def _expedition_throw(state: State, statuette: str) -> State:
    seat = state.turn
    n = dice_count(state, seat)
    dice, rng = roll(state.rng, 10, n)
    taken = takes(statuette, dice)
    attempts = list(state.attempts)
    first_time = statuette not in attempts[seat]
    attempts[seat] = attempts[seat] | {statuette}
    events = state.events + (Named(seat, statuette, dice, taken),)
    state = replace(state, rng=rng, attempts=(attempts[0], attempts[1]), events=events)
    if taken:
        holder = list(state.holder)
        holder[STATUETTES.index(statuette)] = seat
        tries = list(state.first_tries)
        if first_time:
            tries[seat] = tries[seat] | {statuette}
        state = replace(state, holder=tuple(holder), first_tries=(tries[0], tries[1]))
        state = _curse(state, seat, statuette)
    if not in_play(state):
        state = replace(state, events=state.events + (ExpeditionOver(),))
        return _before_final(state)
    if state.throws_left > 1:
        return replace(state, throws_left=state.throws_left - 1)
    return _next_turn(state)


def _curse(state: State, seat: int, statuette: str) -> State:
    if statuette in ("crab", "ant"):
        dice, rng = roll(state.rng, 10, 1 if statuette == "crab" else 2)
        pen = list(state.penalties)
        pen[seat] += sum(dice)
        ev = Cursed(seat, statuette, dice, sum(dice))
        return replace(state, rng=rng, penalties=(pen[0], pen[1]), events=state.events + (ev,))
    if statuette == "jellyfish":
        skips = list(state.skips)
        skips[seat] = 3
        ev = Cursed(seat, statuette, amount=3)
        return replace(state, skips=(skips[0], skips[1]), events=state.events + (ev,))
    return replace(state, events=state.events + (Cursed(seat, statuette),))


def _next_turn(state: State) -> State:
    nxt = 1 - state.turn
    events = state.events
    skips = list(state.skips)
    if skips[nxt] > 0:
        skips[nxt] -= 1
        events += (Skipped(nxt, skips[nxt]),)
        nxt = state.turn
    events += (TurnBegan(nxt),)
    return replace(
        state,
        turn=nxt,
        throws_left=throws_per_turn(state, nxt),
        skips=(skips[0], skips[1]),
        events=events,
    )


def _before_final(state: State) -> State:
    if state.config.salamander_deal == "on" and not state.deal:
        return replace(state, stage="salamander")
    ant = ant_blessed(state)
    if ant >= 0 and "ant" in blessings(state, ant) and not state.ant_number:
        return replace(state, stage="ant")
    return _start_final(state)


def _start_final(state: State) -> State:
    counts = [len(held_by(state, s)) for s in (0, 1)]
    first = 0 if counts[0] > counts[1] else 1
    crab = state.holder[STATUETTES.index("crab")]
    return replace(
        state,
        stage="final",
        turn=first,
        final_first=first,
        crab_extra=crab >= 0 and "crab" in blessings(state, crab),
        events=state.events + (FinalBegan(first),),
    )


def _final_throw(state: State) -> State:
    seat = state.turn
    dice, rng = roll(state.rng, 6, 5)
    throws = list(state.final_throws)
    throws[seat] += 1
    state = replace(
        state,
        rng=rng,
        dice=dice,
        final_throws=(throws[0], throws[1]),
        events=state.events + (FinalThrown(seat, dice),),
    )
    bless = blessings(state, seat)
    if "ant" in bless or "eagle" in bless:
        return replace(state, stage="adjust")
    return _judge(state)


def changed_dice(dice: tuple[int, ...], action: Action, ant_number: int) -> tuple[int, ...]:
    """The final throw after a ``change``: the Ant's number on its die, then
    the Eagle's value on its die."""
    out = list(dice)
    if action.ant >= 0:
        out[action.ant] = ant_number
    if action.eagle >= 0:
        out[action.eagle] = action.value
    return tuple(out)


def _adjust(state: State, action: Action) -> State:
    dice = changed_dice(state.dice, action, state.ant_number)
    state = replace(state, dice=dice, stage="final")
    if action.ant >= 0 or action.eagle >= 0:
        state = replace(state, events=state.events + (Changed(state.turn, dice, str(action)),))
    return _judge(state)


def _judge(state: State) -> State:
    seat = state.turn
    bless = blessings(state, seat)
    if final_wins(state.dice, bless):
        ev = FinalWon(seat, state.dice, why_wins(state.dice, bless))
        return replace(state, stage="over", winner=seat, events=state.events + (ev,))
    crab = state.holder[STATUETTES.index("crab")]
    if state.crab_extra and crab == seat and state.final_throws[seat] == 1:
        return replace(state, stage="crab", events=state.events + (CrabOffered(seat),))
    if state.crab_extra and crab == seat:
        state = replace(state, crab_extra=False)
    nxt = 1 - seat
    return replace(state, stage="final", turn=nxt, events=state.events + (TurnBegan(nxt),))


DEAL_POINTS = {"renounce": 15, "cede": 30}  # the Salamander deal's victory points


def is_over(state: State) -> bool:
    return state.stage == "over"


def score(state: State | View, seat: int) -> Score:
    mine, theirs = held_by(state, seat), held_by(state, 1 - seat)
    won = state.winner == seat
    deal = 0
    if state.holder[STATUETTES.index("salamander")] == seat:
        deal = DEAL_POINTS.get(state.deal, 0)
    return Score(
        held=5 * len(mine),
        first_tries=10 * len(state.first_tries[seat]),
        won=15 if won else 0,
        bare_win=50 if won and not mine else 0,
        rival_held=-3 * len(theirs),
        throws=-state.final_throws[seat],
        curses=-state.penalties[seat],
        deal=deal,
    )


def result(state: State) -> Result | None:
    if state.stage != "over" or state.winner is None:
        return None
    scores = (score(state, 0), score(state, 1))
    t0, t1 = scores[0].total, scores[1].total
    winner = 0 if t0 > t1 else 1 if t1 > t0 else state.winner
    return Result(winner, state.winner, scores)


def view(state: State, seat: int) -> View:
    return view_of(View, state, seat=seat, to_act=to_act(state))


# ---------------------------------------------------------------- narration


def summary(state: State, names: Sequence[str]) -> str:
    held = ", ".join(f"{names[s]} {len(held_by(state, s))}" for s in (0, 1))
    if state.stage == "over":
        assert state.winner is not None  # the game ends when the final is won
        return _("Over: {name} won the final; statuettes {held}").format(name=names[state.winner], held=held)
    if state.stage == "expedition":
        return _("Expedition, {count} statuettes in play: {held}").format(
            count=len(in_play(state)), held=held
        )
    return _("Final phase: statuettes {held}").format(held=held)


DEAL_WORDS: dict[Deal, str] = {
    "keep": N_("{name}'s Salamander keeps its blessing."),
    "renounce": N_("{name}'s Salamander renounces its blessing (+15)."),
    "cede": N_("{name}'s Salamander cedes its blessing to the rival (+30)."),
}


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event in words, for the log (every kind has its words: a new
    kind without them fails the type check, at ``assert_never``)."""
    match event:
        case StartRolled(dice):
            return _("For the first turn: {first} rolls {a}, {second} rolls {b}.").format(
                first=names[0], a=dice[0], second=names[1], b=dice[1]
            )
        case GoesFirst(seat):
            return _("{name} rolled lower and goes first.").format(name=names[seat])
        case TurnBegan(seat):
            return _("{name}'s turn.").format(name=names[seat])
        case CrabOffered(seat):
            return _("The Crab: {name} may throw again, or pass.").format(name=names[seat])
        case Named(seat, statuette, dice, taken):
            fig = _(FIGURES[statuette]) if statuette in FIGURES else statuette
            said = (
                _("{name} names the {statuette}, throws {dice} and takes the {statuette}!")
                if taken
                else _("{name} names the {statuette}, throws {dice} and misses.")
            )
            return said.format(name=names[seat], statuette=fig, dice="-".join(map(str, dice)))
        case Cursed(seat, statuette, dice, amount):
            if statuette in ("crab", "ant"):
                said = (
                    _("The Crab's curse: the rival rolls {dice}, {amount} points off {name}.")
                    if statuette == "crab"
                    else _("The Ant's curse: the rival rolls {dice}, {amount} points off {name}.")
                )
                return said.format(dice="+".join(map(str, dice)), amount=amount, name=names[seat])
            if statuette == "jellyfish":
                return _("The Jellyfish's curse: {name} skips the next three turns.").format(name=names[seat])
            if statuette == "eagle":
                return _("The Eagle's curse: {name} now throws twice a turn.").format(name=names[1 - seat])
            return _("The Salamander's curse: {name} now throws three dice.").format(name=names[1 - seat])
        case Skipped(seat, left):
            return _("{name} skips a turn (the Jellyfish; {left} more).").format(name=names[seat], left=left)
        case ExpeditionOver():
            return _("All five statuettes are taken: the expedition is over.")
        case SalamanderDealt(seat, deal):
            return _(DEAL_WORDS[deal]).format(name=names[seat])
        case AntNumbered(seat, number):
            return _("{name} picks {number} for the Ant.").format(name=names[seat], number=number)
        case FinalBegan(seat):
            return _("The final phase: {name}, holding more statuettes, throws first.").format(
                name=names[seat]
            )
        case FinalThrown(seat, dice):
            return _("{name} throws {dice}.").format(name=names[seat], dice="-".join(map(str, dice)))
        case Changed(seat, dice):
            return _("{name} changes a die: {dice}.").format(name=names[seat], dice="-".join(map(str, dice)))
        case CrabPassed(seat):
            return _("{name} passes on the Crab's second throw.").format(name=names[seat])
        case FinalWon(seat, dice, why):
            return _("{name} wins the final phase with {why}: {dice}.").format(
                name=names[seat], why=why, dice="-".join(map(str, dice))
            )
        case _:
            assert_never(event)


VARIANTS = (
    Variant(
        "salamander_deal",
        N_("Salamander deal"),
        ("off", "on"),
        (N_("off"), N_("on")),
        help=N_(
            "Before the final, the Salamander's holder may renounce its blessing for +15 or cede it for +30."
        ),
    ),
)
LEVELS = (N_("easy"), N_("hard"))
LEVELS_HELP = N_(
    "Easy names the likeliest statuette; hard weighs worth and curses "
    "and plays the final for the best chance."
)


# ---------------------------------------------------------------- statistics

RECORDS: dict[str, tuple[str, str]] = {"vp": (N_("Best victory-point total"), "max")}


def records(state: State, seat: int) -> dict[str, int]:
    return {"vp": score(state, seat).total}
