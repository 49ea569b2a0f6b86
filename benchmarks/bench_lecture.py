"""A scripted 45-minute lecture with a class of three (issue 39): the home page's lecture path
in presenter mode, a laptop and two phones following.

    .venv/bin/python benchmarks/bench_lecture.py [--steps 3]

One server (``load_check.Server``, 127.0.0.1, a free port). The teacher (Chromium, 1920×1080,
``?present=true``) opens the home page, opens a class with *Teach a class* and then follows
the lecture path: each step's button on the home page, then back (the home page opened
again: the tab takes its class up again). On each
lesson page the teacher steps ``--steps`` times with ▶, turns *Predict, then reveal* on and
off and, where the page has it, *You are the weak learner* on and off; on /topdown the class
pools a split (*Class splits*, each student sends one, *Use the class's best split*). Last,
*End class*.

The students: a laptop (1600×1000) and two phones (390×844, touch) on the students' link.
Measured for each student:

* **page loads** at each of the teacher's page changes (a script that runs at every page
  load counts them; one is right, more is a reload loop) and the seconds from the teacher's
  click to the student's views drawn on the teacher's page and parameters;
* **press → drawn** on the phones for every step (the teacher's click's wall clock to the
  phone's stepper showing the round with every view drawn);
* **toggles**: each of the teacher's toggles arrives on every student (a toggle that has not
  arrived in 60 s is lost) and the seconds it took.

It prints one table per part and a summary line. Not a timed test: a benchmark (minutes).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))
import bench_teach as bt  # noqa: E402  (the phones' drawing log)
import load_check as lc  # noqa: E402  (the server)

from ui import pages  # noqa: E402  (the lecture path, as the home page lists it)

LECTURE = ".st-key-view-curves .bl-view[data-drawn]"
FOLLOWING = ".st-key-class-follow [data-following=true]"
#: Runs at every page load of a student's tab: its loads, in sessionStorage.
LOADS = """(() => { try {
  const a = JSON.parse(sessionStorage.getItem('bl-loads') || '[]');
  a.push(Date.now()); sessionStorage.setItem('bl-loads', JSON.stringify(a));
} catch (e) {} })();"""


def path_steps() -> list[tuple[str, str]]:
    """The lecture path's links in time order: ``(page slug, preset)``."""
    steps = sorted(
        ((p, s) for p in pages.PAGES for s in p.lecture_path if s.preset),
        key=lambda ps: ps[1].start,
    )
    return [(p.slug, s.preset) for p, s in steps]


