"""What a lecture hall's processes share on Redis besides the classes themselves (issue 40):
the count of wrong class codes per address (:class:`SharedMisses`), and each process's
place among them (:class:`Lease`), so that a process that dies gives back the followers it
held.

A follower's pages are counted in the class's followers hash (``c:<CODE>:f``): a stream's
join adds one, its leave takes it back. A process killed with its streams open never took
them back, and its students stayed counted until the class ended (28 counted for 3 real
ones after a SIGKILL in ``benchmarks/bench_attacks.py``), filling seats and letting their ids
count as following. Each process now also keeps what it holds (``c:<CODE>:p:<ID>``: student →
pages, and ``proc:<ID>:codes``) and renews a lease (``proc:<ID>``, :data:`LEASE_SECONDS`)
every :data:`RENEW_SECONDS`; any process that finds another's lease expired takes that
process's pages out of the counts, in one script (:data:`_REAP`). A process that was only
frozen and finds itself taken out (SIGSTOP, longer than the lease) puts back what it still
holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
from typing import Any

from redis.exceptions import RedisError

import server.store as cs

#: A process not heard of for this long is dead (seconds; HAProxy takes it out after 2-3 s).
LEASE_SECONDS = 12
#: How often a process renews its lease and looks for dead ones (seconds).
RENEW_SECONDS = 3.0

# ARGV: 1 prefix, 2 the process's id, 3 now, 4 the lease's seconds. 'new' when the process
# was not registered (its first renewal, or it was taken out while frozen).
_RENEW = """
local procs = ARGV[1] .. 'procs'
local known = redis.call('HEXISTS', procs, ARGV[2]) == 1
redis.call('HSET', procs, ARGV[2], ARGV[3])
redis.call('SET', ARGV[1] .. 'proc:' .. ARGV[2], ARGV[3], 'EX', tonumber(ARGV[4]))
if known then return 'ok' end
return 'new'
"""

# ARGV: 1 prefix, 2 the dead process's id. Its pages leave every class they followed (each
# class that changed tells its followers); the number of pages.
_REAP = """
local prefix, p = ARGV[1], ARGV[2]
local codes = prefix .. 'proc:' .. p .. ':codes'
if redis.call('EXISTS', prefix .. 'proc:' .. p) == 1 then return -1 end
local n = 0
for _, code in ipairs(redis.call('SMEMBERS', codes)) do
  local h = prefix .. 'c:' .. code
  local mine, f = h .. ':p:' .. p, h .. ':f'
  local held = redis.call('HGETALL', mine)
  for i = 1, #held, 2 do
    if redis.call('HINCRBY', f, held[i], -tonumber(held[i + 1])) <= 0 then
      redis.call('HDEL', f, held[i])
    end
    n = n + 1
  end
  redis.call('DEL', mine)
  if #held > 0 and redis.call('EXISTS', h) == 1 and redis.call('HGET', h, 'ended') ~= '1' then
    redis.call('PUBLISH', prefix .. 'ev:' .. code, redis.call('HINCRBY', h, 'seq', 1))
  end
end
redis.call('DEL', codes)
redis.call('HDEL', prefix .. 'procs', p)
return n
"""

# ARGV: 1 prefix, 2 the process's id, 3 a code, 4 the ttl, then pairs of student, pages: what
# a process taken out while frozen still holds goes back into the counts.
_RESTORE = """
local prefix, p, code, ttl = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local h = prefix .. 'c:' .. code
if redis.call('EXISTS', h) == 0 or redis.call('HGET', h, 'ended') == '1' then return 0 end
local mine, f = h .. ':p:' .. p, h .. ':f'
for i = 5, #ARGV, 2 do
  redis.call('HINCRBY', f, ARGV[i], tonumber(ARGV[i + 1]))
  redis.call('HSET', mine, ARGV[i], ARGV[i + 1])
