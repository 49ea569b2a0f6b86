"""What a lecture component is mounted with, packed once per run: gzip'd JSON as bytes.

Why (issue 27, items 1 and 2): a lecture page hands every round of every view to the browser
at once, 0.7–1.6 MB of JSON per page open at default settings and up to 7.6 MB at the largest.
As a ``dict``, Streamlit serialises that data on every script run of every session, twice
(``json.dumps`` for the message, ``json.dumps(sort_keys=True)`` for the element's identity),
and sends it uncompressed. Here a view's frames (the bulk: the same list object for every
session, from the shared run cache, ``ui/cache.py``) are encoded and compressed once and the
bytes kept; a page open then only joins them to a small header. Streamlit passes ``bytes``
as they are (the element's identity is the bytes' hash) and the browser gets a
``Uint8Array``, which ``ui/lecture/js`` unpacks with the browser's own ``DecompressionStream``.

The format (``unpack`` in the lecture script reads the same)::

    b"BLP1" | n (4 bytes, big-endian) | gzip(header JSON) | then, for each name in the
    header's "$parts": n | gzip(that value's JSON)

The header is the component's data but its large lists (frames, notes, descriptions), which
follow as parts of their own and take the place of the header's ``null`` under their names.
Each part is a gzip member with ``mtime`` 0, so equal data always packs to equal bytes
(Streamlit's element identity, and its message cache, depend on that).

A part is remembered by the identity of the list it came in (:func:`blob`): a list from the
shared run cache is one object for every session that shows that run. The memo keeps a
reference to each list it encoded (so that its ``id`` stays that list's), and stays under
:data:`MEMO_BYTES` of uncompressed JSON, least recently used first out: at worst that much
of frames outlives its eviction from the run cache. A list built for one script run (a note
made for this session) is encoded again each time; it is small.
"""

from __future__ import annotations

import base64
import json
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from .cache import BUDGET_BYTES

MAGIC = b"BLP1"
#: zlib's default level: the frames are compressed once per run, and level 9 saves ~2 % more
#: for twice the time.
LEVEL = 6
#: Uncompressed JSON of the frames the memo may keep alive (an eighth of the run cache's).
MEMO_BYTES = BUDGET_BYTES // 8
#: Most lists the memo holds (a page shows at most a dozen views).
MEMO_ENTRIES = 512

_lock = threading.Lock()
# id(frames) -> (frames, compressed bytes, uncompressed length)
memo: OrderedDict[int, tuple[Any, bytes, int]] = OrderedDict()
_memo_total = 0
#: Headers whose gzip is remembered, by their JSON: a view's header is the same for every
#: student who opens the same link, and gzip'ing it was 2 % of a warm page open's server CPU
#: on /oblique (py-spy, 30 students: a compressor is set up per call). Headers are small.
HEADER_ENTRIES = 1024
#: A header's JSON longer than this is compressed each time (a quiz's questions).
HEADER_BYTES = 4096
headers: OrderedDict[bytes, bytes] = OrderedDict()


def gzip_json(value: Any, level: int = LEVEL) -> tuple[bytes, int]:
    """``value`` as compact JSON, gzip'd with ``mtime`` 0; and the JSON's length in bytes.

    >>> blob, n = gzip_json({"a": [1, 2]})
    >>> n, blob[:2] == b"\\x1f\\x8b"
    (11, True)
    """
    raw = _json(value)
    return gzip_bytes(raw, level), len(raw)


