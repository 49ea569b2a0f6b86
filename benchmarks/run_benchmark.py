"""Every algorithm against scikit-learn on the vendored real datasets (issue 7).

Run from the repository root:

    .venv/bin/python benchmarks/run_benchmark.py                 # 10 folds, every dataset
    .venv/bin/python benchmarks/run_benchmark.py --folds 2 --datasets monk1,vote --quick
    .venv/bin/python benchmarks/run_benchmark.py --curves-only   # error vs budget only
    .venv/bin/python benchmarks/run_benchmark.py --claims-only   # claims.md from folds.csv

Writes ``benchmarks/results/folds.csv`` (one row per dataset × learner × fold),
``summary.csv`` (mean ± sd per dataset × learner), ``budget.csv`` (cross-validated test
error as the budget grows, for the learners that can be staged) and ``claims.md`` (each
paper's claim with wins/ties/losses, paired t-tests, a sign test and the verdict of
``evaluation.verdict``, the rule the benchmark page uses; its table of claims is
docs/benchmarks.md's, "Real data"),
and prints the claims.
Protocol and budgets: ``boostcore/evaluation.py``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boostcore import evaluation  # noqa: E402
from boostcore.real_datasets import REAL_DATASETS, load_real  # noqa: E402

QUICK = [
    "TopDown-M (Hatano, k ≤ 4)",
    "TopDown binary (Kearns–Mansour)",
    "BP.InfoBoost (bands)",
    "InfoBoost (merge all)",
    "BoostODT (stumps)",
    "sklearn AdaBoost (unpruned trees)",
    "sklearn DecisionTree",
]


def run(
    datasets: list[str],
    names: list[str] | None,
    folds: int,
    out: Path,
    seed: int = 0,
    verbose: bool = True,
) -> list[dict]:
    """Cross-validate and write the three result files to ``out``; return the fold rows."""
    chosen = evaluation.learners(names)
    rows: list[dict] = []
    started = time.perf_counter()
    for name in datasets:
        ds = load_real(name)

        def progress(done, total, text, name=name):
            if verbose and (done == total or done % max(1, total // 5) == 0):
                print(
                    f"  {text}  [{done}/{total}, {time.perf_counter() - started:.0f} s]", flush=True
                )

        rows += evaluation.cross_validate(
            name,
            ds.X,
            ds.y,
            ds.categorical,
            chosen,
            n_folds=folds,
            random_state=seed,
            progress=progress,
        )
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "folds.csv", rows)
    _write(out / "summary.csv", evaluation.summarise(rows))
    peers = "; ".join(f"{k}: {v}" for k, v in evaluation.peer_status().items())
    write_claims(rows, out, folds=folds, seed=seed, datasets=datasets, peers=peers, verbose=verbose)
    return rows


def claims_table(rows: list[dict]) -> list[str]:
    """The claims as docs/benchmarks.md's table shows them, each verdict from
    ``evaluation.verdict``."""
    learners_run = {r["learner"] for r in rows}
    out = [
        "| claim | a vs b | wins / ties / losses (datasets) | significant (paired t, 5 %) "
        "| verdict |",
        "|---|---|---|---|---|",
    ]
    for title, a, b in evaluation.CLAIMS:
        if a not in learners_run or b not in learners_run:
            continue
        res = evaluation.compare(rows, a, b)
        sig = [d["dataset"] for d in res["details"] if d["significant"]]
        win, loss = evaluation.significant_counts(res)
        significant = (
            (f"{win} win{'s' * (win != 1)}, {loss} loss{'es' * (loss != 1)} ({', '.join(sig)})")
            if sig
            else "none"
        )
        out.append(
            f"| {title} | `{a}` vs `{b}` | {res['wins']} / {res['ties']} / "
            f"{res['losses']} | {significant} | {evaluation.verdict(res)} |"
        )
    return out


def write_claims(
    rows: list[dict],
    out: Path,
    *,
    folds: int,
    seed: int,
    datasets: list[str],
    peers: str,
    verbose: bool = True,
) -> None:
    """Write ``claims.md``: the rule, the claims' table, each claim per dataset, the speed."""
    lines = [
        f"# Claims ({folds}-fold stratified CV, seed {seed}; datasets: {', '.join(datasets)})",
        "",
        f"Optional peers: {peers}",
        "",
        evaluation.VERDICT_RULE + " (`boostcore.evaluation.verdict`, which the benchmark "
        "page calls too.)",
        "",
    ]
    lines += claims_table(rows) + [""]
    for title, a, b in evaluation.CLAIMS:
        if a not in {r["learner"] for r in rows} or b not in {r["learner"] for r in rows}:
            continue
        res = evaluation.compare(rows, a, b)
        lines += [
            f"## {title}",
            f"`{a}` vs `{b}`: **{evaluation.verdict(res)}**. {evaluation.describe(res)}",
            "",
            "| dataset | error a | error b | a − b | paired t p |",
            "|---|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {d['dataset']} | {d['a']:.3f} | {d['b']:.3f} | {d['diff']:+.3f} | {d['p_t']:.3f} |"
            for d in res["details"]
        ]
        lines.append("")
    lines += _speed(rows)
    out.mkdir(parents=True, exist_ok=True)
    (out / "claims.md").write_text("\n".join(lines), encoding="utf-8")
    if verbose:
        print("\n".join(lines))


