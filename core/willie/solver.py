"""The table solver: ``arrange`` a set of cards into melds, and find the
``best_play`` of a hand onto a table (RULES.md §6).

The idea that makes it fast. A legal table never holds the same number card
twice (a wild may not stand for a card on the table, and the deck has one
of each), so a table is a set of cells of the 5 × 9 grid of number cards,
each filled by its real card or by a wild, plus any Willies (J-Q-K). In that
grid a group is part of one rank's column and a run part of one suit's row;
a column's group cells form one group (two would need six suits), and a
row's run cells split into runs of three or more. So every cell is either
absent, in its column's group or in its row's run, and the whole table is a
path through a dynamic program over the 45 cells taken rank by rank: the
state is, for each suit, how long its current run is (1, 2, 3+) and whether
it holds a wild; the size of the current column's group and whether it has
its wild; and how many wilds went into the grid. Only states that some cells
reach are kept, in a dict keyed by one packed integer, so a mid-game table
costs a few thousand state steps, not the 10⁴-state tables of a rank-by-rank
program that enumerates every profile.

The wild cards are interchangeable in the grid (any face may be declared as
any free card), so the program counts them, and afterwards we choose which
faces from the hand to play and how many Willies to make, the face points
(J 2, Q 3, K 5) being added then. A declared wild on the table is a fixed
cell that counts as its meld's wild; replacing it by its real card from the
hand frees it, which the caller tries for each subset of such cards (there
is rarely more than one).
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from .cards import FACES, POINTS, index, name_of, parse
from .melds import GROUP_MAX

# A suit's run state: 0 none; (length 1, 2, 3+) × (no wild, a wild).
_NONE = 0
_RUN_NEXT = {  # state -> wild? -> [(next state, starts a new run)]
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
_CAN_STOP = (True, False, False, False, False, True, True)

_G = 15  # bit offsets in the packed state: suits 0-14, group size, group wild, wilds
_GW = 18
_K = 19
_ROWS = (1 << 15) - 1

# cell kinds
TABLE, DECLARED, SWAP, HAND, EMPTY, BLOCKED = "M", "D", "S", "H", "E", "X"
# SWAP: a declared wild whose real card is in the hand; it stays, or the real
# card replaces it and the wild is freed (and must be placed again).


class _Grid:
    """The cells' choices and per-cell transition tables for one position.

    A choice is (place, wild, shift, used): place 0 absent, 1 run, 2 group;
    ``shift`` moves the reachable bitset (hand cards gained, wilds used,
    wilds freed); ``used`` says a wild from the pool was declared here. The
    choices are pruned to what a meld could use: a meld has at most one
    wild, so a run needs a window of three around the cell and a group two
    other cells of its rank that could be real."""

    def __init__(self, status, swap_face, pool: int, freed_weight, group_max: int):
        self.status = status
        self.group_max = group_max
        real = [s in (TABLE, SWAP, HAND) for s in status]
        avail = [s not in (EMPTY, BLOCKED) or (s == EMPTY and pool > 0) for s in status]
        wildish = [s in (DECLARED, EMPTY) for s in status]
        self.width = sum(s in (HAND, SWAP) for s in status) + 1
        self.max_wilds = pool
        # one spare row of k per block, which the cap clears, so that a wild
        # too many never spills into the next block
        self.span = (pool + 2) * self.width
        width, span = self.width, self.span

        def run_ok(cell: int, x: int) -> bool:
            suit, r = divmod(cell, 9)
            for start in range(max(0, r - 2), min(r, 6) + 1):
                others = [suit * 9 + i for i in range(start, start + 3) if i != r]
                if all(avail[o] for o in others) and x + sum(wildish[o] for o in others) <= 1:
                    return True
            return False

        def group_ok(cell: int, x: int) -> bool:
            r = cell % 9
            others = [s * 9 + r for s in range(5) if s * 9 + r != cell]
            n_real = sum(real[o] for o in others)
            n_wild = sum(avail[o] and wildish[o] for o in others)
            return n_real + (1 if not x and n_wild else 0) >= 2

        self.options = []
        for cell, s in enumerate(status):
            opts = []
            if s in (HAND, EMPTY, BLOCKED):
                opts.append((0, 0, 0, 0))
            if s in (TABLE, HAND, SWAP):
                gain = 0 if s == TABLE else 1
                if s == SWAP:
                    gain += span * freed_weight[swap_face[cell]]
                opts += [(p, 0, gain, 0) for p, ok in ((1, run_ok), (2, group_ok)) if ok(cell, 0)]
            if s in (DECLARED, SWAP):
                opts += [(p, 1, 0, 0) for p, ok in ((1, run_ok), (2, group_ok)) if ok(cell, 1)]
            if s in (HAND, EMPTY) and pool:
                opts += [(p, 1, width, 1) for p, ok in ((1, run_ok), (2, group_ok)) if ok(cell, 1)]
            self.options.append(tuple(opts))
        # Run transitions per cell, trimmed by what the next cell of the row
        # allows: with no run there, a short run is dead and a finished one
        # is as good as none; with only a wild possible there, a run that
        # holds a wild is as good as none.
        self.runs = []
        for cell in range(45):
            r = cell % 9
            nxt_opts = self.options[cell + 1] if r < 8 else ()
            run_x = {x for place, x, _, _ in nxt_opts if place == 1}
            wild_later = False
            for c in range(cell + 1, cell - r + 9):
                here = {x for place, x, _, _ in self.options[c] if place == 1}
                if not here:
                    break
                if 1 in here:
                    wild_later = True
                    break
            table = {}
            for p, by_x in _RUN_NEXT.items():
                for x, nexts in by_x.items():
                    out = []
                    for nxt, fresh in nexts:
                        if p == 6 and fresh and not wild_later:
                            continue  # a new run beside it would only help a wild to come
                        if not run_x:
                            if nxt < 5:
                                continue
                            nxt = 0
                        elif run_x == {1} and nxt == 6:
                            nxt = 0
                        if (nxt, fresh) not in out:
                            out.append((nxt, fresh))
                    table[p, x] = tuple(out)
            self.runs.append(table)
        # Group cells still possible below each cell of its column.
        self.room = [
            sum(1 for s in range(cell // 9 + 1, 5) if any(p == 2 for p, *_ in self.options[s * 9 + cell % 9]))
            for cell in range(45)
        ]
        self._moves: dict[int, tuple] = {}
        rows = (1 << ((pool + 1) * width)) - 1
        self.cap = sum(rows << (f * span) for f in range(_blocks(freed_weight, swap_face)))

    def moves(self, cell: int, shift: int):
        """For each run state of the cell's suit: the choices that keep the
        cell out of its column's group, as (new run state shifted into
        place, bitset shift, uses a wild), and those that put it in the
        group, as (bitset shift, uses a wild, is a wild)."""
        if cell not in self._moves:
            lines, joins = [], []
            for p in range(7):
                out, into = [], []
                for place, x, gain, used in self.options[cell]:
                    if place == 1:
                        out += [(nxt << shift, gain, used) for nxt, _ in self.runs[cell][p, x]]
                    elif _CAN_STOP[p]:
                        if place == 0:
                            out.append((0, gain, used))
                        else:
                            into.append((gain, used, x))
                lines.append(tuple(out))
                joins.append(tuple(into))
            self._moves[cell] = (lines, joins)
        return self._moves[cell]


def _blocks(freed_weight, swap_face) -> int:
    """How many freed-wild combinations the bitset holds."""
    counts = {f: 0 for f in FACES}
    for face in swap_face.values():
        counts[face] += 1
    total = 1
    for f in FACES:
        total *= counts[f] + 1
    return total


def _program(grid: _Grid, budget: int | None):
    """Run the dynamic program forward over the cells, rank by rank. A state
    is a packed int (each suit's run state in 3 bits, the column's group size
    and whether it has its wild); it maps to a bitset of what it can reach:
    bit ``f * span + k * width + v`` means "wilds freed f (mixed radix by
    kind), k wilds declared in the grid, v hand cards played"."""
    group_max = grid.group_max
    cap = grid.cap
    layers: list[dict[int, int]] = [{0: 1}]
    states = layers[0]
    sizes_ok = {0} | set(range(3, group_max + 1))
    for r in range(9):
        for s in range(5):
            cell = s * 9 + r
            room = grid.room[cell]
            shift = 3 * s
            clear = ~(7 << shift)
            # per run state of this suit: the moves that leave no group here
            # (the new run state, shifted in place) and those into the group
            lines, joins = grid.moves(cell, shift)
            new: dict[int, int] = {}
            get = new.get
            for key, bits in states.items():
                p = (key >> shift) & 7
                base = key & clear
                g = (key >> _G) & 7
                if not g or g + room >= 3:  # the column's group can still be made
                    for row, gain, used in lines[p]:
                        moved = bits << gain
                        if used:
                            moved &= cap
                            if not moved:
                                continue
                        nk = base | row
                        new[nk] = get(nk, 0) | moved
                ins = joins[p]
                if ins and g < group_max and g + 1 + room >= 3:
                    wild = key >> _GW & 1
                    up = base + (1 << _G)
                    for gain, used, x in ins:
                        if x and wild:
                            continue
                        moved = bits << gain
                        if used:
                            moved &= cap
                            if not moved:
                                continue
                        nk = up | (x << _GW)
                        new[nk] = get(nk, 0) | moved
            if budget is not None and len(new) > budget:
                keep = sorted(new, key=new.__getitem__, reverse=True)[:budget]
                new = {k: new[k] for k in keep}
            layers.append(new)
            states = new
        closed: dict[int, int] = {}
        for key, bits in states.items():
            if (key >> _G) & 7 in sizes_ok:
                nk = key & ~(15 << _G)
                closed[nk] = closed.get(nk, 0) | bits
        layers.append(closed)
        states = closed
    final = 0
    for key, bits in states.items():
        if all(_CAN_STOP[(key >> (3 * s)) & 7] for s in range(5)):
            final |= bits
    return final, layers


