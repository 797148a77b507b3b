"""Willie as a state machine (the rules page, tui/rules/willie.md).

A round: the dealer deals (12 cards each for two, 10 for three, or the
variant), the player left of the dealer starts. A turn: the first card is
drawn at once; the player melds (``meld`` with the whole new table) or
passes, which draws a second card; again, and the third draw ends the turn
with no meld. After any turn a player with few enough hand points may
``close`` (the round ends and is scored) or ``continue``. When a draw takes
the pile's last card, the turn goes on without further draws; then every
player, the next one first and the drawer last, has one more turn with no
draw, and the round ends. The match ends after the round in which someone
reaches the target.

The meld move is open-ended (any legal rearrangement of the table), so
``legal_actions`` lists the fixed moves and ``OPEN_ACTIONS`` names the kind
it cannot list; ``apply`` checks a ``meld`` against the rules
(``rules.play_problem``) and refuses it, untouched, naming the rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, assert_never

from ..dice import MT, RngState, generator, new_stream
from ..errors import IllegalAction
from ..i18n import N_, _, ngettext
from ..variants import RecordedConfig, Variant, view_of
from .cards import deck, parse, points, sort_hand, sort_key
from .melds import kind
from .rules import RoundScore, match_bonuses, play_problem, score_round

OPEN_ACTIONS = ("meld",)
Wilds = Literal["open", "strict"]
WILDS: tuple[Wilds, ...] = ("open", "strict")
Stage = Literal["meld", "close", "over"]
"""Where a turn stands: melding (or passing, which draws), the choice to
close after it, or the match over."""


@dataclass(frozen=True)
class Config(RecordedConfig):
    GAME = "Willie"
    players: int = 2
    hand_size: int = 0  # 0: 12 cards for two players, 10 for three
    group_max: int = 4
    close_at: int = 3
    target: int = 25
    # The table screen's arrange and hint keys, for learning; off by default
    # (with them a first match can be won in one turn). Not a rule of play:
    # kept with the match so its record says how it was played.
    helpers: bool = False
    # "open": a wild may stand for a card also on the table, in another meld
    # (the rules as read now); "strict": never (the first reading, which
    # records made before the field existed were played under).
    wilds: Wilds = "open"

    LEGACY = {"wilds": "strict", "helpers": True}

    def __post_init__(self) -> None:
        if self.players not in (2, 3):
            raise ValueError("Willie is for 2 or 3 players")
        if self.hand_size and not 8 <= self.hand_size <= 12:
            raise ValueError("a hand is 8 to 12 cards")
        if self.group_max not in (4, 5):
            raise ValueError("a group has at most 4 cards, or 5 as a variant")
        if not 0 <= self.close_at <= 10:
            raise ValueError("closing is allowed at 0 to 10 hand points")
        if self.target < 1:
            raise ValueError("the target is at least 1 point")
        if self.wilds not in WILDS:
            raise ValueError(f"wilds are one of {', '.join(WILDS)}")

    @property
    def strict(self) -> bool:
        """The variant where a wild may not stand for a card on the table."""
        return self.wilds == "strict"

    @property
    def cards_dealt(self) -> int:
        return self.hand_size or (12 if self.players == 2 else 10)


def _cut(text: str) -> tuple[tuple[str, ...], ...]:
    melds = []
    for part in text.split("|"):
        cards = part.split()
        if not cards:
            raise ValueError("an empty meld")
        for c in cards:
            parse(c)
        melds.append(tuple(cards))
    return tuple(melds)


@dataclass(frozen=True)
class Action:
    """``meld 7r 8r 9r | J=5r 5g 5b`` (the whole table after the play, melds
    split by ``|``), ``pass``, ``close`` or ``continue``."""

    kind: str
    table: tuple[tuple[str, ...], ...] = ()

    def __str__(self) -> str:
        if self.kind == "meld":
            return "meld " + " | ".join(" ".join(m) for m in self.table)
        return self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str):  # a record or a message may hold anything
            raise ValueError(f"Willie actions are written as text, not {type(text).__name__}")
        words = text.split(maxsplit=1)
        if words in (["pass"], ["close"], ["continue"]):
            return cls(words[0])
        if len(words) == 2 and words[0] == "meld":
            try:
                return cls("meld", _cut(words[1]))
            except ValueError as e:
                raise ValueError(f"not a Willie action: {text!r} ({e})") from None
        raise ValueError(f"not a Willie action: {text!r}")


PASS = Action("pass")
CLOSE = Action("close")
CONTINUE = Action("continue")


def meld(table: Iterable[Iterable[str]]) -> Action:
    """The meld action that leaves ``table`` (melds of cards) on the table."""
    return Action("meld", tuple(tuple(m) for m in table))


# ---------------------------------------------------------------- the story
# One class per kind of event (their names unique in the package: the wire
# decodes a state's values by class name); ``narrate`` has words for each.


@dataclass(frozen=True)
class Dealt:
    number: int  # the round
    dealer: int


@dataclass(frozen=True)
class Drew:
    seat: int
    nth: int  # the turn's first, second or third card


@dataclass(frozen=True)
class Melded:
    seat: int
    cards: tuple[str, ...]  # the cards played from the hand
    points: int  # their hand points


@dataclass(frozen=True)
class Passed:
    seat: int


@dataclass(frozen=True)
class NoMeld:
    seat: int  # drew three cards: the turn ends with no meld


@dataclass(frozen=True)
class PileOut:
    seat: int  # drew the pile's last card


@dataclass(frozen=True)
class Closed:
    seat: int
    points: int  # its hand points


@dataclass(frozen=True)
class RoundScored:
    score: RoundScore  # each seat's hand points, the winners, the points and their parts
    hands: tuple[tuple[str, ...], ...]  # the cards left in each hand, shown


@dataclass(frozen=True)
class Bonuses:
    deltas: tuple[int, ...]  # the match's end bonuses, a seat each


@dataclass(frozen=True)
class MatchEnded:
    winner: int | None  # None: equal totals, a draw


Event = Dealt | Drew | Melded | Passed | NoMeld | PileOut | Closed | RoundScored | Bonuses | MatchEnded


@dataclass(frozen=True)
class State:
    config: Config
    seed: int
    rng: RngState = field(repr=False)
    round: int
    dealer: int
    stage: Stage
    turn: int
    draws: int  # cards drawn this turn (0 in the last turns)
    hands: tuple[tuple[str, ...], ...]
    table: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...] = field(repr=False)
    last_turns: int | None  # turns left once the pile is out
    scores: tuple[int, ...]
    rounds_won: tuple[int, ...]
    winner_seat: int | None
    events: tuple[Event, ...]

    @property
    def over(self) -> bool:
        return self.stage == "over"

    @property
    def pile_count(self) -> int:
        return len(self.pile)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self.hands)


@dataclass(frozen=True)
class View:
    """One seat's view: its own hand, the table, how many cards the others
    hold and the pile has, never which."""

    seat: int
    config: Config
    round: int
    dealer: int
    stage: Stage
    to_act: int | None
    draws: int
    hand: tuple[str, ...]
    table: tuple[tuple[str, ...], ...]
    pile_count: int
    hand_sizes: tuple[int, ...]
    last_turns: int | None
    scores: tuple[int, ...]
    rounds_won: tuple[int, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Result:
    winner: int | None  # None: equal totals, a draw
    scores: tuple[int, ...]
    rounds: int


def new_game(config: Config, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> State:
    if dice:
        raise ValueError("Willie is played with cards: a record of dice does not fit it")
    r = generator(new_stream(seed, stream=stream))
    dealer = r.randrange(config.players)
    n = config.players
    state = State(
        config=config,
        seed=seed,
        rng=r.getstate(),
        round=0,
        dealer=(dealer - 1) % n,  # _deal moves the deal on by one
        stage="meld",
        turn=0,
        draws=0,
        hands=((),) * n,
        table=(),
        pile=(),
        last_turns=None,
        scores=(0,) * n,
        rounds_won=(0,) * n,
        winner_seat=None,
        events=(),
    )
    return _deal(state)


def _deal(state: State) -> State:
    n = state.config.players
    dealer = (state.dealer + 1) % n
    r = generator(state.rng)
    cards = list(deck())
    r.shuffle(cards)
    size = state.config.cards_dealt
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(size * n):  # one at a time, from the dealer's left
        hands[(dealer + 1 + i) % n].append(cards[i])
    pile = tuple(cards[size * n :])
    state = replace(
        state,
        rng=r.getstate(),
        round=state.round + 1,
        dealer=dealer,
        hands=tuple(sort_hand(h) for h in hands),
        table=(),
        pile=pile,
        last_turns=None,
        events=state.events + (Dealt(state.round + 1, dealer),),
    )
    return _start_turn(state, (dealer + 1) % n)


def _start_turn(state: State, seat: int) -> State:
    state = replace(state, stage="meld", turn=seat, draws=0)
    if state.last_turns is None:
        return _draw(state)
    return state


def _draw(state: State) -> State:
    """The player to move draws the pile's top card."""
    seat = state.turn
    card, pile = state.pile[-1], state.pile[:-1]
    hands = list(state.hands)
    hands[seat] = sort_hand(hands[seat] + (card,))
    events: tuple[Event, ...] = (Drew(seat, state.draws + 1),)
    if not pile:
        events += (PileOut(seat),)
    return replace(state, hands=tuple(hands), pile=pile, draws=state.draws + 1, events=state.events + events)


