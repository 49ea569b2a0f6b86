"""Page: Hatano's Weight Distribution Game, played by a person (Hatano 2004 §4).

See docs/theory.md §1.5.
"""

from __future__ import annotations

import streamlit as st

from ui import lecture, pages, params, quiz_widget, theory_doc
from ui.charts import chart_with_numbers, presenting, structure
from ui.header import (
    export_run,
    export_structures,
    page_header,
    preset_from_url,
    presets_and_challenges,
)
from ui.pages.game import diagrams, export, figures, questions, tables
from ui.pages.game import frames as game_frames
from ui.pages.game.rules import (
    SEARCH_MAX_SIZE,
    legal_arities,
    lemma9_nodes,
    lemma9_replacement,
    lemma10_step,
    max_weight_player,
    run_of,
    shrink,
    theorem5_chain,
    watch,
)
from ui.pages.game.rules import move as game_move
from ui.pages.game.rules import phi as phi_gamma
from ui.pages.game.rules import start as game_start

PAGE = pages.page("game")
#: The modes, as the link spells them: the adversary, the player, watching.
MODES = PAGE.param("mode").options
MODE_HELP = (
    "The app plays TOPDOWN-M's player (it always expands the heaviest leaf); you "
    "choose how many children and how to share the weight. Goal: end as HEAVY as "
    "possible. You are the player: the app's adversary splits in two, equally; you "
    "choose the leaf. Goal: end as LIGHT as possible. Watch: app against app."
)
ADVERSARIES = {
    "equal binary splits (Theorem 3's worst case)": "equal",
    "random k and shares": "random",
}


GUIDES, CHALLENGES = PAGE.presets, PAGE.challenges


def _sidebar() -> tuple[str, int, float]:
    sb = st.sidebar
    sb.header("Game")
    mode = sb.radio("Mode", **PAGE.param("mode").select(), help=MODE_HELP)
    s = sb.slider(
        "Target size s",
        **PAGE.param("s").number(),
        help="The game ends when the tree has s leaves.",
    )
    gamma = sb.slider(
        "γ (advantage)",
        **PAGE.param("gamma").number(),
        help="Every k-way expansion keeps only 1 − γ⌈log₂ k⌉ of the leaf's "
        "weight: the weak hypothesis assumption of TOPDOWN-M.",
    )
    return mode, s, gamma


def _encode_moves(stack: list) -> str:
    """The moves of a game for the URL: ``leaf-k-share_share…`` joined by ``;``."""
    return ";".join(
        f"{m.leaf}-{m.k}-" + "_".join(f"{d:.6g}" for d in m.distribution) for m in stack[-1].history
    )


def _replay(start, text: str) -> list:
    """The states of a game from its URL form; stops at the first bad move and says so on
    the page's notice (:mod:`ui.params`: quoted, escaped)."""
    moves, bad = params.parse_moves("mv", text)
    stack = [start]
    for i, (leaf, k, dist) in enumerate(moves, start=1):
        try:
            stack.append(game_move(stack[-1], leaf, k, dist))
        except ValueError as err:
            part = [p for p in text.split(";") if p][i - 1]
            bad = params.Ignored(
                "mv", f"move {i} is not allowed ({err}); kept {i - 1}", params.quote(part)
            )
            break
    params.note(bad, handled="mv")
    return stack


def _stack(mode: str, s: int, gamma: float) -> list:
    """The states of the current game (a stack, for undo); a new game when settings change.

    A game's moves travel in the URL (``?mv=…``), so a shared link replays the same game.
    """
    ss = st.session_state
    ident = (mode, s, gamma)
    # moves in the URL that this page did not write: a shared link, or a preset (its guides.py)
    url_moves = st.query_params.get("mv")
    outside = url_moves is not None and url_moves != ss.get("game_url_moves")
    if outside or ss.get("game_ident") != ident or not ss.get("game_stack"):
        start = game_start(s, gamma)
        ss["game_ident"] = ident
        ss["game_stack"] = _replay(start, url_moves) if outside else [start]
        ss["game_serial"] = ss.get("game_serial", 0) + 1
    moves = _encode_moves(ss["game_stack"])
    ss["game_url_moves"] = moves or None
    if moves:
        st.query_params["mv"] = moves
    elif "mv" in st.query_params:
        del st.query_params["mv"]
    return ss["game_stack"]


