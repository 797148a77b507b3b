"""Decimus as a state machine (the rules page, tui/rules/decimus.md).

A round: both roll five d6 in secret; the first player then the second
reroll chosen dice at most twice (``reroll 1 3 5``; rerolling nothing is
refused and spends nothing) or stand. Then the four games in order; for Un
en dous and Par con as each declares (truthfully: the showdown would tell)
whether they have a hand: neither, not scored; only one, 1 point at once;
both, betting. Betting, the first player speaking first, totals running per
player: pass (while nobody has bet; both pass: 1 point pending), bet/raise n
(your total becomes the rival's + n), see (the total is pending), fold (the
rival scores the folder's last total, or 1). Showdown: pending games to
their winners. The match ends after a showdown when someone has 30 or more
and the scores differ; the first player alternates each round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, assert_never

from ..dice import MT, RngState, new_stream, roll
from ..errors import IllegalAction
from ..i18n import N_, _, ngettext
from ..variants import RecordedConfig, Variant, view_of
from .rules import GAMES, TITLES, describe, hand_value, why, winner

DECLARED = ("un_en_dous", "par_con_as")
MAX_RAISE = 30  # a raise beyond the match's target is never needed
MAX_REROLLS = 2  # a seat's rerolls in a round; the second makes its dice final

Stage = Literal["roll", "bet", "over"]
"""Where a round stands: the dice being rerolled, a game being bet, or the match over."""
Dice = tuple[int, ...]


@dataclass(frozen=True)
class Config(RecordedConfig):
    GAME = "Decimus"
    players: int = 2
    target: int = 30

    def __post_init__(self) -> None:
        if self.players != 2:
            raise ValueError("Decimus is for two players")
        if self.target < 1:
            raise ValueError("the target is at least 1 point")


@dataclass(frozen=True)
class Action:
    """``reroll 1 3 5`` (dice counted from 1), ``stand``, ``pass``,
    ``bet N``, ``see`` or ``fold``."""

    kind: str
    dice: tuple[int, ...] = ()  # positions, 0-based
    amount: int = 0

    def __str__(self) -> str:
        if self.kind == "reroll":
            return "reroll " + " ".join(str(i + 1) for i in self.dice)
        if self.kind == "bet":
            return f"bet {self.amount}"
        return self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str):  # a record or a message may hold anything
            raise ValueError(f"Decimus actions are written as text, not {type(text).__name__}")
        parts = text.split()
        if parts in (["stand"], ["pass"], ["see"], ["fold"]):
            return cls(parts[0])
        if len(parts) == 2 and parts[0] == "bet" and parts[1].isdigit():
            return cls("bet", amount=int(parts[1]))
        if (
            parts
            and parts[0] == "reroll"
            and 2 <= len(parts) <= 6
            and all(p in "12345" and len(p) == 1 for p in parts[1:])
        ):
            positions = tuple(int(p) - 1 for p in parts[1:])
            if len(set(positions)) == len(positions) and list(positions) == sorted(positions):
                return cls("reroll", dice=positions)
        raise ValueError(f"not a Decimus action: {text!r}")


STAND = Action("stand")
PASS = Action("pass")
SEE = Action("see")
FOLD = Action("fold")


# ---------------------------------------------------------------- the story
# One class per kind of event (their names unique in the package: the wire
# decodes a state's values by class name); ``narrate`` has words for each.


@dataclass(frozen=True)
class RoundStarted:
    number: int
    first: int  # the seat that rerolls and speaks first


@dataclass(frozen=True)
class Rerolled:
    seat: int
    dice: tuple[int, ...]  # the positions rerolled, 0-based (how many is public)


@dataclass(frozen=True)
class Stood:
    seat: int


@dataclass(frozen=True)
class BettingOpened:
    game: str
    seat: int  # who speaks first


@dataclass(frozen=True)
class Declared:
    seat: int
    game: str
    has: bool  # whether the seat has a hand in the game (truthfully)


@dataclass(frozen=True)
class Unscored:
    game: str  # neither has a hand


@dataclass(frozen=True)
class PointAlone:
    seat: int
    game: str  # only this seat has a hand: 1 point at once


@dataclass(frozen=True)
class Passed:
    seat: int
    game: str


@dataclass(frozen=True)
class BetPlaced:
    seat: int
    game: str
    total: int  # the seat's total after the bet
    raised: bool  # on top of a bet already made


@dataclass(frozen=True)
class Saw:
    seat: int
    game: str
    total: int  # the total seen, pending to the showdown


@dataclass(frozen=True)
class Folded:
    seat: int
    game: str
    points: int  # what the rival scores


@dataclass(frozen=True)
class Pending:
    game: str
    points: int  # to the showdown's winner of the game


@dataclass(frozen=True)
class Showdown:
    hands: tuple[Dice, Dice]  # seat 0's dice, seat 1's


@dataclass(frozen=True)
class Settled:
    seat: int  # the game's winner
    game: str
    points: int
    won: Dice  # the winner's five dice
    lost: Dice  # the loser's


@dataclass(frozen=True)
class MatchWon:
    seat: int


Event = (
    RoundStarted
    | Rerolled
    | Stood
    | BettingOpened
    | Declared
    | Unscored
    | PointAlone
    | Passed
    | BetPlaced
    | Saw
    | Folded
    | Pending
    | Showdown
    | Settled
    | MatchWon
)


@dataclass(frozen=True)
class State:
    config: Config
    seed: int
    rng: RngState = field(repr=False)
    round: int
    first: int
    stage: Stage
    hands: tuple[Dice, Dice]
    rerolls: tuple[int, int]  # rerolls used this round (public)
    standing: tuple[bool, bool]
    game: int  # index into GAMES while betting
    speaker: int
    totals: tuple[int, int]
    bet_made: bool
    passes: int
    pending: tuple[tuple[str, int], ...]  # (game, points) to the showdown
    scores: tuple[int, int]
    winner_seat: int | None
    events: tuple[Event, ...]

    @property
    def over(self) -> bool:
        return self.stage == "over"


@dataclass(frozen=True)
class View:
    """One seat's view: its own dice, never the rival's before the showdown."""

    seat: int
    config: Config
    round: int
    first: int
    stage: Stage
    to_act: int | None
    dice: tuple[int, ...]
    rival_dice: tuple[int, ...] | None  # revealed only when the match is over
    rerolls: tuple[int, int]
    standing: tuple[bool, bool]
    game: str
    totals: tuple[int, int]
    bet_made: bool
    pending: tuple[tuple[str, int], ...]
    scores: tuple[int, int]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Result:
    winner: int
    scores: tuple[int, int]
    rounds: int


def new_game(config: Config, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> State:
    state = State(
        config=config,
        seed=seed,
        rng=new_stream(seed, dice, stream),
        round=0,
        first=0,
        stage="roll",
        hands=((), ()),
        rerolls=(0, 0),
        standing=(False, False),
        game=0,
        speaker=0,
        totals=(0, 0),
        bet_made=False,
        passes=0,
        pending=(),
        scores=(0, 0),
        winner_seat=None,
        events=(),
    )
    return _start_round(state, 0)


def _start_round(state: State, first: int) -> State:
    a, rng = roll(state.rng, 6, 5)
    b, rng = roll(rng, 6, 5)
    number = state.round + 1
    return replace(
        state,
        rng=rng,
        round=number,
        first=first,
        stage="roll",
        hands=(a, b),
        rerolls=(0, 0),
        standing=(False, False),
        game=0,
        pending=(),
        events=state.events + (RoundStarted(number, first),),
    )


def to_act(state: State) -> int | None:
    if state.stage == "roll":
        return state.first if not state.standing[state.first] else 1 - state.first
    if state.stage == "bet":
        return state.speaker
    return None


def legal_actions(state: State) -> list[Action]:
    if state.stage == "roll":
        seat = to_act(state)
        assert seat is not None
        acts = [STAND]
        if state.rerolls[seat] < MAX_REROLLS:
            acts += [
                Action("reroll", dice=tuple(i for i in range(5) if mask >> i & 1)) for mask in range(1, 32)
            ]
        return acts
    if state.stage == "bet":
        me, rival = state.speaker, 1 - state.speaker
        raises = [Action("bet", amount=n) for n in range(1, MAX_RAISE + 1)]
        if not state.bet_made:
            return [PASS] + raises
        if state.totals[rival] > state.totals[me]:
            return [SEE, FOLD] + raises
    return []


def _refusal(state: State, action: Action) -> IllegalAction | None:
    if state.stage == "over":
        return IllegalAction(_("The match is over."), action)
    if action in legal_actions(state):
        return None
    if state.stage == "roll":
        if action.kind == "reroll" and not action.dice:
            return IllegalAction(_("Choose the dice to reroll: rerolling nothing is not a reroll."), action)
        if action.kind == "reroll":
            return IllegalAction(_("Two rerolls at most: your dice are final."), action)
        return IllegalAction(_("First the dice: reroll or stand."), action)
    if action.kind == "pass":
        return IllegalAction(_("Pass only while nobody has bet: see, raise or fold."), action)
    if action.kind in ("see", "fold"):
        return IllegalAction(_("Nothing to see or fold: nobody has bet yet."), action)
    if action.kind == "bet":
        return IllegalAction(
            _("A bet or raise is 1–{most} more than the rival's total.").format(most=MAX_RAISE), action
        )
    return IllegalAction(_("It is the betting: pass, bet, see or fold."), action)


def apply(state: State, action: Action) -> State:
    refused = _refusal(state, action)
    if refused is not None:
        raise refused
    seat = to_act(state)
    assert seat is not None
    if state.stage == "roll":
        if action.kind == "stand":
            standing = list(state.standing)
            standing[seat] = True
            state = replace(state, standing=(standing[0], standing[1]), events=state.events + (Stood(seat),))
        else:
            fresh, rng = roll(state.rng, 6, len(action.dice))
            hand = list(state.hands[seat])
            for pos, v in zip(action.dice, fresh):
                hand[pos] = v
            hands = list(state.hands)
            hands[seat] = tuple(hand)
            used = list(state.rerolls)
            used[seat] += 1
            standing = list(state.standing)
            standing[seat] = used[seat] >= MAX_REROLLS  # the last reroll makes the dice final
            ev = Rerolled(seat, action.dice)
            state = replace(
                state,
                rng=rng,
                hands=(hands[0], hands[1]),
                rerolls=(used[0], used[1]),
                standing=(standing[0], standing[1]),
                events=state.events + (ev,),
            )
        if all(state.standing):
            return _open_game(state, 0)
        return state
    return _bet(state, seat, action)


def _open_game(state: State, index: int) -> State:
    """Betting on GAMES[index], after the declaration where there is one."""
    while index < len(GAMES):
        game = GAMES[index]
        if game in DECLARED:
            has = [hand_value(game, state.hands[s]) is not None for s in (0, 1)]
            events = state.events + tuple(Declared(s, game, has[s]) for s in (state.first, 1 - state.first))
            if not any(has):
                state = replace(state, events=events + (Unscored(game),))
                index += 1
                continue
            if has[0] != has[1]:
                seat = 0 if has[0] else 1
                scores = list(state.scores)
                scores[seat] += 1
                state = replace(
                    state,
                    scores=(scores[0], scores[1]),
                    events=events + (PointAlone(seat, game),),
                )
                index += 1
                continue
            state = replace(state, events=events)
        return replace(
            state,
            stage="bet",
            game=index,
            speaker=state.first,
            totals=(0, 0),
            bet_made=False,
            passes=0,
            events=state.events + (BettingOpened(game, state.first),),
        )
    return _showdown(state)


def _bet(state: State, seat: int, action: Action) -> State:
    game = GAMES[state.game]
    rival = 1 - seat
    if action.kind == "pass":
        state = replace(state, passes=state.passes + 1, events=state.events + (Passed(seat, game),))
        if state.passes == 2:
            return _pend(state, game, 1)
        return replace(state, speaker=rival)
    if action.kind == "bet":
        totals = list(state.totals)
        totals[seat] = state.totals[rival] + action.amount
        ev = BetPlaced(seat, game, totals[seat], state.bet_made)
        return replace(
            state, totals=(totals[0], totals[1]), bet_made=True, speaker=rival, events=state.events + (ev,)
        )
    if action.kind == "see":
        total = state.totals[rival]
        state = replace(state, events=state.events + (Saw(seat, game, total),))
        return _pend(state, game, total)
    # Fold: the rival scores the folder's last total, or 1.
    points = state.totals[seat] or 1
    scores = list(state.scores)
    scores[rival] += points
    state = replace(state, scores=(scores[0], scores[1]), events=state.events + (Folded(seat, game, points),))
    return _open_game(state, state.game + 1)


def _pend(state: State, game: str, points: int) -> State:
    state = replace(
        state,
        pending=state.pending + ((game, points),),
        events=state.events + (Pending(game, points),),
    )
    return _open_game(state, state.game + 1)


def _showdown(state: State) -> State:
    first, second = state.first, 1 - state.first
    events: tuple[Event, ...] = state.events + (Showdown(state.hands),)
    scores = list(state.scores)
    for game, points in state.pending:
        w = winner(game, state.hands[first], state.hands[second])
        seat = first if w == 0 else second
        scores[seat] += points
        events += (Settled(seat, game, points, state.hands[seat], state.hands[1 - seat]),)
    state = replace(state, scores=(scores[0], scores[1]), pending=(), events=events)
    target = state.config.target
    if max(scores) >= target and scores[0] != scores[1]:
        w = 0 if scores[0] > scores[1] else 1
        return replace(state, stage="over", winner_seat=w, events=state.events + (MatchWon(w),))
    return _start_round(state, 1 - state.first)


def round_events(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events of the latest round, from its ``RoundStarted`` on (what a
    screen shows of the round and what a computer seat reads of it)."""
    start = max((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), default=0)
    return tuple(events[start:])


