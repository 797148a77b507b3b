"""The shared tables on Redis (``garito serve --redis URL``): several hosts,
one lobby, no table lost with its host.

Keys (``garito:`` first, so a Redis can hold other things too):

``garito:{t<N>}:log``   table N's record, a list of JSON entries; the braces
                        are a hash tag, so a table's keys stay in one slot
``garito:tables``       the open tables' numbers (a set)
``garito:next``         the last table number given
``garito:hosts``        the hosts alive: a sorted set, each host's score the
                        moment (Redis's clock, ms) its heartbeat runs out
``garito:allow:<kind>:<key>``  one allowance (left, when counted), Redis's clock
``garito:ratings:<game>``  the game's ratings: a hash, each player's key to
                        their rating (JSON)
``garito:rated:<id>``   a result rated (kept RATED_FOR seconds): none twice

Channels: ``garito:appends`` ("N:length:entry" after each append: the hosts
with that table replay it, or catch up), ``garito:talk`` (a line said, for every host's
players) and ``garito:rated`` (a result's new ratings). A host that missed
a message (a dropped connection) catches up anyway: the table server asks
for every record's length each second, and reads the ratings again.

The append, a heartbeat and an allowance are each one Lua script, so each is
atomic on the server whatever the other hosts do at the same moment.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from typing import Any

import redis.asyncio as aioredis
from redis import exceptions as rx
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from .store import MAX_ENTRIES, RATED_FOR, Damaged, Heard, Rater, StoreDown, host_id

log = logging.getLogger("garito.redis")

PREFIX = "garito:"
TABLES = PREFIX + "tables"
NEXT = PREFIX + "next"
HOSTS = PREFIX + "hosts"
APPENDS = PREFIX + "appends"
TALK = PREFIX + "talk"
RATED = PREFIX + "rated"
CHANNELS = (APPENDS, TALK, RATED)
RATE_TRIES = 20  # a result's rating begun again when another's came first (WATCH)

BEAT = 1.0  # seconds between a host's heartbeats
ALIVE = 3.0  # a host not heard of for this long is gone: its players' seats are held
TIMEOUT = 2.0  # seconds a command may take before Redis counts as unreachable
KEPT = 3600  # seconds a closed table's record stays in Redis (for a look after the fact)
READ = 1000  # entries read at once
MAX_LISTED = 1000  # members of the open tables' set read at once (the cluster opens 64 at most)

# The record has the length the writer saw: the entry goes on its end, the
# table joins the open ones (its first entry), and every host hears of it,
# the entry with the word (a host holding the table at the length before
# replays it with no read of the record).
APPEND = """
local n = redis.call('LLEN', KEYS[1])
if n ~= tonumber(ARGV[1]) or n >= tonumber(ARGV[3]) then return -1 end
redis.call('RPUSH', KEYS[1], ARGV[2])
if n == 0 then redis.call('SADD', KEYS[2], ARGV[4]) end
redis.call('PUBLISH', ARGV[5], ARGV[4] .. ':' .. (n + 1) .. ':' .. ARGV[2])
return n + 1
"""

HEARTBEAT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 600000)
local alive = {}
for _, h in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf')) do
  if string.match(h, '^[0-9a-f]+$') and #h <= 40 then table.insert(alive, h)
  else redis.call('ZREM', KEYS[1], h) end
end
return alive
"""

# A token bucket on Redis's own clock (the hosts' clocks may differ): cost 1
# takes one only if one is left (-1 if none was: the check and the spending
# are one step, so connections at once can't each pass the check), -1 gives
# one back, 0 reads. A value out of its range is taken as a full bucket.
ALLOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local burst, every, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local v = redis.call('HMGET', KEYS[1], 'left', 'at')
local left, at = tonumber(v[1]), tonumber(v[2])
if left == nil or at == nil then left, at = burst, now end
left = math.min(burst, left + (now - at) / every)
if left ~= left or left > burst or left < -burst then left = burst end
if cost > 0 and left < cost then return '-1' end
if cost ~= 0 then
  left = math.min(burst, left - cost)
  redis.call('HSET', KEYS[1], 'left', tostring(left), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil(burst * every * 1000) + 1000)
