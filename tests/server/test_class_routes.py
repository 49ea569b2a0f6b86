"""The class's HTTP routes (``server/routes.py``) on Starlette's test client, with a
fresh store per test (in-process, and on a real Redis): what a follower's page and a
teacher's page send, and what anything else trying them gets (issue 28, "only the teacher
drives").

* The event stream starts with the class's state now and names no secret; a student id
  counts a follower once.
* ``/round`` moves the class only with the teacher key; without it: 403, nothing changes.
* A hostile body (not JSON, not an object, too large, wrong types) is a 400 with a sentence,
  and changes nothing; an unknown code is a 404; after ``FREE_MISSES`` wrong codes a client
  waits (429) — behind the hall's proxy, the client is the address it forwards; an ended
  class is not a wrong guess.
* Answers and splits go through the store's validators.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
import uuid

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

import server.routes as routes
import server.store as cs


@pytest.fixture(params=["memory", "redis"])
def client(monkeypatch, request):
    """The routes on a fresh store: in memory, or on the session's real Redis (issue 29)."""
    if request.param == "memory":
        store = cs.MemoryStore()
    else:
        from server.redis_store import RedisStore

        url = request.getfixturevalue("redis_url")
        store = RedisStore(url, prefix=f"routes-{uuid.uuid4().hex}:")
    monkeypatch.setattr(cs, "STORE", store)
    monkeypatch.setattr(routes, "THROTTLE", cs.Throttle(free=cs.FREE_MISSES))
    with TestClient(Starlette(routes=routes.ROUTES)) as c:
        yield c
    if hasattr(store, "close"):
        store.close()


#: What a class's page sends with every POST (ui/classroom/js/transport.js, post).
JSON = {"Content-Type": "application/json"}


def _open_class() -> tuple[str, str]:
    key = cs.new_key()
    return key, cs.run(cs.STORE.open(key, "topdown", {"s": "8"}, 2))


def _id(code: str) -> str:
    """A follower's id as the class gives it (``POST …/join``: ``server/admission.py``)."""
    return cs.run(cs.STORE.admit(code, ""))


def _first_event(client: TestClient, code: str, **params) -> dict:
    """The stream's first event (the state now); the stream is then closed."""
    with client.stream("GET", f"/api/class/{code}/events", params=params) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("data: "):
                return json.loads(line[len("data: ") :])
    raise AssertionError("no event")


def test_the_stream_starts_with_the_state_now_and_no_secret(client) -> None:
    key, code = _open_class()
    state = _first_event(client, code, student=_id(code))
    assert state["code"] == code and state["page"] == "topdown" and state["round"] == 2
    assert state["query"] == [["s", "8"]]
    assert key not in json.dumps(state) and cs.key_hash(key) not in json.dumps(state)


def test_only_the_teacher_key_moves_the_round(client) -> None:
    key, code = _open_class()
    for body in ({"round": 5}, {"round": 5, "key": "x" * 32}, {"round": 5, "key": None}):
        r = client.post(f"/api/class/{code}/round", json=body)
        assert r.status_code == 403 and "Only the teacher" in r.json()["error"]
    assert cs.run(cs.STORE.state(code)).round == 2
    r = client.post(f"/api/class/{code}/round", json={"round": 5, "key": key})
    assert r.status_code == 200 and r.json()["round"] == 5
    assert _first_event(client, code)["round"] == 5


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"<html>", "not JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b"{" + b" " * 5000 + b"}", "larger than 4096 bytes"),
    ],
)
def test_a_hostile_body_is_refused_with_a_sentence(client, body, message) -> None:
    key, code = _open_class()
    r = client.post(f"/api/class/{code}/round", content=body, headers=JSON)
    assert r.status_code == (413 if b" " * 5000 in body else 400), r.text
    assert message in r.json()["error"]
    assert cs.run(cs.STORE.state(code)).round == 2


