"""Screenshot every page in presenter mode for the home page's thumbnails.

Usage: ``.venv/bin/python scripts/make_thumbnails.py`` (starts the app on a free loopback
port, drives Debian's ``/usr/bin/chromium`` with Playwright, writes
``assets/thumbnails/<page>.png`` at 480 px wide). Re-run it after a visible change to a page.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "assets" / "thumbnails"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

#: page → the URL query shown in its thumbnail (a preset, in presenter mode).
SHOTS = {
    "topdown": "preset=multiway&round=1",
    "game": "preset=worst_case&round=6",
    "branching": "preset=merge_all&round=6",
    "matryoshka": "preset=chain_wins&round=64",
    "oblique": "preset=diag_xor&round=3",
    "benchmark": "preset=odt_vs_oc1",
    "bounds": "preset=chain_vs_tree",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _settle(page) -> None:
    """Wait until Streamlit has stopped running the script and drawing."""
    time.sleep(2.0)
    for _ in range(120):
        if not page.locator("[data-testid='stStatusWidget']").count():
            break
        time.sleep(0.5)
    time.sleep(2.5)


def main() -> int:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.5)
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for name, query in SHOTS.items():
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(f"{base}/{name}?present=true&{query}")
                page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
                _settle(page)
                # show the pictures, not the header: scroll the first chart to the top
                page.evaluate("""() => {
                  const el = document.querySelector(
                    "[data-testid='stPlotlyChart'], [data-testid='stGraphVizChart']");
                  const main = document.querySelector("[data-testid='stMain']");
                  if (el && main) main.scrollTop += el.getBoundingClientRect().top - 230;
                }""")
                time.sleep(1.5)
                raw = OUT / f"{name}_full.png"
                page.screenshot(path=str(raw))
                page.close()
                with Image.open(raw) as im:
                    im.thumbnail((480, 480))
                    im.save(OUT / f"{name}.png", optimize=True)
                raw.unlink()
                print(f"wrote {OUT / name}.png")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
