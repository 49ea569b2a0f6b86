"""Class mode's page side in AppTest (ui/classroom/teach.py): what a page shows a teacher and a
student around the class, without a browser.

* *Teach a class* opens a class in the store: the card shows its code and the count.
* *End class* ends it in the store and the card goes.
* A student's link to a class the server does not have (never opened, ended, or the server
  was restarted since) says so in words, and the page still works.
* A teacher link with a wrong key is refused in words; the key leaves the address either way.
"""

from __future__ import annotations

import re

import pytest

import server.store as cs
from tests import apptest_helpers as ah
from ui.classroom import teach


@pytest.fixture(autouse=True)
def fresh_store(monkeypatch):
    monkeypatch.setattr(cs, "STORE", cs.MemoryStore())


def _texts(at) -> str:
    parts = [m.value for m in at.markdown] + [w.value for w in at.warning]
    parts += [e.value for e in at.error] + [i.value for i in at.info]
    return "\n".join(str(p) for p in parts)


def _code(at) -> str:
    html = "\n".join(h.proto.body for h in at.get("html"))
    found = re.search(r"Class <b>([A-Z0-9]{6})</b>", html)
    assert found, html[:300]
    return found.group(1)


def test_teach_a_class_opens_it_and_end_class_ends_it() -> None:
    at = ah.page("bounds")
    ah.ok(at)
    at.button(key="teach_class").click().run()
    ah.ok(at)
    code = _code(at)
    state = cs.run(cs.STORE.state(code))
    assert state.page == "bounds" and not state.ended
    assert "teach_class" not in [b.key for b in at.button]  # one class per session
    at.button(key="end_class").click().run()
    ah.ok(at)
    assert cs.run(cs.STORE.state(code)).ended
    assert not re.search(r"Class <b>", "\n".join(h.proto.body for h in at.get("html")))


def test_a_class_the_server_does_not_have_is_named_in_words() -> None:
    """What a student sees after a server restart (classes live in the server process)."""
    at = ah.page("topdown", **{"class": "ABCDEF"})
    ah.ok(at)
    text = _texts(at)
    assert "No class ABCDEF is open on this server" in text
    assert "the server was restarted" in text
    assert "Traceback" not in text


def test_a_teacher_link_with_a_wrong_key_is_refused_and_the_key_leaves_the_address() -> None:
    key = cs.new_key()
    code = cs.run(cs.STORE.open(key, "topdown", {}, None))
    at = ah.page("topdown", **{"class": code, "teach": "a-wrong-key-of-enough-length-00"})
    ah.ok(at)
    assert f"This teacher link is not the one of class {code}" in _texts(at)
    assert "teach" not in at.query_params
    good = ah.page("topdown", **{"class": code, "teach": key})
    ah.ok(good)
    assert _code(good) == code
    assert "teach" not in good.query_params and "class" not in good.query_params


@pytest.mark.parametrize(
    ("headers", "url"),
    [
        ({"Host": "192.168.1.20:8501"}, "http://192.168.1.20:8501"),
        (
            {
                "Host": "127.0.0.1:8501",
                "X-Forwarded-Host": "ml.uni.edu",
                "X-Forwarded-Proto": "https",
            },
            "https://ml.uni.edu",
        ),
        ({"Host": "a:1", "X-Forwarded-Proto": "javascript"}, "http://a:1"),
        ({"Host": "evil.com/@x"}, "http://localhost:8501"),
        ({}, "http://localhost:8501"),
    ],
)
def test_the_students_link_uses_the_address_the_teacher_used(headers, url) -> None:
    from ui.classroom.teach import base_url

    assert base_url(headers) == url


class _Restarting:
    """A class store whose first ``down`` reads of a class fail as the hall's Redis does while
    it restarts (a ClassError with status 503), then the real store's answers."""

    def __init__(self, real, down: int) -> None:
        self.real, self.down = real, down

    def __getattr__(self, name):
        method = getattr(self.real, name)

        async def call(*args, **kwargs):
            if name == "state" and self.down > 0:
                self.down -= 1
                error = cs.ClassError("The class server (Redis) is not answering; try again.")
                error.status = 503
                raise error
            return await method(*args, **kwargs)

        return call


def test_a_store_that_does_not_answer_is_waited_for_not_a_wrong_code(monkeypatch) -> None:
    """A student opens the class link while the store does not answer: the page says so in
    words, is not counted as guessing codes, and follows the class once the store answers
    (its fragment asks again every 3 s)."""
    real = cs.MemoryStore()
    code = cs.run(real.open(cs.new_key(), "topdown", {}, None))
    store = _Restarting(real, down=2)  # the page's read, and its fragment's first
    monkeypatch.setattr(cs, "STORE", store)
    monkeypatch.setattr(teach, "THROTTLE", cs.Throttle(free=1))
    at = ah.page("topdown", **{"class": code})
    ah.ok(at)
    assert "not answering" in _texts(at)
    assert teach.THROTTLE.blocked(teach.client_address()) == 0  # no miss counted
    at.run()  # the store answers now (the fragment's rerun, or the student's next run)
    ah.ok(at)
    assert "not answering" not in _texts(at)
    assert at.session_state["_class_following"] == code


def test_a_teachers_classes_count_for_their_address(monkeypatch) -> None:
    """Teach a class opens it for the teacher's address: a fourth class from one address is
    refused in words on the page (issue 40, item 1); this machine's own address counts for
    none (the operator's browser, the tests)."""
    import ui.classroom.teach as teach

    monkeypatch.setattr(teach, "teacher_address", lambda: "203.0.113.7")
    for _ in range(3):
        at = ah.page("topdown")
        at.button(key="teach_class").click().run()
        _code(at)
    at = ah.page("topdown")
    at.button(key="teach_class").click().run()
    assert "network address already has 3 open classes" in _texts(at), _texts(at)[:400]
    assert cs.client_address("127.0.0.1", "203.0.113.7") == "203.0.113.7"
