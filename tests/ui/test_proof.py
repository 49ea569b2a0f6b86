"""The proof at this round (issue 17, item 3): each lesson's chain (``ui/pages/<slug>/proof.py``)
and ``ui/proof/panel.py``'s panel.

For random data and every round of every run of each family — top-down growth (each
criterion, binary and multi-way, both leaf rules), BP.InfoBoost (each merging scheme, both weak
learners), Grossmann's chain, tree, matryoshka and collapsing tree, and G1 on a path, on a tree
and BoostODT — every link the chain marks as holding holds numerically, the slack is
``right − left``, the loosest link is the largest slack among the holding links, the chain
starts at the training error the page shows, and the panel's HTML holds every value. Then the
constructed cases where an assumption fails (γ̂ = 0 at an early stop, a one-class leaf, μ = 0,
ρ̂ = 1, a run that is not γ-boosting, a Monte Carlo estimate above its bound, Grossmann's
nesting claim) are marked on the right link with a note, and hostile labels are escaped.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostcore.branching import bp_infoboost
from boostcore.datasets import make_dataset
from boostcore.oblique import boost_odt, g1_tree
from boostcore.probabilistic import collapse_tree, matryoshka, prob_adaboost, prob_tree
from boostcore.realboost import g1_linear
from boostcore.topdown import grow
from tests.strategies import labelled_samples
from ui.pages.branching.proof import branching_chain
from ui.pages.matryoshka.proof import grossmann_chain
from ui.pages.oblique.proof import g1_chain
from ui.pages.topdown.proof import topdown_chain
from ui.proof import (
    ASSUMPTION,
    CLAIM,
    ESTIMATE,
    HOLDS,
    NOT_THEOREM,
    STATUSES,
    Chain,
    fmt,
    fmt_slack,
    link,
    loosest_link,
    make_chain,
    math_html,
    proof_panel_html,
)

TOL = 1e-12
SETTINGS = settings(max_examples=20, deadline=None)


# ---------------------------------------------------------------------------------- checks
def _text(fragment: str) -> str:
    """The visible text of an HTML fragment (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def check_chain(chain: Chain, page_error: float) -> None:
    """Everything a chain must satisfy whatever the run: see the module docstring."""
    assert chain.links, "a chain has links"
    # the panel and the curves agree: the chain starts at the page's training error
    assert chain.leftmost == page_error
    best = None
    for i, lk in enumerate(chain.links):
        assert lk.status in STATUSES
        assert lk.relation in ("≤", "=")
        assert lk.holds == (lk.status == HOLDS)
        assert lk.slack == lk.right - lk.left
        if lk.holds:
            assert math.isfinite(lk.left) and math.isfinite(lk.right), lk
            assert lk.left <= lk.right + TOL, lk
            if lk.relation == "=":
                assert abs(lk.slack) <= TOL * max(1.0, abs(lk.left), abs(lk.right)), lk
            assert lk.observed
            if best is None or lk.slack > chain.links[best].slack:
                best = i
        else:
            assert lk.note, f"a link that does not hold says why: {lk}"
    assert chain.loosest == best
    # the panel: every value, every slack, the title, caption and citation, one loosest link
    for large in (False, True):
        out = proof_panel_html(chain, large=large)
        text = _text(out)
        for lk in chain.links:
            assert fmt(lk.left) in text and fmt(lk.right) in text and fmt_slack(lk) in text
            assert _text(math_html(lk.left_label)) in text
            assert _text(math_html(lk.right_label)) in text
        for words in (chain.title, chain.caption, chain.citation):
            assert html.escape(words) in out
        assert out.count('data-loosest="true"') == (chain.loosest is not None)
        flags = re.findall(r'data-loosest="(true|false)"', out)
        if chain.loosest is not None:
            assert flags.index("true") == chain.loosest


def check_run(run, build) -> list[Chain]:
    """Build and check the chain of every snapshot of ``run``."""
    chains = []
    for step in run:
        chain = build(step)
        check_chain(chain, step.metrics.train_error)
        assert chain.t == step.t
        chains.append(chain)
    return chains


# ------------------------------------------------------------------------- random data
@pytest.mark.parametrize("criterion", ["hatano", "mansour_mcallester", "naive"])
@pytest.mark.parametrize("max_arity", [2, 4])
@SETTINGS
@given(
    data=labelled_samples(max_n=50, ties=("none", "fine", "coarse")),
    size=st.integers(2, 12),
    gamma=st.floats(0.05, 0.6),
    leaf_rule=st.sampled_from(["max_weight", "max_gain"]),
    index=st.sampled_from(["km", "gini", "entropy", "error"]),
)
def test_topdown_chain_every_round(criterion, max_arity, data, size, gamma, leaf_rule, index):
    X, y = data
    g = gamma if criterion == "mansour_mcallester" else None
    run = list(
        grow(
            X,
            y,
            size=size,
            criterion=criterion,
            max_arity=max_arity,
            gamma=g,
            leaf_rule=leaf_rule,
            index=index,
        )
    )
    chains = check_run(run, lambda s: topdown_chain(s, criterion=criterion, leaf_rule=leaf_rule))
    for s, chain in zip(run, chains):
        first = chain.links[0]
        assert (first.left_label, first.right_label, first.status) == ("ε̂(T)", "I(T)", HOLDS)
        m = s.metrics
        rights = [lk.right_label for lk in chain.links]
        if m.binary_guarantee and leaf_rule == "max_weight":
            assert rights[:4] == ["I(T)", "φ_γ̂(|T|)", "e_γ̂(|T|)", "|T|^−γ̂"]
        else:
            assert rights[:3] == ["I(T)", "φ_γ̂(s)", "s^−γ̂"]
            if leaf_rule == "max_gain" or m.n_leaves < s.size and m.index_value > 0:
                # not the final tree (or not the theorems' leaf rule): no theorem
                assert chain.links[1].status == NOT_THEOREM
        if leaf_rule == "max_gain":
            assert [lk.holds for lk in chain.links[:2]] == [True, False]
            if not any(len(ch) > 2 for ch in s.tree.children):
                # told the wrong leaf rule, the chain still sees a binary tree without the
                # binary guarantee and claims nothing
                wrong = topdown_chain(s, criterion=criterion, leaf_rule="max_weight")
                assert [lk.status for lk in wrong.links] == [lk.status for lk in chain.links]
        assert (criterion == "mansour_mcallester") == (rights[-1] == "e_γ(|T|)")


@pytest.mark.parametrize("merge", ["all", "none", "bands"])
@SETTINGS
@given(
    data=labelled_samples(max_n=50),
    rounds=st.integers(1, 8),
    c=st.floats(0.1, 0.9),
    weak=st.sampled_from(["h", "divided"]),
)
def test_branching_chain_every_round(merge, data, rounds, c, weak):
    X, y = data
    run = list(bp_infoboost(X, y, n_rounds=rounds, merge=merge, c=c, weak=weak))
    chains = check_run(run, lambda s: branching_chain(s, merge=merge, history=run))
    smoothed = False
    for s, chain in zip(run, chains):
        m = s.metrics
        first = chain.links[0]
        assert (first.right_label, first.status, first.right) == ("Π Z_t", HOLDS, m.bound_prod_Z)
        assert chain.links[2].right == m.prod_H_h
        assert chain.links[2].relation == ("=" if merge == "all" else "≤")
        smoothed = smoothed or (s.t >= 1 and m.smoothing_excess > 0)
        lemma2 = chain.links[1]
        assert lemma2.relation == "="
        assert lemma2.status == (ASSUMPTION if smoothed else HOLDS)
        if smoothed:
            assert "one-class leaf" in lemma2.note
            assert lemma2.left > lemma2.right  # smoothing only raises Z_t
        labels = [lk.right_label for lk in chain.links]
        # Theorem 2's floor is on every scheme's card (issue 24, item 14)
        floors = [lk for lk in chain.links if lk.left_label == "H_U(Y|h_1…h_t)"]
        assert len(floors) == (s.t >= 1)
        assert ("1 − cγ_t" in labels) == (merge == "bands" and s.t >= 1)


@SETTINGS
@given(
    data=labelled_samples(max_n=30, min_n=8, max_d=2, ties=("none",), labels=("linear",)),
    tau=st.floats(0.05, 1.5),
    n=st.integers(1, 4),
)
def test_grossmann_chains_every_round(data, tau, n):
    X, y = data
    runs = {
        "chain": list(prob_adaboost(X, y, n_rounds=n, softness=tau, mc_samples=200)),
        "tree": list(prob_tree(X, y, n_internal=n, softness=tau)),
        "matryoshka": list(matryoshka(X, y, levels=min(n, 3), softness=tau)),
        "collapse": list(collapse_tree(X, y, n_internal=n, softness=tau)),
    }
    for structure, run in runs.items():
        chains = []
        for s in run:
            chain = grossmann_chain(s)
            chains.append(chain)
            if structure == "chain" and s.metrics.train_error > s.metrics.bound_C:
                # sampling noise, never a broken theorem: within four standard errors
                assert chain.links[0].status == ESTIMATE
                assert s.metrics.train_error <= s.metrics.bound_C + 4 * s.metrics.mc_stderr
            check_chain(chain, s.metrics.train_error)
        for s, chain in zip(run, chains):
            first = chain.links[0]
            assert first.right == s.metrics.bound_C
            if structure == "matryoshka" and s.t >= 2:
                claim = chain.links[-1]
                assert (claim.right_label, claim.status) == ("M2(T, ρ̂)", CLAIM)
                assert "nesting" in claim.note and not claim.holds
                assert chain.links[1].right_label == "F(2, ρ̂)"
            elif structure == "tree":
                assert [lk.right_label for lk in chain.links] == ["C(T)", "F(T, ρ̂)"]
                assert chain.links[1].right == s.metrics.bound_F


@SETTINGS
@given(
    data=labelled_samples(
        max_n=40, levels=(2, 4, 1000), labels=("random", "linear"), both="first_two", weights=True
    ),
    rounds=st.integers(1, 6),
    weak=st.sampled_from(["stump", "hyperplane"]),
    leaf_rule=st.sampled_from(["max_decrease", "breadth_first"]),
)
def test_g1_chains_every_round(data, rounds, weak, leaf_rule):
    X, y, w = data
    run = list(g1_linear(X, y, n_rounds=rounds, weak=weak, sample_weight=w))
    for s, chain in zip(run, check_run(run, lambda s: g1_chain(s, history=run))):
        labels = [lk.right_label for lk in chain.links]
        assert labels == ["E e^−yH", "Π √(1 − μ_t²)", "e^−γ̂²T/2"]
        assert chain.links[1].right == s.metrics.bound_theorem1
    trees = [
        list(g1_tree(X, y, n_internal=rounds, leaf_rule=leaf_rule, sample_weight=w)),
        list(
            boost_odt(
                X, y, n_internal=rounds, n_stumps=3, weak=weak, leaf_rule=leaf_rule, sample_weight=w
            )
        ),
    ]
    for run in trees:
        for s, chain in zip(run, check_run(run, g1_chain)):
            tree = s.tree
            one_class = any(tree.w_pos[n] <= 0 or tree.w_neg[n] <= 0 for n in tree.leaves)
            thm2 = chain.links[1]
            assert (thm2.relation, thm2.right_label) == ("=", "E e^−yH")
            assert thm2.status == (ASSUMPTION if one_class else HOLDS)
            # the identity is off only by what one-class leaves lose: never below
            assert thm2.left <= thm2.right + TOL


# ------------------------------------------------------------------ constructed failures
def test_topdown_gamma_zero_at_an_early_stop():
    # leaf {x = 0} holds both classes at one point: no split can divide it
    X = np.array([[0.0], [0.0], [1.0], [2.0]])
    y = np.array([-1, 1, 1, 1])
    run = list(grow(X, y, size=4, max_arity=2))
    assert run[-1].kind == "stop" and run[-1].metrics.gamma_hat == 0.0
    before = topdown_chain(run[1], criterion="hatano")
    assert all(lk.holds for lk in before.links)
    chain = topdown_chain(run[-1], criterion="hatano")
    check_chain(chain, run[-1].metrics.train_error)
    broken = chain.links[1]
    assert (broken.left_label, broken.right_label) == ("I(T)", "φ_γ̂(|T|)")
    assert broken.status == ASSUMPTION and not broken.holds and "γ̂ = 0" in broken.note
    assert broken.right == 1.0  # the trivial bound
    assert chain.links[0].holds  # ε̂ ≤ I(T) holds for every tree


def test_topdown_multiway_links_by_round():
    # stripes (seed 1): Hatano's run takes a 4-way split at the root (docs/development.md)
    ds = make_dataset("stripes", n=400, noise=0.05, random_state=1)
    run = list(grow(ds.X_train, ds.y_train, size=8, criterion="hatano", max_arity=4))
    assert run[1].split.arity > 2
    for s in run:
        chain = topdown_chain(s, criterion="hatano")
        check_chain(chain, s.metrics.train_error)
        phi = chain.links[1]
        final = s.metrics.n_leaves == s.size or s.metrics.index_value == 0
        if s.t == 0:
            assert phi.right_label == "φ_γ̂(|T|)" and phi.holds
        else:
            assert phi.right_label == "φ_γ̂(s)"
            assert phi.status == (HOLDS if final else NOT_THEOREM)
            if not final:
                assert "final tree" in phi.note
    naive = list(grow(ds.X_train, ds.y_train, size=8, criterion="naive", max_arity=4))
    assert any(s.split is not None and s.split.arity > 2 for s in naive)
    chain = topdown_chain(naive[-1], criterion="naive")
    assert chain.links[1].status == NOT_THEOREM and "naive" in chain.links[1].note


def test_naive_run_within_hatanos_rule_keeps_theorem_4():
    """Issue 24, item 5: the proof card greys by what the run did, not by the criterion's
    name. Moons (n = 400, seed 0), naive, K = 3, s = 3: one 3-way root split, which Hatano's
    rule k ≤ s/|T| = 3 allows, so I(T) ≤ φ_γ̂(s) is Theorem 4 (by its proof)."""
    ds = make_dataset("moons", n=400, random_state=0)
    run = list(grow(ds.X_train, ds.y_train, size=3, criterion="naive", max_arity=3))
    last = run[-1]
    assert run[1].split.arity == 3 and last.metrics.n_leaves == 3
    assert last.metrics.final_guarantee
    chain = topdown_chain(last, criterion="naive")
    check_chain(chain, last.metrics.train_error)
    phi = chain.links[1]
    assert phi.right_label == "φ_γ̂(s)"
    assert phi.status == HOLDS and phi.holds and not phi.note
    assert phi.left == pytest.approx(last.metrics.index_value)
    assert phi.right == pytest.approx(last.metrics.bound_phi_final)
    assert "naive" not in phi.reason


def test_naive_run_that_broke_hatanos_rule_names_the_split():
    """A naive run that took a k-way split Hatano's rule forbids stays greyed, and the note
    names that split (its round, arity and |T|), found from the run, not the criterion."""
    ds = make_dataset("stripes", n=400, noise=0.05, random_state=1)
    run = list(grow(ds.X_train, ds.y_train, size=8, criterion="naive", max_arity=4))
    bad = [
        (s.t, s.split.arity, run[i - 1].metrics.n_leaves)
        for i, s in enumerate(run)
        if s.kind == "step" and s.split.arity > s.size / run[i - 1].metrics.n_leaves
    ]
    assert bad, "the fixture must break Hatano's rule"
    t, k, n = bad[0]
    for s in run[t:]:
        phi = topdown_chain(s, criterion="naive").links[1]
        assert phi.status == NOT_THEOREM
        assert f"{k}-way split at round {t}" in phi.note
        assert f"|T| = {n}" in phi.note and "k ≤ s/|T|" in phi.note
    # before that split the run was within the rule: not greyed for the criterion's name
    for s in run[1:t]:
        phi = topdown_chain(s, criterion="naive").links[1]
        assert "naive" not in phi.note


def test_phi_to_power_step_cites_the_end_of_theorem_4s_proof():
    """Issue 24, item 6: φ_γ(s) ≤ s^−γ closes Hatano's proof of Theorem 4; Theorem 5 is the
    game statement (equal binary splits are the adversary's best)."""
    ds = make_dataset("stripes", n=400, noise=0.05, random_state=1)
    run = list(grow(ds.X_train, ds.y_train, size=8, criterion="hatano", max_arity=4))
    step_link = topdown_chain(run[-1], criterion="hatano").links[2]
    assert (step_link.left_label, step_link.right_label) == ("φ_γ̂(s)", "s^−γ̂")
    assert "Thm 5" not in step_link.reason and "Theorem 5" not in step_link.reason
    assert "Thm 4" in step_link.reason and "proof" in step_link.reason


def test_topdown_not_gamma_boosting_is_marked():
    ds = make_dataset("moons", n=200, random_state=0)
    run = list(grow(ds.X_train, ds.y_train, size=8, criterion="mansour_mcallester", gamma=0.9))
    assert run[-1].metrics.mm_gamma_boosting is False
    chain = topdown_chain(run[-1], criterion="mansour_mcallester")
    mm = chain.links[-1]
    assert (mm.right_label, mm.status) == ("e_γ(|T|)", ASSUMPTION)
    assert "not γ-boosting" in mm.note


def test_topdown_rejects_unknown_context():
    ds = make_dataset("moons", n=100, random_state=0)
    step = next(grow(ds.X_train, ds.y_train, size=4))
    with pytest.raises(ValueError, match="criterion"):
        topdown_chain(step, criterion="gini")
    with pytest.raises(ValueError, match="leaf_rule"):
        topdown_chain(step, criterion="hatano", leaf_rule="random")


def test_branching_one_class_leaf_breaks_lemma2_and_a_clean_run_keeps_it():
    ds = make_dataset("moons", n=100, random_state=0)
    run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3, merge="bands"))
    assert run[1].metrics.smoothing_excess > 0
    chain = branching_chain(run[1], merge="bands", history=run)
    assert (
        chain.links[1].status == ASSUMPTION and "one-class leaf in round 1" in chain.links[1].note
    )
    assert chain.links[0].holds
    # one binary feature, both classes on each side: the only stump leaves no leaf pure
    X = np.repeat([[0.0], [1.0]], 50, axis=0)
    y = np.array([1] * 35 + [-1] * 15 + [1] * 15 + [-1] * 35)
    clean = list(bp_infoboost(X, y, n_rounds=2, merge="all"))
    assert len(clean) == 3 and clean[1].metrics.smoothing_excess == 0
    for s in clean:
        chain = branching_chain(s, merge="all", history=clean)
        check_chain(chain, s.metrics.train_error)
        assert all(lk.holds for lk in chain.links)


