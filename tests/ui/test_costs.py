"""Measured cost caps (ui/costs.py; issue 16): a page above its cap says why and computes
nothing; every size a generated dataset can reach stays inside."""

from __future__ import annotations

import functools

import pytest

from tests import apptest_helpers as ah
from ui import costs
from ui.pages.matryoshka import runs as matryoshka_runs
from ui.pages.oblique import runs as oblique_runs


def test_the_largest_generated_links_are_inside_the_caps() -> None:
    n_train = 3750  # 5,000 points, a quarter held out
    assert costs.oblique_refusal(n_train, 31, 40) is None
    assert costs.prob_refusal(n_train, 64) is None


def test_an_upload_of_50000_rows_is_refused_where_it_would_be_too_heavy() -> None:
    text = costs.oblique_refusal(37_500, 31, 40)
    assert "1,240 rounds" in text and "37,500 training points" in text and "213 rounds" in text
    assert costs.oblique_refusal(37_500, 7, 30) is None
    assert "at most 16 weak classifiers" in costs.prob_refusal(37_500, 32)


@pytest.mark.parametrize(
    "page, limit, params",
    [
        ("oblique", "OBLIQUE_CELLS_LIMIT", {}),
        ("matryoshka", "PROB_CELLS_LIMIT", {}),
    ],
)
def test_a_page_above_its_cap_says_why_and_computes_nothing(
    monkeypatch, page: str, limit: str, params: dict
) -> None:
    monkeypatch.setattr(costs, limit, 10)  # every size is above a cap of 10
    computed = []
    for module, name in ((oblique_runs, "g1_path_run"), (matryoshka_runs, "prob_run")):
        fn = getattr(module, name)
        monkeypatch.setattr(
            module, name, functools.wraps(fn)(lambda *a, _fn=fn, **k: computed.append(1))
        )
    at = ah.page(page, **params)
    ah.ok(at)
    errors = [e.value for e in at.error if "more than the page computes" in e.value]
    assert len(errors) == 1 and "the limit is 10 " in errors[0]
    assert not computed
