"""Issue 40's attacks, replayed: what one student's script gets, and what a real student and
the teacher still get meanwhile.

    .venv/bin/python benchmarks/bench_attacks.py            # every row (1.6 min on 2 cores)
    .venv/bin/python benchmarks/bench_attacks.py --quick    # smaller counts, shorter waits
    .venv/bin/python benchmarks/bench_attacks.py --only 2,5,h10k   # some rows (ids below)
    .venv/bin/python benchmarks/bench_attacks.py --no-hall  # the single process only

(``--quick`` saves little: the hall's rows mostly wait for a leave behind HAProxy or a dead
process's lease.) A run of every row, quick or not, writes the table to
``benchmarks/results/attacks.md`` (the note under it names the command); ``--only``,
``--no-hall`` and ``--no-single`` only print it.

Loopback only, every loop bounded in count and time. Two targets, started here and stopped at
the end (``try``/``finally``):

* **one process**: ``streamlit run serve.py`` on 127.0.0.1 and a free port (what ``make
  serve`` runs; its stdout and stderr go to a file whose growth is the "log bytes"). Its
  class is opened by a headless Chromium teacher page (``/topdown?present=true``, *Teach a
  class*, then *Predict, then reveal*, which opens the class's question); the teacher key is
  read from the page's ``sessionStorage`` (klass.js keeps it there).
* **the hall**: ``scripts/hall.py``'s ``Hall`` (Redis, 2 app processes, HAProxy in front);
  its class is opened on the hall's Redis directly, as ``benchmarks/bench_hall.py`` does.

The attacker and every real student are raw asyncio HTTP clients (HTTP/1.1, one connection
per request, a follower's stream held open as ``benchmarks/bench_teach.py``'s ``Followers``
holds it). Each poses as a client address with ``X-Forwarded-For`` (127.0.0.1 is a trusted
proxy): the attacker is 203.0.113.x (TEST-NET-3), real students 198.51.100.x (TEST-NET-2),
one address each. Through the hall, HAProxy appends the peer (127.0.0.1) and uvicorn's own
proxy-header handling takes the rightmost address it does not trust, i.e. the posed one; row
h3 checks that the app really counts the posed address there.

Every attack row also runs a **probe** (during the attack where the attack holds something
open or is a burst): a health check, a page load, a new real student from an address of its
own (join, follow, answer the open question) and the teacher's step (``attack_probe.py``'s
docstring says what each measures).

Rows (``--only`` takes these ids): one process 1 classes, 2 made-up ids, 3 join flood,
4 ghost followers (and how soon a real leave is counted), 5 stream flood, 5b the class filled
from one address, 6 slow clients, 7 nested ``[`` and a lone surrogate, 8 four 128 MB bodies,
9 wrong codes behind a school's address, 11 headers; the hall h3 join flood from a posed
address, h2 made-up ids, h4 ghosts (Redis; a real leave through HAProxy and straight to a
process), h7 nested ``[`` (Redis), h11 headers, h10k SIGKILL during answers (and how soon the
dead process's followers are counted out), h10s SIGSTOP. Each row also says how many bytes
the server's log grew meanwhile. A row is a function ``row_…(target) -> Row``; add one to
``SINGLE_ROWS`` or ``HALL_ROWS``.

Where things are (``benchmarks/``, imported with ``benchmarks/`` on ``sys.path``):

* this file: the command line, the two targets started and stopped, the rows run in turn,
  the table and ``results/attacks.md``;
* ``attack_clients.py``: the raw HTTP and event-stream clients (a request, a follower's
  stream, a real follower who reconnects, an answer sent until acknowledged, the slow and
  oversized bodies), the clients' loop on a thread of its own, and checks from the main thread;
* ``attack_probe.py``: the target, the probe of a real student and the teacher, a leave's lag,
  the table's ``Row`` and the numbers in words;
* ``attack_rows.py``: the one-process rows (1-9, 11; 2, 4, 7 and 11 run on the hall too);
* ``attack_hall.py``: the hall's own rows (h3, h10k, h10s).

Progress goes to stderr: which row, what it waits for.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))
import attack_clients as ac  # noqa: E402
import load_check as lc  # noqa: E402  (free_port)
from attack_clients import Follower, aio, close_all, healthy, log, until  # noqa: E402
from attack_hall import row_kill, row_posed, row_stop  # noqa: E402
from attack_probe import Row, Target, follow_crowd  # noqa: E402
from attack_rows import (  # noqa: E402
    open_class_page,
    row_big,
    row_classes,
    row_fill,
    row_ghosts,
    row_headers,
    row_join_flood,
    row_made_up,
    row_nested,
    row_slow,
    row_stream_flood,
    row_wrong_codes,
)

CHROMIUM = "/usr/bin/chromium"
RESULTS = BENCH / "results" / "attacks.md"


# ------------------------------------------------------------------------- the targets


class AppProcess:
    """``streamlit run serve.py`` on 127.0.0.1 and a free port (``make serve`` binds
    0.0.0.0); what it prints goes to ``log``."""

    def __init__(self, folder: Path) -> None:
        self.port = lc.free_port()
        self.log = folder / "app.log"
        env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
        env.pop("BOOSTLAB_REDIS_URL", None)
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable, "-m", "streamlit", "run", "serve.py",
                    "--server.address", "127.0.0.1", "--server.port", str(self.port),
                    "--server.headless", "true", "--server.fileWatcherType", "none",
                ],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 120
        while not healthy(self.port):
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited:\n" + self.log.read_text()[-2000:])
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not answer /_stcore/health within 120 s")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


SINGLE_ROWS: list[tuple[str, Callable[[Target], Row]]] = [
    ("1", row_classes),
    ("2", row_made_up),
    ("3", row_join_flood),
    ("4", row_ghosts),
    ("5", row_stream_flood),
    ("5b", row_fill),
    ("6", row_slow),
    ("7", row_nested),
    ("8", row_big),
    ("9", row_wrong_codes),
    ("11", row_headers),
]
HALL_ROWS: list[tuple[str, Callable[[Target], Row]]] = [
    ("h3", row_posed),
    ("h2", row_made_up),
    ("h4", row_ghosts),
    ("h7", row_nested),
    ("h11", row_headers),
    ("h10k", row_kill),
    ("h10s", row_stop),
]


def run_rows(t: Target, rows, only: set[str] | None, out: list[Row]) -> None:
    for rid, fn in rows:
        if only and rid not in only:
            continue
        t0, log0 = time.monotonic(), t.log_bytes()
        try:
            row = fn(t)
            if "log grew" not in row.attacker + row.kept:
                row.kept += f"; the server's log grew {t.log_bytes() - log0:,} bytes"
            out.append(row)
            log(f"[{rid}] done in {time.monotonic() - t0:.1f} s")
        except Exception as e:  # noqa: BLE001  (a row that failed is a row saying so)
            traceback.print_exc()
            out.append(
                Row(
                    f"**{t.name}** · {rid}. {fn.__name__}",
                    "—",
                    f"the benchmark failed: {e!r}"[:300],
                    "—",
                )
            )


def single(args, only, out: list[Row]) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bl-attacks-") as tmp:
        log("one process: starting streamlit run serve.py")
        app = AppProcess(Path(tmp))
        t = None
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                try:
                    log("one process: the teacher's Chromium page opens a class (Teach a class)")
                    base = f"http://127.0.0.1:{app.port}"
                    _, teacher, code, key, _, refusal = open_class_page(
                        browser, base, None, "/topdown?present=true"
                    )
                    if not code:
                        raise RuntimeError(f"the teacher could not open a class: {refusal}")
                    teacher.keyboard.press("Escape")
                    teacher.get_by_role("dialog").wait_for(state="detached", timeout=10_000)
                    teacher.locator("h1").first.click()
                    teacher.keyboard.press("Home")
                    teacher.keyboard.press("ArrowRight")
                    teacher.get_by_text("Predict, then reveal", exact=True).first.click()
                    teacher.wait_for_selector(".bl-quiz", timeout=60_000)
                    t = Target(
                        "one process", app.port, code, key,
                        pids=lambda: [app.proc.pid],
                        log_bytes=lambda: app.log.stat().st_size,
                        args=args, browser=browser,
                    )  # fmt: skip
                    log(f"one process: class {code}; a watcher stream and 3 real students follow")
                    t.watcher = aio(Follower(app.port, code, None, student=False).start())
                    got = aio(until(lambda: bool(t.state.get("question")), 30))
                    log(f"one process: the question opened after {got:.1f} s")
                    if got != got:
                        raise RuntimeError(
                            "the class's question did not open (Predict, then reveal)"
                        )
                    t.followers = aio(follow_crowd(t, 3))
                    run_rows(t, SINGLE_ROWS, only, out)
                finally:
                    if t is not None:
                        close_all([t.watcher, *t.followers])
                    log("one process: closing Chromium")
                    browser.close()
        finally:
            log("one process: stopping the server")
            app.stop()
            log("one process: stopped")


def hall_part(args, only, out: list[Row]) -> None:
    from hall import Hall, free_port

    import server.store as cs
    from server.redis_store import RedisStore

    folder = Path(tempfile.mkdtemp(prefix="bl-attacks-hall-"))
    hall = Hall(replicas=2, port=free_port(), address="127.0.0.1", folder=folder)
    log(f"the hall: starting Redis, 2 app processes and HAProxy in {folder}")
    hall.start()
    store = None
    t = None
    try:
        store = RedisStore(hall.redis_url)
        key = cs.new_key()
        code = cs.run(store.open(key, "topdown", {}, 0))
        cs.run(store.ask(code, key, cs.Question("bench-q0", ("A", "B", "C", "D"))))

        def app_logs() -> int:
            return sum(p.log.stat().st_size for p in hall.pieces if p.name.startswith("app"))

        t = Target(
            "hall", hall.port, code, key,
            pids=lambda: [hall.piece(f"app{i + 1}").proc.pid for i in range(2)],
            log_bytes=app_logs, args=args, extra={"hall": hall, "store": store}, leave_wait=0,
        )  # fmt: skip
        log(f"the hall: class {code}; a watcher stream and 3 real students follow")
        t.watcher = aio(Follower(hall.port, code, None, student=False).start())
        t.followers = aio(follow_crowd(t, 3))
        run_rows(t, HALL_ROWS, only, out)
    finally:
        if t is not None:
            close_all([t.watcher, *t.followers])
        for piece in list(hall.pieces):  # a stopped process would not hear SIGTERM
            with contextlib.suppress(OSError):
                os.kill(piece.proc.pid, signal.SIGCONT)
        if store is not None:
            store.close()
        hall.stop()
        log("the hall: stopped")


def tree_state() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--short", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.split("\n")
    except OSError:
        return "?"
    files = [line[3:] for line in dirty if line.strip()]
    return f"commit {head}" + (
        f", with uncommitted changes in {', '.join(f'`{f}`' for f in files)}" if files else ""
    )


def table(rows: list[Row]) -> str:
    esc = lambda s: s.replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = [
        "| attack | budget (the limit that applies) | what the attacker got "
        "| what a real student and the teacher still get |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {esc(r.attack)} | {esc(r.budget)} | {esc(r.attacker)} | {esc(r.kept)} |" for r in rows
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller counts and shorter waits")
    ap.add_argument(
        "--only",
        default="",
        help="row ids, comma-separated (1-9, 5b, 11, h2, h3, h4, h7, h11, h10k, h10s)",
    )
    ap.add_argument("--no-hall", action="store_true", help="skip the hall")
    ap.add_argument("--no-single", action="store_true", help="skip the single process")
    ap.add_argument(
        "--out", type=Path, default=RESULTS, help=f"the Markdown file ({RESULTS.relative_to(ROOT)})"
    )
    args = ap.parse_args(argv)
    only = {x.strip() for x in args.only.split(",") if x.strip()} or None
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):  # the clients hold ~1,300 connections
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    load0 = os.getloadavg()
    rows: list[Row] = []
    ac.NET = ac.Net()
    try:
        if not args.no_single and (not only or only & {r for r, _ in SINGLE_ROWS}):
            single(args, only, rows)
        if not args.no_hall and (not only or only & {r for r, _ in HALL_ROWS}):
            hall_part(args, only, rows)
    finally:
        ac.NET.close()
    took = time.monotonic() - ac.T_START
    load1 = os.getloadavg()
    text = table(rows)
    command = (
        "bench_attacks.py"
        + (" --quick" if args.quick else "")
        + (f" --only {args.only}" if only else "")
        + (" --no-hall" if args.no_hall else "")
        + (" --no-single" if args.no_single else "")
    )
    note = (
        f"`.venv/bin/python benchmarks/{command}`: loopback only, {os.cpu_count()} CPUs, took "
        f"{took / 60:.1f} min; load average {load0[0]:.1f} before, {load1[0]:.1f} after (other "
        f"jobs share the machine). Measured on {tree_state()}. One process = `streamlit run "
        f"serve.py` (in-memory class store); the hall = `scripts/hall.py`'s Hall: Redis, 2 app "
        f"processes, HAProxy. Attackers pose as 203.0.113.x, real students as 198.51.100.x "
        f"(`X-Forwarded-For`, believed from loopback). A probe = health check, a page load "
        f"(/topdown over Streamlit's websocket: connect → script finished), a new student "
        f"joining, following and answering, the teacher's step (`POST …/round`) until the "
        f"student's stream shows it."
    )
    print(text)
    print()
    print(note)
    if not only and not args.no_hall and not args.no_single:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            "# Issue 40's attacks, replayed (`benchmarks/bench_attacks.py`)\n\n"
            + text
            + "\n\n"
            + note
            + "\n"
        )
        log(f"written to {args.out}")
    return 0 if all("the benchmark failed" not in r.attacker for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
