"""The tables under the views, as HTML: this round's numbers of every run
(:func:`metrics_table`) and the matryoshka's doll check (:func:`dolls_table`)."""

from __future__ import annotations

from html import escape

import pandas as pd

from boostcore.probabilistic import ProbStep


# ================================================================================= tables
def metrics_table(current: dict[str, ProbStep | None]) -> str:
    """This round's numbers of every run (HTML, "—" where a run has no value)."""
    from ui.lecture import table_html

    rows = []
    for name, step in current.items():
        if step is None:
            rows.append({"run": name, "T": "none yet"})
            continue
        m = step.metrics
        rows.append(
            {
                "run": name,
                "T": str(m.n_weak),
                "train error": m.train_error,
                "± 2 s.e.": None if m.mc_stderr is None else 2 * m.mc_stderr,
                "test error": m.test_error,
                "C(T) / Π Z (valid)": m.bound_C,
                "ρ̂": m.rho_hat,
                "F(T, ρ̂)": m.bound_F,
                "ρ̂ᵀ": m.bound_rho_T,
                "M2 (paper)": m.bound_M2,
            }
        )
    cols = [
        "run",
        "T",
        "train error",
        "± 2 s.e.",
        "test error",
        "C(T) / Π Z (valid)",
        "ρ̂",
        "F(T, ρ̂)",
        "ρ̂ᵀ",
        "M2 (paper)",
    ]
    return table_html(pd.DataFrame(rows, columns=cols))


#: Columns of the doll table (see :func:`dolls_table`).
#: Short headers so that the table fits a 1280 px screen; each has a glossary tooltip
#: (docs/theory.md, Glossary) and the caption below spells them out.
DOLL_COLUMNS = (
    "level",
    "T₁",
    "ρ̂ of its stumps",
    "paper's ρ = M2(T₁, ρ̂)",
    "valid C",
    "node Z₊+Z₋ (≥ C)",
    "node − paper's ρ",
    "paper's step",
)

#: Shown under the doll table: where the nesting argument breaks (docs/theory.md §3.3).
DOLLS_CAPTION = (
    "Grossmann's M2 plugs each doll's error bound into the next level as its ρ: M2(T₁, ρ̂) = "
    "F(2, …F(2, ρ̂)), Eq. (10)'s F(T₁, ρ) for a doll that is itself a matryoshka (F(2, ρ̂) for "
    "a level-1 doll), with ρ̂ the largest Z₊ + Z₋ of the doll's own soft stumps. This is where "
    "the nesting argument breaks: the next level's tree bound needs ρ to bound the node's "
    "Z₊ + Z₋, not its error, and an error e only guarantees Z₊ + Z₋ ≤ 2√(e(1 − e)), which is "
    "larger than e. A doll's Z₊ + Z₋ as a node is never below its own valid bound C (merging "
    "leaves that vote alike only raises Σ 2√(W⁺W⁻)). The last columns compare the node's "
    "Z₊ + Z₋ with the ρ the paper gives it: where it is larger, this run's node does worse than "
    "the paper assumes; where it is smaller, the step happens to hold on this run, which does "
    "not prove it in general. See the theory notes (§3.3)."
)


def dolls_table(step: ProbStep | None, nxt: str) -> str:
    """Each doll used as a node: the ``ρ`` the paper plugs in for it (its bound
    ``M2(T₁, ρ̂)``) against the ``Z₊ + Z₋`` it achieves as a node, with its own valid ``C``
    (``boostcore.probabilistic.DollCheck``)."""
    from ui.lecture import table_html

    if step is None or not step.dolls:
        when = (
            ""
            if step is None or step.metrics.n_weak >= 4
            else " Level 2 (T = 4) is the first to use dolls as its nodes."
        )
        return f"<p>No doll is used as a node yet.{escape(when)} {escape(nxt)}</p>"
    rows = [
        (
            str(d.level),
            str(d.n_weak),
            d.rho_hat,
            d.paper_bound,
            d.C,
            d.node_Z,
            d.node_excess,
            "fails (node above ρ)" if d.node_excess > 0 else "holds here",
        )
        for d in step.dolls
    ]
    return table_html(pd.DataFrame(rows, columns=list(DOLL_COLUMNS)))
