"""AppTest for the Weight Distribution Game page: a full game in each mode, undo, errors."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from boostcore.bounds import phi_gamma

TIMEOUT = 60


def _page(**params: str) -> AppTest:
    at = AppTest.from_file("../views/game.py", default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def _weight(at: AppTest) -> float:
    return float(next(m.value for m in at.metric if m.label == "Tree weight now"))


def test_adversary_mode_equal_binary_reaches_phi_and_explains() -> None:
    at = _page(s="8", gamma="0.2")
    _ok(at)
    for _ in range(7):
        at.button(key="adv_expand").click().run()
        _ok(at)
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
    _ok(at)
    assert _weight(at) == pytest.approx(0.8, abs=1e-4)  # 4-way: 1 − 0.1·2
    while not any("Game over" in m.value for m in at.markdown):
        at.button(key="adv_expand").click().run()
        _ok(at)
    assert _weight(at) < phi_gamma(8, 0.1)
    assert any("Try again" in w.value for w in at.warning)


def test_undo_restart_and_zero_shares_error() -> None:
    at = _page(s="6")
    at.button(key="adv_expand").click().run()
    at.button(key="adv_expand").click().run()
    at.button(key="game_undo").click().run()
    _ok(at)
    history = [d.value for d in at.dataframe if "tree weight after" in d.value.columns][-1]
    assert len(history) == 1
    at.slider(key="share_0").set_value(0).run()
    at.slider(key="share_1").set_value(0).run()
    at.button(key="adv_expand").click().run()
    _ok(at)
    assert any("positive share" in e.value for e in at.error)
    at.button(key="game_restart").click().run()
    history = [d.value for d in at.dataframe if "tree weight after" in d.value.columns][-1]
    assert len(history) == 0


def test_player_mode_full_game() -> None:
    at = _page(mode="You are the player", s="5", gamma="0.3")
    _ok(at)
    # a bad player: always the lightest leaf
    for _ in range(4):
        leaves = at.radio(key="player_leaf").options
        at.radio(key="player_leaf").set_value(int(leaves[-1].split()[0][1:])).run()
        at.button(key="player_expand").click().run()
        _ok(at)
    assert any("Game over" in m.value for m in at.markdown)
    assert _weight(at) >= phi_gamma(5, 0.3) - 1e-4


def test_watch_mode_both_adversaries() -> None:
    at = _page(mode="Watch", s="10", gamma="0.15")
    _ok(at)
    at.button(key="round_last").click().run()
    _ok(at)
    assert any("equal binary splits end at" in c.value for c in at.caption)
    at.radio(key="watch_adv").set_value("random k and shares").run()
    if not at.button(key="round_last").disabled:
        at.button(key="round_last").click().run()
    _ok(at)
    final = float(next(m.value for m in at.metric))
    assert final <= phi_gamma(10, 0.15) + 1e-4


def test_the_chart_marks_phi_at_s_as_the_bound_and_phi_n_as_a_reference() -> None:
    """φ_γ(n) bounds the end of a game of target n only: a legal game of target s = 8 with
    γ = 0.1 weighs 0.81 at n = 5 > φ_γ(5) = 0.790 and still ends below φ_γ(8) (issue 14, A.8).
    """
    from boostcore.bounds import phi_gamma
    from boostcore.game import expand, new_game
    from ui.game_figures import trajectory_figure

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
