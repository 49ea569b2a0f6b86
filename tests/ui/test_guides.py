"""Every preset and challenge: it loads without exception, and the numbers its comment quotes
are what the algorithms compute (so a change that moves a number fails here, not in class)."""

from __future__ import annotations

import importlib
import math
import re

import numpy as np
import pytest

from boostcore import bounds, datasets, evaluation
from boostcore.branching import bp_infoboost
from boostcore.game import equal_binary_adversary, max_weight_player, play, random_adversary
from boostcore.topdown import grow
from tests import apptest_helpers as ah
from ui import pages
from ui.guides import Guide
from ui.pages.benchmark import guides as benchmark_guides
from ui.pages.benchmark import runs as benchmark_runs
from ui.pages.branching import guides as branching_guides
from ui.pages.game import guides as game_guides
from ui.pages.game import rules as game_rules
from ui.pages.matryoshka import guides as matryoshka_guides
from ui.pages.matryoshka import runs as matryoshka_runs
from ui.pages.topdown import guides as topdown_guides

#: The pages with presets (a preset picker): every one of them is tested, from the registry.
GUIDED: tuple[pages.PageSpec, ...] = tuple(p for p in pages.PAGES if p.preset_key)
CASES = [
    pytest.param(p, kind, name, id=f"{p.slug}-{kind}-{name}")
    for p in GUIDED
    for kind, items in (("preset", p.presets), ("challenge", p.challenges))
    for name in items
]


@pytest.mark.parametrize("page", GUIDED, ids=lambda p: p.slug)
def test_every_page_has_presets_and_a_challenge(page: pages.PageSpec) -> None:
    assert page.presets and page.challenges, page.slug
    for g in (*page.presets.values(), *page.challenges.values()):
        assert isinstance(g, Guide) and g.title and g.comment and g.state


@pytest.mark.parametrize("page", GUIDED, ids=lambda p: p.slug)
def test_a_pages_guides_live_in_its_lesson_folder(page: pages.PageSpec) -> None:
    """The registry row reads ``PRESETS`` and ``CHALLENGES`` of ``ui/pages/<slug>/guides.py``
    (issue 23: one home per lesson), named alike in every lesson folder."""
    module = importlib.import_module(f"ui.pages.{page.slug}.guides")
    assert page.presets is module.PRESETS and page.challenges is module.CHALLENGES


@pytest.mark.parametrize(("page", "kind", "name"), CASES)
def test_guide_loads_its_state(page: pages.PageSpec, kind: str, name: str) -> None:
    key = page.preset_key
    at = ah.page(page.slug)
    ah.ok(at)
    if kind == "preset":
        at.selectbox(key=key).select(name).run()
        guide = page.presets[name]
    else:
        at.session_state[f"{key}_challenges"] = True  # the Challenges popover is open
        at.button(key=f"{key}_ch_{name}").click().run()
        guide = page.challenges[name]
        # loading the answer closes the popover: the demo is on the page behind it
        assert at.session_state[f"{key}_challenges"] is False
    ah.ok(at)
    for k, v in guide.state.items():
        if k == "round":
            continue
        assert at.session_state[k] == v, (k, at.session_state[k], v)
    shown = [e.value for e in (*at.info, *at.success)]
    assert any(guide.comment[:40] in text for text in shown), shown
    if "round" in guide.state:  # "the last round": the stepper clamps it
        from tests import lecture_helpers as lh

        if "round_ctl" in lh.components(at):  # a lecture page: the client-side stepper
            assert lh.stepper(at)["t"] == lh.stepper(at)["hi"]
        else:
            assert at.slider(key="round").value == at.slider(key="round").max


def _data(state: dict) -> datasets.Dataset:
    return datasets.make_dataset(
        state["data"],
        n=state["n"],
        noise=state["noise"],
        imbalance=state["pos"],
        label_noise=state["flip"],
        random_state=state["seed"],
        test_fraction=state["test"],
    )


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"(?<![\w.])\d+\.\d+", text)]


