"""THE page registry: every page of boostlab declared once.

A row (:class:`PageSpec`) says what a page is — its slug (the URL path), title, icon and view
file, the line the home page shows, its URL parameters (:class:`ui.params.Param`: name, kind,
range, default), its presets and challenges, and which of the shared lesson features it has
(the lecture view, predict-then-reveal, the proof card, the student's turn, the export
menu), its section of the theory notes, its home-page thumbnail and its steps of the
45-minute lecture path. ``app.py`` builds the navigation from it, the home page its cards and
its lecture path, and the thumbnail script, the benchmarks and the tests their lists of
pages; nothing else retypes the list.

Adding a lesson page: one view (``views/<slug>.py``), one folder of its parts, one row here,
its section of docs/theory.md and its tests (docs/development.md, "Adding a lesson page").

The rows import nothing but the presets and the parameter type: the registry is read by the
router before any page runs, so it stays cheap to import and free of cycles (a lesson's parts
never import the registry).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..guides import Guide
from ..labels import CRITERION_FROM_SHORT, CRITERION_SHORT, INDEX, MERGE_SHORT

# the URL parameter groups every page shares: declared in ui/param_groups.py (the page header
# reads them there, without the registry) and re-exported here
from ..param_groups import DATASET_PARAMS as DATASET_PARAMS
from ..param_groups import HEADER_PARAMS as HEADER_PARAMS
from ..param_groups import LECTURE_PARAMS as LECTURE_PARAMS
from ..param_groups import LESSON_PARAMS as LESSON_PARAMS
from ..param_groups import PRESET_PARAMS as PRESET_PARAMS
from ..params import Param, Settings, settings
from .benchmark import guides as benchmark_guides
from .bounds import guides as bounds_guides
from .branching import guides as branching_guides
from .game import guides as game_guides
from .matryoshka import guides as matryoshka_guides
from .oblique import guides as oblique_guides
from .topdown import guides as topdown_guides

#: The features a lesson page may have (the values of :attr:`PageSpec.features`).
FEATURES = frozenset({"lecture", "quiz", "proof", "student", "export"})


class LectureStep(NamedTuple):
    """One step of the home page's 45-minute lecture path, held by the page it opens.

    ``minutes`` is the step's slot (``"5–11"``), ``preset`` the preset its button opens
    (None: the step has no button; it goes on where the step before left the page) and
    ``text`` what to do and say. The home page lists every page's steps in time order; each
    button opens its page in the same tab and in presenter mode, so a class taught from that
    tab follows it. No two steps open the same preset (``tests/pages/home/test_app_home.py``).
    """

    minutes: str
    preset: str | None
    text: str

    @property
    def start(self) -> int:
        """The minute the step starts at (``"5–11"`` → 5)."""
        return int(self.minutes.split("–")[0])

    @property
    def end(self) -> int:
        """The minute the step ends at (``"5–11"`` → 11)."""
        return int(self.minutes.split("–")[1])


@dataclass(frozen=True)
class PageSpec:
    """One page of the app.

    Attributes
    ----------
    slug : str
        The URL path (``/topdown``) and the page's name everywhere in the code ("" for home).
    title, icon : str
        The navigation's title and Material icon.
    view : str
        The page file, relative to the repository (``views/topdown.py``).
    blurb : str
        What the home page's card says the page shows.
    params : tuple of Param
        Every URL parameter the page reads, in the order the page draws them; any other
        parameter of a link is named on the page's notice and removed.
    presets, challenges : mapping of str to Guide
        The page's presets and challenges (empty for a page without them).
    preset_key : str
        Session key of the page's preset picker ("" without presets).
    first_round : int
        The round a loaded preset opens at.
    features : frozenset of str
        Which of :data:`FEATURES` the page has: ``"lecture"`` the stepped three views,
        ``"quiz"`` predict-then-reveal, ``"proof"`` the proof card, ``"student"`` you are the
        weak learner, ``"export"`` the run as JSON/CSV beside its script
        (``header.export_run``; the bounds explorer exports a script only, so not this).
    theory : str
        Its section of docs/theory.md (``"1"`` is §1).
    thumbnail : str
        The URL query its home-page thumbnail and lecture screenshot are taken at.
    lecture_path : tuple of LectureStep
        The page's steps of the home page's 45-minute lecture path.
    """

    slug: str
    title: str
    icon: str
    view: str
    blurb: str = ""
    params: tuple[Param, ...] = HEADER_PARAMS
    presets: Mapping[str, Guide] = field(default_factory=dict)
    challenges: Mapping[str, Guide] = field(default_factory=dict)
    preset_key: str = ""
    first_round: int = 0
    features: frozenset[str] = frozenset()
    theory: str = ""
    thumbnail: str = ""
    lecture_path: tuple[LectureStep, ...] = ()

    def __post_init__(self) -> None:
        unknown = set(self.features) - FEATURES
        if unknown:
            raise ValueError(
                f"features of page {self.slug!r} must be among {sorted(FEATURES)}; "
                f"got {sorted(unknown)}"
            )
        names = [p.name for p in self.params]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"page {self.slug!r} declares the URL parameter(s) {twice} twice")
        unknown = [s.preset for s in self.lecture_path if s.preset not in (None, *self.presets)]
        if unknown:
            raise ValueError(
                f"the lecture path of page {self.slug!r} opens presets it does not have: "
                f"{unknown} (its presets: {sorted(self.presets)})"
            )

    @property
    def url_params(self) -> tuple[str, ...]:
        """The names of :attr:`params` (what a link to this page may carry)."""
        return tuple(p.name for p in self.params)

    def param(self, name: str) -> Param:
        """The page's parameter called ``name`` (``KeyError`` naming the page if none)."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"page {self.slug!r} has no URL parameter {name!r}")

    def settings(self, shown: Mapping[str, Any]) -> Settings:
        """The lesson's settings from its sidebar widgets' values ``shown`` (by URL parameter
        name): one frozen record of every parameter declared with a ``field``, each choice
        through its declared value map (:func:`ui.params.settings`)."""
        return settings(self.params, shown)

    def has(self, feature: str) -> bool:
        """Whether the page has ``feature`` (one of :data:`FEATURES`)."""
        if feature not in FEATURES:
            raise ValueError(f"feature must be one of {sorted(FEATURES)}; got {feature!r}")
        return feature in self.features