def test_branching_needs_every_earlier_round():
    ds = make_dataset("moons", n=100, random_state=0)
    run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3))
    with pytest.raises(ValueError, match=r"rounds \[2\] are missing"):
        branching_chain(run[3], merge="bands", history=[run[1], run[3]])
    with pytest.raises(ValueError, match="merge"):
        branching_chain(run[3], merge="some", history=run)
    # the page's frames replace the last step by the stop snapshot: the same round
    frames = run[:-2] + run[-1:]
    assert branching_chain(frames[-1], merge="bands", history=frames).links == (
        branching_chain(run[3], merge="bands", history=run).links
    )


def test_g1_no_edge_marks_the_weak_learning_link():
    # XOR: every stump and both constants have μ = 0 under the uniform weights
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([-1, -1, 1, 1])
    run = list(g1_linear(X, y, n_rounds=3))
    assert run[-1].kind == "stop" and "μ = 0" in run[-1].stop_reason
    chain = g1_chain(run[-1], history=run)
    check_chain(chain, run[-1].metrics.train_error)
    rate = chain.links[-1]
    assert rate.right_label == "e^−γ̂²T/2"
    assert rate.status == ASSUMPTION and "μ = 0" in rate.note and rate.right == 1.0
    assert chain.links[0].holds and chain.links[1].holds
    # the same round before the stop is fine
    assert g1_chain(run[0], history=run).links[-1].holds
    with pytest.raises(ValueError, match="history"):
        g1_chain(run[0])