def to_act(state: State) -> int | None:
    return None if state.stage == "over" else state.turn


def legal_actions(state: State) -> list[Action]:
    """The fixed moves; a ``meld`` is also legal in the ``meld`` stage when
    the rules accept its table (see ``OPEN_ACTIONS``)."""
    if state.stage == "meld":
        return [PASS]
    if state.stage == "close":
        return [CLOSE, CONTINUE]
    return []


def can_close(state: State, seat: int) -> bool:
    return points(state.hands[seat]) <= state.config.close_at


def _refusal(state: State, action: Action) -> IllegalAction | None:
    if state.stage == "over":
        return IllegalAction(_("The match is over."), action)
    if state.stage == "close":
        if action.kind in ("close", "continue"):
            return None
        return IllegalAction(_("Your turn is over: close the round or continue."), action)
    if action.kind == "pass":
        return None
    if action.kind != "meld":
        return IllegalAction(_("Closing comes after your turn: meld or pass first."), action)
    cfg = state.config
    problem = play_problem(state.table, state.hands[state.turn], action.table, cfg.group_max, cfg.strict)
    if problem:
        return IllegalAction(problem, action)
    return None


def apply(state: State, action: Action) -> State:
    refused = _refusal(state, action)
    if refused is not None:
        raise refused
    seat = state.turn
    if action.kind == "close":
        ev = Closed(seat, points(state.hands[seat]))
        return _end_round(replace(state, events=state.events + (ev,)), closer=seat)
    if action.kind == "continue":
        return _next_turn(state)
    if action.kind == "pass":
        state = replace(state, events=state.events + (Passed(seat),))
        if state.last_turns is None and state.pile and state.draws < 3:
            state = _draw(state)
            if state.draws == 3:
                state = replace(state, events=state.events + (NoMeld(seat),))
                return _end_turn(state)
            return state
        return _end_turn(state)
    # a meld
    before = Counter(parse(c).physical for m in state.table for c in m)
    after = Counter(parse(c).physical for m in action.table for c in m)
    played = after - before
    hand = Counter(state.hands[seat]) - played
    hands = list(state.hands)
    hands[seat] = sort_hand(hand.elements())
    from_hand = sort_hand(played.elements())
    melded = Melded(seat, from_hand, points(from_hand))
    state = replace(
        state,
        hands=tuple(hands),
        table=tuple(_tidy(m) for m in action.table),
        events=state.events + (melded,),
    )
    return _end_turn(state)


