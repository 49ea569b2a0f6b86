"""AppTest for the Weight Distribution Game page: a full game in each mode, undo, errors."""

from __future__ import annotations

import functools

import pytest
from streamlit.testing.v1 import AppTest

from boostcore.bounds import phi_gamma
from tests import apptest_helpers as ah

_page = functools.partial(ah.page, "game")


def _weight(at: AppTest) -> float:
    return float(next(m.value for m in at.metric if m.label == "Tree weight now"))


def test_adversary_mode_equal_binary_reaches_phi_and_explains() -> None:
    at = _page(s="8", gamma="0.2")
    ah.ok(at)
    for _ in range(7):
        at.button(key="adv_expand").click().run()
        ah.ok(at)
    assert _weight(at) == pytest.approx(phi_gamma(8, 0.2), abs=1e-4)
    assert any("= φ_γ(s)" in s.value for s in at.success)
    assert any("Why nobody beats" in i.value for i in at.info)
    board = [d.value for d in at.dataframe if "final / φ" in d.value.columns][-1]
    assert len(board) == 1 and board["final / φ"].iloc[0] == pytest.approx(1.0)
    history = [d.value for d in at.dataframe if "tree weight after" in d.value.columns][-1]
    assert len(history) == 7


def test_adversary_mode_wide_unequal_split_ends_lower() -> None:
    at = _page(s="8", gamma="0.1")
    at.selectbox(key="adv_k").set_value(4).run()
    at.slider(key="share_0").set_value(100).run()
    at.button(key="adv_expand").click().run()
    ah.ok(at)
    assert _weight(at) == pytest.approx(0.8, abs=1e-4)  # 4-way: 1 − 0.1·2
    while not any("Game over" in m.value for m in at.markdown):
        at.button(key="adv_expand").click().run()
        ah.ok(at)
    assert _weight(at) < phi_gamma(8, 0.1)
    assert any("Try again" in w.value for w in at.warning)


def test_undo_restart_and_zero_shares_error() -> None:
    at = _page(s="6")
    at.button(key="adv_expand").click().run()
    at.button(key="adv_expand").click().run()
    at.button(key="game_undo").click().run()
    ah.ok(at)
    history = [d.value for d in at.dataframe if "tree weight after" in d.value.columns][-1]
    assert len(history) == 1
    at.slider(key="share_0").set_value(0).run()
    at.slider(key="share_1").set_value(0).run()
    at.button(key="adv_expand").click().run()
    ah.ok(at)
    assert any("positive share" in e.value for e in at.error)
    at.button(key="game_restart").click().run()
    history = [d.value for d in at.dataframe if "tree weight after" in d.value.columns][-1]
    assert len(history) == 0


def test_player_mode_full_game() -> None:
    at = _page(mode="You are the player", s="5", gamma="0.3")
    ah.ok(at)
    # a bad player: always the lightest leaf
    for _ in range(4):
        leaves = at.radio(key="player_leaf").options
        at.radio(key="player_leaf").set_value(int(leaves[-1].split()[0][1:])).run()
        at.button(key="player_expand").click().run()
        ah.ok(at)
    assert any("Game over" in m.value for m in at.markdown)
    assert _weight(at) >= phi_gamma(5, 0.3) - 1e-4


def test_watch_mode_both_adversaries() -> None:
    at = _page(mode="Watch", s="10", gamma="0.15")
    ah.ok(at)
    at.button(key="round_last").click().run()
    ah.ok(at)
    assert any("equal binary splits end at" in c.value for c in at.caption)
    at.radio(key="watch_adv").set_value("random k and shares").run()
    if not at.button(key="round_last").disabled:
        at.button(key="round_last").click().run()
    ah.ok(at)
    final = float(next(m.value for m in at.metric))
    assert final <= phi_gamma(10, 0.15) + 1e-4


def test_the_chart_marks_phi_at_s_as_the_bound_and_phi_n_as_a_reference() -> None:
    """φ_γ(n) bounds the end of a game of target n only: a legal game of target s = 8 with
    γ = 0.1 weighs 0.81 at n = 5 > φ_γ(5) = 0.790 and still ends below φ_γ(8) (issue 14, A.8).
    """
    from boostcore.bounds import phi_gamma
    from boostcore.game import expand, new_game
    from ui.pages.game.figures import trajectory_figure

    state = new_game(8, 0.1)
    for heavy in (True, True, False, False):  # all weight to one child; then empty leaves
        leaf = (max if heavy else min)(state.leaves, key=state.weight)
        state = expand(state, leaf, 2, [1.0, 0.0])
    assert state.n_leaves == 5
    assert state.history[-1].total_after == pytest.approx(0.81)
    assert state.history[-1].total_after > phi_gamma(5, 0.1)  # above φ_γ(5) = 0.790
    fig = trajectory_figure(state)
    names = [d["name"] for d in fig.data]
    ref = next(n for n in names if n.startswith("φ_γ(n)"))
    assert "reference" in ref and "not a bound" in ref
    star = next(d for d in fig.data if d["name"].startswith("φ_γ(s)"))
    assert list(star["x"]) == [8] and star["y"][0] == pytest.approx(phi_gamma(8, 0.1))