def rerolls_left(state: State | View, seat: int) -> int:
    """The rerolls ``seat`` has left this round."""
    return MAX_REROLLS - state.rerolls[seat]


def is_over(state: State) -> bool:
    return state.stage == "over"


def result(state: State) -> Result | None:
    if state.stage != "over" or state.winner_seat is None:
        return None
    return Result(state.winner_seat, state.scores, state.round)


def view(state: State, seat: int) -> View:
    return view_of(
        View,
        state,
        seat=seat,
        to_act=to_act(state),
        dice=state.hands[seat],
        rival_dice=state.hands[1 - seat] if state.stage == "over" else None,
        game=GAMES[state.game] if state.stage == "bet" else "",
    )


def hide(state: State, seat: int | None) -> State:
    """The state as ``seat`` may hold it (None: a spectator): the rival's
    dice are blanks (0) until the match is over, as in ``view``."""
    if state.stage == "over":
        return state
    a, b = (h if i == seat else (0,) * len(h) for i, h in enumerate(state.hands))
    return replace(state, hands=(a, b))


def _points(n: int) -> str:
    return ngettext("{count} point", "{count} points", n).format(count=n)


def summary(state: State, names: Sequence[str]) -> str:
    score = f"{names[0]} {state.scores[0]}–{state.scores[1]} {names[1]}"
    if state.stage == "over":
        return ngettext(
            "Over after {count} round: {score}", "Over after {count} rounds: {score}", state.round
        ).format(count=state.round, score=score)
    return _("Round {number}, to {target}: {score}").format(
        number=state.round, target=state.config.target, score=score
    )


