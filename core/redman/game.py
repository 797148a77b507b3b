"""Red Man's Throw as a state machine (the rules page: ``tui/rules/redman.md``).

A round: (with bets) the stake, proposed by the round's first roller and
matched or raised once by the other; then each rolls 3d6, a prediction of
their own hand said first when predictions are on. The better hand takes the
round; equal hands roll off one d6 each. Six rounds, the match ending as soon
as one seat leads by more rounds than are left; 3–3 goes to round 7, the
Salvation: one d6 each, rolled at once. 6-6-6 is the Red Man: the match and
every pot at once, and the loser must tip their hat before the result.

Chips stay on a ledger until the match ends (the Red Man may yet appear).
Decisions where the rules are silent, all in the README:

* The first roller alternates each round (variant: stays with the seat that
  began). Going first matters: a first-roll 6-6-6 ends the match before the
  rival rolls.
* A stake is capped so that each seat can pay its worst case from its
  bankroll: three stakes a round with predictions (its prediction wrong, the
  rival's right), and every stake of the match should the rival be the Red
  Man. If that cap is below the table minimum the round is played unstaked.
* Both seats may predict. Each prediction settles as the rules say with the
  other's effect added: a right prediction gains its maker one stake whatever
  happens, a wrong one costs its maker one stake only if the round is lost.
* The Salvation is staked like any round, without predictions (one die is not
  a hand).
* The Red Man voids the calls of his own round and takes every chip that
  entered any pot of the match: everything the rival put in (each round's
  stake, and what the rival paid on calls) is his, and nothing he put in is
  lost, so he never ends below what the ledger gave him.
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
from .rules import (
    EDITION,
    RED_MAN,
    Hand,
    compare,
    describe,
    explain,
    fulfils,
    is_prediction,
    prediction_label,
    show,
)
from .rules import sort as sort_hand

Bets = Literal["off", "stakes", "predictions"]
FirstRoller = Literal["alternate", "fixed"]
Stage = Literal["stake", "answer", "roll", "rolloff", "salvation", "hat", "over"]
"""Where a round stands: the first roller proposing a stake, the other
answering it, the hands being rolled, a roll-off of equal hands, the
Salvation's one die each, the Red Man waiting for the hat, or the match over."""

BETS: tuple[Bets, ...] = ("off", "stakes", "predictions")
FIRST_ROLLER: tuple[FirstRoller, ...] = ("alternate", "fixed")
ROUNDS = 6
SALVATION = 7


@dataclass(frozen=True)
class Config(RecordedConfig):
    """The rule variants, with their defaults; ``chips`` and
    ``first`` carry a session on from one match to the next."""

    GAME = "Red Man's Throw"
    players: int = 2
    bets: Bets = "stakes"
    first_roller: FirstRoller = "alternate"
    bankroll: int = 50
    stake_min: int = 1
    stake_max: int = 10
    chips: tuple[int, ...] = ()  # each seat's chips at the start; () = the bankroll
    first: int = 0  # the seat rolling first in round 1
    # The reading of the bets the match is played under: 2, the rules now
    # (a call is right when the hand fits its words; the Red Man takes every
    # chip the rival put in); 1, the first reading (a call judged by the
    # hand's class; the Red Man took the sum of the stakes), which records
    # made before the field existed were played under (``LEGACY``).
    edition: int = EDITION

    LEGACY = {"edition": 1}

    def __post_init__(self) -> None:
        if self.players != 2:
            raise ValueError("Red Man's Throw is for two players")
        if self.bets not in BETS:
            raise ValueError(f"bets are one of {', '.join(BETS)}")
        if self.first_roller not in FIRST_ROLLER:
            raise ValueError(f"the first roller is one of {', '.join(FIRST_ROLLER)}")
        if not 1 <= self.stake_min <= self.stake_max:
            raise ValueError("table limits need 1 ≤ minimum ≤ maximum")
        if self.bankroll < 1:
            raise ValueError("the bankroll must be at least 1 chip")
        if self.chips and (len(self.chips) != 2 or any(not isinstance(c, int) or c < 0 for c in self.chips)):
            raise ValueError("carried chips are two counts, none negative")
        if self.first not in (0, 1):
            raise ValueError("the first roller is seat 0 or 1")
        if self.edition not in (1, 2):
            raise ValueError("the edition of the rules is 1 or 2")

    @property
    def start_chips(self) -> tuple[int, int]:
        if self.bets == "off":
            return (0, 0)
        if self.chips:
            return (self.chips[0], self.chips[1])
        return (self.bankroll, self.bankroll)