def _lemma9_metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric if "ubtree" in m.label or "Whole" in m.label}


def test_lemma9_step_from_the_preset_replaces_the_4_way_root() -> None:
    """Issue 14, A.8: the Lemma 9 step. The preset plays a 4-way equal split and equal halves
    (s = 8, γ = 0.1: 0.72); replacing node #0 by binary splits gives φ_0.1(8) = 0.729."""
    from ui.pages.game import guides

    at = _page()
    at.selectbox(key="game_preset").select("lemma9").run()
    ah.ok(at)
    assert _weight(at) == pytest.approx(0.72, abs=1e-4)
    assert any("Game over" in m.value for m in at.markdown)
    comment = guides.PRESETS["lemma9"].comment
    assert "0.72" in comment and "0.729" in comment
    assert phi_gamma(8, 0.1) == pytest.approx(0.729)
    box = at.selectbox(key="lemma9_node")
    assert box.options == ["#0: 4-way, weight 1.0000"]
    assert box.help and "equal halves" in box.help
    assert not _lemma9_metrics(at)  # nothing shown before the click
    at.button(key="lemma9_replace").click().run()
    ah.ok(at)
    shown = _lemma9_metrics(at)
    assert shown["Subtree of #0 as played"] == "0.7200"
    assert shown["Binary subtree instead"] == "0.7290"
    assert shown["Whole tree: before → after"] == "0.7290"
    assert any("never lowers the weight" in m.value for m in at.markdown)
    assert any("sum}_{\\max}" in x.value for x in at.latex)
    drawn = [label for label, _ in at.session_state["_drawn"]]
    assert any("binary subtree replacing #0" in label for label in drawn)
    # the step is forgotten when the game changes
    at.button(key="game_undo").click().run()
    ah.ok(at)
    assert not _lemma9_metrics(at)


def test_lemma9_step_on_a_played_game_with_two_wide_splits() -> None:
    """Only nodes whose subtree holds nothing but equal halves are offered: after a 3-way
    root split and a 3-way split of its heaviest child, only the second node qualifies."""
    at = _page(s="12", gamma="0.1")
    assert any("Split a leaf into k ≥ 3" in c.value for c in at.caption)
    for shares in ((100, 60, 40), (50, 50, 25)):
        at.selectbox(key="adv_k").set_value(3).run()
        for i, v in enumerate(shares):
            at.slider(key=f"share_{i}").set_value(v).run()
        at.button(key="adv_expand").click().run()
        ah.ok(at)
    assert at.selectbox(key="lemma9_node").options == ["#1: 3-way, weight 0.4000"]
    at.selectbox(key="adv_k").set_value(2).run()
    for _ in range(3):  # equal halves of #2, #3, then #4 (below #1): t = 1
        at.button(key="adv_expand").click().run()
    at.button(key="lemma9_replace").click().run()
    ah.ok(at)
    shown = _lemma9_metrics(at)
    assert shown["Subtree of #1 as played"] == "0.3072"  # 0.32 − 0.1·0.128
    assert shown["Binary subtree instead"] == "0.3240"  # 0.4·φ_0.1(4) = 0.4·0.81
    assert shown["Whole tree: before → after"] == "0.6840"  # from 0.6672: it rises
    # an unequal split below #1 (the player takes #5) puts it outside the lemma: the page
    # says why instead of offering it
    at.slider(key="share_0").set_value(90).run()
    at.slider(key="share_1").set_value(10).run()
    at.button(key="adv_expand").click().run()
    ah.ok(at)
    assert not any(b.key == "lemma9_node" for b in at.selectbox)
    assert any(
        "node #1 is not an instance of Lemma 9: below it, move 6 split leaf #5" in c.value
        for c in at.caption
    )


def test_lemma9_figure_draws_both_sides_and_validates() -> None:
    import plotly.graph_objects as go

    from boostcore.game import expand, lemma9_replacement, max_weight_player, new_game
    from ui.pages.game.figures import lemma9_figure

    state = expand(new_game(32, 0.1), 0, 5, (0.4, 0.3, 0.2, 0.1, 0.0))
    for _ in range(6):
        state = expand(state, max_weight_player(state), 2, (0.5, 0.5))
    step = lemma9_replacement(state, 0)
    fig = go.Figure(lemma9_figure(step).to_dict())  # with plotly's validation
    binary, wide, here = fig.data
    assert list(binary.x) == list(range(5, 33)) and list(wide.x) == list(range(5, 33))
    assert all(a >= b - 1e-12 for a, b in zip(binary.y, wide.y))  # Lemma 9 at every t
    assert list(here.x) == [11, 11] and list(here.y) == pytest.approx([step.before, step.after])
    assert fig.layout.xaxis.dtick is None  # 28 sizes: automatic ticks
