"""The class's HTTP routes (``ui/classroom/routes.py``) on Starlette's test client, with a
fresh store per test (in-process, and on a real Redis): what a follower's page and a
teacher's page send, and what anything else trying them gets (issue 28, "only the teacher
drives").

* The event stream starts with the class's state now and names no secret; a student id
  counts a follower once.
* ``/round`` moves the class only with the teacher key; without it: 403, nothing changes.
* A hostile body (not JSON, not an object, too large, wrong types) is a 400 with a sentence,
  and changes nothing; an unknown code is a 404; after 5 wrong codes a client waits (429).
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
    monkeypatch.setattr(routes, "THROTTLE", cs.Throttle())
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
    for _ in range(5):
        r = client.post("/api/class/ZZZZZZ/round", json={"round": 1})
        assert r.status_code == 404 and "No class ZZZZZZ" in r.json()["error"]
    r = client.get("/api/class/ZZZZZZ/events")
    assert r.status_code == 429 and "Too many wrong class codes" in r.json()["error"]
    assert int(r.headers["Retry-After"]) > 0
    r = client.post("/api/class/<script>/round", json={"round": 1})
    assert r.status_code == 429  # the same client, still waiting


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
