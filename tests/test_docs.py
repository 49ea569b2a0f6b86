"""The docs for people hold together (issue 42, item 6).

README.md is short (at most 12 KiB) and points to docs/*.md; every relative link of README.md
and docs/*.md reaches an existing file, and a ``#anchor`` an existing heading (GitHub's slug);
every command they quote — a line of a ```sh / ```bash / ```console block, or an inline
`make X`, `.venv/bin/python path/script.py`, `pytest path` — names a real Makefile target or
an existing file. Each checker is also run on made-up text, so that it can be seen to fail.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = (README, *sorted((ROOT / "docs").glob("*.md")))
#: the README's limit in bytes (issue 42, item 6: "README ≤ 12 KB")
README_LIMIT = 12 * 1024
#: the fenced blocks whose lines are shell commands
SHELL_BLOCKS = frozenset({"sh", "bash", "console", "shell"})
#: how a Python interpreter is spelled in the docs' commands
PYTHONS = frozenset({".venv/bin/python", "python", "python3", "$(PY)"})


# ------------------------------------------------------------------------------ markdown


def split_fences(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with its fenced code blocks blanked (the line count kept), and the blocks as
    (language, body) pairs."""
    prose, blocks = [], []
    lang, body = None, []
    for line in text.splitlines():
        fence = re.match(r"\s*(```+|~~~+)\s*([\w+-]*)", line)
        if lang is None and fence:
            lang, body = fence.group(2).lower(), []
            prose.append("")
        elif lang is not None and re.match(r"\s*(```+|~~~+)\s*$", line):
            blocks.append((lang, "\n".join(body)))
            lang = None
            prose.append("")
        elif lang is not None:
            body.append(line)
            prose.append("")
        else:
            prose.append(line)
    return "\n".join(prose), blocks