@dataclass(frozen=True)
class Action:
    """``stake N``, ``roll``, ``roll PREDICTION`` (``roll straight``,
    ``roll 6-3-1``) or ``tip``. ``str()`` is the record notation."""

    kind: str  # "stake" | "roll" | "tip"
    amount: int = 0
    prediction: str = ""

    def __str__(self) -> str:
        if self.kind == "stake":
            return f"stake {self.amount}"
        if self.kind == "roll" and self.prediction:
            return f"roll {self.prediction}"
        return self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str):  # a record or a message may hold anything
            raise ValueError(f"Red Man's Throw actions are written as text, not {type(text).__name__}")
        parts = text.split()
        if parts in (["roll"], ["tip"]):
            return cls(parts[0])
        if len(parts) == 2 and parts[0] == "stake" and parts[1].isdigit():
            return cls("stake", int(parts[1]))
        if len(parts) == 2 and parts[0] == "roll" and is_prediction(parts[1]):
            return cls("roll", prediction=parts[1])
        raise ValueError(f"not a Red Man's Throw action: {text!r}")


ROLL = Action("roll")
TIP = Action("tip")


# ---------------------------------------------------------------- the story
# One class per kind of event (their names unique in the package: the wire
# decodes a state's values by class name); ``narrate`` has words for each.


WhyKind = Literal["beats", "salvation", "rolloff", "red-man"]


@dataclass(frozen=True)
class Why:
    """Why a round was won, kept as the dice that decided it and put in
    words as it is read: each player of a table reads their own language."""

    kind: WhyKind
    won: Hand | None = None  # the hands (beats; for a roll-off, the tied hand)
    lost: Hand | None = None
    high: int = 0  # the single dice of a roll-off or the Salvation
    low: int = 0

    def __str__(self) -> str:
        if self.kind == "beats":
            assert self.won is not None and self.lost is not None
            return _("{won} over {lost}, {why}").format(
                won=show(self.won), lost=show(self.lost), why=explain(self.won, self.lost)
            )
        if self.kind == "salvation":
            return _("{high} against {low}").format(high=self.high, low=self.low)
        if self.kind == "rolloff":
            assert self.won is not None
            return _("both {hand}, the roll-off {high} against {low}").format(
                hand=show(self.won), high=self.high, low=self.low
            )
        return _("6-6-6, the Red Man")


@dataclass(frozen=True)
class RoundStarted:
    number: int  # SALVATION for the Salvation
    first: int  # the seat that rolls first


@dataclass(frozen=True)
class NoStake:
    number: int  # the chips cannot cover the table minimum: played unstaked


@dataclass(frozen=True)
class Proposed:
    seat: int
    amount: int


@dataclass(frozen=True)
class Matched:
    seat: int
    amount: int


@dataclass(frozen=True)
class Raised:
    seat: int
    amount: int  # the rival matches it: a stake is raised once


@dataclass(frozen=True)
class Rolled:
    seat: int
    dice: tuple[int, ...]  # as they fell
    prediction: str = ""  # the call said first ("" for none)


@dataclass(frozen=True)
class Tied:
    hand: Hand  # both rolled it: a roll-off


@dataclass(frozen=True)
class RolledOff:
    dice: tuple[int, int]  # seat 0's die, seat 1's
    number: int  # the round (SALVATION for the Salvation)


