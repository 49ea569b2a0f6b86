"""Run the benchmark scripts and write what they print into docs/benchmarks.md.

Usage: ``.venv/bin/python scripts/readme_bench.py [name ...]`` (``make bench`` runs it for all).
Each script's standard output replaces the block between ``<!-- bench:NAME -->`` and
``<!-- /bench:NAME -->`` in docs/benchmarks.md (the README's Speed section until issue 42,
item 6, hence the script's name), so the tables there are what the scripts printed, never
typed in. Names: topdown, app, branching, probabilistic, oblique, browser_step, exact_search,
lecture_layout, access, class, teach, hall.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the file whose blocks the scripts' output replaces
TARGET = ROOT / "docs" / "benchmarks.md"
NAMES = (
    "topdown",
    "app",
    "branching",
    "probabilistic",
    "oblique",
    "browser_step",
    "exact_search",
    "lecture_layout",
    "access",
    "class",
    "teach",
    "hall",
    "lecture",
)


def block(name: str) -> re.Pattern:
    """The block of :data:`TARGET` a script's output goes into (markers included)."""
    return re.compile(rf"(<!-- bench:{name} -->\n)(.*?)(<!-- /bench:{name} -->)", re.S)


def splice(text: str, name: str, output: str) -> str:
    """``text`` with the block ``name`` replaced by ``output`` (a ValueError if it is missing:
    a file without the block must not silently drop a benchmark)."""
    pattern = block(name)
    if not pattern.search(text):
        where = TARGET.relative_to(ROOT)
        raise ValueError(f"{where} has no block <!-- bench:{name} --> … <!-- /bench:{name} -->")
    body = output.strip() + "\n"
    return pattern.sub(lambda m: m.group(1) + body + m.group(3), text, count=1)


def run(name: str) -> str:
    """What ``benchmarks/bench_NAME.py`` prints on standard output (it must succeed)."""
    script = ROOT / "benchmarks" / f"bench_{name}.py"
    print(f"running {script.relative_to(ROOT)} …", file=sys.stderr, flush=True)
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"{script.name} failed with exit code {done.returncode}")
    return done.stdout


def main(argv: list[str]) -> int:
    names = argv or list(NAMES)
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        raise SystemExit(f"unknown benchmark(s) {unknown}; choose from {', '.join(NAMES)}")
    for name in names:
        output = run(name)
        TARGET.write_text(splice(TARGET.read_text("utf-8"), name, output), "utf-8")
        print(f"{TARGET.relative_to(ROOT)}: bench:{name} updated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
