"""The lecture components' packed data (ui/payload.py; issue 27, items 1 and 2).

* ``unpack(pack(d))`` is ``d`` (keys in their order) for any JSON data, and equal data packs
  to equal bytes (Streamlit's element identity is the bytes' hash);
* a list is encoded once: the same object again comes from the memo, an equal copy does not
  (identity, not equality: a copy may be a different run's), and the memo stays under its
  budget, least recently used out;
* what a page open sends: every lesson page's default link mounts its lecture components
  with less than 300 KB of data in all (it was 0.7–1.6 MB), and the component's script is a
  loader of a few hundred bytes, not the 39 KB script inside every element.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import apptest_helpers as ah
from ui import lecture, pages, payload
from ui.lecture import assets

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(
    head=st.dictionaries(st.text(min_size=1, max_size=8).filter(lambda k: k != "$parts"), _json),
    frames=st.none() | st.lists(_json, max_size=6),
    notes=st.none() | st.lists(st.text(max_size=30), max_size=6),
)
def test_unpack_inverts_pack_and_equal_data_packs_equal(head, frames, notes) -> None:
    data = {**head, "frames": frames, "notes": notes}
    packed = payload.pack(data, ("frames", "notes"))
    assert payload.unpack(packed) == data
    assert list(payload.unpack(packed)) == list(data)  # the keys' order: the contract's
    copy = json.loads(json.dumps(data))
    assert payload.pack(copy, ("frames", "notes")) == packed


def test_unpack_names_what_it_was_given() -> None:
    with pytest.raises(ValueError, match=r"must start with b'BLP1'; got b'\{\"ro'"):
        payload.unpack(b'{"role": "view"}')


def test_a_list_is_encoded_once_and_only_that_list(monkeypatch) -> None:
    payload.clear()
    calls = []
    real = payload.gzip_json

    def counted(value, level=payload.LEVEL):
        calls.append(value)
        return real(value, level)

    monkeypatch.setattr(payload, "gzip_json", counted)
    frames = [{"data": [i], "layout": {}} for i in range(50)]
    first = payload.blob(frames)
    assert payload.blob(frames) == first and len(calls) == 1
    twin = [dict(f) for f in frames]  # equal, but another list
    assert payload.blob(twin) == first and len(calls) == 2
    assert payload.memo_stats()["entries"] == 2


def test_the_memo_stays_under_its_budget(monkeypatch) -> None:
    payload.clear()
    one = len(json.dumps(["x" * 1000], separators=(",", ":")))
    monkeypatch.setattr(payload, "MEMO_BYTES", 3 * one)
    kept = [["x" * 1000] for _ in range(5)]
    for lst in kept:
        payload.blob(lst)
    stats = payload.memo_stats()
    assert stats == {"entries": 3, "bytes": 3 * one}
    payload.blob(kept[2])  # the oldest kept: used again, so it is the last to go
    payload.blob(["y" * 1000])
    ids = set(payload.memo)
    assert id(kept[2]) in ids and id(kept[3]) not in ids
    huge = ["z" * (4 * one)]  # larger than the whole memo: returned, not kept
    assert payload.unpack(payload.pack({"frames": huge}, ("frames",)))["frames"] == huge
    assert id(huge) not in payload.memo
    payload.clear()


def test_a_small_header_is_compressed_once_and_the_memo_is_bounded(monkeypatch) -> None:
    """A view's header (the same for every student of one link) is gzip'd once; a header
    that differs in one value is its own entry; a long one is not kept; the memo keeps at
    most ``HEADER_ENTRIES``, and what it returns unpacks to the data given."""
    payload.clear()
    calls = []
    real = payload.gzip_bytes

    def counted(raw, level=payload.LEVEL):
        calls.append(raw)
        return real(raw, level)

    monkeypatch.setattr(payload, "gzip_bytes", counted)
    monkeypatch.setattr(payload, "HEADER_ENTRIES", 3)
    frames = [1, 2, 3]
    one = payload.pack({"role": "view", "title": "a", "frames": frames}, ("frames",))
    n = len(calls)  # the header and the frames
    assert payload.pack({"role": "view", "title": "a", "frames": frames}, ("frames",)) == one
    assert len(calls) == n
    other = payload.pack({"role": "view", "title": "b", "frames": frames}, ("frames",))
    assert len(calls) == n + 1 and payload.unpack(other)["title"] == "b"
    long = {"role": "quiz", "questions": ["q" * 50] * 100}
    payload.pack(long)
    payload.pack(long)
    assert len(calls) == n + 3
    for i in range(5):
        payload.pack({"role": "view", "title": str(i)})
    assert len(payload.headers) == 3
    payload.clear()
    assert not payload.headers


def test_the_component_script_is_a_loader_of_the_static_copy() -> None:
    name = lecture.ensure_lecture_js()
    copy = lecture.STATIC / name
    assert copy.read_text(encoding="utf-8") == lecture.script_text()
    js = assets.component_js()
    assert f'"app/static/{name}"' in js and len(js) < 600


@pytest.mark.parametrize("slug", [p.slug for p in pages.with_feature("lecture")])
def test_a_page_open_sends_under_300_kb(slug: str) -> None:
    at = ah.page(slug)
    ah.ok(at)
    comps = [e.proto for e in at.get("bidi_component")]
    assert comps
    sizes = {c.id.rsplit("-", 1)[-1]: c.ByteSize() for c in comps}
    assert sum(sizes.values()) < 300_000, sizes
    assert all(len(c.js_content) < 600 for c in comps)


def test_the_class_component_is_a_loader_of_its_static_copy() -> None:
    """The class component (klass.js, ~30 KB, joined from ui/classroom/js/) is mounted on every
    page open since a tab may take up the class it taught: it goes as a loader of its static
    copy, as the lecture script."""
    from ui import static_js
    from ui.classroom.teach import script_text

    text = script_text()
    name = static_js.ensure("klass", text)
    assert name.startswith("klass.") and name.endswith(".js")
    assert (static_js.STATIC / name).read_text("utf-8") == text
    js = static_js.loader("klass", text)
    assert f'"app/static/{name}"' in js and len(js) < 600


# ---- the one numpy → plotly.js typed-array encoder (issue 42, item 3)
_NP = {"i1": "<i1", "u1": "<u1", "i2": "<i2", "u2": "<u2", "i4": "<i4", "u4": "<u4"}


def _decode(spec: dict):
    import base64

    import numpy as np

    dtype = {**_NP, "f4": "<f4", "f8": "<f8"}[spec["dtype"]]
    flat = np.frombuffer(base64.b64decode(spec["bdata"]), dtype=dtype)
    shape = tuple(int(k) for k in spec["shape"].split(",")) if "shape" in spec else flat.shape
    return flat.reshape(shape)


@settings(deadline=None)
@given(
    st.lists(st.integers(-(2**31), 2**31 - 1), min_size=1, max_size=40),
    st.sampled_from(["int64", "int32", "int16", "uint8"]),
)
def test_typed_array_keeps_whole_numbers_exactly_in_the_smallest_type(values, dtype) -> None:
    import numpy as np

    info = np.iinfo(dtype)
    a = np.array([min(max(v, info.min), info.max) for v in values], dtype=dtype)
    spec = payload.typed_array(a)
    assert np.array_equal(_decode(spec), a)
    lo, hi = int(a.min()), int(a.max())
    want = "u1" if lo >= 0 and hi <= 255 else "u2" if lo >= 0 and hi <= 65535 else "i4"
    assert spec["dtype"] == want


@settings(deadline=None)
@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=60),
    st.sampled_from([(None, "f8"), ("f4", "f4"), ("f8", "f8")]),
    st.booleans(),
)
def test_typed_array_floats_and_shapes(values, policy, square) -> None:
    import numpy as np

    floats, want = policy
    a = np.array(values, dtype=np.float64)
    if square:
        a = np.resize(a, (2, max(1, len(values) // 2)))
    spec = payload.typed_array(a, floats=floats)
    assert spec["dtype"] == want
    assert ("shape" in spec) == (a.ndim > 1)
    # float32 rounds each value (to 0 below float32's smallest, as plotly.js would read it)
    assert np.array_equal(_decode(spec), a.astype(np.float32 if want == "f4" else np.float64))
    # float32 stays float32 when the caller keeps widths; booleans are bytes
    assert payload.typed_array(a.astype(np.float32), floats=None)["dtype"] == "f4"
    assert payload.typed_array(a > 0)["dtype"] == "u1"


def test_only_the_payload_module_writes_typed_arrays() -> None:
    """One encoder: no other module of ui/ builds a ``bdata`` spec of its own."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "ui"
    writers = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if p.name != "payload.py" and ('"bdata":' in p.read_text("utf-8"))
    ]
    assert writers == []
