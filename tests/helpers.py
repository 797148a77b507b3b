"""Helpers for driving the app in tests."""

from __future__ import annotations

from garito.core.gemelos import Config
from garito.core.match import Match, Seat


async def settle(pilot, rounds: int = 4) -> None:
    """Let computer seats (thread workers) and the screens they open finish."""
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def gemelos_match(seed: int = 7, seats=("human", "computer"), **rules) -> Match:
    names = ("Ana", "Ramón", "Lucía", "Tomás", "Inés", "Xoán")
    config = Config(players=len(seats), **rules)
    return Match.start(
        "gemelos",
        config,
        seed,
        tuple(Seat(names[i], kind) for i, kind in enumerate(seats)),
    )


def sync(coro_fn):
    """Run an async test with asyncio (no pytest plugin needed)."""
    import asyncio
    import functools

    @functools.wraps(coro_fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(coro_fn(*args, **kwargs))

    return wrapper


def redman_match(seed: int = 5, seats=("human", "computer"), names=("Ana", "Ramón"), **rules) -> Match:
    from garito.core.redman import Config as RedManConfig

    return Match.start(
        "redman",
        RedManConfig(**rules),
        seed,
        tuple(Seat(names[i], kind) for i, kind in enumerate(seats)),
    )


def barras_match(
    seed: int = 3, seats=("human", "computer", "computer"), levels=("steady", "cautious", "reckless"), **rules
) -> Match:
    from garito.core.barras import Config as BarrasConfig

    names = ("Ana", "Ramón", "Lucía", "Tomás", "Inés", "Xoán")
    return Match.start(
        "barras",
        BarrasConfig(players=len(seats), **rules),
        seed,
        tuple(Seat(names[i], kind, levels[i % len(levels)]) for i, kind in enumerate(seats)),
    )


# Recorded dice for Irwin's Revenge in which Ana takes all five statuettes
# (naming Crab, Ant, Eagle, Salamander, Jellyfish) while Bea misses (naming
# Eagle, Eagle, Salamander twice, Jellyfish twice), then Ana's first final
# throw, 1-1-2-5-6, which the Ant (3 on the first die) and the Eagle (4 on
# the second) turn into a straight.
IRWIN_SWEEP = (
    (1, 2, 2, 3, 4, 2, 4, 1, 3, 5, 5, 2, 4, 1, 10, 2, 4, 2, 4, 9, 10, 2, 4, 6, 2, 4, 6, 3, 4),
    ["1", "4", "2", "4", "4", "5", "5", "5", "3", "3", "3"],
    (1, 1, 2, 5, 6),
)


def irwin_match(
    seed: int = 4, seats=("human", "computer"), names=("Ana", "Ramón"), dice=(), **rules
) -> Match:
    from garito.core.irwin import Config as IrwinConfig

    return Match.start(
        "irwin",
        IrwinConfig(**rules),
        seed,
        tuple(Seat(names[i], kind) for i, kind in enumerate(seats)),
        tuple(dice),
    )


# Decimus with recorded dice: Ana (seat 0) 6-6-5-1-1, the second seat
# 2-2-3-4-5 (see tests/test_decimus_game.py).
DECIMUS_DICE = (6, 6, 5, 1, 1, 2, 2, 3, 4, 5)


def decimus_match(
    seed: int = 2,
    seats=("human", "computer"),
    names=("Ana", "Ramón"),
    dice=DECIMUS_DICE,
    level="strong",
    **rules,
) -> Match:
    from garito.core.decimus import Config as DecimusConfig

    return Match.start(
        "decimus",
        DecimusConfig(**rules),
        seed,
        tuple(Seat(names[i], kind, level) for i, kind in enumerate(seats)),
        tuple(dice),
    )


def box_open(app) -> bool:
    """Is a round's result (the game screen's Notice) open?"""
    return bool(getattr(app.screen, "notice_open", False))


def box_text(app) -> str:
    from garito.widgets.notice import Notice

    return str(app.screen.query_one(Notice).body)
