"""The docs say what the repository holds (issue 15, item 8): the code map of
docs/development.md names every module, and docs/benchmarks.md has a block for every benchmark
``make bench`` runs (the README points to both since issue 42, item 6)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: where "How the code is arranged" lives, and where ``make bench`` writes its tables
DEVELOPMENT = ROOT / "docs" / "development.md"
BENCHMARKS = ROOT / "docs" / "benchmarks.md"


def _code_map() -> str:
    text = DEVELOPMENT.read_text("utf-8")
    section = text.split("## How the code is arranged", 1)[1]
    return section.split("```", 2)[1]


def test_code_map_lists_every_module() -> None:
    """Every module of ui/, boostcore/ and views/ is named in the code map, subfolders too: a
    lesson's parts by their shared names (runs.py, frames.py, …), its folder by its slug, and
    the registry as pages/__init__.py."""
    code_map = _code_map()
    missing = []
    for folder in ("ui", "boostcore", "views"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            inner = path.relative_to(ROOT / folder)
            if path.name == "__init__.py" and inner != Path("pages/__init__.py"):
                continue
            # the file's own name, not a longer one ending in it (svgtree.py is not tree.py);
            # pages are listed by their names ("one file per page (home, topdown, …)")
            name = path.stem if folder == "views" else path.name
            if inner == Path("pages/__init__.py"):
                name = "pages/__init__.py"
            if not re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", code_map):
                missing.append(f"{folder}/{inner}")
            if len(inner.parts) == 3 and inner.parts[1] not in code_map:  # pages/<slug>/x.py
                missing.append(f"{folder}/{inner.parent}/")
    assert not missing, missing
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        if path.name.startswith(("run_", "load_")) or path.stem in code_map:
            continue
        # the bench_* scripts are named with their tables in docs/benchmarks.md
        assert path.name in BENCHMARKS.read_text("utf-8"), path.name


def test_benchmarks_doc_has_a_block_for_every_benchmark_and_splice_replaces_it() -> None:
    """``make bench`` writes each script's output into its block of docs/benchmarks.md (issue 15,
    item 8; the README's until issue 42, item 6)."""
    import importlib.util

    import pytest

    spec = importlib.util.spec_from_file_location(
        "readme_bench", ROOT / "scripts" / "readme_bench.py"
    )
    rb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rb)
    assert rb.TARGET == BENCHMARKS
    text = BENCHMARKS.read_text("utf-8")
    for name in rb.NAMES:
        assert rb.block(name).search(text), name
        assert (ROOT / "benchmarks" / f"bench_{name}.py").exists()
    new = rb.splice(text, "branching", "| a | b |\n|---|---|\n| 1 | 2 |\n")
    want = "<!-- bench:branching -->\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- /bench:branching -->"
    assert want in new
    assert rb.splice(new, "branching", "x") != new  # the block can be written again
    assert new.count("<!-- bench:") == text.count("<!-- bench:")
    with pytest.raises(ValueError, match="no block"):
        rb.splice("no blocks here", "branching", "x")
