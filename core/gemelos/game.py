"""Gemelos as a state machine: config, state, legal actions, apply.

A round: (optionally) stakes, then each seat rolls 2d8 in turn order, king of
the hill. A single leader at the end wins the round; with two players a tie
voids the round (stakes back, replayed); with more, the tied leaders roll off
(another king-of-the-hill pass among them, repeated while tied). First to
``wins_needed`` round wins takes the match.

Stakes: each seat stakes between the table limits (a seat with fewer chips
than the minimum stakes all it has). The winner takes the pot, but, as with
an all-in at poker, collects from each loser at most what it staked itself:
any excess goes back to its owner. That makes a stake a real wager (the more
you put in, the more you can win and lose), which is what the seed's remark
about the later roller's advantage presumes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, assert_never

from .. import words
from ..dice import MT, RngState, new_stream, roll
from ..errors import IllegalAction
from ..i18n import N_, _, ngettext
from ..variants import RecordedConfig, Variant, view_of
from .rules import Hand, compare, describe, explain, show

StakeMode = Literal["off", "blind", "before-roll"]
FirstRoller = Literal["rotate", "fixed"]
Phase = Literal["stake", "roll", "over"]
"""Where a round stands: stakes being placed, dice being rolled, or the match over."""
Verdict = Literal["leads", "takes", "ties", "holds"]
"""What a roll did to the lead: the first roll leads; a later one takes it
(beats the leader), ties (joins the lead) or holds (the leader stays)."""

STAKE_MODES: tuple[StakeMode, ...] = ("off", "blind", "before-roll")
FIRST_ROLLER: tuple[FirstRoller, ...] = ("rotate", "fixed")


@dataclass(frozen=True)
class Config(RecordedConfig):
    """Rule variants of Gemelos (tui/rules/gemelos.md), with their defaults."""

    GAME = "Gemelos"
    players: int = 2
    wins_needed: int = 3
    first_roller: FirstRoller = "rotate"
    stakes: StakeMode = "off"
    bankroll: int = 50
    stake_min: int = 1
    stake_max: int = 10

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 6:
            raise ValueError("Gemelos is for 2 to 6 players")
        if not 2 <= self.wins_needed <= 7:
            raise ValueError("a match is played to 2–7 round wins")
        if self.first_roller not in FIRST_ROLLER:
            raise ValueError(f"first roller is one of {', '.join(FIRST_ROLLER)}")
        if self.stakes not in STAKE_MODES:
            raise ValueError(f"stakes are one of {', '.join(STAKE_MODES)}")
        if not 1 <= self.stake_min <= self.stake_max:
            raise ValueError("table limits need 1 ≤ minimum ≤ maximum")
        if self.bankroll < 1:
            raise ValueError("the bankroll must be at least 1 chip")


@dataclass(frozen=True)
class Action:
    """A move: ``roll``, or ``stake N``. ``str()`` is the record notation."""

    kind: Literal["roll", "stake"]
    amount: int = 0

    def __str__(self) -> str:
        return "roll" if self.kind == "roll" else f"stake {self.amount}"

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str):  # a record or a message may hold anything
            raise ValueError(f"Gemelos actions are written as text, not {type(text).__name__}")
        parts = text.split()
        if parts == ["roll"]:
            return ROLL
        if len(parts) == 2 and parts[0] == "stake" and parts[1].isdigit():
            return cls("stake", int(parts[1]))
        raise ValueError(f"not a Gemelos action: {text!r}")


ROLL = Action("roll")


@dataclass(frozen=True)
class Throw:
    seat: int
    dice: Hand


# ---------------------------------------------------------------- the story
# One class per kind of event (their names unique in the package: the wire
# decodes a state's values by class name); ``narrate`` has words for each.


WhyKind = Literal["beats", "same", "rolloff", "led", "took", "took-last"]


@dataclass(frozen=True)
class Why:
    """Why a hand won, kept as the hands that decide it and put in words as
    it is read: a table's players may each read a language of their own."""

    kind: WhyKind
    hand: Hand
    other: Hand | None = None  # the hand it beat, or took the lead from

    def __str__(self) -> str:
        if self.kind == "beats":
            assert self.other is not None
            return explain(self.hand, self.other)
        if self.kind == "same":
            return _("the same {hand}").format(hand=show(self.hand))
        if self.kind == "rolloff":
            return _("won the roll-off with {hand}").format(hand=describe(self.hand))
        if self.kind == "led":
            return _("{hand} led from the first roll and held").format(hand=describe(self.hand))
        assert self.other is not None
        why = explain(self.hand, self.other)
        if self.kind == "took":
            return _("{hand} took the lead ({why}) and held").format(hand=describe(self.hand), why=why)
        return _("{hand} took the lead ({why}) with the last roll").format(hand=describe(self.hand), why=why)