def _walk_back(grid: _Grid, layers, target: int):
    """Rebuild one table that reaches bit ``target``: each cell's (place,
    wild, starts a run), found by trying the predecessors of the state (the
    seven run states × the cell's choices) in the layer before."""
    key = next(
        key
        for key, bits in layers[-1].items()
        if bits >> target & 1 and all(_CAN_STOP[(key >> (3 * s)) & 7] for s in range(5))
    )
    chosen = {}
    i = len(layers) - 1
    sizes = [0] + list(range(3, grid.group_max + 1))
    for r in reversed(range(9)):
        prev = layers[i - 1]
        key = next(
            pk
            for g in sizes
            for gw in (0, 1)
            if (pk := key | g << _G | gw << _GW) in prev and prev[pk] >> target & 1
        )
        i -= 1
        for s in reversed(range(5)):
            cell = s * 9 + r
            prev = layers[i - 1]
            shift = 3 * s
            row = (key >> shift) & 7
            found = None
            for place, x, gain, _ in grid.options[cell]:
                t = target - gain
                if t < 0:
                    continue
                for p in range(7):
                    pk = (key & ~(7 << shift)) | (p << shift)
                    if place == 1:
                        fresh = [f for nxt, f in grid.runs[cell][p, x] if nxt == row]
                        if not fresh:
                            continue
                    else:
                        if row != 0 or not _CAN_STOP[p]:
                            continue
                        fresh = [False]
                        if place == 2:
                            if (pk >> _G) & 7 == 0 or (x and not pk >> _GW & 1):
                                continue
                            pk -= 1 << _G
                            if x:
                                pk &= ~(1 << _GW)
                    if pk in prev and prev[pk] >> t & 1:
                        found = (pk, (place, x, fresh[0]), t)
                        break
                if found:
                    break
            key, chosen[cell], target = found
            i -= 1
    return chosen


