"""A component's JavaScript served once per browser from ``static/``, not inline.

Streamlit sends a component's inline JavaScript inside every element that mounts it. A script
mounted on every page open (the class component: ``ui/classroom/klass.js``, 30 KB, mounted on
every page since a tab may take up the class it taught, issue 39) would add its whole text to
every student's page open. It is given a five-line loader instead, which imports the script
from ``app/static/`` under a name holding its hash: the browser fetches it once and keeps it.
(``ui/lecture`` does the same for the lecture script.)
"""

from __future__ import annotations

import hashlib
import os
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


def ensure(src: Path) -> str:
    """Copy ``src`` into ``static/`` as ``<stem>.<hash>.js``; return that name. Stale copies
    of earlier versions of the same script are removed."""
    text = src.read_text(encoding="utf-8")
    name = f"{src.stem}.{hashlib.sha256(text.encode()).hexdigest()[:12]}.js"
    dst = STATIC / name
    if not dst.exists() or dst.read_text(encoding="utf-8") != text:
        STATIC.mkdir(exist_ok=True)
        # written under a name of this process's, then renamed: two server processes (a
        # lecture hall) never read a half-written copy
        tmp = dst.with_name(f".{src.stem}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(dst)
    for old in STATIC.glob(f"{src.stem}.*.js"):
        if old.name != name:
            old.unlink(missing_ok=True)
    return name


def loader(src: Path) -> str:
    """The component's JavaScript for ``src``: the loader of its static copy, or the script
    itself where ``static/`` cannot be written (a read-only installation)."""
    try:
        return LOADER % ensure(src)
    except OSError:
        return src.read_text(encoding="utf-8")
