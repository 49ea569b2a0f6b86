"""A lecture hall of 300 (issue 29): several app processes behind HAProxy, the class on Redis.

    .venv/bin/python benchmarks/bench_hall.py [--replicas 4] [--followers 300] [--sessions 30]

Loopback only, bounded in count and time. For each hall size (``--replicas``, then 1 for the
ratio) ``scripts/hall.py``'s :class:`Hall` starts Debian's ``redis-server``, the app processes
(``streamlit run serve.py`` with ``BOOSTLAB_REDIS_URL``) and ``haproxy`` in front, on
127.0.0.1 and free ports. Then:

* a class is opened on /topdown (the store on the hall's Redis, as a teacher's page does);
* ``--followers`` lightweight followers hold the class's event stream through HAProxy
  (``benchmarks/bench_teach.Followers``: what a follower's page does), spread over the
  processes by HAProxy (least connections);
* ``--sessions`` full Streamlit sessions open the students' link at once through HAProxy
  (websocket clients speaking Streamlit's protocol, ``load_check.open_session``): page-load
  time = connect → ``script_finished``;
* the teacher steps ``--steps`` times, 0.5 s apart: ``POST /api/class/<code>/round`` with the
  teacher key through HAProxy, as the teacher's page does; latency = a follower's receipt of
  the round − the moment before the POST (one machine, one clock);
* RSS of each app process (``/proc``) and Redis's ``used_memory``.

Then, on the larger hall, the faults, each with its recovery time:

* one app process killed (SIGKILL): until a browser whose cookie names it is served by
  another process (HAProxy's health check and redispatch), and until a new page load through
  HAProxy finishes; the followers it held lose their stream (a page's EventSource reconnects
  by itself; these clients do not) and the others still receive the next step;
* one app process stopped (SIGSTOP): until HAProxy takes it out of the rotation; continued
  (SIGCONT): until it is back;
* Redis killed (the hall starts it again from its append-only file): until the teacher's next
  step is accepted and reaches the followers.

Prints markdown tables (docs/benchmarks.md, ``bench:hall``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))
import load_check as lc  # noqa: E402
from bench_teach import Followers  # noqa: E402
from hall import Hall, free_port  # noqa: E402

import server.store as cs  # noqa: E402

STEP_GAP = 0.5


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else float("nan")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def post_round(url: str, code: str, key: str, t: int, timeout: float = 10) -> int:
    req = urllib.request.Request(
        f"{url}/api/class/{code}/round",
        data=json.dumps({"key": key, "round": t}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


def served_by(url: str, cookie: str) -> str:
    req = urllib.request.Request(url + "/_stcore/health", headers={"Cookie": cookie})
    try:
        with urllib.request.urlopen(req, timeout=2) as r:
            return r.headers.get("X-Boostlab-Server", "")
    except OSError:
        return ""


def until(condition, timeout: float, hall: Hall | None = None) -> float:
    """Seconds until ``condition()`` holds (polled every 50 ms; the hall supervised
    meanwhile); ``nan`` when it did not within ``timeout``."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if hall is not None:
            hall.supervise()
        if condition():
            return time.monotonic() - t0
        time.sleep(0.05)
    return float("nan")


async def _page_loads(port: int, n: int) -> list[lc.SessionResult]:
    spec = lc.PageSpec("topdown", "", "Top-down growth", "x")

    async def one():
        res, ws = await lc.open_session(port, spec, "", timeout=180)
        return res, ws

    got = await asyncio.gather(*(one() for _ in range(n)))
    for _, ws in got:
        if ws is not None:
            await ws.close()
    return [r for r, _ in got]


def steps(url: str, code: str, key: str, crowd: Followers, n: int) -> dict:
    """The teacher steps ``n`` times; latency from each POST to each follower's receipt."""
    pressed = []
    for i in range(n):
        t = 1 + i % 15
        t0 = time.time()
        status = post_round(url, code, key, t)
        if status != 200:
            raise RuntimeError(f"the teacher's step was refused: HTTP {status}")
        pressed.append((t, t0))
        time.sleep(STEP_GAP)
    time.sleep(1.0)
    lat, missed = [], 0
    for k, (t, t0) in enumerate(pressed):
        nxt = pressed[k + 1][1] if k + 1 < len(pressed) else float("inf")
        for seen in crowd.seen:
            got = [ts for ts, r in seen if r == t and t0 <= ts < nxt + 5]
            if got:
                lat.append((got[0] - t0) * 1000)
            else:
                missed += 1
    return {"lat": lat, "missed": missed}