def test_topdown_naive_beats_hatano_numbers() -> None:
    g = topdown_guides.CHALLENGES["naive_wins"]
    ds = _data(g.state)
    final = {}
    for c in ("hatano", "naive"):
        steps = list(
            grow(
                ds.X_train,
                ds.y_train,
                size=g.state["s"],
                index="km",
                criterion=c,
                max_arity=g.state["k"],
                leaf_rule="max_weight",
                X_test=ds.X_test,
                y_test=ds.y_test,
            )
        )
        final[c] = steps[-1].metrics
    quoted = _numbers(g.comment)
    measured = [
        final["naive"].train_error,
        final["naive"].test_error,
        final["hatano"].train_error,
        final["hatano"].test_error,
    ]
    assert [round(v, 3) for v in measured] == [0.053, 0.03, 0.117, 0.16]
    assert all(f"{v:.3g}" in g.comment or f"{v:.2f}" in g.comment for v in (0.053, 0.117))
    assert quoted[:4] == [0.053, 0.03, 0.117, 0.16]
    assert final["naive"].test_error < final["hatano"].test_error


def _topdown_final(state: dict, criterion: str):
    ds = _data(state)
    steps = list(
        grow(
            ds.X_train,
            ds.y_train,
            size=state["s"],
            index=state["index"],
            criterion=criterion,
            max_arity=state["k"],
            gamma=state["gamma"] if criterion == "mansour_mcallester" else None,
            leaf_rule="max_weight",
            X_test=ds.X_test,
            y_test=ds.y_test,
        )
    )
    return steps[-1].metrics, [s.split.arity for s in steps if s.kind == "step"]


def test_topdown_naive_preset_numbers() -> None:
    """Every number and count the 'naive wastes the budget' comment quotes, from the exact
    k-way search (issue 14, A.1: the old comment relied on a 64-cut approximation)."""
    g = topdown_guides.PRESETS["naive"]
    (naive, n_ar), (hat, h_ar) = (_topdown_final(g.state, c) for c in ("naive", "hatano"))
    assert n_ar == [4, 4, 4, 4, 4] and "five 4-way splits" in g.comment
    assert len(h_ar) == 13 and h_ar.count(2) == 12 and "thirteen mostly binary" in g.comment
    measured = [
        naive.index_value,
        naive.train_error,
        naive.test_error,
        hat.index_value,
        hat.train_error,
        hat.test_error,
    ]
    assert _numbers(g.comment) == [
        round(v, 3) if i % 3 < 2 else round(v, 2) for i, v in enumerate(measured)
    ]


def test_topdown_multiway_preset_claims() -> None:
    """Hatano takes a 4-way split in round 1; Mansour–McAllester's rule keeps the run binary."""
    g = topdown_guides.PRESETS["multiway"]
    (_, h_ar), (_, mm_ar) = (_topdown_final(g.state, c) for c in ("hatano", "mansour_mcallester"))
    assert h_ar[0] == 4 and "4-way split" in g.comment and "round 1" in g.comment
    assert set(mm_ar) == {2} and "binary tree" in g.comment
    # what the admissibility plot shows (issue 14, A.6)
    st = g.state
    assert bounds.smallest_budget_for_arity(3, "mansour_mcallester", st["gamma"]) == 71
    assert "γ = 0.1 only from s = 71" in g.comment and st["gamma"] == 0.1 and st["s"] == 8


def test_topdown_mm_wide_preset_claims() -> None:
    """Issue 14, A.6: a preset where Mansour-McAllester's rule admits a wide split."""
    import numpy as np

    g = topdown_guides.PRESETS["mm_wide"]
    st = g.state
    n = np.arange(1, 20)
    mm = bounds.max_admissible_arity(n, st["s"], "mansour_mcallester", st["gamma"], st["k"])
    hat = bounds.max_admissible_arity(n, st["s"], "hatano", None, st["k"])
    assert mm[0] == 4 and set(mm[1:]) == {2} and "only while |T| = 1" in g.comment
    assert int(n[hat == 4].max()) == 16 and "up to |T| = 16" in g.comment
    (_, h_ar), (_, mm_ar) = (_topdown_final(st, c) for c in ("hatano", "mansour_mcallester"))
    assert mm_ar[0] == 4 and set(mm_ar[1:]) == {2}
    assert h_ar.count(4) >= 3


