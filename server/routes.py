"""The class's HTTP routes, added to Streamlit's server with ``st.App(..., routes=ROUTES)``
(``serve.py``): a follower's stream of the class's state and the few POSTs a page sends.

=========================================  ==============================================
``POST /api/class/{code}/join``            ``{}``: a follower's id, ``{"student": ID}``
                                           (:mod:`server.admission`)
``GET  /api/class/{code}/events``          server-sent events: the class's state now, then
                                           each change (``?student=ID`` counts a follower)
``POST /api/class/{code}/round``           the teacher's step: ``{"key", "round"}``
``POST /api/class/{code}/alive``           the teacher's page is open: ``{"key"}``
``POST /api/class/{code}/end``             the teacher ends the class: ``{"key"}``
``POST /api/class/{code}/show``            the teacher's page and address: ``{"key", "page",
                                           "query"}``
``POST /api/class/{code}/ask``             the teacher's quiz: ``{"key", "question", "choices"}``
``POST /api/class/{code}/reveal``          the teacher reveals: ``{"key", "question", "correct"}``
``POST /api/class/{code}/answer``          ``{"student", "question", "choice"}``
``POST /api/class/{code}/split``           ``{"student", "split": {...}}``
=========================================  ==============================================

A step reaches followers as one small event on a stream each already holds open: no
Streamlit script runs per follower per step (issue 28, "push, don't rerun"). Server-sent
events rather than a websocket: the browser's ``EventSource`` reconnects by itself when a
phone wakes up or the network drops, and a reconnect starts with the state now, so a late or
sleepy follower lands on the current round.

Every refusal is JSON ``{"error": sentence}`` with the store's status (400 bad input, 403 not
the teacher, 404 no such class, 429 a limit); a client that keeps trying wrong codes is
slowed down (:class:`~server.store.Throttle`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Mapping
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

import server.store as cs

_LOG = logging.getLogger("boostlab.server")

#: Seconds between keep-alive comments on an idle stream. Proxies drop silent connections
#: (HAProxy's ``timeout tunnel`` is set well above it, issue 29), and behind HAProxy a
#: follower who closed the page is heard of only when a write fails: HAProxy keeps a
#: half-closed client's response going (HTTP lets a client close only its side) and gives up
#: at the second write after the close (the first draws the client's reset). At 15 s a leave
#: reached the count 8-12 s late (issue 40, item 3), at 5 s 7-10 s; at 2.5 s within 5 s, for
#: a comment of 15 bytes per follower every 2.5 s.
KEEPALIVE = 2.5
#: The answers' letters (the quiz's choices are A-D).
LETTERS = ("A", "B", "C", "D")
#: Largest POST body accepted (bytes).
MAX_BODY = 4096
#: Seconds a POST body has to arrive whole (a page's is sent at once: under a millisecond).
BODY_SECONDS = 10.0
#: Deepest nesting of lists and objects in a POST body: /show's query (an object holding a
#: list of pairs) is 3.
MAX_DEPTH = 4
#: Wrong codes are slowed down per client address.
THROTTLE = cs.THROTTLE  # the pages' too (ui/classroom/teach.py)
#: Peers whose ``X-Forwarded-For`` is believed (:data:`server.store.TRUSTED_PROXIES`).
TRUSTED_PROXIES = cs.TRUSTED_PROXIES


def _client(request: Request) -> str:
    """Who asks, for the throttle: the address the trusted proxy in front saw (the last entry
    of ``X-Forwarded-For``, the one it added), else the peer's."""
    peer = request.client.host if request.client else "?"
    return cs.client_address(peer, request.headers.get("x-forwarded-for", ""), TRUSTED_PROXIES)


def _member(request: Request) -> str:
    """The address a follower's id is counted against (``Limits.joins_per_address``): the
    client's, or "" for this machine itself (its own browsers, tests and benchmarks), as
    for the classes a teacher opens."""
    address = _client(request)
    return "" if address in TRUSTED_PROXIES else address


