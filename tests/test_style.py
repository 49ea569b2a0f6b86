"""The code is formatted by ``ruff format`` and passes ``ruff check`` (issue 15: one style).

Run ``make lint`` to see the findings, ``.venv/bin/ruff format .`` to fix the formatting.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_format_leaves_every_file_unchanged():
    out = _ruff("format", "--check", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_check_finds_nothing():
    out = _ruff("check", ".")
    assert out.returncode == 0, out.stdout + out.stderr
