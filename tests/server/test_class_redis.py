"""The class store on Redis when Redis goes away (issue 29, "faults"): a real redis-server,
started, stopped and restarted by these tests on 127.0.0.1.

* Redis stopped: every call is refused with a sentence (:class:`StoreUnavailable`, HTTP 503
  on the routes), never a traceback.
* Redis restarted with its data (an append-only file): the class goes on, and a follower
  that was waiting hears the teacher's next step (the subscription reconnected by itself).
* Redis restarted without its data: the class has ended, in words.
* Two stores on one Redis (two server processes of a hall) share one class: a step on one
  reaches a follower on the other.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
import uuid

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

import server.routes as routes
import server.store as cs
from tests.conftest import free_port, redis_server

pytest.importorskip("redis")
from server.redis_store import RedisStore, StoreUnavailable  # noqa: E402


def _store(url: str) -> RedisStore:
    return RedisStore(url, prefix=f"faults-{uuid.uuid4().hex}:")


def _opened(store) -> tuple[str, str]:
    key = cs.new_key()
    return key, cs.run(store.open(key, "topdown", {"s": "8"}, 0))


def test_a_stopped_redis_is_a_sentence_not_a_traceback(monkeypatch) -> None:
    with redis_server() as url:
        store = _store(url)
        key, code = _opened(store)
    # Redis is gone now
    with pytest.raises(StoreUnavailable, match="Redis\\) is not answering"):
        cs.run(store.state(code))
    with pytest.raises(StoreUnavailable):
        cs.run(store.show(code, key, round=2))
    monkeypatch.setattr(cs, "STORE", store)
    with TestClient(Starlette(routes=routes.ROUTES)) as client:
        r = client.post(f"/api/class/{code}/round", json={"key": key, "round": 2})
        assert r.status_code == 503 and "not answering" in r.json()["error"]
        r = client.get(f"/api/class/{code}/events")
        assert r.status_code == 503 and "try again" in r.json()["error"]
    store.close()


def test_a_restarted_redis_with_its_data_goes_on_and_followers_reconnect() -> None:
    port, folder = free_port(), tempfile.mkdtemp(prefix="bl-redis-aof-")
    with redis_server(port, folder) as url:
        store = _store(url)
        key, code = _opened(store)
        cs.run(store.show(code, key, round=1))

    async def follow() -> list[int | None]:
        rounds = []
        stream = store.watch(code)
        rounds.append((await anext(stream)).round)
        return rounds, stream

    async def scenario() -> list[int | None]:
        with redis_server(port, folder):
            rounds, stream = await follow()
        # Redis stops while the follower waits, and comes back with its data
        await asyncio.sleep(0.3)
        with redis_server(port, folder):
            await store.show(code, key, round=3)
            state = await asyncio.wait_for(anext(stream), 15)
            rounds.append(state.round)
            await stream.aclose()
        return rounds

    assert cs.run(scenario()) == [1, 3]
    store.close()


def test_a_restarted_redis_without_its_data_ends_the_class_in_words() -> None:
    port = free_port()
    with redis_server(port) as url:
        store = _store(url)
        key, code = _opened(store)
    with redis_server(port):
        with pytest.raises(cs.NoSuchClass, match="has ended, or the server was restarted"):
            cs.run(store.state(code))
        with pytest.raises(cs.NoSuchClass):
            cs.run(store.show(code, key, round=2))
    store.close()


def test_a_halls_processes_count_wrong_codes_as_one(redis_url, monkeypatch) -> None:
    """Each process of a hall counted wrong codes apart (N × 30 a minute from one address,
    docs said 30; issue 40, item 8): with the misses in Redis, 20 wrong codes on one process
    and 10 on the other block the address on both; another address is not held back; ids
    of the class's own followers and its teacher still get through (the routes)."""
    prefix = f"hall-{uuid.uuid4().hex}:"
    one, two = RedisStore(redis_url, prefix=prefix), RedisStore(redis_url, prefix=prefix)
    a, b = cs.Throttle(free=cs.FREE_MISSES), cs.Throttle(free=cs.FREE_MISSES)
    a.share(one.misses(a.free, a.window))
    b.share(two.misses(b.free, b.window))
    for _ in range(20):
        a.miss("203.0.113.7")
    for _ in range(10):
        cs.run(b.miss_async("203.0.113.7"))
    assert 55 < a.blocked("203.0.113.7") <= 60 and 55 < cs.run(b.blocked_async("203.0.113.7"))
    assert b.blocked("198.51.100.1") == 0
    # the routes of the second process, behind the hall's proxy, refuse the guesser
    monkeypatch.setattr(cs, "STORE", two)
    monkeypatch.setattr(routes, "THROTTLE", b)
    monkeypatch.setattr(routes, "TRUSTED_PROXIES", frozenset({"testclient"}))
    with TestClient(Starlette(routes=routes.ROUTES)) as client:
        r = client.get("/api/class/ZZZZZZ/events", headers={"X-Forwarded-For": "203.0.113.7"})
        assert r.status_code == 429 and "Too many wrong class codes" in r.json()["error"]
    one.close()
    two.close()


