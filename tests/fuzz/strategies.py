"""Hypothesis strategies for near-valid input: valid pieces, mutated, and noise.

Pure noise rarely gets past the first check of a reader; text made of the right
alphabet and shape reaches the deeper checks, where the surprises are.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")
# Characters a reader might trip over: digits of other scripts, separators, controls.
ODD = "²٣１𝟙\u00a0\t\n\x00\ufffd-/,=*()"


def mutated(text: str) -> st.SearchStrategy[str]:
    """``text`` with a few characters replaced, removed or inserted."""

    @st.composite
    def build(draw: st.DrawFn) -> str:
        chars = list(text)
        for _ in range(draw(st.integers(0, 4))):
            if not chars:
                break
            index = draw(st.integers(0, len(chars) - 1))
            action = draw(st.sampled_from(("replace", "delete", "insert")))
            extra = draw(st.sampled_from(list(ODD + "0123456789wbxWB -/,=")))
            if action == "replace":
                chars[index] = extra
            elif action == "delete":
                del chars[index]
            else:
                chars.insert(index, extra)
        return "".join(chars)

    return build()


def counts(max_digits: int = 2) -> st.SearchStrategy[str]:
    return st.one_of(st.integers(0, 16).map(str), st.text("0123456789²٣", min_size=0, max_size=max_digits))


@st.composite
def point_field(draw: st.DrawFn) -> str:
    runs = draw(st.lists(st.tuples(st.integers(0, 16), st.sampled_from("wbx")), max_size=3))
    if not runs:
        return draw(st.sampled_from(("-", "", "--", "0w")))
    return "".join(f"{count}{colour}" for count, colour in runs)


@st.composite
def tpn_text(draw: st.DrawFn) -> str:
    """A line with TPN's shape whose fields may be anything plausible."""
    game = draw(st.sampled_from((*GAMES, "abluka", "Tabla", "")))
    points = "/".join(draw(st.lists(point_field(), min_size=23, max_size=25)))
    bar = f"{draw(counts())},{draw(counts())}"
    off = f"{draw(counts())},{draw(counts())}"
    side = draw(st.sampled_from(("w", "b", "x", "")))
    dice = draw(st.one_of(st.just("-"), st.text("0123456789²", min_size=0, max_size=3)))
    extras = draw(
        st.lists(
            st.one_of(
                st.builds(lambda a, b: f"r={a},{b}", counts(1), counts(1)),
                st.text("0123456²", max_size=8).map(lambda value: f"c={value}"),
                st.text("cr=,0123", max_size=5),
            ),
            max_size=3,
        )
    )
    return " ".join([game, points, bar, off, side, dice, *extras])


@st.composite
def abluka_text(draw: st.DrawFn) -> str:
    ranks = draw(st.lists(st.text("1234567890²WBx", max_size=8), min_size=6, max_size=8))
    side = draw(st.sampled_from(("b", "w", "x", "")))
    return "/".join(ranks) + " " + side


def move_text() -> st.SearchStrategy[str]:
    token = st.one_of(
        st.integers(0, 26).map(str),
        st.sampled_from(("bar", "off", "in", "BAR", "Off", "²", "٣", "")),
    )
    step = st.lists(
        st.tuples(token, st.sampled_from(("", "*"))).map(lambda item: item[0] + item[1]),
        min_size=1,
        max_size=4,
    ).map("/".join)
    counted = st.tuples(step, st.sampled_from(("", "(2)", "(4)", "(10)", "(0)", "(²)", "("))).map(
        lambda item: item[0] + item[1]
    )
    return st.one_of(
        st.lists(counted, min_size=0, max_size=5).map(" ".join),
        st.just("-"),
        st.text(alphabet="0123456789/*() ,barofin-²", max_size=30),
    )


json_values: st.SearchStrategy[Any] = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated_json(draw: st.DrawFn, document: Any) -> str:
    """``document`` with one value somewhere inside replaced by arbitrary JSON, or
    one key dropped, as text; sometimes with a raw number text JSON cannot hold."""
    data = json.loads(json.dumps(document))
    node = data
    for _ in range(draw(st.integers(0, 4))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if isinstance(node[key], (dict, list)) and node[key]:
                node = node[key]
                continue
            break
        if isinstance(node, list) and node:
            index = draw(st.integers(0, len(node) - 1))
            if isinstance(node[index], (dict, list)) and node[index]:
                node = node[index]
                continue
            break
    marker = "__RAW__"
    replacement = draw(st.one_of(json_values, st.just(marker)))
    if isinstance(node, dict) and node:
        key = draw(st.sampled_from(sorted(node)))
        if draw(st.booleans()):
            del node[key]
        else:
            node[key] = replacement
    elif isinstance(node, list) and node:
        node[draw(st.integers(0, len(node) - 1))] = replacement
    text = json.dumps(data)
    raw = draw(st.sampled_from(("1e400", "-1e400", "NaN", "Infinity", "9" * 40, "[" * 200 + "]" * 200)))
    return text.replace(json.dumps(marker), raw)