def test_g1_tree_one_class_leaf_marks_theorem2():
    ds = make_dataset("moons", n=100, random_state=0)
    run = list(g1_tree(ds.X_train, ds.y_train, n_internal=3))
    last = g1_chain(run[-1])
    assert last.links[1].status == ASSUMPTION and "one-class leaf" in last.links[1].note
    assert g1_chain(run[0]).links[1].holds  # the root alone holds both classes


def test_grossmann_no_edge_makes_the_size_bound_trivial():
    # a constant feature and balanced labels: every soft stump has Z₊ + Z₋ = 1
    X = np.zeros((6, 1))
    y = np.array([-1, 1, -1, 1, -1, 1])
    run = list(prob_tree(X, y, n_internal=2))
    chain = grossmann_chain(run[1])
    check_chain(chain, run[1].metrics.train_error)
    size = chain.links[1]
    assert size.status == ASSUMPTION and "ρ̂ = 1" in size.note
    assert chain.links[0].holds


def test_grossmann_estimate_and_map_cases():
    ds = make_dataset("moons", n=60, random_state=0)
    step = list(prob_adaboost(ds.X_train, ds.y_train, n_rounds=2, mc_samples=100))[2]
    m = step.metrics
    # a Monte Carlo estimate (a chain beyond the exact budget) above Π Z_t by its noise
    noisy = replace(step, metrics=replace(m, train_error=m.bound_C + 0.01, mc_stderr=0.004))
    chain = grossmann_chain(noisy)
    check_chain(chain, noisy.metrics.train_error)
    assert chain.links[0].status == ESTIMATE and "sampling noise" in chain.links[0].note
    assert grossmann_chain(step, samples=5).links[0].status == NOT_THEOREM
    tree = list(prob_tree(ds.X_train, ds.y_train, n_internal=2, samples=5))[-1]
    chain = grossmann_chain(tree, samples=5)
    assert chain.links[0].status == NOT_THEOREM and "MAP" in chain.links[0].note
    assert chain.links[1].holds  # C ≤ F(T, ρ̂) is algebra on the same Z's


