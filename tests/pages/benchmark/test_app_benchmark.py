"""AppTest for the benchmark page: committed results, claims, drill-down, a run now."""

from __future__ import annotations

from tests import apptest_helpers as ah


def test_results_claims_and_run_now() -> None:
    at = ah.page("benchmark")
    ah.ok(at)
    labels = [e.label for e in at.expander]
    assert sum("—" in label for label in labels) == 6  # one expander per paper claim
    # win/loss, the dataset drill-down and its three error-vs-budget panels
    assert len(at.get("plotly_chart")) == 5
    at.selectbox(key="bench_ref").set_value("sklearn AdaBoost (stumps)").run()
    at.selectbox(key="bench_ds").set_value("vote").run()
    at.radio(key="bench_show").set_value("fit time (s)").run()
    ah.ok(at)
    at.selectbox(key="now_ds").set_value("labor").run()
    at.multiselect(key="now_learners").set_value(["TopDown binary (Kearns–Mansour)"]).run()
    at.slider(key="now_folds").set_value(2).run()
    at.button(key="now_run").click().run()
    ah.ok(at)
    table = at.dataframe[-1].value
    assert list(table["learner"]) == ["TopDown binary (Kearns–Mansour)"]
    assert int(table["folds"].iloc[0]) == 2


def test_no_learner_chosen_says_so() -> None:
    at = ah.page("benchmark")
    at.multiselect(key="now_learners").set_value([]).run()
    ah.ok(at)
    assert any("Choose at least one learner" in i.value for i in at.info)


def test_each_claim_shows_the_verdict_of_the_one_rule() -> None:
    """Issue 14, F: the page's verdict on every claim is :func:`evaluation.verdict`'s."""
    from boostcore import evaluation
    from ui.pages.benchmark import runs as benchmark_runs

    rows = benchmark_runs.benchmark_results(benchmark_runs.results_mtime())
    at = ah.page("benchmark")
    ah.ok(at)
    labels = [e.label for e in at.expander]
    for title, a, b in evaluation.CLAIMS:
        shown = [label for label in labels if label.startswith(title + " — ")]
        assert len(shown) == 1, (title, labels)
        assert shown[0] == f"{title} — {evaluation.verdict(evaluation.compare(rows, a, b))}"
    # the rule is stated on the page, in the words of the function's module
    assert any(evaluation.VERDICT_RULE in c.value for c in at.caption)