async def _admitted(code: str, student: Any) -> str:
    """``student`` when the class gave it (:meth:`~server.store.ClassStore.admit`),
    else :class:`~server.store.NotAdmitted`."""
    student = cs.check_student(student)
    if not await cs.STORE.admitted(code, student):
        raise cs.NotAdmitted(cs.not_admitted(cs.normal_code(code)))
    return student


async def _refused(error: cs.ClassError, request: Request, code: str) -> JSONResponse:
    """The refusal as JSON. A code the store has never heard of counts as a wrong guess (the
    throttle); a class that has ended does not (its pages may still be asking)."""
    if isinstance(error, cs.NoSuchClass):
        try:
            await cs.STORE.state(code)
        except cs.ClassError:
            await THROTTLE.miss_async(_client(request))
    return JSONResponse({"error": str(error)}, status_code=error.status)


async def _throttled(
    request: Request, code: str | None = None, body: Mapping[str, Any] | None = None
) -> JSONResponse | None:
    """The refusal for a client that has tried too many wrong codes, or None. The class's
    own members are never held back by it: a follower whose stream is open, or the teacher
    (a guesser knows neither), so that wrong codes typed behind one school address do not
    lock out the class that shares it (30 misses did, for 60 s, issue 40, item 8)."""
    wait = await THROTTLE.blocked_async(_client(request))
    if wait <= 0:
        return None
    body = body or {}
    student = body.get("student", request.query_params.get("student"))
    with contextlib.suppress(cs.ClassError, TypeError):
        if (
            code
            and isinstance(body.get("key"), str)
            and await cs.STORE.is_teacher(code, body["key"])
        ):
            return None
        if code and isinstance(student, str) and await cs.STORE.following(code, student):
            return None
    return JSONResponse(
        {"error": f"Too many wrong class codes from this device: try again in {wait:.0f} s."},
        status_code=429,
        headers={"Retry-After": str(int(wait) + 1)},
    )


class TooLarge(cs.ClassError):
    """A body over :data:`MAX_BODY` bytes (refused while it is read, not after)."""

    status = 413


class TooSlow(cs.ClassError):
    """A body that has not arrived whole within :data:`BODY_SECONDS` (a script trickling a
    byte every 10 s held a connection for ever; issue 40, item 5)."""

    status = 408


class NotJSON(cs.ClassError):
    """A POST whose Content-Type is not JSON: a page of another site can send a form or
    text without asking (no CORS preflight), never ``application/json`` (issue 40, item 10)."""

    status = 415


class OtherSite(cs.ClassError):
    """A POST that a page of another origin sent (its ``Origin`` is not this server's)."""

    status = 403


def _same_origin(request: Request) -> bool:
    """Whether the request's ``Origin`` (when a browser sent one) is the address it was sent
    to: a class's page posts to its own server, through the hall's proxy too (the ``Host``
    the browser used is kept)."""
    origin = request.headers.get("origin")
    if origin is None:
        return True  # not a browser's cross-site request (a script, a same-origin GET)
    hosts = {request.headers.get("host", "").lower()}
    peer = request.client.host if request.client else "?"
    if peer in TRUSTED_PROXIES:  # a reverse proxy that rewrote Host says what it was
        hosts |= {h.strip().lower() for h in request.headers.get("x-forwarded-host", "").split(",")}
    return origin.split("://", 1)[-1].rstrip("/").lower() in hosts - {""}


