"""The README says what the repository holds (issue 15, item 8)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _code_map() -> str:
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## How the code is arranged", 1)[1]
    return section.split("```", 2)[1]


def test_code_map_lists_every_module() -> None:
    code_map = _code_map()
    missing = []
    for folder in ("ui", "boostcore", "views"):
        for path in sorted((ROOT / folder).glob("*.py")):
            if path.name == "__init__.py":
                continue
            if path.name not in code_map and path.stem not in code_map:
                missing.append(f"{folder}/{path.name}")
    assert not missing, missing
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        if path.name.startswith(("run_", "load_")) or path.stem in code_map:
            continue
        # the bench_* scripts are named with their tables in the Speed section
        assert path.name in (ROOT / "README.md").read_text("utf-8"), path.name