def test_a_bad_round_from_the_teacher_is_refused(client) -> None:
    key, code = _open_class()
    r = client.post(f"/api/class/{code}/round", json={"round": "7; DROP", "key": key})
    assert r.status_code == 400 and "round must be an integer" in r.json()["error"]


def test_unknown_codes_are_404_then_slowed_down(client) -> None:
    for _ in range(cs.FREE_MISSES):
        r = client.post("/api/class/ZZZZZZ/round", json={"round": 1})
        assert r.status_code == 404 and "No class ZZZZZZ" in r.json()["error"]
    r = client.get("/api/class/ZZZZZZ/events")
    assert r.status_code == 429 and "Too many wrong class codes" in r.json()["error"]
    assert int(r.headers["Retry-After"]) > 0
    r = client.post("/api/class/<script>/round", json={"round": 1})
    assert r.status_code == 429  # the same client, still waiting


def test_an_ended_class_is_not_a_wrong_guess(client) -> None:
    """Pages of an ended class may go on asking (a teacher's tab, a follower): 404 each time,
    but the device is not slowed down as if it were guessing codes."""
    key, code = _open_class()
    cs.run(cs.STORE.end(code, key))
    for _ in range(cs.FREE_MISSES + 5):
        r = client.post(f"/api/class/{code}/round", json={"key": key, "round": 1})
        assert r.status_code == 404
    assert client.get("/api/class/ZZZZZZ/events").status_code == 404  # not 429


def test_behind_the_halls_proxy_each_student_is_throttled_alone(monkeypatch) -> None:
    """Behind HAProxy every request comes from 127.0.0.1: the throttle keys on the address
    the proxy saw (the last X-Forwarded-For entry), so one device guessing codes does not
    block the class; from any other peer the header is ignored."""
    monkeypatch.setattr(cs, "STORE", cs.MemoryStore())
    monkeypatch.setattr(routes, "THROTTLE", cs.Throttle(free=cs.FREE_MISSES))
    app = Starlette(routes=routes.ROUTES)
    with TestClient(app, client=("127.0.0.1", 40000)) as proxy:
        guesser = {"X-Forwarded-For": "10.0.0.7"}
        for _ in range(cs.FREE_MISSES):
            proxy.post("/api/class/ZZZZZZ/round", json={"round": 1}, headers=guesser)
        assert proxy.get("/api/class/ZZZZZZ/events", headers=guesser).status_code == 429
        # a forged first entry does not help the guesser: the proxy's entry is the last
        forged = {"X-Forwarded-For": "1.2.3.4, 10.0.0.7"}
        assert proxy.get("/api/class/ZZZZZZ/events", headers=forged).status_code == 429
        other = {"X-Forwarded-For": "10.0.0.8"}
        assert proxy.get("/api/class/ZZZZZZ/events", headers=other).status_code == 404
    with TestClient(app, client=("192.0.2.9", 40000)) as outsider:
        for _ in range(cs.FREE_MISSES):
            outsider.post("/api/class/ZZZZZZ/round", json={}, headers={"X-Forwarded-For": "x"})
        spoofed = {"X-Forwarded-For": "10.0.0.99"}
        assert outsider.get("/api/class/ZZZZZZ/events", headers=spoofed).status_code == 429


