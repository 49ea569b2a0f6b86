"""The rows of ``benchmarks/bench_attacks.py`` that run against one process (issue 40's
items 1-9 and 11); 2, 4, 7 and 11 run against the hall too (``attack_hall.py`` holds the
hall's own). Each is ``row_…(target) -> Row``: the attack from an address of its own
(203.0.113.x, TEST-NET-3, so one row's refusals do not leak into the next), a probe during
it where it holds something open or is a burst (``attack_probe.probe``), and the row's four
cells in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import secrets
import time
from collections import Counter

from attack_clients import (
    Follower,
    Reply,
    Stream,
    aio,
    big_body,
    burst,
    log,
    post_json,
    request,
    slow_body,
    slow_headers,
    until,
)
from attack_probe import (
    LEAVE_WAIT_HALL,
    Row,
    Target,
    counts,
    leave_lag,
    n_of,
    open_files_limit,
    probe,
    probe_during,
    proc_status,
    rss,
    sec,
    server_constants,
    state_now,
)

#: The attacker's addresses (TEST-NET-3; one per attack, so one row's refusals do not leak
#: into the next) and the school's (many students behind one NAT).
ATTACKER = "203.0.113.66"
SCHOOL = "203.0.113.70"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SECURITY = (
    "referrer-policy",
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
)


def wrong_code() -> str:
    """A class code that is well formed and, almost surely, no class's."""
    return "".join(random.choice(CODE_ALPHABET) for _ in range(6))


def forged_id() -> str:
    """An id shaped like the class's (``f-`` + 16 hex + ``-`` + 24 hex), signed by no one."""
    return f"f-{secrets.token_hex(8)}-{secrets.token_hex(12)}"


# -- 1 -------------------------------------------------------------------------------
def open_class_page(browser, base: str, xff: str | None, path: str = "/topdown"):
    """A Chromium page of ``path`` that presses *Teach a class*: ``(context, page, code,
    key, seconds from the press to the code or the refusal, refusal)``."""
    headers = {"X-Forwarded-For": xff} if xff else {}
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000}, extra_http_headers=headers)
    page = ctx.new_page()
    page.goto(base + path, timeout=120_000)
    button = page.get_by_role("button", name="Teach a class")
    button.wait_for(timeout=120_000)
    t0 = time.monotonic()
    button.click()
    page.locator(
        ".st-key-class-code, [data-testid=stAlert]:has-text('open classes')"
    ).first.wait_for(timeout=60_000)
    seconds = time.monotonic() - t0
    if page.locator(".st-key-class-code").count():
        code = re.search(r"([A-Z2-9]{6})", page.locator(".st-key-class-code").inner_text()).group(1)
        page.wait_for_function(
            "c => (JSON.parse(sessionStorage.getItem('boostlab-teaching') || 'null') || {})"
            ".code === c",
            arg=code,
            timeout=30_000,
        )
        key = page.evaluate("JSON.parse(sessionStorage.getItem('boostlab-teaching')).key")
        return ctx, page, code, key, seconds, ""
    refusal = page.locator("[data-testid=stAlert]:has-text('open classes')").first.inner_text()
    return ctx, page, None, None, seconds, refusal