def _push(leaf: int, k: int, shares: tuple[float, ...]) -> None:
    ss = st.session_state
    try:
        ss["game_stack"].append(game_move(ss["game_stack"][-1], leaf, k, shares))
        ss.pop("game_error", None)
    except ValueError as err:  # shown as a readable message, never a traceback
        ss["game_error"] = str(err)


def _undo() -> None:
    stack = st.session_state["game_stack"]
    if len(stack) > 1:
        stack.pop()
    st.session_state.pop("game_error", None)


def _restart() -> None:
    ss = st.session_state
    ss["game_stack"] = ss["game_stack"][:1]
    ss["game_serial"] = ss.get("game_serial", 0) + 1
    ss.pop("game_error", None)


def _adversary_move() -> None:
    ss = st.session_state
    state = ss["game_stack"][-1]
    k = int(ss.get("adv_k", 2))
    raw = [float(ss.get(f"share_{i}", 50)) for i in range(k)]
    if sum(raw) <= 0:
        ss["game_error"] = "Give at least one child a positive share."
        return
    shares = [r / sum(raw) for r in raw]
    shares[-1] = 1.0 - sum(shares[:-1])
    _push(max_weight_player(state), k, tuple(shares))


def _player_move() -> None:
    ss = st.session_state
    _push(int(ss["player_leaf"]), 2, (0.5, 0.5))


def _record(mode: str, state) -> None:
    """Add a finished game to the session's leaderboard (once per game)."""
    ss = st.session_state
    serial = ss.get("game_serial", 0)
    if ss.get("game_recorded") == serial:
        return
    ss["game_recorded"] = serial
    phi = float(phi_gamma(state.s, state.gamma))
    ss.setdefault("game_board", []).append(
        {
            "mode": mode,
            "s": state.s,
            "γ": state.gamma,
            "final weight": state.total,
            "φ_γ(s)": phi,
            "final / φ": state.total / phi if phi > 0 else float("nan"),
            "moves": len(state.history),
        }
    )
    if mode == MODES[0]:
        ss["adv_tries"] = ss.get("adv_tries", 0) + 1


def _score(state, mode: str) -> None:
    phi = float(phi_gamma(state.s, state.gamma))
    c1, c2, c3 = st.columns(3)
    c1.metric(
        "Tree weight now",
        f"{state.total:.4f}",
        help="Sum of the leaves' weights; it bounds the training error of the tree.",
    )
    c2.metric(
        "φ_γ(s)",
        f"{phi:.4f}",
        help="The final weight when the adversary always splits in two, equally, "
        "against the max-weight player (Theorem 3).",
    )
    c3.metric(
        "s^(−γ)",
        f"{state.s ** (-state.gamma):.4f}",
        help="Theorem 4's bound on the final tree: φ_γ(s) ≤ s^(−γ).",
    )
    if not state.done:
        return
    _record(mode, state)
    gap = state.total - phi
    if mode == MODES[0]:
        if gap > 1e-12:
            st.error("You beat φ_γ(s)?! That would contradict Theorem 3 — please report it.")
        elif gap > -1e-9:
            st.success(
                f"Final weight {state.total:.4f} = φ_γ(s): the best any adversary can "
                "do against the max-weight player."
            )
        else:
            st.warning(
                f"Final weight {state.total:.4f} < φ_γ(s) = {phi:.4f}. Try again: "
                "can you end heavier?"
            )
        if st.session_state.get("adv_tries", 0) >= 1:
            st.info(
                "**Why nobody beats φ_γ(s).** Every expansion removes γ⌈log k⌉·w_ℓ from the "
                "tree, and the player always takes the heaviest leaf. A k-way split costs "
                "⌈log k⌉ — as much as the ⌈log k⌉ levels of binary splits it replaces, while "
                "using fewer of the s leaves; an unequal split makes one heavy child that the "
                "player expands next. So the adversary does best with k = 2 and equal halves, "
                "and the final weight is at most φ_γ(s) ≤ s^(−γ) (Hatano, Theorems 3 and 5).",
                icon=":material/school:",
            )
    elif mode == MODES[1]:
        if gap < -1e-9:
            st.success(f"Final weight {state.total:.4f} < φ_γ(s) = {phi:.4f}.")
        elif gap <= 1e-9:
            st.success(
                f"Final weight {state.total:.4f} = φ_γ(s): exactly what TOPDOWN-M's "
                "max-weight rule gets against this adversary."
            )
        else:
            st.warning(
                f"Final weight {state.total:.4f} > φ_γ(s) = {phi:.4f}: expanding a "
                "lighter leaf removes less weight. The max-weight rule is the greedy "
                "choice that removes the most — that is TOPDOWN-M's rule."
            )


