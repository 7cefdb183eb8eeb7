"""The SVG board: valid XML, one circle per drawn checker, numbers in the mover's numbering."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.cli.cli_helpers import START, tpn

from tavla.render.board import board_view
from tavla.render.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    return ET.fromstring(board_svg(board_view(text)))


def checkers(root: ET.Element, kind: str = "") -> list[ET.Element]:
    return [
        e
        for e in root.iter(f"{SVG}circle")
        if "checker" in e.get("class", "").split() and kind in e.get("class", "")
    ]


def texts(root: ET.Element, css: str) -> list[str]:
    return [e.text or "" for e in root.iter(f"{SVG}text") if e.get("class") == css]


def test_start_position_has_thirty_checkers_and_all_numbers() -> None:
    root = parse(START.replace(" w -", " w 31"))
    assert len(checkers(root, "white")) == 15
    assert len(checkers(root, "black")) == 15
    assert sorted(int(t) for t in texts(root, "number")) == list(range(1, 25))
    dice = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "die"]
    assert [d.get("data-value") for d in dice] == ["3", "1"]
    assert "tabla: White to play 3-1" in texts(root, "title")


def test_tall_stack_draws_five_and_labels_the_count() -> None:
    # 9 white on 6, 1 on the bar; 12 black on White's 24 and 3 off.
    root = parse(tpn({6: "9w", 24: "12b"}, bar="1,0", off="5,3", dice="64"))
    assert len(checkers(root, "white")) == 5 + 1
    assert len(checkers(root, "black")) == 5
    assert sorted(texts(root, "count")) == ["12", "9"]
    trays = [e for e in root.iter(f"{SVG}rect") if (e.get("class") or "").startswith("off")]
    assert len(trays) == 5 + 3


def test_numbers_follow_the_side_to_act() -> None:
    # With Black to act the bottom-right point is Black's 1, which holds White's 24's checkers.
    root = parse(START.replace(" w -", " b 31"))
    labels = {e.text: float(e.get("x", 0)) for e in root.iter(f"{SVG}text") if e.get("class") == "number"}
    assert labels["1"] > labels["6"] > labels["12"]
    assert labels["24"] > labels["19"] > labels["13"]


def test_tapa_pinned_checker_is_marked() -> None:
    root = parse(tpn({1: "1b2w", 6: "13w", 13: "14b"}, game="tapa", dice="52"))
    pinned = checkers(root, "pinned")
    assert len(pinned) == 1 and "black" in pinned[0].get("class", "")
    assert len(checkers(root)) == 3 + 5 + 5