def row_classes(t: Target) -> Row:
    n = n_of(t.args, 5, 4)
    base = f"http://127.0.0.1:{t.port}"
    opened, refused, times, ctxs = 0, [], [], []
    try:
        for i in range(n):
            log(f"[1] attacker's Teach a class {i + 1}/{n} (X-Forwarded-For {ATTACKER})")
            ctx, _, code, _, seconds, refusal = open_class_page(t.browser, base, ATTACKER)
            ctxs.append(ctx)
            times.append(seconds)
            opened += code is not None
            if refusal:
                refused.append(refusal)
        other = t.address()
        log(f"[1] a real teacher at {other} presses Teach a class")
        ctx, _, code, _, seconds, refusal = open_class_page(t.browser, base, other)
        ctxs.append(ctx)
    finally:
        for c in ctxs:
            with contextlib.suppress(Exception):
                c.close()
    words = f" (“{refused[0][:90]}…”)" if refused else ""
    return Row(
        f"**{t.name}** · 1. classes from one address: {n} × *Teach a class* in Chromium pages "
        f"posing as {ATTACKER}",
        "3 open classes per address (`BOOSTLAB_MAX_CLASSES_PER_ADDRESS`), 50 per server "
        "(`BOOSTLAB_MAX_CLASSES`)",
        f"{opened} of {n} opened; {len(refused)} refused in words{words}",
        f"a real teacher at another address ({other}): "
        + (
            f"class {code} opened, {sec(seconds, 2)} from the press"
            if code
            else f"REFUSED: {refusal[:80]}"
        ),
    )