def _bp_steps(state: dict, merge: str):
    ds = _data(state)
    return [
        s
        for s in bp_infoboost(
            ds.X_train,
            ds.y_train,
            n_rounds=state["T"],
            merge=merge,
            c=state["c"],
            weak="h",
            X_test=ds.X_test,
            y_test=ds.y_test,
        )
        if s.kind == "step"
    ]


def _bp(state: dict, merge: str):
    return _bp_steps(state, merge)[-1].metrics


def test_branching_challenge_numbers() -> None:
    """Leaf counts are |L_t| as the page counts them: leaves training points reach, the
    same for every scheme (issue 14, B.4)."""
    g = branching_guides.CHALLENGES["few_leaves"]
    bp, dt, ib = (_bp(g.state, m) for m in ("bands", "none", "all"))
    assert (bp.n_leaves, round(bp.train_error, 3)) == (6, 0.053)
    assert (dt.n_leaves, round(dt.train_error, 3)) == (53, 0.047)
    assert (ib.n_leaves, round(ib.train_error, 3)) == (2, 0.077)
    assert [round(m.test_error, 3) for m in (bp, dt, ib)] == [0.050, 0.060, 0.080]
    assert _numbers(g.comment) == [0.053, 0.047, 0.077, 0.050, 0.060, 0.080]
    assert all(f"{k} leaves" in g.comment for k in (6, 53, 2))
    g = branching_guides.CHALLENGES["merging_hurts"]
    bp, dt = (_bp(g.state, m) for m in ("bands", "none"))
    assert (round(bp.train_error, 3), bp.n_leaves) == (0.247, 5)
    assert (round(dt.train_error, 3), dt.n_leaves) == (0.113, 63)
    assert _numbers(g.comment) == [0.247, 0.113]
    assert "with 5 leaves" in g.comment and "with 63 leaves" in g.comment


def test_branching_overfit_preset_numbers() -> None:
    g = branching_guides.PRESETS["overfit"]
    bp, dt = (_bp_steps(g.state, m) for m in ("bands", "none"))
    assert (dt[-1].t, dt[-1].metrics.n_leaves, round(dt[-1].metrics.test_error, 3)) == (
        25,
        97,
        0.307,
    )
    assert max(s.metrics.n_leaves for s in bp) == 8
    assert (bp[-1].metrics.n_leaves, round(bp[-1].metrics.test_error, 3)) == (5, 0.233)
    assert _numbers(g.comment) == [0.307, 0.233]
    assert "97 by round 25" in g.comment and "most 8 leaves" in g.comment
    assert "(5 at round 25)" in g.comment


def _prob(state: dict, structure: str):
    ds = _data(state)
    return matryoshka_runs.prob_run.__wrapped__(
        ds, "test", structure, state["Tw"], state["tau"], None
    )[-1].metrics


def test_nesting_preset_argues_from_what_the_run_shows() -> None:
    """The preset compares the matryoshka's valid bound C(T) with the paper's M2 on the run
    itself, not 'error above the tree's although M2 < F' (issue 14, C.2)."""
    g = matryoshka_guides.PRESETS["nesting"]
    m = _prob(g.state, "matryoshka")
    assert round(m.bound_C, 3) == 0.765 and round(m.bound_M2, 3) == 0.922
    assert m.bound_C <= m.bound_M2
    assert "C(T) = 0.765" in g.comment and "M2 = 0.922" in g.comment
    assert "although the paper's bound M2" not in g.comment


@pytest.mark.parametrize(
    ("guide", "expected"),
    [
        (
            matryoshka_guides.PRESETS["chain_wins"],
            {"chain": 0.153, "tree": 0.265, "matryoshka": 0.263},
        ),
        (matryoshka_guides.PRESETS["nesting"], {"matryoshka": 0.215, "tree": 0.206}),
        (
            matryoshka_guides.CHALLENGES["tree_beats_chain"],
            {"chain": 0.531, "tree": 0.247, "matryoshka": 0.241},
        ),
    ],
)
def test_matryoshka_guide_numbers(guide: Guide, expected: dict) -> None:
    for structure, value in expected.items():
        got = _prob(guide.state, structure).train_error
        assert round(got, 3) == value, (structure, got)
        assert f"{value:.3f}" in guide.comment


