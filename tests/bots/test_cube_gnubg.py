"""Cube decisions against GNU Backgammon's at 0-ply (RULES.md 9.2, 9.3).

gnubg's cubeless chances of contact positions, where its cube-life index is 0.68 as
ours, go through tavla.bots.cube; its cubeful equities and recommendations are stored
in tests/data/gnubg_cube.json (``python -m tests.bots.gnubg_cube_oracle``). In a match
both compute the same model and must agree to gnubg's single precision. Two known
differences: gnubg lets a money cube be redoubled for ever, as Janowski's formulas do,
where ours stops at 64 (lift the cap and the money figures agree too); and gnubg counts
the centred cube at 2-away/2-away as dead, where ours keeps the live part.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.bots.gnubg_cube_oracle import FIXTURE, make
from tests.conftest import needs_gnubg

import tavla.bots.cube.janowski as janowski
from tavla.bots.cube import (
    CubeAction,
    CubeContext,
    CubeOwner,
    CubePosition,
    DoubleDecision,
    MatchScore,
    Money,
    chances,
    double_decision,
)

PRECISION = 2e-5
"""gnubg works in single precision."""


def context_of(cube: list[Any]) -> CubeContext:
    """gnubg's cubeinfo arguments (value, owner, player on roll, length, score, Crawford)."""
    value, owner, move, length, score, crawford = cube
    holder = CubeOwner.CENTRED if owner == -1 else CubeOwner.ME if owner == move else CubeOwner.OPPONENT
    if not length:
        return CubeContext(CubePosition(value, holder), Money())
    away, opp_away = length - score[move], length - score[1 - move]
    post = not crawford and 1 in (away, opp_away)
    return CubeContext(CubePosition(value, holder), MatchScore(away, opp_away, bool(crawford), post))


def gnubg_action(text: str) -> CubeAction | None:
    """gnubg's recommendation as our action (None where it has none to give)."""
    text = text.lower().replace("redouble", "double")
    if text.startswith("too good"):
        return CubeAction.TOO_GOOD
    if text.startswith(("no double", "never double")):
        return CubeAction.NO_DOUBLE
    return {"double, take": CubeAction.DOUBLE_TAKE, "double, pass": CubeAction.DOUBLE_PASS}.get(text)


def ours_and_theirs(case: dict[str, Any]) -> tuple[DoubleDecision, list[float]]:
    decision = double_decision(chances(case["chances"]), context_of(case["cube"]))
    theirs = case["mwc"] if "mwc" in case else case["cubeful"][1:]
    return decision, theirs


def cases(*, money: bool) -> list[dict[str, Any]]:
    found = [case for case in json.loads(FIXTURE.read_text())["cases"] if (case["cube"][3] == 0) == money]
    assert len(found) >= 150
    return found


def assert_agrees(case: dict[str, Any], *, no_double: bool = True) -> None:
    decision, theirs = ours_and_theirs(case)
    where = (case["context"], case["tpn"])
    if no_double:
        assert decision.no_double == pytest.approx(theirs[0], abs=PRECISION), where
    if decision.may_double:
        assert decision.double_take == pytest.approx(theirs[1], abs=PRECISION), where
        assert decision.double_pass == pytest.approx(theirs[2], abs=PRECISION), where
        if no_double:
            assert decision.action == gnubg_action(case["recommendation"]), where
    else:
        assert gnubg_action(case["recommendation"]) in (None, CubeAction.NO_DOUBLE), where


def test_match_play_is_gnubgs() -> None:
    """Gammon values at the score, cube levels up to the dead cube, Crawford and
    post-Crawford: the same equities and the same actions as gnubg, case by case."""
    checked = 0
    for case in cases(money=False):
        if case["context"] != "2-away 2-away":
            assert_agrees(case)
            checked += 1
    assert checked >= 250


def test_two_away_two_away_differs_from_gnubg_in_no_double_only() -> None:
    """gnubg takes the centred cube at 2-away/2-away for dead; ours keeps its live part.
    Double/take and double/pass are the same; the actions agree but where gnubg's dead
    cube makes playing on look worse."""
    twos = [case for case in cases(money=False) if case["context"] == "2-away 2-away"]
    same = 0
    for case in twos:
        assert_agrees(case, no_double=False)
        decision, _ = ours_and_theirs(case)
        same += decision.action == gnubg_action(case["recommendation"])
    assert same >= 0.9 * len(twos)


def test_money_play_with_the_cap_lifted_is_gnubgs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Janowski's money model as gnubg computes it, once our cube may go past 64."""
    monkeypatch.setattr(janowski, "CUBE_CAP", 2**40)
    for case in cases(money=True):
        assert_agrees(case)


def test_money_play_with_the_cap_of_64() -> None:
    """RULES.md 9.2: the cube stops at 64. Far below it that moves the equities little
    (the live take points converge level by level); at 32 the redouble to a dead 64 is
    a different decision, which gnubg does not see."""
    for case in cases(money=True):
        decision, theirs = ours_and_theirs(case)
        if case["cube"][0] > 2:
            continue
        assert decision.no_double == pytest.approx(theirs[0], abs=0.004)
        if decision.may_double:
            assert decision.double_take == pytest.approx(theirs[1], abs=0.012)


@pytest.mark.gnubg
@needs_gnubg
def test_live_gnubg_agrees(tmp_path: Any) -> None:
    """The same comparison on a fresh sample computed by gnubg now."""
    for case in make(count=10, seed=21)["cases"]:
        if case["cube"][3] and case["context"] != "2-away 2-away":
            assert_agrees(case)