# -- 2 -------------------------------------------------------------------------------
async def _made_up(t: Target, n_answers: int, n_streams: int, xff: str) -> dict:
    """First the made-up streams (held while the class is read), then the made-up answers
    with the probe among them; the class is read before, between and after."""
    q = t.state.get("question") or {}
    before = await state_now(t)
    streams = await asyncio.gather(
        *(Stream().open(t.port, t.code, forged_id(), xff) for _ in range(n_streams))
    )
    with_streams = await state_now(t)
    for s in streams:
        s.close()
    progress = [0]

    async def answer(i: int) -> Reply:
        return await post_json(
            t.port,
            f"/api/class/{t.code}/answer",
            {
                "student": forged_id() if i % 5 else f"s-{secrets.token_hex(6)}",
                "question": q.get("id"),
                "choice": i % 4,
            },
            xff,
        )

    during = asyncio.ensure_future(probe_during(t, progress, n_answers // 10))
    replies = await burst(n_answers, 50, answer, progress)
    p = await during
    after = await state_now(t)
    return {
        "replies": replies,
        "streams": streams,
        "before": before,
        "with_streams": with_streams,
        "after": after,
        "probe": p,
    }


def row_made_up(t: Target) -> Row:
    n, m = n_of(t.args, 500, 200), 20
    xff = "203.0.113.67" if t.name == "one process" else "203.0.113.87"
    log(f"[2] {m} streams, then {n} answers, under made-up ids from {xff}")
    out = aio(_made_up(t, n, m, xff), 120)
    replies, streams, p = out["replies"], out["streams"], out["probe"]
    said = Counter(r.said[:60] for r in replies if r.status != 200).most_common(1)
    b, w, a = out["before"], out["with_streams"], out["after"]
    forged = a.get("answers", 0) - b.get("answers", 0) - int(p.counted)
    return Row(
        f"**{t.name}** · 2. made-up ids: {m} event streams, then {n} answers, under ids the "
        "class did not give (forged `f-…` and old-style `s-…`)",
        "an id counts only if the class gave it (`POST …/join`, signed) and, for an answer, "
        "only while it holds an open stream",
        f"streams: {counts(s.status for s in streams)} (the class's students "
        f"{b.get('students')} → {w.get('students')} while they were tried); answers: "
        f"{counts(r.status for r in replies)}"
        + (f" (“{said[0][0]}…”)" if said else "")
        + f"; answers the class counted from them: {forged}",
        f"{p.text()}; the class counts {w.get('students')} students: its real ones",
    )


# -- 3 -------------------------------------------------------------------------------
def row_join_flood(t: Target) -> Row:
    n = n_of(t.args, 700, 650)
    xff = "203.0.113.68"
    log(f"[3] {n} joins from {xff}")

    async def go():
        progress = [0]
        during = asyncio.ensure_future(probe_during(t, progress, n // 2))
        t0 = time.monotonic()
        replies = await burst(
            n, 50, lambda i: post_json(t.port, f"/api/class/{t.code}/join", {}, xff), progress
        )
        took = time.monotonic() - t0
        same = await post_json(t.port, f"/api/class/{t.code}/join", {}, xff)
        return replies, took, same, await during

    replies, took, same, p = aio(go(), 120)
    given = sum(r.status == 200 for r in replies)
    return Row(
        f"**{t.name}** · 3. join flood: {n} joins from one address ({xff})",
        "600 ids per address per class (`BOOSTLAB_MAX_JOINS_PER_ADDRESS`), 2,000 per class "
        "(`BOOSTLAB_MAX_JOINS_PER_CLASS`)",
        f"{given} ids given, {counts(r.status for r in replies if r.status != 200)} refused, "
        f"in {sec(took)}; one more from that address: {same.status}",
        p.text() + " (a new student behind the attacker's own address is refused too: the budget "
        "is the address's)",
    )


# -- 4 -------------------------------------------------------------------------------
def row_ghosts(t: Target) -> Row:
    n = n_of(t.args, 500, 200)
    xff = "203.0.113.69" if t.name == "one process" else "203.0.113.89"
    log(f"[4] {n} joins from {xff}, then {n} streams with the code in lower case, dropped at once")

    async def go():
        ids = [
            r.json().get("student", "")
            for r in await burst(
                n, 50, lambda i: post_json(t.port, f"/api/class/{t.code}/join", {}, xff)
            )
        ]
        ids = [i for i in ids if i]
        real = sum(f.following for f in t.followers)
        log(f"[4] first the class counts its {real} real followers (≤ 15 s)")
        settled = await until(lambda: t.state.get("students") == real, 15)
        if settled != settled:
            log(f"[4] it counts {t.state.get('students')}, not {real}; the burst starts anyway")
        peak = [real]

        async def watch():
            while True:
                peak[0] = max(peak[0], t.state.get("students", 0))
                await asyncio.sleep(0.01)

        w = asyncio.ensure_future(watch())
        t0 = time.monotonic()
        streams = await burst(
            len(ids),
            50,
            lambda i: Stream().open(
                t.port, t.code.lower(), ids[i], xff, drop="at once" if i % 2 == 0 else "after head"
            ),
        )
        burst_s = time.monotonic() - t0
        log(f"[4] waiting until the class counts its {real} real students again (at most 20 s)")
        back = await until(lambda: t.state.get("students") == real, 20)
        left = t.state.get("students")
        w.cancel()
        p = await probe(t, page=False)
        lags = {"": await leave_lag(t, t.port)}
        if "hall" in t.extra:
            lags[" (straight to app1, not through HAProxy)"] = await leave_lag(
                t, t.extra["hall"].piece("app1").port
            )
        return ids, streams, real, peak[0], burst_s, back, left, p, lags

    ids, streams, real, peak, burst_s, back, left, p, lags = aio(go(), 240)
    lag_text = "; ".join(
        f"5 real students close their streams{how}: counted out after {sec(lag, 2)}"
        if lag == lag
        else f"5 real students close their streams{how}: NOT all counted out within "
        f"{LEAVE_WAIT_HALL:.0f} s"
        for how, lag in lags.items()
    )
    after = [s.status for s in streams if s.status]
    return Row(
        f"**{t.name}** · 4. ghost followers: {len(ids)} admitted ids open a stream with the "
        "code in lower case and drop it (half at once, half after the reply's head)",
        "a stream that closes is counted out (even before its first byte); 500 students per "
        "class (`BOOSTLAB_MAX_STUDENTS`)",
        f"{len(ids)} ids, streams in {sec(burst_s)}: {counts(after)} (the rest dropped before "
        f"the reply); the class's count peaked at {peak} students",
        f"back to its {real} real students "
        + (f"{sec(back, 2)} after the burst" if back == back else f"NOT within 20 s (still {left})")
        + f"; {lag_text}; {p.text()}",
    )


# -- 5 -------------------------------------------------------------------------------
def row_stream_flood(t: Target) -> Row:
    n = n_of(t.args, 1000, 700)
    xff = "203.0.113.71"
    pid = t.pids()[0]
    limit = open_files_limit(pid)
    log(f"[5] {n} streams from {xff}")

    async def go():
        rss0 = rss(pid)
        t0 = time.monotonic()
        streams = await burst(
            n, 100, lambda i: Stream().open(t.port, t.code, None, xff, timeout=20)
        )
        took = time.monotonic() - t0
        held = [s for s in streams if s.status == 200]
        log(f"[5] {len(held)} held; probing while they are held")
        rss1 = rss(pid)
        p = await probe(t)
        extra = await Stream().open(t.port, t.code, None, xff)
        extra.close()
        for s in held:
            s.close()
        log("[5] streams closed; waiting until the address may open one again (at most 15 s)")
        ok = [False]

        async def try_again():
            s = await Stream().open(t.port, t.code, None, xff)
            s.close()
            return s.status == 200

        t1 = time.monotonic()
        while time.monotonic() - t1 < 15 and not ok[0]:
            ok[0] = await try_again()
            if not ok[0]:
                await asyncio.sleep(0.1)
        freed = time.monotonic() - t1 if ok[0] else float("nan")
        return streams, took, p, rss0, rss1, extra.status, freed

    streams, took, p, rss0, rss1, extra, freed = aio(go(), 240)
    refused = [s for s in streams if s.status != 200]
    said = Counter(s.error[:50] for s in refused if s.error).most_common(1)
    total = f"{limit - 200:,}" if limit else "?"
    return Row(
        f"**{t.name}** · 5. stream flood: {n} event streams from one address ({xff})",
        f"600 streams per address (`BOOSTLAB_MAX_STREAMS_PER_ADDRESS`); per process the "
        f"open-file limit − 200 ({total} here, limit {limit})",
        f"{counts(s.status for s in streams)} in {sec(took)}"
        + (f" (“{said[0][0]}…”)" if said else "")
        + f"; one more: {extra}; once closed, the address may open one again after {sec(freed, 2)}",
        f"while {sum(s.status == 200 for s in streams)} are held: {p.text()}; server RSS "
        f"{rss0:.0f} → {rss1:.0f} MiB",
    )


# -- 5b ------------------------------------------------------------------------------
def row_fill(t: Target) -> Row:
    """One address takes ids (``…/join``) and holds a stream for each: within its budgets
    (600 ids, 600 streams), more than a class's 500 seats."""
    import server.store as cs

    xff = "203.0.113.75"
    n = seats = cs.limits_from_env().students  # the server's, from the same environment
    log(f"[5b] {n} joins from {xff}, then a stream held for each id")

    async def go():
        joins = await burst(
            n, 50, lambda i: post_json(t.port, f"/api/class/{t.code}/join", {}, xff)
        )
        ids = [r.json().get("student", "") for r in joins if r.status == 200]
        t0 = time.monotonic()
        streams = await burst(len(ids), 50, lambda i: Stream().open(t.port, t.code, ids[i], xff))
        took = time.monotonic() - t0
        full = await until(lambda: t.state.get("students", 0) >= seats, 5)
        count = t.state.get("students", 0)
        log(f"[5b] the class counts {count}; probing")
        p = await probe(t)
        for s in streams:
            s.close()
        back = await until(lambda: t.state.get("students", 0) < count - len(ids) // 2, 15)
        return joins, streams, took, count, full, p, back

    joins, streams, took, count, full, p, back = aio(go(), 180)
    held = sum(s.status == 200 for s in streams)
    said = Counter(s.error[:40] for s in streams if s.status != 200 and s.error).most_common(1)
    return Row(
        f"**{t.name}** · 5b. the class filled from one address ({xff}): {n} ids joined, "
        "a stream held for each",
        "500 students per class (`BOOSTLAB_MAX_STUDENTS`); 600 ids and 600 streams per address "
        "(a class behind one school address fits)",
        f"{sum(r.status == 200 for r in joins)} ids; {held} streams held, "
        f"{counts(s.status for s in streams if s.status != 200) or 'none refused'}"
        + (f" (“{said[0][0]}…”)" if said else "")
        + f", in {sec(took)}; the class counts {count} students",
        f"{p.text()}; once the attacker closed them, the count fell "
        + (f"after {sec(back, 2)}" if back == back else "NOT within 15 s"),
    )


# -- 6 -------------------------------------------------------------------------------
def row_slow(t: Target) -> Row:
    n_heads, n_bodies = n_of(t.args, 200, 100), 50
    window = n_of(t.args, 30.0, 14.0)
    xff = "203.0.113.72"
    log(
        f"[6] {n_heads} connections trickle headers (1 byte / 3 s), {n_bodies} bodies "
        f"(1 byte / 2 s), for {window:.0f} s"
    )

    async def go():
        heads = [dict() for _ in range(n_heads)]
        bodies = [dict() for _ in range(n_bodies)]
        tasks = [asyncio.ensure_future(slow_headers(t.port, 3.0, window, o)) for o in heads]
        tasks += [
            asyncio.ensure_future(slow_body(t.port, t.code, 2.0, window, xff, o)) for o in bodies
        ]
        t0 = time.monotonic()
        log("[6] probing while they trickle (after 5 s)")
        await until(lambda: time.monotonic() - t0 > 5, 6, poll=0.1)
        p = await probe(t)
        held_mid = sum("closed" not in o for o in heads)
        await asyncio.gather(*tasks)
        return heads, bodies, p, held_mid

    heads, bodies, p, held_mid = aio(go(), window + 90)
    cut = [
        o["closed"] for o in heads if "closed" in o and "status" not in o and o["closed"] < window
    ]
    answered = [o for o in heads if "status" in o]
    answered_s = [o["closed"] for o in answered]
    body_s = [o["closed"] for o in bodies if o.get("status")]
    held = n_heads - len(cut) - len(answered)
    head_text = (
        f"headers: {held} of {n_heads} still held after {window:.0f} s"
        + (
            f", {len(cut)} cut by the server (after {sec(min(cut), 2)}–{sec(max(cut), 2)})"
            if cut
            else ""
        )
        + (
            f", {len(answered)} answered ({counts(o['status'] for o in answered)} after "
            f"{sec(min(answered_s), 2)}–{sec(max(answered_s), 2)})"
            if answered
            else ""
        )
    )
    body_text = f"bodies: {counts(o.get('status', 0) for o in bodies)}" + (
        f" after {sec(min(body_s), 2)}–{sec(max(body_s), 2)}" if body_s else ""
    )
    c = server_constants()
    heads_budget = (
        f"a request's head {c['HEAD_SECONDS']:g} s (`server/deadline.py`)"
        if c.get("HEAD_SECONDS")
        else "a request's head: no deadline of the app's"
    )
    return Row(
        f"**{t.name}** · 6. slow clients: {n_heads} connections sending a request's headers "
        f"1 byte / 3 s, {n_bodies} POST bodies 1 byte / 2 s (times from the connection)",
        f"a POST body has {c['BODY_SECONDS']:g} s to arrive (408); {heads_budget}",
        f"{head_text}; {body_text}",
        f"after 5 s, with {held_mid} header connections open: {p.text()}",
    )


# -- 7 -------------------------------------------------------------------------------
ROUTES = ("answer", "join", "round", "show", "ask", "reveal", "split")


def row_nested(t: Target) -> Row:
    n = n_of(t.args, 1000, 300) if t.name == "one process" else n_of(t.args, 300, 100)
    xff = "203.0.113.73" if t.name == "one process" else "203.0.113.93"
    body = b"[" * 4096
    log(f"[7] {n} POSTs of 4 KB of '[' to the 7 POST routes from {xff}")

    async def go():
        log0 = t.log_bytes()
        progress = [0]
        during = asyncio.ensure_future(probe_during(t, progress, n // 3))
        t0 = time.monotonic()
        replies = await burst(
            n,
            50,
            lambda i: request(
                t.port,
                "POST",
                f"/api/class/{t.code}/{ROUTES[i % len(ROUTES)]}",
                body,
                {"Content-Type": "application/json", "X-Forwarded-For": xff},
            ),
            progress,
        )
        took = time.monotonic() - t0
        surrogate = await request(
            t.port,
            "POST",
            f"/api/class/{t.code}/answer",
            b'{"student": "f-0000000000000000-000000000000000000000000", '
            b'"question": "\\ud800", "choice": 0}',
            {"Content-Type": "application/json", "X-Forwarded-For": xff},
        )
        p = await during
        # the log has what it will get once it stops growing (polled, at most 5 s)
        last, still = t.log_bytes(), time.monotonic()
        while time.monotonic() - still < 0.5 and time.monotonic() - t0 < took + 5:
            await asyncio.sleep(0.1)
            now = t.log_bytes()
            if now != last:
                last, still = now, time.monotonic()
        return replies, took, surrogate, p, last - log0

    replies, took, surrogate, p, grown = aio(go(), 180)
    c = server_constants()
    said = Counter(r.said[:50] for r in replies).most_common(1)
    return Row(
        f"**{t.name}** · 7. {n} POSTs of 4 KB of nested `[` (all 7 POST routes), and one "
        'lone surrogate `"\\ud800"` as a question id',
        f"{c['MAX_BODY']:,} bytes per body (413), nesting ≤ {c['MAX_DEPTH']} (400), text must "
        "be Unicode (400); "
        "no traceback for a client's error",
        f"{counts(r.status for r in replies)} in {sec(took)}"
        + (f" (“{said[0][0]}”)" if said else "")
        + f"; the surrogate: {surrogate.status} (“{surrogate.said[:50]}”); the server's log "
        f"grew {grown:,} bytes",
        p.text(),
    )


# -- 8 -------------------------------------------------------------------------------
def row_big(t: Target) -> Row:
    size = 128 << 20
    xff = "203.0.113.74"
    pids = t.pids()
    log("[8] four 128 MB bodies at once, declared (Content-Length), then four chunked")

    async def go():
        m0 = [proc_status(p) for p in pids]
        path = f"/api/class/{t.code}/answer"
        declared = await asyncio.gather(
            *(big_body(t.port, path, size, False, xff) for _ in range(4))
        )
        m1 = [proc_status(p) for p in pids]
        chunked = await asyncio.gather(*(big_body(t.port, path, size, True, xff) for _ in range(4)))
        m2 = [proc_status(p) for p in pids]
        p = await probe(t)
        return declared, chunked, m0, m1, m2, p

    declared, chunked, m0, m1, m2, p = aio(go(), 240)

    def one(kind: str, outs: list[dict]) -> str:
        sent = [o["sent"] for o in outs]
        got = [o["status"] or f"connection {o['error']}" for o in outs]
        return (
            f"{kind}: {counts(got)} within {sec(max(o['seconds'] for o in outs), 2)}, "
            f"{max(sent) / 2**20:.0f} MiB at most sent by then"
        )

    mem = lambda m, k: " + ".join(f"{x.get(k, float('nan')):.0f}" for x in m)  # noqa: E731
    return Row(
        f"**{t.name}** · 8. four 128 MB POST bodies at once, twice: with Content-Length, "
        "then chunked (no length)",
        f"{server_constants()['MAX_BODY']:,} bytes per body, refused while it is read (413)",
        f"{one('declared', declared)}; {one('chunked', chunked)}",
        f"server RSS {mem(m0, 'VmRSS')} → {mem(m1, 'VmRSS')} → {mem(m2, 'VmRSS')} MiB (peak "
        f"since start {mem(m0, 'VmHWM')} → {mem(m2, 'VmHWM')} MiB); {p.text()}",
    )


# -- 9 -------------------------------------------------------------------------------
def row_wrong_codes(t: Target) -> Row:
    n = 100
    log(f"[9] a follower at the school address {SCHOOL}, then {n} wrong codes from it")

    async def go():
        member = await Follower(t.port, t.code, SCHOOL).start()
        statuses = []
        for i in range(n):
            code = wrong_code()
            if i % 2:
                r = await post_json(t.port, f"/api/class/{code}/join", {}, SCHOOL)
            else:
                r = await request(
                    t.port, "GET", f"/api/class/{code}/events", headers={"X-Forwarded-For": SCHOOL}
                )
            statuses.append(r.status)
        first_429 = next((i + 1 for i, s in enumerate(statuses) if s == 429), None)
        q = t.state.get("question") or {}
        a = await post_json(
            t.port,
            f"/api/class/{t.code}/answer",
            {"student": member.id, "question": q.get("id"), "choice": 2},
            SCHOOL,
        )
        second = await Stream().open(t.port, t.code, member.id, SCHOOL)
        second.close()
        to = 1 if t.state.get("round") != 1 else 2
        step = await post_json(
            t.port, f"/api/class/{t.code}/round", {"key": t.key, "round": to}, SCHOOL
        )
        newcomer = await post_json(t.port, f"/api/class/{t.code}/join", {}, SCHOOL)
        p = await probe(t)
        member.close()
        return member, statuses, first_429, a, second, step, newcomer, p

    member, statuses, first_429, a, second, step, newcomer, p = aio(go(), 180)
    return Row(
        f"**{t.name}** · 9. {n} wrong class codes from a school's address ({SCHOOL}; the "
        "events and join routes, alternately)",
        "30 wrong codes a minute per address (then 429; per process), the class's followers "
        "and its teacher let through",
        f"{counts(statuses)}: the first 429 at try {first_429}",
        f"at the school's address: a follower (stream open before) answers {a.status}, opens a "
        f"second stream {second.status}, the teacher steps {step.status}; a new student there "
        f"joins {newcomer.status} (“{newcomer.said[:50]}”); elsewhere: {p.text()}",
    )


# -- 11 ------------------------------------------------------------------------------
def row_headers(t: Target) -> Row:
    log("[11] security headers on pages and routes")

    async def go():
        xff = t.address()
        out = {
            "page /topdown": await request(t.port, "GET", "/topdown"),
            "/_stcore/health": await request(t.port, "GET", "/_stcore/health"),
            "POST …/join": await post_json(t.port, f"/api/class/{t.code}/join", {}, xff),
            "a 404 (no such class)": await request(
                t.port, "GET", "/api/class/ZZZZZZ/events", headers={"X-Forwarded-For": xff}
            ),
        }
        s = await Stream().open(t.port, t.code, None, xff, drop="after head")
        out["GET …/events"] = Reply(s.status, s.opened, s.headers)
        return out

    got = aio(go(), 60)
    parts, missing = [], []
    for name, r in got.items():
        have = [h for h in SECURITY if h in r.headers]
        parts.append(f"{name} ({r.status}): {len(have)}/4")
        missing += [f"{name} lacks {h}" for h in SECURITY if h not in r.headers]
    sample = got["page /topdown"].headers
    return Row(
        f"**{t.name}** · 11. security headers on a page and on the routes",
        "every response: `Referrer-Policy: no-referrer`, `Content-Security-Policy: "
        "frame-ancestors 'self'`, `X-Frame-Options: SAMEORIGIN`, `X-Content-Type-Options: nosniff`",
        "—",
        "; ".join(parts)
        + (f"; MISSING: {', '.join(missing)}" if missing else "")
        + f" (page: `{sample.get('content-security-policy', '')}`, "
        f"`{sample.get('referrer-policy', '')}`)",
    )
