"""Helpers for driving the app in tests."""

from __future__ import annotations

from garito.core.gemelos import Config
from garito.core.match import Match, Seat


async def settle(pilot, rounds: int = 4) -> None:
    """Let computer seats (thread workers) and the screens they open
    finish, and the saves on their way be written."""
    from garito.store import saves

    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    saves.flush()
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


def match_over(app) -> bool:
    """Is the match's end (in the game screen's Notice) up?"""
    return getattr(app.screen, "over", None) is not None


def over_kind(app) -> str | None:
    """The match's end that is up: match, table (a player's) or watch."""
    over = getattr(app.screen, "over", None)
    return None if over is None else over.kind


def box_keys(app) -> str:
    """The line under the box's text: what the keys do now."""
    from garito.widgets.notice import Notice

    return app.screen.query_one(Notice).keys


def box_text(app) -> str:
    from garito.widgets.notice import Notice

    return str(app.screen.query_one(Notice).body)


def willie_match(
    seed: int = 3, seats=("human", "computer"), names=("Ana", "Ramón"), level="hard", **rules
) -> Match:
    from garito.core.willie import Config as WillieConfig

    return Match.start(
        "willie",
        WillieConfig(players=len(seats), **rules),
        seed,
        tuple(Seat(n, k, level) for n, k in zip(names, seats)),
    )


# Seed 297 after three moves: Ana's first draw, with five melds on the table.
OPENING = (
    "meld 4b J=5b 6b | 7r 7o J=7y | K=9r 9o 9g",
    "pass",
    "meld 4b J=5b 6b | 7o 8o 9o | Q=2r 2o 2b | 7r J=7y 7g | K=9r 9y 9g 9b",
)
TABLE_297 = (
    ("4b", "J=5b", "6b"),
    ("7o", "8o", "9o"),
    ("Q=2r", "2o", "2b"),
    ("7r", "J=7y", "7g"),
    ("K=9r", "9y", "9g", "9b"),
)


def opening(seats=("human", "computer"), names=("Ana", "Ramón"), **rules) -> Match:
    from garito.core import willie as wx

    rules.setdefault("helpers", True)  # the learning help (a, h) these tests use
    match = willie_match(297, seats, names, **rules)
    for text in OPENING:
        match = match.play(wx.Action.parse(text))
    return match


def table(app):
    """The Willie screen (under any dialog)."""
    from garito.tui.screens.willie import WillieScreen

    return next(s for s in reversed(app.screen_stack) if isinstance(s, WillieScreen))


async def go_to(pilot, card: str) -> None:
    """Move the cursor onto ``card`` with the arrow keys and Tab."""
    scr = table(pilot.app)
    bench = scr.bench
    if card in bench.left:
        if scr.zone != "hand":
            await pilot.press("tab")
        order = scr._order(bench.left)
        want = order.index(bench.left.index(card))
        while order.index(scr.at_hand) != want:
            await pilot.press("right" if order.index(scr.at_hand) < want else "left")
        return
    m, i = next((m, i) for m, cards in enumerate(bench.table) for i, c in enumerate(cards) if c == card)
    if scr.zone != "table":
        await pilot.press("tab")
    while scr.at_meld != m:  # card by card: → past a meld's end goes on to the next
        await pilot.press("right" if scr.at_meld < m else "left")
    while scr.at_card != i:
        await pilot.press("right" if scr.at_card < i else "left")


async def pick(pilot, *cards: str) -> None:
    for card in cards:
        await go_to(pilot, card)
        await pilot.press("space")


def screen_lines(app) -> list[str]:
    """The terminal's lines as the player sees them (what the snapshot's
    picture shows, as text)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text().split("\n")[:height]


def frames_sent(app) -> list:
    """Every update the app sends its terminal from now on (each still sent)."""
    frames: list = []
    display = app._display

    def kept(screen, update):
        frames.append(update)
        display(screen, update)

    app._display = kept
    return frames
