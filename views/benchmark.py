"""Page: every algorithm against scikit-learn on real datasets (issue 7)."""

from __future__ import annotations

import time

import streamlit as st

from ui import pages, params, theory_doc
from ui.charts import chart_with_numbers, presenting
from ui.header import page_header, preset_from_url, presets_and_challenges
from ui.pages.benchmark import figures
from ui.pages.benchmark import results as bench
from ui.pages.benchmark import runs as benchmark_runs

FMT = {
    c: st.column_config.NumberColumn(format="%.3f")
    for c in ("error a", "error b", "a − b", "paired t p", "mean error", "sd", "fit (s)")
}


PAGE = pages.page("benchmark")
GUIDES, CHALLENGES = PAGE.presets, PAGE.challenges


def _protocol() -> None:
    with st.expander("Protocol, budgets and datasets"):
        theory_doc.link("4", "The algorithms compared and the papers' claims: docs/theory.md §1–§4")
        st.markdown(
            "Stratified 10-fold cross-validation with one seed: **the same folds for every "
            "learner**. Missing values and categorical attributes are prepared per fold, "
            "from the training fold only (numeric: median + a missing indicator; "
            "categorical: missing is its own value; then one-hot for every learner). "
            "Budgets are matched as the papers match them: trees get the same number of "
            "leaves; boosting the same number of stumps; AdaBoost with unpruned trees gets "
            "as many trees as BoostODT's paths have nodes (the evaluation cost of one "
            "observation). Command: `.venv/bin/python benchmarks/run_benchmark.py`."
        )
        st.dataframe(bench.learners_table(), hide_index=True)
        st.dataframe(bench.datasets_table(), hide_index=True)
        st.caption("Sources, citations, licence notes and cleaning: assets/data/PROVENANCE.md.")


#: One icon per phrase of evaluation.VERDICTS (the verdict itself comes from evaluation.verdict).
VERDICT_ICONS = {
    "better": ":material/check_circle:",
    "worse": ":material/cancel:",
    "mixed": ":material/help:",
    "no significant difference": ":material/drag_handle:",
    "not compared": ":material/help:",
}


def _claims(mtime: float) -> None:
    st.header("The papers' claims, checked")
    st.caption(
        bench.VERDICT_RULE + " Each claim says that a is at least as accurate as "
        "b: better supports it, worse contradicts it, the other two neither."
    )
    for claim in bench.claim_checks(mtime):
        with st.expander(f"{claim.title} — {claim.text}", icon=VERDICT_ICONS[claim.text]):
            st.markdown(f"`{claim.a}` against `{claim.b}`: **{claim.text}**. {claim.description}")
            st.dataframe(claim.details, hide_index=True, column_config=FMT)


def _tables(mtime: float) -> None:
    st.header("All results")
    what = st.radio(
        "Show",
        **PAGE.param("bench_show").select(),
        horizontal=True,
        help="Click a column header to sort.",
    )
    table = bench.results_table(mtime, what)
    st.dataframe(
        table,
        column_config={c: st.column_config.NumberColumn(format="%.3f") for c in table.columns},
    )
    # the declared default (scikit-learn's tree) when the results have it, else the first
    ref = st.selectbox(
        "Wins and losses against",
        **PAGE.param("bench_ref").select(options=bench.summary_learners(mtime)),
    )
    chart_with_numbers(
        figures.win_loss_figure(bench.against(mtime, ref), ref),
        key="bench_wl",
        config={"displaylogo": False},
    )