def test_matryoshka_claim_says_where_nesting_fails():
    ds = make_dataset("moons", n=100, random_state=0)
    run = list(matryoshka(ds.X_train, ds.y_train, levels=3, softness=0.9))
    one = grossmann_chain(run[1])
    assert [lk.right_label for lk in one.links] == ["C(T)", "F(2, ρ̂)"]
    assert all(lk.holds for lk in one.links)
    three = grossmann_chain(run[3])
    claim = three.links[-1]
    bad = sum(d.node_excess > 0 for d in run[3].dolls)
    assert bad > 0  # τ = 0.9: the nesting step fails for most dolls (docs/teaching.md)
    assert claim.status == CLAIM and f"{bad} of {len(run[3].dolls)} dolls" in claim.note
    assert three.loosest != len(three.links) - 1


# ------------------------------------------------------------------------------ the panel
def test_panel_escapes_hostile_text_and_shows_every_value():
    evil = '<script>alert("x")</script>&'
    links = [
        link(evil, "≤", "I_" + evil, 0.125, 0.5, reason=evil),
        link("a^" + evil, "=", "b", 0.5, 0.25, status=CLAIM, note=evil),
        link("c", "≤", "d", 0.25, 0.75),
    ]
    chain = make_chain(evil, links, evil, evil, 4)
    for large in (False, True):
        out = proof_panel_html(chain, large=large)
        assert "<script>" not in out and "alert(&quot;x&quot;)" in out
        text = _text(out)
        for value in ("0.125", "0.5", "0.25", "0.75", "+0.375", "−0.25", "+0.5"):
            assert value in text
        assert "loosest link" in text and "false on this run" in text
        assert "≠" in text  # the claim's numbers are not equal
    assert chain.loosest == 2