@dataclass(frozen=True)
class RoundWon:
    seat: int
    number: int
    gain: int  # on the ledger for the winner
    stake: int
    reason: Why
    calls: tuple[tuple[int, str, bool], ...] = ()  # (seat, prediction, right) settled


@dataclass(frozen=True)
class RedManRolled:
    seat: int
    number: int


@dataclass(frozen=True)
class HatTipped:
    seat: int


@dataclass(frozen=True)
class MatchWon:
    seat: int
    gain: int  # what the ledger pays the winner
    rounds: int
    score: tuple[int, int]  # round wins


@dataclass(frozen=True)
class RedManWon:
    seat: int
    gain: int  # every chip the rival put in
    rounds: int
    score: tuple[int, int]


Event = (
    RoundStarted
    | NoStake
    | Proposed
    | Matched
    | Raised
    | Rolled
    | Tied
    | RolledOff
    | RoundWon
    | RedManRolled
    | HatTipped
    | MatchWon
    | RedManWon
)


@dataclass(frozen=True)
class RoundResult:
    """A line of the ledger."""

    number: int
    winner: int
    hands: tuple[Hand | None, Hand | None]
    rolloffs: tuple[tuple[int, int], ...]  # (seat 0's die, seat 1's die) per roll-off or Salvation throw
    stake: int
    predictions: tuple[str, str]
    right: tuple[bool | None, bool | None]  # each prediction's fate; None: none made (or void)
    net: tuple[int, int]  # chips each seat won on this round (paid at the end)
    reason: Why
    red_man: bool = False
    paid: tuple[int, int] = (0, 0)  # chips each seat put in: its stake and what it paid on calls

    @property
    def salvation(self) -> bool:
        return self.number == SALVATION


@dataclass(frozen=True)
class State:
    config: Config
    seed: int
    rng: RngState = field(repr=False)
    round: int
    first: int  # this round's first roller
    stage: Stage
    proposal: int
    stake: int
    predictions: tuple[str, str]
    hands: tuple[Hand | None, Hand | None]
    rolloffs: tuple[tuple[int, int], ...]
    wins: tuple[int, int]
    ledger: tuple[RoundResult, ...]
    red_man: int | None
    events: tuple[Event, ...]

    @property
    def over(self) -> bool:
        return self.stage == "over"

    @property
    def chips(self) -> tuple[int, int]:
        """Chips in hand (the ledger is paid only when the match ends)."""
        return self.config.start_chips

    @property
    def net(self) -> tuple[int, int]:
        """What each seat stands to collect as the ledger stands."""
        return ledger_net(self.ledger, self.red_man, self.config.edition)


@dataclass(frozen=True)
class View:
    """What one seat sees: everything but the dice stream and its seed."""

    seat: int
    config: Config
    round: int
    first: int
    stage: Stage
    to_act: int | None
    proposal: int
    stake: int
    limits: range | None
    predictions: tuple[str, str]
    hands: tuple[Hand | None, Hand | None]
    rolloffs: tuple[tuple[int, int], ...]
    wins: tuple[int, int]
    ledger: tuple[RoundResult, ...]
    red_man: int | None
    chips: tuple[int, int]
    net: tuple[int, int]
    events: tuple[Event, ...]

    @property
    def over(self) -> bool:
        return self.stage == "over"


@dataclass(frozen=True)
class Result:
    winner: int
    wins: tuple[int, int]  # the Red Man's are every round played
    net: tuple[int, int]
    chips: tuple[int, int]  # after paying the ledger
    rounds: int
    red_man: bool
    salvation: bool


# ---------------------------------------------------------------- chips