def _json(value: Any) -> bytes:
    """Compact JSON as UTF-8 (no NaN: JavaScript's JSON.parse refuses it)."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False).encode("utf-8")


def gzip_bytes(raw: bytes, level: int = LEVEL) -> bytes:
    """A gzip member with ``mtime`` 0: equal data, equal bytes."""
    # wbits 31: a gzip member (header with mtime 0, CRC, length), which DecompressionStream
    # ("gzip") reads
    comp = zlib.compressobj(level, zlib.DEFLATED, 31)
    return comp.compress(raw) + comp.flush()


def _header(header: dict[str, Any]) -> bytes:
    """A component's header gzip'd, remembered by its JSON when it is small."""
    raw = _json(header)
    if len(raw) > HEADER_BYTES:
        return gzip_bytes(raw)
    with _lock:
        hit = headers.get(raw)
        if hit is not None:
            headers.move_to_end(raw)
            return hit
    blob = gzip_bytes(raw)
    with _lock:
        headers[raw] = blob
        while len(headers) > HEADER_ENTRIES:
            headers.popitem(last=False)
    return blob


def blob(frames: Sequence[Any]) -> bytes:
    """A list gzip'd as JSON, from the memo when this very list was packed before.

    Parameters
    ----------
    frames : sequence
        A view's frames (JSON-ready: :func:`ui.lecture.plotly_frames`,
        :func:`ui.lecture.same_frames`), notes or descriptions. It must not be modified
        afterwards (the run cache's values are not).

    Returns
    -------
    bytes
        ``gzip(json(frames))``.
    """
    global _memo_total
    key = id(frames)
    with _lock:
        hit = memo.get(key)
        if hit is not None and hit[0] is frames:
            memo.move_to_end(key)
            return hit[1]
    blob, n = gzip_json(list(frames))
    if n > MEMO_BYTES:
        return blob
    with _lock:
        old = memo.pop(key, None)
        if old is not None:
            _memo_total -= old[2]
        while memo and (_memo_total + n > MEMO_BYTES or len(memo) >= MEMO_ENTRIES):
            _, (_, _, size) = memo.popitem(last=False)
            _memo_total -= size
        memo[key] = (frames, blob, n)
        _memo_total += n
    return blob


def memo_stats() -> dict[str, int]:
    """``entries`` and uncompressed ``bytes`` the memo holds (tests, benchmarks)."""
    with _lock:
        return {"entries": len(memo), "bytes": _memo_total}


def clear() -> None:
    """Forget every packed list (tests)."""
    global _memo_total
    with _lock:
        memo.clear()
        headers.clear()
        _memo_total = 0


def pack(data: dict[str, Any], parts: Sequence[str] = ()) -> bytes:
    """A component's data as bytes: a header, and the values under ``parts`` (memoised).

    Parameters
    ----------
    data : dict
        The component's data (``ComponentData.to_js``).
    parts : sequence of str
        Keys of ``data`` whose values are large lists, packed apart (see the module
        docstring); a key whose value is ``None`` stays in the header.

    Returns
    -------
    bytes
        The packed data; :func:`unpack` gives ``data`` back, keys in the same order.
    """
    names = [k for k in parts if data.get(k) is not None]
    header = {**data, **dict.fromkeys(names), "$parts": names}
    out = [MAGIC]
    for chunk in (_header(header), *(blob(data[k]) for k in names)):
        out += (struct.pack(">I", len(chunk)), chunk)
    return b"".join(out)


def unpack(data: bytes) -> dict[str, Any]:
    """The inverse of :func:`pack` (what the lecture script does; for tests and benchmarks).

    >>> unpack(pack({"role": "view", "frames": [1, 2], "notes": None}, ["frames", "notes"]))
    {'role': 'view', 'frames': [1, 2], 'notes': None}

    Raises
    ------
    ValueError
        When ``data`` does not start with :data:`MAGIC`.
    """
    if data[:4] != MAGIC:
        raise ValueError(f"packed data must start with {MAGIC!r}; got {bytes(data[:4])!r}")
    at = 4

    def chunk() -> Any:
        nonlocal at
        (n,) = struct.unpack(">I", data[at : at + 4])
        at += 4 + n
        return json.loads(zlib.decompress(data[at - n : at], 31))

    out = chunk()
    for name in out.pop("$parts"):
        out[name] = chunk()
    return out


# ------------------------------------------------------------------ numpy → plotly.js arrays
#: plotly.js's names of the typed arrays it decodes (``{"dtype": …, "bdata": base64}``).
TYPED = {
    "int8": "i1",
    "uint8": "u1",
    "int16": "i2",
    "uint16": "u2",
    "int32": "i4",
    "uint32": "u4",
    "float32": "f4",
    "float64": "f8",
}


def typed_array(a: Any, *, floats: str | None = "f4") -> dict[str, str]:
    """A numpy array as a plotly.js typed array: little-endian bytes in base64, the one
    encoder of every lecture view's numbers (plotly's own writes the same spec).

    Whole numbers take the smallest of ``u1``, ``u2`` and ``i4`` that holds them, booleans
    ``u1``; floats are float32 (``floats="f4"``: ample for drawing, half the bytes), float64
    (``"f8"``), or keep their own width (None: float32 stays float32, anything else float64).
    A 2-D array carries its ``shape``.

    >>> typed_array(np.array([1, 2, 300]))
    {'dtype': 'u2', 'bdata': 'AQACACwB'}
    >>> typed_array(np.zeros((2, 2)))["shape"], typed_array(np.zeros(3))["dtype"]
    ('2, 2', 'f4')
    """
    v = np.asarray(a)
    if v.dtype.kind in "iu":
        wide = v.size and (v.min() < 0 or v.max() > 65535)
        v = v.astype(np.int32 if wide else np.uint16 if v.size and v.max() > 255 else np.uint8)
    elif v.dtype.kind == "b":
        v = v.astype(np.uint8)
    elif floats is not None:
        v = v.astype(np.float32 if floats == "f4" else np.float64)
    elif v.dtype.name not in TYPED:
        v = v.astype(np.float64)
    v = np.ascontiguousarray(v, dtype=v.dtype.newbyteorder("<"))
    spec = {"dtype": TYPED[v.dtype.name], "bdata": base64.b64encode(v.tobytes()).decode("ascii")}
    if v.ndim > 1:
        spec["shape"] = ", ".join(str(k) for k in v.shape)
    return spec
