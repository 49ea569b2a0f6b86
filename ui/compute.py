"""Cached datasets every lesson page reads: the generated 2D datasets (``st.cache_data``) and
uploaded CSVs (in :mod:`ui.cache`'s size-bounded store: an upload may be megabytes).

Each lesson's own cached runs live in its folder (``ui/pages/<slug>/runs.py``); what stays
here is only what every page with a dataset sidebar shares.
"""

from __future__ import annotations

import streamlit as st

from boostcore import csvdata, datasets

from .cache import shared


@st.cache_data(max_entries=64, show_spinner=False)
def generated_dataset(
    name: str,
    n: int,
    noise: float,
    imbalance: float,
    label_noise: float,
    seed: int,
    test_fraction: float,
) -> datasets.Dataset:
    """A generated 2D dataset (cached)."""
    return datasets.make_dataset(
        name,
        n=n,
        noise=noise,
        imbalance=imbalance,
        label_noise=label_noise,
        random_state=seed,
        test_fraction=test_fraction,
    )


@shared  # in the size-bounded store: an upload may be megabytes (its bytes are the key)
def uploaded_dataset(
    data: bytes, filename: str, test_fraction: float, seed: int
) -> datasets.Dataset:
    """A dataset parsed from an uploaded CSV (raises ``ValueError`` with a readable message)."""
    return csvdata.load_csv(data, name=filename, test_fraction=test_fraction, random_state=seed)


@shared
def uploaded_dataset_report(
    data: bytes, filename: str, test_fraction: float, seed: int
) -> tuple[datasets.Dataset, csvdata.CsvReport]:
    """An uploaded CSV with bad rows left out, and the report of what was left out (cached;
    file-level problems raise ``ValueError`` with a readable message)."""
    return csvdata.load_csv_report(
        data, name=filename, test_fraction=test_fraction, random_state=seed
    )
