"""The SVG board draws what the position holds where a reader looks for it: every
checker on its own point's triangle and inside it, none overlapping, the count of a
tall stack on its top checker, each die with as many pips as its value, the borne-off
checkers inside their tray with their count beside them, and every element a complete
SVG element (a shape with its size, place and fill; a text with its place)."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest
from tests.cli.cli_helpers import START, tpn

from tavla.render.board import board_view
from tavla.render.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"
SHAPES = {"rect": ("x", "y", "width", "height"), "circle": ("cx", "cy", "r"), "text": ("x", "y")}
COLOUR = re.compile(r"^#[0-9a-f]{6}$")

POSITIONS = [
    START.replace(" w -", " w 31"),
    START.replace(" w -", " b 66"),
    tpn({6: "9w", 24: "12b"}, bar="1,0", off="5,3", dice="64"),
    tpn({1: "2b", 2: "7w", 19: "6b"}, bar="0,2", off="8,5", side="b", dice="52"),
    tpn({1: "1b2w", 6: "13w", 13: "14b"}, game="tapa", dice="55"),
]


def parse(text: str) -> ET.Element:
    return ET.fromstring(board_svg(board_view(text)))


def elements(root: ET.Element, tag: str, css: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if css in (e.get("class") or "").split()]


def number(element: ET.Element, name: str) -> float:
    return float(element.get(name, "missing"))


def triangles(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """Each point's triangle as (left, right, base y, tip y)."""
    found = []
    for polygon in elements(root, "polygon", "point"):
        corners = [tuple(float(v) for v in pair.split(",")) for pair in polygon.get("points", "").split()]
        assert len(corners) == 3
        (left, base), (right, base_again), (_, tip) = corners
        assert base == base_again and right > left
        found.append((left, right, base, tip))
    return found


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text", POSITIONS)
def test_every_element_is_complete(text: str) -> None:
    root = parse(text)
    known = {f"{SVG}{tag}" for tag in ("svg", "style", "rect", "circle", "polygon", "text")}
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    for element in root.iter():
        assert element.tag in known
        for name in SHAPES.get(element.tag.removeprefix(SVG), ()):
            assert 0 <= number(element, name) <= max(width, height), (name, element.attrib)
        if element.tag in (f"{SVG}rect", f"{SVG}circle", f"{SVG}polygon"):
            assert COLOUR.match(element.get("fill", "")), element.attrib
        if element.get("stroke") is not None:
            assert COLOUR.match(element.get("stroke", "")), element.attrib
    words = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "tray-label"]
    assert "BAR" in words and "OFF" in words


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text", POSITIONS)
def test_checkers_stand_on_their_triangles_without_overlapping(text: str) -> None:
    root = parse(text)
    view = board_view(text)
    shapes = triangles(root)
    assert len(shapes) == 24
    numbers = [(int(e.text or 0), number(e, "x"), number(e, "y")) for e in elements(root, "text", "number")]
    checkers = elements(root, "circle", "checker")
    points = set()
    for left, right, base, tip in shapes:
        centre = (left + right) / 2
        # Top-row triangles hang from the board's top edge, their numbers above it;
        # bottom-row ones rise from the bottom edge, their numbers below it.
        (point,) = [p for p, x, y in numbers if x == centre and (y - base) * (tip - base) < 0]
        assert (point >= 13) == (tip > base), point
        points.add(point)
        circles = [
            c
            for c in checkers
            if left < number(c, "cx") < right and 0 < (number(c, "cy") - base) / (tip - base) < 1.2
        ]
        assert len(circles) == min(5, len(view.checkers(point))), point
        heights = sorted(abs(number(c, "cy") - base) for c in circles)
        for circle in circles:
            assert number(circle, "cx") == centre
            assert number(circle, "r") <= (right - left) / 2
        if circles:
            radius = number(circles[0], "r")
            assert heights[0] >= radius
            for lower, upper in itertools.pairwise(heights):
                assert upper - lower >= 2 * radius, (point, heights)
    assert points == set(range(1, 25))


@pytest.mark.timeout(30)
def test_a_tall_stack_s_count_is_written_on_its_top_checker() -> None:
    root = parse(tpn({6: "9w", 24: "12b"}, bar="1,0", off="5,3", dice="64"))
    circles = elements(root, "circle", "checker")
    for label in elements(root, "text", "count"):
        under = [
            c
            for c in circles
            if (number(c, "cx"), number(c, "cy")) == (number(label, "x"), number(label, "y"))
        ]
        assert len(under) == 1, label.text


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text", POSITIONS)
def test_each_die_shows_its_value_in_pips_inside_it(text: str) -> None:
    root = parse(text)
    dice = elements(root, "rect", "die")
    pips = elements(root, "circle", "pip")
    values = sorted((int(d.get("data-value", 0)) for d in dice), reverse=True)
    assert values == sorted(board_view(text).dice or (), reverse=True)
    assert len(pips) == sum(values)
    for die in dice:
        x, y, size = number(die, "x"), number(die, "y"), number(die, "width")
        assert number(die, "height") == size > 0 and 0 < number(die, "rx") < size / 2
        inside = [p for p in pips if x < number(p, "cx") < x + size and y < number(p, "cy") < y + size]
        assert len(inside) == int(die.get("data-value", 0))
        places = [(number(p, "cx"), number(p, "cy")) for p in inside]
        for i, (ax, ay) in enumerate(places):
            for bx, by in places[i + 1 :]:
                assert max(abs(ax - bx), abs(ay - by)) >= size / 4, places


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text", POSITIONS)
def test_borne_off_checkers_lie_in_their_tray_with_their_count_beside_them(text: str) -> None:
    root = parse(text)
    view = board_view(text)
    (tray,) = elements(root, "rect", "tray")
    left, top = number(tray, "x"), number(tray, "y")
    right, bottom = left + number(tray, "width"), top + number(tray, "height")
    labels = [e for e in elements(root, "text", "tray-label") if (e.text or "").isdigit()]
    for colour, name in enumerate(("white", "black")):
        bars = [e for e in elements(root, "rect", "off") if name in (e.get("class") or "").split()]
        assert len(bars) == view.off[colour]
        spans = sorted((number(e, "y"), number(e, "y") + number(e, "height")) for e in bars)
        for bar in bars:
            x, y = number(bar, "x"), number(bar, "y")
            assert left <= x < x + number(bar, "width") <= right
            assert top <= y < y + number(bar, "height") <= bottom
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert start >= end
        if spans:
            # The count stands just inside the stack's inner end, towards the board's middle.
            (label,) = [e for e in labels if e.text == str(view.off[colour])]
            assert number(label, "x") == (left + right) / 2
            from_top = spans[0][0] - top < bottom - spans[-1][1]
            gap = number(label, "y") - spans[-1][1] if from_top else spans[0][0] - number(label, "y")
            assert 0 < gap <= 20, (name, gap)


@pytest.mark.timeout(30)
def test_the_note_on_pins_is_given_only_where_a_checker_is_pinned() -> None:
    def notes(text: str) -> list[str]:
        return [e.text or "" for e in parse(text).iter(f"{SVG}text") if "pinned" in (e.text or "")]

    assert notes(START.replace(" w -", " w 31")) == []
    assert notes(tpn({1: "3b", 6: "13w", 13: "12b"}, off="2,0", game="tapa", dice="52")) == []
    assert len(notes(tpn({1: "1b2w", 6: "13w", 13: "14b"}, game="tapa", dice="52"))) == 1