def test_numbers_and_loosest():
    assert fmt(0.123456) == "0.1235" and fmt(12346.0) == "1.235×10⁴"
    assert fmt(None) == "—" and fmt(float("inf")) == "∞" and fmt(-2e-7) == "−2×10⁻⁷"
    tie = [link("a", "≤", "b", 0.0, 0.5), link("b", "≤", "c", 0.5, 1.0)]
    assert loosest_link(tie) == 0
    none_hold = [link("a", "≤", "b", 0, 1, status=NOT_THEOREM, note="ref.")]
    assert loosest_link(none_hold) is None
    assert 'data-loosest="true"' not in proof_panel_html(make_chain("t", none_hold, "", "", 0))
    with pytest.raises(ValueError, match="note"):
        link("a", "≤", "b", 0, 1, status=CLAIM)
    with pytest.raises(ValueError, match="relation"):
        link("a", "<", "b", 0, 1)


# ------------------------------------------ Theorem 2's floor on every card (issue 24, 14)
def _floor_by_hand(X, y, program) -> tuple[float, int]:
    """``H_U(Y|h_1…h_t)`` from the definition: the rows grouped by their tuple of stump
    outputs with plain Python, ``Σ 2·sqrt(P_U(cell, +) P_U(cell, −))``; and the cell count."""
    pos_label = max(y.tolist())
    cells: dict[tuple, list[int]] = {}
    for x, yi in zip(X.tolist(), y.tolist()):
        key = tuple(x[r.feature] > r.threshold for r in program.rounds)
        cells.setdefault(key, [0, 0])[0 if yi == pos_label else 1] += 1
    m = len(y)
    return sum(2.0 * math.sqrt(p * n) / m for p, n in cells.values()), len(cells)


