"""Barras as a state machine (the rules page: ``tui/rules/barras.md``): a table of 1–6 players against
the house.

A round: the croupier rolls the bar (part of starting the round); each
player at the table with chips, in turn (the first bettor moves one seat on
each round), sits out or bets within the table limits, having seen the bar
and the bets before theirs; the bettors roll; the round is settled. A
player's throw must be strictly above the bar.

* Nobody bets: every player at the table pays the house the fee (or what it
  has left, if less).
* Nobody beats the bar: the house keeps every bet.
* One bettor alone beats the bar: the house pays the solo payout.
* Several bettors: the highest throw above the bar takes every bet on the
  table; players tied for it roll off with the pair of dice (again while
  tied among the highest).

Chips are counted for the house too (``house``: what it has won), so chips
are conserved: players' chips plus the house's balance never change.
A player with no chips is out. The session ends when at most one player has
chips (a table of one: when the player is broke), or when a player closes
the table (``close``: the human cashing out; any seat may, at any moment).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, assert_never

from .. import words
from ..contract import Standing
from ..dice import MT, RngState, new_stream, roll
from ..errors import IllegalAction
from ..i18n import N_, _, ngettext
from ..variants import RecordedConfig, Variant, view_of
from .rules import faces, show, value

Solo = Literal["1:1", "3:2", "2:1"]
PAYOUTS: dict[Solo, tuple[int, int]] = {"1:1": (1, 1), "3:2": (3, 2), "2:1": (2, 1)}
Stage = Literal["bet", "roll", "rolloff", "over"]
"""Where a round stands: bets being decided, the bettors rolling, the
highest tied rolling off, or the session over."""
Settlement = Literal["fee", "house", "solo", "table"]
"""How a round was settled: nobody bet (the fee), nobody beat the bar (the
house keeps the bets), one bettor beat it alone (the solo payout), or the
highest throw took every bet on the table."""


@dataclass(frozen=True)
class Config(RecordedConfig):
    """The rule variants, with their defaults."""

    GAME = "Barras"
    players: int = 3
    bankroll: int = 100
    stake_min: int = 1
    stake_max: int = 20
    fee: int = 2
    solo: Solo = "1:1"

    def __post_init__(self) -> None:
        if not 1 <= self.players <= 6:
            raise ValueError("Barras is for 1 to 6 players")
        if not 1 <= self.stake_min <= self.stake_max:
            raise ValueError("table limits need 1 ≤ minimum ≤ maximum")
        if self.bankroll < 1:
            raise ValueError("the bankroll must be at least 1 chip")
        if self.fee < 0:
            raise ValueError("the table fee cannot be negative")
        if self.solo not in PAYOUTS:
            raise ValueError(f"the solo payout is one of {', '.join(PAYOUTS)}")

    def payout(self, bet: int) -> int:
        """What the house pays a lone winner on ``bet`` (fractions of a chip
        are not paid)."""
        num, den = PAYOUTS[self.solo]
        return bet * num // den


@dataclass(frozen=True)
class Action:
    """``bet N``, ``sit``, ``roll`` or ``close``; ``str()`` is the notation."""

    kind: str
    amount: int = 0

    def __str__(self) -> str:
        return f"bet {self.amount}" if self.kind == "bet" else self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str):  # a record or a message may hold anything
            raise ValueError(f"Barras actions are written as text, not {type(text).__name__}")
        parts = text.split()
        if parts in (["sit"], ["roll"], ["close"]):
            return cls(parts[0])
        if len(parts) == 2 and parts[0] == "bet" and parts[1].isdigit():
            return cls("bet", int(parts[1]))
        raise ValueError(f"not a Barras action: {text!r}")


SIT = Action("sit")
ROLL = Action("roll")
CLOSE = Action("close")


# ---------------------------------------------------------------- the story
# One class per kind of event (their names unique in the package: the wire
# decodes a state's values by class name); ``narrate`` has words for each.


@dataclass(frozen=True)
class RoundStarted:
    number: int
    dice: tuple[int, int]  # the croupier's tens and units
    bar: int


@dataclass(frozen=True)
class BetPlaced:
    seat: int
    amount: int


@dataclass(frozen=True)
class SatOut:
    seat: int


@dataclass(frozen=True)
class FeePaid:
    fee: int
    seats: tuple[int, ...]  # the players at the table


@dataclass(frozen=True)
class Rolled:
    seat: int
    dice: tuple[int, int]
    value: int
    above: bool  # above the bar


@dataclass(frozen=True)
class Tied:
    seats: tuple[int, ...]  # tied for the highest: they roll off
    value: int


@dataclass(frozen=True)
class RolledOff:
    seat: int
    dice: tuple[int, int]
    value: int


@dataclass(frozen=True)
class HouseKept:
    amount: int
    seats: tuple[int, ...]  # the bettors


@dataclass(frozen=True)
class SoloWon:
    seat: int
    amount: int  # the house's payout


@dataclass(frozen=True)
class TableTaken:
    seat: int
    amount: int  # the others' bets


@dataclass(frozen=True)
class Broke:
    seat: int


@dataclass(frozen=True)
class Closed:
    seat: int  # who closed the table


@dataclass(frozen=True)
class SessionEnded:
    rounds: int


Event = (
    RoundStarted
    | BetPlaced
    | SatOut
    | FeePaid
    | Rolled
    | Tied
    | RolledOff
    | HouseKept
    | SoloWon
    | TableTaken
    | Broke
    | Closed
    | SessionEnded
)


@dataclass(frozen=True)
class RoundResult:
    number: int
    bar: int
    bets: tuple[int, ...]  # 0: sat out (or not at the table)
    throws: tuple[int | None, ...]  # each bettor's value
    rolloffs: tuple[tuple[int | None, ...], ...]
    kind: Settlement
    winner: int | None
    delta: tuple[int, ...]  # chips each player won (+) or lost (−)
    house: int  # what the house won (−: paid)


@dataclass(frozen=True)
class State:
    config: Config
    seed: int
    rng: RngState = field(repr=False)
    round: int
    bar: int
    bar_dice: tuple[int, int]
    stage: Stage
    chips: tuple[int, ...]
    house: int
    bets: tuple[int | None, ...]  # None: not decided yet
    order: tuple[int, ...]  # this round's betting order (players at the table)
    throws: tuple[int | None, ...]
    contenders: tuple[int, ...]  # in a roll-off
    rolloff: tuple[int | None, ...]  # the current roll-off pass
    rolloffs: tuple[tuple[int | None, ...], ...]
    history: tuple[RoundResult, ...]
    chip_history: tuple[tuple[int, ...], ...]  # chips after each round, the start first
    closed: bool
    events: tuple[Event, ...]

    @property
    def over(self) -> bool:
        return self.stage == "over"


@dataclass(frozen=True)
class View:
    seat: int
    config: Config
    round: int
    bar: int
    bar_dice: tuple[int, int]
    stage: Stage
    to_act: int | None
    chips: tuple[int, ...]
    house: int
    bets: tuple[int | None, ...]
    order: tuple[int, ...]
    throws: tuple[int | None, ...]
    contenders: tuple[int, ...]
    rolloff: tuple[int | None, ...]
    history: tuple[RoundResult, ...]
    chip_history: tuple[tuple[int, ...], ...]
    events: tuple[Event, ...]

    @property
    def over(self) -> bool:
        return self.stage == "over"


@dataclass(frozen=True)
class Result:
    chips: tuple[int, ...]
    net: tuple[int, ...]  # against the starting bankroll
    house: int
    rounds: int
    closed: bool  # a player cashed out; else the chips ran out

    @property
    def winner(self) -> int:
        """The seat with the most chips (the first such seat on a tie)."""
        return max(range(len(self.chips)), key=lambda i: (self.chips[i], -i))


# ---------------------------------------------------------------- the machine


def new_game(config: Config, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> State:
    n = config.players
    chips = (config.bankroll,) * n
    state = State(
        config=config,
        seed=seed,
        rng=new_stream(seed, dice, stream),
        round=0,
        bar=0,
        bar_dice=(0, 0),
        stage="bet",
        chips=chips,
        house=0,
        bets=(None,) * n,
        order=(),
        throws=(None,) * n,
        contenders=(),
        rolloff=(),
        rolloffs=(),
        history=(),
        chip_history=(chips,),
        closed=False,
        events=(),
    )
    return _start_round(state)


def _at_table(state: State) -> tuple[int, ...]:
    return tuple(i for i, c in enumerate(state.chips) if c > 0)


def _start_round(state: State) -> State:
    """The croupier rolls the bar; the players with chips bet in turn."""
    n = state.config.players
    number = state.round + 1
    d10s, rng = roll(state.rng, 10, 2)
    tens, units = faces((d10s[0], d10s[1]))
    bar = value(tens, units, house=True)
    seated = _at_table(state)
    start = (number - 1) % n
    order = tuple(sorted(seated, key=lambda s: (s - start) % n))
    return replace(
        state,
        rng=rng,
        round=number,
        bar=bar,
        bar_dice=(tens, units),
        stage="bet",
        bets=tuple(None if i in seated else 0 for i in range(n)),
        order=order,
        throws=(None,) * n,
        contenders=(),
        rolloff=(),
        rolloffs=(),
        events=state.events + (RoundStarted(number, (tens, units), bar),),
    )


def stake_limits(state: State | View, seat: int) -> range:
    """The bets a player may place: the table limits within its chips (a
    player short of the minimum may bet everything it has)."""
    cfg, chips = state.config, state.chips[seat]
    return range(min(cfg.stake_min, chips), min(cfg.stake_max, chips) + 1)


def to_act(state: State) -> int | None:
    if state.stage == "bet":
        return next(s for s in state.order if state.bets[s] is None)
    if state.stage == "roll":
        return next(s for s in state.order if state.bets[s] and state.throws[s] is None)
    if state.stage == "rolloff":
        return next(s for s, v in zip(state.contenders, state.rolloff) if v is None)
    return None


def phase(state: State) -> Stage:
    return state.stage


def legal_actions(state: State) -> list[Action]:
    if state.stage == "over":
        return []
    # Closing comes first: it always ends the session (which may otherwise
    # go on for ever, e.g. with no fee and everyone sitting out).
    if state.stage == "bet":
        seat = to_act(state)
        assert seat is not None
        return [CLOSE, SIT] + [Action("bet", n) for n in stake_limits(state, seat)]
    return [CLOSE, ROLL]


def _refusal(state: State, action: Action) -> IllegalAction | None:
    if state.stage == "over":
        return IllegalAction(_("The session is over: the table is closed."), action)
    if action.kind == "close":
        return None
    if state.stage == "bet":
        if action.kind == "roll":
            return IllegalAction(
                _("Bets first: every player decides, seeing the bar, before anyone rolls."), action
            )
        if action.kind == "bet":
            seat = to_act(state)
            assert seat is not None
            r = stake_limits(state, seat)
            if action.amount not in r:
                return IllegalAction(
                    _("A bet must be {low}–{high} chips: the table limits within your chips.").format(
                        low=r.start, high=r.stop - 1
                    ),
                    action,
                )
        return None
    if action.kind != "roll":
        return IllegalAction(_("The bets are down: now the bettors roll."), action)
    return None


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` naming the rule."""
    refused = _refusal(state, action)
    if refused is not None:
        raise refused
    if action.kind == "close":
        return _end(replace(state, closed=True, events=state.events + (Closed(to_act(state) or 0),)))
    seat = to_act(state)
    assert seat is not None
    if state.stage == "bet":
        bets = list(state.bets)
        bets[seat] = action.amount if action.kind == "bet" else 0
        ev: Event = BetPlaced(seat, action.amount) if action.kind == "bet" else SatOut(seat)
        state = replace(state, bets=tuple(bets), events=state.events + (ev,))
        if None in state.bets:
            return state
        if not any(state.bets):
            return _fee(state)
        return replace(state, stage="roll")
    d10s, rng = roll(state.rng, 10, 2)
    tens, units = faces((d10s[0], d10s[1]))
    v = value(tens, units, house=False)
    if state.stage == "roll":
        throws = list(state.throws)
        throws[seat] = v
        rolled = Rolled(seat, (tens, units), v, v > state.bar)
        state = replace(state, rng=rng, throws=tuple(throws), events=state.events + (rolled,))
        if any(b and t is None for b, t in zip(state.bets, state.throws)):
            return state
        return _settle(state)
    passes = list(state.rolloff)
    passes[state.contenders.index(seat)] = v
    off = RolledOff(seat, (tens, units), v)
    state = replace(state, rng=rng, rolloff=tuple(passes), events=state.events + (off,))
    if None in state.rolloff:
        return state
    return _settle_rolloff(state)