_LESSON = frozenset({"lecture", "quiz", "proof", "export"})

#: Every page, in the navigation's order.
PAGES: tuple[PageSpec, ...] = (
    PageSpec(
        slug="",
        title="Home",
        icon=":material/home:",
        view="views/home.py",
        theory="intro",
        lecture_path=(
            LectureStep(
                "0–5",
                None,
                "The claim of the hour: growing a decision tree top-down *is* "
                "boosting. Each split is a weak learner with an advantage γ, and the training "
                "error falls like a boosting bound.",
            ),
        ),
    ),
    PageSpec(
        slug="topdown",
        title="Top-down growth",
        icon=":material/account_tree:",
        view="views/topdown.py",
        blurb="Kearns–Mansour, Hatano's TOPDOWN-M and Mansour–McAllester side by side: how "
        "many branches should a split have? Live I(T), errors and the bounds e_γ̂(|T|), "
        "|T|^−γ̂, s^−γ̂.",
        params=(
            *LESSON_PARAMS,
            Param(
                "crit",
                "choices",
                default=tuple(CRITERION_SHORT.values()),
                options=tuple(CRITERION_SHORT.values()),
                field="crit",
                values=CRITERION_FROM_SHORT,
            ),
            Param("s", "int", lo=2, hi=64, default=16, field="size"),
            Param("k", "int", lo=2, hi=6, default=4, field="max_arity"),
            Param("index", "choice", default="km", options=tuple(INDEX), field="index"),
            Param("gamma", "float", lo=0.01, hi=0.5, default=0.1, step=0.01, field="gamma"),
            Param(
                "leaf",
                "choice",
                default="largest weight",
                options=("largest weight", "largest gain"),
                field="leaf_rule",
                values={"largest weight": "max_weight", "largest gain": "max_gain"},
            ),
        ),
        presets=topdown_guides.PRESETS,
        challenges=topdown_guides.CHALLENGES,
        preset_key="preset_pick",
        first_round=1,
        features=_LESSON | {"student"},
        theory="1",
        thumbnail="preset=multiway&round=1",
        lecture_path=(
            LectureStep(
                "5–11",
                "multiway",
                "Step through the four stripes: Hatano takes the 4-way "
                "split, Mansour–McAllester may not. Point at I(T) (solid) under the bound curves "
                "(dashed) and at the proof card under them: each link of the chain with this "
                "round's numbers, the loosest one framed.",
            ),
            LectureStep(
                "11–16",
                None,  # the same page and stripes as the step before: no link of its own
                "Stay on the four stripes and be the weak learner: turn on *You are the weak "
                "learner* (the page goes back to the root) and let a student choose "
                "the root's split (drag a box on the plot for the thresholds). Compare its score "
                "and advantage with the algorithm's, play a weak one and watch γ̂ drop and the "
                "bounds rise. Then turn on *Predict, then reveal* and take a show of hands before "
                "each step.",
            ),
        ),
    ),
    PageSpec(
        slug="game",
        title="Weight Distribution Game",
        icon=":material/casino:",
        view="views/game.py",
        blurb="Hatano's game behind TOPDOWN-M's bound, played by you: be the adversary against "
        "the max-weight player and try to beat φ_γ(s) — Theorem 3 says you cannot.",
        params=(
            *HEADER_PARAMS,
            *PRESET_PARAMS,
            Param(
                "mode",
                "choice",
                default="You are the adversary",
                options=("You are the adversary", "You are the player", "Watch"),
            ),
            Param("s", "int", lo=2, hi=32, default=8),
            Param("gamma", "float", lo=0.0, hi=0.5, default=0.1, step=0.05),
            Param(
                "watch_adv",
                "choice",
                default="equal binary splits (Theorem 3's worst case)",
                options=("equal binary splits (Theorem 3's worst case)", "random k and shares"),
            ),
            Param("watch_seed", "int", lo=0, hi=10_000, default=0),
            Param("mv", "parsed"),
        ),
        presets=game_guides.PRESETS,
        challenges=game_guides.CHALLENGES,
        preset_key="game_preset",
        features=frozenset({"quiz", "export"}),
        theory="1.5",
        thumbnail="preset=worst_case&round=6",
        lecture_path=(
            LectureStep(
                "16–21",
                "worst_case",
                "Why s^−γ? Hatano's Weight Distribution Game. Watch the "
                "equal binary splits reach φ_γ(s) exactly; then let a student play the adversary "
                "(mode *You are the adversary*) and try to beat it.",
            ),
        ),
    ),
    PageSpec(
        slug="branching",
        title="Divide and merge (InfoBoost)",
        icon=":material/hub:",
        view="views/branching.py",
        blurb="Takimoto–Koya–Maruoka: InfoBoost divides every leaf by the new stump and "
        "merges the children — all (InfoBoost), none (DT.InfoBoost) or by entropy bands "
        "(BP.InfoBoost).",
        params=(
            *LESSON_PARAMS,
            Param(
                "schemes",
                "choices",
                default=tuple(MERGE_SHORT.values()),
                options=tuple(MERGE_SHORT.values()),
                field="schemes",
            ),
            Param("T", "int", lo=1, hi=60, default=20, field="n_rounds"),
            Param("c", "float", lo=0.05, hi=0.95, default=0.5, step=0.05, field="c"),
            Param(
                "wl",
                "choice",
                default="H(Y|h)",
                options=("H(Y|h)", "divided leaves"),
                field="wl",
                values={"H(Y|h)": "h", "divided leaves": "divided"},
            ),
        ),
        presets=branching_guides.PRESETS,
        challenges=branching_guides.CHALLENGES,
        preset_key="bp_preset",
        first_round=1,
        features=_LESSON | {"student"},
        theory="2",
        thumbnail="preset=merge_all&round=6",
        lecture_path=(
            LectureStep(
                "21–27",
                "merge_all",
                "InfoBoost as a branching program: divide, then "
                "merge. Compare Π Z_t with Π H(Y|h_t); then the preset *DT.InfoBoost overfits* to "
                "see what merging buys.",
            ),
        ),
    ),
    PageSpec(
        slug="matryoshka",
        title="Probabilistic trees & matryoshka",
        icon=":material/deployed_code:",
        view="views/matryoshka.py",
        blurb="Grossmann's probabilistic boosting as a chain, a tree and a matryoshka of "
        "two-node trees: soft regions P(H > 0) and the exact expected error against C(T), F "
        "and M2.",
        params=(
            *LESSON_PARAMS,
            Param(
                "struct",
                "choices",
                default=("Chain (prob. AdaBoost)", "Tree", "Matryoshka"),
                options=(
                    "Chain (prob. AdaBoost)",
                    "Tree",
                    "Matryoshka",
                    "Greedy collapse (§5.4)",
                ),
                field="structures",
                values={
                    "Chain (prob. AdaBoost)": "chain",
                    "Tree": "tree",
                    "Matryoshka": "matryoshka",
                    "Greedy collapse (§5.4)": "collapse",
                },
            ),
            Param("Tw", "choice", default=16, options=(2, 4, 8, 16, 32, 64), field="n_weak"),
            Param("tau", "float", lo=0.02, hi=1.0, default=0.3, step=0.02, field="softness"),
            Param(
                "est",
                "choice",
                default="exact q",
                options=("exact q", "100 answers", "20 answers", "5 answers"),
                field="samples",
                # the answers Grossmann's learner sees of each soft stump (None: the exact q)
                values={"exact q": None, "100 answers": 100, "20 answers": 20, "5 answers": 5},
            ),
        ),
        presets=matryoshka_guides.PRESETS,
        challenges=matryoshka_guides.CHALLENGES,
        preset_key="mat_preset",
        first_round=4,
        features=_LESSON,
        theory="3",
        thumbnail="preset=chain_wins&round=6",
        lecture_path=(
            LectureStep(
                "27–33",
                "chain_wins",
                "Probabilistic stumps: the chain meets every weak "
                "classifier, the tree only log₂ T of them. Open the challenge *a tree beats the "
                "chain* (XOR) to show a bound is not a prediction.",
            ),
        ),
    ),
    PageSpec(
        slug="oblique",
        title="Boosted oblique trees (G1)",
        icon=":material/call_split:",
        view="views/oblique.py",
        blurb="Henry–Nock–Nielsen's G1: AdaBoost (a path), the Kearns–Mansour tree and "
        "BoostODT (AdaBoost_R inside every node) on one stepper, with Theorem 1's bound.",
        params=(
            *LESSON_PARAMS,
            Param("T2", "int", lo=1, hi=31, default=7, field="n_internal"),
            Param("T1", "int", lo=1, hi=40, default=10, field="n_stumps"),
            Param(
                "learner",
                "choice",
                default="stumps (the paper)",
                options=("stumps (the paper)", "hyperplane (oblique line)"),
                field="learner",
                values={"stumps (the paper)": "stump", "hyperplane (oblique line)": "hyperplane"},
            ),
            Param(
                "rule",
                "choice",
                default="breadth-first (complete tree)",
                options=("breadth-first (complete tree)", "largest decrease of Σ 2√(w⁺w⁻)"),
                field="rule",
                values={
                    "breadth-first (complete tree)": "breadth_first",
                    "largest decrease of Σ 2√(w⁺w⁻)": "max_decrease",
                },
            ),
            Param("inner", "flag", default=False, field="inner"),
        ),
        presets=oblique_guides.PRESETS,
        challenges=oblique_guides.CHALLENGES,
        preset_key="odt_preset",
        first_round=1,
        features=_LESSON | {"student"},
        theory="4",
        thumbnail="preset=diag_xor&round=3",
        lecture_path=(
            LectureStep(
                "33–40",
                "diag_xor",
                "One algorithm, G1, gives AdaBoost, the Kearns–Mansour "
                "tree and BoostODT. On the diagonal XOR the oblique nodes win; step through the "
                "stumps inside a node.",
            ),
        ),
    ),
    PageSpec(
        slug="benchmark",
        title="Benchmark on real data",
        icon=":material/leaderboard:",
        view="views/benchmark.py",
        blurb="Every algorithm against scikit-learn on twelve real datasets: 10-fold CV, paired "
        "tests, and an honest verdict on each paper's claim.",
        params=(
            *HEADER_PARAMS,
            *PRESET_PARAMS,
            Param(
                "bench_show",
                "choice",
                default="mean test error",
                options=("mean test error", "sd of test error", "fit time (s)", "size"),
            ),
            Param("bench_ref", "choice", default="sklearn DecisionTree"),
            Param("bench_ds", "choice"),
            Param("now_ds", "choice"),
            Param("now_learners", "choices", default=("BoostODT (stumps)", "sklearn DecisionTree")),
            Param("now_folds", "int", lo=2, hi=10, default=5),
        ),
        presets=benchmark_guides.PRESETS,
        challenges=benchmark_guides.CHALLENGES,
        preset_key="bench_preset",
        theory="4",
        thumbnail="preset=odt_vs_oc1",
        lecture_path=(
            LectureStep(
                "40–45",
                "odt_vs_oc1",
                "Does it hold on real data? Read the verdicts: one "
                "rule for every claim (better, worse, mixed or no significant difference), and not "
                "every paper's claim comes out 'better'. End on the Bounds explorer's "
                "chain-vs-tree curve (preset *The chain against the tree*).",
            ),
        ),
    ),
    PageSpec(
        slug="bounds",
        title="Bounds explorer",
        icon=":material/functions:",
        view="views/bounds.py",
        blurb="Every closed-form bound with its formula and sliders: Grossmann's figures (and "
        "where his nesting argument breaks), ⌈log k⌉ vs g_γ(k), e_γ(n), φ_γ(s), band counts.",
        params=(
            *HEADER_PARAMS,
            *PRESET_PARAMS,
            Param(
                "b_rhos",
                "choices",
                default=("31/32", "7/8", "3/4", "1/2", "1/4"),
                options=("31/32", "7/8", "3/4", "1/2", "1/4"),
            ),
            Param("b_T", "choice", default=1024, options=tuple(2**k for k in range(4, 17))),
            Param(
                "b_rho3", "choice", default="31/32", options=("31/32", "7/8", "3/4", "1/2", "1/4")
            ),
            Param("b_C", "float", lo=0.01, hi=0.99, default=0.3),
            Param("b_Tn", "int", lo=2, hi=1024, default=64),
            Param("b_gamma", "float", lo=0.01, hi=0.5, default=0.1, step=0.01),
            Param("b_s", "choice", default=64, options=(4, 8, 16, 32, 64, 71, 128, 256, 512, 1024)),
            Param(
                "b_delta",
                "choice",
                default=0.2,
                options=tuple(round(0.05 * i, 2) for i in range(1, 11)),
            ),
            Param("b_eps_w", "choice", default=0.1, options=(0.25, 0.1, 0.05, 0.01)),
            Param("b_eps", "choice", default=0.01, options=(0.1, 0.05, 0.01, 0.001, 1e-4)),
        ),
        presets=bounds_guides.PRESETS,
        challenges=bounds_guides.CHALLENGES,
        preset_key="bounds_preset",
        theory="1",
        thumbnail="preset=chain_vs_tree",
    ),
    PageSpec(
        slug="theory",
        title="Theory notes",
        icon=":material/menu_book:",
        view="views/theory.py",
        params=(*HEADER_PARAMS, Param("section", "parsed")),
    ),
)

_BY_SLUG = {p.slug: p for p in PAGES}


def page(slug: str) -> PageSpec:
    """The page whose URL path is ``slug`` ("" or "home" for the home page).

    >>> page("topdown").title
    'Top-down growth'
    """
    key = "" if slug == "home" else slug
    if key not in _BY_SLUG:
        raise KeyError(f"no page {slug!r}; the pages are {[p.slug or 'home' for p in PAGES]}")
    return _BY_SLUG[key]


def with_feature(feature: str) -> tuple[PageSpec, ...]:
    """The pages that have ``feature`` (one of :data:`FEATURES`), in navigation order.

    >>> [p.slug for p in with_feature("lecture")]
    ['topdown', 'branching', 'matryoshka', 'oblique']
    """
    if feature not in FEATURES:
        raise ValueError(f"feature must be one of {sorted(FEATURES)}; got {feature!r}")
    return tuple(p for p in PAGES if feature in p.features)


#: The lesson pages (the lecture view: regions, structure and curves stepped in the browser).
LESSONS: tuple[PageSpec, ...] = with_feature("lecture")
#: Their slugs, in navigation order.
LESSON_SLUGS: tuple[str, ...] = tuple(p.slug for p in LESSONS)