def wait(condition, seconds: float) -> float | None:
    """Seconds until ``condition()`` held, or None after ``seconds``."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        try:
            if condition():
                return time.monotonic() - t0
        except Exception:  # noqa: BLE001  (a page navigating)
            pass
        time.sleep(0.05)
    return None


def loads(page) -> int:
    """The page loads of a student's tab so far. Read again while the tab is navigating (a
    read that failed then counted -1, and the next step's loads one too many plus all the
    earlier ones: 5 and 7 'loads' for a student who had followed the teacher home)."""
    got = None

    def read() -> bool:
        nonlocal got
        got = len(json.loads(page.evaluate("sessionStorage.getItem('bl-loads') || '[]'")))
        return True

    if wait(read, 20) is None:
        raise RuntimeError(f"the loads of {page.url} could not be read for 20 s")
    return got


def settle(page) -> None:
    sys.path.insert(0, str(BENCH.parent / "tests"))
    from tests.browser.test_browser import settle as settled

    settled(page)


def on(page, slug: str) -> bool:
    return f"/{slug}" in page.evaluate("location.pathname") and (
        page.locator(FOLLOWING).count() == 1
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=3, help="the teacher's ▶ per page (3)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    moves: list[list[str]] = []  # page changes: step, page, loads per student, seconds
    toggles: list[list[str]] = []
    drawn: list[float] = []
    undrawn = lost = loops = 0
    t_start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, lc.Server(Path(tmp) / "calls.jsonl") as server:
        base = server.base
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=bt.CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            teacher = browser.new_page(viewport={"width": 1920, "height": 1080})
            teacher.goto(base + "/?present=true")
            teacher.get_by_role("button", name="Teach a class").click()
            teacher.wait_for_selector(".st-key-class-code", timeout=60_000)
            code = re.search(r"([A-Z0-9]{6})", teacher.locator(".st-key-class-code").inner_text())
            code = code.group(1)
            teacher.keyboard.press("Escape")
            teacher.wait_for_selector("[role=dialog]", state="detached", timeout=10_000)
            bt.log(f"class {code}")
            kinds = [
                ("laptop", {"viewport": {"width": 1600, "height": 1000}}),
                ("phone 1", {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                             "has_touch": True}),
                ("phone 2", {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                             "has_touch": True}),
            ]  # fmt: skip
            students = []
            for _, kw in kinds:
                page = browser.new_page(**kw)
                page.add_init_script(LOADS)
                page.add_init_script(bt.DRAWN_LOG)
                page.goto(f"{base}/?class={code}")
                page.wait_for_selector(FOLLOWING, timeout=120_000)
                students.append(page)
            phones = students[1:]
            for i, (slug, preset) in enumerate(path_steps()):
                spec = pages.page(slug)
                # the students on the teacher's page (the home page) before the next click:
                # a load still under way would count in the step's loads
                for s in students:
                    wait(lambda s=s: s.evaluate("location.pathname") == "/" and on(s, ""), 30)
                before = [loads(s) for s in students]
                t0 = time.monotonic()
                teacher.locator(f".st-key-lecture_{slug}_{preset} button").first.click()
                teacher.wait_for_function(
                    "s => location.pathname.endsWith(s)", arg=f"/{slug}", timeout=60_000
                )
                settle(teacher)
                lecture = spec.has("lecture")
                if lecture:  # the teacher's own page drawn: what the students wait for first
                    teacher.wait_for_selector(LECTURE, timeout=60_000)
                ready = time.monotonic() - t0
                times = []
                for s in students:
                    took = wait(
                        lambda s=s, slug=slug, lecture=lecture: (
                            on(s, slug) and (not lecture or s.locator(LECTURE).count() == 1)
                        ),
                        60,
                    )
                    times.append(time.monotonic() - t0 if took is not None else float("nan"))
                n = [loads(s) - b for s, b in zip(students, before)]
                loops += sum(x > 1 for x in n)
                bt.log(
                    f"step {i + 1}: /{slug} ({preset}): loads {n}, teacher ready after "
                    f"{ready:.1f} s, students drawn after {times}"
                )
                moves.append(
                    [str(i + 1), f"/{slug}?preset={preset}", " / ".join(map(str, n)),
                     f"{ready:.1f}", " / ".join(f"{t:.1f}" for t in times),
                     " / ".join(f"{t - ready:.1f}" for t in times)]
                )  # fmt: skip
                if lecture:
                    teacher.locator("h1").first.click()
                    for _ in range(args.steps):
                        t = int(teacher.locator(".bl-stepper").first.get_attribute("data-round"))
                        hi = int(teacher.locator(".bl-range").first.get_attribute("max"))
                        if t >= hi:
                            break
                        pressed = time.time()
                        teacher.get_by_role("button", name="next round").click()
                        for p in phones:
                            ok = wait(
                                lambda p=p, t=t: any(
                                    r == t + 1 for r, _ in p.evaluate("window.__blDrawn")
                                ),
                                20,
                            )
                            if ok is None:
                                undrawn += 1
                                continue
                            at = [ms for r, ms in p.evaluate("window.__blDrawn") if r == t + 1]
                            drawn.append(at[-1] / 1000 - pressed)
                    labels = ["Predict, then reveal"]
                    if spec.has("student"):
                        labels.append("You are the weak learner")
                    for label in labels:
                        for state in (True, False):
                            probe = (
                                ".bl-quiz" if label.startswith("Predict")
                                else f".st-key-weak_{slug}_box"
                            )  # fmt: skip
                            t0 = time.monotonic()
                            teacher.get_by_text(label, exact=True).first.click()
                            got = [
                                wait(
                                    lambda s=s, probe=probe, state=state: (
                                        (s.locator(probe).count() > 0) == state
                                    ),
                                    60,
                                )
                                for s in students
                            ]
                            lost += sum(g is None for g in got)
                            bt.log(f"  {label} {'on' if state else 'off'}: {got}")
                            toggles.append(
                                [f"/{slug}", f"{label} {'on' if state else 'off'}",
                                 " / ".join("lost" if g is None else f"{g:.1f}" for g in got)]
                            )  # fmt: skip
                            settle(teacher)
                            if slug == "topdown" and label.startswith("You are") and state:
                                toggles.append(
                                    [f"/{slug}", "a pooled split", pool(teacher, students)]
                                )
                # back to the lecture path: the home page opened again (presenter mode hides
                # the navigation; the tab takes its class up again)
                teacher.goto(base + "/?present=true")
                teacher.wait_for_selector('[class*="st-key-lecture_"] button', timeout=60_000)
                settle(teacher)
            # End class
            teacher.get_by_role("button", name="End class").click()
            teacher.get_by_role("button", name="End the class now").click()
            ended = [
                wait(lambda s=s: "has ended" in s.locator(".st-key-class-follow").inner_text(), 30)
                for s in students
            ]
            for name, s, e in zip(("laptop", "phone 1", "phone 2"), students, ended):
                if e is None:  # what that student's page showed instead
                    try:
                        shown = s.locator(".st-key-class-follow").inner_text()[:200]
                    except Exception as exc:  # noqa: BLE001
                        shown = f"(no class banner: {exc})"
                    print(f"  End class not told to the {name}: {shown!r} at {s.url}")
            browser.close()
    total = time.monotonic() - t_start
    print("Page changes (the teacher's click on the lecture path → each student drawn):\n")
    print(
        "| step | link | loads per student (laptop / phone / phone) | teacher's page drawn "
        "(s) | students drawn (s) | students after the teacher (s) |"
    )
    print("|---:|---|---|---:|---|---|")
    for row in moves:
        print("| " + " | ".join(row) + " |")
    print("\nToggles (the teacher's click → shown on each student, s):\n")
    print("| page | toggle | laptop / phone / phone |")
    print("|---|---|---|")
    for row in toggles:
        print("| " + " | ".join(row) + " |")
    print(
        f"\nPress → drawn on the phones ({len(drawn)} steps × phones): "
        f"p50 {1000 * bt.pct(drawn, 0.5):.0f} ms, p95 {1000 * bt.pct(drawn, 0.95):.0f} ms, "
        f"max {1000 * max(drawn or [float('nan')]):.0f} ms; not drawn: {undrawn}"
    )
    print(
        f"Reload loops: {loops}; lost toggles: {lost}; End class told: "
        f"{sum(e is not None for e in ended)} of {len(ended)} ("
        + ", ".join("—" if e is None else f"{e:.1f} s" for e in ended)
        + f"); the whole script: {total:.0f} s"
    )
    return 0 if loops == 0 and lost == 0 and undrawn == 0 else 1


def pool(teacher, students) -> str:
    """The class pools a split on /topdown: Class splits on, each student sends its split,
    the projector counts them, Use the class's best split; returns what happened."""
    teacher.get_by_text("Class splits", exact=True).first.click()
    settle(teacher)
    sent = 0
    for s in students:
        send = s.get_by_role("button", name="Send my split to the class")
        if wait(lambda send=send: send.count() > 0 and send.first.is_visible(), 60) is None:
            continue
        send.first.click()
        if wait(lambda s=s: s.get_by_text("Sent.").count() > 0, 30) is not None:
            sent += 1
    panel = teacher.locator(".st-key-weak_topdown_class")
    counted = wait(lambda: f"Class splits: {sent}" in panel.inner_text(), 30)
    teacher.get_by_role("button", name="Use the class's best split").click()
    settle(teacher)
    return f"{sent} of {len(students)} sent; counted on the projector: {counted is not None}"


if __name__ == "__main__":
    raise SystemExit(main())