def _tidy(meld: Sequence[str]) -> tuple[str, ...]:
    """A meld in reading order: a run by rank, a group by suit, a Willie J Q K."""
    if kind(meld) == "run":
        return tuple(sorted(meld, key=lambda c: parse(c).rank))
    return tuple(sorted(meld, key=sort_key))


def _end_turn(state: State) -> State:
    if can_close(state, state.turn):
        return replace(state, stage="close")
    return _next_turn(state)


def _next_turn(state: State) -> State:
    n = state.config.players
    nxt = (state.turn + 1) % n
    last = state.last_turns
    if last is None:
        if state.pile:
            return _start_turn(state, nxt)
        last = n  # the pile ran out this turn: everyone, its drawer last, once more
    else:
        last -= 1  # one of the last turns was played
        if last == 0:
            return _end_round(replace(state, last_turns=0), closer=None)
    return _start_turn(replace(state, last_turns=last), nxt)


def _end_round(state: State, closer: int | None) -> State:
    score = score_round(state.hands, closer)
    totals = tuple(a + b for a, b in zip(state.scores, score.scores))
    won = tuple(w + (i in score.winners) for i, w in enumerate(state.rounds_won))
    ev = RoundScored(score, state.hands)
    state = replace(state, scores=totals, rounds_won=won, events=state.events + (ev,))
    target = state.config.target
    if max(totals) < target:
        return _deal(state)
    bonus = match_bonuses(totals, won, target)
    final = tuple(a + b for a, b in zip(totals, bonus))
    top = max(final)
    leaders = [i for i, t in enumerate(final) if t == top]
    winner = leaders[0] if len(leaders) == 1 else None
    events = (Bonuses(bonus), MatchEnded(winner))
    return replace(state, stage="over", scores=final, winner_seat=winner, events=state.events + events)


