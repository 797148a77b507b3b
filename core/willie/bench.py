"""A turn's work on the table before it is played (the rules page, tui/rules/willie.md, "Melding").

A player rearranges the table a few cards at a time: cards picked from the
hand or the table are moved onto a meld, into a new meld, or (hand cards
only) back to the hand; a wild is declared as the card it stands for. A
``Bench`` is that work in progress: the table and hand as the turn started,
and the table and hand as they are now. It is immutable, so undo is a list
of benches, and it knows the rules that matter while working:

- a card that was on the table at the turn's start cannot go back to a hand;
- a real card moved onto the meld of the wild declared as it frees the wild
  (the wild stays where it is, undeclared, to be declared again or moved);
  with strict wilds the real card anywhere on the table frees it;
- a wild put with number cards is declared at once when only one card fits,
  and otherwise waits for the player's choice (``options``);
- a wild declared before this turn keeps its card until the real card frees it.

Each meld's problem is shown as the player works (``problems``); the whole
table is checked by the rules' own ``play_problem`` before it is played.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..i18n import N_, _, language
from .cards import RANKS, SUITS, parse, sort_hand, sort_key
from .game import Action, meld
from .melds import GROUP_MAX, meld_problem
from .rules import play_problem
from .solver import _in_old_order, arrange, best_play

HAND = -1  # the meld index of a card in the hand

Table = tuple[tuple[str, ...], ...]
Spot = tuple[int, int]  # (meld, index), or (HAND, index) in ``left``

IDENTITIES = tuple(f"{r}{s}" for s in SUITS for r in RANKS)
UNDECLARED = N_("Say what the wild stands for (w).")


class Refused(ValueError):
    """A step the rules do not allow; ``str`` is the rule in words."""


@dataclass(frozen=True)
class Moved:
    bench: Bench
    landed: tuple[Spot, ...]  # where the moved cards are now
    freed: tuple[str, ...]  # the wilds (J, Q, K) their real cards freed
    waiting: tuple[Spot, ...]  # wilds among number cards that fit more than one card


@dataclass(frozen=True)
class Bench:
    start: Table  # the table as the turn started
    hand: tuple[str, ...]  # the hand as it is (a draw adds to it)
    table: Table  # the table as the player has it now
    left: tuple[str, ...]  # the hand cards not on the table, sorted
    group_max: int = GROUP_MAX
    strict: bool = False  # strict wilds: a wild may not stand for a card on the table

    @classmethod
    def begin(
        cls,
        table: Iterable[Iterable[str]],
        hand: Sequence[str],
        group_max: int = GROUP_MAX,
        strict: bool = False,
    ) -> Bench:
        start = tuple(tuple(m) for m in table)
        return cls(start, tuple(hand), start, sort_hand(hand), group_max, strict)

    def reset(self) -> Bench:
        return Bench.begin(self.start, self.hand, self.group_max, self.strict)

    def drawn(self, hand: Sequence[str]) -> Bench:
        """The same work after a draw added to the hand."""
        added = Counter(hand) - Counter(self.hand)
        return replace(self, hand=tuple(hand), left=sort_hand(self.left + tuple(added.elements())))

    # ------------------------------------------------------------ reading

    def card(self, spot: Spot) -> str:
        m, i = spot
        return self.left[i] if m == HAND else self.table[m][i]

    def played(self) -> tuple[str, ...]:
        """The hand cards on the table now."""
        return sort_hand((Counter(self.hand) - Counter(self.left)).elements())

    @property
    def changed(self) -> bool:
        return self.table != self.start

    # Asked on every key (the prompt, the key bar's End turn): a bench never
    # changes, so its answers are kept, per language (they are words, and
    # one process serves players of several languages).
    def problems(self) -> tuple[str | None, ...]:
        """Each meld's problem, None for a legal one."""
        return self._problems(language())

    def problem(self) -> str | None:
        """None when the table may be played now, else the rule in words."""
        return self._problem(language())

    @functools.lru_cache(maxsize=32)  # noqa: B019 - benches are small, immutable and few
    def _problems(self, _language: str) -> tuple[str | None, ...]:
        out = []
        for m in self.table:
            problem = meld_problem(m, self.group_max)
            if problem is None and _loose_with_numbers(m):
                problem = _(UNDECLARED)
            out.append(problem)
        return tuple(out)

    @functools.lru_cache(maxsize=32)  # noqa: B019 - as above
    def _problem(self, _language: str) -> str | None:
        return play_problem(self.start, self.hand, self.table, self.group_max, self.strict)

    def action(self) -> Action:
        return meld(self.table)

    # ------------------------------------------------------------ moving cards

    def move(self, spots: Iterable[Spot], to: int) -> Moved:
        """Move the cards at ``spots`` onto meld ``to``, into a new meld
        (``to == len(table)``) or back to the hand (``to == HAND``)."""
        spots = list(dict.fromkeys(spots))
        if not spots:
            raise Refused(_("Pick the cards to move first (Space)."))
        for m, i in spots:
            if m == HAND:
                if not 0 <= i < len(self.left):
                    raise Refused(_("There is no such card in your hand."))
            elif not (0 <= m < len(self.table) and 0 <= i < len(self.table[m])):
                raise Refused(_("There is no such card on the table."))
        if not (to == HAND or 0 <= to <= len(self.table)):
            raise Refused(_("There is no such meld."))
        moving = [self.card(s) for s in spots]
        melds = [list(m) for m in self.table]
        left = list(self.left)
        for m, i in sorted(spots, reverse=True):
            if m == HAND:
                del left[i]
            else:
                del melds[m][i]
        if to == HAND:
            back = [parse(c).physical for c in moving]
            table_now = Counter(parse(c).physical for m in melds for c in m)
            start = Counter(parse(c).physical for m in self.start for c in m)
            if start - table_now:
                raise Refused(_("A card that was on the table cannot go back to a hand."))
            left += back
            bench = replace(self, table=tuple(tuple(m) for m in melds if m), left=sort_hand(left))
            return Moved(bench, tuple((HAND, bench.left.index(c)) for c in back), (), ())
        # a card from the hand arrives undeclared; one from the table keeps its card
        arriving = [parse(c).physical if s[0] == HAND else c for s, c in zip(spots, moving)]
        if to == len(melds):
            melds.append([])
        melds[to] += arriving
        target = melds[to]
        kept = [m for m in melds if m]
        to = next(k for k, m in enumerate(kept) if m is target)
        table = [tuple(sorted(m, key=sort_key)) for m in kept]
        table, freed = _free(table, None if self.strict else to)
        bench = replace(self, table=tuple(table), left=sort_hand(left))._declare_sure()
        return Moved(bench, _spots_of(bench.table[to], to, arriving), freed, bench.waiting())

    def _declare_sure(self) -> Bench:
        """Declare each loose wild among number cards that fits one card only."""
        bench = self
        for m, i in self.waiting():
            fits = bench.options((m, i))
            if len(fits) == 1:
                bench = bench._set(m, i, f"{parse(bench.card((m, i))).face}={fits[0]}")
        return bench

    def waiting(self) -> tuple[Spot, ...]:
        """The loose wilds among number cards, waiting to be declared."""
        return tuple(
            (m, i)
            for m, cards in enumerate(self.table)
            if _loose_with_numbers(cards)
            for i, c in enumerate(cards)
            if parse(c).wild and not parse(c).declared
        )

    # ------------------------------------------------------------ wilds

    def options(self, spot: Spot) -> list[str]:
        """The cards the wild at ``spot`` may stand for in its meld: none
        another wild stands for (with strict wilds: none on the table), and
        making the meld legal (a meld of two cards: legal with one more card;
        a card of its own meld never)."""
        m, i = spot
        if m == HAND:
            return []
        cards = self.table[m]
        wild = parse(cards[i])
        if not wild.wild:
            return []
        others = cards[:i] + cards[i + 1 :]
        if not any(parse(c).rank for c in others):
            return []
        taken = {
            parse(c).identity
            for k, mm in enumerate(self.table)
            for j, c in enumerate(mm)
            if (k, j) != spot and (self.strict or parse(c).wild or k == m)
        }
        free = [x for x in IDENTITIES if x not in taken]
        fits = []
        for x in free:
            trial = (*others, f"{wild.face}={x}")
            if len(trial) >= 3:
                if meld_problem(trial, self.group_max) is None:
                    fits.append(x)
            elif any(meld_problem((*trial, y), self.group_max) is None for y in free if y != x):
                fits.append(x)
        return sorted(fits, key=sort_key)

    def locked(self, spot: Spot) -> bool:
        """A wild declared before this turn that its real card has not freed."""
        card = self.card(spot)
        c = parse(card)
        if not c.declared or spot[0] == HAND:
            return False
        reals = {x for m in self.table for x in m}
        return any(card in m for m in self.start) and (not self.strict or c.identity not in reals)

    def declare(self, spot: Spot, identity: str) -> Bench:
        m, i = spot
        if m == HAND:
            raise Refused(_("A wild is declared when it is put in a group or run."))
        c = parse(self.card(spot))
        if not c.wild:
            raise Refused(_("Only a J, Q or K can stand for another card."))
        if self.locked(spot):
            raise Refused(
                _("A declared wild keeps its card ({card}) until the real card frees it.").format(
                    card=c.identity
                )
            )
        if identity not in self.options(spot):
            raise Refused(
                _("The {wild} cannot stand for {card} in this meld.").format(wild=c.face, card=identity)
            )
        return self._set(m, i, f"{c.face}={identity}")

    def _set(self, m: int, i: int, card: str) -> Bench:
        meld_ = list(self.table[m])
        meld_[i] = card
        table = list(self.table)
        table[m] = tuple(sorted(meld_, key=sort_key))
        return replace(self, table=tuple(table))

    # ------------------------------------------------------------ solver help

    def arranged(self, picked: Iterable[str]) -> Bench | None:
        """The table rearranged by the solver to take the hand cards
        ``picked`` (cards of ``left``) as well; None when it cannot be done.
        Wilds keep their cards only where the rules say they must."""
        picked = list(picked)
        rest = Counter(self.left) - Counter(picked)
        if Counter(picked) - Counter(self.left):
            raise Refused("Only cards still in your hand can be arranged onto the table.")
        reals = {c for m in self.table for c in m} | set(picked)
        start = {c for m in self.start for c in m}
        cards = []
        for m in self.table:
            for card in m:
                c = parse(card)
                keep = c.declared and card in start and c.identity not in reals
                cards.append(card if keep or not c.wild else c.face)
        melds = arrange(cards + picked, group_max=self.group_max, strict=self.strict)
        if melds is None:
            return None
        table = tuple(
            tuple(sorted(m, key=sort_key)) for m in _in_old_order(melds, [list(m) for m in self.table])
        )
        return replace(self, table=table, left=sort_hand(rest.elements()))

    def hint(self) -> tuple[tuple[str, ...], Table]:
        """The best play from the turn's start: the hand cards it sheds and
        the table it leaves; no cards when there is none."""
        played, table = best_play(self.start, self.hand, group_max=self.group_max, strict=self.strict)
        return sort_hand(played), tuple(tuple(m) for m in table)


