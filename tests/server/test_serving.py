"""How the app is served (issue 16, item 5): `make run` binds this machine only, `make serve`
every interface; the Docker base image is pinned by version; the docs say so."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _make_dry_run(target: str, *args: str) -> str:
    out = subprocess.run(
        ["make", "-n", "-W", ".venv/.runtime", target, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return next(ln for ln in out.stdout.splitlines() if "streamlit run" in ln)


def test_make_run_listens_on_this_machine_only() -> None:
    assert "--server.address 127.0.0.1" in _make_dry_run("run")
    assert "--server.address 0.0.0.0" in _make_dry_run("run", "ADDRESS=0.0.0.0")
    assert "--server.address 0.0.0.0" in _make_dry_run("serve")


def test_docker_base_image_is_pinned_by_version() -> None:
    line = next(
        ln for ln in (ROOT / "Dockerfile").read_text("utf-8").splitlines() if ln.startswith("FROM ")
    )
    assert re.fullmatch(r"FROM python:\d+\.\d+\.\d+-slim-\w+(@sha256:[0-9a-f]{64})?", line), line


def test_docs_state_the_bindings() -> None:
    doc = (ROOT / "docs" / "classroom-server.md").read_text("utf-8")
    assert "`make run` listens on this machine only (`--server.address 127.0.0.1`)" in doc
    assert "localhost only" not in doc