end
return tostring(left)
"""


def log_key(table: int) -> str:
    return f"{PREFIX}{{t{table}}}:log"


class RedisStore:
    shared = True

    def __init__(self, url: str, *, host: str | None = None) -> None:
        self.url = url
        self.host = host or host_id()
        self.redis: Any = aioredis.from_url(
            url,
            decode_responses=True,
            socket_timeout=TIMEOUT,
            socket_connect_timeout=TIMEOUT,
            health_check_interval=10,
            # No command sent twice by the client: an append or an allowance
            # whose answer timed out may have been done, and done again would
            # count twice (or answer "not at that length" for a move that was
            # written). The callers decide again, from what the store holds.
            retry=Retry(NoBackoff(), 0),
        )
        self._append = self.redis.register_script(APPEND)
        self._beat = self.redis.register_script(HEARTBEAT)
        self._allow = self.redis.register_script(ALLOW)
        self._alive: set[str] = {self.host}
        self._tasks: list[asyncio.Task[None]] = []
        self._heard: Heard | None = None
        self._listening = asyncio.Event()  # subscribed: a line published from now on is heard
        self.down = False  # the last command found Redis unreachable
        self.closed = False  # closing: the loops end

    # ------------------------------------------------------------ lifetime

    async def open(self, heard: Heard) -> None:
        """Heartbeats and the hosts' channels start; Redis need not be up
        yet (the host retries, and says so in its log)."""
        self._heard = heard
        try:  # in the hosts' set before anything is written: no other host takes it for gone
            await self._beat_once()
        except (StoreDown, Damaged):
            pass
        self._tasks = [asyncio.create_task(self._heartbeats()), asyncio.create_task(self._listen())]
        # Subscribed before the first player is let in: a line said on a
        # host just started is heard by its own players too, not published
        # to nobody (a Redis that is down is waited for TIMEOUT, no longer).
        try:
            await asyncio.wait_for(self._listening.wait(), TIMEOUT)
        except TimeoutError:
            pass

    async def close(self) -> None:
        """Bounded whatever Redis or its client does: a task that does not
        end when cancelled (redis-py may take a cancellation inside a read
        for a timeout) is told by ``closed`` and left after 2 s."""
        self.closed = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=2)
        try:  # gone at once, not in ALIVE seconds: the others hold its seats now
            await asyncio.wait_for(self._call(self.redis.zrem(HOSTS, self.host)), TIMEOUT)
        except (StoreDown, TimeoutError):
            pass
        try:
            await asyncio.wait_for(self.redis.aclose(), TIMEOUT)
        except (TimeoutError, OSError, rx.RedisError):
            pass

    async def _call(self, awaitable: Any) -> Any:
        try:
            result = await awaitable
        except (TimeoutError, rx.ConnectionError, rx.TimeoutError, OSError) as e:
            if not self.down:
                log.warning("the shared tables are unavailable (%s): retrying", e)
            self.down = True
            raise StoreDown(str(e)) from None
        except UnicodeDecodeError as e:  # bytes Garito never writes
            raise Damaged(f"a value that is not UTF-8 ({e.reason})") from None
        except rx.NoScriptError:
            raise
        except rx.ResponseError as e:
            if "WRONGTYPE" in str(e) or "not an integer" in str(e) or "overflow" in str(e):
                raise Damaged(str(e)) from None
            if not self.down:
                log.warning("Redis refused a command (%s): retrying", e)
            self.down = True
            raise StoreDown(str(e)) from None
        if self.down:
            log.warning("the shared tables are back")
            self.down = False
        return result

    async def _beat_once(self) -> set[str]:
        hosts = await self._call(self._beat(keys=[HOSTS], args=[self.host, int(ALIVE * 1000)]))
        if not isinstance(hosts, list):
            raise Damaged(f"{HOSTS} answered {str(hosts)[:40]!r}")
        self._alive = {h for h in hosts if isinstance(h, str) and len(h) <= 40} | {self.host}
        return set(self._alive)

    async def _heartbeats(self) -> None:
        while not self.closed:
            await asyncio.sleep(BEAT)
            try:
                await self._beat_once()
            except (StoreDown, Damaged):
                pass
            except Exception:  # a fault of the client's or Garito's own: said, and beaten again
                log.exception("a heartbeat")

    async def _listen(self) -> None:
        """The other hosts' lines, to ``heard``; after a lost connection,
        subscribed again (what was missed meanwhile, the tables' lengths
        tell)."""
        wait = 0.1
        while not self.closed:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(*CHANNELS)
                wait = 0.1
                confirmed = 0
                while not self.closed:
                    # Subscription confirmations read too: listening is
                    # true once Redis has taken every channel, not when the
                    # command was sent.
                    message = await pubsub.get_message(timeout=BEAT)
                    if message is not None and message.get("type") == "subscribe":
                        confirmed += 1
                        if confirmed == len(CHANNELS):
                            self._listening.set()
                            if self._heard is not None:  # what was said meanwhile, read again
                                self._heard("subscribed", "")
                    if message is None or message.get("type") != "message":
                        continue
                    channel, data = message.get("channel"), message.get("data")
                    if isinstance(channel, str) and isinstance(data, str) and self._heard is not None:
                        self._heard(channel.removeprefix(PREFIX), data)
            except (TimeoutError, rx.ConnectionError, rx.TimeoutError, OSError):
                await asyncio.sleep(wait)
                wait = min(2.0, wait * 2)
            except Exception as e:  # a line that is not UTF-8, say: set aside, listened again
                log.warning("a line on the hosts' channels set aside: %s", str(e)[:120])
                await asyncio.sleep(wait)
                wait = min(2.0, wait * 2)
            finally:
                try:
                    await asyncio.wait_for(pubsub.aclose(), TIMEOUT)
                except Exception:  # a connection already gone
                    pass

    # ------------------------------------------------------------ records

    async def new_table(self) -> int:
        try:
            n = await self._call(self.redis.incr(NEXT))
        except Damaged:
            n = None
        if not isinstance(n, int) or not 1 <= n < 10**11:
            # Not a number Garito gave (a foreign value, or past what the
            # tables' set takes): begun again past the highest open table.
            log.warning("%s held %s: set aside", NEXT, str(n)[:40])
            highest = max((await self.lengths()).keys(), default=0)
            await self._call(self.redis.set(NEXT, highest))
            n = await self._call(self.redis.incr(NEXT))
        return int(n)

    async def append(self, table: int, expected: int, entry: str) -> bool:
        n = await self._call(
            self._append(keys=[log_key(table), TABLES], args=[expected, entry, MAX_ENTRIES, table, APPENDS])
        )
        return isinstance(n, int) and n == expected + 1

    async def read(self, table: int, start: int = 0) -> list[str]:
        out: list[str] = []
        while True:
            part = await self._call(self.redis.lrange(log_key(table), start, start + READ - 1))
            out += part
            if len(part) < READ or len(out) >= MAX_ENTRIES:
                return out
            start += READ

    async def lengths(self) -> dict[int, int]:
        count = await self._call(self.redis.scard(TABLES))
        if isinstance(count, int) and count > MAX_LISTED:
            # More than any cluster opens (64 tables): planted. Read in part,
            # the foreign members set aside below, a part at a time.
            log.warning("%s holds %d members: %d read this time", TABLES, count, MAX_LISTED)
            _cursor, members = await self._call(
                self.redis.execute_command("SSCAN", TABLES, 0, "COUNT", MAX_LISTED, NEVER_DECODE=True)
            )
        else:
            members = await self._call(self.redis.execute_command("SMEMBERS", TABLES, NEVER_DECODE=True))
        ids: list[int] = []
        foreign: list[Any] = []
        for raw in members:
            m = raw.decode("ascii", "replace") if isinstance(raw, bytes) else raw
            if isinstance(m, str) and m.isdigit() and len(m) < 12:
                ids.append(int(m))
            else:  # not a number Garito gave: out of the listing, said once
                foreign.append(raw)
        if foreign:
            example = foreign[0].decode("ascii", "replace") if isinstance(foreign[0], bytes) else foreign[0]
            log.warning("set aside %d foreign members of %s, as %r", len(foreign), TABLES, str(example)[:40])
            await self._call(self.redis.srem(TABLES, *foreign))
        if not ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for n in ids:
            pipe.llen(log_key(n))
        counts = await self._call(pipe.execute(raise_on_error=False))
        out: dict[int, int] = {}
        for n, count in zip(ids, counts, strict=True):
            if isinstance(count, int):
                out[n] = count
            else:
                log.warning("table %d: its record is not a list (%s): set aside", n, str(count)[:80])
                await self._call(self.redis.srem(TABLES, n))
        return out

    async def drop(self, table: int) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.srem(TABLES, table)
        pipe.expire(log_key(table), KEPT)
        await self._call(pipe.execute(raise_on_error=False))

    # ------------------------------------------------------------ hosts, allowances, lines

    async def alive(self) -> set[str]:
        """The hosts alive now, asked of Redis (a beat of this host's too):
        a seat is held for its player only when its host is really gone,
        not when this host's last beat came before the other's first."""
        try:
            return await self._beat_once()
        except Damaged as e:
            log.warning("the hosts' set is damaged (%s): set aside", e)
            await self._call(self.redis.delete(HOSTS))
            return await self._beat_once()

    async def _bucket(self, kind: str, key: str, burst: int, every: float, cost: int) -> float:
        left = await self._call(
            self._allow(keys=[f"{PREFIX}allow:{kind}:{key[:200]}"], args=[burst, every, cost])
        )
        try:
            value = float(left)
        except (TypeError, ValueError):
            raise Damaged(f"an allowance read {left!r}") from None
        return value if math.isfinite(value) else 0.0

    async def left(self, kind: str, key: str, burst: int, every: float) -> float:
        return await self._bucket(kind, key, burst, every, 0)

    async def take(self, kind: str, key: str, burst: int, every: float) -> bool:
        return await self._bucket(kind, key, burst, every, 1) >= 0

    async def give_back(self, kind: str, key: str, burst: int, every: float) -> None:
        await self._bucket(kind, key, burst, every, -1)

    async def publish(self, channel: str, payload: str) -> None:
        await self._call(self.redis.publish(PREFIX + channel, payload))

    # ------------------------------------------------------------ ratings

    async def rate(self, game: str, result: str, keys: list[str], rater: Rater) -> dict[str, str] | None:
        """``result`` rated once across the cluster: its players' ratings
        read, ``rater`` gives the new ones, and they are written with the
        result's id and word to every host in one transaction, begun again
        if another result of the game was written meanwhile (WATCH); None
        if the result was rated before."""
        board, done = f"{PREFIX}ratings:{game}", f"{PREFIX}rated:{result}"
        for _ in range(RATE_TRIES):
            try:
                async with self.redis.pipeline(transaction=True) as pipe:
                    await self._call(pipe.watch(board, done))
                    if await self._call(pipe.exists(done)):
                        return None
                    held = await self._call(pipe.hmget(board, keys)) if keys else []
                    new = rater(dict(zip(keys, held, strict=True)))
                    pipe.multi()
                    if new:
                        pipe.hset(board, mapping=new)
                    pipe.set(done, "1", ex=RATED_FOR)
                    pipe.publish(RATED, json.dumps({"game": game, "ratings": new}, ensure_ascii=False))
                    await self._call(pipe.execute())
                    return new
            except rx.WatchError:
                continue
            except Damaged as e:  # not a hash of Garito's: set aside, the result offered again
                await self._set_aside(board, str(e))
                raise
        raise StoreDown(f"{game}'s ratings changed {RATE_TRIES} times while one result was rated")

    async def ratings(self, game: str, keys: list[str] | None = None) -> dict[str, str]:
        """The ratings of ``game`` held for ``keys`` (None: every one, the
        hash read in parts: a big one does not hold Redis). A hash that is
        not Garito's (another type, bytes that are not text) is set aside."""
        board = f"{PREFIX}ratings:{game}"
        out: dict[str, str] = {}
        try:
            if keys is not None:
                texts = await self._call(self.redis.hmget(board, keys)) if keys else []
                return {k: t for k, t in zip(keys, texts, strict=True) if t is not None}
            cursor = 0
            while True:
                cursor, part = await self._call(self.redis.hscan(board, cursor, count=READ))
                out.update(part)
                if not cursor or len(out) > 1_000_000:
                    return out
        except Damaged as e:
            await self._set_aside(board, str(e))
            return {}

    async def _set_aside(self, where: str, why: str) -> None:
        log.warning("%s is damaged (%s): renamed aside", where, why[:120])
        try:
            await self._call(self.redis.rename(where, f"{where}:damaged"))
        except (Damaged, StoreDown, rx.ResponseError):
            pass
