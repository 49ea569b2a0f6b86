"""The class's HTTP routes (``ui/classroom/routes.py``) on Starlette's test client, with a
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

import json
import uuid

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

import ui.classroom.routes as routes
import ui.classroom.store as cs


@pytest.fixture(params=["memory", "redis"])
def client(monkeypatch, request):
    """The routes on a fresh store: in memory, or on the session's real Redis (issue 29)."""
    if request.param == "memory":
        store = cs.MemoryStore()
    else:
        from ui.classroom.redis_store import RedisStore

        url = request.getfixturevalue("redis_url")
        store = RedisStore(url, prefix=f"routes-{uuid.uuid4().hex}:")
    monkeypatch.setattr(cs, "STORE", store)
    monkeypatch.setattr(routes, "THROTTLE", cs.Throttle(free=cs.FREE_MISSES))
    with TestClient(Starlette(routes=routes.ROUTES)) as c:
        yield c
    if hasattr(store, "close"):
        store.close()


def _open_class() -> tuple[str, str]:
    key = cs.new_key()
    return key, cs.run(cs.STORE.open(key, "topdown", {"s": "8"}, 2))


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
    state = _first_event(client, code, student="student-0001")
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
    r = client.post(f"/api/class/{code}/round", content=body)
    assert r.status_code == 400 and message in r.json()["error"]
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
    ok = client.post(
        f"/api/class/{code}/answer",
        json={"student": "student-0001", "question": "q1", "choice": 2},
    )
    assert ok.status_code == 200 and ok.json() == {"answers": 1}
    bad = client.post(
        f"/api/class/{code}/answer",
        json={"student": "student-0002", "question": "q1", "choice": 9},
    )
    assert bad.status_code == 400 and "choice must be 0-3" in bad.json()["error"]
    split = client.post(
        f"/api/class/{code}/split",
        json={"student": "student-0001", "split": {"feature": 0, "threshold": 0.25}},
    )
    assert split.status_code == 200 and split.json() == {"submissions": 1}
    hostile = client.post(
        f"/api/class/{code}/split",
        json={"student": "student-0001", "split": {"threshold": [1, 2]}},
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
    client.post(
        f"/api/class/{code}/answer", json={"student": "student-0001", "question": "q1", "choice": 3}
    )
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
