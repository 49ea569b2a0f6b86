"""Classroom load check: many simultaneous sessions against one boostlab server.

    .venv/bin/python benchmarks/load_check.py                 # 30 sessions, /topdown and /branching
    .venv/bin/python benchmarks/load_check.py --quick         # 5 sessions, /topdown only
    .venv/bin/python benchmarks/load_check.py --sessions 60 --browsers 5

For every page the script starts a fresh server on 127.0.0.1 (loopback only, a free port)
through ``benchmarks/serve_counted.py``, which is ``streamlit run app.py`` with the core
generators (``grow``, ``bp_infoboost``) counted into a log file. Each simulated student is a
websocket client speaking Streamlit's own protocol (the ``websockets`` package, a Streamlit
dependency): it connects to ``/_stcore/stream`` with the ``streamlit`` subprotocol, sends one
``BackMsg.rerun_script`` whose ``ClientState`` carries the page's URL path (``page_name``) and
the query string, exactly what the browser sends when a link is opened, and reads the
``ForwardMsg`` stream until ``script_finished``. A session counts as OK when the script
finished successfully, delta messages arrived, the page's title was among them, and no
exception element and no "page not found" came. Latency = connect → script finished.

Scenarios per page, one server:

  (a) cold  — N sessions open the same preset URL at once on a fresh server (empty cache);
  (b) warm  — the same again (every run is in ``st.cache_data``), then 5 sessions one at a
              time for contrast (what a student gets when nobody else is loading);
  (c) seeds — N sessions at once, each with its own ``seed`` (N distinct computations).

For each scenario the table gives the latency median, p90 and max, the wall time until the
last session finished, the server's resident memory while the N sessions are connected, and
how many times the core generator really ran ("calls / distinct argument sets"). A shared
cache means scenario (a) computes every distinct run once, whatever N is. With
``--browsers K``, K headless Chromium pages (Debian's ``/usr/bin/chromium``) also open the
first page's URL on the warm cache, as a cross-check of the simulated clients.

The sessions stay connected until the last one finished (an open tab per student), so the
memory figure includes N live sessions. The client runs on the same machine as the server
and takes some of its CPU: the numbers are an upper bound for the server alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVE = ROOT / "benchmarks" / "serve_counted.py"
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


@dataclass(frozen=True)
class PageSpec:
    """A page to load: its URL path, the default query, the title it must draw and the core
    generator its cached runs call."""

    path: str
    query: str
    title: str
    generator: str


PAGES = {
    "topdown": PageSpec(
        "topdown",
        "data=moons&n=400",
        "Top-down growth: how many branches should a split have?",
        "grow",
    ),
    "branching": PageSpec(
        "branching",
        "data=moons&n=400",
        "InfoBoost grows a branching program: divide, then merge",
        "bp_infoboost",
    ),
    # the heaviest link a generated dataset allows on the oblique page (issue 16: ten students
    # on the same heavy link used to unpickle ten copies of ~84 MB)
    "oblique": PageSpec(
        "oblique",
        "data=moons&n=5000&T2=31&T1=40",
        "AdaBoost, trees, oblique trees: one algorithm (G1)",
        "g1_linear",
    ),
}


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``streamlit run app.py`` (through ``serve_counted.py``) on 127.0.0.1 and a free port."""

    def __init__(self, call_log: Path, port: int | None = None, startup_timeout: float = 90):
        self.port = port or free_port()
        self.call_log = call_log
        self.call_log.write_text("")
        env = dict(
            os.environ,
            BOOSTLAB_CALL_LOG=str(call_log),
            STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
        )
        self._out = tempfile.TemporaryFile()
        self._printed = ""
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(SERVE),
                "--server.port",
                str(self.port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
                "--server.fileWatcherType",
                "none",
                "--browser.gatherUsageStats",
                "false",
            ],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + startup_timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited:\n" + self.output()[-3000:])
            try:
                with urllib.request.urlopen(f"{self.base}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()  # keeps what the server printed (output() still answers)
                raise RuntimeError(
                    f"the server did not answer /_stcore/health within {startup_timeout:g} s:\n"
                    + self.output()[-3000:]
                )
            time.sleep(0.2)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        """What the server has printed (stdout and stderr), also after :meth:`stop`."""
        if self._out.closed:
            return self._printed
        self._out.seek(0)
        return self._out.read().decode(errors="replace")

    def calls(self) -> list[dict]:
        """Every counted generator call so far (one dict per call)."""
        text = self.call_log.read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def memory_mib(self) -> tuple[float, float]:
        """The server's resident memory now and its peak so far (MiB; Linux ``/proc``)."""
        fields = {}
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                key, _, value = line.partition(":")
                fields[key] = value
        except OSError:
            return float("nan"), float("nan")

        def mib(key: str) -> float:
            return int(fields[key].split()[0]) / 1024 if key in fields else float("nan")

        return mib("VmRSS"), mib("VmHWM")

    def cpu_seconds(self) -> float:
        """User + system CPU time the server process has used so far (Linux ``/proc``)."""
        try:
            stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        except OSError:
            return float("nan")
        fields = stat.rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if not self._out.closed:
            # the log is a temporary file: keep its text for a message after the stop (a
            # start that timed out used to fail on "seek of closed file" instead)
            self._printed = self.output()
            self._out.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


# --------------------------------------------------------------------------- one session


@dataclass
class SessionResult:
    query: str
    ok: bool = False
    latency: float = float("nan")  # connect -> script_finished (s)
    first_delta: float = float("nan")  # connect -> first delta (s)
    deltas: int = 0
    bytes: int = 0
    status: str = ""
    exceptions: list[str] = field(default_factory=list)
    error: str = ""


def rerun_message(page_name: str, query_string: str) -> bytes:
    """The ``BackMsg`` a browser sends when it opens ``/<page_name>?<query_string>``."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ClientState_pb2 import ClientState

    msg = BackMsg()
    msg.rerun_script.CopyFrom(ClientState(query_string=query_string, page_name=page_name))
    return msg.SerializeToString()


def _texts(element) -> list[str]:
    """Heading and markdown bodies of an element (where a page title shows up)."""
    kind = element.WhichOneof("type")
    if kind == "heading":
        return [element.heading.body]
    if kind == "markdown":
        return [element.markdown.body]
    return []


async def open_session(port: int, spec: PageSpec, query: str, timeout: float = 180.0):
    """Open one session on ``spec``'s page with ``query``; return ``(result, websocket)``.

    The websocket is left open (the caller closes it) so that sessions can be held while
    others are still loading; it is ``None`` when the connection failed."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect

    res = SessionResult(query=query)
    ws = None
    title_seen = False
    not_found = False
    t0 = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            ws = await connect(
                f"ws://127.0.0.1:{port}/_stcore/stream",
                subprotocols=["streamlit"],
                max_size=None,
                ping_interval=None,
                open_timeout=timeout,
            )
            await ws.send(rerun_message(spec.path, query))
            while True:
                data = await ws.recv()
                res.bytes += len(data)
                msg = ForwardMsg()
                msg.ParseFromString(data)
                kind = msg.WhichOneof("type")
                if kind == "delta":
                    if res.deltas == 0:
                        res.first_delta = time.perf_counter() - t0
                    res.deltas += 1
                    if msg.delta.WhichOneof("type") == "new_element":
                        element = msg.delta.new_element
                        if element.WhichOneof("type") == "exception":
                            res.exceptions.append(
                                f"{element.exception.type}: {element.exception.message}"
                            )
                        title_seen = title_seen or any(spec.title in t for t in _texts(element))
                elif kind == "page_not_found":
                    not_found = True
                elif kind == "script_finished":
                    status = ForwardMsg.ScriptFinishedStatus.Name(msg.script_finished)
                    if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                        continue  # the page called st.rerun(): wait for the run after it
                    res.status = status
                    res.latency = time.perf_counter() - t0
                    break
    except TimeoutError:
        res.error = f"no script_finished within {timeout:.0f} s"
    except Exception as exc:  # a failed session is a row in the table, not a crash
        res.error = f"{type(exc).__name__}: {exc}"
    if not res.error:
        problems = []
        if res.status != "FINISHED_SUCCESSFULLY":
            problems.append(f"script finished with {res.status}")
        if not res.deltas:
            problems.append("no delta message")
        if not_found:
            problems.append(f"page not found: /{spec.path}")
        if not title_seen:
            problems.append(f"title {spec.title!r} not drawn")
        if res.exceptions:
            problems.append("exception: " + "; ".join(res.exceptions))
        res.error = ", ".join(problems)
        res.ok = not problems
    return res, ws


# --------------------------------------------------------------------------- a scenario


@dataclass
class ScenarioResult:
    page: str
    name: str
    sessions: list[SessionResult]
    wall: float
    calls: int
    distinct: int
    rss_mib: float
    peak_mib: float
    server_cpu: float = float("nan")
    client_cpu: float = float("nan")
    idle_mib: float = float("nan")

    @property
    def ok(self) -> int:
        return sum(s.ok for s in self.sessions)

    @property
    def cpu_per_session_ms(self) -> float:
        """The server's CPU time over the scenario per session (a student's page open), ms."""
        return 1000 * self.server_cpu / len(self.sessions) if self.sessions else float("nan")

    def latencies(self) -> list[float]:
        return [s.latency for s in self.sessions if s.ok]


async def _run_sessions(
    port: int,
    spec: PageSpec,
    queries: list[str],
    timeout: float,
    while_connected=None,
    sequential: bool = False,
):
    t0 = time.perf_counter()
    if sequential:
        pairs = []
        for q in queries:
            res, ws = await open_session(port, spec, q, timeout)
            if ws is not None:
                await ws.close()
            pairs.append((res, None))
    else:
        pairs = await asyncio.gather(*(open_session(port, spec, q, timeout) for q in queries))
    wall = time.perf_counter() - t0
    measured = while_connected() if while_connected else None
    await asyncio.gather(*(ws.close() for _, ws in pairs if ws is not None), return_exceptions=True)
    return [r for r, _ in pairs], wall, measured


def run_scenario(
    server: Server,
    spec: PageSpec,
    name: str,
    queries: list[str],
    timeout: float = 180.0,
    sequential: bool = False,
) -> ScenarioResult:
    """All ``queries`` at once (one session each), held open until the last one finished;
    with ``sequential`` one after the other instead (each closed before the next opens)."""
    before = len(server.calls())
    cpu0, client0 = server.cpu_seconds(), time.process_time()
    results, wall, (rss, peak) = asyncio.run(
        _run_sessions(server.port, spec, queries, timeout, server.memory_mib, sequential)
    )
    cpu, client = server.cpu_seconds() - cpu0, time.process_time() - client0
    new = [c for c in server.calls()[before:] if c["fn"] == spec.generator]
    return ScenarioResult(
        spec.path,
        name,
        results,
        wall,
        len(new),
        len({c["key"] for c in new}),
        rss,
        peak,
        cpu,
        client,
    )


def run_browsers(server: Server, spec: PageSpec, n: int, timeout: float = 180.0):
    """``n`` headless Chromium pages open ``spec``'s URL at once; per page the time from
    ``goto`` until the page is drawn (the theory expander, drawn after the stepper) and the
    app is idle. Returns a ``ScenarioResult`` (a page with an exception box is not OK)."""
    from playwright.async_api import async_playwright

    url = f"{server.base}/{spec.path}?{spec.query}"

    async def one(browser) -> SessionResult:
        res = SessionResult(query=spec.query)
        context = await browser.new_context(viewport={"width": 1400, "height": 1200})
        page = await context.new_page()
        t0 = time.perf_counter()
        try:
            await page.goto(url, timeout=timeout * 1000)
            await page.wait_for_selector("[data-testid='stExpander']", timeout=timeout * 1000)
            await page.wait_for_function(
                "() => !document.querySelector(\"[data-testid='stStatusWidget']\")",
                timeout=timeout * 1000,
            )
            res.latency = time.perf_counter() - t0
            res.exceptions = await page.locator("[data-testid='stException']").all_inner_texts()
            res.deltas = await page.locator("[data-testid='stElementContainer']").count()
            res.ok = not res.exceptions and res.deltas > 0
            res.error = "; ".join(res.exceptions)
        except Exception as exc:
            res.error = f"{type(exc).__name__}: {exc}"
        await context.close()
        return res

    async def main():
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            t0 = time.perf_counter()
            results = await asyncio.gather(*(one(browser) for _ in range(n)))
            wall = time.perf_counter() - t0
            rss, peak = server.memory_mib()
            await browser.close()
            return results, wall, rss, peak

    before = len(server.calls())
    cpu0 = server.cpu_seconds()
    results, wall, rss, peak = asyncio.run(main())
    cpu = server.cpu_seconds() - cpu0
    new = [c for c in server.calls()[before:] if c["fn"] == spec.generator]
    return ScenarioResult(
        spec.path,
        f"(b) warm, {n} Chromium pages",
        list(results),
        wall,
        len(new),
        len({c["key"] for c in new}),
        rss,
        peak,
        cpu,
    )


def check_page(
    spec: PageSpec, sessions: int, call_log: Path, browsers: int = 0, log=print
) -> list[ScenarioResult]:
    """Scenarios (a), (b), [Chromium], (c) for one page on a fresh server."""
    out = []
    with Server(call_log) as server:
        idle, _ = server.memory_mib()
        log(f"/{spec.path}: server on 127.0.0.1:{server.port}, idle RSS {idle:.0f} MiB")
        same = [spec.query] * sessions
        seeds = [f"{spec.query}&seed={i}" for i in range(1, sessions + 1)]
        for name, queries in (("(a) cold, same URL", same), ("(b) warm, same URL", same)):
            out.append(run_scenario(server, spec, name, queries))
            log(f"  {name}: done in {out[-1].wall:.1f} s")
        out.append(
            run_scenario(
                server,
                spec,
                "(b) warm, 5 sessions one at a time",
                [spec.query] * 5,
                sequential=True,
            )
        )
        if browsers:
            out.append(run_browsers(server, spec, browsers))
            log(f"  (b) Chromium x{browsers}: done in {out[-1].wall:.1f} s")
        out.append(run_scenario(server, spec, f"(c) {sessions} seeds", seeds))
        log(f"  (c): done in {out[-1].wall:.1f} s")
        rss, peak = server.memory_mib()
        log(f"  server memory: idle {idle:.0f} MiB, now {rss:.0f} MiB, peak {peak:.0f} MiB")
        out[-1].idle_mib = idle
    return out


# --------------------------------------------------------------------------- report


def percentile(values: list[float], q: float) -> float:
    import numpy as np

    return float(np.percentile(values, q)) if values else float("nan")


def table(results: list[ScenarioResult]) -> str:
    head = (
        "| page | scenario | sessions | OK | median (s) | p90 (s) | max (s) | wall (s) "
        "| computations (calls / distinct) | server CPU (s) | server CPU / session (ms) "
        "| client CPU (s) | KiB / session | server RSS (MiB) |"
    )
    lines = [head, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        lat = r.latencies()
        kib = percentile([s.bytes / 1024 for s in r.sessions if s.bytes], 50)
        lines.append(
            f"| /{r.page} | {r.name} | {len(r.sessions)} | {r.ok} | {percentile(lat, 50):.2f} "
            f"| {percentile(lat, 90):.2f} | {max(lat) if lat else float('nan'):.2f} "
            f"| {r.wall:.2f} | {r.calls} / {r.distinct} | {r.server_cpu:.1f} "
            f"| {r.cpu_per_session_ms:.0f} | {r.client_cpu:.1f} | {kib:.0f} | {r.rss_mib:.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--sessions",
        type=int,
        default=None,
        help="simultaneous sessions per scenario (default 30; 5 with --quick)",
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="5 sessions and /topdown only (unless --sessions/--pages say otherwise)",
    )
    ap.add_argument(
        "--pages",
        nargs="+",
        choices=sorted(PAGES),
        default=None,
        help="pages to check (default: topdown branching; topdown with --quick)",
    )
    ap.add_argument(
        "--browsers",
        type=int,
        default=0,
        help="also open the first page in this many headless Chromium pages "
        "(warm cache; needs /usr/bin/chromium)",
    )
    args = ap.parse_args(argv)
    sessions = args.sessions or (5 if args.quick else 30)
    pages = args.pages or (["topdown"] if args.quick else ["topdown", "branching"])

    results = []
    with tempfile.TemporaryDirectory(prefix="boostlab-load-") as tmp:
        for i, name in enumerate(pages):
            results += check_page(
                PAGES[name],
                sessions,
                Path(tmp) / f"calls-{name}.jsonl",
                browsers=args.browsers if i == 0 else 0,
            )
    print()
    print(table(results))
    print()
    failures = [(r, s) for r in results for s in r.sessions if not s.ok]
    for r, s in failures[:10]:
        print(f"FAILED /{r.page} {r.name} ?{s.query}: {s.error}")
    shared = [r for r in results if r.name.startswith("(a)")]
    for r in shared:
        verdict = "shared" if r.calls == r.distinct else "NOT shared"
        print(
            f"/{r.page} (a): {len(r.sessions)} sessions -> {r.calls} computations for "
            f"{r.distinct} distinct runs of the page ({verdict}; without a shared cache "
            f"{len(r.sessions) * r.distinct})"
        )
    for r in results:
        if r.name.startswith("(c)"):
            print(
                f"/{r.page}: server memory idle {r.idle_mib:.0f} MiB, peak {r.peak_mib:.0f} "
                "MiB over all scenarios (VmHWM)"
            )
    bad_sharing = [r for r in shared if r.calls != r.distinct]
    return 1 if failures or bad_sharing else 0


if __name__ == "__main__":
    sys.exit(main())
