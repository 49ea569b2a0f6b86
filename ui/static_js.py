"""A component's JavaScript served once per browser from ``static/``, not inline.

Streamlit sends a component's inline JavaScript inside every element that mounts it. A script
mounted on every page open (the class component: ``klass.js``, 30 KB, joined from its parts in
``ui/classroom/js/``, mounted on every page since a tab may take up the class it taught, issue
39) would add its whole text to every student's page open. It is given a five-line loader
instead, which imports the script from ``app/static/`` under a name holding its hash: the
browser fetches it once and keeps it. (``ui/lecture`` does the same for the lecture script.)

A script may be kept in parts (one file per job, in a declared order) and served as one file
(:func:`joined`): the parts share one scope, without a bundler (a concatenation needs none).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

#: Streamlit serves this folder at ``app/static/`` (``enableStaticServing``); not committed.
STATIC = Path(__file__).resolve().parents[1] / "static"

#: The component's JavaScript: the real script, imported once from ``static/``. A mount
#: whose script has not arrived yet is made when it does; one unmounted before never is.
LOADER = """const M = import(new URL("app/static/%s", document.baseURI).href);
export default function (component) {
  let off = null, gone = false;
  M.then((m) => { if (!gone) off = m.default(component); });
  return () => { gone = true; if (typeof off === "function") off(); };
}
"""


def joined(folder: Path, parts: Sequence[str]) -> str:
    """The script kept in ``folder`` as ``parts``: the parts' texts joined in that order."""
    return "\n".join((folder / p).read_text(encoding="utf-8") for p in parts)


def ensure(stem: str, text: str) -> str:
    """Copy the script ``text`` into ``static/`` as ``<stem>.<hash>.js``; return that name.
    Stale copies of earlier versions of the same script are removed."""
    name = f"{stem}.{hashlib.sha256(text.encode()).hexdigest()[:12]}.js"
    dst = STATIC / name
    if not dst.exists() or dst.read_text(encoding="utf-8") != text:
        STATIC.mkdir(exist_ok=True)
        # written under a name of this process's, then renamed: two server processes (a
        # lecture hall) never read a half-written copy
        tmp = dst.with_name(f".{stem}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(dst)
    for old in STATIC.glob(f"{stem}.*.js"):
        if old.name != name:
            old.unlink(missing_ok=True)
    return name


def loader(stem: str, text: str) -> str:
    """The component's JavaScript for the script ``text``: the loader of its static copy
    (:func:`ensure`), or the script itself where ``static/`` cannot be written (a read-only
    installation)."""
    try:
        return LOADER % ensure(stem, text)
    except OSError:
        return text
