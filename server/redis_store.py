"""The class store on Redis (issue 29): one class followed across several server processes.

With ``BOOSTLAB_REDIS_URL`` set (``redis://127.0.0.1:6379/0``), every process of a lecture
hall (``scripts/hall.py``: HAProxy in front of N app processes) keeps its classes here
instead of in its own memory, so a teacher whose session lives on one process and students on
the others see one class. It implements :class:`server.store.ClassStore` exactly as
:class:`~server.store.MemoryStore` does (``tests/server/test_class_store.py`` runs every test
against both), with the well-kept client ``redis`` (PyPI) and its asyncio API.

Layout, under a prefix (``boostlab:`` by default; the tests use one per store):

* ``classes`` — a sorted set of open codes scored by when each was last touched (the limit
  on open classes counts its members);
* ``c:<CODE>`` — a hash of the class: the teacher key's SHA-256, page, query, round, ``seq``,
  touched, the question, revealed, histogram, predict, mode, ended;
* ``c:<CODE>:a``, ``:s``, ``:f`` — hashes of the answers (student → choice), the splits
  (student → order and JSON) and the followers (student → open pages);
* the channel ``ev:<CODE>`` — each change publishes the class's new ``seq``.

Every change is one Lua script (atomic in Redis: 300 students answering at once cannot lose
an answer or pass a limit), which checks the class, applies the change, bumps ``seq`` and
``touched``, refreshes the keys' expiry and publishes. A follower's stream waits on a pub/sub
subscription that the process holds once for all its classes (``psubscribe``), not on a
polling loop.

Every Redis call runs on the store's own event loop, in a thread of its own: the routes (the
server's loop), the Streamlit script threads (:func:`server.store.run`, a new loop per
call) and the tests all await it from their loops, and the client's connections stay bound to
one loop. When Redis does not answer, a call raises :class:`StoreUnavailable` (a
:class:`~server.store.ClassError`: a sentence, HTTP 503), never a traceback; the
subscription reconnects by itself, and a class whose data Redis lost (a restart without
persistence) is a class that has ended.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hmac
import json
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Mapping
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

import server.store as cs
from server.redis_scripts import ENDED_SECONDS, SCRIPTS
from server.redis_shared import Lease, SharedMisses

T = TypeVar("T")

#: A follower re-reads its class at least this often (seconds), whatever the channel says:
#: a message lost while the subscription reconnected costs at most this much delay.
REREAD_SECONDS = 10.0
#: How long one Redis call may take before the class is reported unavailable (seconds).
TIMEOUT = 5.0
#: Redis connections of one process (its calls queue for one beyond this; Redis's own limit
#: is 10,000 clients).
POOL = 32


class StoreUnavailable(cs.ClassError):
    """Redis does not answer (stopped, restarting, unreachable)."""

    status = 503


class _Loop:
    """An event loop in a daemon thread of its own: the store's Redis connections live on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="class-store", daemon=True
        )
        self.thread.start()

    def submit(self, coro: Awaitable[T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)  # type: ignore[arg-type]


class RedisStore:
    """The class store on Redis (see the module docstring).

    Parameters
    ----------
    url : str
        ``redis://host:port/db`` (``BOOSTLAB_REDIS_URL``).
    limits : Limits, optional
        As :class:`~server.store.MemoryStore`'s (per server process there, per Redis
        prefix here: the hall's processes share them).
    clock : callable, optional
        Seconds, for the idle limit (``time.time``: the processes share it).
    prefix : str
        The keys' prefix (several halls, or the tests, on one Redis).
    """

    def __init__(
        self,
        url: str,
        limits: cs.Limits | None = None,
        clock=time.time,
        prefix: str = "boostlab:",
    ) -> None:
        self.limits = limits or cs.Limits()
        self.url = url
        self.prefix = prefix
        self._clock = clock
        self._loop = _Loop()
        self._client: aioredis.Redis | None = None
        self._sub_client: aioredis.Redis | None = None
        self._scripts: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._watchers: dict[str, set[cs.Watcher]] = {}
        self._hub: asyncio.Task | None = None
        self._tix: cs.Tickets | None = None
        self._lease: Lease | None = None

    # ---------------------------------------------------------------------- plumbing
    def _keys(self, code: str) -> list[str]:
        c = f"{self.prefix}c:{code}"
        return [
            c,
            f"{self.prefix}classes",
            c + ":a",
            c + ":s",
            c + ":f",
            f"{self.prefix}ev:{code}",
            c + ":j",
        ]

    async def _on_loop(self, coro: Awaitable[T]) -> T:
        """Run ``coro`` on the store's loop and wait for it from the caller's loop; a Redis
        that does not answer becomes :class:`StoreUnavailable`."""
        future = self._loop.submit(coro)
        try:
            return await asyncio.wrap_future(future)
        except (RedisError, OSError, TimeoutError) as e:
            raise StoreUnavailable(
                "The class server (Redis) is not answering, so the class cannot be reached "
                f"now; try again in a moment ({type(e).__name__})."
            ) from None

    def _redis(self) -> aioredis.Redis:
        """The client (on the store's loop)."""
        if self._client is None:
            # a blocking pool: 300 students arriving at once wait a moment for a connection
            # (the client's default pool refuses the 101st: "Too many connections", which
            # was 200 of 300 followers refused in benchmarks/bench_hall.py on one process)
            pool = aioredis.BlockingConnectionPool.from_url(
                self.url,
                max_connections=POOL,
                timeout=TIMEOUT,
                decode_responses=True,
                socket_timeout=TIMEOUT,
                socket_connect_timeout=TIMEOUT,
                health_check_interval=30,
                # a connection of the pool that Redis dropped (a restart) is replaced, the
                # call tried again: the teacher's next step goes through
                retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), 3),
                retry_on_error=[RedisConnectionError, RedisTimeoutError],
            )
            self._client = aioredis.Redis(connection_pool=pool)
            self._scripts = {n: self._client.register_script(s) for n, s in SCRIPTS.items()}
        return self._client

    async def _script(self, name: str, code: str, *args: Any) -> list[Any]:
        r = self._redis()
        ttl = int(self.limits.idle_hours * 3600) + ENDED_SECONDS
        common = [repr(float(self._clock())), self.limits.idle_hours * 3600, code, ttl]
        return await self._scripts[name](keys=self._keys(code), args=[*common, *args], client=r)

    async def _change(self, name: str, code: str, *args: Any) -> cs.ClassState:
        """A change by script, then the class as of now (or the refusal, in words)."""
        got = await self._on_loop(self._script(name, code, *args))
        word = got[0]
        if word == "none":
            raise cs.NoSuchClass(
                f"No class {code} is open on this server: it has ended, or the server was "
                "restarted. Ask your teacher for the code."
            )
        if word == "noquestion":
            raise cs.ClassError("There is no open question to reveal.")
        if word == "badcorrect":
            raise cs.ClassError(
                f"correct must be a choice index 0-{int(got[1]) - 1}; got {args[1]!r}"
            )
        if word == "closed":
            raise cs.ClassError("That question is closed: the teacher has moved on.")
        if word == "revealed":
            raise cs.ClassError("The answer is revealed: answers are closed.")
        if word == "badchoice":
            raise cs.ClassError(f"choice must be 0-{int(got[1]) - 1}; got {int(args[2])!r}")
        if word == "notfollowing":
            raise cs.NotFollowing(cs.not_following(code))
        if word == "full":
            raise cs.ClassFull(self._full_message(name, code))
        return await self.state(code)

    def _full_message(self, name: str, code: str) -> str:
        if name == "answer":
            return f"This question already has {self.limits.students} answers."
        if name == "submit":
            return f"This class already has {self.limits.submissions} splits."
        return (
            f"Class {code} is full: {self.limits.students} students follow it "
            "(BOOSTLAB_MAX_STUDENTS)."
        )

    async def _read(self, code: str) -> tuple[dict[str, str], int, int, int]:
        h, _, a, s, f, *_ = self._keys(code)
        pipe = self._redis().pipeline(transaction=True)
        pipe.hgetall(h).hlen(a).hlen(s).hlen(f)
        return tuple(await pipe.execute())  # type: ignore[return-value]

    @staticmethod
    def _state(rec: dict[str, str], answers: int, splits: int, followers: int) -> cs.ClassState:
        q = json.loads(rec["question"]) if rec.get("question") else None
        revealed = rec.get("revealed") == "1"
        question = (
            None
            if q is None
            else cs.Question(
                id=q["id"],
                choices=tuple(q["choices"]),
                correct=q.get("correct") if revealed else None,
            )
        )
        return cs.ClassState(
            code=rec["code"],
            page=rec["page"],
            query=tuple(tuple(kv) for kv in json.loads(rec["query"])),  # type: ignore[misc]
            round=int(rec["round"]) if rec.get("round") else None,
            seq=int(rec["seq"]),
            students=followers,
            question=question,
            answers=answers,
            revealed=revealed,
            histogram=tuple(json.loads(rec.get("histogram") or "[]")),
            submissions=splits,
            ended=rec.get("ended") == "1",
            predict=rec.get("predict") == "1",
            mode=rec.get("mode", ""),
        )

    async def _teacher(self, code: str, key: str | None) -> None:
        """The teacher key's check (in Python: ``hmac.compare_digest``)."""
        stored, ended = await self._on_loop(
            self._redis().hmget(self._keys(code)[0], ["key_hash", "ended"])
        )
        if stored is None or ended == "1":
            raise cs.NoSuchClass(
                f"No class {code} is open on this server: it has ended, or the server was "
                "restarted. Ask your teacher for the code."
            )
        if not key or not hmac.compare_digest(stored, cs.key_hash(str(key))):
            raise cs.NotTeacher(f"Only the teacher of class {code} can do that.")

    # --------------------------------------------------------------------- interface
    async def open(
        self,
        key: str,
        page: str,
        query: Mapping[str, Any],
        round: int | None,
        owner: str = "",
    ) -> str:
        if not isinstance(key, str) or len(key) < 22:
            raise cs.ClassError("key must be a teacher key from new_key() (at least 128 bits)")
        owner = cs.check_owner(owner)
        q = json.dumps([list(kv) for kv in cs.query_pairs(query)])
        for _ in range(20):
            code = cs.new_code()
            got = await self._on_loop(
                self._script(
                    "open",
                    code,
                    cs.key_hash(key),
                    str(page),
                    q,
                    "" if round is None else int(round),
                    self.limits.classes,
                    owner,
                    self.limits.classes_per_address,
                    f"{self.prefix}c:",  # the class hashes' keys (_keys)
                    f"{self.prefix}ev:",  # the classes' channels
                    self.limits.abandoned_minutes * 60,
                )
            )
            if got[0] == "owner":
                raise cs.owner_full(self.limits.classes_per_address, self.limits.abandoned_minutes)
            if got[0] == "full":
                raise cs.ClassFull(
                    f"This server already has {self.limits.classes} open classes, its limit "
                    "(BOOSTLAB_MAX_CLASSES). End a class or try again later."
                )
            if got[0] == "ok":
                return code
        raise cs.ClassError("No free class code was found; try again.")

    async def state(self, code: str) -> cs.ClassState:
        c = cs.normal_code(code)
        rec, answers, splits, followers = await self._on_loop(self._read(c))
        if not rec:
            raise cs.NoSuchClass(
                f"No class {c} is open on this server: it has ended, or the server was "
                "restarted. Ask your teacher for the code."
            )
        now = self._clock()
        if rec.get("ended") != "1" and (
            now - float(rec["touched"]) > self.limits.idle_hours * 3600
            or now - float(rec.get("seen") or now) > float(rec.get("abandon") or "inf")
        ):
            # idle too long: closed now (the script does it, and tells the followers)
            with _suppress_class_error():
                await self._change("show", c)
            rec, answers, splits, followers = await self._on_loop(self._read(c))
        return self._state(rec, answers, splits, followers)

    async def is_teacher(self, code: str, key: str | None) -> bool:
        try:
            await self._teacher(cs.normal_code(code), key)
        except cs.NotTeacher:
            return False
        return True

    async def show(
        self, code, key, *, page=None, query=None, round=None, predict=None, mode=None
    ) -> cs.ClassState:
        cs.check_round(round)
        if mode is not None and (not isinstance(mode, str) or len(mode) > cs.MAX_MODE):
            raise cs.ClassError(f"mode must be a text of at most {cs.MAX_MODE} characters")
        c = cs.normal_code(code)
        await self._teacher(c, key)
        fields: list[Any] = []
        if page is not None:
            fields += ["page", str(page)]
        if query is not None:
            fields += ["query", json.dumps([list(kv) for kv in cs.query_pairs(query)])]
        if round is not None or page is not None or query is not None:
            fields += ["round", "" if round is None else int(round)]
        if predict is not None:
            fields += ["predict", "1" if predict else "0"]
        if mode is not None:
            fields += ["mode", mode]
        return await self._change("show", c, *fields)

    async def ask(self, code, key, question) -> cs.ClassState:
        if question is not None and (
            not isinstance(question, cs.Question) or not 2 <= len(question.choices) <= 8
        ):
            raise cs.ClassError(f"question must be a Question with 2-8 choices; got {question!r}")
        c = cs.normal_code(code)
        await self._teacher(c, key)
        text = (
            ""
            if question is None
            else json.dumps({"id": question.id, "choices": list(question.choices)})
        )
        return await self._change("ask", c, text)

    async def reveal(self, code, key, correct: int, question: str | None = None) -> cs.ClassState:
        c = cs.normal_code(code)
        await self._teacher(c, key)
        if not isinstance(correct, int) or isinstance(correct, bool):
            q = (await self.state(c)).question
            if q is None or (question is not None and q.id != question):
                raise cs.ClassError("There is no open question to reveal.")
            raise cs.ClassError(
                f"correct must be a choice index 0-{len(q.choices) - 1}; got {correct!r}"
            )
        return await self._change("reveal", c, question or "", correct)

    async def answer(self, code, student, question, choice) -> cs.ClassState:
        student = cs.check_student(student)
        c = cs.normal_code(code)
        if not isinstance(choice, int) or isinstance(choice, bool):
            state = await self.state(c)  # a closed question says so first, as in memory
            if state.question is None or state.question.id != question:
                raise cs.ClassError("That question is closed: the teacher has moved on.")
            if state.revealed:
                raise cs.ClassError("The answer is revealed: answers are closed.")
            raise cs.ClassError(f"choice must be an integer; got {choice!r}")
        return await self._change("answer", c, student, str(question), choice, self.limits.students)

    async def my_answer(self, code, student, question) -> int | None:
        c = cs.normal_code(code)
        state = await self.state(c)
        if state.ended:
            raise cs.NoSuchClass(
                f"No class {c} is open on this server: it has ended, or the server was "
                "restarted. Ask your teacher for the code."
            )
        if state.question is None or state.question.id != question:
            return None
        got = await self._on_loop(self._redis().hget(self._keys(c)[2], str(student)))
        return None if got is None else int(got)

    async def submit(self, code, student, split) -> cs.ClassState:
        student = cs.check_student(student)
        clean = cs.clean_split(split)
        c = cs.normal_code(code)
        return await self._change("submit", c, student, json.dumps(clean), self.limits.submissions)

    async def splits(self, code) -> list[dict[str, Any]]:
        c = cs.normal_code(code)
        state = await self.state(c)
        if state.ended:
            raise cs.NoSuchClass(
                f"No class {c} is open on this server: it has ended, or the server was "
                "restarted. Ask your teacher for the code."
            )
        raw = await self._on_loop(self._redis().hvals(self._keys(c)[3]))
        pairs = [v.split("|", 1) for v in raw]
        return [json.loads(text) for _, text in sorted(pairs, key=lambda p: int(p[0]))]

    async def clear_splits(self, code, key) -> cs.ClassState:
        c = cs.normal_code(code)
        await self._teacher(c, key)
        return await self._change("clear", c)

    async def _tickets(self) -> cs.Tickets:
        """The hall's one secret for followers' ids, made by the first process that asks
        (``SET NX``: every process signs and checks with the same)."""
        if self._tix is None:
            r, name = self._redis(), f"{self.prefix}secret"
            await r.set(name, cs.new_secret().hex(), nx=True)
            self._tix = cs.Tickets(bytes.fromhex(await r.get(name)))
        return self._tix

    async def admit(self, code, address) -> str:
        c, address = cs.normal_code(code), cs.check_owner(address)
        limits = self.limits
        got = await self._on_loop(
            self._script("admit", c, address, limits.joins_per_address, limits.joins_per_class)
        )
        if got[0] == "none":
            raise cs.NoSuchClass(
                f"No class {c} is open on this server: it has ended, or the server was "
                "restarted. Ask your teacher for the code."
            )
        if got[0] == "joinsclass":
            raise cs.ClassFull(cs.class_joins_full(c, limits.joins_per_class))
        if got[0] == "joinsaddress":
            raise cs.ClassFull(cs.address_joins_full(c, limits.joins_per_address))
        return (await self._on_loop(self._tickets())).issue(c)

    async def admitted(self, code, student) -> bool:
        return (await self._on_loop(self._tickets())).valid(cs.normal_code(code), student)

    async def join(self, code, student) -> cs.ClassState:
        student, c = cs.check_student(student), cs.normal_code(code)
        lease = self.lease
        await self._on_loop(lease.start())
        state = await self._change(
            "join", c, student, self.limits.students, lease.held_key(c), lease.codes_key()
        )
        lease.hold(c, student, +1)
        return state

    async def leave(self, code, student) -> None:
        try:
            c = cs.normal_code(code)
        except cs.ClassError:
            return
        self.lease.hold(c, str(student), -1)
        with _suppress_class_error():
            await self._on_loop(self._script("leave", c, str(student), self.lease.held_key(c)))

    async def following(self, code, student) -> bool:
        c = cs.normal_code(code)
        await self.state(c)  # an unknown or ended class says so
        return bool(await self._on_loop(self._redis().hexists(self._keys(c)[4], str(student))))

    async def alive(self, code, key) -> None:
        c = cs.normal_code(code)
        await self._teacher(c, key)
        got = await self._on_loop(self._script("alive", c))
        if got[0] == "none":
            await self._teacher(c, key)  # the sentence of a class that has just ended

    async def end(self, code, key) -> None:
        c = cs.normal_code(code)
        await self._teacher(c, key)
        await self._on_loop(self._script("end", c))

    def misses(self, free: int, window: float) -> SharedMisses:
        """A count of wrong class codes that every process on this Redis shares
        (:meth:`server.store.Throttle.share`)."""
        return SharedMisses(self, free, window)

    @property
    def lease(self) -> Lease:
        """This process's place among the hall's (its followers taken back if it dies)."""
        if self._lease is None:
            self._lease = Lease(self)
        return self._lease

    # ------------------------------------------------------------------- followers
    async def _listen(self) -> None:
        """The process's one subscription to every class's channel (on the store's loop):
        wakes the followers of the class a message names; reconnects when Redis goes away
        (and wakes everyone, to re-read their class)."""
        pattern = f"{self.prefix}ev:*"
        start = len(pattern) - 1
        delay = 0.2
        if self._sub_client is None:
            # no socket timeout here: a quiet channel is not a dead one (the health check
            # pings the connection instead)
            self._sub_client = aioredis.Redis.from_url(
                self.url,
                decode_responses=True,
                socket_connect_timeout=TIMEOUT,
                health_check_interval=15,
            )
        while True:
            pubsub = self._sub_client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(pattern)
                self._wake_all()  # anything missed while (re)connecting
                delay = 0.2
                async for message in pubsub.listen():
                    if message.get("type") == "pmessage":
                        self._wake(str(message["channel"])[start:])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError):
                self._wake_all()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
            finally:
                with _suppress_class_error(), _suppress_redis():
                    await pubsub.aclose()

    def _wake(self, code: str) -> None:
        with self._lock:
            for w in self._watchers.get(code, ()):
                w.wake()

    def _wake_all(self) -> None:
        with self._lock:
            for ws in self._watchers.values():
                for w in ws:
                    w.wake()

    async def _ensure_hub(self) -> None:
        async def start() -> None:
            if self._hub is None or self._hub.done():
                self._hub = asyncio.get_running_loop().create_task(self._listen())

        await asyncio.wrap_future(self._loop.submit(start()))

    async def watch(self, code: str) -> AsyncIterator[cs.ClassState]:  # type: ignore[override]
        c = cs.normal_code(code)
        w = cs.Watcher()
        with self._lock:
            self._watchers.setdefault(c, set()).add(w)
        await self._ensure_hub()
        try:
            seen = -1
            while True:
                w.event.clear()
                try:
                    now = await self.state(c)
                except StoreUnavailable:
                    # Redis is restarting: the follower keeps what it shows and waits (the
                    # subscription wakes it when Redis is back, or the next re-read)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(w.event.wait(), 1.0)
                    continue
                if now.seq != seen:
                    seen = now.seq
                    yield now
                if now.ended:
                    return
                try:
                    await asyncio.wait_for(w.event.wait(), REREAD_SECONDS)
                except TimeoutError:
                    pass
        finally:
            with self._lock:
                self._watchers.get(c, set()).discard(w)
                if not self._watchers.get(c):
                    self._watchers.pop(c, None)

    # ------------------------------------------------------------------------ tests
    def dump(self) -> str:
        """Every key of this store's prefix and its value, as text (tests: what a dump of
        the store would show)."""

        async def read() -> str:
            r = self._redis()
            out = []
            async for k in r.scan_iter(match=f"{self.prefix}*"):
                kind = await r.type(k)
                if kind == "hash":
                    out.append(f"{k} {await r.hgetall(k)}")
                elif kind == "zset":
                    out.append(f"{k} {await r.zrange(k, 0, -1, withscores=True)}")
                else:
                    out.append(f"{k} {kind}")
            return "\n".join(out)

        return self._loop.submit(read()).result(TIMEOUT)

    def close(self) -> None:
        """Stop the subscription and the store's loop (tests; a server process just exits)."""

        async def stop() -> None:
            if self._lease is not None:
                await self._lease.stop()
            if self._hub is not None:
                self._hub.cancel()
                # its cancellation runs to the end before the loop stops (a coroutine left
                # half-cancelled would be reported when it is collected)
                await asyncio.gather(self._hub, return_exceptions=True)
            for client in (self._client, self._sub_client):
                if client is not None:
                    await client.aclose()

        with _suppress_redis():
            self._loop.submit(stop()).result(TIMEOUT)
        self._loop.loop.call_soon_threadsafe(self._loop.loop.stop)


class _suppress_class_error:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, value, tb) -> bool:
        return kind is not None and issubclass(kind, cs.ClassError)


class _suppress_redis:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, value, tb) -> bool:
        return kind is not None and issubclass(
            kind, (RedisError, OSError, concurrent.futures.TimeoutError, RuntimeError)
        )