def ledger_net(
    ledger: tuple[RoundResult, ...], red_man: int | None, edition: int = EDITION
) -> tuple[int, int]:
    """What each seat collects as the ledger stands. After a Red Man: every
    chip the rival put in, nothing of his own lost (edition 1: the sum of
    the stakes)."""
    if red_man is not None:
        pots = sum(taken(r, red_man, edition) for r in ledger)
        return (pots, -pots) if red_man == 0 else (-pots, pots)
    return (sum(r.net[0] for r in ledger), sum(r.net[1] for r in ledger))


def taken(r: RoundResult, red_man: int | None, edition: int = EDITION) -> int:
    """What a round of the ledger brings the seat that takes it: the winner's
    gain; once a Red Man has come every round is his, and brings him every
    chip the rival put in on it (edition 1: its stake)."""
    if red_man is None:
        return r.net[r.winner]
    return r.stake if edition == 1 else r.paid[1 - red_man]


def put_in(ledger: tuple[RoundResult, ...]) -> tuple[int, int]:
    """The chips each seat has put in so far: what a Red Man would take."""
    return (sum(r.paid[0] for r in ledger), sum(r.paid[1] for r in ledger))


def settle(
    stake: int, winner: int, predictions: tuple[str, str], right: tuple[bool | None, bool | None]
) -> tuple[int, int]:
    """Each seat's gain on a round: the loser pays the winner
    one stake; a right prediction gains its maker one more stake, won or
    lost (won: the rival doubles; lost: a push); a wrong prediction costs
    its maker one more stake when the round is lost."""
    loser = 1 - winner
    gain = 1
    if right[winner]:
        gain += 1
    if right[loser]:
        gain -= 1
    if predictions[loser] and right[loser] is False:
        gain += 1
    out = [0, 0]
    out[winner], out[loser] = gain * stake, -gain * stake
    return out[0], out[1]


def paid(
    stake: int, winner: int, predictions: tuple[str, str], right: tuple[bool | None, bool | None]
) -> tuple[int, int]:
    """The chips each seat put in on a round: its stake, one stake more for
    each right call of the rival (won: it doubles; lost: it gives the
    caller back the stake), and one more for its own wrong call when it
    lost. A seat's net on the round (``settle``) is what came to it less
    what it put in: the pot of two stakes if it won, and the rival's
    payments beyond its stake."""
    out = [stake, stake]
    for seat in (0, 1):
        rival = 1 - seat
        if right[rival]:
            out[seat] += stake
        if predictions[seat] and right[seat] is False and winner == rival:
            out[seat] += stake
    return out[0], out[1]