def measure(replicas: int, args) -> dict:
    folder = Path(tempfile.mkdtemp(prefix=f"bl-hall-{replicas}-"))
    hall = Hall(replicas=replicas, port=free_port(), address="127.0.0.1", folder=folder)
    log(f"hall of {replicas}: starting in {folder}")
    t0 = time.monotonic()
    hall.start()
    started = time.monotonic() - t0
    from server.redis_store import RedisStore

    store = RedisStore(hall.redis_url)
    key = cs.new_key()
    code = cs.run(store.open(key, "topdown", {}, 0))
    out: dict = {"replicas": replicas, "started": started, "faults": {}}
    crowd = Followers(hall.port, code, args.followers)
    try:
        until(lambda: crowd.connected + len(crowd.errors) >= args.followers, 60)
        out["connected"] = crowd.connected
        out["spread"] = {s: crowd.servers.count(s) for s in sorted(set(crowd.servers))}
        log(f"{crowd.connected} followers: {out['spread']}")
        results = asyncio.run(_page_loads(hall.port, args.sessions))
        ok = [r.latency for r in results if r.ok]
        out["loads"] = ok
        out["load_errors"] = [r.error for r in results if not r.ok][:3]
        log(f"{len(ok)} of {args.sessions} page loads, median {statistics.median(ok):.2f} s")
        out["steps"] = steps(hall.url, code, key, crowd, args.steps)
        out["rss"] = [rss_mib(hall.piece(f"app{i + 1}").proc.pid) for i in range(replicas)]
        info = cs.run(_redis_memory(hall.redis_url))
        out["redis_mib"] = info
        if args.faults and replicas > 1:
            out["faults"] = faults(hall, store, code, key, crowd)
    finally:
        crowd.close()
        store.close()
        hall.stop()
    return out


async def _redis_memory(url: str) -> float:
    import redis.asyncio as aioredis

    r = aioredis.Redis.from_url(url)
    try:
        return int((await r.info("memory"))["used_memory"]) / 2**20
    finally:
        await r.aclose()


def faults(hall: Hall, store, code: str, key: str, crowd: Followers) -> dict:
    url, out = hall.url, {}
    # 1. an app process killed
    victim = "app1"
    held = crowd.servers.count(victim)
    before = [len(s) for s in crowd.seen]
    os.kill(hall.piece(victim).proc.pid, signal.SIGKILL)
    t0 = time.monotonic()
    redispatched = until(lambda: served_by(url, f"BLSRV={victim}") not in ("", victim), 60)
    loads = asyncio.run(_page_loads(hall.port, 1))
    page = time.monotonic() - t0 if loads and loads[0].ok else float("nan")
    post_round(url, code, key, 14)
    time.sleep(1.0)
    reached = sum(
        1
        for i, s in enumerate(crowd.seen)
        if crowd.servers[i] != victim and any(r == 14 for _, r in s[before[i] :])
    )
    others = sum(1 for s in crowd.servers if s != victim)
    out["kill"] = {
        "held": held,
        "redispatched": redispatched,
        "page": page,
        "reached": f"{reached} of {others}",
    }
    back = until(lambda: served_by(url, f"BLSRV={victim}") == victim, 120, hall)
    out["kill"]["back"] = back
    log(f"kill: {out['kill']}")
    # 2. an app process that stops answering
    victim = "app2"
    pid = hall.piece(victim).proc.pid
    os.kill(pid, signal.SIGSTOP)
    out_of = until(lambda: served_by(url, f"BLSRV={victim}") not in ("", victim), 60)
    os.kill(pid, signal.SIGCONT)
    back_in = until(lambda: served_by(url, f"BLSRV={victim}") == victim, 60)
    out["stop"] = {"out": out_of, "back": back_in}
    log(f"stop: {out['stop']}")
    # 3. Redis killed; the hall starts it again from its append-only file
    before = [len(s) for s in crowd.seen]
    os.kill(hall.piece("redis").proc.pid, signal.SIGKILL)
    t0 = time.monotonic()
    accepted = until(lambda: post_round(url, code, key, 15, timeout=3) == 200, 60, hall)
    reach = until(
        lambda: any(any(r == 15 for _, r in s[before[i] :]) for i, s in enumerate(crowd.seen)),
        30,
    )
    out["redis"] = {"accepted": accepted, "reached": accepted + reach}
    log(f"redis: {out['redis']}")
    return out