def _adversary_controls(state) -> None:
    leaf = max_weight_player(state)
    st.markdown(
        f"**The player expands leaf #{leaf}** (the heaviest, weight "
        f"{state.weight(leaf):.4f}). Your move: how many children, and how to share."
    )
    ks = legal_arities(state)
    k = st.selectbox(
        "Children k",
        ks,
        key="adv_k",
        help="k = 2, or 2 < k ≤ s/|T| (the tree must not overshoot s), with "
        "γ⌈log₂ k⌉ ≤ 1. A k-way split keeps 1 − γ⌈log₂ k⌉ of the weight.",
    )
    keep = shrink(int(k), state.gamma) * state.weight(leaf)
    st.caption(f"The {k} children share {keep:.4f} = (1 − γ⌈log₂ {k}⌉) × {state.weight(leaf):.4f}.")
    cols = st.columns(min(int(k), 4))
    raw = []
    for i in range(int(k)):
        with cols[i % len(cols)]:
            raw.append(
                st.slider(
                    f"child {i + 1}",
                    0,
                    100,
                    50,
                    key=f"share_{i}",
                    help="Relative share of this child (normalised to sum 1).",
                )
            )
    total = sum(raw)
    if total > 0:
        st.caption("Children get " + ", ".join(f"{keep * r / total:.4f}" for r in raw) + ".")
    st.button(
        "Expand",
        type="primary",
        key="adv_expand",
        on_click=_adversary_move,
        icon=":material/call_split:",
    )


def _player_controls(state) -> None:
    st.markdown(
        "**Your move:** pick the leaf to expand. The adversary will split it in two "
        "equal children, each with (1 − γ)/2 of its weight."
    )
    best = max_weight_player(state)
    leaves = sorted(state.leaves, key=lambda i: (-state.weight(i), i))
    st.radio(
        "Leaf",
        leaves,
        index=leaves.index(best),
        key="player_leaf",
        format_func=lambda i: f"#{i}  (weight {state.weight(i):.4f})",
        help="Heaviest first. TOPDOWN-M always takes the heaviest.",
    )
    st.button(
        "Expand",
        type="primary",
        key="player_expand",
        on_click=_player_move,
        icon=":material/call_split:",
    )


LEMMA9_HELP = (
    "Lemma 9 applies to a node split into k children with any shares, below which "
    "the adversary then only split the heaviest leaf in equal halves (only such "
    "nodes are listed). Its subtree is replaced by equal binary splits giving the "
    "same number of leaves."
)


def _lemma9_show() -> None:
    ss = st.session_state
    ss["lemma9_shown"] = (
        ss.get("game_serial"),
        len(ss["game_stack"][-1].history),
        ss.get("lemma9_node"),
    )