def narrate(event: Event, names: Sequence[str]) -> str:
    """One event in words, for the log (every kind has its words: a new
    kind without them fails the type check, at ``assert_never``)."""
    match event:
        case RoundStarted(number, first):
            return _("Round {number}: {name} is first.").format(number=number, name=names[first])
        case Rerolled(seat, dice):
            n = len(dice)
            return ngettext("{name} rerolls {count} die.", "{name} rerolls {count} dice.", n).format(
                name=names[seat], count=n
            )
        case Stood(seat):
            return _("{name} stands.").format(name=names[seat])
        case BettingOpened(game, seat):
            return _("{game}: {name} speaks first.").format(game=TITLES[game], name=names[seat])
        case Declared(seat, game, has):
            said = _("{game}: {name} has a hand.") if has else _("{game}: {name} has no hand.")
            return said.format(game=TITLES[game], name=names[seat])
        case Unscored(game):
            return _("{game}: neither has a hand, not scored.").format(game=TITLES[game])
        case PointAlone(seat, game):
            return _("{game}: only {name} has a hand and scores 1 point at once.").format(
                game=TITLES[game], name=names[seat]
            )
        case Passed(seat, _):
            return _("{name} passes.").format(name=names[seat])
        case BetPlaced(seat, _, total, raised):
            said = _("{name} raises to {total}.") if raised else _("{name} bets {total}.")
            return said.format(name=names[seat], total=total)
        case Saw(seat, _, total):
            return _("{name} sees {total}.").format(name=names[seat], total=total)
        case Folded(seat, _, points):
            return _("{name} folds: {other} scores {points}.").format(
                name=names[seat], other=names[1 - seat], points=_points(points)
            )
        case Pending(game, points):
            return _("{game}: {points} for the showdown.").format(game=TITLES[game], points=_points(points))
        case Showdown((a, b)):
            return _("Showdown: {first} {first_dice}, {second} {second_dice}.").format(
                first=names[0], first_dice=_faces(a), second=names[1], second_dice=_faces(b)
            )
        case Settled(seat, game, points, won, lost):
            said = (
                _("{game}: {name}'s {hand} ties {other}'s {other_hand} ({reason}); {name} takes {points}.")
                if hand_value(game, won) == hand_value(game, lost)
                else _(
                    "{game}: {name}'s {hand} beats {other}'s {other_hand} ({reason}); {name} takes {points}."
                )
            )
            return said.format(
                game=TITLES[game],
                name=names[seat],
                hand=describe(game, won, owned=True),
                other=names[1 - seat],
                other_hand=describe(game, lost, owned=True),
                reason=why(game, won, lost, True),
                points=_points(points),
            )
        case MatchWon(seat):
            return _("{name} wins the match.").format(name=names[seat])
        case _:
            assert_never(event)


def _faces(dice: Dice) -> str:
    return "-".join(map(str, sorted(dice, reverse=True)))


VARIANTS = (
    Variant(
        "target",
        N_("Match to"),
        (20, 30, 40),
        (N_("20 points"), N_("30 points"), N_("40 points")),
        help=N_("The match ends after a showdown where someone has this many points and leads."),
    ),
)
LEVELS = (N_("classic"), N_("strong"))
LEVELS_HELP = N_(
    "Classic is the original game's rival (sampled win rates, fixed thresholds); "
    "strong plays from exact odds, reads your rerolls and bets, and bluffs."
)


# ---------------------------------------------------------------- statistics

RECORDS = {"per_round": (N_("Points per round"), "mean")}


def records(state: State, seat: int) -> dict[str, float]:
    return {"per_round": round(state.scores[seat] / max(1, state.round), 2)}