end
redis.call('EXPIRE', mine, ttl)
redis.call('SADD', prefix .. 'proc:' .. p .. ':codes', code)
redis.call('PUBLISH', prefix .. 'ev:' .. code, redis.call('HINCRBY', h, 'seq', 1))
return 1
"""


class Lease:
    """This process's place in the hall (see the module docstring): what it holds, its lease,
    and the task (on the store's loop) that renews it and takes dead processes out."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.id = uuid.uuid4().hex[:16]
        self.held: dict[str, dict[str, int]] = {}  # code → student → pages, this process
        self._lock = threading.Lock()
        self._task: asyncio.Task | None = None
        self._scripts: dict[str, object] = {}

    def held_key(self, code: str) -> str:
        return f"{self.store.prefix}c:{code}:p:{self.id}"

    def codes_key(self) -> str:
        return f"{self.store.prefix}proc:{self.id}:codes"

    def hold(self, code: str, student: str, pages: int) -> None:
        """What this process holds changed (a join: +1, a leave: -1)."""
        with self._lock:
            mine = self.held.setdefault(code, {})
            mine[student] = mine.get(student, 0) + pages
            if mine[student] <= 0:
                del mine[student]
            if not mine:
                del self.held[code]

    def _script(self, name: str, source: str):
        if name not in self._scripts:
            self._scripts[name] = self.store._redis().register_script(source)
        return self._scripts[name]

    async def start(self) -> None:
        """Renew the lease from now on (on the store's loop; once)."""
        if self._task is None or self._task.done():
            await self.renew()
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def renew(self) -> None:
        """Renew the lease; put back what this process holds if it had been taken out."""
        prefix, ttl = self.store.prefix, int(self.store.limits.idle_hours * 3600) + 3600
        got = await self._script("renew", _RENEW)(
            args=[prefix, self.id, repr(float(self.store._clock())), LEASE_SECONDS]
        )
        if got != "new":
            return
        with self._lock:
            held = {code: dict(students) for code, students in self.held.items()}
        for code, students in held.items():
            pairs = [x for kv in students.items() for x in kv]
            await self._script("restore", _RESTORE)(args=[prefix, self.id, code, ttl, *pairs])

    async def reap(self) -> int:
        """Take the processes whose lease has expired out of every class; pages taken out."""
        r, prefix, n = self.store._redis(), self.store.prefix, 0
        for other in await r.hkeys(f"{prefix}procs"):
            if other != self.id and not await r.exists(f"{prefix}proc:{other}"):
                n += max(int(await self._script("reap", _REAP)(args=[prefix, other])), 0)
        return n

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            with contextlib.suppress(RedisError, OSError, cs.ClassError):
                await self.renew()
                await self.reap()


class SharedMisses:
    """Wrong class codes per client address, counted in Redis for a hall's processes: a
    sorted set per address (``miss:<address>``) of the misses' times within the window, as
    :class:`~server.store.Throttle` keeps them in memory. A Redis that does not answer
    holds nobody back (the class itself then answers 503)."""

    def __init__(self, store: Any, free: int, window: float) -> None:
        self.store, self.free, self.window = store, free, window

    def _key(self, who: str) -> str:
        return f"{self.store.prefix}miss:{who}"

    async def _blocked(self, who: str) -> float:
        now, key = self.store._clock(), self._key(who)
        pipe = self.store._redis().pipeline(transaction=True)
        pipe.zremrangebyscore(key, "-inf", now - self.window)
        pipe.zrange(key, -self.free, -self.free, withscores=True)
        _, nth = await pipe.execute()
        if not nth:  # fewer than `free` misses within the window
            return 0.0
        return max(self.window - (now - float(nth[0][1])), 0.0)

    async def _miss(self, who: str) -> None:
        now, key = self.store._clock(), self._key(who)
        pipe = self.store._redis().pipeline(transaction=True)
        pipe.zadd(key, {f"{now!r}:{uuid.uuid4().hex[:8]}": now})
        pipe.expire(key, int(self.window) + 1)
        await pipe.execute()

    async def blocked_async(self, who: str) -> float:
        try:
            return await self.store._on_loop(self._blocked(who))
        except cs.ClassError:
            return 0.0

    async def miss_async(self, who: str) -> None:
        with contextlib.suppress(cs.ClassError):
            await self.store._on_loop(self._miss(who))

    def blocked(self, who: str) -> float:
        return cs.run(self.blocked_async(who))

    def miss(self, who: str) -> None:
        cs.run(self.miss_async(who))
