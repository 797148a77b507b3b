"""Red Man's Throw as a state machine (RULES.md §2).

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
* Both seats may predict. Each prediction settles as RULES.md says with the
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

from dataclasses import dataclass, field, replace

from .. import words
from ..dice import MT, RngState, new_stream, roll
from ..errors import IllegalAction
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

BETS = ("off", "stakes", "predictions")
FIRST_ROLLER = ("alternate", "fixed")
ROUNDS = 6
SALVATION = 7


@dataclass(frozen=True)
class Config(RecordedConfig):
    """Rule variants of RULES.md §2, with its defaults; ``chips`` and
    ``first`` carry a session on from one match to the next."""

    GAME = "Red Man's Throw"
    players: int = 2
    bets: str = "stakes"
    first_roller: str = "alternate"
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
        return tuple(self.chips) if self.chips else (self.bankroll, self.bankroll)  # type: ignore[return-value]


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


@dataclass(frozen=True)
class Event:
    """One line of the story. kind: ``round``, ``nostake``, ``propose``,
    ``accept``, ``raise``, ``roll``, ``tie``, ``rolloff``, ``won``,
    ``redman``, ``tip``, ``end`` (``redman-end`` when the Red Man took it)."""

    kind: str
    seat: int = -1
    dice: tuple[int, ...] = ()
    number: int = 0
    amount: int = 0
    prediction: str = ""
    reason: str = ""
    stake: int = 0
    score: tuple[int, ...] = ()  # round wins, for the match's end
    calls: tuple[tuple[int, str, bool], ...] = ()  # (seat, prediction, right) settled in a round


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
    reason: str
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
    stage: str  # stake | answer | roll | rolloff | salvation | hat | over
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
    stage: str
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
        if edition == 1:
            pots = sum(r.stake for r in ledger)
        else:
            pots = sum(r.paid[1 - red_man] for r in ledger)
        return (pots, -pots) if red_man == 0 else (-pots, pots)
    return (sum(r.net[0] for r in ledger), sum(r.net[1] for r in ledger))


def put_in(ledger: tuple[RoundResult, ...]) -> tuple[int, int]:
    """The chips each seat has put in so far: what a Red Man would take."""
    return (sum(r.paid[0] for r in ledger), sum(r.paid[1] for r in ledger))


def settle(
    stake: int, winner: int, predictions: tuple[str, str], right: tuple[bool | None, bool | None]
) -> tuple[int, int]:
    """Each seat's gain on a round (RULES.md §2): the loser pays the winner
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
    events = state.events + (Event("round", seat=first, number=number),)
    stage = "stake"
    if state.config.bets == "off":
        stage = "salvation" if number == SALVATION else "roll"
    elif stake_limits(replace(state, round=number)) is None:
        stage = "salvation" if number == SALVATION else "roll"
        events += (Event("nostake", number=number),)
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
        return 1 - state.red_man  # type: ignore[operator]
    return state.first  # stake, roll-off, Salvation


def phase(state: State) -> str:
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
        return IllegalAction("The match is over: no more moves.", action)
    if st == "hat":
        if action == TIP:
            return None
        return IllegalAction("The Red Man has spoken: the only answer is “I tip my hat”.", action)
    if action.kind == "tip":
        return IllegalAction("Only the loser to a Red Man tips their hat.", action)
    if st in ("stake", "answer"):
        if action.kind != "stake":
            return IllegalAction("Stakes first: both stake the same before the round is rolled.", action)
        r = stake_limits(state)
        assert r is not None
        if st == "answer":
            if action.amount == state.proposal or state.proposal < action.amount < r.stop:
                return None
            return IllegalAction(
                f"Match the proposed {state.proposal} or raise it once, up to {r.stop - 1}.", action
            )
        if action.amount in r:
            return None
        return IllegalAction(
            f"A stake must be {r.start}–{r.stop - 1} chips: the table limits, "
            "within what both of you can pay at worst.",
            action,
        )
    if action.kind == "stake":
        if state.config.bets == "off":
            return IllegalAction("Bets are off in this match.", action)
        return IllegalAction("The stake is set before anyone rolls.", action)
    if action.prediction:
        if state.config.bets != "predictions":
            return IllegalAction("Predictions are off in this match.", action)
        if st != "roll":
            return IllegalAction("No predictions for a single die: roll-offs and the Salvation.", action)
        if not is_prediction(action.prediction):
            return IllegalAction(f"{action.prediction!r} is not a hand to predict.", action)
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
            events=state.events + (Event("propose", seat=seat, amount=action.amount),),
        )
    if st == "answer":
        kind = "accept" if action.amount == state.proposal else "raise"
        return replace(
            state,
            stage="salvation" if state.round == SALVATION else "roll",
            stake=action.amount,
            events=state.events + (Event(kind, seat=seat, amount=action.amount),),
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
        events=state.events + (Event("roll", seat=seat, dice=faces, prediction=prediction),),
    )
    if hand == RED_MAN:
        return _red_man(state, seat)
    other = 1 - seat
    if state.hands[other] is None:
        return state
    c = compare(state.hands[0], state.hands[1])
    if c == 0:
        return replace(state, stage="rolloff", events=state.events + (Event("tie", dice=hand),))
    winner = 0 if c > 0 else 1
    won, lost = state.hands[winner], state.hands[1 - winner]
    return _win_round(state, winner, f"{show(won)} over {show(lost)}, {explain(won, lost)}")


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
        events=state.events + (Event("rolloff", dice=dice, number=state.round),),
    )
    if dice[0] == dice[1]:
        return state  # tied again: roll again
    winner = 0 if dice[0] > dice[1] else 1
    if state.stage == "salvation":
        reason = f"{dice[winner]} against {dice[1 - winner]}"
    else:
        hand = state.hands[0]
        assert hand is not None
        reason = f"both {show(hand)}, the roll-off {dice[winner]} against {dice[1 - winner]}"
    return _win_round(state, winner, reason)