@pytest.mark.parametrize("merge", ["all", "none", "bands"])
@SETTINGS
@given(
    data=labelled_samples(max_n=40),
    rounds=st.integers(1, 6),
    c=st.floats(0.1, 0.9),
    mixed=st.booleans(),
)
def test_branching_card_shows_theorem2_floor_for_every_scheme(merge, data, rounds, c, mixed):
    """Every scheme's card has ``H_U(Y|h_1…h_t) ≤ Π Z_t`` (Takimoto, Koya & Maruoka, Thm 2),
    a theorem at every round; ``=`` exactly when the leaves are the paths and no leaf of the
    round is smoothed (Lemma 3). ``mixed`` gives every row both labels: no leaf is ever pure,
    so the ``=`` case comes up for every scheme at round 1 and for DT.InfoBoost throughout.
    The floor is checked against a plain-Python grouping of the rows."""
    X, y = data
    if mixed:
        X = np.repeat(X, 3, axis=0)
        y = np.repeat(np.where(y == np.max(y), 1, -1), 3) * np.tile([1, 1, -1], len(y))
    run = list(bp_infoboost(X, y, n_rounds=rounds, merge=merge, c=c))
    for s in run:
        chain = branching_chain(s, merge=merge, history=run)
        floors = [lk for lk in chain.links if lk.left_label == "H_U(Y|h_1…h_t)"]
        if s.t == 0:
            assert not floors
            continue
        (lk,) = floors
        m = s.metrics
        floor, n_cells = _floor_by_hand(X, y, s.program)
        assert lk.left == pytest.approx(floor, abs=1e-12)
        assert (lk.right_label, lk.right, lk.status) == ("Π Z_t", m.bound_prod_Z, HOLDS)
        equal = m.n_leaves == n_cells and m.smoothing_excess == 0
        assert lk.relation == ("=" if equal else "≤")
        if merge == "none" and not m.smoothing_excess:
            assert lk.relation == "="  # DT.InfoBoost without a pure leaf: the floor itself
        if mixed and (merge == "none" or s.t == 1):
            assert lk.relation == "="
        if lk.relation == "≤":  # the factor the bound stands above the floor by
            assert f"H_{{D_{{t+1}}}}(Y|h_1…h_t) = {fmt(m.H_paths_next)}" in lk.reason


