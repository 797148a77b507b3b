"""A player's home follows them round a cluster (``garito serve --redis``):
their saves, settings, best scores and history, on whichever host they
reach.

Each host keeps its players' homes in its own data folder, as one host
does; Redis holds a copy each host brings its own up to date with:

* **files** (``settings.json``, ``bests.json``, ``saves/``, the records of
  unfinished tables): each file's text and its checksum, one hash each.
  When a player arrives, every file Redis holds that differs from the home's
  is written into it (the player's latest play was elsewhere), and a file
  Redis no longer holds that this home last had unchanged is removed (it
  was removed elsewhere: a save whose game ended). While they play, and
  when they leave, what changed here since the last look goes to Redis,
  and what was removed here is removed there unless another host changed
  it meanwhile. What this home last synced (each file's checksum) is kept
  in the home (``.roaming.json``), so a restarted host knows it too. Two
  sessions of one name on two hosts at once write their own files; the
  same file written on both keeps the last one written.
* **history**: every finished match the home's history holds, as its
  record and finish time, under a fingerprint of both, and the newest
  ``MAX_HISTORY`` of them in order. A host that lacks some puts them in the
  home's ``pending/`` before the player's app starts, and the app adds them
  to its history as it adds any pending match: once (``History.add_once``
  holds a record finished at the same time only once). Statistics are read
  from the history, so they follow too. A shared match's end goes straight
  to each of its players' copies (``record``), present or not.

Redis's copy is read as untrusted: a file's name must be one a home holds
(no ``/`` but the one folder, no ``..``), a file or an entry past its size
is refused, an entry whose fingerprint is not its own is set aside, each
with a log line. If Redis is down when a player arrives, they play with the
home this host has (bounded: ``ARRIVE`` seconds), and what they do is
brought to Redis once it is back.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from garito.store.atomic import write_atomic

from .homes import encode
from .redis_store import PREFIX, RedisStore
from .store import Damaged, StoreDown

log = logging.getLogger("garito.roaming")

# The files of a home that roam, by their path in it. The history's database
# does not (its matches do, one by one); nor do the crash logs.
FILE = re.compile(
    r"(settings|bests)\.json|(saves|saves/work|unfinished-tables)/[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.json"
)
FOLDERS = ("saves", "saves/work", "unfinished-tables")
MAX_FILE = 1024 * 1024  # bytes: a save of a Willie match to 500 is ~150 KB
MAX_FILES = 200
MAX_HISTORY = 2000  # matches kept per player (the newest); the home's own history keeps all
MAX_RECORD = 4 * 1024 * 1024
FINGERPRINT = re.compile(r"[0-9a-f]{32}")
BASE = ".roaming.json"  # in the home: what it last synced
SYNC = 5.0  # seconds between a session's looks at its home
ARRIVE = 5.0  # seconds a player's arrival waits for Redis at most
PART = 100  # entries asked for at once


def key(name: str, part: str) -> str:
    """A player's keys share a hash tag (one slot in a Redis Cluster)."""
    return f"{PREFIX}home:{{{encode(name)}}}:{part}"


def fingerprint(finished: str, record: str) -> str:
    return hashlib.sha256(f"{finished}\x00{record}".encode()).hexdigest()[:32]


