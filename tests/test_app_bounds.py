"""AppTest for the bounds explorer: every tab renders, sliders work, the caveat is shown."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

TIMEOUT = 120


def _page(**params: str) -> AppTest:
    at = AppTest.from_file("../views/bounds.py", default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def test_bounds_page_renders_every_figure() -> None:
    at = _page()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.get("plotly_chart")) == 7
    assert any("Where the paper's argument breaks" in w.value for w in at.warning)
    assert len(at.latex) >= 8


def test_bounds_page_sliders_and_url() -> None:
    at = _page(b_T="65536", b_gamma="0.3", b_rhos="1/2")
    assert not at.exception
    assert at.select_slider(key="b_T").value == 65536
    assert at.slider(key="b_gamma").value == 0.3
    assert at.multiselect(key="b_rhos").value == ["1/2"]
    at.slider(key="b_C").set_value(0.9).run()
    assert not at.exception
    at.multiselect(key="b_rhos").set_value([]).run()  # falls back to ρ = 7/8, no crash
    assert not at.exception