def _drill(mtime: float) -> None:
    st.header("One dataset")
    # URL-bound: no format_func (the URL keeps the shown label), the description follows
    name = st.selectbox(
        "Dataset",
        **PAGE.param("bench_ds").select(options=bench.result_datasets(mtime)),
        help="One dataset's results in detail.",
    )
    description = bench.dataset_description(name)
    if description is not None:
        st.caption(description)
    chart_with_numbers(
        figures.dataset_errors_figure(bench.dataset_summary(mtime, name)),
        key="bench_ds_fig",
    )
    st.caption(
        "Blue: boostlab's algorithms; grey: scikit-learn and PyPI peers. Bars: mean "
        "test error over the folds; whiskers: one standard deviation."
    )
    curves = bench.budget_curves(mtime, name)
    if curves:
        st.markdown("**Error as the budget grows** (same folds; dashed: scikit-learn)")
        cols = st.columns(3)
        for col, axis in zip(cols, ("leaves", "rounds", "internal nodes")):
            with col:
                chart_with_numbers(figures.budget_figure(curves, axis), key=f"bench_budget_{axis}")
    else:
        st.caption("No error-vs-budget curves committed yet (`run_benchmark.py --curves-only`).")


def _run_now() -> None:
    st.header("Run it now")
    st.markdown("Cross-validate a few learners on one dataset on this machine.")
    c1, c2, c3 = st.columns([2, 4, 1])
    dataset = c1.selectbox("Dataset", **PAGE.param("now_ds").select(options=bench.dataset_names()))
    chosen = c2.multiselect(
        "Learners", **PAGE.param("now_learners").multi(options=bench.learner_names())
    )
    folds = c3.slider("Folds", **PAGE.param("now_folds").number())
    estimate = bench.fit_estimate(benchmark_runs.results_mtime(), dataset, chosen, folds)
    if estimate:
        st.caption(f"Estimated time from the committed run: about {estimate:.1f} s of fitting.")
    if not chosen:
        st.info("Choose at least one learner.")
        return
    if st.button("Run", type="primary", key="now_run", icon=":material/play_arrow:"):
        bar = st.progress(0.0, text="Starting…")
        started = time.perf_counter()

        def progress(done: int, total: int, text: str) -> None:
            bar.progress(done / total, text=f"{text} · {time.perf_counter() - started:.1f} s")

        rows = benchmark_runs.run_benchmark_now(dataset, chosen, folds, progress)
        bar.progress(1.0, text=f"Done in {time.perf_counter() - started:.1f} s.")
        st.session_state["now_rows"] = rows
    rows = st.session_state.get("now_rows")
    if rows:
        st.dataframe(bench.run_summary(rows), hide_index=True, column_config=FMT)


def render() -> None:
    preset_from_url("bench_preset", GUIDES, first_round=0)
    header = page_header(
        "Does it work on real data? Every algorithm against scikit-learn",
        "Twelve real binary datasets (UCI classics shipped with the app), stratified "
        "cross-validation with the same folds for every learner, and the papers' claims "
        "checked with paired t-tests and sign tests. Honest verdicts: where a claim does not "
        "reproduce here, the page says so.",
        page="benchmark",
    )
    if not presenting():
        _protocol()
    if not benchmark_runs.results_mtime():
        st.warning("No committed results yet: run `.venv/bin/python benchmarks/run_benchmark.py`.")
    else:
        mtime = benchmark_runs.results_mtime()
        presets_and_challenges("bench_preset", GUIDES, CHALLENGES)
        if header.export_open:  # made only while the menu is open
            with header.export:
                st.markdown("**The committed results**")
                st.download_button(
                    "Every fold (CSV)",
                    lambda: bench.folds_csv(mtime),
                    file_name="boostlab_benchmark_folds.csv",
                    mime="text/csv",
                    key="bench_folds_csv",
                    on_click="ignore",
                    help="One row per learner, dataset and fold: test error, fit time, size.",
                )
                st.download_button(
                    "Summary (CSV)",
                    lambda: bench.summary_csv(mtime),
                    file_name="boostlab_benchmark_summary.csv",
                    mime="text/csv",
                    key="bench_summary_csv",
                    on_click="ignore",
                )
                st.caption("Reproduce: `.venv/bin/python benchmarks/run_benchmark.py`.")
        _claims(mtime)
        _tables(mtime)
        _drill(mtime)
    _run_now()


params.page_run(PAGE, render)