def _sum(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


# ---------------------------------------------------------------- the home's side (in a thread)


def local_files(home: Path) -> dict[str, str]:
    """The home's roaming files, path -> text (one that can't be read, or
    is too big, does not roam)."""
    out: dict[str, str] = {}
    candidates = [home / "settings.json", home / "bests.json"]
    for folder in FOLDERS:
        try:
            candidates += sorted((home / folder).glob("*.json"))
        except OSError:
            pass
    for path in candidates:
        rel = path.relative_to(home).as_posix()
        if not FILE.fullmatch(rel) or len(out) >= MAX_FILES:
            continue
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_FILE:
                continue
            out[rel] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return out


def read_base(home: Path) -> dict[str, str]:
    try:
        base = json.loads((home / BASE).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    if not isinstance(base, dict):
        return {}
    return {k: v for k, v in base.items() if isinstance(k, str) and FILE.fullmatch(k) and isinstance(v, str)}


def write_base(home: Path, base: dict[str, str]) -> None:
    write_atomic(home / BASE, json.dumps(base, sort_keys=True))


def local_history(home: Path, after: int = 0) -> tuple[dict[str, tuple[str, str]], int]:
    """The home's history from row ``after`` on: fingerprint -> (finished,
    record text), and the last row read (read-only: the player's app may be
    writing; a history that can't be read gives nothing this time)."""
    path = home / "history.sqlite3"
    if not path.is_file():
        return {}, after
    out: dict[str, tuple[str, str]] = {}
    last = after
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)
        try:
            rows = db.execute("SELECT id, finished, record FROM matches WHERE id > ? ORDER BY id", (after,))
            for row_id, finished, record in rows:
                last = max(last, row_id) if isinstance(row_id, int) else last
                if isinstance(finished, str) and isinstance(record, str) and len(record) <= MAX_RECORD:
                    out[fingerprint(finished, record)] = (finished, record)
        finally:
            db.close()
    except sqlite3.Error as e:
        log.info("a history not read for roaming (%s)", e)
    return out, last


def _apply_files(
    home: Path, writes: dict[str, str], removes: list[str], base: dict[str, str], kept: list[str]
) -> None:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    for rel in kept:  # never lost: beside it, under a name no home reads
        try:
            os.replace(home / rel, home / f"{rel}.here-{stamp}")
        except OSError:
            pass
    for rel, text in writes.items():
        write_atomic(home / rel, text)
    for rel in removes:
        try:
            os.unlink(home / rel)
        except FileNotFoundError:
            pass
    write_base(home, base)


def _put_pending(home: Path, entries: dict[str, tuple[str, dict[str, Any]]]) -> None:
    for fp, (finished, record) in entries.items():
        write_atomic(
            home / "pending" / f"roamed-{fp}.json", json.dumps({"finished": finished, "record": record})
        )


# ---------------------------------------------------------------- Redis's side


class Roaming:
    def __init__(self, store: RedisStore) -> None:
        self.store = store  # not opened: its client and its faults' words only
        self.seen: dict[Path, int] = {}  # home -> its history's last row brought to Redis
        self._leaving: set[asyncio.Task[None]] = set()

    def leave(self, name: str, home: Path) -> None:
        """A player gone: their home's last changes to Redis (a task:
        ``close`` waits for it)."""
        task = asyncio.create_task(self._leave(name, home))
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)

    async def _leave(self, name: str, home: Path) -> None:
        try:
            await asyncio.wait_for(self.sync(name, home), ARRIVE)
        except (StoreDown, Damaged, TimeoutError) as e:
            log.warning(
                "%r's home not brought to the cluster as they left (%s): at their next visit", name, e
            )
        self.seen.pop(home, None)

    async def close(self) -> None:
        if self._leaving:
            await asyncio.wait(self._leaving, timeout=ARRIVE + 1)
        await self.store.close()

    async def _call(self, awaitable: Any) -> Any:
        return await self.store._call(awaitable)

    # ------------------------------------------------------------ arriving

    async def arrive(self, name: str, home: Path) -> None:
        """Before the player's app starts: what Redis holds of their home
        and this one lacks, written into it. Bounded; Redis down or slow:
        the home as it is (said in the log)."""
        try:
            await asyncio.wait_for(self._arrive(name, home), ARRIVE)
        except (StoreDown, TimeoutError) as e:
            log.warning("%r's home not brought from the cluster (%s): this host's copy is played", name, e)
        except Damaged as e:
            log.warning("%r's home in the cluster is damaged (%s): set aside", name, e)

    async def _arrive(self, name: str, home: Path) -> None:
        sums = await self._call(self.store.redis.hgetall(key(name, "sums")))
        local = await asyncio.to_thread(local_files, home)
        base = await asyncio.to_thread(read_base, home)
        # Written elsewhere since this home last synced, or new: brought here
        # (a file changed here while Redis still holds what this home last
        # synced is newer here: the next look brings it there).
        wanted = [
            p for p, s in sums.items()
            if FILE.fullmatch(p) and isinstance(s, str) and (local.get(p) is None or _sum(local[p]) != s)
            and not (p in local and base.get(p) == s)
        ]  # fmt: skip
        # Changed on both sides: the other host's is played, this one's kept aside.
        both = [p for p in wanted if p in local and p in base and _sum(local[p]) != base[p]]
        refused = [p for p in sums if not FILE.fullmatch(p)]
        if refused:
            log.warning(
                "%r's home in the cluster names %d files no home holds: set aside", name, len(refused)
            )
            await self._call(self.store.redis.hdel(key(name, "sums"), *refused[:PART]))
        writes: dict[str, str] = {}
        for i in range(0, len(wanted[:MAX_FILES]), PART):
            part = wanted[i : i + PART]
            texts = await self._call(self.store.redis.hmget(key(name, "files"), part))
            for rel, text in zip(part, texts, strict=True):
                if isinstance(text, str) and len(text) <= MAX_FILE and _sum(text) == sums[rel]:
                    writes[rel] = text
                elif text is not None:
                    log.warning("%r's %s in the cluster is not what its checksum says: set aside", name, rel)
        # Removed elsewhere: held here as last synced, gone from Redis.
        removes = [p for p, s in base.items() if p not in sums and p in local and _sum(local[p]) == s]
        new_base = {**{p: s for p, s in base.items() if p not in removes}, **{p: sums[p] for p in writes}}
        kept = [p for p in both if p in writes]
        await asyncio.to_thread(_apply_files, home, writes, removes, new_base, kept)
        if kept:
            log.warning("%r's %s changed here and elsewhere: this host's kept aside", name, ", ".join(kept))
        await self._arrive_history(name, home)
        if writes or removes:
            log.info(
                "%r's home brought from the cluster: %d files, %d removed", name, len(writes), len(removes)
            )

    async def _arrive_history(self, name: str, home: Path) -> None:
        held = await self._call(self.store.redis.hkeys(key(name, "history")))
        mine, last = await asyncio.to_thread(local_history, home)
        self.seen[home] = last
        missing = [fp for fp in held if FINGERPRINT.fullmatch(fp) and fp not in mine]
        entries: dict[str, tuple[str, dict[str, Any]]] = {}
        for i in range(0, len(missing), PART):
            part = missing[i : i + PART]
            texts = await self._call(self.store.redis.hmget(key(name, "history"), part))
            for fp, text in zip(part, texts, strict=True):
                entry = self._entry(fp, text)
                if entry is None:
                    log.warning("%r's match %s in the cluster is damaged: set aside", name, fp[:8])
                    await self._call(self.store.redis.hdel(key(name, "history"), fp))
                else:
                    entries[fp] = entry
        if entries:
            await asyncio.to_thread(_put_pending, home, entries)
            log.info("%r: %d matches brought from the cluster to their history", name, len(entries))
        # This home's own matches Redis lacks (played while it was away).
        await self._push_history(name, {fp: v for fp, v in mine.items() if fp not in set(held)})

    @staticmethod
    def _entry(fp: str, text: object) -> tuple[str, dict[str, Any]] | None:
        if not isinstance(text, str) or len(text) > MAX_RECORD:
            return None
        try:
            d = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if (
            not isinstance(d, dict)
            or not isinstance(d.get("finished"), str)
            or not isinstance(d.get("record"), str)
        ):
            return None
        if fingerprint(d["finished"], d["record"]) != fp:
            return None
        try:
            record = json.loads(d["record"])
        except (ValueError, RecursionError):
            return None
        return (d["finished"], record) if isinstance(record, dict) else None

    # ------------------------------------------------------------ while playing, and leaving

    async def sync(self, name: str, home: Path) -> None:
        """What changed in the home since the last look, to Redis (StoreDown
        and Damaged raised on: tried again at the next look)."""
        local = await asyncio.to_thread(local_files, home)
        base = await asyncio.to_thread(read_base, home)
        changed = {p: t for p, t in local.items() if base.get(p) != _sum(t)}
        gone = [p for p in base if p not in local]
        if changed or gone:
            sums = await self._call(self.store.redis.hgetall(key(name, "sums")))
            # Removed here: removed there too, unless another host wrote it since.
            removes = [p for p in gone if sums.get(p) in (None, base[p])]
            pipe = self.store.redis.pipeline(transaction=True)
            if changed:
                pipe.hset(key(name, "files"), mapping=changed)
                pipe.hset(key(name, "sums"), mapping={p: _sum(t) for p, t in changed.items()})
            if removes:
                pipe.hdel(key(name, "files"), *removes)
                pipe.hdel(key(name, "sums"), *removes)
            await self._call(pipe.execute())
            new_base = {p: s for p, s in base.items() if p not in gone}
            new_base.update({p: _sum(t) for p, t in changed.items()})
            await asyncio.to_thread(write_base, home, new_base)
        after = self.seen.get(home, 0)
        mine, last = await asyncio.to_thread(local_history, home, after)
        await self._push_history(name, mine)
        self.seen[home] = last

    async def keep(self, name: str, home: Path) -> None:
        """A session's looks: every ``SYNC`` seconds until cancelled, then
        one last (the caller's ``sync`` when the player leaves)."""
        while True:
            await asyncio.sleep(SYNC)
            try:
                await self.sync(name, home)
            except (StoreDown, Damaged):
                pass
            except Exception:  # a fault of Garito's own: said, and looked again later
                log.exception("%r's home not brought to the cluster", name)

    async def _push_history(self, name: str, entries: dict[str, tuple[str, str]]) -> None:
        if not entries:
            return
        pipe = self.store.redis.pipeline(transaction=False)
        for fp, (finished, record) in entries.items():
            pipe.hsetnx(key(name, "history"), fp, json.dumps({"finished": finished, "record": record}))
            pipe.zadd(key(name, "order"), {fp: _when(finished)}, nx=True)
        await self._call(pipe.execute())
        over = await self._call(self.store.redis.zcard(key(name, "order"))) - MAX_HISTORY
        if over > 0:  # the oldest let go (the homes that hold them keep them)
            oldest = await self._call(self.store.redis.zpopmin(key(name, "order"), over))
            if oldest:
                await self._call(self.store.redis.hdel(key(name, "history"), *[fp for fp, _ in oldest]))

    async def record(self, names: list[str], finished: str, record: str) -> None:
        """A shared match's end, into each of its players' copies (present
        or not: whichever host they reach next brings it to their history)."""
        fp = fingerprint(finished, record)
        for name in names:
            await self._push_history(name, {fp: (finished, record)})


def _when(finished: str) -> float:
    """A finish time's order (seconds since the epoch; 0 for one that does
    not read as a time: first to be let go)."""
    try:
        return datetime.fromisoformat(finished).timestamp()
    except ValueError:
        return 0.0
