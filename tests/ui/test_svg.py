"""The structure pictures' SVG engine (``ui/svg.py``): what every lesson's drawer is built on —
the text-width estimate and its variants, the document and its escaped text, the label
plate, and the choice of pictures the browser may pick from."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from ui import svg

HOSTILE = "<script>alert('x')</script> & \"q\""


@pytest.mark.parametrize("font", [12.0, 13, 17.5, 22.0, 23])
@pytest.mark.parametrize("text", ["", "a", "x1 ≤ 0.25", "a much longer feature name here"])
def test_text_width_keeps_each_drawers_factors_in_their_order(text: str, font: float) -> None:
    """The drawers' estimates were written ``len × font × 0.96 × CHAR + pad`` (an edge
    label) and ``len × font × CHAR × 1.1 + pad`` (a bold title); the engine's one function
    computes exactly those floats, so every picture keeps its bytes."""
    n, char = len(text), svg.CHAR
    assert svg.text_width(text, font) == n * font * char
    assert svg.text_width(text, font, size=svg.SMALL, pad=4) == n * font * 0.96 * char + 4
    assert svg.text_width(text, font, widen=svg.BOLD, pad=8) == n * font * char * 1.1 + 8
    em = sum(svg.SOURCE_SANS.advances.get(c, 0.6) for c in text)
    page = svg.text_width(text, font, face=svg.SOURCE_SANS, widen=1.3)
    assert page == em * font * 1.05 * 1.3


def test_text_width_estimates_grow_with_the_text() -> None:
    page = svg.SOURCE_SANS
    assert svg.text_width("w −0.93", 13, face=page) < svg.text_width("+12 more", 13, face=page)
    assert svg.text_width("abc", 17, face=page) > svg.text_width("abc", 13, face=page)
    assert svg.text_width("abc", 13, face=page, widen=1.3) > svg.text_width("abc", 13, face=page)
    assert svg.text_width("abc", 13, widen=svg.BOLD) > svg.text_width("abc", 13)
    assert svg.widest(["ab", "abcd"], 13) == svg.text_width("abcd", 13)
    assert svg.chars_in(svg.text_width("x" * 30, 13) + 1, 13) == 30


def test_every_string_reaching_a_picture_is_escaped() -> None:
    """Feature names come from CSVs: text, labels and a picture made of them parse as XML and
    show the string as typed."""
    parts = [
        svg.text_tag(HOSTILE, 4, 10),
        svg.text_tag(HOSTILE, 4, tag="tspan"),
        svg.plate_label(HOSTILE, 50, 30, 13, plate=' fill="white"'),
    ]
    picture = svg.document(200, 60, 13, parts)
    assert "<script>" not in picture and "&lt;script&gt;" in picture
    root = ET.fromstring(picture)
    texts = ["".join(e.itertext()) for e in root.iter() if e.tag.endswith(("text", "tspan"))]
    assert texts.count(HOSTILE) == 3


def test_document_and_svg_size_agree() -> None:
    picture = svg.document(
        123.6, 45.2, 22.0, [], face=svg.SOURCE_SANS, cls="bt", attrs=' text-anchor="middle"'
    )
    root = ET.fromstring(picture)
    assert svg.svg_size(picture) == (124.0, 45.0)
    assert root.get("viewBox") == "0 0 124 45" and root.get("font-size") == "22"
    assert root.get("font-family") == svg.SOURCE_SANS.family and root.get("class") == "bt"
    assert root.get("text-anchor") == "middle"


def test_a_too_wide_title_breaks_before_its_parenthesis() -> None:
    title = "near this round's change (▸ = folded)"
    assert svg.split_title(title, 10_000, 22) == [title]
    assert svg.split_title(title, 100, 22) == ["near this round's change", "(▸ = folded)"]
    assert svg.split_title("no parenthesis at all here", 10, 22) == ["no parenthesis at all here"]
    assert svg.wrap("a bb ccc dddd", 6) == ["a bb", "ccc", "dddd"]


def _pic(w: float, h: float) -> str:
    return svg.document(w, h, 13, [f'<rect width="{w}" height="{h}"/>'])


def test_choose_keeps_the_last_and_drops_repeats() -> None:
    small, big = _pic(40, 30), _pic(2000, 2000)
    assert svg.choose([big, small, small]) == [small]
    assert svg.choose([big]) == [big]
    assert svg.fits(small) and not svg.fits(big)


def test_choosable_drops_pictures_the_browser_could_never_pick() -> None:
    """The browser shows the first picture that fits: one at least as large as an earlier one
    in both directions (within half a pixel) is never shown."""
    a, b, c, d = _pic(500, 300), _pic(300, 500), _pic(500.4, 300), _pic(200, 200)
    assert svg.choosable([a, b, c, d]) == [a, b, d]
    assert svg.choosable([a, a]) == [a]