def test_chain_wins_preset_says_what_the_greedy_tree_is() -> None:
    """Issue 24, item 11: the greedy probabilistic tree is not balanced, so a point does not
    meet "log₂ 64 = 6" of its stumps; the comment states the run's leaf depths, how many
    stumps a training point meets on average (its expected path length under the soft
    routing) and the features the stumps use, all recomputed here."""
    g = matryoshka_guides.PRESETS["chain_wins"]
    ds = _data(g.state)
    run = matryoshka_runs.prob_run.__wrapped__(
        ds, "test", "tree", g.state["Tw"], g.state["tau"], None
    )
    tree = run[-1].model
    assert tree.n_weak == g.state["Tw"] == 64
    depth = [0] * len(tree.parent)
    for node in range(1, len(tree.parent)):
        depth[node] = depth[tree.parent[node]] + 1
    leaves, prob = tree.leaf_probabilities(ds.X_train)
    leaf_depth = np.array([depth[leaf] for leaf in leaves])
    met = float(np.mean(prob @ leaf_depth))  # expected number of stumps on a point's path
    uses = np.bincount([c.feature for c in tree.classifier if c is not None], minlength=2)
    assert "log₂ 64 = 6" not in g.comment
    assert f"depths {leaf_depth.min()} to {leaf_depth.max()}" in g.comment
    assert f"{met:.1f} of its 64 stumps on average" in g.comment
    assert f"x1 {uses[0]} times and x2 {uses[1]} times" in g.comment
    assert leaf_depth.max() > math.log2(64)  # the point of the item: not a balanced tree


def test_game_guide_numbers() -> None:
    worst = list(play(16, 0.1, max_weight_player, equal_binary_adversary))[-1].total
    assert math.isclose(worst, bounds.phi_gamma(16, 0.1)) and round(worst, 4) == 0.6561
    rnd = list(play(16, 0.1, max_weight_player, random_adversary(0)))[-1].total
    assert round(rnd, 3) == 0.569 < bounds.phi_gamma(16, 0.1)
    assert "0.569" in game_guides.PRESETS["random"].comment
    assert math.isclose(float(bounds.phi_gamma(8, 0.1)), 0.729)
    assert game_rules.watch.__wrapped__(8, 0.1, "equal", 0)[-1].total == pytest.approx(0.729)


def test_bounds_guide_numbers() -> None:
    assert round((7 / 8) ** 16, 3) == 0.118
    assert round(float(bounds.f_tree(65536, 7 / 8)), 3) == 0.229
    # "about 13 million": F(T, 7/8) crosses ρ^16 between 1.2·10^7 and 1.4·10^7
    target = (7 / 8) ** 16
    assert float(bounds.f_tree(1.2e7, 7 / 8)) > target > float(bounds.f_tree(1.4e7, 7 / 8))


def test_benchmark_guide_numbers() -> None:
    rows = benchmark_runs.benchmark_results.__wrapped__(benchmark_runs.results_mtime())
    res = evaluation.compare(rows, "BP.InfoBoost (bands)", "InfoBoost (merge all)")
    assert (res["wins"], res["ties"], res["losses"]) == (2, 2, 8)
    sig_losses = sorted(d["dataset"] for d in res["details"] if d["significant"] and d["diff"] > 0)
    assert sig_losses == ["breast_cancer", "vote"]
    sig_wins = sorted(d["dataset"] for d in res["details"] if d["significant"] and d["diff"] < 0)
    assert sig_wins == ["monk2"]
    g = benchmark_guides.CHALLENGES["merging_claim"]
    assert "breast_cancer and vote" in g.comment and "(monk2)" in g.comment
    assert g.state["bench_ds"] == "vote"
    oc1 = evaluation.compare(rows, "BoostODT (stumps)", "OC1 (oblique-classifier-1, depth 3)")
    assert oc1["wins"] == 8
    assert sum(d["significant"] and d["diff"] < 0 for d in oc1["details"]) == 5
    fit: dict = {}
    for r in rows:
        fit.setdefault((r["learner"], r["dataset"]), []).append(r["fit_seconds"])
    ratio = {
        d: np.mean(fit[("OC1 (oblique-classifier-1, depth 3)", d)])
        / np.mean(fit[("BoostODT (stumps)", d)])
        for d in {r["dataset"] for r in rows}
    }
    fast = sorted(d for d, v in ratio.items() if v > 20)
    assert fast == ["breast_cancer", "credit_g", "diabetes", "ionosphere", "sonar"]
    assert round(min(ratio[d] for d in fast)) == 30 and round(max(ratio.values())) == 274
    assert round(ratio["labor"]) == 19
    assert all(ratio[d] < 3 for d in ratio if d not in fast and d != "labor")
    g = benchmark_guides.PRESETS["odt_vs_oc1"]
    assert "30 to 274 times faster on the five" in g.comment and "19 times on labor" in g.comment