def test_answers_and_splits_through_the_validators(client) -> None:
    key, code = _open_class()
    cs.run(cs.STORE.ask(code, key, cs.Question("q1", ("A", "B", "C", "D"))))
    one, two = _id(code), _id(code)
    # a made-up id casts nothing, an answer nor a split; nor does an id of the class's that
    # follows no stream of it (one address cast 499 of 500 answers and filled every split;
    # issue 40, item 2)
    for who, refusal in (("student-0001", "not given by the class"), (one, "does not follow")):
        for path, body in (
            ("answer", {"student": who, "question": "q1", "choice": 2}),
            ("split", {"student": who, "split": {"feature": 0, "threshold": 0.25}}),
        ):
            r = client.post(f"/api/class/{code}/{path}", json=body)
            assert r.status_code == 403 and refusal in r.json()["error"], r.text
    assert cs.run(cs.STORE.state(code)).answers == 0 and cs.run(cs.STORE.splits(code)) == []
    for who in (one, two):
        cs.run(cs.STORE.join(code, who))  # what the page's stream does
    ok = client.post(
        f"/api/class/{code}/answer",
        json={"student": one, "question": "q1", "choice": 2},
    )
    assert ok.status_code == 200 and ok.json() == {"answers": 1}
    bad = client.post(
        f"/api/class/{code}/answer",
        json={"student": two, "question": "q1", "choice": 9},
    )
    assert bad.status_code == 400 and "choice must be 0-3" in bad.json()["error"]
    split = client.post(
        f"/api/class/{code}/split",
        json={"student": one, "split": {"feature": 0, "threshold": 0.25}},
    )
    assert split.status_code == 200 and split.json() == {"submissions": 1}
    hostile = client.post(
        f"/api/class/{code}/split",
        json={"student": one, "split": {"threshold": [1, 2]}},
    )
    assert hostile.status_code == 400
    assert cs.run(cs.STORE.splits(code)) == [{"feature": 0, "threshold": 0.25}]


def test_the_teachers_quiz_asks_and_reveals(client) -> None:
    key, code = _open_class()
    r = client.post(f"/api/class/{code}/ask", json={"key": key, "question": "q1", "choices": 4})
    assert r.status_code == 200
    assert _first_event(client, code)["question"] == {
        "id": "q1",
        "choices": ["A", "B", "C", "D"],
        "correct": None,
    }
    one = _id(code)
    cs.run(cs.STORE.join(code, one))
    client.post(f"/api/class/{code}/answer", json={"student": one, "question": "q1", "choice": 3})
    # a student cannot ask or reveal; a reveal of another question is refused
    assert (
        client.post(f"/api/class/{code}/reveal", json={"question": "q1", "correct": 3}).status_code
        == 403
    )
    wrong = client.post(
        f"/api/class/{code}/reveal", json={"key": key, "question": "q0", "correct": 3}
    )
    assert wrong.status_code == 400 and "no open question" in wrong.json()["error"]
    done = client.post(
        f"/api/class/{code}/reveal", json={"key": key, "question": "q1", "correct": 3}
    )
    assert done.status_code == 200 and done.json() == {"histogram": [0, 0, 0, 1]}
    state = _first_event(client, code)
    assert state["revealed"] and state["question"]["correct"] == 3
    for bad in ({"question": "q2", "choices": 9}, {"question": ["x"], "choices": 2}):
        r = client.post(f"/api/class/{code}/ask", json={"key": key, **bad})
        assert r.status_code == 400, bad


# ------------------------------------------------------------ bounded requests (issue 40)
def test_a_body_nested_deeply_or_with_a_lone_surrogate_is_a_400_not_a_traceback(
    client, caplog
) -> None:
    """4 KB of nested ``[`` was a RecursionError (500, a 4.5-KB traceback in the log per
    request); a lone surrogate as a question id broke the Redis store (UnicodeEncodeError)."""
    key, code = _open_class()
    deep = b'{"key": ' + b"[" * 2000 + b"]" * 2000 + b"}"
    for path, body in [
        ("round", deep),
        ("answer", deep),
        ("split", b'{"student": "s-1", "split": {"a": [[[[1]]]]}}'),  # 5 levels
        ("ask", b'{"key": "%s", "question": "\\ud800", "choices": 4}' % key.encode()),
        ("answer", b'{"student": "web-0123456789", "question": "\\udfff", "choice": 0}'),
    ]:
        r = client.post(f"/api/class/{code}/{path}", content=body, headers=JSON)
        assert r.status_code == 400, (path, r.status_code, r.text[:200])
        error = r.json()["error"]
        assert "nests deeper than 4 levels" in error or "not Unicode" in error, error
    assert "Traceback" not in caplog.text
    assert cs.run(cs.STORE.state(code)).question is None  # nothing changed