def _lemma9(state) -> None:
    """Hatano's Lemma 9 as a step: replace a k-way node of the played game by a binary
    subtree with as many leaves, and compare the weights."""
    ss = st.session_state
    st.markdown("#### Hatano's Lemma 9: trade a k-way split for binary splits")
    nodes = lemma9_nodes(state)
    if not nodes:
        wide = [m.leaf for m in state.history if m.k >= 3]
        if wide:
            try:
                lemma9_replacement(state, wide[-1])
            except ValueError as err:
                st.caption(f"No node to replace: {err}.")
        else:
            st.caption(
                "Split a leaf into k ≥ 3 children (then keep splitting in equal halves) "
                "to try Lemma 9 here, or load the preset *Lemma 9*."
            )
        return
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    node = c1.selectbox(
        "k-way node",
        nodes,
        key="lemma9_node",
        help=LEMMA9_HELP,
        format_func=lambda n: f"#{n}: {len(state.children(n))}-way, weight {state.weight(n):.4f}",
    )
    c2.button(
        "Replace by binary splits",
        key="lemma9_replace",
        on_click=_lemma9_show,
        icon=":material/account_tree:",
        help="Show the node's subtree and the binary subtree with the same number of "
        "leaves, and the tree's weight before and after.",
    )
    if ss.get("lemma9_shown") != (ss.get("game_serial"), len(state.history), node):
        return
    step = lemma9_replacement(state, node)
    c1, c2, c3 = st.columns(3)
    c1.metric(
        f"Subtree of #{node} as played",
        f"{step.before:.4f}",
        help=f"Its {step.k}-way split, then t = {step.t} equal binary splits: "
        f"{step.leaves} leaves.",
    )
    c2.metric(
        "Binary subtree instead",
        f"{step.after:.4f}",
        delta=f"{step.gain:+.4f}",
        help=f"{step.leaves - 1} equal binary splits of weight {step.weight:.4f}: "
        f"w·φ_γ({step.leaves}).",
    )
    c3.metric(
        "Whole tree: before → after",
        f"{step.tree_after:.4f}",
        delta=f"from {step.tree_before:.4f}",
        delta_color="off",
        help="The rest of the tree is unchanged.",
    )
    left, right = st.columns(2)
    with left:
        st.markdown(f"**Before:** #{node}'s {step.k}-way split, then equal halves")
        structure(
            diagrams.game_digraph(step.before_game),
            width="content",
            label=f"Lemma 9: subtree of #{node} as played",
        )
    with right:
        st.markdown("**After:** equal binary splits only")
        structure(
            diagrams.game_digraph(step.after_game),
            width="content",
            label=f"Lemma 9: binary subtree replacing #{node}",
        )
    st.caption(
        f"Both subtrees are drawn as games started at #{node}'s weight "
        f"{step.weight:.4f} (their #0 is node #{node})."
    )
    chart_with_numbers(
        figures.lemma9_figure(step), key="lemma9_chart", config={"displaylogo": False}
    )
    st.markdown(
        "**Lemma 9** (Hatano 2004, §4.1). For any weight $w\\in[0,1]$, any integer "
        "$t\\ge 1$ and any distribution $d_k$ on $k$ children,"
    )
    st.latex(
        r"\mathrm{sum}_{\max}(w,\ d_k,\ \underbrace{d_2^*,\dots,d_2^*}_{t})\ \le\ "
        r"\mathrm{sum}_{\max}(w,\ \underbrace{d_2^*,\dots,d_2^*}_{t+k-1})"
        r"\ =\ w\,\varphi_\gamma(k+t)."
    )
    st.markdown(
        "Both sides grow $k+t$ leaves from weight $w$, the player always expanding the "
        "heaviest leaf: on the left a first $k$-way split with shares $d_k$, then $t$ equal "
        "halves ($d_2^*$); on the right equal halves only. So replacing the $k$-way split by "
        "binary splits never lowers the weight: it rises, or stays equal (γ = 0, or k = 2 "
        "with equal shares). The same holds for t = 0 (Propositions 7 and 8, which the "
        "lemma combines). The new tree need not be one the max-weight player would grow in "
        "the whole game: Lemma 10 (with Proposition 6) handles that, and Theorem 5 repeats "
        "the step on the last multi-way split until only equal binary splits are left — "
        "ending at φ_γ(s)."
    )


def _lemma10_show() -> None:
    ss = st.session_state
    ss["lemma10_shown"] = (ss.get("game_serial"), len(ss["game_stack"][-1].history))


