"""A cluster's ratings: its store's (one hash of JSON ratings per game),
mirrored in each host's memory (a ``store.ratings.Ratings`` with no folder),
which the lobby's listing and leaderboard read as on one host.

Every host that sees a shared match end offers its result; the store rates
it once under its id (``result_id``: its game, commitment and finish time),
however many hosts offer it, and tells every host which players' ratings
moved ("rated"). The word is only a hint: each host reads those ratings
back from the store, one word after another, and holds what the store
holds, so a planted word moves nothing, and a store that lost its ratings
is what every host shows. A host that was not listening (just started, or
its connection to Redis lost) reads every game's ratings again once it
listens ("subscribed").

A result offered while the store is down waits here (the newest ``WAITING``)
and is offered again by the patrol, once a second, until the store takes
it: the other hosts that saw the end offer it too, and the id keeps it to
one rating whoever succeeds first. A result the ratings cannot take (a
player's held rating out of any range a match gives, say) is let go with a
log line, and the others are offered on.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from garito.core import catalog
from garito.core.match import Match
from garito.store.ratings import Rating, Ratings, Result, rate, rating_json, rating_of, result_id, result_of

from .store import Damaged, StoreDown, TableStore

log = logging.getLogger("garito.ratings")

WAITING = 1000  # results kept to offer again while the store is down
MAX_WORD = 64  # players' keys a word may name (a match seats at most 8)


class ClusterRatings:
    def __init__(
        self, store: TableStore, ratings: Ratings, changed: Callable[[str, list[str]], None]
    ) -> None:
        self.store = store
        self.ratings = ratings
        self.changed = changed  # (game, keys): those players' ratings moved here
        self.waiting: OrderedDict[str, Result] = OrderedDict()  # id -> a result the store has not taken
        self.stale = True  # every game's ratings to be read (at the start, and after a lost connection)
        self._words: asyncio.Queue[tuple[str, list[str]]] = asyncio.Queue(maxsize=1000)
        self._reader: asyncio.Task[None] | None = None

    async def played(self, match: Match[Any, Any, Any], finished: str) -> None:
        result = result_of(match, finished)
        if result is None:
            return
        self.waiting[result_id(result)] = result
        while len(self.waiting) > WAITING:
            dropped = self.waiting.popitem(last=False)[1]
            log.warning("a %s result waited too long for the shared ratings: not rated", dropped["game"])
        try:
            await self.offer()
        except StoreDown:
            pass  # it waits: offered again by the patrol

    async def offer(self) -> None:
        """What waits, offered in order; the rest left waiting when the
        store is down (StoreDown is raised on)."""
        for rid, result in list(self.waiting.items()):
            keys = sorted({s[0] for s in result["seats"]})
            try:
                new = await self.store.rate(result["game"], rid, keys, functools.partial(self._rater, result))
            except Damaged as e:  # set aside by the store: offered again at the next look
                log.warning("%s's shared ratings are damaged (%s): offered again", result["game"], e)
                continue
            except (ArithmeticError, ValueError) as e:  # the ratings can't take it: the others go on
                log.warning("a %s result could not be rated (%s): let go", result["game"], e)
                new = None
            self.waiting.pop(rid, None)
            if new is not None:
                self._take(result["game"], new)

    def _rater(self, result: Result, held: dict[str, str | None]) -> dict[str, str]:
        ratings: dict[str, Rating] = {}
        for key, text in held.items():
            rating = rating_of(text) if text is not None else None
            if text is not None and rating is None:
                log.warning("%s's rating in the store is damaged: begun again", result["game"])
            if rating is not None:
                ratings[key] = rating
        new = rate(ratings, result)
        if not all(math.isfinite(r.mu) and math.isfinite(r.sigma) and r.sigma > 0 for r in new.values()):
            raise ValueError("a rating that is not a number")
        return {key: rating_json(r) for key, r in new.items()}

    def heard(self, channel: str, payload: str) -> None:
        """Word of a result rated, by any host ("rated": ValueError if it is
        not as a host publishes it; the players it names are read back from
        the store), or of listening again ("subscribed": every rating is read
        again by the next patrol)."""
        if channel == "subscribed":
            self.stale = True
            return
        word = json.loads(payload)
        if not isinstance(word, dict) or not isinstance(word.get("ratings"), dict):
            raise ValueError("word of ratings is an object with ratings")
        game = word.get("game")
        if not isinstance(game, str) or game not in catalog.BY_ID:
            raise ValueError("word of ratings names a game")
        keys = [k for k in word["ratings"] if isinstance(k, str)][:MAX_WORD]
        try:
            self._words.put_nowait((game, keys))
        except asyncio.QueueFull:
            self.stale = True  # too many at once: all read again
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._read_words())

    async def _read_words(self) -> None:
        """The words, one after another: each one's ratings read back from
        the store (in the order the words came, so a later read is never
        overtaken by an earlier one)."""
        while not self._words.empty():
            game, keys = self._words.get_nowait()
            try:
                texts = await self.store.ratings(game, keys)
            except (StoreDown, Damaged):
                self.stale = True  # read again whole by the patrol
                continue
            self._take(game, {k: texts.get(k) for k in keys})

    def _take(self, game: str, texts: dict[Any, Any], *, whole: bool = False) -> None:
        ratings: dict[str, Rating | None] = {}
        damaged = 0
        for k, t in texts.items():
            if isinstance(k, str):
                ratings[k] = rating_of(t) if t is not None else None
                damaged += t is not None and ratings[k] is None
        if damaged:
            log.warning("%d of %s's shared ratings are damaged: set aside", damaged, game)
        changed = self.ratings.replace(game, ratings, whole=whole)
        if changed:
            self.changed(game, changed)

    async def load(self) -> None:
        """Every game's ratings, read from the store and held as it holds
        them (StoreDown raised on: read again by the patrol)."""
        self.stale = True
        for game in catalog.BY_ID:
            try:
                texts = await self.store.ratings(game)
            except Damaged as e:
                log.warning("%s's shared ratings are damaged (%s): set aside", game, e)
                continue
            self._take(game, texts, whole=True)
        self.stale = False

    async def patrol(self) -> None:
        """Once a second: the ratings read again if a read was missed, and
        what waits offered again."""
        try:
            if self.stale:
                await self.load()
            if self.waiting:
                await self.offer()
        except StoreDown:
            pass