CODE_SPAN = re.compile(r"`([^`]+)`")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text (links reduced to their words), lower case,
    without punctuation but ``-`` and ``_``, spaces as ``-``."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor in a markdown text (a repeated one as GitHub numbers it: -1, …)."""
    prose, _ = split_fences(text)
    seen: dict[str, int] = {}
    out = set()
    for m in re.finditer(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", prose, re.M):
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")


def links(text: str) -> list[str]:
    """The targets of the inline links and images of a markdown text, outside code."""
    prose, _ = split_fences(text)
    prose = CODE_SPAN.sub("code", prose)
    return [m.group(2) for m in LINK.finditer(prose)]


def link_problems(path: Path) -> list[str]:
    """What is wrong with ``path``'s relative links: a file that does not exist, or an anchor
    that is no heading of its file."""
    problems = []
    for target in links(path.read_text("utf-8")):
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:|//", target):  # https:, mailto:, …
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            problems.append(f"{path.name}: {target} — no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text("utf-8")):
            problems.append(f"{path.name}: {target} — no heading #{anchor} in {dest.name}")
    return problems


# ------------------------------------------------------------------------------ commands


def make_targets(makefile: Path = ROOT / "Makefile") -> set[str]:
    """The targets a Makefile defines (``name:`` at the start of a line, not ``:=``)."""
    targets = set()
    for m in re.finditer(r"^([\w.-]+(?:[ \t]+[\w.-]+)*)[ \t]*:(?!=)", makefile.read_text(), re.M):
        targets.update(t for t in m.group(1).split() if not t.startswith("."))
    return targets


def commands(text: str) -> list[str]:
    """The commands a markdown text quotes: each line of its shell blocks (a ``\\``
    continuation joined, ``$`` prompts and comments dropped, ``&&`` and ``;`` split) and each
    inline code span that starts with make, a Python or pytest."""
    prose, blocks = split_fences(text)
    lines = []
    for lang, body in blocks:
        if lang in SHELL_BLOCKS:
            lines += body.replace("\\\n", " ").splitlines()
    found = []
    for line in lines:
        line = re.split(r"(?:^|\s)#", re.sub(r"^\s*\$\s+", "", line), maxsplit=1)[0]
        found += [c.strip() for c in re.split(r"&&|\|\||;", line) if c.strip()]
    for m in CODE_SPAN.finditer(prose):
        span = " ".join(m.group(1).split())
        words = span.split()
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
            words = words[1:]
        if len(words) >= 2 and (words[0] in {"make", "pytest"} or words[0] in PYTHONS):
            found.append(span)
    return found


def command_problems(command: str, root: Path = ROOT, targets: set[str] | None = None) -> list[str]:
    """What is wrong with one quoted command: a make target the Makefile does not define, a
    script or a pytest path that does not exist (other commands are not checked)."""
    targets = make_targets(root / "Makefile") if targets is None else targets
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):  # PYTHONPATH=. …
        words = words[1:]
    if not words:
        return []
    head, rest = words[0], words[1:]
    if head == "make":
        names = [w for w in rest if not w.startswith("-") and "=" not in w]
        return [f"{command}: no make target {n!r}" for n in names if n not in targets]
    if head in PYTHONS and rest[:2] == ["-m", "pytest"] or head == "pytest":
        args = rest[2:] if head != "pytest" else rest
        paths = [a.split("::")[0] for a in args if not a.startswith("-") and "/" in a]
        return [f"{command}: no such path {p!r}" for p in paths if not (root / p).exists()]
    if head in PYTHONS and rest[:3] == ["-m", "streamlit", "run"] or head == "streamlit":
        args = rest[3:] if head != "streamlit" else rest[1:]
        script = args[0] if args else ""
        return [] if (root / script).is_file() else [f"{command}: no such script {script!r}"]
    if head in PYTHONS and rest and not rest[0].startswith("-"):
        script = rest[0]
        return [] if (root / script).is_file() else [f"{command}: no such script {script!r}"]
    return []


# ------------------------------------------------------------------------------ the docs


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_relative_link_resolves(path: Path) -> None:
    assert links(path.read_text("utf-8")) or path.name == "theory.md", "no link found"
    assert not link_problems(path)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_quoted_command_is_real(path: Path) -> None:
    targets = make_targets()
    quoted = commands(path.read_text("utf-8"))
    problems = [p for c in quoted for p in command_problems(c, targets=targets)]
    assert not problems, problems


def test_the_docs_quote_commands_the_checker_reads() -> None:
    """The checker is not blind: it finds the README's two commands and the docs' scripts."""
    quoted = commands(README.read_text("utf-8"))
    assert "make run" in quoted and "make test" in quoted, quoted
    every = [c for p in DOCS for c in commands(p.read_text("utf-8"))]
    assert any(c.startswith(".venv/bin/python benchmarks/") for c in every)
    assert any("pytest tests/" in c for c in every)
    assert {"run", "test", "bench", "serve", "serve-hall"} <= make_targets()


def test_readme_is_at_most_12_kib() -> None:
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size:,} bytes; move text to docs/"


def test_readme_links_every_doc_and_the_screenshot() -> None:
    targets = {t.partition("#")[0] for t in links(README.read_text("utf-8"))}
    for doc in DOCS[1:]:
        assert f"docs/{doc.name}" in targets, doc.name
    assert "assets/screenshot_topdown.png" in targets


def _section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_readme_page_guide_names_every_page_of_the_registry() -> None:
    from ui import pages

    guide = _section(README.read_text("utf-8"), "Page guide")
    for page in pages.PAGES:
        assert f"**{page.title}** (`/{page.slug}`)" in guide, page.slug


def test_teach_with_it_is_five_steps_into_docs_teaching() -> None:
    section = _section(README.read_text("utf-8"), "Teach with it")
    steps = re.findall(r"^(\d+)\. ", section, re.M)
    assert steps == ["1", "2", "3", "4", "5"], steps
    assert "docs/teaching.md#" in section