def _fee(state: State) -> State:
    n = state.config.players
    paid = tuple(min(state.config.fee, state.chips[i]) if i in state.order else 0 for i in range(n))
    result = RoundResult(
        state.round, state.bar, (0,) * n, (None,) * n, (), "fee", None, tuple(-p for p in paid), sum(paid)
    )
    ev = FeePaid(state.config.fee, state.order)
    return _close_round(replace(state, events=state.events + (ev,)), result)


def _settle(state: State) -> State:
    n = state.config.players
    bets = tuple(b or 0 for b in state.bets)
    bettors = [i for i in range(n) if bets[i]]
    beaters = [i for i in bettors if (state.throws[i] or 0) > state.bar]
    if not beaters:
        result = RoundResult(
            state.round, state.bar, bets, state.throws, (), "house", None, tuple(-b for b in bets), sum(bets)
        )
        kept = HouseKept(sum(bets), tuple(bettors))
        return _close_round(replace(state, events=state.events + (kept,)), result)
    if len(bettors) == 1:
        winner = bettors[0]
        paid = state.config.payout(bets[winner])
        delta = tuple(paid if i == winner else 0 for i in range(n))
        result = RoundResult(state.round, state.bar, bets, state.throws, (), "solo", winner, delta, -paid)
        ev = SoloWon(winner, paid)
        return _close_round(replace(state, events=state.events + (ev,)), result)
    top = max(state.throws[i] or 0 for i in beaters)
    tied = tuple(i for i in beaters if state.throws[i] == top)
    if len(tied) == 1:
        return _table(state, tied[0])
    tie = Tied(tied, top)
    return replace(
        state,
        stage="rolloff",
        contenders=tied,
        rolloff=(None,) * len(tied),
        events=state.events + (tie,),
    )