def round_scored(before: State, after: State) -> RoundScored | None:
    """The score of the round the move from ``before`` to ``after`` ended,
    if it ended one."""
    return next((e for e in after.events[len(before.events) :] if isinstance(e, RoundScored)), None)


def ended_round(before: State, action: Action, after: State) -> State | None:
    """The round ``action`` ended, as it stood when scored: the table as the
    move left it, every hand shown, the totals and rounds won after its
    score, the story up to the score (not the next deal); None if the move
    ended no round. What a table shows under the round's result."""
    new = after.events[len(before.events) :]
    score = next((e for e in new if isinstance(e, RoundScored)), None)
    if score is None:
        return None
    upto = len(before.events) + new.index(score) + 1
    events = after.events[:upto]
    scored = [e.score.scores for e in events if isinstance(e, RoundScored)]
    totals = tuple(sum(seat) for seat in zip(*scored))
    won = tuple(w + (i in score.score.winners) for i, w in enumerate(before.rounds_won))
    table = action.table if action.kind == "meld" else before.table
    return replace(
        before, table=table, hands=score.hands, stage="over", scores=totals, rounds_won=won, events=events
    )


def is_over(state: State) -> bool:
    return state.stage == "over"


def result(state: State) -> Result | None:
    if state.stage != "over":
        return None
    return Result(state.winner_seat, state.scores, state.round)


def view(state: State, seat: int) -> View:
    return view_of(View, state, seat=seat, to_act=to_act(state), hand=state.hands[seat])


HIDDEN = "?"  # a card a seat may not see


def hide(state: State, seat: int | None) -> State:
    """The state as ``seat`` may hold it (None: a spectator): the other
    hands and the pile become face-down cards, so only their sizes show."""
    hands = tuple(h if i == seat else (HIDDEN,) * len(h) for i, h in enumerate(state.hands))
    return replace(state, hands=hands, pile=(HIDDEN,) * len(state.pile))


def _points(n: int) -> str:
    return ngettext("{count} point", "{count} points", n).format(count=n)