def test_the_servers_start_shares_the_throttle_on_redis(redis_url, monkeypatch) -> None:
    monkeypatch.setenv("BOOSTLAB_REDIS_URL", redis_url)
    monkeypatch.setenv("BOOSTLAB_REDIS_PREFIX", f"start-{uuid.uuid4().hex}:")
    monkeypatch.setattr(cs, "STORE", cs.STORE)  # put back after the test

    async def started() -> bool:
        async with routes.lifespan(None):
            return cs.THROTTLE._shared is not None and isinstance(cs.STORE, RedisStore)

    assert cs.run(started())
    assert cs.THROTTLE._shared is None  # the stop counts here again


def _until(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_dead_processs_followers_are_counted_out(redis_url, monkeypatch) -> None:
    """A process killed with its followers' streams open never took them back: its students
    stayed counted for good (28 counted for 3 real ones, benchmarks/bench_attacks.py), held
    seats and counted as following. Once its lease has expired, another process takes its
    pages out of the count (and the class hears of it); a student who also followed through
    the living process stays counted."""
    import server.redis_shared as shared

    monkeypatch.setattr(shared, "LEASE_SECONDS", 1)
    monkeypatch.setattr(shared, "RENEW_SECONDS", 0.1)
    prefix = f"hall-{uuid.uuid4().hex}:"
    dead, alive = RedisStore(redis_url, prefix=prefix), RedisStore(redis_url, prefix=prefix)
    key, code = _opened(alive)
    ids = [cs.run(alive.admit(code, "")) for _ in range(4)]
    for sid in ids:
        cs.run(dead.join(code, sid))
    cs.run(alive.join(code, ids[0]))  # a second tab of the first, on the living process
    cs.run(alive.join(code, cs.run(alive.admit(code, ""))))
    assert cs.run(alive.state(code)).students == 5
    dead.close()  # killed: no leave ever comes, its lease is no longer renewed
    assert _until(lambda: cs.run(alive.state(code)).students == 2), cs.run(alive.state(code))
    assert cs.run(alive.following(code, ids[0])) and not cs.run(alive.following(code, ids[1]))
    alive.close()


def test_a_frozen_process_taken_out_puts_its_followers_back(redis_url, monkeypatch) -> None:
    """A process only frozen past its lease (SIGSTOP) is taken out like a dead one; when it
    runs again, what it still holds goes back into the count, and its later leaves are not
    counted twice."""
    import server.redis_shared as shared

    monkeypatch.setattr(shared, "LEASE_SECONDS", 1)
    monkeypatch.setattr(shared, "RENEW_SECONDS", 0.1)
    prefix = f"hall-{uuid.uuid4().hex}:"
    frozen, other = RedisStore(redis_url, prefix=prefix), RedisStore(redis_url, prefix=prefix)
    key, code = _opened(other)
    sid = cs.run(other.admit(code, ""))
    cs.run(frozen.join(code, sid))
    cs.run(other.join(code, cs.run(other.admit(code, ""))))  # starts the other's lease
    frozen._loop.submit(frozen.lease.stop()).result(5)  # its renewals stop, as if frozen
    assert _until(lambda: cs.run(other.state(code)).students == 1)
    frozen._loop.submit(frozen.lease.start()).result(5)  # it runs again
    assert _until(lambda: cs.run(other.state(code)).students == 2)
    cs.run(frozen.leave(code, sid))
    cs.run(frozen.leave(code, sid))  # a leave too many changes nothing
    assert cs.run(other.state(code)).students == 1
    frozen.close()
    other.close()


def test_two_processes_stores_share_one_class(redis_url) -> None:
    """Two stores on one Redis and prefix (two app processes of a hall): the teacher's step
    on one reaches a follower of the other, and answers sent to both are one histogram."""
    prefix = f"hall-{uuid.uuid4().hex}:"
    one, two = RedisStore(redis_url, prefix=prefix), RedisStore(redis_url, prefix=prefix)
    key, code = _opened(one)

    async def go():
        stream = two.watch(code)
        await anext(stream)
        await one.show(code, key, round=4)
        state = await asyncio.wait_for(anext(stream), 5)
        await one.ask(code, key, cs.Question("q1", ("A", "B")))
        await two.join(code, "student-0001")  # each follows through the other process
        await one.join(code, "student-0002")
        await asyncio.gather(
            one.answer(code, "student-0001", "q1", 0), two.answer(code, "student-0002", "q1", 1)
        )
        revealed = await two.reveal(code, key, 1)
        await stream.aclose()
        return state.round, revealed.histogram

    assert cs.run(go()) == (4, (1, 1))
    assert json.loads(json.dumps(cs.run(two.state(code)).public()))["round"] == 4
    one.close()
    two.close()


def test_300_students_arriving_at_once_on_one_process(redis_url) -> None:
    """300 followers join one class at the same moment through one process's store (the
    client's default pool refused the 101st): all are counted, none refused."""
    store = _store(redis_url)
    key, code = _opened(store)

    async def go():
        await asyncio.gather(*(store.join(code, f"student-{i:04d}") for i in range(300)))
        return (await store.state(code)).students

    assert cs.run(go()) == 300
    store.close()
