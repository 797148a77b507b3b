"""Random legal mid-game positions: a table of melds and a hand, from the
cards the table left. The tests and ``bench/willie.py`` draw on them; they
are built meld by meld, so every table is legal by construction and wilds
appear as they do in play (declared in groups and runs, bare in Willies)."""

from __future__ import annotations

import random

from .cards import SUITS, deck


def random_position(
    rng: random.Random, table_size: int, hand_size: int, wild_rate: float = 0.3, strict: bool = False
) -> tuple[list[list[str]], list[str]]:
    """``(table, hand)``: a legal table of about ``table_size`` cards (it stops
    at the first meld that reaches it) and ``hand_size`` cards from the rest.
    Unless ``strict``, a meld that would need a card already on the table
    gets a wild standing for it there, as the open wild rule allows."""
    unplaced = set(deck()[:45])  # identities not on the table as themselves
    unstood = set(unplaced)  # identities no wild stands for
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
        fresh = unplaced if not strict else unplaced & unstood
        taken = [i for i in idents if i not in fresh]
        if len(taken) > 1 or (taken and (strict or not faces or taken[0] not in unstood)):
            continue
        meld = list(idents)
        at = None
        if taken:
            at = idents.index(taken[0])  # a wild stands for a card on the table
        elif faces and rng.random() < wild_rate:
            spots = [k for k, i in enumerate(idents) if i in unstood]  # no two wilds for one card
            at = rng.choice(spots) if spots else None
        if at is not None:
            meld[at] = f"{faces.pop()}={meld[at]}"
            unstood.discard(idents[at])
        unplaced -= {i for k, i in enumerate(idents) if k != at}
        if strict and at is not None:
            unplaced.discard(idents[at])
        table.append(meld)
        size += len(meld)
    rest = _left(table, faces)
    hand = rng.sample(rest, min(hand_size, len(rest)))
    return table, hand


def _left(table: list[list[str]], faces: list[str]) -> list[str]:
    """The cards not on the table: every number card not there as itself, and
    the faces not used."""
    on = {c for m in table for c in m if "=" not in c and c not in "JQK"}
    return [c for c in deck()[:45] if c not in on] + list(faces)