@dataclass(frozen=True)
class RoundStarted:
    number: int
    first: int  # the seat that rolls first


@dataclass(frozen=True)
class Staked:
    seat: int
    amount: int


@dataclass(frozen=True)
class Rolled:
    seat: int
    dice: Hand
    verdict: Verdict
    leaders: tuple[int, ...] = ()  # who led before this roll (none for the first)
    reason: Why | None = None  # the rule that decided it (none for the first)


@dataclass(frozen=True)
class RollOff:
    seats: tuple[int, ...]  # the tied leaders, rolling again
    dice: Hand  # the hand they tied with
    number: int  # the n-th roll-off of the round


@dataclass(frozen=True)
class Voided:
    seats: tuple[int, ...]
    dice: Hand  # both rolled it: the round is replayed


@dataclass(frozen=True)
class RoundWon:
    seat: int
    number: int
    gain: int  # chips won beyond the winner's own stake
    reason: Why


@dataclass(frozen=True)
class MatchWon:
    seat: int
    rounds: int  # round wins it took


Event = RoundStarted | Staked | Rolled | RollOff | Voided | RoundWon | MatchWon


@dataclass(frozen=True)
class RoundResult:
    number: int
    winner: int
    throws: tuple[Throw, ...]  # every throw of the round, roll-offs included
    pot: int
    payout: tuple[int, ...]  # chips each seat got back from the pot
    reason: Why

    @property
    def winning_throw(self) -> Throw:
        """The winner's last throw: the hand that took the round."""
        return next(t for t in reversed(self.throws) if t.seat == self.winner)


@dataclass(frozen=True)
class State:
    config: Config
    seed: int
    rng: RngState = field(repr=False)
    round: int
    first: int
    wins: tuple[int, ...]
    chips: tuple[int, ...]
    stakes: tuple[int | None, ...]
    order: tuple[int, ...]  # seats rolling in the current pass, in order
    rolloff: int  # 0 for the round's pass, n for the n-th roll-off
    throws: tuple[Throw, ...]  # throws of the current pass
    round_throws: tuple[Throw, ...]  # every throw of the round so far
    leaders: tuple[int, ...]
    lead_hand: Hand | None
    over: bool
    events: tuple[Event, ...]
    history: tuple[RoundResult, ...]
    voids: int = 0

    @property
    def pot(self) -> int:
        return sum(s for s in self.stakes if s)


@dataclass(frozen=True)
class View:
    """What one seat sees: everything but the dice stream (and its seed),
    which would let a player know the dice to come."""

    seat: int
    config: Config
    round: int
    first: int
    wins: tuple[int, ...]
    chips: tuple[int, ...]
    stakes: tuple[int | None, ...]
    pot: int
    order: tuple[int, ...]
    rolloff: int
    throws: tuple[Throw, ...]
    round_throws: tuple[Throw, ...]
    leaders: tuple[int, ...]
    lead_hand: Hand | None
    over: bool
    to_act: int | None
    phase: Phase
    events: tuple[Event, ...]
    history: tuple[RoundResult, ...]
    voids: int


@dataclass(frozen=True)
class Result:
    winner: int
    wins: tuple[int, ...]
    chips: tuple[int, ...]
    net: tuple[int, ...]  # chips won or lost against the bankroll
    rounds: int
    voids: int


# ---------------------------------------------------------------- the machine


