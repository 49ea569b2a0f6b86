"""The benchmark harness: same folds for every learner, statistics, verdicts, tiny run."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np
import pytest

from boostcore import evaluation

ROOT = Path(__file__).resolve().parents[2]


def _data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def test_folds_are_stratified_disjoint_and_seeded():
    _, y = _data()
    folds = evaluation.stratified_folds(y, 5, random_state=3)
    together = np.concatenate(folds)
    assert sorted(together.tolist()) == list(range(len(y)))
    for f in folds:
        assert abs(np.mean(y[f] > 0) - np.mean(y > 0)) < 0.1
    again = evaluation.stratified_folds(y, 5, random_state=3)
    assert all(np.array_equal(a, b) for a, b in zip(folds, again))


def test_cross_validate_compare_and_verdict():
    X, y = _data()
    chosen = evaluation.learners(["TopDown binary (Kearns–Mansour)", "sklearn DecisionTree"])
    rows = evaluation.cross_validate("toy", X, y, np.zeros(3, dtype=bool), chosen, n_folds=3)
    assert len(rows) == 6 and {r["fold"] for r in rows} == {0, 1, 2}
    assert all(0 <= r["test_error"] <= 1 and r["size"] > 0 for r in rows)
    summary = evaluation.summarise(rows)
    assert len(summary) == 2 and all(s["folds"] == 3 for s in summary)
    res = evaluation.compare(rows, "TopDown binary (Kearns–Mansour)", "sklearn DecisionTree")
    assert res["wins"] + res["ties"] + res["losses"] == 1
    assert evaluation.verdict(res)


def test_compare_counts_wins_and_losses():
    rows = []
    for ds, (ea, eb) in {"d1": (0.1, 0.3), "d2": (0.1, 0.3), "d3": (0.4, 0.2)}.items():
        for f in range(5):
            rows.append({"dataset": ds, "learner": "a", "fold": f, "test_error": ea + 0.01 * f})
            rows.append({"dataset": ds, "learner": "b", "fold": f, "test_error": eb})
    res = evaluation.compare(rows, "a", "b")
    assert (res["wins"], res["ties"], res["losses"]) == (2, 0, 1)
    assert all(d["significant"] for d in res["details"])
    assert evaluation.verdict(res) == "mixed"


def test_unknown_learner_lists_known_ones():
    with pytest.raises(ValueError, match="known: .*sklearn DecisionTree"):
        evaluation.learners(["nope"])


def test_runner_tiny_configuration(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import run_benchmark

    rows = run_benchmark.run(
        ["monk1", "vote"],
        ["TopDown binary (Kearns–Mansour)", "TopDown-M (Hatano, k ≤ 4)"],
        2,
        tmp_path,
        verbose=False,
    )
    assert len(rows) == 2 * 2 * 2
    with (tmp_path / "summary.csv").open() as fh:
        assert len(list(csv.DictReader(fh))) == 4
    text = (tmp_path / "claims.md").read_text()
    assert "Hatano" in text and "wins" in text


# --- issue 14, F: one verdict rule, used by the page, claims.md and the README -------------


def _result(*per_dataset: tuple[float, float]) -> dict:
    """A :func:`evaluation.compare`-shaped result from (a − b mean error, paired t p) pairs."""
    from scipy import stats

    details = [
        {
            "dataset": f"d{i}",
            "a": 0.2 + diff,
            "b": 0.2,
            "diff": diff,
            "p_t": p,
            "significant": bool(p < 0.05),
        }
        for i, (diff, p) in enumerate(per_dataset)
    ]
    wins = sum(d["diff"] < 0 for d in details)
    losses = sum(d["diff"] > 0 for d in details)
    n = wins + losses
    return {
        "a": "a",
        "b": "b",
        "wins": wins,
        "ties": len(details) - n,
        "losses": losses,
        "sign_p": float(stats.binomtest(wins, n).pvalue) if n else 1.0,
        "details": details,
    }


WIN, LOSS, TIE = -0.02, 0.02, 0.0


def test_verdict_one_win_eight_ties_three_losses_none_significant_is_no_difference():
    # Hatano's multi-way claim as measured: the page said "Reproduces", the README "no difference"
    res = _result((WIN, 0.46), *[(TIE, 1.0)] * 8, (LOSS, 0.06), (LOSS, 0.64), (LOSS, 0.3))
    assert (res["wins"], res["ties"], res["losses"]) == (1, 8, 3)
    assert evaluation.verdict(res) == "no significant difference"


def test_verdict_clear_wins_by_the_sign_test_are_better_even_with_no_single_significant_one():
    res = _result(*[(WIN, 0.2)] * 10, (TIE, 1.0), (TIE, 1.0))
    assert res["sign_p"] < 0.05
    assert evaluation.verdict(res) == "better"


def test_verdict_significant_wins_and_no_significant_loss_are_better():
    # BP.InfoBoost vs DT.InfoBoost as measured: 7 / 2 / 3, sign test p = 0.34, 3 significant wins
    res = _result(
        (WIN, 0.01),
        (WIN, 0.02),
        (WIN, 0.03),
        *[(WIN, 0.3)] * 4,
        (TIE, 1.0),
        (TIE, 1.0),
        *[(LOSS, 0.2)] * 3,
    )
    assert res["sign_p"] > 0.05
    assert evaluation.verdict(res) == "better"


def test_verdict_significant_losses_and_no_significant_win_are_worse():
    # BoostODT vs AdaBoost + trees as measured: 5 / 2 / 5, 0 significant wins, 3 significant losses
    res = _result(
        *[(WIN, 0.4)] * 5,
        (TIE, 1.0),
        (TIE, 1.0),
        (LOSS, 0.006),
        (LOSS, 0.001),
        (LOSS, 0.0001),
        (LOSS, 0.5),
        (LOSS, 0.6),
    )
    assert evaluation.verdict(res) == "worse"
    many_losses = _result(*[(LOSS, 0.5)] * 10, (TIE, 1.0), (TIE, 1.0))
    assert evaluation.verdict(many_losses) == "worse"


def test_verdict_significant_wins_and_losses_without_a_significant_sign_test_are_mixed():
    res = _result(
        (WIN, 0.01),
        (WIN, 0.02),
        (WIN, 0.3),
        (WIN, 0.3),
        (TIE, 1.0),
        (TIE, 1.0),
        (LOSS, 0.01),
        (LOSS, 0.02),
        (LOSS, 0.03),
        *[(LOSS, 0.4)] * 3,
    )
    assert res["sign_p"] > 0.05
    assert evaluation.verdict(res) == "mixed"


def test_verdict_sign_test_comes_first_and_alpha_is_the_stated_level():
    # 10 wins, 2 significant losses: the sign test (p = 0.04) decides before the counts
    res = _result(*[(WIN, 0.3)] * 10, (LOSS, 0.01), (LOSS, 0.01))
    assert res["sign_p"] < 0.05
    assert evaluation.verdict(res) == "better"
    one = _result((WIN, 0.03), (TIE, 1.0), (LOSS, 0.5))
    assert evaluation.verdict(one) == "better"
    assert evaluation.verdict(one, alpha=0.01) == "no significant difference"


def test_verdict_is_one_of_the_fixed_phrases():
    assert evaluation.verdict(_result()) == "not compared"
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(0, 13))
        res = _result(
            *[(float(rng.choice([WIN, TIE, LOSS])), float(rng.uniform(0, 0.2))) for _ in range(n)]
        )
        assert evaluation.verdict(res) in evaluation.VERDICTS


def _stored_rows() -> list[dict]:
    with (ROOT / "benchmarks" / "results" / "folds.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r["fold"] = int(r["fold"])
        r["test_error"] = float(r["test_error"])
    return rows


def _readme_claims_table() -> dict[str, list[str]]:
    """The table of claims (docs/benchmarks.md, "Real data"; the README's until issue 42,
    item 6): claim cell → the other cells."""
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    lines = text.split("| claim | a vs b |", 1)[1].splitlines()[2:]
    table = {}
    for line in lines:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        table[cells[0]] = cells[1:]
    return table


def _significant_counts(cell: str) -> tuple[int, int]:
    import re

    if cell.startswith("none"):
        return 0, 0
    m = re.match(r"(\d+) wins?, (\d+) loss(?:es)?\b", cell)
    assert m, cell
    return int(m.group(1)), int(m.group(2))


def test_readme_claims_table_says_what_the_rule_says_on_the_stored_results():
    rows = _stored_rows()
    table = _readme_claims_table()
    for title, a, b in evaluation.CLAIMS:
        assert title in table, f"docs/benchmarks.md has no row for the claim {title!r}"
        _, wtl, significant, said = table[title]
        res = evaluation.compare(rows, a, b)
        assert wtl == f"{res['wins']} / {res['ties']} / {res['losses']}", title
        sig_win = sum(d["significant"] and d["diff"] < 0 for d in res["details"])
        sig_loss = sum(d["significant"] and d["diff"] > 0 for d in res["details"])
        assert _significant_counts(significant) == (sig_win, sig_loss), title
        # the verdict cell is the rule's phrase, optionally followed by ": why"
        assert said.split(":", 1)[0].strip() == evaluation.verdict(res), (title, said)


def test_stored_claims_md_says_what_the_rule_says():
    rows = _stored_rows()
    text = (ROOT / "benchmarks" / "results" / "claims.md").read_text(encoding="utf-8")
    for title, a, b in evaluation.CLAIMS:
        res = evaluation.compare(rows, a, b)
        assert f"`{a}` vs `{b}`: **{evaluation.verdict(res)}**" in text, title


def test_runner_claims_only_recomputes_claims_from_stored_folds(tmp_path):
    import shutil

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import run_benchmark

    shutil.copy(ROOT / "benchmarks" / "results" / "folds.csv", tmp_path / "folds.csv")
    run_benchmark.claims_only(tmp_path, verbose=False)
    stored = (ROOT / "benchmarks" / "results" / "claims.md").read_text(encoding="utf-8")
    again = (tmp_path / "claims.md").read_text(encoding="utf-8")
    # the peers line reports the machine that ran the fits; everything else is recomputed
    strip = [ln for ln in stored.splitlines() if not ln.startswith("Optional peers")]
    assert [ln for ln in again.splitlines() if not ln.startswith("Optional peers")] == strip
