"""What a page may be asked to compute: measured cost caps (issue 16).

A link or an upload can ask a page for more than a classroom server should spend on one
visitor. Each cap below was measured on this project's 2-core machine; a page above its cap
says so (plain text) and computes nothing, instead of tying up the server for minutes or
holding hundreds of megabytes (the shared store, ``ui/cache.py``, bounds what is *kept*; these
caps bound what one request may *build*).
"""

from __future__ import annotations

#: The oblique page's AdaBoost run keeps the weights before and after every round
#: (2 × 8 bytes per training point per round): 37,500 uploaded points × 1,240 rounds would be
#: 744 MB. Cap: training points × rounds ≤ 8 million (≈ 128 MB; the largest generated link,
#: 3,750 × 1,240 = 4.65 million, is well inside).
OBLIQUE_CELLS_LIMIT = 8_000_000
#: The probabilistic page's chain evaluates 1,000 Monte Carlo worlds per point and round: 37,500
#: uploaded points × 32 soft stumps took 27 s (the tree 11.5 s, the matryoshka 21.6 s). Cap:
#: training points × weak classifiers ≤ 600,000 (≈ 13 s; the largest generated link,
#: 3,750 × 64 = 240,000, is inside).
PROB_CELLS_LIMIT = 600_000


def oblique_refusal(n_train: int, n_internal: int, n_stumps: int) -> str | None:
    """Why the oblique page will not compute this size (plain text), or ``None``.

    >>> oblique_refusal(3750, 31, 40) is None
    True
    >>> oblique_refusal(37500, 31, 40)[:45]
    'This is more than the page computes for one v'
    """
    rounds = n_internal * n_stumps
    if n_train * rounds <= OBLIQUE_CELLS_LIMIT:
        return None
    return (
        f"This is more than the page computes for one visitor: AdaBoost would run "
        f"{rounds:,} rounds (T2 × T1) on {n_train:,} training points, and the limit is "
        f"{OBLIQUE_CELLS_LIMIT:,} points × rounds. Lower T2 or T1 (at most "
        f"{max(1, OBLIQUE_CELLS_LIMIT // n_train):,} rounds for these points) or use fewer points."
    )


def prob_refusal(n_train: int, n_weak: int) -> str | None:
    """Why the probabilistic page will not compute this size (plain text), or ``None``.

    >>> prob_refusal(3750, 64) is None
    True
    """
    if n_train * n_weak <= PROB_CELLS_LIMIT:
        return None
    return (
        f"This is more than the page computes for one visitor: {n_weak} weak classifiers on "
        f"{n_train:,} training points, and the limit is {PROB_CELLS_LIMIT:,} points × weak "
        f"classifiers. Choose at most {max(1, PROB_CELLS_LIMIT // n_train):,} weak classifiers "
        "for these points, or use fewer points."
    )