def stake_limits(state: State | View) -> range | None:
    """The stakes allowed this round: the table limits, capped so both seats
    can pay their worst case; None when that is below the minimum."""
    cfg = state.config
    if cfg.bets == "off":
        return None
    worst = 3 if cfg.bets == "predictions" and state.round != SALVATION else 1
    chips = cfg.start_chips
    if cfg.edition == 1:
        staked = sum(r.stake for r in state.ledger)
        net = ledger_net(state.ledger, None)
        cap = min(
            cfg.stake_max,
            *((chips[p] + net[p]) // worst for p in (0, 1)),
            *(chips[p] - staked for p in (0, 1)),
        )
    else:
        # A round puts in at most ``worst`` stakes (its stake, the rival's
        # right call, one's own wrong call), and a Red Man, this round or
        # later, takes all that was put in: so both must be able to lose
        # everything they have put in. The ledger can cost no more than that.
        given = put_in(state.ledger)
        cap = min(cfg.stake_max, *((chips[p] - given[p]) // worst for p in (0, 1)))
    return range(cfg.stake_min, cap + 1) if cap >= cfg.stake_min else None


# ---------------------------------------------------------------- the machine


def new_game(config: Config, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> State:
    state = State(
        config=config,
        seed=seed,
        rng=new_stream(seed, dice, stream),
        round=0,
        first=config.first,
        stage="roll",
        proposal=0,
        stake=0,
        predictions=("", ""),
        hands=(None, None),
        rolloffs=(),
        wins=(0, 0),
        ledger=(),
        red_man=None,
        events=(),
    )
    return _start_round(state, 1)


def _first_roller(config: Config, number: int) -> int:
    if config.first_roller == "fixed":
        return config.first
    return (config.first + number - 1) % 2


def _start_round(state: State, number: int) -> State:
    first = _first_roller(state.config, number)
    events: tuple[Event, ...] = state.events + (RoundStarted(number, first),)
    stage: Stage = "stake"
    if state.config.bets == "off":
        stage = "salvation" if number == SALVATION else "roll"
    elif stake_limits(replace(state, round=number)) is None:
        stage = "salvation" if number == SALVATION else "roll"
        events += (NoStake(number),)
    return replace(
        state,
        round=number,
        first=first,
        stage=stage,
        proposal=0,
        stake=0,
        predictions=("", ""),
        hands=(None, None),
        rolloffs=(),
        events=events,
    )


def to_act(state: State) -> int | None:
    st = state.stage
    if st == "over":
        return None
    if st == "answer":
        return 1 - state.first
    if st == "roll":
        return state.first if state.hands[state.first] is None else 1 - state.first
    if st == "hat":
        assert state.red_man is not None  # the hat waits on the Red Man
        return 1 - state.red_man
    return state.first  # stake, roll-off, Salvation


def phase(state: State) -> Stage:
    return state.stage


def _predicting(state: State) -> bool:
    return state.config.bets == "predictions" and state.stage == "roll"


def legal_actions(state: State) -> list[Action]:
    st = state.stage
    if st in ("stake", "answer"):
        r = stake_limits(state)
        assert r is not None
        low = state.proposal if st == "answer" else r.start
        return [Action("stake", n) for n in range(low, r.stop)]
    if st == "roll" and _predicting(state):
        from .rules import PREDICTIONS

        return [ROLL] + [Action("roll", prediction=p) for p in PREDICTIONS]
    if st in ("roll", "rolloff", "salvation"):
        return [ROLL]
    if st == "hat":
        return [TIP]
    return []


def _refusal(state: State, action: Action) -> IllegalAction | None:
    """None when ``action`` is legal now, else the refusal naming the rule
    (checked directly: the list of legal moves has 68 rolls with predictions)."""
    st = state.stage
    if st == "over":
        return IllegalAction(_("The match is over: no more moves."), action)
    if st == "hat":
        if action == TIP:
            return None
        return IllegalAction(_("The Red Man has spoken: the only answer is “I tip my hat”."), action)
    if action.kind == "tip":
        return IllegalAction(_("Only the loser to a Red Man tips their hat."), action)
    if st in ("stake", "answer"):
        if action.kind != "stake":
            return IllegalAction(_("Stakes first: both stake the same before the round is rolled."), action)
        r = stake_limits(state)
        assert r is not None
        if st == "answer":
            if action.amount == state.proposal or state.proposal < action.amount < r.stop:
                return None
            return IllegalAction(
                _("Match the proposed {stake} or raise it once, up to {high}.").format(
                    stake=state.proposal, high=r.stop - 1
                ),
                action,
            )
        if action.amount in r:
            return None
        return IllegalAction(
            _(
                "A stake must be {low}–{high} chips: the table limits, "
                "within what both of you can pay at worst."
            ).format(low=r.start, high=r.stop - 1),
            action,
        )
    if action.kind == "stake":
        if state.config.bets == "off":
            return IllegalAction(_("Bets are off in this match."), action)
        return IllegalAction(_("The stake is set before anyone rolls."), action)
    if action.prediction:
        if state.config.bets != "predictions":
            return IllegalAction(_("Predictions are off in this match."), action)
        if st != "roll":
            return IllegalAction(_("No predictions for a single die: roll-offs and the Salvation."), action)
        if not is_prediction(action.prediction):
            return IllegalAction(
                _("{hand} is not a hand to predict.").format(hand=repr(action.prediction)), action
            )
    return None


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` naming the rule."""
    refused = _refusal(state, action)
    if refused is not None:
        raise refused
    seat = to_act(state)
    assert seat is not None
    st = state.stage
    if st == "stake":
        return replace(
            state,
            stage="answer",
            proposal=action.amount,
            events=state.events + (Proposed(seat, action.amount),),
        )
    if st == "answer":
        answer = Matched if action.amount == state.proposal else Raised
        return replace(
            state,
            stage="salvation" if state.round == SALVATION else "roll",
            stake=action.amount,
            events=state.events + (answer(seat, action.amount),),
        )
    if st == "roll":
        return _roll_hand(state, seat, action.prediction)
    if st in ("rolloff", "salvation"):
        return _roll_off(state)
    return _tip(state, seat)


def _roll_hand(state: State, seat: int, prediction: str) -> State:
    faces, rng = roll(state.rng, 6, 3)
    hand = sort_hand(faces)
    hands = list(state.hands)
    hands[seat] = hand
    preds = list(state.predictions)
    preds[seat] = prediction
    state = replace(
        state,
        rng=rng,
        hands=(hands[0], hands[1]),
        predictions=(preds[0], preds[1]),
        events=state.events + (Rolled(seat, faces, prediction),),
    )
    if hand == RED_MAN:
        return _red_man(state, seat)
    other = 1 - seat
    if state.hands[other] is None:
        return state
    h0, h1 = state.hands
    assert h0 is not None and h1 is not None  # both have rolled
    c = compare(h0, h1)
    if c == 0:
        return replace(state, stage="rolloff", events=state.events + (Tied(hand),))
    winner = 0 if c > 0 else 1
    won, lost = (h0, h1) if winner == 0 else (h1, h0)
    return _win_round(state, winner, Why("beats", won, lost))


def _roll_off(state: State) -> State:
    """One d6 each, the first roller's first: a roll-off or the Salvation."""
    faces, rng = roll(state.rng, 6, 2)
    pair = [0, 0]
    pair[state.first], pair[1 - state.first] = faces
    dice = (pair[0], pair[1])
    state = replace(
        state,
        rng=rng,
        rolloffs=state.rolloffs + (dice,),
        events=state.events + (RolledOff(dice, state.round),),
    )
    if dice[0] == dice[1]:
        return state  # tied again: roll again
    winner = 0 if dice[0] > dice[1] else 1
    if state.stage == "salvation":
        reason = Why("salvation", high=dice[winner], low=dice[1 - winner])
    else:
        hand = state.hands[0]
        assert hand is not None
        reason = Why("rolloff", hand, high=dice[winner], low=dice[1 - winner])
    return _win_round(state, winner, reason)


def _win_round(state: State, winner: int, reason: Why) -> State:
    edition = state.config.edition
    fates = [
        fulfils(h, p, edition) if p and h is not None else None
        for h, p in zip(state.hands, state.predictions)
    ]
    right = (fates[0], fates[1])
    net = settle(state.stake, winner, state.predictions, right)
    record = RoundResult(
        state.round,
        winner,
        state.hands,
        state.rolloffs,
        state.stake,
        state.predictions,
        right,
        net,
        reason,
        paid=paid(state.stake, winner, state.predictions, right),
    )
    wins = list(state.wins)
    wins[winner] += 1
    calls = tuple((s, p, bool(r)) for s, (p, r) in enumerate(zip(state.predictions, right)) if p)
    state = replace(
        state,
        wins=(wins[0], wins[1]),
        ledger=state.ledger + (record,),
        events=state.events + (RoundWon(winner, state.round, net[winner], state.stake, reason, calls),),
    )
    left = ROUNDS - state.round
    if state.round == SALVATION or abs(wins[0] - wins[1]) > left:
        return _end(state, winner)
    if state.round == ROUNDS:  # 3–3: the Salvation
        return _start_round(state, SALVATION)
    return _start_round(state, state.round + 1)


def _red_man(state: State, seat: int) -> State:
    """6-6-6: the round, the match and every pot; this round's calls void."""
    record = RoundResult(
        state.round,
        seat,
        state.hands,
        (),
        state.stake,
        state.predictions,
        (None, None),
        (state.stake, -state.stake) if seat == 0 else (-state.stake, state.stake),
        Why("red-man"),
        red_man=True,
        paid=(state.stake, state.stake),
    )
    wins = list(state.wins)
    wins[seat] += 1
    return replace(
        state,
        stage="hat",
        wins=(wins[0], wins[1]),
        ledger=state.ledger + (record,),
        red_man=seat,
        events=state.events + (RedManRolled(seat, state.round),),
    )


def _tip(state: State, seat: int) -> State:
    state = replace(state, events=state.events + (HatTipped(seat),))
    return _end(state, 1 - seat)


def _end(state: State, winner: int) -> State:
    net = state.net
    won = MatchWon if state.red_man is None else RedManWon
    end = won(winner, net[winner], len(state.ledger), state.wins)
    return replace(state, stage="over", events=state.events + (end,))


def is_over(state: State) -> bool:
    return state.stage == "over"


def result(state: State) -> Result | None:
    if state.stage != "over":
        return None
    last = state.ledger[-1]
    rounds = len(state.ledger)
    if state.red_man is not None:
        winner = state.red_man
        wins = (rounds, 0) if winner == 0 else (0, rounds)
    else:
        winner = last.winner
        wins = state.wins
    net = state.net
    chips = state.chips
    return Result(
        winner=winner,
        wins=wins,
        net=net,
        chips=(chips[0] + net[0], chips[1] + net[1]) if state.config.bets != "off" else (0, 0),
        rounds=rounds,
        red_man=state.red_man is not None,
        salvation=last.salvation,
    )


def view(state: State, seat: int) -> View:
    limits = stake_limits(state) if state.stage in ("stake", "answer") else None
    return view_of(View, state, seat=seat, to_act=to_act(state), limits=limits)


def next_match(config: Config, res: Result) -> Config:
    """The rematch in a session: chips carried over, the other seat first.
    When a seat cannot cover the table minimum, the session starts afresh."""
    if config.bets == "off":
        return replace(config, first=1 - config.first)
    carried = res.chips if min(res.chips) >= config.stake_min else ()
    return replace(config, chips=tuple(carried), first=1 - config.first)


# ---------------------------------------------------------------- narration


def summary(state: State, names: Sequence[str]) -> str:
    score = f"{names[0]} {state.wins[0]}–{state.wins[1]} {names[1]}"
    if state.stage == "over":
        played = len(state.ledger)
        return ngettext(
            "Over after {count} round: {wins}", "Over after {count} rounds: {wins}", played
        ).format(count=played, wins=score)
    if state.round == SALVATION:
        return _("The Salvation: {score}").format(score=score)
    return _("Round {number} of {rounds}: {score}").format(number=state.round, rounds=ROUNDS, score=score)


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event in words, for the log (every kind has its words: a new
    kind without them fails the type check, at ``assert_never``)."""
    match event:
        case RoundStarted(number, first):
            if number == SALVATION:
                return _("3–3: round 7, the Salvation. One die each, rolled at once; the higher wins.")
            return _("Round {number}: {player} rolls first.").format(number=number, player=names[first])
        case NoStake():
            return _("No stake this round: the chips cannot cover the table minimum.")
        case Proposed(seat, amount):
            return _("{player} proposes a stake of {amount}.").format(player=names[seat], amount=amount)
        case Matched(seat, amount):
            return _("{player} matches: {amount} each.").format(player=names[seat], amount=amount)
        case Raised(seat, amount):
            return _("{player} raises to {amount}; {rival} matches.").format(
                player=names[seat], amount=amount, rival=names[1 - seat]
            )
        case Rolled(seat, dice, prediction):
            who = names[seat]
            if prediction:
                return _("{player} predicts {call} and rolls {dice}: {hand}.").format(
                    player=who, call=prediction_label(prediction), dice=show(dice), hand=describe(dice)
                )
            return _("{player} rolls {dice}: {hand}.").format(
                player=who, dice=show(dice), hand=describe(dice)
            )
        case Tied(hand):
            return _("Both have {hand}: a roll-off, one die each.").format(hand=show(hand))
        case RolledOff(dice):
            return _("{first} throws {a}, {second} throws {b}.").format(
                first=names[0], a=dice[0], second=names[1], b=dice[1]
            )
        case RoundWon(seat, number, gain, stake, reason, calls):
            who = names[seat]
            if number == SALVATION:
                text = _("{player} wins the Salvation: {why}.").format(player=who, why=reason)
            else:
                text = _("{player} wins round {number}: {why}.").format(player=who, number=number, why=reason)
            for caller, pred, right in calls:
                said = (
                    _("{player} predicted {call}: right.")
                    if right
                    else _("{player} predicted {call}: wrong.")
                )
                text += " " + said.format(player=names[caller], call=prediction_label(pred))
            if gain:
                text += " " + _("{player} +{gain} on the ledger.").format(player=who, gain=gain)
            elif stake:
                text += " " + _("A push: no chips change hands.")
            return text
        case RedManRolled(seat):
            return _("6-6-6! {player}: “Looks like I'm the Red Man.”").format(player=names[seat])
        case HatTipped(seat):
            return _("{player}: “I tip my hat.”").format(player=names[seat])
        case MatchWon(seat, gain, _rounds, score):
            if gain > 0:
                return _("{player} wins the match {high}–{low} and {chips}.").format(
                    player=names[seat], high=max(score), low=min(score), chips=words.chips(gain)
                )
            return _("{player} wins the match {high}–{low}.").format(
                player=names[seat], high=max(score), low=min(score)
            )
        case RedManWon(seat, gain):
            if gain > 0:
                return _("{player}, the Red Man, wins every round and every pot, {chips}.").format(
                    player=names[seat], chips=words.chips(gain)
                )
            return _("{player}, the Red Man, wins every round.").format(player=names[seat])
        case _:
            assert_never(event)


# ---------------------------------------------------------------- variants

_BETTING = ("bets", ("stakes", "predictions"))
VARIANTS = (
    Variant(
        "bets",
        N_("Bets"),
        BETS,
        (N_("off"), N_("stakes"), N_("predictions")),
        help=N_(
            "Stakes: both stake the same each round, paid when the match ends. "
            "Predictions: also call your own hand before rolling."
        ),
    ),
    Variant(
        "first_roller",
        N_("First roller"),
        FIRST_ROLLER,
        (N_("rotates"), N_("stays")),  # Gemelos's word: with two seats, rotating is alternating
        help=N_("Rolling first matters only for 6-6-6: it ends the match before the rival rolls."),
    ),
    Variant(
        "bankroll",
        N_("Bankroll"),
        (20, 50, 100, 200),
        needs=_BETTING,
        help=N_("Chips each seat starts with."),
    ),
    Variant(
        "stake_min", N_("Min stake"), (1, 2, 5, 10), needs=_BETTING, help=N_("The table minimum for a round.")
    ),
    Variant(
        "stake_max",
        N_("Max stake"),
        (5, 10, 20, 50),
        needs=_BETTING,
        help=N_("The table maximum; a stake is also capped by what both can pay at worst."),
    ),
)
LEVELS = (N_("easy"), N_("hard"))
LEVELS_HELP = N_("Easy stakes on its match chances and predicts when behind; hard bets only on an edge.")


def levels_matter(config: Config) -> bool:
    """Without bets every move is a forced roll."""
    return config.bets != "off"


# ---------------------------------------------------------------- statistics

RECORDS = {"red_man": ("Red Man appearances", "sum")}


def records(state: State, seat: int) -> dict[str, int]:
    return {"red_man": int(state.red_man == seat)}