def _depth(x: Any) -> int:
    """How deeply ``x`` nests lists and objects (a number or a text: 0), without recursion."""
    deepest, todo = 0, [(x, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d)
            todo.extend((w, d + 1) for w in v)
    return deepest


def _texts(x: Any) -> list[str]:
    """Every text in ``x`` (keys and values), without recursion."""
    out, todo = [], [x]
    while todo:
        v = todo.pop()
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            out.extend(k for k in v if isinstance(k, str))
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
    return out


async def _body(request: Request) -> dict[str, Any]:
    """The POST's JSON object, bounded before it is trusted: a JSON Content-Type from this
    server's own origin, at most :data:`MAX_BODY` bytes (refused as they arrive: four 128-MB
    bodies took a process from 458 to 1,161 MiB when the size was checked after reading),
    at most :data:`MAX_DEPTH` levels of nesting (4 KB of ``[`` was a RecursionError and a
    traceback in the log), and text that is Unicode (a lone surrogate broke the Redis store)."""
    if not _same_origin(request):
        raise OtherSite("This class accepts requests from its own pages only.")
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise NotJSON(
            f"The request must be JSON (Content-Type application/json); got {kind[:40]!r}."
        )
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise TooLarge(f"The request is larger than {MAX_BODY} bytes.")
    raw = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_BODY:
                    raise TooLarge(f"The request is larger than {MAX_BODY} bytes.")
    except TimeoutError:
        raise TooSlow(f"The request's body did not arrive within {BODY_SECONDS:g} s.") from None
    try:
        body = json.loads(bytes(raw) or b"{}")
    except RecursionError:
        raise cs.ClassError(f"The request nests deeper than {MAX_DEPTH} levels.") from None
    except ValueError as e:  # not JSON, not UTF-8, a number too long to read
        raise cs.ClassError(f"The request is not JSON: {str(e)[:120]}") from None
    if not isinstance(body, dict):
        raise cs.ClassError("The request must be a JSON object.")
    if _depth(body) > MAX_DEPTH:
        raise cs.ClassError(f"The request nests deeper than {MAX_DEPTH} levels.")
    for text in _texts(body):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise cs.ClassError("The request holds text that is not Unicode.") from None
    return body


def _event(state: cs.ClassState) -> bytes:
    return f"id: {state.seq}\ndata: {json.dumps(state.public())}\n\n".encode()


class Streams:
    """The follower streams this process holds, per client address and in all, against
    their budgets (issue 40, items 2-4: 20 made-up streams raised "following" by 20, 500
    filled a class, and ~1,000 from one address used up the process's 1,024 open files, so
    that its health check and page loads timed out).

    Parameters
    ----------
    per_address : int
        Streams one address may hold at once: a whole class behind one school address fits
        (a class has at most ``Limits.students`` = 500 followers).
    total : int
        Streams the process holds at most: its open-file limit less a reserve for the page
        loads, the health check and Redis (:func:`stream_budget`).
    """

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address, self.total = per_address, total
        self.by_address: dict[str, int] = {}
        self.open = 0

    def take(self, address: str) -> str | None:
        """One more stream for ``address``, or the refusal's sentence."""
        if self.open >= self.total:
            return (
                f"This server holds {self.open} class connections, all it can keep open: "
                "try again in a minute."
            )
        if self.by_address.get(address, 0) >= self.per_address:
            return (
                f"This network address already holds {self.per_address} class connections "
                "(BOOSTLAB_MAX_STREAMS_PER_ADDRESS): close some tabs, then try again."
            )
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.open += 1
        return None

    def refuse(self, address: str) -> str | None:
        """:meth:`take`, and a refusal said in the server's log (rate-limited, ``logs``)."""
        refused = self.take(address)
        if refused is not None:
            _LOG.warning("A class stream from %s was refused: %s", address, refused)
        return refused

    def give_back(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)
        self.open = max(self.open - 1, 0)


def stream_budget(env: Mapping[str, str] | None = None) -> Streams:
    """The stream budgets: ``BOOSTLAB_MAX_STREAMS_PER_ADDRESS`` (default 600: a class of
    500 behind one address, with second tabs), and in all the soft open-file limit (raised to
    the hard one first, where the system allows) less 200 for everything else."""
    import resource

    env = os.environ if env is None else env
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        want = 65_536 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
    raw = env.get("BOOSTLAB_MAX_STREAMS_PER_ADDRESS", "").strip() or "600"
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"BOOSTLAB_MAX_STREAMS_PER_ADDRESS must be an integer ≥ 1; got {raw!r}")
    return Streams(int(raw), max(soft - 200, 16))


#: This process's follower streams (the server's start sets the budgets from the
#: environment: :func:`lifespan`).
STREAMS = Streams(per_address=600, total=800)