def _settle_rolloff(state: State) -> State:
    top = max(v for v in state.rolloff if v is not None)
    tied = tuple(s for s, v in zip(state.contenders, state.rolloff) if v == top)
    state = replace(state, rolloffs=state.rolloffs + (state.rolloff,))
    if len(tied) == 1:
        return _table(state, tied[0])
    again = Tied(tied, top)
    return replace(state, contenders=tied, rolloff=(None,) * len(tied), events=state.events + (again,))


def _table(state: State, winner: int) -> State:
    """The highest throw above the bar takes every bet on the table."""
    n = state.config.players
    bets = tuple(b or 0 for b in state.bets)
    won = sum(bets) - bets[winner]
    delta = tuple(won if i == winner else -bets[i] for i in range(n))
    result = RoundResult(
        state.round, state.bar, bets, state.throws, state.rolloffs, "table", winner, delta, 0
    )
    ev = TableTaken(winner, won)
    return _close_round(replace(state, events=state.events + (ev,)), result)


def _close_round(state: State, result: RoundResult) -> State:
    chips = tuple(c + d for c, d in zip(state.chips, result.delta))
    events = state.events
    for i, (before, after) in enumerate(zip(state.chips, chips)):
        if before > 0 and after == 0:
            events += (Broke(i),)
    state = replace(
        state,
        chips=chips,
        house=state.house + result.house,
        history=state.history + (result,),
        chip_history=state.chip_history + (chips,),
        events=events,
    )
    left = len(_at_table(state))
    if left == 0 or (state.config.players > 1 and left <= 1):
        return _end(state)
    return _start_round(state)


