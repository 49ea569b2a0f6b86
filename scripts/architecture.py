"""The architecture by the numbers: what issue 23 ("one home per lesson") counts.

Usage: ``.venv/bin/python scripts/architecture.py`` prints

* the files that retype the list of lesson pages (every lesson slug as a string literal),
* the import cycles inside the app (imports inside functions included),
* the private names taken across modules (``from m import _x`` or ``m._x``),
* lesson folders that import another lesson or the registry,
* the arrows back up inside ``ui/``: imports between ui's parts (a top-level module, a
  subpackage such as ``ui/classroom/``, the registry ``ui/pages/`` or one lesson's folder)
  that close a cycle among the parts (issue 42: ``ui/classroom/`` importing the registry).

Everything is read with ``ast`` (nothing is imported or run), so it also works on a tree that
does not import. ``tests/test_architecture.py`` asserts the same numbers.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The app's own packages (what an import cycle or a private name is counted in).
PACKAGES = ("ui", "boostcore", "views", "server")
#: Folders whose files may retype nothing: everything but the virtualenv and artifacts.
SKIP = {".venv", ".git", "artifacts", "__pycache__", "node_modules"}


def python_files(root: Path = ROOT, folders: Iterable[str] | None = None) -> list[Path]:
    """Every ``.py`` file under ``folders`` (default: the whole repository), subfolders too."""
    bases = [root / f for f in folders] if folders is not None else [root]
    out = []
    for base in bases:
        paths = [base] if base.is_file() else base.rglob("*.py")
        out += [p for p in paths if not SKIP & set(p.relative_to(root).parts)]
    return sorted(out)


def module_name(path: Path, root: Path = ROOT) -> str:
    """``ui/pages/topdown/frames/lecture.py`` → ``ui.pages.topdown.frames.lecture`` (a package
    is its folder: ``frames/__init__.py`` → ``ui.pages.topdown.frames``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True)
class Import:
    """One import statement's target: the module, and the names taken from it."""

    path: Path
    line: int
    module: str
    names: tuple[str, ...]