def _loose_with_numbers(cards: Iterable[str]) -> bool:
    parsed = [parse(c) for c in cards]
    return any(c.wild and not c.declared for c in parsed) and any(c.rank for c in parsed)


def _free(table: list[tuple[str, ...]], onto: int | None) -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    """Undeclare the wilds whose real card is now beside them in meld
    ``onto`` (the real card moved onto its wild); with ``onto`` None (strict
    wilds), every wild whose real card is anywhere on the table. The faces
    freed."""
    around = table if onto is None else [table[onto]]
    reals = {c for m in around for c in m if not parse(c).wild}
    freed = []
    out = []
    for k, m in enumerate(table):
        if onto is not None and k != onto:
            out.append(m)
            continue
        row = []
        for c in m:
            p = parse(c)
            if p.declared and p.identity in reals:
                row.append(p.face)
                freed.append(p.face)
            else:
                row.append(c)
        out.append(tuple(sorted(row, key=sort_key)))
    return out, tuple(freed)


def _spots_of(cards: Iterable[str], m: int, arriving: Iterable[str]) -> tuple[Spot, ...]:
    """Where the ``arriving`` cards are in meld ``m`` (a wild may have been
    declared on the way in: matched by the card in the hand)."""
    wanted = Counter(parse(c).physical for c in arriving)
    out = []
    for i, c in enumerate(cards):
        p = parse(c).physical
        if wanted[p] > 0:
            wanted[p] -= 1
            out.append((m, i))
    return tuple(out)
