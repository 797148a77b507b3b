"""Willie's computer seats, deciding from their seat's view alone.

``easy`` plays melds made from its own hand when it sees one and never
touches the table's melds. ``normal`` rearranges the table with the solver
on a limited budget (the dynamic program keeps its best states only), so it
misses some plays. ``hard`` finds the best play, holds its first meld back
when drawing on is likely to free more of its hand, and closes only when
the rivals' hands, inferred from their sizes and the cards it has not seen,
are likely to be higher than its own.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Sequence

from ..errors import check_level
from .cards import DECK_COUNT, parse, points
from .game import CLOSE, CONTINUE, LEVELS, PASS, Action, View, meld
from .solver import best_play, hand_melds

NORMAL_BUDGET = 60  # states kept per cell by the normal seat's search
SAMPLES = 300  # rival hands sampled to judge a close
CLOSE_VALUE = 8  # what being able to close is worth, in hand points


def choose(view: View, legal: list[Action], level: str = "hard") -> Action:
    check_level("willie", LEVELS, level)
    if not legal:
        raise ValueError("no legal action to choose from")
    if view.stage == "close":
        if level != "hard" or _close_wins(view, random.Random(_seed(view))) >= 0.6:
            return CLOSE
        return CONTINUE
    play = plan(view, level)
    return play if play is not None else PASS


def plan(view: View, level: str) -> Action | None:
    """The meld this seat would make now, or None to pass."""
    table = [list(m) for m in view.table]
    if level == "easy":
        cfg = view.config
        played, melds = hand_melds(table, view.hand, group_max=cfg.group_max, strict=cfg.strict)
        return meld(table + melds) if played else None
    budget = NORMAL_BUDGET if level == "normal" else None
    played, new_table = best_play(
        table, view.hand, group_max=view.config.group_max, budget=budget, strict=view.config.strict
    )
    if not played:
        return None
    if level == "hard" and _hold_back(view, played):
        return None
    return meld(new_table)


def unseen(view: View) -> list[str]:
    """The cards this seat has not seen: the deck less its hand and the table."""
    seen = Counter(view.hand) + Counter(parse(c).physical for m in view.table for c in m)
    return sorted((DECK_COUNT - seen).elements())


def _close_wins(view: View, rng: random.Random) -> float:
    """The chance that closing now wins the round: every rival's hand
    strictly higher than ours, rival hands sampled from the unseen cards."""
    mine = points(view.hand)
    rivals = [n for i, n in enumerate(view.hand_sizes) if i != view.seat]
    if all(n > mine for n in rivals):  # every card is worth at least 1
        return 1.0
    pool = unseen(view)
    wins = 0
    for _ in range(SAMPLES):
        rng.shuffle(pool)
        at = 0
        ok = True
        for n in rivals:
            if points(pool[at : at + n]) <= mine:
                ok = False
            at += n
        wins += ok
    return wins / SAMPLES


def _hold_back(view: View, played: Sequence[str]) -> bool:
    """Pass instead of melding when drawing on is likely to end the turn
    better, on the first draw only: a pass on the second draws the third
    card, which ends the turn with no meld. The play stays available (the
    table does not change during our turn); the drawn card costs its points unless it can be played, and may
    free more of the hand, or bring it down to where we may close. Judged
    over the unseen cards (the next card is one of them), one solver call
    each on the limited budget; only when this play cannot let us close."""
    if view.last_turns is not None or view.pile_count == 0 or view.draws >= 2:
        return False  # no later draw in this turn may meld: the third ends it
    close_at = view.config.close_at
    hand_points = points(view.hand)
    left = hand_points - points(played)
    if left <= close_at:
        return False

    def value(h: int) -> float:
        return -h + (CLOSE_VALUE if h <= close_at else 0)

    table = [list(m) for m in view.table]
    pool = Counter(unseen(view))
    total = sum(pool.values())
    expected = 0.0
    for card, n in pool.items():
        later, _ = best_play(
            table,
            list(view.hand) + [card],
            group_max=view.config.group_max,
            budget=NORMAL_BUDGET,
            strict=view.config.strict,
        )
        expected += n * value(hand_points + parse(card).points - points(later))
    return expected / total > value(left) + 0.25


def _seed(view: View) -> int:
    # stable across processes (str hashes are not), so a match replays
    return zlib.crc32(repr((view.seat, view.round, len(view.events), view.hand)).encode())
