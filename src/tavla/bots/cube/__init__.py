"""Cube decisions from cubeless chances (Janowski's model; money and match play).

``chances`` is the evaluators' five-number convention; ``CubeContext`` the cube, money
options or match score; ``double_decision``, ``take_decision`` and ``raccoon_decision``
the answers, each with the equities it compared; ``cubeful_equities`` the equity of
many positions at once. See docs/cube.md.
"""

from tavla.bots.cube.batch import cubeful_equities
from tavla.bots.cube.context import (
    CUBE_CAP,
    MONEY_CUBE_LIFE,
    CubeContext,
    CubeOwner,
    CubePosition,
    MatchScore,
    Money,
)
from tavla.bots.cube.convention import Chances, chances, cubeless_equity, swap_sides
from tavla.bots.cube.decisions import (
    Answer,
    CubeAction,
    DoubleDecision,
    RaccoonDecision,
    TakeDecision,
    cubeful_equity,
    double_decision,
    raccoon_decision,
    take_decision,
)
from tavla.bots.cube.janowski import CubefulModel

__all__ = [
    "CUBE_CAP",
    "MONEY_CUBE_LIFE",
    "Answer",
    "Chances",
    "CubeAction",
    "CubeContext",
    "CubeOwner",
    "CubePosition",
    "CubefulModel",
    "DoubleDecision",
    "MatchScore",
    "Money",
    "RaccoonDecision",
    "TakeDecision",
    "chances",
    "cubeful_equities",
    "cubeful_equity",
    "cubeless_equity",
    "double_decision",
    "raccoon_decision",
    "swap_sides",
    "take_decision",
]
