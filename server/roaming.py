"""A player's home follows them round a cluster (``garito serve --redis``):
their saves, settings, best scores and history, on whichever host they
reach.

Each host keeps its players' homes in its own data folder, as one host
does; Redis holds a copy each host brings its own up to date with:

* **files** (``settings.json``, ``bests.json``, ``saves/``, the records of
  unfinished tables): each file's text and its checksum, one hash each; a
  file removed is a checksum of ``REMOVED`` (a tombstone), so a copy that
  is merely missing (a Redis that lost its data) never removes anything.
  When a player arrives, every file Redis holds that this home has not
  seen is written into it (the player's latest play was elsewhere), and a
  file removed elsewhere is removed here if this home last had it
  unchanged. While they play, and when they leave, what changed here since
  the last look goes to Redis, unless Redis meanwhile holds a version this
  home never saw: then that one is played and this one kept beside it. A
  file changed on both sides before either brought it over is kept beside
  the one played (``<file>.here-<time>``): nothing is lost. What this home
  last synced (each file's checksum) is kept in it (``.roaming.json``), so
  a restarted host knows it too.
* **history**: every finished match the home's history holds, as its
  record and finish time, under a fingerprint of both, and the newest
  ``MAX_HISTORY`` of them in order. A host that lacks some puts them in the
  home's ``pending/`` before the player's app starts (each checked as the
  history checks a pending match: one that is not a finished match is let
  go from Redis), and the app adds them to its history as it adds any
  pending match: once (``History.add_once``). Statistics are read from the
  history, so they follow too. A shared match's end goes straight to each
  of its players' copies (``record``), present or not.

Redis's copy is read as untrusted: a file's name must be one a home holds
(no ``/`` but the one folder, no ``..``, no folder that is a link), a value's
size is asked before it is read and one past its limit is let go, a text
that is not its checksum's or an entry whose fingerprint is not its own is
let go, and a key of another type, or with bytes that are not text, is
renamed aside (``...:damaged``), each with a log line. An arrival is
bounded (``ARRIVE`` seconds, checked between every step, not left to a
cancellation): if Redis is down or slow, the player plays the home this
host has, and what they do is brought to Redis once it is back.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from redis import exceptions as rx

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
REMOVED = "removed"  # a file's checksum once it is removed: a tombstone
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


class Late(Exception):
    """An arrival's time is up: the rest waits for the next look."""


def _in_time(deadline: float) -> None:
    if time.monotonic() > deadline:
        raise Late(f"not done in {ARRIVE:g} s")


# ---------------------------------------------------------------- the home's side (in a thread)


def _plain(home: Path, rel: str) -> bool:
    """Whether every folder on the way from ``home`` to ``rel`` is a real
    folder (none a link: a home's files stay in the home)."""
    at = home
    for part in Path(rel).parts[:-1]:
        at = at / part
        if at.is_symlink() or (at.exists() and not at.is_dir()):
            return False
    return not (home / rel).is_symlink()


def local_files(home: Path) -> dict[str, str]:
    """The home's roaming files, path -> text (one that can't be read, is
    too big, or is reached through a link, does not roam)."""
    out: dict[str, str] = {}
    candidates = [home / "settings.json", home / "bests.json"]
    for folder in FOLDERS:
        if not _plain(home, f"{folder}/x"):
            continue
        try:
            candidates += sorted((home / folder).glob("*.json"))
        except OSError:
            pass
    for path in candidates:
        rel = path.relative_to(home).as_posix()
        if not FILE.fullmatch(rel) or len(out) >= MAX_FILES or not _plain(home, rel):
            continue
        try:
            if not path.is_file() or path.stat().st_size > MAX_FILE:
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


