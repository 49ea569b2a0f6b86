"""Presets and challenges of the benchmark page; data only: the page loads them
through its registry row.

A preset is a prepared demo with a comment on what to look at; a challenge is a question
whose answer loads a demo (:class:`ui.guides.Guide`). Every number quoted in a comment is
checked by ``tests/ui/test_guides.py``, so a change to an algorithm that moves a number fails
a test.
"""

from __future__ import annotations

from ui.guides import Guide

PRESETS: dict[str, Guide] = {
    "odt_vs_oc1": Guide(
        title="BoostODT against OC1, the classic oblique tree",
        comment="Wins and losses of every learner against OC1: BoostODT (stumps) wins on 8 "
        "of 12 datasets (5 significantly). It also fits 30 to 274 times faster on the five "
        "datasets with many numeric features (19 times on labor), and about as fast on the "
        "small categorical ones (see the fit-time table).",
        state=dict(bench_ref="OC1 (oblique-classifier-1, depth 3)", bench_show="mean test error"),
    ),
}
CHALLENGES: dict[str, Guide] = {
    "merging_claim": Guide(
        title="Is BP.InfoBoost's merging at least as accurate as InfoBoost on real data?",
        comment="Not here: 2 wins, 2 ties and 8 losses against InfoBoost (merge all); the "
        "significant losses (paired t, 5 %) are breast_cancer and vote — vote is shown "
        "below — against one significant win (monk2). Merging does avoid DT.InfoBoost's "
        "overfitting (the next claim).",
        state=dict(bench_ref="InfoBoost (merge all)", bench_ds="vote"),
    ),
}