def _win_round(state: State, winner: int, reason: str) -> State:
    edition = state.config.edition
    right = tuple(
        fulfils(h, p, edition) if p and h is not None else None
        for h, p in zip(state.hands, state.predictions)
    )
    right = (right[0], right[1])
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
        events=state.events
        + (
            Event(
                "won",
                seat=winner,
                number=state.round,
                amount=net[winner],
                stake=state.stake,
                reason=reason,
                calls=calls,
            ),
        ),
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
        "6-6-6, the Red Man",
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
        events=state.events + (Event("redman", seat=seat, number=state.round),),
    )


def _tip(state: State, seat: int) -> State:
    state = replace(state, events=state.events + (Event("tip", seat=seat),))
    return _end(state, 1 - seat)


def _end(state: State, winner: int) -> State:
    net = state.net
    end = Event("end", seat=winner, amount=net[winner], number=len(state.ledger), score=state.wins)
    if state.red_man is not None:
        end = replace(end, kind="redman-end")
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


def summary(state: State, names) -> str:
    score = f"{names[0]} {state.wins[0]}–{state.wins[1]} {names[1]}"
    if state.stage == "over":
        return f"Over after {len(state.ledger)} rounds: {score}"
    stage = "the Salvation" if state.round == SALVATION else f"round {state.round} of {ROUNDS}"
    return f"{stage[0].upper()}{stage[1:]}: {score}"


def narrate(event: Event, names) -> str:
    who = names[event.seat] if event.seat >= 0 else ""
    k = event.kind
    if k == "round":
        if event.number == SALVATION:
            return "3–3: round 7, the Salvation. One die each, rolled at once; the higher wins."
        return f"Round {event.number}: {who} rolls first."
    if k == "nostake":
        return "No stake this round: the chips cannot cover the table minimum."
    if k == "propose":
        return f"{who} proposes a stake of {event.amount}."
    if k == "accept":
        return f"{who} matches: {event.amount} each."
    if k == "raise":
        return f"{who} raises to {event.amount}; {names[1 - event.seat]} matches."
    if k == "roll":
        said = (
            f"{who} predicts {prediction_label(event.prediction)} and rolls"
            if event.prediction
            else f"{who} rolls"
        )
        return f"{said} {show(event.dice)}: {describe(event.dice)}."
    if k == "tie":
        return f"Both have {show(event.dice)}: a roll-off, one die each."
    if k == "rolloff":
        return f"{names[0]} throws {event.dice[0]}, {names[1]} throws {event.dice[1]}."
    if k == "won":
        what = "the Salvation" if event.number == SALVATION else f"round {event.number}"
        text = f"{who} wins {what}: {event.reason}."
        for seat, pred, right in event.calls:
            text += f" {names[seat]} predicted {prediction_label(pred)}: {'right' if right else 'wrong'}."
        if event.amount:
            text += f" {who} +{event.amount} on the ledger."
        elif event.stake:
            text += " A push: no chips change hands."
        return text
    if k == "redman":
        return f"6-6-6! {who}: “Looks like I'm the Red Man.”"
    if k == "tip":
        return f"{who}: “I tip my hat.”"
    if k == "end":
        pot = f" and {words.chips(event.amount)}" if event.amount > 0 else ""
        w = event.score
        return f"{who} wins the match {max(w)}–{min(w)}{pot}."
    if k == "redman-end":
        pot = f" and every pot, {words.chips(event.amount)}" if event.amount > 0 else ""
        return f"{who}, the Red Man, wins every round{pot}."
    return k


# ---------------------------------------------------------------- variants

_BETTING = ("bets", ("stakes", "predictions"))
VARIANTS = (
    Variant(
        "bets",
        "Bets",
        BETS,
        ("off", "stakes", "predictions"),
        help="Stakes: both stake the same each round, paid when the match ends. "
        "Predictions: also call your own hand before rolling.",
    ),
    Variant(
        "first_roller",
        "First roller",
        FIRST_ROLLER,
        ("alternates", "stays"),
        help="Rolling first matters only for 6-6-6: it ends the match before the rival rolls.",
    ),
    Variant("bankroll", "Bankroll", (20, 50, 100, 200), needs=_BETTING, help="Chips each seat starts with."),
    Variant("stake_min", "Min stake", (1, 2, 5, 10), needs=_BETTING, help="The table minimum for a round."),
    Variant(
        "stake_max",
        "Max stake",
        (5, 10, 20, 50),
        needs=_BETTING,
        help="The table maximum; a stake is also capped by what both can pay at worst.",
    ),
)
LEVELS = ("easy", "hard")
LEVELS_HELP = "Easy stakes on its match chances and predicts when behind; hard bets only on an edge."


def levels_matter(config: Config) -> bool:
    """Without bets every move is a forced roll."""
    return config.bets != "off"


# ---------------------------------------------------------------- statistics

RECORDS = {"red_man": ("Red Man appearances", "sum")}


def records(state: State, seat: int) -> dict[str, int]:
    return {"red_man": int(state.red_man == seat)}
