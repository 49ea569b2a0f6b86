"""boostlab's algorithm core: numpy/scipy only (no Streamlit, no plotting), except the
scikit-learn adapters :mod:`boostcore.estimators` and :mod:`boostcore.evaluation`.

Every algorithm is a step generator yielding frozen snapshots (docs/development.md, "How the
code is arranged"); the scikit-learn style estimators in :mod:`boostcore.estimators` run a generator
to the end.
"""

__version__ = "0.1.0"
