"""Random legal mid-game positions: a table of melds and a hand, from the
cards the table left. The tests and ``bench/willie.py`` draw on them; they
are built meld by meld, so every table is legal by construction and wilds
appear as they do in play (declared in groups and runs, bare in Willies)."""

from __future__ import annotations

import random

from .cards import SUITS, deck


def random_position(rng: random.Random, table_size: int, hand_size: int, wild_rate: float = 0.3):
    """``(table, hand)``: a legal table of about ``table_size`` cards (it stops
    at the first meld that reaches it) and ``hand_size`` cards from the rest."""
    free = set(deck()[:45])  # identities neither on the table nor stood for
    faces = list("JJJQQQKKK")
    rng.shuffle(faces)
    table: list[list[str]] = []
    size = 0
    tries = 0
    while size < table_size and tries < 400:
        tries += 1
        roll = rng.random()
        if roll < 0.06:
            if all(f in faces for f in "JQK"):
                for f in "JQK":
                    faces.remove(f)
                table.append(["J", "Q", "K"])
                size += 3
            continue
        if roll < 0.5:
            suit = rng.choice(SUITS)
            length = rng.choice((3, 3, 4, 4, 5, 6))
            start = rng.randint(2, 11 - length)
            idents = [f"{r}{suit}" for r in range(start, start + length)]
        else:
            rank = rng.randint(2, 10)
            idents = [f"{rank}{s}" for s in rng.sample(SUITS, rng.choice((3, 3, 4)))]
        if not all(i in free for i in idents):
            continue
        meld = list(idents)
        if faces and rng.random() < wild_rate:
            at = rng.randrange(len(meld))
            meld[at] = f"{faces.pop()}={meld[at]}"
        free -= set(idents)
        table.append(meld)
        size += len(meld)
    rest = _left(table, faces)
    hand = rng.sample(rest, min(hand_size, len(rest)))
    return table, hand


def _left(table, faces) -> list[str]:
    """The cards not on the table: every number card not there as itself, and
    the faces not used."""
    on = {c for m in table for c in m if "=" not in c and c not in "JQK"}
    return [c for c in deck()[:45] if c not in on] + list(faces)
