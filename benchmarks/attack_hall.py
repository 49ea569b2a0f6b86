"""The rows of ``benchmarks/bench_attacks.py`` that only the lecture hall has: a join flood
from a posed ``X-Forwarded-For`` through HAProxy (h3), one app process killed while its
students answer (h10k) and one stopped and continued (h10s). The rows the hall shares with
one process (h2, h4, h7, h11) are ``attack_rows.py``'s.

The hall is ``scripts/hall.py``'s ``Hall`` (Redis, 2 app processes, HAProxy); a row finds it
and the bench's own store on its Redis in ``target.extra`` and calls ``hall.supervise`` while
it waits, so that the hall restarts a process that died.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import time
from collections import Counter

from attack_clients import (
    Follower,
    aio,
    answer_until_acked,
    burst,
    close_all,
    healthy,
    log,
    post_json,
    request,
    served_by,
    until,
    wait_sync,
)
from attack_probe import (
    LEAVE_WAIT_HALL,
    Row,
    Target,
    counts,
    follow_crowd,
    ms,
    n_of,
    probe,
    sec,
    server_constants,
)

#: How long the kill row waits, once its students have gone, for the class to count only its
#: real students again: the dead process's followers are counted out when its lease has run
#: out and another process has looked (``redis_shared``: 12 s, renewed every 3 s), so ~15 s
#: after the kill at most; twice that is a miss, not a slow machine.
KILL_COUNT_WAIT_S = 30.0


def row_posed(t: Target) -> Row:
    """Whether a client's own X-Forwarded-For is the address the hall's app counts (a
    class of its own: 601 joins from one posed address)."""
    hall, store = t.extra["hall"], t.extra["store"]
    import server.store as cs

    key = cs.new_key()
    code = cs.run(store.open(key, "topdown", {}, 0))
    xff = "203.0.113.83"
    log(f"[h3] 601 joins through HAProxy posing as {xff} (a class of its own: {code})")

    async def go():
        replies = await burst(
            601, 50, lambda i: post_json(t.port, f"/api/class/{code}/join", {}, xff)
        )
        other = await post_json(t.port, f"/api/class/{code}/join", {}, "203.0.113.84")
        plain = await post_json(t.port, f"/api/class/{code}/join", {})
        return replies, other, plain

    replies, other, plain = aio(go(), 120, tick=hall.supervise)
    with contextlib.suppress(Exception):
        cs.run(store.end(code, key))
    given = sum(r.status == 200 for r in replies)
    return Row(
        f"**{t.name}** · 3. join flood through HAProxy: 601 joins sending "
        f"`X-Forwarded-For: {xff}` (HAProxy appends 127.0.0.1)",
        "600 ids per address per class (`BOOSTLAB_MAX_JOINS_PER_ADDRESS`), counted on Redis "
        "across the processes",
        f"{given} ids given, {counts(r.status for r in replies if r.status != 200)} refused: the "
        "app counts the posed address (uvicorn takes the rightmost address it does not trust; "
        "a real client's own address would be that one)",
        f"another posed address joins {other.status}; a loopback client without the header "
        f"joins {plain.status}",
    )


#: In the kill row, this many answers leave at the same moment halfway, and the process is
#: killed this long after they were sent: answers in flight when it dies.
AT_ONCE, KILL_AFTER_S = 6, 0.003


def _answers_with_fault(t: Target, crowd: list[Follower], qid: str, fault) -> list[dict]:
    """Every follower of ``crowd`` answers ``qid`` (until acknowledged, ≤ 30 s), spread over
    0.5 s, except ``AT_ONCE`` of them halfway, sent together; ``fault()`` ``KILL_AFTER_S``
    after those were sent."""
    hall = t.extra["hall"]
    half = len(crowd) // 2

    async def go():
        async def one(i: int, f: Follower) -> dict:
            at = half if half <= i < half + AT_ONCE else i
            await asyncio.sleep(0.5 * at / len(crowd))  # a class answering within 0.5 s
            if i == half:
                asyncio.get_running_loop().call_later(KILL_AFTER_S, fault)
            return await answer_until_acked(t.port, t.code, f, qid, i % 4)

        return await asyncio.gather(*(one(i, f) for i, f in enumerate(crowd)))

    return aio(go(), 90, tick=hall.supervise)


def row_kill(t: Target) -> Row:
    """h10k: ``app1`` killed (SIGKILL) while its share of a crowd answers; whether every
    acknowledged answer is counted, and how soon the class counts only its real students again
    once the crowd has gone (the dead process's followers are counted out by its lease)."""
    import server.store as cs

    hall, store = t.extra["hall"], t.extra["store"]
    n = n_of(t.args, 50, 20)
    log(f"[h10k] {n} students join and follow through HAProxy")
    crowd = aio(follow_crowd(t, n), 120, tick=hall.supervise)
    try:
        spread = Counter(f.stream.server for f in crowd if f.stream)
        victim = "app1"
        held_real = sum(f.stream is not None and f.stream.server == victim for f in t.followers)
        pid = hall.piece(victim).proc.pid
        qid = f"bench-kill-{secrets.token_hex(3)}"
        cs.run(store.ask(t.code, t.key, cs.Question(qid, ("A", "B", "C", "D"))))
        aio(
            until(
                lambda: all(
                    (f.state.get("question") or {}).get("id") == qid for f in crowd if f.following
                ),
                10,
            )
        )
        killed = {}

        def kill() -> None:
            killed["at"] = time.monotonic()
            os.kill(pid, signal.SIGKILL)

        log(
            f"[h10k] {n} answers within 0.5 s, {AT_ONCE} of them at once halfway and {victim} "
            f"killed {1000 * KILL_AFTER_S:.0f} ms after those; each tried again for ≤ 30 s"
        )
        outs = _answers_with_fault(t, crowd, qid, kill)
        log(f"[h10k] SIGKILL {victim} (pid {pid}) was sent; all answers are done")
        state = cs.run(store.state(t.code))
        mine = [cs.run(store.my_answer(t.code, f.id, qid)) for f in crowd]
        log(f"[h10k] waiting until the hall has {victim} back (≤ 90 s)")
        back = wait_sync(
            lambda: hall.piece(victim).proc.poll() is None and healthy(hall.piece(victim).port),
            90,
            tick=hall.supervise,
        )
        back = time.monotonic() - killed["at"] if back == back else back
    finally:
        close_all(crowd)
    real = len(t.followers)
    closed_at = time.monotonic()
    wait_sync(lambda: all(f.following for f in t.followers), 10)
    stale = cs.run(store.state(t.code)).students
    log(
        f"[h10k] its students have left; the class counts {stale}; waiting until it counts "
        f"its {real} real students again (≤ {KILL_COUNT_WAIT_S:.0f} s: {victim}'s followers "
        "are counted out once its lease has run out)"
    )
    gone = wait_sync(
        lambda: cs.run(store.state(t.code)).students == real, KILL_COUNT_WAIT_S, hall.supervise
    )
    gone_at = time.monotonic()
    left = cs.run(store.state(t.code)).students
    bounds = server_constants()
    lease = (
        f"{bounds.get('LEASE_SECONDS', 12):g} s, renewed every {bounds.get('RENEW_SECONDS', 3):g} s"
    )
    acked = [o["acked"] for o in outs]
    counted = [m is not None for m in mine]
    right = sum(m == i % 4 for i, m in enumerate(mine))
    retried = sum(len(o["statuses"]) > 1 for o in outs)
    seen = Counter(s for o in outs for s in o["statuses"] if s != 200)
    lost = sum(a and not c for a, c in zip(acked, counted))
    unconfirmed = sum(c and not a for a, c in zip(acked, counted))
    slowest = max((o["seconds"] for o in outs if o["acked"]), default=float("nan"))
    return Row(
        f"**{t.name}** · 10. SIGKILL one app process ({victim}, held "
        f"{spread.get(victim, 0)} of {n} streams) while {n} students answer within 0.5 s "
        f"({AT_ONCE} at once halfway, the kill {1000 * KILL_AFTER_S:.0f} ms after them)",
        "the page tries an answer again (no reply, 429, 502-504, 403) for ≤ 30 s here; the "
        "same answer twice is one answer",
        f"{n} answers sent; {sum(acked)} acknowledged (the slowest after {sec(slowest, 2)}; "
        f"{retried} needed more than one try; refusals on the way: "
        f"{counts(seen.elements()) or 'none'})",
        f"the class counts {state.answers} answers ({sum(counted)} students have one, {right} "
        f"with the choice they sent); lost (acknowledged, not counted): {lost}; counted, not "
        f"acknowledged: {unconfirmed}; not acknowledged within 30 s: {n - sum(acked)}; {victim} "
        f"(restarted by the hall) answered its health check {sec(back)} after the kill; the "
        f"{n} students closed their streams {sec(closed_at - killed['at'])} after the kill, "
        "and the class counted "
        + (
            f"its {real} real students again {sec(gone_at - killed['at'])} after the kill "
            f"({sec(gone_at - closed_at)} after they closed)"
            if gone == gone
            else f"still {left} students, not its {real} real ones, "
            f"{sec(gone_at - closed_at)} after they closed (a wait of {KILL_COUNT_WAIT_S:.0f} s; "
            f"{victim} held {spread.get(victim, 0)} streams of them and {held_real} of the real "
            f"students' when it died; its lease ({lease}) should have let the other process count "
            "those out by then)"
        ),
    )


def row_stop(t: Target) -> Row:
    """h10s: the process holding most of a crowd's streams stopped (SIGSTOP) while its
    students answer, continued (SIGCONT) once they are done: how soon HAProxy cuts its
    streams, they follow through the other process, and it is served again."""
    import server.store as cs

    hall, store = t.extra["hall"], t.extra["store"]
    n = n_of(t.args, 40, 20)
    window = n_of(t.args, 40.0, 25.0)
    cfg = (hall.folder / "haproxy.cfg").read_text()
    shutdown = "on-marked-down shutdown-sessions" in cfg
    log(f"[h10s] {n} students follow through HAProxy")
    crowd = aio(follow_crowd(t, n), 120, tick=hall.supervise)
    pid = None
    try:
        spread = Counter(f.stream.server for f in crowd if f.following)
        victim = spread.most_common(1)[0][0]
        pid = hall.piece(victim).proc.pid
        on = [f for f in crowd if f.following and f.stream.server == victim]
        qid = f"bench-stop-{secrets.token_hex(3)}"
        cs.run(store.ask(t.code, t.key, cs.Question(qid, ("A", "B", "C", "D"))))
        aio(
            until(
                lambda: all(
                    (f.state.get("question") or {}).get("id") == qid for f in crowd if f.following
                ),
                10,
            )
        )
        log(
            f"[h10s] SIGSTOP {victim} (pid {pid}, {len(on)} streams); its students answer; "
            f"waiting ≤ {window:.0f} s"
        )

        async def go():
            t0 = time.monotonic()
            os.kill(pid, signal.SIGSTOP)
            answers = [
                asyncio.ensure_future(answer_until_acked(t.port, t.code, f, qid, 3, within=window))
                for f in on
            ]
            await asyncio.sleep(0)
            health = await request(t.port, "GET", "/_stcore/health", timeout=15)
            cut = await until(
                lambda: all(f.cuts and f.cuts[-1] > t0 for f in on), window, poll=0.05
            )
            cut_at = [f.cuts[-1] - t0 for f in on if f.cuts and f.cuts[-1] > t0]
            moved = await until(
                lambda: all(f.following and f.stream.server not in ("", victim) for f in on),
                max(1.0, window - (time.monotonic() - t0)),
                poll=0.05,
            )
            moved_at = time.monotonic() - t0 if moved == moved else float("nan")
            page = await probe(t)
            outs = await asyncio.gather(*answers)
            return health, cut, cut_at, moved_at, page, outs, time.monotonic() - t0

        health, cut, cut_at, moved_at, page, outs, stopped_for = aio(go(), window * 2 + 60)
    finally:
        if pid is not None:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
    log(f"[h10s] SIGCONT {victim}; waiting until HAProxy sends its cookie to it again (≤ 30 s)")
    back = wait_sync(lambda: served_by(t.port, f"BLSRV={victim}") == victim, 30, hall.supervise)
    mine = [cs.run(store.my_answer(t.code, f.id, qid)) for f in on]
    before = cs.run(store.state(t.code)).students
    close_all(crowd)
    gone = wait_sync(lambda: cs.run(store.state(t.code)).students <= before - n, LEAVE_WAIT_HALL)
    state = cs.run(store.state(t.code))
    acked = sum(o["acked"] for o in outs)
    counted = sum(m is not None for m in mine)
    seen = Counter(s for o in outs for s in o["statuses"] if s != 200)
    slowest = max((o["seconds"] for o in outs if o["acked"]), default=float("nan"))
    cut_text = (
        f"all {len(on)} cut after {sec(max(cut_at), 2)} (first {sec(min(cut_at), 2)})"
        if cut == cut and cut_at
        else f"{len(cut_at)} of {len(on)} cut within {window:.0f} s"
    )
    return Row(
        f"**{t.name}** · 10. SIGSTOP one app process ({victim}, {len(on)} of {n} streams), "
        f"SIGCONT after {stopped_for:.0f} s",
        "HAProxy checks `/_stcore/health` every 1 s, down after 2 failures"
        + (
            "; `on-marked-down shutdown-sessions` cuts its connections"
            if shutdown
            else "; no `on-marked-down shutdown-sessions` in the config in effect"
        ),
        f"its streams: {cut_text}; following again through the other process "
        + (f"{sec(moved_at, 2)} after the stop" if moved_at == moved_at else "NOT within the wait"),
        f"its {len(on)} students' answers: {acked} acknowledged (slowest {sec(slowest)}; on the "
        f"way {counts(seen.elements()) or 'no refusal'}), {counted} counted; health through "
        f"HAProxy {health.status or health.error} in {ms(health.seconds)}; later {page.text()}; "
        f"{victim} served its cookie again {sec(back)} after SIGCONT; its {n} students closed "
        f"their streams: the class's count {before} → {state.students} "
        + (
            f"after {sec(gone, 2)}"
            if gone == gone
            else f"(not all counted out within {LEAVE_WAIT_HALL:.0f} s)"
        ),
    )
