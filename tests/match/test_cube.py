"""The cube's state machine, transition by transition (RULES.md 9.2)."""

from __future__ import annotations

import pytest

from tavla.match.cube import Cube, CubeOffer, OfferKind
from tavla.match.errors import CubeError

W, B = 0, 1
DOUBLE, BEAVER = OfferKind.DOUBLE, OfferKind.BEAVER

# (state before, action, player, raccoons, state after or None when refused)
TABLE: list[tuple[Cube, str, int, bool, Cube | None]] = [
    # doubling: from the middle or by the owner, never past 64
    (Cube(), "double", W, False, Cube(1, None, CubeOffer(DOUBLE, W))),
    (Cube(), "double", B, False, Cube(1, None, CubeOffer(DOUBLE, B))),
    (Cube(2, W), "double", W, False, Cube(2, W, CubeOffer(DOUBLE, W))),
    (Cube(2, W), "double", B, False, None),
    (Cube(32, B), "double", B, False, Cube(32, B, CubeOffer(DOUBLE, B))),
    (Cube(64, B), "double", B, False, None),
    (Cube(1, None, CubeOffer(DOUBLE, W)), "double", W, False, None),
    # answers: only the other player, only to a pending double
    (Cube(1, None, CubeOffer(DOUBLE, W)), "take", B, False, Cube(2, B)),
    (Cube(4, W, CubeOffer(DOUBLE, W)), "take", B, False, Cube(8, B)),
    (Cube(32, W, CubeOffer(DOUBLE, W)), "take", B, False, Cube(64, B)),
    (Cube(1, None, CubeOffer(DOUBLE, W)), "take", W, False, None),
    (Cube(), "take", B, False, None),
    (Cube(1, None, CubeOffer(DOUBLE, W)), "beaver", B, False, Cube(4, B)),
    (Cube(1, None, CubeOffer(DOUBLE, W)), "beaver", B, True, Cube(4, B, CubeOffer(BEAVER, W))),
    (Cube(8, W, CubeOffer(DOUBLE, W)), "beaver", B, True, Cube(32, B, CubeOffer(BEAVER, W))),
    (Cube(16, W, CubeOffer(DOUBLE, W)), "beaver", B, True, Cube(64, B)),  # a raccoon would pass 64
    (Cube(16, W, CubeOffer(DOUBLE, W)), "beaver", B, False, Cube(64, B)),
    (Cube(32, W, CubeOffer(DOUBLE, W)), "beaver", B, False, None),
    (Cube(1, None, CubeOffer(DOUBLE, W)), "beaver", W, False, None),
    (Cube(4, B, CubeOffer(BEAVER, W)), "raccoon", W, True, Cube(8, B)),
    (Cube(4, B, CubeOffer(BEAVER, W)), "raccoon", B, True, None),
    (Cube(1, None, CubeOffer(DOUBLE, W)), "raccoon", W, True, None),
    (Cube(4, B), "raccoon", W, True, None),
]


def _act(cube: Cube, action: str, player: int, raccoons: bool) -> Cube:
    if action == "double":
        return cube.double(player)
    if action == "take":
        return cube.take(player)
    if action == "beaver":
        return cube.beaver(player, raccoons=raccoons)
    return cube.raccoon(player)


@pytest.mark.parametrize(("before", "action", "player", "raccoons", "after"), TABLE)
def test_cube_state_table(before: Cube, action: str, player: int, raccoons: bool, after: Cube | None) -> None:
    """RULES.md 9.2: every listed transition gives the listed state or is refused."""
    if after is None:
        with pytest.raises(CubeError):
            _act(before, action, player, raccoons)
    else:
        assert _act(before, action, player, raccoons) == after


def test_drop_costs_the_value_before_the_double() -> None:
    """RULES.md 9.2: a drop loses the cube value before the double (1 on the first)."""
    assert Cube(1, None, CubeOffer(DOUBLE, W)).drop_points(B) == 1
    assert Cube(8, W, CubeOffer(DOUBLE, W)).drop_points(B) == 8
    with pytest.raises(CubeError):
        Cube(8, W, CubeOffer(DOUBLE, W)).drop_points(W)


def test_settle_closes_only_a_raccoon_window() -> None:
    assert Cube(4, B, CubeOffer(BEAVER, W)).settle() == Cube(4, B)
    pending = Cube(2, W, CubeOffer(DOUBLE, W))
    assert pending.settle() == pending


def test_turned() -> None:
    assert not Cube().turned
    assert Cube(2, B).turned


@pytest.mark.parametrize(
    ("cube", "player", "reason"),
    [
        (Cube(1, None, CubeOffer(DOUBLE, W)), W, "a cube decision is pending"),
        (Cube(2, W), B, "the opponent owns the cube"),
        (Cube(64, B), B, "the cube is at 64: it stops at 64"),
    ],
)
def test_a_refused_double_says_why(cube: Cube, player: int, reason: str) -> None:
    """RULES.md 9.2: the refusal names the rule, for the player to read."""
    assert cube.double_error(player) == reason
    with pytest.raises(CubeError) as refused:
        cube.double(player)
    assert str(refused.value) == f"player {player} cannot double: {reason}"