class _Position:
    """A table and a hand read into the grid."""

    def __init__(self, table_cards, hand_cards):
        self.status = [EMPTY] * 45
        self.declared_face: dict[int, str] = {}
        self.free_faces: Counter = Counter()  # table wilds not declared (in Willies)
        self.hand_faces: Counter = Counter()
        self.ok = True
        for text in table_cards:
            c = parse(text)
            if c.wild and not c.declared:
                self.free_faces[c.face] += 1
                continue
            cell = index(c)
            if self.status[cell] != EMPTY:
                self.ok = False  # the same card twice: no legal table holds it
            self.status[cell] = DECLARED if c.wild else TABLE
            if c.wild:
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


def _solve(table_cards, hand_cards, group_max: int, budget: int | None, must_place_one: bool, blocked=()):
    pos = _Position(table_cards, hand_cards)
    if not pos.ok:
        return None
    for cell in blocked:
        pos.status[cell] = BLOCKED
    swaps = Counter(pos.swap_face.values())
    weight, w = {}, 1
    for f in FACES:
        weight[f] = w
        w *= swaps[f] + 1
    pool = sum(pos.free_faces.values()) + sum(pos.hand_faces.values()) + len(pos.swap_face)
    grid = _Grid(pos.status, pos.swap_face, pool, weight, group_max)
    final, layers = _program(grid, budget)
    if not final:
        return None
    window = (1 << grid.width) - 1
    best = None
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


