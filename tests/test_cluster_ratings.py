"""A cluster's ratings on a real Redis (server/cluster_ratings.py): a match
played across hosts rated once however many hosts saw it end, the same
leaderboard on every host (one started later too), results racing from
several hosts each rated, a result that ended while Redis was down rated
once it is back, values Garito never writes set aside."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from garito.core.match import Match
from garito.server.cluster_ratings import ClusterRatings
from garito.server.redis_store import RedisStore
from garito.server.store import MemoryStore
from garito.server.tables import TableServer
from garito.store.ratings import Rating, Ratings, rate, rating_json, rating_of, result_id, result_of

from .helpers import sync
from .test_cluster import across, eventually, host, play_out, quick  # noqa: F401 - quick: the same pace, autouse
from .test_ratings import computer, person, played


async def rated_host(url: str) -> tuple[TableServer, str]:
    return await host(url, ratings=Ratings(None))


def board(server: TableServer, game: str) -> list[tuple[str, float, int]]:
    assert server.ratings is not None
    return [(r.name, round(r.ordinal, 6), r.matches) for r in server.ratings.leaders(game)]


def expected(match: Match) -> list[tuple[str, float, int]]:
    """The leaderboard one host alone would show after this one match."""
    result = result_of(match, "x")
    assert result is not None
    alone = Ratings(None)
    for key, rating in rate({}, result).items():
        alone.table[(match.game, key)] = rating
    return [(r.name, round(r.ordinal, 6), r.matches) for r in alone.leaders(match.game)]


@sync
async def test_a_match_across_hosts_is_rated_once_and_every_host_shows_the_same_board(redis_server):
    hosts = [await rated_host(redis_server.url) for _ in range(3)]
    (a, pa), (b, pb), _ = hosts
    try:
        ana, bea = await across(pa, b, pb, seed=3)
        await play_out({0: ana, 1: bea}, 1)
        match = a.tables[1].match
        want = expected(match)
        assert [m for _, _, m in want] == [1, 1]
        for server, _ in hosts:  # every host saw the end and offered it: one rating, on each
            await eventually(lambda server=server: board(server, "gemelos") == want)
        held = await a.store.ratings("gemelos")
        assert sorted(held) == ["Ana", "Bea"] and {rating_of(t).matches for t in held.values()} == {1}  # type: ignore[union-attr]
        result = result_of(match, a.tables[1].finished)
        assert result is not None
        assert redis_server.command("EXISTS", f"garito:rated:{result_id(result)}") == b":1\r\n"
        # The lobby's listing shows the ratings, and the leaderboard asked of B.
        await bea.send(op="leaders", game="gemelos")
        leaders = await bea.until(lambda m: m["op"] == "leaders")
        assert [row["matches"] for row in leaders["rows"]] == [1, 1] and leaders["place"] in (1, 2)
        late, pl = await rated_host(redis_server.url)  # started after: read from Redis
        hosts.append((late, pl))
        await eventually(lambda: board(late, "gemelos") == want)
    finally:
        for server, _ in hosts:
            await server.close()


async def stores(url: str, n: int) -> list[tuple[RedisStore, ClusterRatings]]:
    out = []
    for _ in range(n):
        store = RedisStore(url)
        rated = ClusterRatings(store, Ratings(None), lambda game, keys: None)
        await store.open(lambda channel, payload, rated=rated: rated.heard(channel, payload))
        out.append((store, rated))
    return out


@sync
async def test_one_result_offered_by_many_hosts_at_once_is_rated_once(redis_server):
    hosts = await stores(redis_server.url, 4)
    try:
        match = played("gemelos", (person("Ana"), computer("hard"), person("Cid")), 2)
        await asyncio.gather(*(rated.played(match, "2026-12-07T10:00:00Z") for _, rated in hosts))
        for _, rated in hosts:
            await eventually(lambda rated=rated: len(rated.ratings.table) == 3)
            assert {r.matches for r in rated.ratings.table.values()} == {1}
            assert not rated.waiting
        # The same result offered again later (a host catching up): nothing moves.
        await hosts[0][1].played(match, "2026-12-07T10:00:00Z")
        assert {r.matches for r in hosts[0][1].ratings.table.values()} == {1}
    finally:
        for store, _ in hosts:
            await store.close()


@sync
async def test_results_racing_from_several_hosts_are_each_rated(redis_server):
    """Twelve matches of one game ending at once on four hosts, each
    offered by every host: each rated once (the players' match counts), the
    same ratings on every host and in Redis."""
    hosts = await stores(redis_server.url, 4)
    try:
        matches = [played("gemelos", (person("Ana"), person(f"P{i % 3}")), 10 + i) for i in range(12)]
        await asyncio.gather(
            *(
                rated.played(m, f"2026-12-07T10:00:{i:02d}Z")
                for i, m in enumerate(matches)
                for _, rated in hosts
            )
        )
        texts = await hosts[0][0].ratings("gemelos")
        in_redis = {k: rating_of(t) for k, t in texts.items()}
        assert in_redis["Ana"] is not None and in_redis["Ana"].matches == 12
        assert {k: r.matches for k, r in in_redis.items() if r is not None and k != "Ana"} == {
            "P0": 4, "P1": 4, "P2": 4
        }  # fmt: skip
        for _, rated in hosts:
            await eventually(
                lambda rated=rated: rated.ratings.table.get(("gemelos", "Ana")) == in_redis["Ana"]
            )
            assert {k: r for (_, k), r in rated.ratings.table.items()} == in_redis
    finally:
        for store, _ in hosts:
            await store.close()


@sync
async def test_a_result_that_ended_while_redis_was_down_is_rated_once_it_is_back(redis_server):
    (store, rated), (_, other) = await stores(redis_server.url, 2)
    try:
        match = played("gemelos", (person("Ana"), person("Bea")), 4)
        redis_server.stop()
        await rated.played(match, "2026-12-07T11:00:00Z")  # nothing raised: it waits
        assert len(rated.waiting) == 1 and not rated.ratings.table
        await rated.patrol()  # still down: still waiting
        assert len(rated.waiting) == 1
        redis_server.start()
        for _ in range(100):
            await rated.patrol()
            if not rated.waiting:
                break
            await asyncio.sleep(0.05)
        assert not rated.waiting and {r.matches for r in rated.ratings.table.values()} == {1}
        for _ in range(100):  # the other heard it, or read it again once listening again
            await other.patrol()
            if other.ratings.table == rated.ratings.table:
                break
            await asyncio.sleep(0.05)
        assert other.ratings.table == rated.ratings.table
    finally:
        await store.close()


@sync
async def test_ratings_garito_never_writes_are_set_aside_and_the_rest_rate_on(redis_server, caplog):
    caplog.set_level(logging.WARNING)
    redis_server.command("HSET", "garito:ratings:gemelos", "Ana", "not json")
    redis_server.command("HSET", "garito:ratings:gemelos", "Bea", json.dumps({"name": "Bea", "mu": "x"}))
    redis_server.command(
        "HSET", "garito:ratings:gemelos", "Cid", rating_json(Rating("Cid", False, 30.0, 5.0, 7))
    )
    redis_server.command("SET", "garito:ratings:decimus", "a string, not a hash")
    (store, rated), (_, other) = await stores(redis_server.url, 2)
    try:
        await rated.load()
        assert {k: r.matches for (_, k), r in rated.ratings.table.items()} == {"Cid": 7}
        assert "damaged" in caplog.text
        # Ana's rating is begun again from the prior; Cid's held one is used.
        await rated.played(played("gemelos", (person("Ana"), person("Cid")), 5), "2026-12-07T12:00:00Z")
        assert rated.ratings.table[("gemelos", "Ana")].matches == 1
        assert rated.ratings.table[("gemelos", "Cid")].matches == 8
        # A game whose key is not a hash: set aside, and its results rated afresh.
        assert redis_server.command("TYPE", "garito:ratings:decimus:damaged") == b"+string\r\n"
        await rated.played(played("decimus", (person("Ana"), computer("strong")), 6), "2026-12-07T12:01:00Z")
        assert not rated.waiting and rated.ratings.table[("decimus", "Ana")].matches == 1
        # A held rating far out of any range a match gives: read as damaged
        # (begun again), the result rated, the next one too.
        far = json.dumps({"name": "Dan", "computer": False, "mu": 1e308, "sigma": 1, "matches": 3})
        redis_server.command("HSET", "garito:ratings:gemelos", "Dan", far)
        await rated.played(played("gemelos", (person("Dan"), person("Eve")), 8), "2026-12-07T12:02:00Z")
        await rated.played(played("gemelos", (person("Fay"), person("Gus")), 9), "2026-12-07T12:03:00Z")
        assert not rated.waiting and rated.ratings.table[("gemelos", "Fay")].matches == 1
        assert rated.ratings.table[("gemelos", "Dan")].matches == 1
        # Foreign words on the channel: set aside by the table server's listener (ValueError).
        for word in ("[]", '{"game": "nope", "ratings": {}}', '{"game": "gemelos"}'):
            with pytest.raises(ValueError):
                other.heard("rated", word)
        other.heard("rated", json.dumps({"game": "gemelos", "ratings": {"Eve": "junk", "Zoe": "x", 5: "x"}}))
        await eventually(lambda: ("gemelos", "Eve") in other.ratings.table)  # what Redis holds: a real one
        assert (
            other.ratings.table[("gemelos", "Eve")].matches == 1
            and ("gemelos", "Zoe") not in other.ratings.table
        )
    finally:
        await store.close()


@sync
async def test_a_word_is_a_hint_and_every_host_holds_what_redis_holds(redis_server):
    """A word of ratings names players; what they hold is read back from
    Redis, one word after another: a planted word moves nothing, and a Redis
    that lost its ratings is what the hosts show (not a mirror of the past)."""
    (store, rated), (other_store, other) = await stores(redis_server.url, 2)
    try:
        await rated.played(played("gemelos", (person("Ana"), person("Bea")), 3), "2026-12-07T14:00:00Z")
        await eventually(lambda: ("gemelos", "Ana") in other.ratings.table)
        held = other.ratings.table[("gemelos", "Ana")]
        planted = rating_json(Rating("Ana", False, -50.0, 1.0, 10**9))
        redis_server.command(
            "PUBLISH", "garito:rated", json.dumps({"game": "gemelos", "ratings": {"Ana": planted}})
        )
        await asyncio.sleep(0.3)
        assert other.ratings.table[("gemelos", "Ana")] == held
        redis_server.command("DEL", "garito:ratings:gemelos")  # lost
        await other.load()
        assert ("gemelos", "Ana") not in other.ratings.table
    finally:
        await store.close()
        await other_store.close()


@sync
async def test_the_memory_store_rates_once_as_redis_does():
    """The seam's other side: one host's memory store takes the same calls
    with the same meaning (a result rated once, word of it heard)."""
    store = MemoryStore()
    rated = ClusterRatings(store, Ratings(None), lambda game, keys: None)
    await store.open(rated.heard)
    match = played("gemelos", (person("Ana"), computer("hard")), 7)
    for _ in range(3):
        await rated.played(match, "2026-12-07T13:00:00Z")
    assert {r.matches for r in rated.ratings.table.values()} == {1} and len(rated.ratings.table) == 2
    texts = await store.ratings("gemelos")
    assert {k: rating_of(t) for k, t in texts.items()} == {k: r for (_, k), r in rated.ratings.table.items()}
    await store.close()
