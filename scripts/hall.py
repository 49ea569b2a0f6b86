"""A lecture hall on one machine (issue 29): Redis, N app processes and HAProxy in front.

Usage (``make serve-hall``; ``REPLICAS=`` and ``PORT=`` change the defaults)::

    .venv/bin/python scripts/hall.py [--replicas N] [--port 8501] [--address 0.0.0.0]

One Streamlit process serves about 30 students (docs/benchmarks.md, "What a class costs"); a lecture
hall of 300 needs several. This starts, as real servers from Debian's packages:

* **Redis** (``redis-server``) on 127.0.0.1, keeping an append-only file in the hall's
  folder (a restart keeps the classes): the class store of every app process
  (``BOOSTLAB_REDIS_URL``; ``server/redis_store.py``);
* **N app processes** (``streamlit run serve.py``; N = the number of cores by default), each
  on a port of 127.0.0.1 of its own, each with its own run cache (1 GiB at most);
* **HAProxy** (``haproxy``) on ``--address:--port``, in front of them: a cookie
  (``BLSRV``) keeps a browser's page, websocket and uploads on one process (Streamlit keeps
  a session in the memory of the process serving it); a health check
  (``GET /_stcore/health`` every second) takes a process that stops answering out of the
  rotation and cuts its connections (its event streams and websockets reconnect through
  another process, a request waiting on it fails at once instead of after 60 s); a browser
  whose process is gone is sent to another (``option redispatch``), where its page
  reconnects from its address and the class store; websockets and the class's event
  streams may stay open for a whole lecture (4 hours).

Each piece's PID, port and log are printed and kept in the hall's folder (``.hall/`` by
default: ``pids``, ``*.log``, ``haproxy.cfg``, Redis's files). Ctrl-C (or SIGTERM) stops
them all. An app process or Redis that exits is started again (its browsers meanwhile go to
the other processes); HAProxy exiting stops the hall with an error naming it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REDIS = "/usr/bin/redis-server"
HAPROXY = "/usr/sbin/haproxy"
#: How long a websocket or an event stream may stay quiet and open: a lecture (and more).
TUNNEL = "4h"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def max_connections() -> int:
    """HAProxy's ``maxconn``: 5000 (300 students hold about 3 connections each: page loads,
    a websocket, a class's event stream), or what the open-files limit allows (HAProxy needs
    two descriptors a connection)."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(256, min(5000, (soft - 200) // 2))


def haproxy_config(
    address: str, port: int, backends: list[tuple[str, int]], stats_socket: Path | None = None
) -> str:
    """HAProxy's configuration for the hall (see the module docstring)."""
    servers = "\n".join(
        f"    server {name} 127.0.0.1:{p} check cookie {name}" for name, p in backends
    )
    stats = f"    stats socket {stats_socket} mode 600 level admin\n" if stats_socket else ""
    return f"""# written by scripts/hall.py: the lecture hall's front (docs/classroom-server.md)
global
    maxconn {max_connections()}
{stats}
defaults
    mode http
    option forwardfor
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-request 15s
    # an upgraded websocket and a class's event stream: open for a whole lecture
    timeout tunnel {TUNNEL}
    # a step is a small chunk on an open stream: sent at once, not held back for more data
    # (measured: without it each step reached a follower about 210 ms later)
    option http-no-delay
    timeout client-fin 5s
    retries 2
    option redispatch

frontend hall
    bind {address}:{port}
    default_backend app

backend app
    balance leastconn
    # a browser stays on the process that holds its Streamlit session: page, websocket,
    # uploads; when that process is down the browser is sent to another (redispatch)
    cookie BLSRV insert indirect nocache httponly
    option httpchk GET /_stcore/health
    http-check expect string ok
    # a process that stops answering (frozen: SIGSTOP, a hung event loop) still accepts
    # connections in the kernel; once the check marks it down, every connection to it is
    # cut: its followers' event streams and websockets (open for hours) reconnect through
    # another process, and a request waiting on it fails at once (502) instead of after
    # `timeout server` (measured: without it streams stayed frozen and a POST got a 504
    # after 60 s). POSTs are not retried by HAProxy: the page retries its own answers.
    default-server inter 1s fall 2 rise 2 maxconn 2000 on-marked-down shutdown-sessions
    # which process answered (the tests read it; harmless for a browser)
    http-response set-header X-Boostlab-Server %[srv_name]
{servers}
"""


