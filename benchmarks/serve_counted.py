"""Start the boostlab server with the core generators counted (used by ``load_check.py``).

    BOOSTLAB_CALL_LOG=/tmp/calls.jsonl python benchmarks/serve_counted.py \
        --server.port 8601 --server.address 127.0.0.1 --server.headless true

Before Streamlit's own command line takes over (``streamlit run serve.py <options>`` in this
process), ``boostcore.topdown.grow`` and ``boostcore.branching.bp_infoboost`` are replaced by
wrappers that append one JSON line per call to the file named by ``BOOSTLAB_CALL_LOG``:
``{"fn": ..., "key": <digest of the data and every argument>, "t": ..., "thread": ...}``.
The pages reach these generators only through the cached functions of the lessons'
``ui/pages/<slug>/runs.py``, which import them by name when the first page runs, i.e. after the
patch, so the log counts how many times a run was really computed, whatever the number of
sessions.
Nothing else changes: same app, same options, same process layout as ``streamlit run``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COUNTED = (
    ("boostcore.topdown", "grow"),
    ("boostcore.branching", "bp_infoboost"),
    ("boostcore.realboost", "g1_linear"),
)


def _digest(args: tuple, kwargs: dict) -> str:
    """A digest of the call: array arguments by their bytes, everything else by ``repr``."""
    import numpy as np

    h = hashlib.sha1()
    for part in (*args, *sorted(kwargs.items())):
        items = part if isinstance(part, tuple) else (part,)
        for item in items:
            if isinstance(item, np.ndarray):
                h.update(item.dtype.str.encode() + repr(item.shape).encode() + item.tobytes())
            else:
                h.update(repr(item).encode())
    return h.hexdigest()[:16]


def _counted(fn, name: str, log: Path):
    lock = threading.Lock()

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        line = json.dumps(
            {
                "fn": name,
                "key": _digest(args, kwargs),
                "t": time.time(),
                "thread": threading.current_thread().name,
            }
        )
        with lock, log.open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")
        return fn(*args, **kwargs)

    return wrapper


def install(log: Path) -> None:
    """Replace the counted generators in their modules (before any page imports them)."""
    import importlib

    for module_name, attr in COUNTED:
        module = importlib.import_module(module_name)
        setattr(module, attr, _counted(getattr(module, attr), attr, log))


def main(argv: list[str]) -> int:
    log = os.environ.get("BOOSTLAB_CALL_LOG")
    if not log:
        print("set BOOSTLAB_CALL_LOG to the file that receives one line per call", file=sys.stderr)
        return 2
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    Path(log).touch()
    install(Path(log))
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(ROOT / "serve.py"), *argv]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