def imports(path: Path, root: Path = ROOT) -> Iterator[Import]:
    """Every import in ``path`` (inside functions too), relative ones resolved."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(path, node.lineno, alias.name, ())
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield Import(path, node.lineno, module, tuple(a.name for a in node.names))


class Graph:
    """The app's modules and the imports between them."""

    def __init__(self, root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> None:
        self.root = root
        self.files = {module_name(p, root): p for p in python_files(root, packages)}
        self.edges: dict[str, set[str]] = {m: set() for m in self.files}
        self.imports: dict[str, list[Import]] = {}
        for mod, path in self.files.items():
            found = list(imports(path, root))
            self.imports[mod] = found
            for imp in found:
                for target in self.targets(imp):
                    if target != mod:
                        self.edges[mod].add(target)

    def targets(self, imp: Import) -> list[str]:
        """The app modules an import loads: ``from ui import a`` loads ``ui`` and ``ui.a``."""
        out = [imp.module] if imp.module in self.files else []
        out += [f"{imp.module}.{n}" for n in imp.names if f"{imp.module}.{n}" in self.files]
        return out

    def cycles(self) -> list[list[str]]:
        """One cycle per strongly connected component of more than one module (Tarjan)."""
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on: set[str] = set()
        out: list[list[str]] = []
        counter = [0]
        sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

        def visit(v: str) -> None:
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in sorted(self.edges[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

        for v in sorted(self.edges):
            if v not in index:
                visit(v)
        return out

    def private_names(self) -> list[str]:
        """``file:line`` of every private name taken from another app module: imported
        (``from m import _x``) or used as an attribute of an imported module (``m._x``)."""
        out = []
        for mod, path in self.files.items():
            rel = path.relative_to(self.root)
            bound: dict[str, str] = {}  # local name → app module it stands for
            for imp in self.imports[mod]:
                if imp.module not in self.files and not any(
                    f"{imp.module}.{n}" in self.files for n in imp.names
                ):
                    continue
                for n in imp.names:
                    if _private(n) and f"{imp.module}.{n}" not in self.files:
                        out.append(f"{rel}:{imp.line} takes {n} from {imp.module}")
                    if f"{imp.module}.{n}" in self.files:
                        bound[n] = f"{imp.module}.{n}"
                if not imp.names:
                    bound[imp.module.split(".")[0]] = imp.module
            tree = ast.parse(path.read_text("utf-8"))
            aliases = _aliases(tree)
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Attribute)
                    and _private(node.attr)
                    and isinstance(node.value, ast.Name)
                    and (node.value.id in bound or aliases.get(node.value.id) in self.files)
                ):
                    out.append(f"{rel}:{node.lineno} takes {node.attr} from {node.value.id}")
        return sorted(out)

    def lesson_breaches(self) -> list[str]:
        """A lesson folder's module importing another lesson's folder or the registry."""
        out = []
        for mod, path in self.files.items():
            parts = mod.split(".")
            if len(parts) < 3 or parts[:2] != ["ui", "pages"]:
                continue
            lesson = parts[2]
            for target in self.edges[mod]:
                t = target.split(".")
                if target == "ui.pages" or (t[:2] == ["ui", "pages"] and t[2] != lesson):
                    out.append(f"{path.relative_to(self.root)} imports {target}")
        return sorted(out)

    def upward_arrows(self, package: str = "ui") -> list[str]:
        """Imports between the parts of ``package`` that lie on a cycle among the parts.

        A part is a top-level module (``ui.header``), a subpackage (``ui.classroom``), the
        registry (``ui.pages``) or one lesson's folder (``ui.pages.topdown``). Modules inside one
        part may import each other both ways; between parts the arrows must run one way.
        """

        def part(mod: str) -> str:
            bits = mod.split(".")
            return ".".join(bits[:3]) if bits[:2] == [package, "pages"] else ".".join(bits[:2])

        inside = [m for m in self.files if m.split(".")[0] == package]
        arrows: dict[str, set[str]] = {part(m): set() for m in inside}
        for mod in inside:
            for target in self.edges[mod]:
                if target.split(".")[0] == package and part(target) != part(mod):
                    arrows[part(mod)].add(part(target))
        collapsed = Graph.__new__(Graph)
        collapsed.edges = arrows
        on_cycle = {p: i for i, comp in enumerate(collapsed.cycles()) for p in comp}
        out = []
        for mod in inside:
            for imp in self.imports[mod]:
                for target in self.targets(imp):
                    a, b = part(mod), part(target)
                    if a != b and a in on_cycle and on_cycle.get(b) == on_cycle[a]:
                        rel = self.files[mod].relative_to(self.root)
                        out.append(f"{rel}:{imp.line} imports {target}")
        return sorted(set(out))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _aliases(tree: ast.AST) -> dict[str, str]:
    """``import a.b as c`` / ``from a import b as c``: local name → dotted module."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def page_list_files(slugs: Iterable[str], root: Path = ROOT) -> list[str]:
    """Files (Python and JavaScript) in which every one of ``slugs`` appears as a string
    literal or a URL path (``"topdown"``, ``'/topdown?…'``): the files that retype the list."""
    import re

    found = []
    patterns = [re.compile(rf"""["'/]{re.escape(s)}["'?]""") for s in slugs]
    for path in python_files(root) + sorted(root.glob("ui/**/*.js")):
        text = path.read_text("utf-8")
        if all(p.search(text) for p in patterns):
            found.append(str(path.relative_to(root)))
    return sorted(found)


def lesson_slugs(root: Path = ROOT) -> tuple[str, ...]:
    """The lesson pages' slugs, read from the registry's source (``features`` holding
    ``_LESSON``, i.e. the lecture view), without importing the app."""
    sys.path.insert(0, str(root))
    from ui.pages import LESSON_SLUGS

    return LESSON_SLUGS


def main() -> int:
    graph = Graph()
    slugs = lesson_slugs()
    rows = [
        ("files that retype the lesson list", page_list_files(slugs)),
        ("import cycles", [" → ".join(c) for c in graph.cycles()]),
        ("private names taken across modules", graph.private_names()),
        ("lesson modules importing another lesson or the registry", graph.lesson_breaches()),
        ("arrows back up between the parts of ui/", graph.upward_arrows()),
    ]
    print(f"{'what':<58} {'count':>5}")
    for label, items in rows:
        print(f"{label:<58} {len(items):>5}")
    for label, items in rows:
        if items:
            print(f"\n{label}:")
            for item in items:
                print(f"  {item}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
