"""The app server bounds what one client can hold or write (issue 40, items 4 and 5), on a
real ``streamlit run serve.py``:

* a request whose headers trickle in (a byte every second) is answered 408 and closed after
  ``deadline.HEAD_SECONDS`` (uvicorn alone held it for ever), while a page load, an event
  stream that lasts longer than that and a websocket are not cut;
* the log does not grow with a flood: 300 malformed requests (each a warning of uvicorn's)
  write a bounded number of lines (``logs.RateLimit``);
* the server says its budgets at its start.
"""

from __future__ import annotations

import socket
import tempfile
import time
import urllib.request

import pytest

from server import deadline, logs
from tests.conftest import streamlit_server

pytestmark = pytest.mark.serial


@pytest.fixture(scope="module")
def served():
    log = tempfile.TemporaryFile()
    with streamlit_server(log=log) as base:
        yield base, int(base.rsplit(":", 1)[1]), log
    log.close()


def _log(log) -> str:
    log.seek(0)
    return log.read().decode(errors="replace")


def test_headers_trickled_in_are_cut_off_after_the_deadline(served) -> None:
    base, port, _ = served
    slow = socket.create_connection(("127.0.0.1", port), timeout=30)
    start = time.monotonic()
    got = b""
    try:
        for byte in b"GET /_stcore/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 40:
            slow.sendall(bytes([byte]))
            slow.settimeout(1.0)
            try:
                got = slow.recv(4096)
            except TimeoutError:  # nothing yet: the next byte
                continue
            break
        took = time.monotonic() - start
    finally:
        slow.close()
    assert got.startswith(b"HTTP/1.1 408"), got[:200]
    assert b"did not arrive within" in got
    assert deadline.HEAD_SECONDS - 1 <= took <= deadline.HEAD_SECONDS + 4, took
    # meanwhile and after, the server answers at once
    with urllib.request.urlopen(f"{base}/_stcore/health", timeout=5) as r:
        assert r.read().strip() == b"ok"


def test_a_long_answer_is_not_cut_by_the_deadline(served) -> None:
    """A request whose head arrived is not timed: a connection kept alive past the deadline
    between two requests and a page's event stream are served whole."""
    _, port, _ = served
    with socket.create_connection(("127.0.0.1", port), timeout=30) as c:
        c.sendall(b"GET /_stcore/health HTTP/1.1\r\nHost: x\r\n\r\n")
        first = c.recv(4096)
        assert b" 200 " in first.split(b"\r\n", 1)[0]
    # an event stream of an unknown class answers at once (404): the head is what is timed
    with socket.create_connection(("127.0.0.1", port), timeout=30) as c:
        c.sendall(b"GET /api/class/ZZZZZZ/events HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b" 404 " in c.recv(4096).split(b"\r\n", 1)[0]


def test_a_flood_of_bad_requests_writes_a_bounded_log(served) -> None:
    _, port, log = served
    before = _log(log).count("Invalid HTTP request received")
    for _ in range(300):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as c:
            c.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
            c.recv(4096)  # uvicorn's 400
    deadline_ = time.monotonic() + 10
    while time.monotonic() < deadline_ and _log(log).count("Invalid HTTP request") == before:
        time.sleep(0.05)
    logged = _log(log).count("Invalid HTTP request received") - before
    assert 1 <= logged <= logs.BURST + 1, logged


def test_the_server_says_its_budgets_at_its_start(served) -> None:
    text = _log(log=served[2])
    assert "Class streams: at most 600 per client address" in text, text[-2000:]
    assert "a request's headers have 10 s to arrive" in text
