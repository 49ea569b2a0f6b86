"""Widgets shared by every page: the dataset sidebar and page links.

Every widget that defines a demo is bound to the URL (``bind="query-params"``), so the address
bar always holds the whole state and a shared link reopens the same picture.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from boostcore import csvdata, datasets

from . import compute, draw, pages
from .params import named
from .text import md_plain


@dataclass(frozen=True)
class DataChoice:
    """The dataset in use, a key that identifies it for caching and, for a drawing, its points
    as ``(X, y)`` (what the export's script rebuilds the data from)."""

    dataset: datasets.Dataset
    key: str
    drawn_xy: tuple | None = None


def dataset_sidebar() -> DataChoice:
    """Sidebar section choosing the data: a generator with its parameters, a CSV upload, or
    points drawn by clicking on a canvas (shown at the top of the main area).

    A CSV that does not validate shows ``st.error`` with the reason and the page falls back
    to the generated dataset, so a bad file never produces a traceback; rows of a CSV that
    cannot be used are left out and listed in a warning. A drawing too small to run also
    falls back to the generated dataset and says so.
    """
    sb = st.sidebar
    sb.header("Data")
    # the data sources' labels are the URL values (``?src=Draw``)
    source = (
        sb.segmented_control(
            "Source",
            **named(pages.DATASET_PARAMS, "src").segmented(),
            help="Use a built-in 2D dataset, upload your own CSV file, or draw points by clicking.",
        )
        or named(pages.DATASET_PARAMS, "src").default  # a click on the chosen one unsets it
    )
    # No format_func on URL-bound widgets: the URL stores the shown label, so options are
    # kept short and readable (``?data=stripes``).
    name = sb.selectbox(
        "Dataset",
        **named(pages.DATASET_PARAMS, "data").select(),
        help="Which 2D shape the two classes form.",
    )
    sb.caption(datasets.DATASET_DESCRIPTIONS[name])
    n = sb.slider(
        "Number of points",
        **named(pages.DATASET_PARAMS, "n").number(),
        help="Training plus test points.",
    )
    noise = sb.slider(
        "Noise",
        **named(pages.DATASET_PARAMS, "noise").number(),
        help="How much the points are jittered around the clean shape.",
    )
    with sb.expander("More data options"):
        imbalance = st.slider(
            "Fraction of class +1",
            **named(pages.DATASET_PARAMS, "pos").number(),
            help="Class balance: 0.5 means as many +1 as −1 points.",
        )
        label_noise = st.slider(
            "Label noise",
            **named(pages.DATASET_PARAMS, "flip").number(),
            help="Fraction of labels flipped at random (points the tree cannot explain).",
        )
        test_fraction = st.slider(
            "Test fraction",
            **named(pages.DATASET_PARAMS, "test").number(),
            help="Share of the points held out to measure the test error.",
        )
        seed = int(
            st.number_input(
                "Random seed",
                **named(pages.DATASET_PARAMS, "seed").number(),
                help="Same seed, same points: a shared link shows the same data.",
            )
        )
    generated = DataChoice(
        compute.generated_dataset(name, n, noise, imbalance, label_noise, seed, test_fraction),
        f"gen:{name}:{n}:{noise}:{imbalance}:{label_noise}:{seed}:{test_fraction}",
    )
    draw.init_from_url()  # read ``pts=`` once per session, whatever the source
    if source != "Draw":
        draw.sync_url(False)  # drawn points stay in the session, not in the link
    else:
        sb.caption(
            "Draw: click on the canvas at the top of the page. The dataset settings "
            "above are used by *Start from the generated points* and while the drawing "
            "is too small to run. Your points travel in the link."
        )
        drawn = draw.draw_panel(generated.dataset, seed)
        draw.sync_url(True)  # after the panel: a click or Undo changed the drawing
        if drawn is None:
            return generated
        return DataChoice(*drawn, drawn_xy=draw.drawn_xy())
    if source != "Upload CSV":
        return generated
    upload = sb.file_uploader(
        "CSV file",
        type=["csv", "txt"],
        key="csv_file",
        help="Two numeric feature columns and one label column with exactly two classes "
        "(a column named label/class/target/y, or the last column). Up to 50,000 rows.",
    )
    sb.download_button(
        "Download a template CSV",
        csvdata.csv_template(),
        file_name="boostlab_template.csv",
        mime="text/csv",
        help="A small valid file to start from.",
    )
    sb.caption(
        "An uploaded file is not part of the page's link: a shared link opens with the "
        "generated data. To share your own points in a link, use *Draw*."
    )
    if upload is None:
        sb.info("No file yet: the generated dataset above is shown meanwhile.")
        return generated
    choice = dataset_from_upload(upload.getvalue(), upload.name, test_fraction, seed)
    return choice if choice is not None else generated


def dataset_from_upload(
    data: bytes, filename: str, test_fraction: float = 0.25, seed: int = 0
) -> DataChoice | None:
    """Parse an uploaded CSV; on a file-level problem show ``st.error`` and return ``None``.

    Rows that cannot be used (a missing value, text in a number column, a wrong number of
    fields) are left out and listed in a sidebar warning with their line numbers; if too few
    rows remain, the error says so and lists them too.
    """
    try:
        ds, report = compute.uploaded_dataset_report(data, filename, test_fraction, seed)
    except ValueError as err:
        st.error(
            f"**{md_plain(filename)}** could not be used: {md_plain(err, limit=2000)}",
            icon=":material/error:",
        )
        return None
    digest = hashlib.sha1(data).hexdigest()[:16]
    split = f"{ds.n_train} training and {ds.n_test} test points"
    if report.n_rejected:
        st.sidebar.warning(
            f"Loaded {report.n_loaded} rows of {md_plain(filename)} ({split}); "
            f"{md_plain(report.summary(), limit=2000)}.",
            icon=":material/warning:",
        )
    else:
        st.sidebar.success(f"Loaded {md_plain(filename)}: {split}.")
    return DataChoice(ds, f"csv:{digest}:{test_fraction}:{seed}")


def page_link(path: str, label: str, url_path: str, icon: str | None = None) -> None:
    """``st.page_link`` that also works when a page file runs on its own (tests, previews).

    Outside ``st.navigation`` Streamlit knows no pages, so fall back to a plain link.
    """
    from streamlit.errors import StreamlitAPIException

    try:
        st.page_link(path, label=label, icon=icon)
    except StreamlitAPIException:
        st.markdown(f"[{label}](/{url_path})")