def test_the_lecture_path_in_docs_teaching_follows_the_registry() -> None:
    """docs/teaching.md's copy of the 45-minute lecture path: every step's minutes and the
    preset its button opens, in the registry's order."""
    from ui import pages

    text = _section(
        (ROOT / "docs" / "teaching.md").read_text("utf-8"), "The 45-minute lecture path"
    )
    rows = [line for line in text.splitlines() if re.match(r"\| \d+–\d+ \|", line)]
    steps = sorted(
        ((s.start, p, s) for p in pages.PAGES for s in p.lecture_path), key=lambda x: x[0]
    )
    assert len(rows) == len(steps)
    for row, (_, page, step) in zip(rows, steps, strict=True):
        assert row.startswith(f"| {step.minutes} | **{page.title}**"), row
        if step.preset:
            assert f"*{page.presets[step.preset].title}*" in row, row


def test_the_lecturers_material_left_the_server_doc() -> None:
    """docs/classroom-server.md keeps the server; the lesson is docs/teaching.md's."""
    server = (ROOT / "docs" / "classroom-server.md").read_text("utf-8")
    teaching = (ROOT / "docs" / "teaching.md").read_text("utf-8")
    for moved in (
        "## Tips for the lesson",
        "1. **Open the class.**",
        "**The lecture path with a class.**",
    ):
        assert moved not in server and moved in teaching, moved
    for kept in (
        "## A lecture hall",
        "## Limits on what a student can send",
        "## Attacks replayed",
    ):
        assert kept in server, kept


# ------------------------------------------------------------------------------ the checkers


def test_slug_is_githubs() -> None:
    assert slug("Teach a class: students follow on their phones") == (
        "teach-a-class-students-follow-on-their-phones"
    )
    assert slug("The student's turn") == "the-students-turn"
    assert slug("The 45-minute lecture path") == "the-45-minute-lecture-path"
    assert slug("Real data (`.venv/bin/python benchmarks/run_benchmark.py`)") == (
        "real-data-venvbinpython-benchmarksrun_benchmarkpy"
    )
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}


def test_link_checker_flags_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A real heading\n")
    (tmp_path / "pic.png").write_bytes(b"")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[fine](other.md) [fine too](other.md#a-real-heading) ![ok](pic.png) [here](#page)\n"
        "[gone](missing.md) [no heading](other.md#not-there) ![lost](nope.png) [x](#nowhere)\n"
        "[web](https://example.org/x.md) `[in code](missing2.md)`\n"
        "```\n[in a block](missing3.md)\n```\n"
    )
    problems = link_problems(page)
    assert len(problems) == 4, problems
    for bad in ("missing.md", "other.md#not-there", "nope.png", "#nowhere"):
        assert any(bad in p for p in problems), (bad, problems)


def test_command_checker_flags_unknown_targets_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("X := 1\n.PHONY: run\nrun: deps\n\techo\nserve-hall:\n")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "real.py").write_text("")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_real.py").write_text("")
    text = (
        "```bash\n"
        "make run            # fine\n"
        "make serve-hall REPLICAS=4 PORT=8080\n"
        "make fly\n"
        "$ .venv/bin/python scripts/real.py && python scripts/gone.py\n"
        "PYTHONPATH=. .venv/bin/python -m pytest tests/test_real.py::test_x -q\n"
        ".venv/bin/python -m streamlit run missing.py \\\n    --server.port 1\n"
        "```\n"
        "Inline: `make X=1 run`, `make nosuch`, `pytest tests/test_gone.py -s`, `make`, `ls`.\n"
        "```python\nmake = 'not a command'\n```\n"
    )
    quoted = commands(text)
    assert "make = 'not a command'" not in quoted and "make" not in quoted
    targets = make_targets(tmp_path / "Makefile")
    assert targets == {"run", "serve-hall"}, targets
    problems = [p for c in quoted for p in command_problems(c, root=tmp_path, targets=targets)]
    assert len(problems) == 5, problems
    for bad in ("'fly'", "gone.py", "missing.py", "'nosuch'", "test_gone.py"):
        assert any(bad in p for p in problems), (bad, problems)


def test_the_size_limit_can_fail(tmp_path: Path) -> None:
    small, big = tmp_path / "small.md", tmp_path / "big.md"
    small.write_bytes(b"x" * README_LIMIT)
    big.write_text("é" * (README_LIMIT // 2) + "x", "utf-8")  # bytes, not characters
    assert len(small.read_bytes()) <= README_LIMIT < len(big.read_bytes())
