"""A cluster's ratings: its store's (one hash of JSON ratings per game),
mirrored in each host's memory (a ``store.ratings.Ratings`` with no folder),
which the lobby's listing and leaderboard read as on one host.

Every host that sees a shared match end offers its result; the store rates
it once under its id (``result_id``: its game, commitment and finish time),
however many hosts offer it, and tells every host the new ratings ("rated").
A host takes a rating only after more matches than the one it holds, so a
late, repeated or reordered word never takes one back. A host that was not
listening (just started, or its connection to Redis lost) reads every game's
ratings again once it listens ("subscribed").

A result offered while the store is down waits here (the newest ``WAITING``)
and is offered again by the patrol, once a second, until the store takes
it: the other hosts that saw the end offer it too, and the id keeps it to
one rating whoever succeeds first.
"""

from __future__ import annotations

import functools
import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from garito.core import catalog
from garito.core.match import Match
from garito.store.ratings import Rating, Ratings, Result, rate, rating_json, rating_of, result_id, result_of

from .store import Damaged, StoreDown, TableStore

log = logging.getLogger("garito.ratings")

WAITING = 1000  # results kept to offer again while the store is down


class ClusterRatings:
    def __init__(
        self, store: TableStore, ratings: Ratings, changed: Callable[[str, list[str]], None]
    ) -> None:
        self.store = store
        self.ratings = ratings
        self.changed = changed  # (game, keys): those players' ratings moved here
        self.waiting: OrderedDict[str, Result] = OrderedDict()  # id -> a result the store has not taken
        self.stale = True  # every game's ratings to be read (at the start, and after a lost connection)

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
            except Damaged as e:  # a game's ratings that are not Garito's: this result is not rated
                log.warning("%s's shared ratings are damaged (%s): a result not rated", result["game"], e)
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
        return {key: rating_json(r) for key, r in rate(ratings, result).items()}

    def heard(self, channel: str, payload: str) -> None:
        """Word of a result rated, by any host ("rated": ValueError if it is
        not as a host publishes it), or of listening again ("subscribed":
        what was rated meanwhile is read by the next patrol)."""
        if channel == "subscribed":
            self.stale = True
            return
        word = json.loads(payload)
        if not isinstance(word, dict) or not isinstance(word.get("ratings"), dict):
            raise ValueError("word of ratings is an object with ratings")
        game = word.get("game")
        if not isinstance(game, str) or game not in catalog.BY_ID:
            raise ValueError("word of ratings names a game")
        self._take(game, word["ratings"])

    def _take(self, game: str, texts: dict[Any, Any]) -> None:
        ratings = {k: r for k, t in texts.items() if isinstance(k, str) and (r := rating_of(t)) is not None}
        if len(ratings) < len(texts):
            log.warning("%d of %s's shared ratings are damaged: set aside", len(texts) - len(ratings), game)
        changed = self.ratings.take_newer(game, ratings)
        if changed:
            self.changed(game, changed)

    async def load(self) -> None:
        """Every game's ratings, read from the store (StoreDown raised on:
        read again by the patrol)."""
        self.stale = True
        for game in catalog.BY_ID:
            try:
                texts = await self.store.ratings(game)
            except Damaged as e:
                log.warning("%s's shared ratings are damaged (%s): set aside", game, e)
                continue
            self._take(game, texts)
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
