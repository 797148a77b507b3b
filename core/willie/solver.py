"""The table solver: ``arrange`` a set of cards into melds, and find the
``best_play`` of a hand onto a table (the rules page's "Melding").

The grid. The deck has one of each number card and no two wilds may stand
for the same card, so a table covers each cell of the 5 × 9 grid of number
cards at most twice: once by its real card, once by a wild standing for
it, never both in one meld (with strict wilds, at most once). In that grid
a group is part of one rank's column and a run part of one suit's row. A
column holds at most two groups (each needs two real cards, and there are
five). Two runs of a row may share a cell (one ends with it, the next
starts with it) or two cells, each run holding the other's card there as
its wild ([5y 6y J=7y] [Q=6y 7y 8y]); no more, since a shared cell holds
one wild and a run has one. So every covering of a cell is in its
column's first or second group or in its row's run, and a whole table is
a path through the 45 cells taken rank by rank: the state is, for each
suit, how long its current run is (1, 2, 3+) and whether it holds a wild,
or that it is between the two cells two runs share; the sizes of the
current column's groups and whether each has its wild, packed in one
integer.

The wild cards are interchangeable in the grid (any face may be declared as
any free card), so the search counts them, and afterwards we choose which
faces from the hand to play and how many Willies to make, the face points
(J 2, Q 3, K 5) being added then. A declared wild on the table is a fixed
cell that counts as its meld's wild; replacing it by its real card frees
it: from the hand, which the caller tries for each subset of such cards
(there is rarely more than one), or from the table, where the real card
already is, so such a wild is free from the start.

Two searches over that grid, the quick one first:

* The whole hand (``_place_all``): a play that puts every card of the hand
  a meld could take on the table, and every wild, is the best there is.
  One such table is found depth first, the pool's wilds tried last and
  added at the end to melds that have none (``_absorb``); a try that
  wanders is started again from rank 10 down or in another order
  (``TRIES``). Under the open wild rule about nine tables in ten allow
  one; the first path through the cells usually is one.
* The dynamic program (``_program``) over all the paths at once, each state
  mapped to a bitset of the (wilds freed, wilds declared, hand cards
  played) it can reach: exact for every question, and the only search for
  the normal computer seat's budget (its best states only). A table full
  of cards with many wilds free to move makes it slow, since a wild may
  then stand beside nearly any card (bench/willie.py has the figures), so
  after the whole-hand search fails it first looks only at plays that
  leave at most one card a meld could take, which keeps far fewer states.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from functools import cache
from itertools import product
from typing import Final, Literal, TypeAlias

from .cards import FACES, POINTS, Card, index, name_of, parse
from .melds import GROUP_MAX

# A suit's run state: 0 none; (length 1, 2, 3+) × (no wild, a wild).
_NONE = 0
_RUN_NEXT: dict[
    int, dict[int, tuple[tuple[int, bool], ...]]
] = {  # state -> wild? -> [(next state, starts a new run)]
    0: {0: ((1, True),), 1: ((2, True),)},
    1: {0: ((3, False),), 1: ((4, False),)},
    2: {0: ((4, False),), 1: ()},
    3: {0: ((5, False),), 1: ((6, False),)},
    4: {0: ((6, False),), 1: ()},
    # A run of three or more with no wild never needs a new run started
    # beside it: the longer run can do whatever the new one could.
    5: {0: ((5, False),), 1: ((6, False),)},
    6: {0: ((6, False), (1, True)), 1: ((2, True),)},
}
_CAN_STOP = (True, False, False, False, False, True, True, False)
# Two runs sharing two cells: the state between them (the first run, which
# held no wild before them, takes the real card of the first and the wild of
# the second; the next run the other two), and the states it may come from.
# After the second the next run is two long with its wild (state 4).
_SHARED = 7
_SHARE_FROM = (1, 3, 5)
_START = {0: 1, 1: 2}  # a run that starts on a cell, by whether that covering is the wild

# Bit offsets in the packed state: each suit's run state in 3 bits (0-14),
# then the column's groups: the first's size and wild (15-18), the second's
# (19-22).
_G = 15
_GROUPS = 0xFF << _G

# cell kinds
Kind: TypeAlias = Literal["M", "D", "S", "H", "E", "X", "Z", "R"]
TABLE: Final = "M"
DECLARED: Final = "D"
SWAP: Final = "S"
HAND: Final = "H"
EMPTY: Final = "E"
# SWAP: a declared wild whose real card is in the hand; it stays, or the real
# card replaces it and the wild is freed (and must be placed again).
# For melds beside a table left as it is (``hand_melds``): BLOCKED, a card on
# that table (a wild may stand for it, unless strict); SEALED, nothing may
# be put there; REAL_ONLY, a card in the hand whose wild is on that table.
BLOCKED: Final = "X"
SEALED: Final = "Z"
REAL_ONLY: Final = "R"

# What a cell's coverings do to its column's groups: none, one real card,
# one wild, or two coverings (its real card and a wild) in two groups.
G_NONE, G_REAL, G_WILD, G_BOTH = 0, 1, 2, 3

# A cell's covering in its row's run: None, (x,) one covering (x 1: it is
# the wild), (x_end, x_start) two, ending the current run and starting the
# next, or two runs sharing two cells: on the first, _SHARE_FIRST (the run
# going on takes the real card, the one starting the wild); on the second,
# _SHARE_SECOND (the run ending takes the wild, the other the real card).
Run: TypeAlias = tuple[int] | tuple[int, int] | tuple[int, int, int] | None
_SHARE_FIRST: Final = (0, 1, 0)
_SHARE_SECOND: Final = (1, 0, 1)
# A cell's choice: (run, group (a ``G_*``), gain, used); see ``_Grid``.
Option: TypeAlias = tuple[Run, int, int, int]
# The program's choice: (new run state shifted into place, group, gain, used).
Move: TypeAlias = tuple[int, int, int, int]
# The depth-first search's choice: (new run state shifted into place, group,
# used, the walk's record (run, fresh)).
Step: TypeAlias = tuple[int, int, int, tuple[Run, bool]]
# A cell as the walk back rebuilt it: (run, fresh (starts a new run), which
# group took its real card and which its wild, -1 none).
Cell: TypeAlias = tuple[Run, bool, tuple[int, int]]
# Group state, a cell's ``G_*`` -> the group states it may lead to.
GroupMoves: TypeAlias = dict[tuple[int, int], tuple[int, ...]]
# Each state's bitset of what it can reach, one layer per cell (and one per
# rank, its columns closed): the program's record for the walk back.
Layers: TypeAlias = list[dict[int, int]]
# A play: (score (points, cards) shed, the new table's melds, the hand's cards played).
Solved: TypeAlias = tuple[tuple[int, int], list[list[str]], list[str]]
Shape: TypeAlias = tuple[Literal["run", "group"], list[tuple[int, int]]]


def _group_state(a: int, wa: int, b: int, wb: int) -> int:
    return a | wa << 3 | b << 4 | wb << 7


def _group_parts(gs: int) -> tuple[int, int, int, int]:
    return gs & 7, gs >> 3 & 1, gs >> 4 & 7, gs >> 7 & 1


@cache
def _group_tables(group_max: int) -> tuple[GroupMoves, GroupMoves, dict[int, int], set[int], list[int]]:
    """For every group state and what a cell adds (``G_*``), the states it
    may lead to, with or without a second group; and what each state still
    needs (cards to bring each open group to three). Made once per group
    size (each position's grid built them anew: about a tenth of a typical
    ``best_play``); the grids only read them."""
    states = [
        _group_state(a, wa, b, wb)
        for a in range(group_max + 1)
        for wa in (0, 1)
        for b in range(group_max + 1)
        for wb in (0, 1)
        if (a or not wa) and (b or not wb) and (a or not b)
    ]

    def add(a: int, wa: int, x: int) -> tuple[int, int] | None:
        if a >= group_max or (x and wa):
            return None
        return a + 1, wa | x

    one: GroupMoves = {}
    two: GroupMoves = {}
    for gs in states:
        a, wa, b, wb = _group_parts(gs)
        for kind in (G_REAL, G_WILD):
            x = kind == G_WILD
            out1, out2 = [], []
            got = add(a, wa, x)
            if got:
                out1.append(_group_state(*got, b, wb))
            if a:  # the second group opens only beside the first
                got = add(b, wb, x)
                if got:
                    out2.append(_group_state(a, wa, *got))
            one[gs, kind], two[gs, kind] = tuple(out1), tuple(out1 + out2)
        both = []
        for xa in (0, 1):
            ga, gb = add(a, wa, xa), add(b, wb, 1 - xa)
            if ga and gb:
                both.append(_group_state(*ga, *gb))
        one[gs, G_BOTH], two[gs, G_BOTH] = (), tuple(dict.fromkeys(both))
        one[gs, G_NONE] = two[gs, G_NONE] = (gs,)
    need = {gs: sum(max(0, 3 - n) for n in _group_parts(gs)[::2] if n) for gs in states}
    closed = {gs for gs in states if all(n == 0 or 3 <= n for n in _group_parts(gs)[::2])}
    return one, two, need, closed, states


RunTable: TypeAlias = dict[tuple[int, int], tuple[tuple[int, bool], ...]]


@cache
def _run_tables(
    run_x: frozenset[int], wild_later: bool
) -> tuple[RunTable, dict[tuple[int, int], int | None]]:
    """A cell's run transitions (see ``_Grid``): they depend only on the
    coverings the next cell allows a run (``run_x``) and whether a wild may
    come later in the row: eight tables in all, each worked out once. Made
    anew for every cell they were most of a grid's making, and the hard
    computer makes some 80 grids a move. Shared between grids: read only."""
    table: RunTable = {}
    meets: dict[tuple[int, int], int | None] = {}
    for p, by_x in _RUN_NEXT.items():
        for x, nexts in by_x.items():
            ways: list[tuple[int, bool]] = []
            for nxt, fresh in nexts:
                if p == 6 and x == 0 and fresh and not wild_later:
                    continue  # a new run beside the longer one could only help a wild to come
                trimmed = _Grid._trim(nxt, run_x)
                if trimmed is None:
                    continue
                if (trimmed, fresh) not in ways:
                    ways.append((trimmed, fresh))
            table[p, x] = tuple(ways)
        # two runs meeting here: the one ending (x) must reach three
        for x in (0, 1):
            ends = [n for n, fresh in _RUN_NEXT[p][x] if not fresh and n >= 5]
            meets[p, x] = _Grid._trim(_START[1 - x], run_x) if ends else None
    return table, meets


class _Grid:
    """The cells' choices and per-cell transition tables for one position.

    A choice is (run, group, gain, used): ``run`` None (no covering in the
    row's run), ``(x,)`` one covering (x: it is the wild), ``(x_end,
    x_start)`` two, the one ending the current run and the one starting the
    next, or ``_SHARE_FIRST`` / ``_SHARE_SECOND`` two, on two cells two runs
    share; ``group`` one of the ``G_*``; ``gain`` moves the reachable bitset
    (hand cards gained, wilds used, wilds freed); ``used`` says a wild from
    the pool was declared here. The choices are pruned to what a meld could
    use: a meld has at most one wild, so a run needs a window of three
    around the cell and a group two other cells of its rank that could be
    real."""

    def __init__(
        self,
        status: list[Kind],
        swap_face: Mapping[int, str],
        pool: int,
        freed_weight: Mapping[str, int],
        group_max: int,
        strict: bool,
    ) -> None:
        self.status = status
        self.group_max = group_max
        self.strict = strict
        real = [s in (TABLE, SWAP, HAND, REAL_ONLY) for s in status]
        fixed = [s in (DECLARED, SWAP) for s in status]  # a declared wild that may stay as its card
        # a wild from the pool, alone on the cell
        lone = [pool > 0 and (s in (EMPTY, HAND) or (s == BLOCKED and not strict)) for s in status]
        # a wild from the pool beside the cell's real card, in another meld
        beside = [pool > 0 and not strict and s in (TABLE, HAND, SWAP) for s in status]
        wild_ok = [f or a or b for f, a, b in zip(fixed, lone, beside)]
        avail = [r or w for r, w in zip(real, wild_ok)]
        wildish = [not r for r in real]  # only a wild can cover it
        self.width = sum(s in (HAND, SWAP, REAL_ONLY) for s in status) + 1
        self.max_wilds = pool
        # one spare row of k per block, which the cap clears, so that a wild
        # too many never spills into the next block
        self.span = (pool + 2) * self.width

        def run_ok(cell: int, x: int, side: int = 0) -> bool:
            """A run of three through ``cell`` could be made with it (x: as
            the wild): ``side`` -1 ending at it, 1 starting at it, 0 any."""
            r = cell % 9
            row = cell - r
            for start in range(max(0, r if side == 1 else r - 2), min(6, r - 2 if side == -1 else r) + 1):
                wilds = x
                for o in range(row + start, row + start + 3):
                    if o == cell:
                        continue
                    if not avail[o]:
                        break
                    wilds += wildish[o]
                else:
                    if wilds <= 1:
                        return True
            return False

        # a rank's column: its real cards and its cells a wild may cover
        column_real = [sum(real[s * 9 + r] for s in range(5)) for r in range(9)]
        column_wild = [sum(wild_ok[s * 9 + r] for s in range(5)) for r in range(9)]

        def group_ok(cell: int, x: int) -> bool:
            r = cell % 9
            n_real = column_real[r] - real[cell]  # the column's other cells
            n_wild = column_wild[r] - wild_ok[cell]
            return n_real + (1 if not x and n_wild else 0) >= 2

        # Two runs could share the cell and the next: both hold their real
        # card and a wild from the pool (two wilds), and the runs' cells
        # beside them (the one before, the one after) real cards, the runs'
        # wilds being in the two.
        first_shared = [
            pool >= 2 and 1 <= c % 9 <= 6 and beside[c] and beside[c + 1] and real[c - 1] and real[c + 2]
            for c in range(45)
        ]

        # Per rank: may its column hold two groups? Six coverings at least,
        # at most five of them real and at most two wilds.
        self.two: list[bool] = []
        for r in range(9):
            col = [s * 9 + r for s in range(5)]
            reals = sum(real[c] for c in col)
            n_wilds = min(2, pool + sum(fixed[c] for c in col))
            self.two.append(not strict and pool > 0 and reals >= 4 and reals + n_wilds >= 6)

        self.options: list[tuple[Option, ...]] = []
        # each cell's choice as the second of two shared cells, if any
        self.second_shared: list[tuple[Option, ...]] = [()] * 45
        for cell, st in enumerate(status):
            hand_gain = 0 if st == TABLE else 1
            if st == SWAP:
                hand_gain += self.span * freed_weight[swap_face[cell]]
            out: list[Option] = []
            if st in (HAND, EMPTY, BLOCKED, SEALED, REAL_ONLY):
                out.append((None, G_NONE, 0, 0))  # nothing here
            if real[cell]:
                if run_ok(cell, 0):
                    out.append(((0,), G_NONE, hand_gain, 0))
                if group_ok(cell, 0):
                    out.append((None, G_REAL, hand_gain, 0))
            wilds = ([(0, 0)] if fixed[cell] else []) + ([(self.width, 1)] if lone[cell] else [])
            for gain, used in wilds:
                if run_ok(cell, 1):
                    out.append(((1,), G_NONE, gain, used))
                if group_ok(cell, 1):
                    out.append((None, G_WILD, gain, used))
            if beside[cell]:  # both: the real card and a wild from the pool, in two melds
                gain = hand_gain + self.width
                if run_ok(cell, 0) and group_ok(cell, 1):
                    out.append(((0,), G_WILD, gain, 1))
                if run_ok(cell, 1) and group_ok(cell, 0):
                    out.append(((1,), G_REAL, gain, 1))
                if self.two[cell % 9] and group_ok(cell, 0) and group_ok(cell, 1):
                    out.append((None, G_BOTH, gain, 1))
                for x in (0, 1):  # x: the covering that ends the run is the wild
                    if run_ok(cell, x, -1) and run_ok(cell, 1 - x, 1):
                        out.append(((x, 1 - x), G_NONE, gain, 1))
                if first_shared[cell]:
                    out.append((_SHARE_FIRST, G_NONE, gain, 1))
                if cell % 9 and first_shared[cell - 1]:
                    out.append((_SHARE_SECOND, G_NONE, gain, 1))
                    self.second_shared[cell] = ((_SHARE_SECOND, G_NONE, gain, 1),)
            self.options.append(tuple(out))
        # Run transitions per cell, trimmed by what the next cell of the row
        # allows: with no run there, a short run is dead and a finished one
        # is as good as none; with only a wild possible there, a run that
        # holds a wild is as good as none.
        # A cell's run transitions: (suit's run state, x) -> the (next
        # state, starts a new run) it may lead to; and where two runs meet
        # on it, the one ending being x: the state the next run starts in,
        # None when they may not meet.
        # After two runs share a cell and this one: the state of the run
        # going on (two long, with its wild), None when it may not.
        self.runs: list[dict[tuple[int, int], tuple[tuple[int, bool], ...]]] = []
        self.meets: list[dict[tuple[int, int], int | None]] = []
        self.after_shared: list[int | None] = []
        for cell in range(45):
            r = cell % 9
            nxt_opts: tuple[Option, ...] = self.options[cell + 1] if r < 8 else ()
            if r < 8 and first_shared[cell]:  # the second shared cell comes only after the first
                run_x = {run[0] for run, _, _, _ in nxt_opts if run and run != _SHARE_SECOND}
            else:
                run_x = {run[0] for run, _, _, _ in nxt_opts if run}
            self.after_shared.append(self._trim(4, run_x) if r and first_shared[cell - 1] else None)
            wild_later = False
            for c in range(cell + 1, cell - r + 9):
                here = {run[0] for run, _, _, _ in self.options[c] if run}
                if not here:
                    break
                if 1 in here:
                    wild_later = True
                    break
            table, meets = _run_tables(frozenset(run_x), wild_later)
            self.runs.append(table)
            self.meets.append(meets)
        # Coverings of a column's groups still possible below each cell.
        self.room: list[int] = []
        for cell in range(45):
            left = 0
            for s in range(cell // 9 + 1, 5):
                kinds = {g for _, g, _, _ in self.options[s * 9 + cell % 9]}
                left += 2 if G_BOTH in kinds else 1 if kinds - {G_NONE} else 0
            self.room.append(left)
        self.one, self.both, self.need, self.closed, self.group_states = _group_tables(group_max)
        self._moves: dict[int, list[tuple[Move, ...]]] = {}
        rows = (1 << ((pool + 1) * self.width)) - 1
        self.cap = sum(rows << (f * self.span) for f in range(_blocks(freed_weight, swap_face)))

    @staticmethod
    def _trim(nxt: int, run_x: Set[int]) -> int | None:
        if not run_x:
            return None if nxt < 5 else 0
        if run_x == {1} and nxt == 6:
            return 0
        return nxt

    def options_after(self, cell: int, p: int) -> tuple[Option, ...]:
        """The cell's choices that may follow run state ``p``: between two
        shared cells only the second's."""
        return self.second_shared[cell] if p == _SHARED else self.options[cell]

    def run_next(self, cell: int, p: int, run: Run) -> tuple[tuple[int, bool], ...]:
        """The suit's run states a choice's covering(s) in the run lead to
        from run state ``p``, each with whether it starts a new run."""
        if run is None:
            return ((0, False),) if _CAN_STOP[p] else ()
        if len(run) == 1:
            return self.runs[cell][p, run[0]]
        if run == _SHARE_FIRST:
            return ((_SHARED, False),) if p in _SHARE_FROM else ()
        if run == _SHARE_SECOND:
            after = self.after_shared[cell]
            return ((after, False),) if p == _SHARED and after is not None else ()
        start = self.meets[cell][p, run[0]]
        return () if start is None else ((start, False),)

    def moves(self, cell: int, shift: int) -> list[tuple[Move, ...]]:
        """For each run state of the cell's suit: the choices as (new run
        state shifted into place, what they add to the groups, bitset shift,
        uses a wild)."""
        if cell not in self._moves:
            runs, meets = self.runs[cell], self.meets[cell]
            lines = []
            for p in range(_SHARED):  # (written out as in ``steps``)
                out: list[Move] = []
                for run, group, gain, used in self.options[cell]:
                    if run is None:
                        if _CAN_STOP[p]:
                            out.append((0, group, gain, used))
                    elif len(run) == 1:
                        out += [(nxt << shift, group, gain, used) for nxt, _ in runs[p, run[0]]]
                    elif len(run) == 2:
                        start = meets[p, run[0]]
                        if start is not None:
                            out.append((start << shift, group, gain, used))
                    elif run == _SHARE_FIRST and p in _SHARE_FROM:
                        out.append((_SHARED << shift, group, gain, used))
                lines.append(tuple(dict.fromkeys(out)))
            after = self.after_shared[cell]  # between two shared cells: only the second's choices
            lines.append(
                ()
                if after is None
                else tuple(
                    (after << shift, group, gain, used) for _, group, gain, used in self.second_shared[cell]
                )
            )
            self._moves[cell] = lines
        return self._moves[cell]

    def steps(self, cell: int, placed_only: bool) -> list[tuple[Step, ...]]:
        """For each run state of the cell's suit: the choices as (new run
        state shifted into place, what they add to the groups, uses a wild
        from the pool, the walk's record (run, fresh)); ``placed_only``
        keeps those that put the cell's real card on the table."""
        shift = 3 * (cell // 9)
        width = self.width
        runs, meets = self.runs[cell], self.meets[cell]
        lines = []
        # (written out, not through ``run_next``: the search builds these
        # for every cell on every try, and the calls cost a typical
        # ``best_play`` about 5%)
        for p in range(_SHARED):
            out: list[Step] = []
            for run, group, gain, used in self.options[cell]:
                if placed_only and not gain % width:
                    continue
                if run is None:
                    if _CAN_STOP[p]:
                        out.append((0, group, used, (run, False)))
                elif len(run) == 1:
                    out += [(nxt << shift, group, used, (run, fresh)) for nxt, fresh in runs[p, run[0]]]
                elif len(run) == 2:
                    start = meets[p, run[0]]
                    if start is not None:
                        out.append((start << shift, group, used, (run, False)))
                elif run == _SHARE_FIRST and p in _SHARE_FROM:
                    out.append((_SHARED << shift, group, used, (run, False)))
            # the pool's wilds last: a table that takes fewer has more ways to end
            out.sort(key=lambda step: step[2])
            lines.append(tuple(out))
        after = self.after_shared[cell]  # between two shared cells: only the second's choices
        lines.append(
            ()
            if after is None
            else tuple(
                (after << shift, group, used, (run, False))
                for run, group, gain, used in self.second_shared[cell]
                if gain % width or not placed_only
            )
        )
        return lines


def _blocks(freed_weight: Mapping[str, int], swap_face: Mapping[int, str]) -> int:
    """How many freed-wild combinations the bitset holds."""
    counts = {f: 0 for f in FACES}
    for face in swap_face.values():
        counts[face] += 1
    total = 1
    for f in FACES:
        total *= counts[f] + 1
    return total


def _program(
    grid: _Grid, budget: int | None, floor: tuple[int, set[int]] | None = None
) -> tuple[int, Layers]:
    """Run the dynamic program forward over the cells, rank by rank. A state
    is a packed int (each suit's run state in 3 bits, the column's groups);
    it maps to a bitset of what it can reach: bit ``f * span + k * width +
    v`` means "wilds freed f (mixed radix by kind), k wilds declared in the
    grid, v hand cards played". ``floor`` (with the hand cells that count
    towards it) keeps only what can still end with that many hand cards
    played."""
    cap = grid.cap
    masks: list[int | None] = _floor_masks(grid, *floor) if floor else [None] * 45
    layers: Layers = [{0: 1}]
    states = layers[0]
    need, closed_ok = grid.need, grid.closed
    for r in range(9):
        groups = grid.both if grid.two[r] else grid.one
        for s in range(5):
            cell = s * 9 + r
            room = grid.room[cell]
            shift = 3 * s
            clear = ~(7 << shift) & ~_GROUPS
            lines = grid.moves(cell, shift)
            new: dict[int, int] = {}
            get = new.get
            for key, bits in states.items():
                p = (key >> shift) & 7
                base = key & clear
                gs = key >> _G
                for row, group, gain, used in lines[p]:
                    moved = bits << gain
                    if used:
                        moved &= cap
                        if not moved:
                            continue
                    for ngs in groups[gs, group]:
                        if need[ngs] > room:
                            continue
                        nk = base | row | ngs << _G
                        new[nk] = get(nk, 0) | moved
            if budget is not None and len(new) > budget:
                keep = sorted(new, key=new.__getitem__, reverse=True)[:budget]
                new = {k: new[k] for k in keep}
            mask = masks[r * 5 + s]
            if mask is not None:
                new = {k: bits & mask for k, bits in new.items() if bits & mask}
            layers.append(new)
            states = new
        closed: dict[int, int] = {}
        for key, bits in states.items():
            if key >> _G in closed_ok:
                nk = key & ~_GROUPS
                closed[nk] = closed.get(nk, 0) | bits
        layers.append(closed)
        states = closed
    final = 0
    for key, bits in states.items():
        if all(_CAN_STOP[(key >> (3 * s)) & 7] for s in range(5)):
            final |= bits
    return final, layers


def _floor_masks(grid: _Grid, least: int, hand_cells: set[int]) -> list[int | None]:
    """For each cell in the program's order, the bits of the states that
    can still reach ``least`` hand cards played: with ``n`` such cells
    still to come, those with ``least - n`` or more."""
    width = grid.width
    windows = grid.cap.bit_length() // width + 1
    order = [s * 9 + r for r in range(9) for s in range(5)]
    masks: list[int | None] = []
    for i in range(45):
        low = least - sum(c in hand_cells for c in order[i + 1 :])
        if low <= 0:
            masks.append(None)
            continue
        window = ((1 << width) - 1) ^ ((1 << low) - 1)
        masks.append(sum(window << (j * width) for j in range(windows)))
    return masks


def _walk_back(grid: _Grid, layers: Layers, target: int) -> dict[int, Cell]:
    """Rebuild one table that reaches bit ``target``: each cell's choice and
    which of its column's groups each covering joined, found by trying the
    states of the layer before that could lead to this one."""
    key = next(
        key
        for key, bits in layers[-1].items()
        if bits >> target & 1 and all(_CAN_STOP[(key >> (3 * s)) & 7] for s in range(5))
    )
    chosen: dict[int, Cell] = {}
    i = len(layers) - 1
    for r in reversed(range(9)):
        groups = grid.both if grid.two[r] else grid.one
        prev = layers[i - 1]
        key = next(pk for gs in grid.closed if (pk := key | gs << _G) in prev and prev[pk] >> target & 1)
        i -= 1
        for s in reversed(range(5)):
            cell = s * 9 + r
            prev = layers[i - 1]
            shift = 3 * s
            row = (key >> shift) & 7
            gs_now = key >> _G
            found: tuple[int, Cell, int] | None = None
            for p in range(len(_CAN_STOP)):
                for option in grid.options_after(cell, p):
                    run, group, gain, used = option
                    t = target - gain
                    if t < 0:
                        continue
                    if run is None:  # (the common cases first, as in ``steps``)
                        if row or not _CAN_STOP[p]:
                            continue
                        fresh = False
                    else:
                        starts = [
                            f
                            for nxt, f in (
                                grid.runs[cell][p, run[0]] if len(run) == 1 else grid.run_next(cell, p, run)
                            )
                            if nxt == row
                        ]
                        if not starts:
                            continue
                        fresh = starts[0]
                    for gs in grid.group_states:
                        if gs_now not in groups[gs, group]:
                            continue
                        pk = (key & ~(7 << shift) & ~_GROUPS) | p << shift | gs << _G
                        if pk in prev and prev[pk] >> t & 1:
                            found = (pk, (run, fresh, _joined(gs, gs_now, group)), t)
                            break
                    if found:
                        break
                if found:
                    break
            assert found is not None  # the target's bit came from some state of the layer before
            key, chosen[cell], target = found
            i -= 1
    return chosen


class _OutOfSteps(Exception):
    """The search for a whole-hand play used up its steps."""


# The whole-hand search's tries, each (the ranks turned over, an order of
# the choices, steps): a search that wanders down a path leading nowhere
# is stopped and started again, from the other end of the ranks (the rules
# read the same from 10 down to 2: a table that ends in a tight spot starts
# in it) or with the choices at each cell in another order. Over 1,000
# random mid-game tables with open wilds (bench/willie.py), and as many
# that strict wilds allow played under open wilds, every search either
# found its table or ruled one out within these tries; one try of 30,000
# steps from rank 2 left two of the latter to the program, for 3.4 and
# 7.7 s. With strict wilds the program is quick (a card is covered once),
# so the search gives up sooner, and its worst cases stay below the
# program's alone.
TRIES: dict[str, tuple[tuple[bool, int, int], ...]] = {
    "open": ((False, 0, 1_000), (True, 0, 1_000), (False, 1, 1_000), (True, 1, 1_000))
    + ((False, 2, 2_000), (True, 2, 2_000), (False, 3, 4_000), (True, 3, 4_000))
    + ((False, 4, 8_000), (True, 4, 8_000)),
    "strict": ((False, 0, 500), (True, 0, 500)),
}
# A suit's run states that can do all that each run state can (see
# ``_RUN_NEXT``): a state that led nowhere rules out the states under it.
_UNDER: dict[int, tuple[int, ...]] = {
    0: (5, 6),
    1: (3, 5),
    2: (1, 3, 4, 5, 6),
    3: (5,),
    4: (3, 5, 6),
    5: (),
    6: (5,),
    7: (),
}


# The whole-hand search's table: (the cells as ``_walk_back`` gives them,
# the Willies made, the wilds ``_absorb`` adds to melds at the end).
Placed: TypeAlias = tuple[dict[int, Cell], int, list[tuple[int, int]]]


def _place_all(
    grid: _Grid, pos: _Position, forced: set[int], have: list[int], steps: int, order_seed: int = 0
) -> Placed | None:
    """A table that places the ``forced`` cells' cards of the hand (every
    card of the hand that some meld could take), every wild of the hand and
    every card of the table, found depth first: ``(cells, willies,
    extras)`` (the cells as ``_walk_back`` gives them, the wilds that join
    melds at the end as ``_absorb`` places them), or None when there is
    none. Such a play sheds every point, so it is the best there is and no
    other need be looked at. Raises ``_OutOfSteps`` past ``steps`` states.

    The path goes cell by cell in the program's order, trying first what
    takes no wild from the pool (``order_seed`` other than 0 shuffles the
    rest); a state (cell, runs and groups, wilds used) that led nowhere is
    remembered, and so are those it rules out. The wilds the grid does not
    take make Willies: ``have`` counts them by face (J, Q, K), and the grid
    takes all but three for each Willie, so at the end more wilds may join
    melds that have none. None is an answer when no path ended with the
    grid taking exactly such a number (those ends depend on the state
    alone); the melds that take more at the end are a shortcut."""
    total = sum(have)
    endings = {total - 3 * w: w for w in range(min(have) + 1)}
    order = [s * 9 + r for r in range(9) for s in range(5)]
    lines: list[Sequence[Sequence[Step]]] = [grid.steps(cell, cell in forced) for cell in order]
    if order_seed:
        shuffle = random.Random(order_seed).shuffle
        for i, ways in enumerate(lines):
            shuffled: list[list[Step]] = []
            for choices in ways:
                mixed = list(choices)
                shuffle(mixed)
                shuffled.append(sorted(mixed, key=lambda step: step[2]))
            lines[i] = shuffled
    if not all(any(ways) for ways in lines):
        return None
    pool = grid.max_wilds
    need, closed, room = grid.need, grid.closed, grid.room
    dead: set[tuple[int, int, int]] = set()
    path: list[Cell] = [(None, False, (-1, -1))] * 45  # each written before it is read
    left = [steps]

    def ending(key: int, k: int) -> Placed | None:
        if not all(_CAN_STOP[(key >> (3 * s)) & 7] for s in range(5)):
            return None
        more = min((e for e in endings if e >= k), default=None)
        if more is None:
            return None
        cells = dict(zip(order, path))
        extras = _absorb(pos.status, _shapes(cells), more - k, grid.group_max, grid.strict)
        return None if extras is None else (cells, endings[more], extras)

    def ruled_out(i: int, key: int, k: int) -> bool:
        if (i, key, k) in dead:
            return True
        for shift in range(0, 15, 3):
            rest = key & ~(7 << shift)
            for better in _UNDER[(key >> shift) & 7]:
                if (i, rest | better << shift, k) in dead:
                    return True
        return False

    def go(i: int, key: int, k: int) -> Placed | None:
        if i == 45:
            return ending(key, k)
        if ruled_out(i, key, k):
            return None
        left[0] -= 1
        if left[0] < 0:
            raise _OutOfSteps
        cell = order[i]
        suit, rank = divmod(cell, 9)
        shift = 3 * suit
        gs = key >> _G
        base = key & ~(7 << shift) & ~_GROUPS
        groups = grid.both if grid.two[rank] else grid.one
        for row, group, used, (run, fresh) in lines[i][(key >> shift) & 7]:
            if k + used > pool:
                continue
            for ngs in groups[gs, group]:
                if need[ngs] > room[cell]:
                    continue
                if suit == 4:  # the column ends here: its groups must be whole
                    if ngs not in closed:
                        continue
                    nkey = base | row
                else:
                    nkey = base | row | ngs << _G
                path[i] = (run, fresh, _joined(gs, ngs, group))
                found = go(i + 1, nkey, k + used)
                if found is not None:
                    return found
        dead.add((i, key, k))
        return None

    return go(0, 0, 0)


def _turned(card: str) -> str:
    """The card with its rank turned over (2 and 10, 3 and 9, ...)."""
    c = parse(card)
    if not c.rank:
        return card
    turned = f"{12 - c.rank}{c.suit}"
    return f"{c.face}={turned}" if c.face else turned


def _joined(before: int, after: int, group: int) -> tuple[int, int]:
    """Which group (0 the first, 1 the second) took the cell's real card and
    which its wild (-1: none)."""
    a0, wa0, b0, _ = _group_parts(before)
    a1, wa1, b1, _ = _group_parts(after)
    grew = 0 if a1 > a0 else 1 if b1 > b0 else -1
    if group == G_REAL:
        return grew, -1
    if group == G_WILD:
        return -1, grew
    if group == G_BOTH:
        wild_to = 0 if wa1 and not wa0 else 1
        return 1 - wild_to, wild_to
    return -1, -1


class _Position:
    """A table and a hand read into the grid."""

    def __init__(self, table_cards: Iterable[str], hand_cards: Iterable[str], strict: bool) -> None:
        self.status: list[Kind] = [EMPTY] * 45
        self.declared_face: dict[int, str] = {}
        self.free_faces: Counter[str] = Counter()  # table wilds not declared (in Willies), or freed
        self.hand_faces: Counter[str] = Counter()
        self.ok = True
        wilds: list[Card] = []
        for text in table_cards:
            c = parse(text)
            if c.wild and not c.declared:
                self.free_faces[c.face] += 1
                continue
            if c.wild:
                wilds.append(c)
                continue
            cell = index(c)
            if self.status[cell] != EMPTY:
                self.ok = False  # the same card twice: no legal table holds it
            self.status[cell] = TABLE
        for c in wilds:
            cell = index(c)
            if self.status[cell] == TABLE and not strict:
                self.free_faces[c.face] += 1  # its real card is on the table: it may free it
                continue
            if self.status[cell] != EMPTY:
                self.ok = False  # with strict wilds, or two wilds for one card
            self.status[cell] = DECLARED
            self.declared_face[cell] = c.face
        for text in hand_cards:
            c = parse(text)
            if c.declared:
                raise ValueError(f"a card in the hand is not declared: {text}")
            if c.wild:
                self.hand_faces[c.face] += 1
                continue
            cell = index(c)
            if self.status[cell] == EMPTY:
                self.status[cell] = HAND
            elif self.status[cell] == DECLARED:
                self.status[cell] = SWAP
            elif self.status[cell] == TABLE:
                raise ValueError(f"{text} cannot be both in the hand and on the table")
        self.swap_face = {c: self.declared_face[c] for c in range(45) if self.status[c] == SWAP}


# A position read: (pos, grid, the freed wilds' mixed-radix weight per
# face, the declared wilds per face whose real card is in the hand).
Read: TypeAlias = tuple[_Position, _Grid, dict[str, int], Counter[str]]


def _read(
    table_cards: Iterable[str],
    hand_cards: Iterable[str],
    group_max: int,
    strict: bool,
    blocked: Mapping[int, Kind] | None,
) -> Read | None:
    """The position and its grid: ``(pos, grid, weight, swaps)``, or None
    for a table no rule allows (a card on it twice)."""
    pos = _Position(table_cards, hand_cards, strict)
    if not pos.ok:
        return None
    for cell, kind in (blocked or {}).items():
        if kind == REAL_ONLY and pos.status[cell] != HAND:
            kind = SEALED
        pos.status[cell] = kind
    swaps = Counter(pos.swap_face.values())
    weight: dict[str, int] = {}
    w = 1
    for f in FACES:
        weight[f] = w
        w *= swaps[f] + 1
    pool = sum(pos.free_faces.values()) + sum(pos.hand_faces.values()) + len(pos.swap_face)
    return pos, _Grid(pos.status, pos.swap_face, pool, weight, group_max, strict), weight, swaps


def _playable(pos: _Position, grid: _Grid) -> set[int]:
    """The hand's cells some meld could take (the others stay in any play)."""
    return {
        cell
        for cell, s in enumerate(pos.status)
        if s in (HAND, SWAP, REAL_ONLY) and any(gain % grid.width for _, _, gain, _ in grid.options[cell])
    }


def _whole_hand(read: Read, turn: Callable[[], Read], strict: bool) -> Solved | Literal[False] | None:
    """The whole-hand search's tries (``TRIES``): a play of every card of
    the hand a meld could take and every wild, as ``_solve`` answers; None
    when there is none; False when the tries gave up. ``turn()`` reads the
    position with its ranks turned over, for the tries from the other end."""
    reads = {False: read}
    for turned, order_seed, steps in TRIES["strict" if strict else "open"]:
        if turned not in reads:
            reads[turned] = turn()
        pos, grid, _, _ = reads[turned]
        playable = _playable(pos, grid)
        faces = [pos.hand_faces[f] for f in FACES]
        freed = Counter(pos.swap_face[c] for c in playable if c in pos.swap_face)
        have = [pos.free_faces[f] + n + freed[f] for f, n in zip(FACES, faces)]
        try:
            whole = _place_all(grid, pos, playable, have, steps, order_seed)
        except _OutOfSteps:
            continue
        if whole is None:
            return None
        cells, willies, extras = whole
        melds, from_hand = _build(pos, pos.status, cells, have, willies, faces, extras)
        if turned:
            melds = [[_turned(c) for c in m] for m in melds]
            from_hand = [_turned(c) for c in from_hand]
        face_points = sum(POINTS[f] * n for f, n in zip(FACES, faces))
        return (len(playable) + face_points, len(playable) + sum(faces)), melds, from_hand
    return False


def _solve(
    table_cards: Sequence[str],
    hand_cards: Sequence[str],
    group_max: int,
    budget: int | None,
    must_place_one: bool,
    blocked: Mapping[int, Kind] | None = None,
    strict: bool = False,
) -> Solved | None:
    read = _read(table_cards, hand_cards, group_max, strict, blocked)
    if read is None:
        return None
    pos, grid, weight, swaps = read
    if budget is not None:
        return _best_of(pos, grid, weight, swaps, _program(grid, budget), must_place_one)
    playable = _playable(pos, grid)
    faces = [pos.hand_faces[f] for f in FACES]
    face_points = sum(POINTS[f] * n for f, n in zip(FACES, faces))
    shorts: tuple[int, ...] = () if strict else (0, 1)
    if playable or sum(faces) or not must_place_one:
        # All of them and every wild first: such a play is the best there
        # is, and finding one is quick where the program is slowest (a full
        # table, many wilds free to move).
        def turn() -> Read:
            cards = [_turned(c) for c in table_cards], [_turned(c) for c in hand_cards]
            turned = {(c // 9) * 9 + 8 - c % 9: kind for c, kind in (blocked or {}).items()}
            read = _read(*cards, group_max, strict, turned)
            assert read is not None  # the same cards as the position read above, ranks turned over
            return read

        whole = _whole_hand(read, turn, strict)
        if whole:
            return whole
        if whole is None and not sum(faces):
            shorts = shorts[1:]  # searched to the end: no play leaves none of them
    # Then, with open wilds, the plays that leave none or one of them, then
    # any play: the program keeps far fewer states when it need only look
    # at plays of many cards (with strict wilds it gains nothing). A play
    # that leaves more cards sheds at most ``beyond``.
    for short in shorts:
        least = len(playable) - short
        if least <= 0:
            break
        found = _best_of(pos, grid, weight, swaps, _program(grid, None, (least, playable)), must_place_one)
        beyond = (least - 1 + face_points, least - 1 + sum(faces))
        if found is not None and found[0] >= beyond:
            return found
    return _best_of(pos, grid, weight, swaps, _program(grid, None), must_place_one)


def _best_of(
    pos: _Position,
    grid: _Grid,
    weight: Mapping[str, int],
    swaps: Mapping[str, int],
    program: tuple[int, Layers],
    must_place_one: bool,
) -> Solved | None:
    """The best play the program's final bitset holds: the wilds freed, the
    hand's faces played and the Willies made chosen for the most points
    (then cards)."""
    final, layers = program
    if not final:
        return None
    window = (1 << grid.width) - 1
    best: tuple[tuple[int, int], int, list[int], int, tuple[int, ...]] | None = None
    for freed in product(*(range(swaps[f] + 1) for f in FACES)):
        block = sum(n * weight[f] for f, n in zip(FACES, freed)) * grid.span
        for played in product(*(range(pos.hand_faces[f] + 1) for f in FACES)):
            have = [pos.free_faces[f] + n + m for f, n, m in zip(FACES, played, freed)]
            face_points = sum(POINTS[f] * n for f, n in zip(FACES, played))
            for willies in range(min(have) + 1):
                k = sum(have) - 3 * willies
                reach = final >> (block + k * grid.width) & window
                if not reach:
                    continue
                value = reach.bit_length() - 1
                score = (value + face_points, value + sum(played))
                if must_place_one and score[1] == 0:
                    continue
                if best is None or score > best[0]:
                    best = (score, block + k * grid.width + value, have, willies, played)
    if best is None:
        return None
    score, target, have, willies, played = best
    cells = _walk_back(grid, layers, target)
    melds, from_hand = _build(pos, pos.status, cells, have, willies, played)
    return score, melds, from_hand


def _shapes(cells: Mapping[int, Cell]) -> list[Shape]:
    """The melds of a table the walk back (or the whole-hand search)
    found, as ``(kind, [(cell, x), ...])``, x 1 for the covering that is a
    wild: each row's runs, then each column's groups."""
    shapes: list[Shape] = []
    for s in range(5):
        run_cells: list[tuple[int, int]] = []
        next_cells: list[tuple[int, int]] = []  # the next run's, on the first of two shared cells
        for r in range(9):
            cell = s * 9 + r
            run, fresh, _ = cells[cell]
            if run is None:
                if run_cells:
                    shapes.append(("run", run_cells))
                    run_cells = []
            elif run == _SHARE_FIRST:
                run_cells.append((cell, run[0]))
                next_cells = [(cell, run[1])]
            elif run == _SHARE_SECOND:
                shapes.append(("run", run_cells + [(cell, run[0])]))
                run_cells = next_cells + [(cell, run[1])]
            elif len(run) == 2:  # ends one run and starts the next
                shapes.append(("run", run_cells + [(cell, run[0])]))
                run_cells = [(cell, run[1])]
            else:
                if fresh and run_cells:
                    shapes.append(("run", run_cells))
                    run_cells = []
                run_cells.append((cell, run[0]))
        if run_cells:
            shapes.append(("run", run_cells))
    for r in range(9):
        groups: list[list[tuple[int, int]]] = [[], []]
        for s in range(5):
            cell = s * 9 + r
            real_to, wild_to = cells[cell][2]
            if real_to >= 0:
                groups[real_to].append((cell, 0))
            if wild_to >= 0:
                groups[wild_to].append((cell, 1))
        shapes += [("group", g) for g in groups if g]
    return shapes


def _absorb(
    status: Sequence[Kind], shapes: Sequence[Shape], extra: int, group_max: int, strict: bool
) -> list[tuple[int, int]] | None:
    """Room for ``extra`` more wilds from the pool in a table's melds: each
    meld with no wild may take one, at the end of a run or in a group's
    missing suit, on a cell no other wild stands for (and, with strict
    wilds, whose real card is not on the table). A matching of melds to
    such cells: ``[(meld index, cell), ...]``, or None when there is not
    room enough."""
    if extra <= 0:
        return []
    taken = {cell for _, shape in shapes for cell, x in shape if x}
    open_to = (EMPTY,) if strict else (EMPTY, BLOCKED, TABLE, HAND, SWAP)
    room: list[tuple[int, list[int]]] = []
    for m, (kind, shape) in enumerate(shapes):
        if any(x for _, x in shape):
            continue
        if kind == "run":
            lo, hi = min(c for c, _ in shape), max(c for c, _ in shape)
            near = ([lo - 1] if lo % 9 else []) + ([hi + 1] if hi % 9 < 8 else [])
        else:
            if len(shape) >= group_max:
                continue
            rank = shape[0][0] % 9
            suits = {c // 9 for c, _ in shape}
            near = [s * 9 + rank for s in range(5) if s not in suits]
        near = [c for c in near if c not in taken and status[c] in open_to]
        if near:
            room.append((m, near))
    owner: dict[int, int] = {}  # cell -> index in room

    def seat(i: int, seen: set[int]) -> bool:
        for cell in room[i][1]:
            if cell in seen:
                continue
            seen.add(cell)
            if cell not in owner or seat(owner[cell], seen):
                owner[cell] = i
                return True
        return False

    placed = 0
    for i in range(len(room)):
        if seat(i, set()):
            placed += 1
            if placed == extra:
                return [(room[i][0], cell) for cell, i in owner.items()]
    return None


def _build(
    pos: _Position,
    status: Sequence[Kind],
    cells: Mapping[int, Cell],
    have: Sequence[int],
    willies: int,
    played: Sequence[int],
    extras: Iterable[tuple[int, int]] = (),
) -> tuple[list[list[str]], list[str]]:
    """The melds of the table the walk back found: each row's runs, each
    column's groups (with ``extras``, more wilds from the pool, as
    ``_absorb`` placed them), the Willies; and the hand cards it takes."""
    declare: list[str] = []  # faces to declare, in order
    for f, n in zip(FACES, have):
        declare += [f] * (n - willies)
    declare.sort(key=lambda f: -POINTS[f])
    # a cell's real card is placed when a run or a group took it
    real_here = {
        cell: (run is not None and 0 in run[:2]) or joined[0] >= 0 for cell, (run, _, joined) in cells.items()
    }

    def text(cell: int, x: int) -> str:
        if not x:
            return name_of(cell)
        if status[cell] == DECLARED or (status[cell] == SWAP and not real_here[cell]):
            return f"{pos.declared_face[cell]}={name_of(cell)}"  # the declared wild stays
        return f"{declare.pop()}={name_of(cell)}"

    shapes = _shapes(cells)
    for m, cell in extras:
        kind, shape = shapes[m]
        shapes[m] = (kind, sorted(shape + [(cell, 1)]) if kind == "run" else shape + [(cell, 1)])
    melds = [[text(cell, x) for cell, x in shape] for _, shape in shapes]
    melds += [["J", "Q", "K"] for _ in range(willies)]
    from_hand = [
        name_of(cell) for cell in sorted(cells) if real_here[cell] and status[cell] in (HAND, SWAP, REAL_ONLY)
    ]
    for f, n in zip(FACES, played):
        from_hand += [f] * n
    return melds, from_hand


def _in_old_order(melds: Iterable[list[str]], old_table: Iterable[Iterable[str]]) -> list[list[str]]:
    """Melds that were already on the table keep their places; new ones follow."""
    old = [tuple(sorted(m)) for m in old_table]
    kept: list[list[str]] = []
    fresh: list[list[str]] = []
    for m in melds:
        key = tuple(sorted(m))
        (kept if key in old else fresh).append(m)
    kept.sort(key=lambda m: old.index(tuple(sorted(m))))
    return kept + fresh


def arrange(
    cards: Iterable[str], *, group_max: int = GROUP_MAX, strict: bool = False
) -> list[list[str]] | None:
    """A partition of ``cards`` into legal melds (undeclared wilds take any
    identity, declared ones keep theirs unless their real card is among the
    cards), or None when there is none. ``strict``: no wild may stand for a
    card among them."""
    cards = list(cards)
    if not cards:
        return []
    solved = _solve(cards, (), group_max, None, must_place_one=False, strict=strict)
    return None if solved is None else solved[1]


def best_play(
    table: Iterable[Iterable[str]],
    hand: Iterable[str],
    *,
    group_max: int = GROUP_MAX,
    budget: int | None = None,
    strict: bool = False,
) -> tuple[list[str], list[list[str]]]:
    """The play that sheds the most hand points, then the most cards:
    ``(cards_from_hand, new_table)``; ``([], table)`` when no card can be
    played. ``table`` is a list of melds (each a list of cards), assumed
    legal. ``budget`` caps the states kept per cell (a weaker, faster search
    for the normal computer seat); None searches exhaustively. ``strict``:
    the variant where a wild may not stand for a card on the table."""
    melds_now = [list(m) for m in table]
    flat = [c for m in melds_now for c in m]
    solved = _solve(flat, list(hand), group_max, budget, must_place_one=True, strict=strict)
    if solved is None:
        return [], melds_now
    _, melds, from_hand = solved
    return from_hand, _in_old_order(melds, melds_now)


def hand_melds(
    table: Iterable[Iterable[str]], hand: Iterable[str], *, group_max: int = GROUP_MAX, strict: bool = False
) -> tuple[list[str], list[list[str]]]:
    """The best new melds made from the hand alone, beside the table's melds
    and never touching them (what the easy computer seat sees):
    ``(cards_from_hand, new_melds)``. A wild may stand for a card on the
    table unless ``strict``, but never for one a wild there stands for."""
    blocked: dict[int, Kind] = {}
    for c in (parse(c) for m in table for c in m):
        if not c.identity:
            continue
        cell = index(c)
        if strict:
            blocked[cell] = SEALED
        elif c.declared:
            blocked[cell] = REAL_ONLY  # its real card, if ours, may go in a new meld; no second wild
        elif blocked.get(cell) != REAL_ONLY:
            blocked[cell] = BLOCKED
    solved = _solve((), list(hand), group_max, None, must_place_one=True, blocked=blocked, strict=strict)
    if solved is None:
        return [], []
    return solved[2], solved[1]