def _lemma10(state) -> None:
    """Hatano's Lemma 10 with Proposition 6 as a step (2004, §4.1): the last move of the game
    that is not an equal binary split traded for equal halves, through the tree T̂ that a u-max
    player grows; then Theorem 5's chain of such steps down to φ_γ(n)."""
    ss = st.session_state
    st.markdown("#### Hatano's Lemma 10 (with Proposition 6): the last wide split of the game")
    try:
        step = lemma10_step(state)
    except ValueError as err:
        if not state.history:
            st.caption("Make a wide or unequal split to try Lemma 10 here.")
        elif "no move to replace" in str(err):
            st.caption(
                "Every move so far is an equal binary split: the game is already the right "
                "side of Lemma 10. Make a wide or unequal split to try the step here."
            )
        else:  # e.g. a game stopped before a wide split is acceptable for its size
            st.caption(f"No Lemma 10 step here: {err}.")
        return
    shares = ", ".join(f"{d:.2f}" for d in step.distribution)
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    c1.markdown(
        f"The last move that is not an equal binary split is **move {step.u}**: leaf "
        f"#{step.star} split {step.k}-way with shares ({shares}); after it, {step.t} equal "
        "halves. Lemma 10 replaces it by equal halves, for the whole game at once."
    )
    c2.button(
        f"Apply Lemma 10 to move {step.u}",
        key="lemma10_apply",
        on_click=_lemma10_show,
        icon=":material/account_tree:",
        help="Show the two trees of the proof, T̂ and T, their weights and the inequality, "
        "and the chain of such steps that proves Theorem 5.",
    )
    if ss.get("lemma10_shown") != (ss.get("game_serial"), len(state.history)):
        return
    p6 = step.proposition6
    # u = 1: the frontier L_0 is the root alone, before any move
    after = "the start" if step.u == 1 else f"move {step.u - 1}"
    c1, c2, c3 = st.columns(3)
    c1.metric(
        "Your game (max-weight player)",
        f"{step.played:.4f}",
        help=f"sum_max(w, d⁽¹⁾, …, d⁽{step.u}⁾, d₂*, …, d₂*): your shares, the player "
        "always taking the heaviest leaf.",
    )
    c2.metric(
        "T̂: a u-max player's tree",
        f"{step.hat:.4f}",
        delta=f"{p6.gap:+.4f}",
        help=f"The same moves, but after move {step.u} each subtree below the leaves of "
        f"{after} gets as many equal halves as in T (a player who takes the heaviest leaf "
        f"for the first u = {step.u} moves only). Proposition 6: it is never lighter than your "
        "game.",
    )
    c3.metric(
        f"T: move {step.u} as equal halves",
        f"{step.replaced:.4f}",
        delta=f"{step.replaced - step.hat:+.4f}",
        help=f"The game up to {after} as played, then equal halves of the heaviest leaf "
        f"until {step.n} leaves. Lemma 9 on leaf #{step.star}: never lighter than T̂.",
    )
    st.markdown(
        f"**The step proves** {step.played:.4f} ≤ {step.hat:.4f} ≤ {step.replaced:.4f}: your "
        f"game weighs at most T̂ (Proposition 6), and T̂ at most T (Lemma 9 on leaf "
        f"#{step.star}'s subtree: {step.star_after:.4f} ≤ {step.star_before:.4f}). So trading "
        f"move {step.u}'s {step.k}-way split for equal halves never lowers the max-weight "
        "player's final weight (Lemma 10): "
        + (f"here it rises by {step.gain:.4f}." if step.gain > 1e-12 else "here it stays.")
    )
    st.markdown(
        f"**The leaves at {after}** ($L_{{u-1}}$) and their subtrees in T and T̂: "
        f"ℓ* = #{step.star} is the heaviest, the leaf move {step.u} split. Its subtree in T "
        f"has {step.frontier_moves[0] + 1} ≥ k = {step.k} leaves — acceptability guarantees "
        "it — so it can be regrown by the same split, then equal halves."
    )
    st.dataframe(
        tables.lemma10_frontier_frame(step),
        hide_index=True,
        column_config={
            c: st.column_config.NumberColumn(format="%.4f")
            for c in ("weight", "subtree in T", "subtree in T̂")
        },
    )
    left, right = st.columns(2)
    with left:
        st.markdown(f"**T̂:** your first {step.u} moves, then each subtree's equal halves")
        structure(
            diagrams.game_digraph(step.hat_game, chosen=step.star),
            width="content",
            label=f"Lemma 10: T-hat, move {step.u} kept",
        )
    with right:
        st.markdown(f"**T:** move {step.u} replaced by equal halves")
        structure(
            diagrams.game_digraph(step.replaced_game, chosen=step.star),
            width="content",
            label=f"Lemma 10: T, move {step.u} replaced",
        )
    st.caption(f"Outlined: ℓ* = #{step.star}, the subtree Lemma 9 regrows.")
    st.markdown(
        "**Proposition 6** (Hatano 2004, §4.1). For any weight $w\\in[0,1]$, any integers "
        "$t, u$, any $u$-max player $p_u$ (it takes a heaviest leaf at each of the first $u$ "
        "expansions) and any strategy ending in $t$ equal halves,"
    )
    st.latex(
        r"\mathrm{sum}_{\max}(w,\ d^{(1)},\dots,d^{(u)},\ \underbrace{d_2^*,\dots,d_2^*}_{t})"
        r"\ \le\ \mathrm{sum}_{u\text{-}\max}(w,\ d^{(1)},\dots,d^{(u)},\ "
        r"\underbrace{d_2^*,\dots,d_2^*}_{t})."
    )
    st.markdown(
        "**Lemma 10.** For any strategy $d^{(1)},\\dots,d^{(u)},d_2^*,\\dots,d_2^*$ acceptable "
        "for $s$,"
    )
    st.latex(
        r"\mathrm{sum}_{\max}(w,\ d^{(1)},\dots,d^{(u)},\ \underbrace{d_2^*,\dots,d_2^*}_{t})"
        r"\ \le\ \mathrm{sum}_{\max}(w,\ d^{(1)},\dots,d^{(u-1)},\ "
        r"\underbrace{d_2^*,\dots,d_2^*}_{t+k_u-1})."
    )
    st.markdown(
        "In words: once the adversary only splits in equal halves, the heaviest leaf is the "
        "best one for the player to take (Proposition 6), so a tree grown by a player who "
        "sometimes took a lighter leaf — T̂ — weighs at least your game. T̂ differs from T only "
        "in ℓ*'s subtree, where Lemma 9 says equal halves weigh at least the wide split. "
        "Repeating the step on the last wide move that is left is Theorem 5's proof:"
    )
    chain = theorem5_chain(state)
    st.dataframe(
        tables.theorem5_chain_frame(chain, n=step.n),
        hide_index=True,
        column_config={"weight": st.column_config.NumberColumn(format="%.4f")},
    )
    st.caption(
        f"The weights never fall and end at w·φ_γ({step.n}) = {chain[-1].replaced:.4f}: no "
        "acceptable adversary ends heavier than the equal-binary one against the max-weight "
        "player."
    )


