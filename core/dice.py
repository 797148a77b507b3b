"""Seeded dice: one ``random.Random`` stream per game, carried in the state.

The stream's state is an immutable tuple (``Random.getstate()``) held by the
game state, so a state is a value: applying the same action to it twice gives
the same dice, and a saved game resumes with the same dice to come.
"""

from __future__ import annotations

import random
import threading

RngState = tuple
_local = threading.local()  # one Random per thread, re-stated for each roll


def _generator() -> random.Random:
    # Building a Random seeds it from the OS, which cost more than the roll
    # itself; one kept per thread is only ever used through setstate.
    r = getattr(_local, "random", None)
    if r is None:
        r = _local.random = random.Random(0)
    return r


def new_stream(seed: int, dice: tuple[int, ...] = ()) -> RngState:
    """The stream's state for a game started with ``seed``; recorded
    ``dice`` (faces thrown at a real table), if any, come first."""
    return scripted(tuple(dice), random.Random(seed).getstate())


def scripted(faces: tuple[int, ...], rng: RngState) -> RngState:
    """A stream that gives ``faces`` first, then goes on with ``rng``.

    This is how a record keeps dice thrown at a real table (the seed's
    worked matches are such records): the faces are data in the record,
    checked against each die's sides as they are used.
    """
    return ("script", tuple(faces), rng) if faces else rng


class recording:
    """``with recording() as tape:`` collects every die rolled in this thread
    meanwhile, as (sides, face) pairs (the dice audit replays records under
    it)."""

    def __enter__(self) -> list[tuple[int, int]]:
        self._outer = getattr(_local, "tape", None)
        _local.tape = []
        return _local.tape

    def __exit__(self, *exc) -> None:
        _local.tape = self._outer


def roll(rng: RngState, sides: int, count: int) -> tuple[tuple[int, ...], RngState]:
    """Roll ``count`` fair dice of ``sides`` faces (1..sides).

    Returns the faces in the order rolled and the stream's next state.
    """
    faces, rng = _roll(rng, sides, count)
    tape = getattr(_local, "tape", None)
    if tape is not None:
        tape.extend((sides, f) for f in faces)
    return faces, rng


def _roll(rng: RngState, sides: int, count: int) -> tuple[tuple[int, ...], RngState]:
    if rng and rng[0] == "script":
        _, faces, inner = rng
        take = faces[:count]
        for face in take:
            if not (isinstance(face, int) and 1 <= face <= sides):
                raise ValueError(f"a recorded die shows {face!r}, not a face of a d{sides}")
        rest, inner = _roll(inner, sides, count - len(take)) if count > len(take) else ((), inner)
        return take + rest, scripted(faces[count:], inner)
    r = _generator()
    r.setstate(rng)
    faces = tuple(r.randint(1, sides) for _ in range(count))
    return faces, r.getstate()


def fresh_seed() -> int:
    """A seed for a game the player did not seed: 32 bits, easy to type back."""
    return random.SystemRandom().randrange(1, 2**32)