def fmt(x: float, digits: int = 2) -> str:
    return "—" if x != x else f"{x:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replicas", type=int, default=4, help="app processes (4)")
    ap.add_argument("--followers", type=int, default=300, help="event-stream followers (300)")
    ap.add_argument("--sessions", type=int, default=30, help="full Streamlit sessions (30)")
    ap.add_argument("--steps", type=int, default=30, help="the teacher's steps (30)")
    ap.add_argument("--no-faults", dest="faults", action="store_false", help="skip the faults")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    t_all = time.monotonic()
    runs = [measure(args.replicas, args), measure(1, args)]
    load1 = os.getloadavg()
    print(
        "| app processes | followers connected (per process) | page loads: median / p95 (s) "
        "| step → follower: p50 / p95 (ms) | steps missed | RSS per process (MiB) "
        "| Redis memory (MiB) | hall started in (s) |"
    )
    print("|---:|---|---:|---:|---:|---|---:|---:|")
    for r in runs:
        lat = r["steps"]["lat"]
        loads = r["loads"]
        spread = ", ".join(str(v) for v in r["spread"].values())
        print(
            f"| {r['replicas']} | {r['connected']} ({spread}) | "
            f"{fmt(statistics.median(loads))} / {fmt(pct(loads, 0.95))} | "
            f"{fmt(pct(lat, 0.5), 0)} / {fmt(pct(lat, 0.95), 0)} | {r['steps']['missed']} | "
            f"{', '.join(f'{x:.0f}' for x in r['rss'])} | {fmt(r['redis_mib'], 1)} | "
            f"{fmt(r['started'], 1)} |"
        )
    big, one = runs
    print()
    print(
        f"Ratio {big['replicas']} processes / 1: page-load median "
        f"{fmt(statistics.median(big['loads']) / statistics.median(one['loads']))}×, "
        f"step p95 {fmt(pct(big['steps']['lat'], 0.95) / pct(one['steps']['lat'], 0.95))}×."
    )
    f = big["faults"]
    if f:
        print()
        print("| fault | recovery |")
        print("|---|---|")
        k = f["kill"]
        print(
            f"| an app process killed (it held {k['held']} followers) | a browser of it is "
            f"served by another after {fmt(k['redispatched'])} s; a page load through HAProxy "
            f"done {fmt(k['page'])} s after the kill; the next step reached {k['reached']} "
            f"followers of the other processes; the hall had it back after {fmt(k['back'], 1)} s |"
        )
        s = f["stop"]
        print(
            f"| an app process stopped (SIGSTOP) | out of HAProxy's rotation after "
            f"{fmt(s['out'])} s; back {fmt(s['back'])} s after SIGCONT |"
        )
        rd = f["redis"]
        print(
            f"| Redis killed (restarted by the hall from its append-only file) | the teacher's "
            f"step accepted again after {fmt(rd['accepted'])} s, at a follower after "
            f"{fmt(rd['reached'])} s |"
        )
    print()
    print(
        f"Loopback, one machine ({os.cpu_count()} CPUs): `scripts/hall.py`'s Hall (Debian's "
        f"redis-server and haproxy, `streamlit run serve.py` ×N); {args.followers} event-stream "
        f"followers and {args.sessions} full Streamlit sessions of /topdown through HAProxy; "
        f"{args.steps} steps 0.5 s apart. Load average before {load0[0]:.2f}, after "
        f"{load1[0]:.2f}; took {(time.monotonic() - t_all) / 60:.1f} min."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