def _explain() -> None:
    with st.expander("What the game proves, and how it maps to growing a tree"):
        theory_doc.link("1.5")
        st.markdown(
            "In TOPDOWN-M a leaf ℓ has weight $\\hat p_\\ell\\,I(\\hat q_\\ell)$ (the share of "
            "the sample reaching it times its impurity) and the tree's weight "
            "$I(T)=\\sum_\\ell \\hat p_\\ell I(\\hat q_\\ell)$ bounds its training error. The "
            "weak hypothesis assumption (for every sample some binary split has advantage ≥ γ) "
            "implies that the $k$-way split TOPDOWN-M *selects* at ℓ removes at least "
            "$\\gamma\\lceil\\log k\\rceil$ of ℓ's weight (Hatano's Fact 1(2) — not every "
            "$k$-way split does). The **game** keeps only "
            "that: the *player* is the rule that picks the leaf (TOPDOWN-M: the heaviest), the "
            "*adversary* is the worst weak learner allowed (it removes exactly that much, and "
            "shares the rest as it likes). **Theorem 3**: against the max-weight player the "
            "adversary's best is k = 2 with equal halves, which ends at"
        )
        st.latex(
            r"\varphi_\gamma(s)=(1-\gamma)^i\left(1-\frac{s'\gamma}{2^i}\right),\qquad "
            r"s=2^i+s',\ 0\le s'<2^i,\qquad \varphi_\gamma(s)\le s^{-\gamma}"
        )
        st.markdown(
            "so every tree grown by TOPDOWN-M to $s$ leaves has training error at most "
            "$I(T)\\le s^{-\\gamma}$ (Theorem 4) — multi-way splits included. The app's "
            "tests (tests/boostcore/test_game.py) check this numerically. An exhaustive search "
            "against the max-weight player tries every adversary whose k is legal at each move "
            "(k = 2 or k ≤ s/|T| — so every k up to s at the root — with γ⌈log₂ k⌉ ≤ 1) and whose "
            "shares are multiples of 1/4 or the equal split; it finds nothing above φ_γ(s) for "
            "s = 2 … 8 with γ = 0.1, 0.25, 0.4 and for (s, γ) = (9, 0.3), (10, 0), (10, 0.4), "
            "nor with shares in eighths (s = 8, γ = 0.2); for s ≤ 6 it agrees with a "
            "brute-force enumeration of every such strategy (grids of halves, thirds and "
            "quarters). It accepts s ≤ "
            f"{SEARCH_MAX_SIZE} (its positions grow about 3× per leaf), so the larger s of "
            "this page are not searched. Random adversaries never beat φ_γ(s) either."
        )