def summary(state: State, names: Sequence[str]) -> str:
    score = " · ".join(f"{n} {s}" for n, s in zip(names, state.scores))
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
        case Dealt(number, dealer):
            return _("Round {number}: {name} deals.").format(number=number, name=names[dealer])
        case Drew(seat, nth):
            said = {
                1: _("{name} draws a first card."),
                2: _("{name} draws a second card."),
                3: _("{name} draws a third card."),
            }.get(nth) or _("{name} draws a {nth} card.")
            return said.format(name=names[seat], nth=nth)
        case Melded(seat, cards, pts):
            return _("{name} melds {cards} ({points}).").format(
                name=names[seat], cards=" ".join(cards), points=_points(pts)
            )
        case Passed(seat):
            return _("{name} passes.").format(name=names[seat])
        case NoMeld(seat):
            return _("{name} drew three cards: no meld this turn.").format(name=names[seat])
        case PileOut(seat):
            return _("{name} draws the last card: everyone has one more turn.").format(name=names[seat])
        case Closed(seat, pts):
            return _("{name} closes with {points} in hand.").format(name=names[seat], points=_points(pts))
        case RoundScored(score):
            won = _(" and ").join(names[w] for w in score.winners)
            parts = ", ".join(
                _("{name} {points} in hand, {delta}").format(name=names[i], points=p, delta=f"{d:+d}")
                for i, (p, d) in enumerate(zip(score.hand_points, score.scores))
            )
            return _("Round to {winners}: {parts}.").format(winners=won, parts=parts)
        case Bonuses(deltas):
            return _("Bonuses: {parts}.").format(
                parts=", ".join(f"{n} {d:+d}" for n, d in zip(names, deltas))
            )
        case MatchEnded(winner):
            if winner is None:
                return _("The match is drawn.")
            return _("{name} wins the match.").format(name=names[winner])
        case _:
            assert_never(event)


VARIANTS = (
    Variant(
        "hand_size",
        N_("Hand"),
        (0, 8, 9, 10, 11, 12),
        ("12 / 10", N_("8 cards"), N_("9 cards"), N_("10 cards"), N_("11 cards"), N_("12 cards")),
        help=N_("Cards dealt to each player: 12 / 10 is 12 for two players, 10 for three."),
    ),
    Variant(
        "group_max",
        N_("Groups"),
        (4, 5),
        (N_("3 or 4"), N_("3 to 5")),
        help=N_("How many cards of one rank a group may hold."),
    ),
    Variant(
        "close_at",
        N_("Close at"),
        (3, 4, 5, 6),
        (N_("3 points"), N_("4 points"), N_("5 points"), N_("6 points")),
        help=N_("After their turn a player with this many hand points or fewer may close the round."),
    ),
    Variant(
        "target",
        N_("Match to"),
        (15, 20, 25, 30, 50, 100),
        (
            N_("15 points"),
            N_("20 points"),
            N_("25 points"),
            N_("30 points"),
            N_("50 points"),
            N_("100 points"),
        ),
        help=N_(
            "The match ends after the round in which someone reaches this. Between two players a round "
            "scores twice the difference between the hands, so a match to 25 is often one or two rounds."
        ),
    ),
    Variant(
        "wilds",
        N_("Wilds"),
        ("open", "strict"),
        (N_("open"), N_("strict")),
        help=N_(
            "Open: a wild may stand for a card that is also on the table, in another meld. "
            "Strict: never for a card on the table."
        ),
    ),
    Variant(
        "helpers",
        N_("Learning aid"),
        (False, True),
        (N_("off"), N_("on")),
        help=N_("On, for learning: h hints the best play, a arranges the picked cards onto the table."),
    ),
)
LEVELS = (N_("easy"), N_("normal"), N_("hard"))
LEVELS_HELP = N_(
    "Easy plays melds from its hand only; normal rearranges the table with a "
    "limited search; hard finds the best play and judges when to close."
)


# ---------------------------------------------------------------- statistics

RECORDS = {"best_round": (N_("Best round"), "max")}


def records(state: State, seat: int) -> dict[str, int]:
    rounds = [e.score.scores[seat] for e in state.events if isinstance(e, RoundScored)]
    return {"best_round": max(rounds, default=0)}
