"""Shared fixtures for the browser tests (``tests/browser/``).

The whole session shares ONE Streamlit server (``server``: its base URL) and ONE headless
Chromium (``browser``), both started on first use only, so ``pytest -m "not browser"`` starts
neither. The browser tests run after all others (``pytest_collection_modifyitems``). A test
opens its own pages (``browser.new_page()``/``new_context()``: each is a fresh browser
context); whatever it leaves open is closed after it, even when it fails.

Chromium is Debian's ``/usr/bin/chromium`` (installed by ``.ci/run``). Outside CI a missing
browser skips the browser tests; in CI (``CI`` set) it is a failure, never a skip.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config, items) -> None:
    """Run the browser tests after all others, the ``long`` ones first (otherwise in their
    order).

    After all others: the session's Playwright (sync API) keeps an asyncio loop running in
    the main thread until the session ends, and a test after it that calls ``asyncio.run()``
    would fail (``tests/server/test_load_check.py``). pytest-xdist's ``load`` scheduling
    hands each worker consecutive tests of this order, so on every worker too the browser
    tests come last. The long ones first: two workers share the browser tests as they
    free up, and the run ends on short tests rather than on one worker's 60-second class
    while the other has nothing left (``make test``)."""

    def rank(item) -> tuple[bool, bool]:
        browser = item.get_closest_marker("browser") is not None
        return browser, item.get_closest_marker("long") is None

    items.sort(key=rank)


def require_chromium() -> None:
    """Skip (outside CI) or fail (in CI) when Debian's Chromium is missing."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            raise RuntimeError(
                f"{CHROMIUM} is missing in CI: .ci/run must install Debian's chromium"
            )
        pytest.skip("Debian chromium is not installed (apt-get install chromium)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


REDIS_SERVER = "/usr/bin/redis-server"


def require_redis() -> None:
    """Skip (outside CI) or fail (in CI) when Debian's redis-server is missing."""
    if not Path(REDIS_SERVER).exists():
        if os.environ.get("CI"):
            raise RuntimeError(
                f"{REDIS_SERVER} is missing in CI: .ci/run must install Debian's redis-server"
            )
        pytest.skip("Debian redis-server is not installed (apt-get install redis-server)")


@contextlib.contextmanager
def redis_server(port: int | None = None, data_dir: str | None = None) -> Iterator[str]:
    """A real Redis (Debian's ``redis-server``) on 127.0.0.1 for the tests: started here,
    stopped after; yields its URL once it answers PING. With ``data_dir`` it keeps an
    append-only file there (a restart on the same port and folder keeps the data)."""
    require_redis()
    port = port or free_port()
    folder = data_dir or tempfile.mkdtemp(prefix="bl-redis-")
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [
            REDIS_SERVER,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            folder,
            "--save",
            "",
            "--appendonly",
            "yes" if data_dir else "no",
            "--daemonize",
            "no",
            "--protected-mode",
            "yes",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.time() + 20
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError("redis-server exited: " + log.read().decode()[-2000:])
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
                    c.sendall(b"PING\r\n")
                    if c.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)  # polling the port, not waiting a fixed time
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of the session's Redis (a real redis-server on a free port of 127.0.0.1)."""
    with redis_server() as url:
        yield url


@contextlib.contextmanager
def streamlit_server(
    env: dict[str, str] | None = None,
    procs: list | None = None,
    port: int | None = None,
    log: Any = None,
) -> Iterator[str]:
    """Serve the app (``serve.py``: ``app.py`` with the class routes) on a free port of
    127.0.0.1 (or ``port``: a restart on the same address); yields the base URL once it is
    healthy.

    ``env`` adds environment variables for the server; the server's process is appended to
    ``procs`` when given (to read its memory); its log is written to ``log`` (a binary file)
    when given."""
    port = port or free_port()
    # the server's log goes to a file: a pipe nobody reads would fill up and block a server
    # that lives for the whole session
    log = log or tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "serve.py",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
            # no "File change / Rerun" banner in the screenshots while files are being edited
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"

    def tail() -> str:
        log.seek(0)
        return log.read().decode(errors="replace")[-2000:]

    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            if proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                time.sleep(0.1)  # polling the health endpoint, not waiting a fixed time
        else:
            proc.kill()
            raise RuntimeError("streamlit did not start: " + tail())
        if proc.poll() is not None:
            raise RuntimeError("streamlit exited: " + tail())
        if procs is not None:
            procs.append(proc)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The base URL of the session's one Streamlit server."""
    require_chromium()  # no server for tests that will be skipped (or fail) anyway
    with streamlit_server() as base:
        yield base


@pytest.fixture
def fresh_server() -> Iterator[str]:
    """A server of its own, started for one test: for a check of what a server does on its
    very first visit, which the shared ``server`` has long had (see its users)."""
    require_chromium()
    with streamlit_server() as base:
        yield base


@pytest.fixture(scope="session")
def _chromium():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def browser(_chromium):
    """The session's Chromium; the contexts (and pages) a test opens are closed after it."""
    before = {id(c) for c in _chromium.contexts}
    yield _chromium
    for ctx in _chromium.contexts:
        if id(ctx) not in before:
            with contextlib.suppress(Exception):
                ctx.close()