def render() -> None:
    preset_from_url("game_preset", GUIDES, first_round=0)
    header = page_header(
        "Hatano's Weight Distribution Game: can you beat φ_γ(s)?",
        "A game between a **player**, who picks a leaf, and an **adversary**, who splits it "
        "into k children and shares what is left of its weight. The player wants the final "
        "tree light, the adversary heavy. Play the adversary against TOPDOWN-M's rule and "
        "discover Theorem 3 yourself.",
        page="game",
    )
    with header.modes:
        predict = quiz_widget.predict_toggle("game")
    presets_and_challenges("game_preset", GUIDES, CHALLENGES)
    mode, s, gamma = _sidebar()
    if mode == MODES[2]:
        _watch(header, s, gamma, predict)
        if not presenting():
            _explain()
        return
    stack = _stack(mode, s, gamma)
    state = stack[-1]
    hide_next = False
    if predict and mode == MODES[0]:
        # the player's next leaf is the question: the tree does not mark it until revealed
        question = questions.question(stack, len(stack) - 1)
        if question is None and not state.done:
            st.caption(
                "Predict, then reveal: no question at this position (it needs three leaves "
                "the player could choose from). Make your move."
            )
        else:
            hide_next = not quiz_widget.ask(question, key="quiz_game", presenting=presenting())
    elif predict:
        st.info(
            "Predict, then reveal asks about the app's moves: in this mode you choose the "
            "leaf yourself, so there is nothing to predict. Watch mode or the adversary's "
            "mode ask a question before every move."
        )
    left, right = st.columns([3, 2])
    with right:
        st.markdown(f"#### {mode}")
        if state.done:
            st.markdown(f"**Game over:** the tree has s = {s} leaves.")
        elif mode == MODES[0]:
            _adversary_controls(state)
        else:
            _player_controls(state)
        if st.session_state.get("game_error"):
            st.error(st.session_state["game_error"])
        b1, b2 = st.columns(2)
        b1.button(
            "Undo",
            key="game_undo",
            on_click=_undo,
            disabled=len(stack) <= 1,
            icon=":material/undo:",
        )
        b2.button("Restart", key="game_restart", on_click=_restart, icon=":material/replay:")
        _score(state, mode)
    with left:
        chosen = None if state.done or hide_next else max_weight_player(state)
        structure(
            diagrams.game_digraph(state, chosen=chosen),
            width="content",
            label=f"game tree after move {len(state.history)}",
        )
        st.caption(
            "Boxes: expanded nodes; ellipses: the leaves now (darker = heavier). "
            + (
                "The leaf TOPDOWN-M expands next is marked once the prediction is revealed."
                if hide_next
                else "Vermillion: the heaviest leaf, the one TOPDOWN-M expands next."
            )
        )
        chart_with_numbers(
            figures.trajectory_figure(state), key="game_traj", config={"displaylogo": False}
        )
    st.markdown("#### Moves")
    st.dataframe(
        tables.game_history_frame(state),
        hide_index=True,
        column_config={
            c: st.column_config.NumberColumn(format="%.4f")
            for c in ("leaf weight", "kept 1 − γ⌈log k⌉", "tree weight after")
        },
    )
    if mode == MODES[0]:
        _lemma9(state)
        _lemma10(state)
    if header.export_open:  # made only while the menu is open
        export_run(
            header,
            "game",
            {"mode": mode, "s": s, "gamma": gamma},
            {"game": run_of(stack)},
            export.snippet(s, gamma, "adversary" if mode == MODES[0] else "player", moves=state),
        )
        export_structures(header, "game")
    board = st.session_state.get("game_board", [])
    if board:
        st.markdown("#### Leaderboard (this session)")
        st.dataframe(
            sorted(board, key=lambda r: -r["final / φ"]),
            hide_index=True,
            column_config={
                c: st.column_config.NumberColumn(format="%.4f")
                for c in ("final weight", "φ_γ(s)", "final / φ")
            },
        )
    if not presenting():
        _explain()