@dataclass
class Piece:
    """One process of the hall (and how to start it again)."""

    name: str
    port: int
    log: Path
    proc: subprocess.Popen = field(repr=False)
    argv: list[str] = field(repr=False, default_factory=list)
    env: dict[str, str] | None = field(repr=False, default=None)
    restarts: int = 0


def _wait(check, what: str, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    """Poll ``check()`` until it is true (not a fixed sleep); an error naming ``what`` when
    the process exits or the time is up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with code {proc.returncode} while starting")
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not start within {timeout:.0f} s")


def _redis_up(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
        c.sendall(b"PING\r\n")
        return c.recv(16).startswith(b"+PONG")


def _healthy(port: int) -> bool:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
        return r.read().strip() == b"ok"


class Hall:
    """Start the hall's pieces; :meth:`stop` stops them (also used by the tests)."""

    def __init__(
        self,
        *,
        replicas: int,
        port: int,
        address: str,
        folder: Path,
        redis_port: int | None = None,
        app_ports: list[int] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        if replicas < 1:
            raise ValueError(f"replicas must be at least 1; got {replicas}")
        for tool in (REDIS, HAPROXY):
            if not Path(tool).exists():
                raise RuntimeError(
                    f"{tool} is missing: apt-get install redis-server haproxy "
                    "(Debian's packages; .ci/run installs them)"
                )
        self.replicas, self.port, self.address = replicas, port, address
        self.folder = folder
        self.redis_port = redis_port or free_port()
        self.app_ports = app_ports or [free_port() for _ in range(replicas)]
        self.env = env or {}
        self.pieces: list[Piece] = []

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.address in ("0.0.0.0", "") else self.address
        return f"http://{host}:{self.port}"

    def _popen(self, name: str, argv: list[str], env=None) -> subprocess.Popen:
        with open(self.folder / f"{name}.log", "ab") as out:  # the child keeps its own copy
            return subprocess.Popen(
                argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env,
                start_new_session=True,
            )  # fmt: skip

    def _spawn(self, name: str, port: int, argv: list[str], env=None) -> Piece:
        proc = self._popen(name, argv, env)
        piece = Piece(name, port, self.folder / f"{name}.log", proc, argv, env)
        self.pieces.append(piece)
        return piece

    def supervise(self) -> list[str]:
        """Start again any app process or Redis that exited (HAProxy sends the browsers of a
        dead process to the others meanwhile; Redis comes back with its append-only file);
        what happened, in words. HAProxy exiting is an error: nothing reaches the hall."""
        said = []
        for piece in self.pieces:
            if piece.proc.poll() is None:
                continue
            if piece.name == "haproxy":
                raise RuntimeError(
                    f"haproxy exited with code {piece.proc.returncode} (see {piece.log})"
                )
            said.append(
                f"{piece.name} (pid {piece.proc.pid}) exited with code "
                f"{piece.proc.returncode}; starting it again (see {piece.log})"
            )
            piece.proc = self._popen(piece.name, piece.argv, piece.env)
            piece.restarts += 1
        if said:
            self._write_pids()
        return said

    def _write_pids(self) -> None:
        (self.folder / "pids").write_text(
            "".join(f"{p.name} {p.proc.pid} {p.port} {p.log}\n" for p in self.pieces)
        )

    def start_redis(self) -> Piece:
        redis_dir = self.folder / "redis"
        redis_dir.mkdir(parents=True, exist_ok=True)
        piece = self._spawn(
            "redis",
            self.redis_port,
            [
                REDIS,
                "--port", str(self.redis_port),
                "--bind", "127.0.0.1",
                "--protected-mode", "yes",
                "--dir", str(redis_dir),
                "--appendonly", "yes",
                "--appendfsync", "everysec",
                "--save", "",
                "--daemonize", "no",
            ],
        )  # fmt: skip
        _wait(lambda: _redis_up(self.redis_port), "redis-server", piece.proc, 20)
        return piece

    def start_app(self, i: int) -> Piece:
        port = self.app_ports[i]
        env = {
            **os.environ,
            "BOOSTLAB_REDIS_URL": self.redis_url,
            "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
            **self.env,
        }
        piece = self._spawn(
            f"app{i + 1}",
            port,
            [
                sys.executable, "-m", "streamlit", "run", "serve.py",
                "--server.port", str(port),
                "--server.address", "127.0.0.1",
                "--server.headless", "true",
                "--server.fileWatcherType", "none",
                # HAProxy is the origin the browsers see: Streamlit's CORS and XSRF checks
                # are kept (same origin through the proxy)
            ],
            env=env,
        )  # fmt: skip
        return piece

    def start_haproxy(self) -> Piece:
        cfg = self.folder / "haproxy.cfg"
        backends = [(f"app{i + 1}", p) for i, p in enumerate(self.app_ports)]
        cfg.write_text(
            haproxy_config(self.address, self.port, backends, self.folder / "haproxy.sock")
        )
        check = subprocess.run([HAPROXY, "-c", "-q", "-f", str(cfg)], capture_output=True)
        if check.returncode:
            raise RuntimeError("haproxy refused its configuration:\n" + check.stderr.decode())
        piece = self._spawn("haproxy", self.port, [HAPROXY, "-db", "-f", str(cfg)])
        _wait(lambda: _healthy(self.port), "haproxy", piece.proc, 30)
        return piece

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self.start_redis()
            apps = [self.start_app(i) for i in range(self.replicas)]
            for piece in apps:  # they start in parallel, then each is waited for
                _wait(lambda p=piece: _healthy(p.port), piece.name, piece.proc, 120)
            self.start_haproxy()
        except BaseException:
            self.stop()
            raise
        self._write_pids()

    def piece(self, name: str) -> Piece:
        return next(p for p in self.pieces if p.name == name)

    def stop(self) -> None:
        """Stop every piece: HAProxy first (no new connections), then the apps, then Redis."""
        for piece in reversed(self.pieces):
            if piece.proc.poll() is None:
                piece.proc.terminate()
        for piece in reversed(self.pieces):
            try:
                piece.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                piece.proc.kill()
                piece.proc.wait(timeout=10)
        self.pieces.clear()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replicas", type=int, default=os.cpu_count() or 2, help="app processes")
    ap.add_argument("--port", type=int, default=8501, help="HAProxy's port (the students')")
    ap.add_argument(
        "--address", default="0.0.0.0", help="HAProxy's address (0.0.0.0: the local network)"
    )
    ap.add_argument("--folder", type=Path, default=ROOT / ".hall", help="PIDs, logs, config")
    args = ap.parse_args(argv)
    hall = Hall(replicas=args.replicas, port=args.port, address=args.address, folder=args.folder)
    stopping = []

    def on_signal(signum, frame) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    print(f"starting a hall of {args.replicas} app process(es) in {args.folder} …", flush=True)
    hall.start()
    width = shutil.get_terminal_size((100, 20)).columns
    print("-" * min(width, 100))
    for p in hall.pieces:
        print(f"{p.name:8} pid {p.proc.pid:<8} port {p.port:<6} log {p.log}")
    print("-" * min(width, 100))
    print(f"the hall: {hall.url}  (students: the server's network address, port {args.port})")
    print("Ctrl-C stops everything.", flush=True)
    code = 0
    try:
        while not stopping:
            try:
                for line in hall.supervise():
                    print(line, flush=True)
            except RuntimeError as e:
                print(f"{e}; stopping the hall.", file=sys.stderr)
                code = 1
                break
            time.sleep(0.5)
    finally:
        hall.stop()
        print("the hall is stopped.", flush=True)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