def test_lemma4_words_where_sections_lambda_is_out_of_range():
    """Issue 41, item 10: at γ_t ≥ 2/(3 − c) only §6's λ leaves (0, 1); the card and the
    groups' line say the lemma still gives 1 − cγ_t with any 0 < λ < 1 and
    0 < δ ≤ (2 − c)γ_t − 1 (the number recomputed here), never that it does not apply."""
    from ui.pages.branching import frames as fb

    ds = make_dataset("moons", n=100, random_state=0)
    c, g = 0.5, 0.9  # 2/(3 − c) = 0.8
    run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=2, merge="bands", c=c))
    s = run[1]
    s = replace(s, metrics=replace(s.metrics, gamma=g, bound_theorem3=1 - c * g))
    (thm3,) = [
        lk
        for lk in branching_chain(s, merge="bands", history=run).links
        if lk.right_label == "1 − cγ_t"
    ]
    words = html.unescape(fb.groups_html(s))
    for text in (thm3.reason, words):
        assert "does not apply" not in text
        assert "outside (0, 1)" in text and "any 0 < λ < 1" in text, text
    assert f"= {fmt((2 - c) * g - 1)} still" in thm3.reason
    assert f"= {(2 - c) * g - 1:.4g} still" in words


def test_branching_card_lemma4_beside_theorem3():
    """The bands card's Theorem 3 link says what Lemma 4 (Mansour–McAllester's merging) would
    guarantee at this round with §6's λ, δ: the same 1 − cγ_t with (1/λ) ln(1/δ) groups up
    to a constant, against Theorem 3's 4K (computed here from the formulas)."""
    ds = make_dataset("moons", n=100, random_state=0)
    c = 0.5
    run = list(bp_infoboost(ds.X_train, ds.y_train, n_rounds=3, merge="bands", c=c))
    for s in run[1:4]:
        m = s.metrics
        (thm3,) = [
            lk
            for lk in branching_chain(s, merge="bands", history=run).links
            if lk.right_label == "1 − cγ_t"
        ]
        g = m.gamma
        lam, delta = (1 - c) * g / (2 * (1 - g)), (1 - c) * g / 2
        assert (1 + lam) * (1 - g) + delta == pytest.approx(m.bound_theorem3, abs=1e-12)
        assert f"λ = {fmt(lam)}, δ = {fmt(delta)}" in thm3.reason
        assert f"(1/λ) ln(1/δ) = {math.log(1 / delta) / lam:.1f}" in thm3.reason
        assert f"4K = {m.max_groups}" in thm3.reason
        assert "Lemma 4" in thm3.reason and "Mansour" in thm3.reason
    for merge in ("all", "none"):
        chain = branching_chain(run[2], merge=merge, history=run)
        assert not any("Lemma 4" in lk.reason for lk in chain.links)