PRESET_CASES = [pytest.param(p, name, id=f"{p.slug}-{name}") for p in GUIDED for name in p.presets]


@pytest.mark.parametrize(("page", "name"), PRESET_CASES)
def test_preset_link_loads_the_preset(page: pages.PageSpec, name: str) -> None:
    """``/page?preset=name`` (the home page's lecture-path links) opens the preset."""
    preset = page.presets[name]
    at = ah.load(page.slug)
    at.query_params["preset"] = name
    at.run()
    ah.ok(at)
    for k, v in preset.state.items():
        assert at.session_state[k] == v, (k, at.session_state[k], v)
    assert any(preset.comment[:40] in e.value for e in at.info)
    assert "preset" not in at.query_params


def test_unknown_preset_link_says_so() -> None:
    at = ah.load("topdown")
    at.query_params["preset"] = "nonsense"
    at.run()
    ah.ok(at)
    assert any("preset=nonsense" in w.value for w in at.warning)  # the page's notice


def test_branching_merge_all_preset_says_when_the_products_coincide() -> None:
    """Issue 24, item 8: merging all makes ℓ_t the two sides of h_t, so H(Y|ℓ_t) = H(Y|h_t)
    every round, but Z_t = H(Y|ℓ_t) (Lemma 2) only while no leaf is one class: Π Z_t and
    Π H(Y|h_t) coincide up to the first round that smooths a leaf and stay apart after it.
    The comment names those rounds and the products, as the preset's own run computes them."""
    g = branching_guides.PRESETS["merge_all"]
    ib, dt = _bp_steps(g.state, "all"), _bp_steps(g.state, "none")
    for s in ib:
        m = s.metrics
        assert m.n_leaves == 2 and m.H_leaves == pytest.approx(m.H_h, abs=1e-12)
        # Z_t = H(Y|h_t) exactly on the rounds without smoothing, above it on the others
        assert (m.Z > m.H_h + 1e-9) == (m.smoothing_excess > 0)
    smoothed = [s.t for s in ib if s.metrics.smoothing_excess > 0]
    first = smoothed[0]
    for s in ib:
        m = s.metrics
        if s.t < first:
            assert m.bound_prod_Z == pytest.approx(m.prod_H_h, abs=1e-12)
        else:
            assert m.bound_prod_Z > m.prod_H_h + 1e-9
    rounds = ", ".join(str(t) for t in smoothed[:-1]) + f" and {smoothed[-1]}"
    assert f"rounds {rounds}" in g.comment
    together = ", ".join(str(t) for t in range(1, first - 1)) + f" and {first - 1}"
    assert f"coincide in rounds {together}" in g.comment
    last, dt_last = ib[-1].metrics, dt[-1].metrics
    assert ib[-1].t == dt[-1].t == g.state["T"]
    assert _numbers(g.comment) == [
        round(last.bound_prod_Z, 3),
        round(last.prod_H_h, 3),
        round(dt_last.bound_prod_Z, 3),
        round(dt_last.prod_H_h, 3),
    ]
    assert dt_last.bound_prod_Z < last.bound_prod_Z and dt_last.bound_prod_Z < dt_last.prod_H_h


def test_the_hyperplane_guide_says_what_adaboost_r_does() -> None:
    """AdaBoost_R takes the weak hypothesis of largest edge |μ| each round (issue 41, item
    14); it does not "maximise the margin"."""
    from ui.pages.oblique.guides import PRESETS

    comment = PRESETS["hyperplane"].comment
    assert "largest edge |μ|" in comment and "maximises the margin" not in comment