@contextlib.contextmanager
def _uvicorn():
    """The routes on a real uvicorn server on 127.0.0.1 (what serves the app): its port."""
    import threading

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            Starlette(routes=routes.ROUTES), host="127.0.0.1", port=port, log_level="error"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.started, "uvicorn did not start"
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_body_is_refused_while_it_is_read(client) -> None:
    """The limit holds as the bytes arrive, on a real server (uvicorn, which serves the
    app): a chunked body without a length is refused after the first piece past MAX_BODY,
    not read to its end first (four 128-MB bodies took a process from 458 to 1,161 MiB);
    a declared length over the limit is refused before any of it is read."""
    key, code = _open_class()
    with _uvicorn() as port:
        head = (
            f"POST /api/class/{code}/round HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(head.encode())
            sock.settimeout(0.05)
            answer, sent = b"", 0
            for sent in range(1, 1001):  # noqa: B007  (up to 1000 × 1 KB; counted after)
                try:
                    sock.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
                except OSError:
                    break  # the server closed the connection
                try:
                    answer += sock.recv(4096)
                except TimeoutError:
                    continue
                if answer:
                    break
            sock.settimeout(2)
            with contextlib.suppress(OSError):
                while b"larger than" not in answer and (more := sock.recv(4096)):
                    answer += more
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"larger than 4096 bytes" in answer, answer
        assert sent <= 12, f"{sent} KB sent before the refusal"
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(
                (
                    f"POST /api/class/{code}/round HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    "Content-Type: application/json\r\nContent-Length: 134217728\r\n\r\n"
                ).encode()
            )
            assert sock.recv(4096).startswith(b"HTTP/1.1 413")  # no byte of the body sent


def test_only_json_from_the_class_own_pages_is_read(client) -> None:
    """A page of another site can make a student's browser send a form or text (no CORS
    preflight), and it was read as JSON and counted; it can never send JSON without the
    server's consent, nor hide its Origin."""
    key, code = _open_class()
    cs.run(cs.STORE.ask(code, key, cs.Question("q1", ("A", "B", "C", "D"))))
    one = _id(code)
    cs.run(cs.STORE.join(code, one))
    answer = json.dumps({"student": one, "question": "q1", "choice": 0})
    for kind in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {} if kind is None else {"Content-Type": kind}
        r = client.post(f"/api/class/{code}/answer", content=answer, headers=headers)
        assert r.status_code == 415 and "must be JSON" in r.json()["error"], (kind, r.text)
    r = client.post(
        f"/api/class/{code}/answer",
        content=answer,
        headers={**JSON, "Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and "its own pages only" in r.json()["error"]
    assert cs.run(cs.STORE.state(code)).answers == 0
    # the class's own page (same origin as the test client's host) is heard
    r = client.post(
        f"/api/class/{code}/answer", content=answer, headers={**JSON, "Origin": "http://testserver"}
    )
    assert r.status_code == 200 and r.json()["answers"] == 1


def test_a_round_is_an_integer_in_range(client) -> None:
    key, code = _open_class()
    for bad in (10**3900, -1, 1_000_001, 2.5, True, "3"):
        number = json.dumps(bad) if bad != 10**3900 else "9" * 3900
        body = f'{{"key": "{key}", "round": {number}}}'
        r = client.post(f"/api/class/{code}/round", content=body, headers=JSON)
        assert r.status_code == 400, (str(bad)[:20], r.text[:200])
        assert "round must be an integer from 0 to 1000000" in r.json()["error"], r.text[:200]
    assert cs.run(cs.STORE.state(code)).round == 2


# ------------------------------------------------------------------ ghost followers (issue 40)
def _students(code: str) -> int:
    return cs.run(cs.STORE.state(code)).students


def test_a_follower_who_joined_by_a_lower_case_code_leaves(client) -> None:
    """A stream opened with the code in lower case joined the class (the code normalised)
    but left it under the code as typed: 500 such ghosts in 2.2 s filled a class."""
    key, code = _open_class()
    for typed in (code.lower(), f" {code[:3]}-{code[3:].lower()} "):
        _first_event(client, typed, student=_id(code))
    deadline = time.monotonic() + 5
    while _students(code) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _students(code) == 0


def test_a_stream_closed_before_its_first_byte_leaves(client) -> None:
    """The follower's connection gone before the response began (a script that opens and
    drops streams): the join is undone (the leave was in the stream's generator, which such
    a response never ran: 6-32 % of them stayed counted on the Redis store)."""
    key, code = _open_class()
    app = Starlette(routes=routes.ROUTES)
    sent = []
    who = _id(code)

    async def follow_and_go() -> None:
        async def receive():
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message["type"])

        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": f"/api/class/{code}/events",
            "raw_path": f"/api/class/{code}/events".encode(),
            "query_string": f"student={who}".encode(),
            "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
        }
        await app(scope, receive, send)

    for _ in range(20):
        asyncio.run(follow_and_go())
    assert _students(code) == 0, f"{_students(code)} ghosts after 20 dropped streams"


def test_a_follower_who_goes_is_counted_out_at_once(monkeypatch) -> None:
    """On a real server (uvicorn): closing the stream's connection takes the follower off
    the count within a second (the leave now runs after the response, not in its
    generator: it must not wait for the next keep-alive either)."""
    monkeypatch.setattr(cs, "STORE", cs.MemoryStore())
    key, code = _open_class()
    with _uvicorn() as port:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(
            f"GET /api/class/{code}/events?student={_id(code)} HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{port}\r\n\r\n".encode()
        )
        assert b"200 OK" in sock.recv(4096)
        deadline = time.monotonic() + 5
        while _students(code) != 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _students(code) == 1
        sock.close()
        closed = time.monotonic()
        while _students(code) and time.monotonic() - closed < 5:
            time.sleep(0.02)
        took = time.monotonic() - closed
        assert _students(code) == 0 and took < 1.0, f"counted out after {took:.1f} s"


def test_streams_per_address_and_in_all_are_budgeted(client, monkeypatch) -> None:
    """One address holds at most its budget of follower streams (another address still
    gets in, and a closed stream gives its place back), and the process refuses a stream
    past its total before it runs out of open files (~1,000 streams from one address made
    a server unreachable, issue 40, item 4)."""
    monkeypatch.setattr(routes, "STREAMS", routes.Streams(per_address=2, total=3))
    monkeypatch.setattr(routes, "TRUSTED_PROXIES", frozenset({"testclient"}))
    key, code = _open_class()
    url = f"/api/class/{code}/events"

    def from_(address: str):
        return client.stream("GET", url, headers={"X-Forwarded-For": address})

    with from_("203.0.113.7") as a, from_("203.0.113.7") as b:
        assert a.status_code == b.status_code == 200
        with from_("203.0.113.7") as c:
            assert c.status_code == 429 and "already holds 2 class connections" in c.read().decode()
        with from_("198.51.100.1") as d:
            assert d.status_code == 200
            with from_("198.51.100.2") as e:  # the process's total of 3 is reached
                assert e.status_code == 429 and "all it can keep open" in e.read().decode()
    deadline = time.monotonic() + 5
    while routes.STREAMS.open and time.monotonic() < deadline:
        time.sleep(0.02)
    assert routes.STREAMS.open == 0 and routes.STREAMS.by_address == {}
    with from_("203.0.113.7") as again:
        assert again.status_code == 200


def test_the_stream_budget_comes_from_the_environment_and_the_file_limit() -> None:
    import resource

    budget = routes.stream_budget({"BOOSTLAB_MAX_STREAMS_PER_ADDRESS": "42"})
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert budget.per_address == 42 and budget.total == max(soft - 200, 16)
    assert routes.stream_budget({}).per_address == 600
    with pytest.raises(ValueError, match="BOOSTLAB_MAX_STREAMS_PER_ADDRESS must be an integer"):
        routes.stream_budget({"BOOSTLAB_MAX_STREAMS_PER_ADDRESS": "lots"})


# ------------------------------------------------------------------ one throttle (issue 40)
def test_the_pages_and_the_routes_count_wrong_codes_together(monkeypatch) -> None:
    """A wrong code typed on a page and one tried on a route are one count per address
    (they were two: 2 × 30 a minute from one address, docs said 30)."""
    import ui.classroom.teach as teach
    from tests import apptest_helpers as ah

    assert routes.THROTTLE is cs.THROTTLE and teach.THROTTLE is cs.THROTTLE
    shared = cs.Throttle(free=cs.FREE_MISSES)
    monkeypatch.setattr(routes, "THROTTLE", shared)
    monkeypatch.setattr(teach, "THROTTLE", shared)
    monkeypatch.setattr(cs, "STORE", cs.MemoryStore())
    monkeypatch.setattr(routes, "TRUSTED_PROXIES", frozenset({"testclient"}))
    monkeypatch.setattr(teach, "client_address", lambda: "203.0.113.7")
    with TestClient(Starlette(routes=routes.ROUTES)) as client:
        for _ in range(cs.FREE_MISSES - 1):
            r = client.get("/api/class/ZZZZZZ/events", headers={"X-Forwarded-For": "203.0.113.7"})
            assert r.status_code == 404
        ah.page("topdown", **{"class": "YYYYYY"})  # the 30th, on a page's link
        r = client.get("/api/class/ZZZZZZ/events", headers={"X-Forwarded-For": "203.0.113.7"})
        assert r.status_code == 429, r.text
        r = client.get("/api/class/ZZZZZZ/events", headers={"X-Forwarded-For": "198.51.100.1"})
        assert r.status_code == 404  # another address is not held back


def test_wrong_codes_behind_one_address_do_not_lock_out_its_class(client, monkeypatch) -> None:
    """30 wrong codes from a school's one address locked the class that shares it out for
    60 s: its followers (an open stream) and its teacher are not held back; a new guess is."""
    monkeypatch.setattr(routes, "TRUSTED_PROXIES", frozenset({"testclient"}))
    school = {"X-Forwarded-For": "203.0.113.7"}
    key, code = _open_class()
    cs.run(cs.STORE.ask(code, key, cs.Question("q1", ("A", "B", "C", "D"))))
    one = _id(code)
    cs.run(cs.STORE.join(code, one))  # a follower's stream, open
    for _ in range(cs.FREE_MISSES):
        client.get("/api/class/ZZZZZZ/events", headers=school)
    assert client.get("/api/class/ZZZZZZ/events", headers=school).status_code == 429
    r = client.post(
        f"/api/class/{code}/answer",
        json={"student": one, "question": "q1", "choice": 1},
        headers=school,
    )
    assert r.status_code == 200, r.text
    r = client.post(f"/api/class/{code}/round", json={"key": key, "round": 3}, headers=school)
    assert r.status_code == 200, r.text
    r = client.post(  # an id that follows nothing is a guess like any other
        f"/api/class/{code}/answer",
        json={"student": _id(code), "question": "q1", "choice": 1},
        headers=school,
    )
    assert r.status_code == 429


def test_a_body_trickled_in_is_cut_off(client, monkeypatch) -> None:
    """A body sent a byte at a time was held for ever (issue 40, item 5): it has
    BODY_SECONDS to arrive, then a 408 sentence ends the request (on a real uvicorn)."""
    monkeypatch.setattr(routes, "BODY_SECONDS", 0.5)
    key, code = _open_class()
    with _uvicorn() as port, socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(
            (
                f"POST /api/class/{code}/round HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            ).encode()
        )
        started = time.monotonic()
        answer = b""
        with contextlib.suppress(OSError):
            while b"did not arrive" not in answer and (more := sock.recv(4096)):
                answer += more
        took = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive within 0.5 s" in answer and took < 3, (took, answer)


# ------------------------------------------------------------ admitted followers (issue 40)
def test_a_follower_joins_then_follows_under_the_id_it_was_given(client) -> None:
    """``POST …/join`` gives the page its id; a stream under it counts the follower, and
    streams under made-up ids (20 of them raised "following" by 20, issue 40, item 2) and
    under another class's id are refused with a sentence and count nothing."""
    key, code = _open_class()
    _, other = _open_class()
    r = client.post(f"/api/class/{code}/join", json={}, headers=JSON)
    assert r.status_code == 200, r.text
    mine = r.json()["student"]
    with client.stream("GET", f"/api/class/{code}/events", params={"student": mine}) as s:
        assert s.status_code == 200
        assert _students(code) == 1
    made_up = [f"s-{i:016x}" for i in range(20)] + [_id(other)]
    for who in made_up:
        r = client.get(f"/api/class/{code}/events", params={"student": who})
        assert r.status_code == 403 and "not given by the class" in r.json()["error"], r.text
    assert _students(code) == 0
    for who in made_up:  # nor does an answer under them count
        r = client.post(
            f"/api/class/{code}/answer", json={"student": who, "question": "q", "choice": 0}
        )
        assert r.status_code == 403
    r = client.post("/api/class/ZZZZZZ/join", json={}, headers=JSON)
    assert r.status_code == 404 and "No class ZZZZZZ" in r.json()["error"]
    # a page whose stream closed asks why, without joining (nothing is told the class)
    seq = cs.run(cs.STORE.state(code)).seq
    r = client.get(f"/api/class/{code}/events", params={"student": mine, "check": "1"})
    assert r.status_code == 204 and cs.run(cs.STORE.state(code)).seq == seq
    r = client.get(f"/api/class/{code}/events", params={"student": made_up[0], "check": "1"})
    assert r.status_code == 403


def test_joins_from_one_address_are_budgeted(client, monkeypatch) -> None:
    """Behind the hall's proxy each address has its own budget of ids per class (a script
    on one address could otherwise take ids without end, answer under each and go); this
    machine's own pages (no forwarded address) are not counted."""
    monkeypatch.setattr(routes, "TRUSTED_PROXIES", frozenset({"testclient"}))
    store = cs.STORE
    monkeypatch.setattr(store, "limits", cs.Limits(joins_per_address=3))
    key, code = _open_class()
    school = {**JSON, "X-Forwarded-For": "203.0.113.7"}
    ids = [client.post(f"/api/class/{code}/join", json={}, headers=school) for _ in range(4)]
    assert [r.status_code for r in ids] == [200, 200, 200, 429]
    assert "has joined class" in ids[3].json()["error"]
    assert len({r.json()["student"] for r in ids[:3]}) == 3
    other = {**JSON, "X-Forwarded-For": "198.51.100.4"}
    assert client.post(f"/api/class/{code}/join", json={}, headers=other).status_code == 200
    for _ in range(4):  # the machine itself: its budget is the class's
        assert client.post(f"/api/class/{code}/join", json={}, headers=JSON).status_code == 200


def test_the_teachers_page_says_it_is_there_and_ends_its_class(client) -> None:
    """``/alive`` and ``/end`` take the teacher key (a follower's page has none: 403)."""
    key, code = _open_class()
    assert client.post(f"/api/class/{code}/alive", json={"key": key}).json() == {"ok": True}
    for path in ("alive", "end"):
        r = client.post(f"/api/class/{code}/{path}", json={"key": "x" * 32})
        assert r.status_code == 403 and "Only the teacher" in r.json()["error"]
    r = client.post(f"/api/class/{code.lower()}/end", json={"key": key})
    assert r.status_code == 200 and r.json() == {"ended": code}
    assert cs.run(cs.STORE.state(code)).ended
    r = client.post(f"/api/class/{code}/alive", json={"key": key})
    assert r.status_code == 404 and "has ended" in r.json()["error"]