def claims_only(out: Path, seed: int = 0, verbose: bool = True) -> list[dict]:
    """Rewrite ``claims.md`` from the stored ``folds.csv`` in ``out``, fitting nothing.

    The peers line is kept from the stored ``claims.md`` (it describes the machine that ran
    the fits); without one, it reports this machine.
    """
    rows = evaluation.read_folds(out / "folds.csv")
    old = out / "claims.md"
    stored = (
        [
            ln
            for ln in old.read_text(encoding="utf-8").splitlines()
            if ln.startswith("Optional peers: ")
        ]
        if old.exists()
        else []
    )
    peers = (
        stored[0].removeprefix("Optional peers: ")
        if stored
        else "; ".join(f"{k}: {v}" for k, v in evaluation.peer_status().items())
    )
    write_claims(
        rows,
        out,
        folds=len({r["fold"] for r in rows}),
        seed=seed,
        datasets=list(dict.fromkeys(r["dataset"] for r in rows)),
        peers=peers,
        verbose=verbose,
    )
    return rows


def curves(
    datasets: list[str], folds: int, out: Path, seed: int = 0, verbose: bool = True
) -> list[dict]:
    """Write ``budget.csv``: test error against leaves / rounds / nodes, same folds."""
    rows: list[dict] = []
    for name in datasets:
        ds = load_real(name)
        t0 = time.perf_counter()
        rows += evaluation.budget_curves(
            name, ds.X, ds.y, ds.categorical, n_folds=folds, random_state=seed
        )
        if verbose:
            print(f"  budget curves: {name} ({time.perf_counter() - t0:.1f} s)", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "budget.csv", evaluation.summarise_budget(rows))
    return rows


def _speed(
    rows: list[dict],
    fast: str = "BoostODT (stumps)",
    slow: str = "OC1 (oblique-classifier-1, depth 3)",
) -> list[str]:
    """Henry–Nock–Nielsen's speed claim: BoostODT against OC1-style search (fit time)."""
    names = {r["learner"] for r in rows}
    if fast not in names or slow not in names:
        return []
    out = [
        "## Henry–Nock–Nielsen: BoostODT is faster than OC1-style search (paper: 10–100×)",
        "",
        "| dataset | BoostODT fit (s) | OC1 fit (s) | OC1 / BoostODT |",
        "|---|---:|---:|---:|",
    ]
    ratios = []
    for ds in sorted({r["dataset"] for r in rows}):
        a = [r["fit_seconds"] for r in rows if r["dataset"] == ds and r["learner"] == fast]
        b = [r["fit_seconds"] for r in rows if r["dataset"] == ds and r["learner"] == slow]
        if a and b:
            ratio = (sum(b) / len(b)) / (sum(a) / len(a))
            ratios.append(ratio)
            out.append(f"| {ds} | {sum(a) / len(a):.3f} | {sum(b) / len(b):.3f} | {ratio:.0f}× |")
    out += [
        "",
        f"Median ratio {sorted(ratios)[len(ratios) // 2]:.0f}× (the pure-Python OC1 "
        "runs one restart of 20 hill-climbing steps per node; a C implementation would "
        "be faster).",
        "",
    ]
    return out


def _write(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--folds", type=int, default=10)
    p.add_argument(
        "--datasets", default=",".join(REAL_DATASETS), help="comma-separated names (default: all)"
    )
    p.add_argument("--quick", action="store_true", help="only the learners the claims need")
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--curves-only", action="store_true", help="only the error-vs-budget curves (budget.csv)"
    )
    p.add_argument(
        "--claims-only",
        action="store_true",
        help="only rewrite claims.md from the stored folds.csv (no fitting)",
    )
    a = p.parse_args(argv)
    if a.claims_only:
        claims_only(Path(a.out), a.seed)
        return
    if not a.curves_only:
        run(a.datasets.split(","), QUICK if a.quick else None, a.folds, Path(a.out), a.seed)
    curves(a.datasets.split(","), a.folds, Path(a.out), a.seed)


if __name__ == "__main__":
    main()