async def events(request: Request) -> Response:
    """A follower's stream (``text/event-stream``) of the class's public state; with
    ``&check=1`` only whether it would be served (204, no stream, nobody counted: a page
    asks so when its stream closed)."""
    store = cs.STORE
    code = request.path_params["code"]
    student = request.query_params.get("student")
    if (refused := await _throttled(request, code)) is not None:
        return refused
    address, streams = _client(request), STREAMS
    if (full := streams.refuse(address)) is not None:
        return JSONResponse({"error": full}, status_code=429, headers={"Retry-After": "30"})
    try:
        first = await store.state(code)
        if student and not first.ended:
            await _admitted(code, student)  # a made-up id neither follows nor counts
            if request.query_params.get("check"):
                # a page asking why its stream closed: the class and its id are fine
                streams.give_back(address)
                return Response(status_code=204, headers={"Cache-Control": "no-store"})
            await store.join(code, student)
    except cs.ClassError as e:
        streams.give_back(address)
        return await _refused(e, request, code)

    async def stream():
        states = store.watch(code)
        try:
            nxt = asyncio.ensure_future(anext(states))
            while True:
                done, _ = await asyncio.wait({nxt}, timeout=KEEPALIVE)
                if not done:
                    yield b": keep-alive\n\n"
                    continue
                try:
                    state = nxt.result()
                except (StopAsyncIteration, cs.ClassError):
                    # the end, or the class is gone (Redis lost it, or does not answer):
                    # the page reconnects and hears why (404 or 503, a sentence)
                    return
                yield _event(state)
                if state.ended:
                    return
                nxt = asyncio.ensure_future(anext(states))
        finally:
            # the follower left (or the class ended): the pending wait is cancelled and
            # awaited before the generator is closed (closing a generator that is still
            # waiting raises)
            if not nxt.done():
                nxt.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                await nxt
            with contextlib.suppress(cs.ClassError):
                await states.aclose()

    async def left() -> None:
        streams.give_back(address)
        if student:
            with contextlib.suppress(cs.ClassError):
                await store.leave(code, student)

    return _Following(
        stream(),
        left,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


class _Following(StreamingResponse):
    """A follower's stream that tells the store when the follower has gone, however the
    response ends.

    A stream whose connection closed before its first byte never ran its generator, so a
    leave put in the generator's ``finally`` never came (6-32 % of streams opened and closed
    at once stayed counted on the Redis store; issue 40, item 3). Here the leave runs after
    the response, shielded from the cancellation that ends it; the connection's end is
    awaited beside the stream, as Starlette does under uvicorn (ASGI 2.3), and also under a
    server speaking ASGI 2.4, where Starlette would hear of it only at its next write (the
    keep-alive, up to :data:`KEEPALIVE` s later).
    """

    def __init__(self, content: Any, on_close: Any, **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._on_close = on_close

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            async with anyio.create_task_group() as group:

                async def respond() -> None:
                    with contextlib.suppress(OSError):  # the client went while it was written
                        await self.stream_response(send)
                    group.cancel_scope.cancel()

                group.start_soon(respond)
                while (await receive())["type"] != "http.disconnect":
                    pass
                group.cancel_scope.cancel()
        finally:
            with anyio.CancelScope(shield=True):
                await self._on_close()


async def _post(request: Request, act) -> Response:
    """A POST route: the throttle, the JSON body, then ``act(code, body)``'s answer (a dict),
    or the refusal as ``{"error": …}``."""
    code = request.path_params["code"]
    try:
        body = await _body(request)
    except cs.ClassError as e:
        return await _refused(e, request, code)
    if (refused := await _throttled(request, code, body)) is not None:
        return refused
    try:
        return JSONResponse(await act(code, body))
    except cs.ClassError as e:
        return await _refused(e, request, request.path_params["code"])


async def step(request: Request) -> Response:
    """The teacher's stepper moved: ``{"key": …, "round": t}``."""

    async def act(code: str, body: dict) -> dict:
        state = await cs.STORE.show(code, body.get("key"), round=body.get("round"))
        return {"seq": state.seq, "round": state.round}

    return await _post(request, act)


async def show(request: Request) -> Response:
    """The teacher's page shows another page or other parameters: ``{"key", "page",
    "query": [[name, value], ...], "round"}`` (what its address bar holds; the browser, not
    the server, writes a changed widget's value there)."""

    async def act(code: str, body: dict) -> dict:
        page, query, t = body.get("page"), body.get("query"), body.get("round")
        if (
            not isinstance(page, str)
            or len(page) > 40
            or not all(c.isalnum() or c in "-_" for c in page)
        ):
            raise cs.ClassError(f"page must be a page's path; got {str(page)[:40]!r}")
        if (
            not isinstance(query, list)
            or len(query) > 60
            or not all(
                isinstance(kv, list)
                and len(kv) == 2
                and all(isinstance(x, str) and len(x) <= 2000 for x in kv)
                for kv in query
            )
        ):
            raise cs.ClassError("query must be a list of at most 60 [name, value] pairs")
        state = await cs.STORE.show(
            code, body.get("key"), page=page, query=tuple(map(tuple, query)), round=t
        )
        return {"seq": state.seq}

    return await _post(request, act)


async def ask(request: Request) -> Response:
    """The teacher's quiz asks the question of the round shown: ``{"key", "question",
    "choices"}`` (its id and its number of answers; ``question`` null closes it)."""

    async def act(code: str, body: dict) -> dict:
        qid, n = body.get("question"), body.get("choices")
        if qid is not None and not (isinstance(qid, str) and 0 < len(qid) <= 200):
            raise cs.ClassError(f"question must be a question's id; got {str(qid)[:40]!r}")
        if qid is not None and not (isinstance(n, int) and 2 <= n <= len(LETTERS)):
            raise cs.ClassError(f"choices must be 2-{len(LETTERS)}; got {n!r}")
        q = None if qid is None else cs.Question(qid, tuple(LETTERS[:n]))
        state = await cs.STORE.ask(code, body.get("key"), q)
        return {"seq": state.seq}

    return await _post(request, act)


async def reveal(request: Request) -> Response:
    """The teacher reveals: ``{"key", "question", "correct"}``; the histogram is published."""

    async def act(code: str, body: dict) -> dict:
        state = await cs.STORE.reveal(
            code, body.get("key"), body.get("correct"), str(body.get("question"))
        )
        return {"histogram": list(state.histogram)}

    return await _post(request, act)


async def alive(request: Request) -> Response:
    """The teacher's page is still open: ``{"key"}`` (every 30 s; a class whose teacher's
    page is gone ends after ``Limits.abandoned_minutes``)."""

    async def act(code: str, body: dict) -> dict:
        await cs.STORE.alive(code, body.get("key"))
        return {"ok": True}

    return await _post(request, act)


async def end(request: Request) -> Response:
    """The teacher ends the class: ``{"key"}`` (a page of this browser that no longer
    teaches it: the classes it opened are kept with their keys, klass.js ``taughtMount``)."""

    async def act(code: str, body: dict) -> dict:
        await cs.STORE.end(code, body.get("key"))
        return {"ended": cs.normal_code(code)}

    return await _post(request, act)


async def join(request: Request) -> Response:
    """A follower's page joins the class: ``{}`` → ``{"student": id}``, the id its stream,
    answers and splits go under (one per browser: the page keeps it)."""

    async def act(code: str, body: dict) -> dict:
        return {"student": await cs.STORE.admit(code, _member(request))}

    return await _post(request, act)


async def answer(request: Request) -> Response:
    """A student's answer to the open question: ``{"student", "question", "choice"}``. The
    same answer sent again is the same answer (the page sends it until it is acknowledged)."""

    async def act(code: str, body: dict) -> dict:
        student = await _admitted(code, body.get("student"))
        state = await cs.STORE.answer(code, student, str(body.get("question")), body.get("choice"))
        return {"answers": state.answers}

    return await _post(request, act)


async def split(request: Request) -> Response:
    """A student's split for the current leaf: ``{"student", "split": {...}}``."""

    async def act(code: str, body: dict) -> dict:
        student = await _admitted(code, body.get("student"))
        if not await cs.STORE.following(code, student):  # a made-up id counts for nothing
            raise cs.NotFollowing(cs.not_following(cs.normal_code(code)))
        state = await cs.STORE.submit(code, student, body.get("split"))
        return {"submissions": state.submissions}

    return await _post(request, act)


#: Headers on every response of the server, the app's pages too (``serve.py``): no address
#: goes out in a Referer (a teacher's link holds the class's key: it travelled in the Referer
#: of 66 requests, issue 40, item 10); no other site may frame the app (a page that framed it
#: could dress a teacher's controls as its own); the browser must not guess content types.
SECURITY_HEADERS = (
    (b"referrer-policy", b"no-referrer"),
    # what Streamlit's pages allow (their scripts and styles are Streamlit's, inline ones too,
    # and its charts build code at run time: no script-src here): no other site frames the
    # app, no plugin objects, no <base> or form that sends the page elsewhere
    (
        b"content-security-policy",
        b"frame-ancestors 'self'; object-src 'none'; base-uri 'self'; form-action 'self'",
    ),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"x-content-type-options", b"nosniff"),
)


class SecurityHeaders:
    """ASGI middleware that adds :data:`SECURITY_HEADERS` to each HTTP response (a header
    the app already set is kept as it is)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def store_from_env(env: Mapping[str, str] | None = None) -> cs.ClassStore:
    """The store the environment asks for: on Redis when ``BOOSTLAB_REDIS_URL`` is set (a
    lecture hall of several processes: ``server/redis_store.py``; the keys under
    ``BOOSTLAB_REDIS_PREFIX``, ``boostlab:`` by default), in this process's memory
    otherwise; the limits from :func:`~server.store.limits_from_env` either way."""
    env = os.environ if env is None else env
    limits = cs.limits_from_env(env)
    url = env.get("BOOSTLAB_REDIS_URL", "").strip()
    if not url:
        return cs.MemoryStore(limits)
    from server.redis_store import RedisStore  # only a hall needs the client

    return RedisStore(url, limits, prefix=env.get("BOOSTLAB_REDIS_PREFIX", "boostlab:"))


@contextlib.asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    """The server's start and stop (``st.App(lifespan=…)`` in serve.py): the class store is
    the one the environment asks for, and a Redis one is closed at the end."""
    global STREAMS
    cs.STORE = store_from_env()
    STREAMS = stream_budget()
    from server import deadline, logs

    deadline.install()  # a request's head has HEAD_SECONDS to arrive
    logs.install()  # one client's flood of warnings does not fill the disk
    _LOG.info(
        "Class streams: at most %d per client address (BOOSTLAB_MAX_STREAMS_PER_ADDRESS) and "
        "%d in all (this process's open-file limit, less 200 for pages and Redis); "
        "a request's headers have %.0f s to arrive, a POST body %.0f s",
        STREAMS.per_address,
        STREAMS.total,
        deadline.HEAD_SECONDS,
        BODY_SECONDS,
    )
    misses = getattr(cs.STORE, "misses", None)  # a hall's processes count wrong codes as one
    if misses is not None:
        cs.THROTTLE.share(misses(cs.THROTTLE.free, cs.THROTTLE.window))
    try:
        yield
    finally:
        cs.THROTTLE.share(None)
        close = getattr(cs.STORE, "close", None)
        if close is not None:
            close()


ROUTES = [
    Route("/api/class/{code}/join", join, methods=["POST"]),
    Route("/api/class/{code}/alive", alive, methods=["POST"]),
    Route("/api/class/{code}/end", end, methods=["POST"]),
    Route("/api/class/{code}/events", events, methods=["GET"]),
    Route("/api/class/{code}/round", step, methods=["POST"]),
    Route("/api/class/{code}/show", show, methods=["POST"]),
    Route("/api/class/{code}/ask", ask, methods=["POST"]),
    Route("/api/class/{code}/reveal", reveal, methods=["POST"]),
    Route("/api/class/{code}/answer", answer, methods=["POST"]),
    Route("/api/class/{code}/split", split, methods=["POST"]),
]