def _aside(home: Path, rel: str) -> None:
    """``rel`` kept beside itself, under a name no home reads."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    os.replace(home / rel, home / f"{rel}.here-{stamp}")


def _apply_files(
    home: Path, writes: dict[str, str], removes: list[str], base: dict[str, str], kept: list[str]
) -> None:
    for rel in kept:  # never lost: beside it
        if _plain(home, rel):
            _aside(home, rel)
    for rel, text in writes.items():
        if _plain(home, rel):
            write_atomic(home / rel, text)
    for rel in removes:
        if _plain(home, rel):
            try:
                os.unlink(home / rel)
            except FileNotFoundError:
                pass
    write_base(home, base)


def _put_pending(home: Path, entries: dict[str, Any], deadline: float) -> tuple[int, list[str]]:
    """Each entry checked as the history checks a pending match and put in
    ``pending/``, until ``deadline``: how many were, and the fingerprints of
    those that are not finished matches."""
    from garito.store.pending import check

    done, bad = 0, []
    for fp, entry in entries.items():
        if time.monotonic() > deadline:
            break
        try:
            finished, record, _match = check(entry)
        except (ValueError, RecursionError):
            bad.append(fp)
            continue
        text = json.dumps({"finished": finished, "record": record}, ensure_ascii=False)
        if _plain(home, "pending/x"):
            write_atomic(home / "pending" / f"roamed-{fp}.json", text)
            done += 1
    return done, bad


# ---------------------------------------------------------------- Redis's side


class Roaming:
    def __init__(self, store: RedisStore) -> None:
        self.store = store  # not opened: its client and its faults' words only
        self.seen: dict[Path, int] = {}  # home -> its history's last row brought to Redis
        self._leaving: set[asyncio.Task[None]] = set()

    @property
    def redis(self) -> Any:
        return self.store.redis

    async def _call(self, awaitable: Any, name: str = "", part: str = "") -> Any:
        """A command; a key of another type or with bytes that are not text
        is renamed aside (and Damaged raised on)."""
        try:
            return await self.store._call(awaitable)
        except Damaged as e:
            if part:
                await self._set_aside(name, part, str(e))
            raise

    async def _set_aside(self, name: str, part: str, why: str) -> None:
        await self.store._set_aside(key(name, part), why)

    async def _bounded(self, name: str, part: str, most: int) -> None:
        """Damaged (and renamed aside) if ``part`` holds more than ``most``
        fields: more than Garito writes there."""
        if await self._call(self.redis.hlen(key(name, part)), name, part) > most:
            await self._set_aside(name, part, f"more than {most} fields")
            raise Damaged(f"{part}: more than {most} fields")

    def leave(self, name: str, home: Path) -> None:
        """A player gone: their home's last changes to Redis (a task:
        ``close`` waits for it)."""
        task = asyncio.create_task(self._leave(name, home))
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)

    async def _leave(self, name: str, home: Path) -> None:
        try:
            await asyncio.wait_for(self.sync(name, home), ARRIVE)
        except (StoreDown, Damaged, TimeoutError, OSError) as e:
            log.warning("%r's home not brought to the cluster as they left (%s): next time", name, e)
        self.seen.pop(home, None)

    async def close(self) -> None:
        if self._leaving:
            await asyncio.wait(self._leaving, timeout=ARRIVE + 1)
        await self.store.close()

    # ------------------------------------------------------------ arriving

    async def arrive(self, name: str, home: Path) -> None:
        """Before the player's app starts: what Redis holds of their home
        and this one lacks, written into it. Bounded; Redis down or slow, or
        this home's disk refusing: the home as it is (said in the log)."""
        deadline = time.monotonic() + ARRIVE
        try:
            await self._arrive(name, home, deadline)
        except (StoreDown, Late) as e:
            log.warning("%r's home not brought from the cluster (%s): this host's copy is played", name, e)
        except Damaged as e:
            log.warning("%r's home in the cluster is damaged (%s): set aside", name, e)
        except OSError as e:
            log.warning(
                "%r's home could not take the cluster's copy (%s): this host's copy is played", name, e
            )

    async def _sized(self, name: str, part: str, fields: list[str], limit: int) -> list[str]:
        """The fields of ``part`` no longer than ``limit`` (asked before they
        are read); the longer ones let go."""
        pipe = self.redis.pipeline(transaction=False)
        for f in fields:
            pipe.hstrlen(key(name, part), f)
        lengths = await self._call(pipe.execute(), name, part)
        big = [f for f, n in zip(fields, lengths, strict=True) if not isinstance(n, int) or n > limit]
        if big:
            log.warning("%r's %s in the cluster holds %d values too big: let go", name, part, len(big))
            await self._call(self.redis.hdel(key(name, part), *big), name, part)
        return [f for f in fields if f not in big]

    async def _arrive(self, name: str, home: Path, deadline: float) -> None:
        await self._bounded(name, "sums", 2 * MAX_FILES)
        sums = await self._call(self.redis.hgetall(key(name, "sums")), name, "sums")
        _in_time(deadline)
        local = await asyncio.to_thread(local_files, home)
        base = await asyncio.to_thread(read_base, home)
        foreign = [
            p
            for p, s in sums.items()
            if not FILE.fullmatch(p) or (s != REMOVED and not FINGERPRINT.fullmatch(s))
        ]
        if foreign:
            log.warning("%r's home in the cluster names %d files no home holds: let go", name, len(foreign))
            await self._call(self.redis.hdel(key(name, "sums"), *foreign), name, "sums")
        sums = {p: s for p, s in sums.items() if p not in foreign}
        # New here: not what this home last synced, nor what it holds.
        wanted = [
            p for p, s in sums.items()
            if s != REMOVED and base.get(p) != s and (p not in local or _sum(local[p]) != s)
        ]  # fmt: skip
        wanted = await self._sized(name, "files", wanted[:MAX_FILES], MAX_FILE)
        writes: dict[str, str] = {}
        for i in range(0, len(wanted), PART):
            _in_time(deadline)
            part = wanted[i : i + PART]
            texts = await self._call(self.redis.hmget(key(name, "files"), part), name, "files")
            for rel, text in zip(part, texts, strict=True):
                if isinstance(text, str) and _sum(text) == sums[rel]:
                    writes[rel] = text
                else:
                    log.warning("%r's %s in the cluster is not what its checksum says: let go", name, rel)
                    await self._call(self.redis.hdel(key(name, "sums"), rel), name, "sums")
        # A file changed here since this home last synced (or never synced),
        # and another version there: that one played, this one kept beside.
        kept = [p for p in writes if p in local and base.get(p) != _sum(local[p])]
        # Removed elsewhere (a tombstone), held here unchanged since.
        removes = [
            p for p, s in sums.items() if s == REMOVED and p in local and base.get(p) == _sum(local[p])
        ]
        new_base = {
            p: s for p, s in base.items() if p in sums and p not in removes
        }  # missing there: pushed again
        new_base.update({p: sums[p] for p in writes})
        _in_time(deadline)
        await asyncio.to_thread(_apply_files, home, writes, removes, new_base, kept)
        if kept:
            log.warning("%r's %s changed here and elsewhere: this host's kept beside", name, ", ".join(kept))
        if writes or removes:
            log.info("%r's home from the cluster: %d files, %d removed", name, len(writes), len(removes))
        await self._arrive_history(name, home, deadline)

    async def _arrive_history(self, name: str, home: Path, deadline: float) -> None:
        await self._bounded(name, "history", 2 * MAX_HISTORY)
        held = set(await self._call(self.redis.hkeys(key(name, "history")), name, "history"))
        mine, last = await asyncio.to_thread(local_history, home)
        self.seen[home] = last
        missing = [fp for fp in held if FINGERPRINT.fullmatch(fp) and fp not in mine][:MAX_HISTORY]
        missing = await self._sized(name, "history", missing, MAX_RECORD)
        entries: dict[str, Any] = {}
        bad: list[str] = []
        for i in range(0, len(missing), PART):
            _in_time(deadline)
            part = missing[i : i + PART]
            texts = await self._call(self.redis.hmget(key(name, "history"), part), name, "history")
            for fp, text in zip(part, texts, strict=True):
                entry = _entry(fp, text)
                if entry is None:
                    bad.append(fp)
                else:
                    entries[fp] = entry
        done, refused = await asyncio.to_thread(_put_pending, home, entries, deadline)
        bad += refused
        if bad:
            log.warning("%r: %d matches in the cluster are damaged: let go", name, len(bad))
            await self._call(self.redis.hdel(key(name, "history"), *bad), name, "history")
        if done:
            log.info("%r: %d matches brought from the cluster to their history", name, done)
        # This home's own matches Redis lacks (played while it was away), the newest.
        newest = sorted(((v[0], fp) for fp, v in mine.items() if fp not in held), reverse=True)[:MAX_HISTORY]
        await self._push_history(name, {fp: mine[fp] for _, fp in newest})

    # ------------------------------------------------------------ while playing, and leaving

    async def sync(self, name: str, home: Path) -> None:
        """What changed in the home since the last look, to Redis (StoreDown
        and Damaged raised on: tried again at the next look)."""
        local = await asyncio.to_thread(local_files, home)
        base = await asyncio.to_thread(read_base, home)
        changed = {p: t for p, t in local.items() if base.get(p) != _sum(t)}
        gone = [p for p in base if p not in local]
        if changed or gone:
            await self._push_files(name, home, local, base, changed, gone)
        after = self.seen.get(home, 0)
        mine, last = await asyncio.to_thread(local_history, home, after)
        await self._push_history(name, mine)
        self.seen[home] = last

    async def _push_files(
        self, name: str, home: Path, local: dict[str, str], base: dict[str, str], changed: dict[str, str],
        gone: list[str],
    ) -> None:  # fmt: skip
        sums_key = key(name, "sums")
        async with self.redis.pipeline(transaction=True) as pipe:
            try:
                await self._call(pipe.watch(sums_key), name, "sums")
                sums = await self._call(pipe.hgetall(sums_key), name, "sums")
                # Written there since this home last looked, by another host:
                # not overwritten (that version is played here, this kept beside).
                theirs = [p for p in changed if sums.get(p) not in (None, REMOVED, base.get(p))]
                ours = {p: t for p, t in changed.items() if p not in theirs}
                removes = [p for p in gone if sums.get(p) in (None, base[p])]
                pipe.multi()
                if ours:
                    pipe.hset(key(name, "files"), mapping=ours)
                    pipe.hset(sums_key, mapping={p: _sum(t) for p, t in ours.items()})
                if removes:
                    pipe.hdel(key(name, "files"), *removes)
                    pipe.hset(sums_key, mapping=dict.fromkeys(removes, REMOVED))
                await self._call(pipe.execute(), name, "sums")
            except rx.WatchError:
                return  # another host wrote meanwhile: looked at again next time
        new_base = {p: s for p, s in base.items() if p not in gone}
        new_base.update({p: _sum(t) for p, t in ours.items()})
        await asyncio.to_thread(write_base, home, new_base)
        if theirs:  # taken at the next arrival's look, this one kept beside then
            log.debug("%r's %s changed on another host meanwhile: not overwritten", name, ", ".join(theirs))

    async def keep(self, name: str, home: Path) -> None:
        """A session's looks: every ``SYNC`` seconds until cancelled (the
        caller's ``leave`` when the player leaves)."""
        while True:
            await asyncio.sleep(SYNC)
            try:
                await self.sync(name, home)
            except (StoreDown, Damaged, OSError):
                pass
            except Exception:  # a fault of Garito's own: said, and looked again later
                log.exception("%r's home not brought to the cluster", name)

    async def _push_history(self, name: str, entries: dict[str, tuple[str, str]]) -> None:
        if not entries:
            return
        pipe = self.redis.pipeline(transaction=False)
        for fp, (finished, record) in entries.items():
            pipe.hsetnx(key(name, "history"), fp, json.dumps({"finished": finished, "record": record}))
        await self._call(pipe.execute(), name, "history")
        await self._call(
            self.redis.zadd(key(name, "order"), {fp: _when(v[0]) for fp, v in entries.items()}, nx=True),
            name, "order",
        )  # fmt: skip
        over = await self._call(self.redis.zcard(key(name, "order")), name, "order") - MAX_HISTORY
        if over > 0:  # the oldest let go (the homes that hold them keep them)
            oldest = await self._call(self.redis.zpopmin(key(name, "order"), over), name, "order")
            if oldest:
                await self._call(
                    self.redis.hdel(key(name, "history"), *[fp for fp, _ in oldest]), name, "history"
                )

    async def record(self, names: list[str], finished: str, record: str) -> None:
        """A shared match's end, into each of its players' copies (present
        or not: whichever host they reach next brings it to their history)."""
        fp = fingerprint(finished, record)
        for name in names:
            await self._push_history(name, {fp: (finished, record)})


def _entry(fp: str, text: object) -> dict[str, Any] | None:
    """A history entry as Redis holds it, if its fingerprint is its own:
    {"finished", "record"} as a pending file holds them (checked further as
    the history checks one)."""
    if not isinstance(text, str) or len(text) > MAX_RECORD:
        return None
    try:
        d = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(d, dict) or not all(isinstance(d.get(k), str) for k in ("finished", "record")):
        return None
    if fingerprint(d["finished"], d["record"]) != fp:
        return None
    try:
        record = json.loads(d["record"])
    except (ValueError, RecursionError):
        return None
    return {"finished": d["finished"], "record": record}


def _when(finished: str) -> float:
    """A finish time's order (seconds since the epoch; 0 for one that does
    not read as a time: first to be let go)."""
    try:
        return datetime.fromisoformat(finished).timestamp()
    except ValueError:
        return 0.0
