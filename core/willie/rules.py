"""Willie's rules that are not the turn order (the rules page's "Melding"
and "Closing"): whether a new table is a legal play from a hand, and how a
round is scored.

Decisions where the original rules leave room (said in the README too):
- A wild may stand for a card that is also on the table, in another meld
  (the original lets the real card that frees a wild come "from another
  group or run on the table"); no meld holds the same card twice, and no
  two wilds stand for the same card at once. The variant "strict wilds"
  forbids a wild standing for a card on the table.
- A wild in a Willie has no declared identity; moved into a group or run it
  is declared then. A declared wild may not join a Willie (it is its card
  until the real card frees it).
- A tie for the lowest hand with nobody closing (the pile ran out): every
  tied player wins the round, each scoring as a winner.
- The closer who does not win scores exactly −5 (no empty-hand bonus).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..i18n import _
from .cards import parse, points
from .melds import GROUP_MAX, meld_problem


def play_problem(
    table: Sequence[Sequence[str]],
    hand: Sequence[str],
    new_table: Sequence[Sequence[str]],
    group_max: int = GROUP_MAX,
    strict: bool = False,
) -> str | None:
    """None when ``new_table`` is a legal result of playing cards from
    ``hand`` onto ``table``, else the rule broken, in words. ``strict``:
    the variant where a wild may not stand for a card on the table.

    A declared wild keeps its card unless the real card is on the new
    table: the real card was moved onto it (from the hand or from another
    meld) and freed it; the table may then be rearranged at will."""
    try:
        old_cards = [parse(c) for m in table for c in m]
        new_cards = [parse(c) for m in new_table for c in m]
        for c in hand:
            parse(c)
    except ValueError as e:
        return str(e)
    old_phys = Counter(c.physical for c in old_cards)
    new_phys = Counter(c.physical for c in new_cards)
    if old_phys - new_phys:
        gone = ", ".join(sorted((old_phys - new_phys).elements()))
        return _("No card may leave the table ({cards}).").format(cards=gone)
    added = new_phys - old_phys
    if added - Counter(hand):
        extra = ", ".join(sorted((added - Counter(hand)).elements()))
        return _("Only cards from your hand can join the table ({cards}).").format(cards=extra)
    if not added:
        return _("Add at least one card from your hand.")
    for meld in new_table:
        problem = meld_problem(meld, group_max)
        if problem:
            return f"{' '.join(meld)}: {problem}"
        loose = [parse(c).wild and not parse(c).declared for c in meld]
        if any(loose) and not all(loose):
            return _("Declare what a wild stands for when you play it in a group or run.")
    if strict:
        seen = Counter(c.identity for c in new_cards if c.identity)
        twice = sorted(i for i, n in seen.items() if n > 1)
        if twice:
            return _(
                "{card} is on the table twice: with strict wilds a wild may not "
                "stand for a card that is on the table."
            ).format(card=twice[0])
    else:
        seen = Counter(c.identity for c in new_cards if c.declared)
        twice = sorted(i for i, n in seen.items() if n > 1)
        if twice:
            return _("Two wilds stand for {card}: no two wilds may stand for the same card.").format(
                card=twice[0]
            )
    reals = {c.identity for c in new_cards if not c.wild}
    kept = Counter(str(c) for c in new_cards if c.declared)
    for old in old_cards:
        if old.declared and old.identity not in reals:
            if kept[str(old)] < 1:
                return _("{wild} keeps what it stands for until the real {card} replaces it.").format(
                    wild=old, card=old.identity
                )
            kept[str(old)] -= 1
    return None


@dataclass(frozen=True)
class RoundScore:
    """A round's outcome: each seat's hand points, the round's winners, the
    points each scores this round, and the parts that make them."""

    hand_points: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    closer: int | None
    closer_penalty: bool  # the closer did not win alone: -5
    empty_bonus: tuple[int, ...]  # seats that won with no cards

    @property
    def doubled(self) -> bool:
        """Between two players a winner scores twice the difference."""
        return len(self.hand_points) == 2

    def won_from(self, seat: int) -> tuple[int, ...]:
        """The hand-point differences ``seat`` scored from each other seat as
        a winner of the round; none when it won nothing (not a winner, or a
        closer tied by everyone, who scores only the -5)."""
        if seat not in self.winners or (seat == self.closer and self.closer_penalty):
            return ()
        pts = self.hand_points
        return tuple(pts[j] - pts[seat] for j in range(len(pts)) if j != seat)


def score_round(hands: Sequence[Sequence[str]], closer: int | None) -> RoundScore:
    """The round's score (the rules page, tui/rules/willie.md, "Scoring a
    round"). ``hands`` are the cards left in each hand."""
    pts = tuple(points(h) for h in hands)
    n = len(pts)
    low = min(pts)
    tied = [i for i in range(n) if pts[i] == low]
    penalty = False
    if closer is not None and (pts[closer] != low or len(tied) > 1):
        penalty = True
        if pts[closer] == low and not (n == 3 and len(tied) == 3):
            tied.remove(closer)  # a closer tied with another loses to them
    scores = [0] * n
    bonus = []
    for w in tied:
        if w == closer and penalty:
            continue  # the closer who ties everyone scores only -5
        diff = sum(pts[j] - pts[w] for j in range(n) if j != w)
        scores[w] = 2 * diff if n == 2 else diff
        if not hands[w]:
            scores[w] += 5
            bonus.append(w)
    if penalty and closer is not None:
        scores[closer] = -5
    return RoundScore(pts, tuple(tied), tuple(scores), closer, penalty, tuple(bonus))


def match_bonuses(totals: Iterable[int], rounds_won: Iterable[int], target: int) -> tuple[int, ...]:
    """At the match's end: +10 to each player at the target or more, and to
    every other player +5 for each round they won."""
    return tuple(10 if t >= target else 5 * w for t, w in zip(totals, rounds_won))