def _build(pos: _Position, status, cells, have, willies, played):
    declare = []  # faces to declare, in order
    for f, n in zip(FACES, have):
        declare += [f] * (n - willies)
    declare.sort(key=lambda f: -POINTS[f])

    def text(cell: int, x: int) -> str:
        if status[cell] in (DECLARED, SWAP) and x:
            return f"{pos.declared_face[cell]}={name_of(cell)}"
        if x:
            return f"{declare.pop()}={name_of(cell)}"
        return name_of(cell)

    melds: list[list[str]] = []
    from_hand = []
    for s in range(5):
        run: list[str] = []
        for r in range(9):
            cell = s * 9 + r
            place, x, fresh = cells[cell]
            if place == 1:
                if fresh and run:
                    melds.append(run)
                    run = []
                run.append(text(cell, x))
            elif run:
                melds.append(run)
                run = []
        if run:
            melds.append(run)
    for r in range(9):
        group = [text(s * 9 + r, cells[s * 9 + r][1]) for s in range(5) if cells[s * 9 + r][0] == 2]
        if group:
            melds.append(group)
    melds += [["J", "Q", "K"] for _ in range(willies)]
    for cell, (place, x, _) in cells.items():
        if place and not x and status[cell] in (HAND, SWAP):
            from_hand.append(name_of(cell))
    for f, n in zip(FACES, played):
        from_hand += [f] * n
    return melds, from_hand


def _in_old_order(melds, old_table):
    """Melds that were already on the table keep their places; new ones follow."""
    old = [tuple(sorted(m)) for m in old_table]
    kept, fresh = [], []
    for m in melds:
        key = tuple(sorted(m))
        (kept if key in old else fresh).append(m)
    kept.sort(key=lambda m: old.index(tuple(sorted(m))))
    return kept + fresh


def arrange(cards, *, group_max: int = GROUP_MAX) -> list[list[str]] | None:
    """A partition of ``cards`` into legal melds (undeclared wilds take any
    identity, declared ones keep theirs), or None when there is none."""
    cards = list(cards)
    if not cards:
        return []
    solved = _solve(cards, (), group_max, None, must_place_one=False)
    return None if solved is None else solved[1]


def best_play(table, hand, *, group_max: int = GROUP_MAX, budget: int | None = None):
    """The play that sheds the most hand points, then the most cards:
    ``(cards_from_hand, new_table)``; ``([], table)`` when no card can be
    played. ``table`` is a list of melds (each a list of cards), assumed
    legal. ``budget`` caps the states kept per cell (a weaker, faster search
    for the normal computer seat); None searches exhaustively."""
    table = [list(m) for m in table]
    flat = [c for m in table for c in m]
    solved = _solve(flat, list(hand), group_max, budget, must_place_one=True)
    if solved is None:
        return [], table
    _, melds, from_hand = solved
    return from_hand, _in_old_order(melds, table)


def hand_melds(table, hand, *, group_max: int = GROUP_MAX):
    """The best new melds made from the hand alone, beside the table's melds
    and never touching them (what the easy computer seat sees):
    ``(cards_from_hand, new_melds)``. No wild stands for a card on the table."""
    blocked = {index(parse(c)) for m in table for c in m if parse(c).identity}
    solved = _solve((), list(hand), group_max, None, must_place_one=True, blocked=blocked)
    if solved is None:
        return [], []
    return solved[2], solved[1]
