"""Seeded dice: one stream per game, carried in the state.

The stream's state is an immutable tuple held by the game state, so a state
is a value: applying the same action to it twice gives the same dice, and a
saved game resumes with the same dice to come.

Two kinds of stream, chosen when a match starts and kept in its record:

``MT`` (the default, every local game)
    ``random.Random(seed)``, the Mersenne Twister; its state is
    ``Random.getstate()``. Fast, and every record kept so far replays on it.
    It is linear: enough of its output gives its whole state back, so it is
    not for dice an opponent must not predict.
``COUNTER`` (a table server's)
    HMAC-SHA256 in counter mode, keyed by a hash of the seed: 32-bit word
    ``n`` is bytes ``4(n mod 8)``..+4 of ``HMAC(key, n div 8)``. Its state is
    ``(COUNTER, key hex, words used)``. Without the key, the faces shown say
    nothing about the faces to come (HMAC is a pseudo-random function), and
    the key is never sent; the seed, drawn with ``secrets``, is published
    only as ``commitment(seed)`` until the match ends.

Both give faces through ``random.Random``'s own unbiased ``randint``, so a
stream is only a source of bits.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import threading
from typing import Any

RngState = tuple[Any, ...]
"""A stream's state: the Mersenne twister's ``getstate()``, a counter
stream's (kind, key, used), or recorded faces before either."""
_local = threading.local()  # one Random per thread, re-stated for each roll

MT = "mt19937"
COUNTER = "hmac-sha256-ctr"
STREAMS = (MT, COUNTER)


def _generator() -> random.Random:
    # Building a Random seeds it from the OS, which cost more than the roll
    # itself; one kept per thread is only ever used through setstate.
    r = getattr(_local, "random", None)
    if r is None:
        r = _local.random = random.Random(0)
    return r


class _Counter(random.Random):
    """The ``COUNTER`` stream as a ``random.Random``: every method
    (``randint``, ``shuffle``, ...) draws through ``getrandbits``."""

    def __init__(self, state: RngState) -> None:  # no Mersenne seeding: its state is unused
        self.gauss_next = None
        self.setstate(state)

    def seed(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a counter stream is made from its state (new_stream)")

    def setstate(self, state: RngState) -> None:
        kind, key, used = state
        if kind != COUNTER or not isinstance(used, int) or used < 0:
            raise ValueError(f"not a {COUNTER} stream's state")
        self._key, self._used = bytes.fromhex(key), used
        self._block_no, self._block = -1, b""

    def getstate(self) -> RngState:
        return (COUNTER, self._key.hex(), self._used)

    def _word(self) -> int:
        number, at = divmod(self._used, 8)
        if number != self._block_no:
            self._block = hmac.digest(self._key, number.to_bytes(8, "big"), "sha256")
            self._block_no = number
        self._used += 1
        return int.from_bytes(self._block[4 * at : 4 * at + 4], "big")

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        words = (k + 31) // 32
        value = 0
        for _ in range(words):
            value = (value << 32) | self._word()
        return value >> (32 * words - k)

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53


def _key(seed: int) -> str:
    return hashlib.sha256(b"garito dice v1\0" + str(seed).encode()).hexdigest()


def commitment(seed: int) -> str:
    """What a table publishes before its first die: the seed's SHA-256 (in a
    domain of its own, so it is not the stream's key). A seed of 128 random
    bits cannot be found from it; once the seed is shown, anyone can check
    that it is the one committed to."""
    return hashlib.sha256(b"garito seed v1\0" + str(seed).encode()).hexdigest()


def secret_seed() -> int:
    """A table server's seed: 128 bits from the OS's secure source."""
    return secrets.randbits(128)


def new_stream(seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> RngState:
    """The stream's state for a game started with ``seed``; recorded
    ``dice`` (faces thrown at a real table), if any, come first."""
    if stream == MT:
        inner = random.Random(seed).getstate()
    elif stream == COUNTER:
        inner = (COUNTER, _key(seed), 0)
    else:
        raise ValueError(f"unknown dice stream {stream!r} (known: {', '.join(STREAMS)})")
    return scripted(tuple(dice), inner)


def generator(rng: RngState) -> random.Random:
    """A ``random.Random`` at stream state ``rng`` (its ``getstate()``
    afterwards is the stream's next state), for a game that deals cards
    rather than rolls dice."""
    if rng and rng[0] == COUNTER:
        return _Counter(rng)
    r = random.Random(0)
    r.setstate(rng)
    return r


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
        tape: list[tuple[int, int]] = []
        _local.tape = tape
        return tape

    def __exit__(self, *exc: object) -> None:
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
    if rng and rng[0] == COUNTER:
        r: random.Random = _Counter(rng)
    else:
        r = _generator()
        r.setstate(rng)
    faces = tuple(r.randint(1, sides) for _ in range(count))
    return faces, r.getstate()


def fresh_seed() -> int:
    """A seed for a game the player did not seed: 32 bits, easy to type back."""
    return random.SystemRandom().randrange(1, 2**32)
