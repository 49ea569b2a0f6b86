"""Snapshot → pandas tables shared by the pages: a run's history, for its CSV export.

A lesson's own round tables live in its folder (``ui/pages/<slug>/tables.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from boostcore.steps import Step


def history_frame(steps: Sequence[Step]) -> pd.DataFrame:
    """Every snapshot of one run, one row each: its record of the step protocol (``t``,
    ``kind``, what the step did and every scalar metric; ``to_record()``) — for CSV export."""
    return pd.DataFrame([s.to_record() for s in steps])
