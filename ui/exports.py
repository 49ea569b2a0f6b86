"""Export a run as a runnable ``boostcore`` script: the templating every lesson shares.

Pure Python (no Streamlit calls), so everything here is unit-testable; the pages only put
the strings into ``st.code`` / ``st.download_button``.

* Each lesson's ``ui/pages/<slug>/export.py`` has its ``snippet(...)``: a complete script
  (imports, dataset, the generator called as the lesson's ``runs.py`` calls it, a loop
  printing every round, then the numbers the page shows at its last round, one
  ``final <run> <name> = <value>`` line each, which the tests compare with the page's own
  cached runs). Its text is the template next to it (``export.py.tmpl``; the game has one
  per mode), exactly as the script reads, with ``<<NAME>>`` placeholders.
* This module reads a template (:func:`template`), fills it in one pass (:func:`fill`), and
  adds what every script shares (:func:`script`): the header naming the page and its paper,
  the ``fmt``/``report`` helpers and, for a page on a dataset, the dataset lines and the
  test split. Those shared parts live in ``ui/script_templates/``. The ``.tmpl`` suffix
  keeps ruff and pytest from reading the templates as modules.
* The dataset lines come from :mod:`ui.dataset_code`; the run as JSON / CSV is in
  :mod:`ui.records`.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

#: Where the parts every script shares live, under this package (``header``, ``helpers``,
#: ``test_split``).
SHARED_FOLDER = "script_templates"

_PLACEHOLDER = re.compile(r"<<([A-Z_0-9]+)>>")


@functools.cache
def _read(package: str, *parts: str) -> str:
    """The text of a file under ``package``'s folder, read once (templates do not change
    while the app runs)."""
    path = resources.files(package)
    for part in parts:
        path = path / part
    return path.read_text(encoding="utf-8")


def template(package: str, name: str = "export") -> str:
    """The text of the script template ``<name>.py.tmpl`` in the folder of ``package``.

    Read through :mod:`importlib.resources`, so it is found wherever the package is
    installed or copied (the Docker image copies ``ui/`` whole), and once per template.

    Parameters
    ----------
    package : str
        The dotted package whose folder holds the template: a lesson passes its own
        ``__package__`` (``"ui.pages.topdown"``).
    name : str, default "export"
        The file's name without ``.py.tmpl`` (the game's modes: ``"export_watch"``,
        ``"export_played"``).

    Returns
    -------
    str
        The file's text, newlines as ``"\\n"`` whatever the checkout's line endings.
    """
    return _read(package, f"{name}.py.tmpl")


def _shared(name: str) -> str:
    """One of the parts every script shares (``header``, ``helpers``, ``test_split``)."""
    return _read(__package__, SHARED_FOLDER, f"{name}.py.tmpl")


def fill(text: str, **values: str) -> str:
    """Replace every ``<<NAME>>`` of ``text`` by ``values["NAME"]``, in one pass.

    One regular-expression substitution over the template: the inserted text is never
    scanned again, so a value that itself contains ``<<NAME>>`` (a file name such as
    ``data<<TEST>>.csv`` inside the dataset lines) stays as it is. User text never reaches a
    value as code: it enters the scripts only inside literals (:func:`ui.dataset_code.literal`,
    a ``repr``), so nothing in it can change the code.

    Parameters
    ----------
    text : str
        A template: the script's text with its ``<<NAME>>`` placeholders.
    **values : str
        The text of every placeholder, by its name.

    Returns
    -------
    str
        The filled script.

    Raises
    ------
    AssertionError
        When a placeholder of the template is not given or a value has no placeholder (a
        template and its snippet function out of step).

    Examples
    --------
    >>> fill("A = <<A>>\\nB = <<B>>\\n", A="'<<B>>'", B="1")
    "A = '<<B>>'\\nB = 1\\n"
    """
    wanted = set(_PLACEHOLDER.findall(text))
    missing, unused = sorted(wanted - set(values)), sorted(set(values) - wanted)
    if missing or unused:
        raise AssertionError(f"snippet template placeholders unfilled {missing}, unknown {unused}")
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


def script(
    package: str,
    title: str,
    paper: str,
    *,
    name: str = "export",
    data_code: str | None = None,
    **values: str,
) -> str:
    """A lesson's script: its template filled with its values and the shared parts.

    Parameters
    ----------
    package : str
        The lesson's package (its ``__package__``): where its template is.
    title : str
        The page as the header names it (``"Top-down growth page"``).
    paper : str
        The paper(s) the page follows, for the header's ``Paper:`` line (continuation lines
        start with ``"#   "``).
    name : str, default "export"
        The template's name in the lesson's folder.
    data_code : str or None, default None
        The dataset lines (:func:`ui.dataset_code.dataset_code`) of a page that runs on a
        dataset; its template then has ``<<DATA>>`` and ``<<TEST>>`` (the test split) too.
    **values : str
        The lesson's own placeholders (literals already: :func:`ui.dataset_code.literal`).

    Returns
    -------
    str
        The complete script: ``<<HEADER>>`` and ``<<HELPERS>>`` filled for every page.
    """
    shared = {
        "HEADER": fill(_shared("header"), TITLE=title, PAPER=paper),
        "HELPERS": _shared("helpers"),
    }
    if data_code is not None:
        shared["DATA"] = data_code.rstrip("\n") + "\n"
        shared["TEST"] = _shared("test_split")
    return fill(template(package, name), **shared, **values)