def _watch(header, s: int, gamma: float, predict: bool = False) -> None:
    """App against app: every position drawn once and stepped in the browser (the lecture
    stepper; issue 27, item 6), the moves' question asked there too."""
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    name = c1.radio(
        "Adversary",
        **PAGE.param("watch_adv").select(),
        horizontal=True,
        help="The player is always TOPDOWN-M's: the heaviest leaf.",
    )
    seed = c2.number_input(
        "Seed",
        **PAGE.param("watch_seed").number(),
        help="Seed of the random adversary.",
    )
    adversary = ADVERSARIES[name]
    states = watch(s, gamma, adversary, int(seed))
    # while Predict, then reveal asks which leaf comes next, the tree does not mark it
    lec = game_frames.watch_lecture(s, gamma, adversary, int(seed), not predict)
    lecture.stylesheet()
    t = lecture.stepper(lec["n"], page="game", label="Move")
    if predict:
        quiz_widget.lecture_quiz(lec["questions"], page="game", presenting=presenting())
    left, right = st.columns([3, 2])
    with left:
        lecture.view(
            "svg",
            lec["structure"],
            key="lv_game_tree",
            title="The game tree"
            + ("" if predict else " (vermillion: the leaf the player expands next)"),
            notes=lec["notes"],
            descriptions=lec["descriptions"],
            max_height=640,
        )
    with right:
        lecture.view(
            "plotly",
            lec["curves"],
            key="lv_game_traj",
            chart_key="game_trajectory",
            title="The tree's weight after each move",
            height=330,
        )
        lecture.table(lec["numbers"], key="lv_game_numbers")
    st.markdown("#### Moves")
    lecture.table(lec["moves"], key="lv_game_moves")
    if header.export_open:  # made only while the menu is open
        export_run(
            header,
            "game",
            {
                "mode": "watch",
                "s": s,
                "gamma": gamma,
                "adversary": adversary,
                "seed": int(seed),
            },
            {"watch": run_of(states)},
            export.snippet(s, gamma, "watch", adversary, int(seed)),
        )
        state = states[min(t or 0, len(states) - 1)]
        with header.export:
            st.markdown("**The game tree at this move**")
            st.download_button(
                f"Game tree after move {len(state.history)} (DOT)",
                lambda: diagrams.game_digraph(state).source,
                file_name=f"boostlab_game_move{len(state.history)}.dot",
                mime="text/vnd.graphviz",
                key="game_tree_dot",
                on_click="ignore",
                help="Graphviz source: render it with `dot -Tsvg` or any Graphviz viewer.",
            )


params.page_run(PAGE, render)