def new_game(config: Config, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> State:
    n = config.players
    chips = (config.bankroll,) * n if config.stakes != "off" else (0,) * n
    state = State(
        config=config,
        seed=seed,
        rng=new_stream(seed, dice, stream),
        round=0,
        first=0,
        wins=(0,) * n,
        chips=chips,
        stakes=(None,) * n,
        order=(),
        rolloff=0,
        throws=(),
        round_throws=(),
        leaders=(),
        lead_hand=None,
        over=False,
        events=(),
        history=(),
    )
    return _start_round(state, first=0)


def _start_round(state: State, first: int, number: int | None = None) -> State:
    n = state.config.players
    number = state.round + 1 if number is None else number
    order = tuple((first + i) % n for i in range(n))
    return replace(
        state,
        round=number,
        first=first,
        stakes=(None,) * n,
        order=order,
        rolloff=0,
        throws=(),
        round_throws=(),
        leaders=(),
        lead_hand=None,
        events=state.events + (RoundStarted(number, first),),
    )


def phase(state: State) -> Phase:
    """Where the round stands."""
    if state.over:
        return "over"
    if state.config.stakes == "off" or state.rolloff:
        return "roll"
    if state.config.stakes == "blind":
        return "stake" if None in state.stakes else "roll"
    seat = state.order[len(state.throws)]
    return "stake" if state.stakes[seat] is None else "roll"


def to_act(state: State) -> int | None:
    """The seat whose move it is (None once the match is over)."""
    ph = phase(state)
    if ph == "over":
        return None
    if ph == "stake" and state.config.stakes == "blind":
        return next(s for s in state.order if state.stakes[s] is None)
    return state.order[len(state.throws)]


def stake_limits(state: State | View, seat: int) -> range:
    """The stakes a seat may place: the table limits within its chips; a
    seat short of the minimum stakes everything it has."""
    cfg, chips = state.config, state.chips[seat]
    if chips < cfg.stake_min:
        return range(chips, chips + 1)
    return range(cfg.stake_min, min(cfg.stake_max, chips) + 1)


def legal_actions(state: State) -> list[Action]:
    ph = phase(state)
    if ph == "over":
        return []
    if ph == "roll":
        return [ROLL]
    seat = to_act(state)
    assert seat is not None  # a match being played has a seat to act
    return [Action("stake", a) for a in stake_limits(state, seat)]


def is_over(state: State) -> bool:
    return state.over


def result(state: State) -> Result | None:
    if not state.over:
        return None
    winner = state.history[-1].winner
    cfg = state.config
    net = tuple(c - cfg.bankroll for c in state.chips) if cfg.stakes != "off" else (0,) * cfg.players
    return Result(winner, state.wins, state.chips, net, len(state.history), state.voids)


def view(state: State, seat: int) -> View:
    return view_of(View, state, seat=seat, to_act=to_act(state), phase=phase(state))


def _refuse(state: State, action: Action) -> IllegalAction:
    ph = phase(state)
    if ph == "over":
        return IllegalAction(_("The match is over: no more moves."), action)
    if action.kind == "roll":
        mode = (
            _("Stake first: stakes are blind: every seat stakes before anyone rolls.")
            if state.config.stakes == "blind"
            else _("Stake first: each seat stakes just before its roll.")
        )
        return IllegalAction(mode, action)
    if action.kind == "stake":
        if ph == "roll":
            if state.config.stakes == "off":
                return IllegalAction(_("Stakes are off in this match."), action)
            if state.rolloff:
                return IllegalAction(_("No stakes in a roll-off: the pot is already set."), action)
            return IllegalAction(_("Stakes are placed before rolling."), action)
        seat = to_act(state)
        assert seat is not None
        r = stake_limits(state, seat)
        return IllegalAction(
            _("A stake must be {low}–{high} chips: the table limits within your chips.").format(
                low=r.start, high=r.stop - 1
            ),
            action,
        )
    return IllegalAction(_("{action} is not a Gemelos move.").format(action=action), action)


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` naming the rule."""
    if action not in legal_actions(state):
        raise _refuse(state, action)
    seat = to_act(state)
    assert seat is not None
    if action.kind == "stake":
        stakes = list(state.stakes)
        stakes[seat] = action.amount
        chips = list(state.chips)
        chips[seat] -= action.amount
        return replace(
            state,
            stakes=tuple(stakes),
            chips=tuple(chips),
            events=state.events + (Staked(seat, action.amount),),
        )
    return _roll(state, seat)


def _roll(state: State, seat: int) -> State:
    dice, rng = roll(state.rng, 8, 2)
    hand: Hand = (dice[0], dice[1])
    throw = Throw(seat, hand)
    leaders, lead = state.leaders, state.lead_hand
    if lead is None:
        event = Rolled(seat, hand, "leads")
        leaders, lead = (seat,), hand
    else:
        c = compare(hand, lead)
        if c > 0:
            event = Rolled(seat, hand, "takes", leaders, Why("beats", hand, lead))
            leaders, lead = (seat,), hand
        elif c == 0:
            event = Rolled(seat, hand, "ties", leaders, Why("same", hand))
            leaders = leaders + (seat,)
        else:
            event = Rolled(seat, hand, "holds", leaders, Why("beats", lead, hand))
    state = replace(
        state,
        rng=rng,
        throws=state.throws + (throw,),
        round_throws=state.round_throws + (throw,),
        leaders=leaders,
        lead_hand=lead,
        events=state.events + (event,),
    )
    if len(state.throws) < len(state.order):
        return state
    return _end_pass(state)


def _end_pass(state: State) -> State:
    if len(state.leaders) == 1:
        return _win_round(state, state.leaders[0])
    lead = state.lead_hand
    assert lead is not None  # a pass ends with every seat's roll made
    if state.config.players == 2:
        # An absolute tie between the two players: the round is void.
        chips = tuple(c + (s or 0) for c, s in zip(state.chips, state.stakes))
        state = replace(
            state,
            chips=chips,
            voids=state.voids + 1,
            events=state.events + (Voided(state.leaders, lead),),
        )
        return _start_round(state, first=state.first, number=state.round)
    return replace(
        state,
        order=state.leaders,
        rolloff=state.rolloff + 1,
        throws=(),
        leaders=(),
        lead_hand=None,
        events=state.events + (RollOff(state.leaders, lead, state.rolloff + 1),),
    )


def settle(stakes: tuple[int | None, ...], winner: int) -> tuple[int, ...]:
    """What each seat gets back from the pot when ``winner`` takes it.

    The winner takes its own stake back and, from each loser, at most what it
    staked itself; a loser's excess goes back to the loser.
    """
    own = stakes[winner] or 0
    back = []
    for seat, s in enumerate(stakes):
        s = s or 0
        if seat == winner:
            back.append(own + sum(min(o or 0, own) for i, o in enumerate(stakes) if i != winner))
        else:
            back.append(max(0, s - own))
    return tuple(back)


def _win_round(state: State, winner: int) -> State:
    pot = state.pot
    payout = settle(state.stakes, winner) if pot else (0,) * state.config.players
    chips = tuple(c + p for c, p in zip(state.chips, payout))
    wins = tuple(w + (1 if i == winner else 0) for i, w in enumerate(state.wins))
    reason = _round_reason(state, winner)
    record = RoundResult(state.round, winner, state.round_throws, pot, payout, reason)
    gain = payout[winner] - (state.stakes[winner] or 0)
    events = state.events + (RoundWon(winner, state.round, gain, reason),)
    state = replace(state, chips=chips, wins=wins, history=state.history + (record,), events=events)
    if wins[winner] >= state.config.wins_needed:
        return replace(
            state,
            over=True,
            stakes=(None,) * state.config.players,
            events=state.events + (MatchWon(winner, wins[winner]),),
        )
    n = state.config.players
    first = (state.first + 1) % n if state.config.first_roller == "rotate" else state.first
    return _start_round(state, first=first)


def _round_reason(state: State, winner: int) -> Why:
    """Why the round went to ``winner``: its hand, and the rule that held."""
    hand = state.lead_hand
    assert hand is not None
    if state.rolloff:
        return Why("rolloff", hand)
    throws = state.throws
    if len(throws) == 2:
        loser = throws[0] if throws[1].seat == winner else throws[1]
        return Why("beats", hand, loser.dice)
    at = next(i for i, t in enumerate(throws) if t.seat == winner)
    if at == 0:
        return Why("led", hand)
    # The hand it took the lead from: the leader just before its roll.
    lead = throws[0].dice
    for t in throws[1:at]:
        if compare(t.dice, lead) > 0:
            lead = t.dice
    return Why("took" if at < len(throws) - 1 else "took-last", hand, lead)


# ---------------------------------------------------------------- narration


def summary(state: State, names: Sequence[str]) -> str:
    """Where the match stands, in one line (the menu's "Continue")."""
    wins = ", ".join(f"{n} {w}" for n, w in zip(names, state.wins))
    if state.over:
        played = len(state.history)
        return ngettext(
            "Over after {count} round: {wins}", "Over after {count} rounds: {wins}", played
        ).format(count=played, wins=wins)
    return _("Round {number} of a match to {target} wins: {wins}").format(
        number=state.round, target=state.config.wins_needed, wins=wins
    )


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event in words, for the log (every kind has its words: a new
    kind without them fails the type check, at ``assert_never``)."""
    match event:
        case RoundStarted(number, first):
            return _("Round {number}: {player} rolls first.").format(number=number, player=names[first])
        case Staked(seat, amount):
            return _("{player} stakes {amount}.").format(player=names[seat], amount=amount)
        case Rolled(seat, dice, verdict, leaders, reason):
            rolled = _("{player} rolls {hand}").format(player=names[seat], hand=describe(dice))
            others = words.joined([names[s] for s in leaders])
            if verdict == "leads":
                return _("{rolled} and leads.").format(rolled=rolled)
            if verdict == "takes":
                return _("{rolled} and takes the lead from {others} ({why}).").format(
                    rolled=rolled, others=others, why=reason
                )
            if verdict == "ties":
                return _("{rolled} and ties {others} ({why}).").format(
                    rolled=rolled, others=others, why=reason
                )
            return ngettext(
                "{rolled}; {others} keeps the lead ({why}).",
                "{rolled}; {others} keep the lead ({why}).",
                len(leaders),
            ).format(rolled=rolled, others=others, why=reason)
        case RollOff(seats, dice):
            tied = words.joined([names[s] for s in seats])
            return _("{players} share the lead with {hand}: roll-off!").format(
                players=tied, hand=describe(dice)
            )
        case Voided(_, dice):
            return _("Absolute tie, both {hand}: the round is void and replayed.").format(hand=show(dice))
        case RoundWon(seat, number, gain, reason):
            if gain:
                return _("{player} wins round {number}: {why}, and wins {chips}.").format(
                    player=names[seat], number=number, why=reason, chips=words.chips(gain)
                )
            return _("{player} wins round {number}: {why}.").format(
                player=names[seat], number=number, why=reason
            )
        case MatchWon(seat, rounds):
            return ngettext(
                "{player} wins the match with {count} round.",
                "{player} wins the match with {count} rounds.",
                rounds,
            ).format(player=names[seat], count=rounds)
        case _:
            assert_never(event)


# ---------------------------------------------------------------- variants

_STAKED = ("stakes", ("blind", "before-roll"))
VARIANTS = (
    Variant(
        "wins_needed",
        N_("Match to"),
        tuple(range(2, 8)),
        (N_("2 wins"), N_("3 wins"), N_("4 wins"), N_("5 wins"), N_("6 wins"), N_("7 wins")),
        help=N_("Round wins needed to take the match (the seed plays best of five: 3)."),
    ),
    Variant(
        "first_roller",
        N_("First roller"),
        FIRST_ROLLER,
        (N_("rotates"), N_("stays")),
        help=N_("Whether the first roller moves one seat on each round."),
    ),
    Variant(
        "stakes",
        N_("Stakes"),
        STAKE_MODES,
        (N_("off"), N_("blind"), N_("before roll")),
        help=N_(
            "Blind: everyone stakes before anyone rolls. Before roll: "
            "each stakes just before rolling, having seen the rolls before."
        ),
    ),
    Variant(
        "bankroll", N_("Bankroll"), (20, 50, 100, 200), needs=_STAKED, help=N_("Chips each seat starts with.")
    ),
    Variant(
        "stake_min",
        N_("Min stake"),
        (1, 2, 5, 10),
        needs=_STAKED,
        help=N_("Table minimum; a seat short of it stakes what it has."),
    ),
    Variant(
        "stake_max",
        N_("Max stake"),
        (5, 10, 20, 50),
        needs=_STAKED,
        help=N_("Table maximum for one seat's stake in a round."),
    ),
)
LEVELS = (N_("easy"), N_("hard"))
LEVELS_HELP = N_("Easy stakes by its chance alone; hard only when the bet is favourable.")


def levels_matter(config: Config) -> bool:
    """Rolling is forced: a computer seat has choices only with stakes."""
    return config.stakes != "off"


# ---------------------------------------------------------------- statistics

RECORDS = {"rounds_won": ("Most rounds won in a match", "max"), "net": ("Biggest net win (chips)", "max")}


def records(state: State, seat: int) -> dict[str, int]:
    out = {"rounds_won": state.wins[seat]}
    if state.config.stakes != "off":
        out["net"] = state.chips[seat] - state.config.bankroll
    return out