def _end(state: State) -> State:
    return replace(state, stage="over", events=state.events + (SessionEnded(len(state.history)),))


def is_over(state: State) -> bool:
    return state.stage == "over"


def result(state: State) -> Result | None:
    if state.stage != "over":
        return None
    cfg = state.config
    return Result(
        chips=state.chips,
        net=tuple(c - cfg.bankroll for c in state.chips),
        house=state.house,
        rounds=len(state.history),
        closed=state.closed,
    )


def view(state: State, seat: int) -> View:
    return view_of(View, state, seat=seat, to_act=to_act(state))


# ---------------------------------------------------------------- narration


def summary(state: State, names: Sequence[str]) -> str:
    chips = ", ".join(f"{n} {c}" for n, c in zip(names, state.chips))
    if state.stage == "over":
        played = len(state.history)
        return ngettext(
            "Closed after {count} round: {chips}", "Closed after {count} rounds: {chips}", played
        ).format(count=played, chips=chips)
    return _("Round {number}, bar {bar}: {chips}").format(number=state.round, bar=state.bar, chips=chips)


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event in words, for the log (every kind has its words: a new
    kind without them fails the type check, at ``assert_never``)."""
    match event:
        case RoundStarted(number, dice, bar):
            return _("Round {number}: the croupier rolls {dice}, the bar is {bar}.").format(
                number=number, dice=show(*dice), bar=bar
            )
        case BetPlaced(seat, amount):
            return _("{player} bets {amount}.").format(player=names[seat], amount=amount)
        case SatOut(seat):
            return _("{player} sits out.").format(player=names[seat])
        case FeePaid(fee):
            return _("Nobody bets: each player pays the house the fee of {chips}.").format(
                chips=words.chips(fee)
            )
        case Rolled(seat, dice, value, above):
            rolled = (
                _("{player} rolls {dice} = {value}, above the bar.")
                if above
                else _("{player} rolls {dice} = {value}, not above the bar.")
            )
            return rolled.format(player=names[seat], dice=show(*dice), value=value)
        case Tied(seats, value):
            tied = words.joined([names[s] for s in seats])
            return _("{players} tie at {value}: they roll off.").format(players=tied, value=value)
        case RolledOff(seat, dice, value):
            return _("{player} rolls off {dice} = {value}.").format(
                player=names[seat], dice=show(*dice), value=value
            )
        case HouseKept(amount):
            return _("Nobody beats the bar: the house keeps {chips}.").format(chips=words.chips(amount))
        case SoloWon(seat, amount):
            return _("{player} beats the bar alone: the house pays {chips}.").format(
                player=names[seat], chips=words.chips(amount)
            )
        case TableTaken(seat, amount):
            return _("{player} has the highest throw and takes the table: {chips} from the others.").format(
                player=names[seat], chips=words.chips(amount)
            )
        case Broke(seat):
            return _("{player} has no chips left and leaves the table.").format(player=names[seat])
        case Closed():
            return _("The table closes: everyone cashes out.")
        case SessionEnded(rounds):
            return ngettext(
                "The session ends after {count} round.", "The session ends after {count} rounds.", rounds
            ).format(count=rounds)
        case _:
            assert_never(event)


# ---------------------------------------------------------------- variants

VARIANTS = (
    Variant("bankroll", N_("Bankroll"), (50, 100, 200, 500), help=N_("Chips each player starts with.")),
    Variant(
        "stake_min",
        N_("Min bet"),
        (1, 2, 5, 10),
        help=N_("The table minimum (a player short of it bets all)."),
    ),
    Variant("stake_max", N_("Max bet"), (10, 20, 50, 100), help=N_("The table maximum for one bet.")),
    Variant(
        "fee", N_("Table fee"), (0, 1, 2, 5), help=N_("What each player pays the house when nobody bets.")
    ),
    Variant(
        "solo",
        N_("Solo payout"),
        tuple(PAYOUTS),
        (N_("even money"), N_("3 to 2"), N_("2 to 1")),
        help=N_("What the house pays the one bettor who beats the bar."),
    ),
)
LEVELS = (N_("cautious"), N_("steady"), N_("reckless"))
DEFAULT_LEVELS = ("steady", "cautious", "reckless")  # seat by seat, a varied table
LEVELS_HELP = N_(
    "Cautious bets only a clear edge, small; steady sizes bets to its edge; reckless chases long odds."
)


# ---------------------------------------------------------------- statistics

RECORDS = {"net": ("Biggest net win (chips)", "max")}


def outcome(state: State) -> tuple[Standing, ...]:
    """Against the house: a player who leaves with more chips than they
    brought won the session, with fewer lost it."""
    bank = state.config.bankroll
    return tuple("win" if c > bank else "loss" if c < bank else "draw" for c in state.chips)


def records(state: State, seat: int) -> dict[str, int]:
    return {"net": state.chips[seat] - state.config.bankroll}
