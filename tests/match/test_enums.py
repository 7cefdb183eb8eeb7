"""Phases, action kinds and result reasons are enums whose members are their words:
comparisons with strings, messages and records read as they did with plain strings."""

from __future__ import annotations

import json

import pytest

import tavla
from tavla.core.protocol import OutcomeReason
from tavla.match.actions import KINDS, ActionKind, MatchAction
from tavla.match.errors import MatchError
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings
from tavla.match.state import EndReason, Phase


def test_members_are_their_words() -> None:
    # A member compared with its word, on purpose (mypy takes an enum and a str for unequal).
    assert Phase.ROLL == "roll" and Phase("move") is Phase.MOVE  # type: ignore[comparison-overlap]
    assert ActionKind.BREAK == "break"  # type: ignore[comparison-overlap]
    assert "roll" in KINDS and len(KINDS) == len(ActionKind) == 17
    assert OutcomeReason.MOTHER_PINNED == "mother pinned"  # type: ignore[comparison-overlap]
    reasons = {"drop", "resign", "flag", "warnings", "absent", "forfeit", "void"}
    assert {reason.value for reason in EndReason} == reasons
    assert f"{Phase.ROLL!r} {Phase.ROLL}" == "'roll' roll"


def test_positions_and_states_carry_the_enums() -> None:
    position = tavla.from_notation("3W3/7/7/7/7/7/3B3 b")
    assert position.outcome() is None
    ended = tavla.from_notation("xWx4/xxx4/7/7/7/7/3B3 w")
    outcome = ended.outcome()
    assert outcome is not None and outcome.reason is OutcomeReason.NO_MOVE
    match = Match(MatchSettings("tabla", length=3), now=lambda: 0)
    assert match.state.phase is Phase.OPENING
    match.roll((5, 2))
    rolled = match.state  # read anew: mypy would keep the phase narrowed by the assert above
    assert rolled.phase is Phase.MOVE
    match.resign(1)
    match.accept(0)
    assert match.state.results[-1].reason is EndReason.RESIGN


def test_refusal_messages_name_the_phase_as_a_word() -> None:
    match = Match(MatchSettings("tabla", length=3), now=lambda: 0)
    with pytest.raises(MatchError, match=r"at 'opening'"):
        match.double(0)


def test_records_hold_the_words() -> None:
    match = Match(MatchSettings("tabla", length=3), now=lambda: 0)
    match.roll((5, 2))
    match.resign(1)
    match.accept(0)
    data = json.loads(MatchRecord.of(match).to_json())
    assert [action["k"] for action in data["actions"]] == ["start", "roll", "resign", "accept"]
    assert MatchAction.from_json(data["actions"][2]).kind == ActionKind.RESIGN


def test_action_kinds_are_the_enum_however_an_action_is_made() -> None:
    """A recorded action's kind is an ActionKind, from a word, the enum or JSON alike;
    a word that is no kind is refused."""
    from_word = MatchAction("roll", 0, "31", 5)  # type: ignore[arg-type]  # a word, on purpose
    from_enum = MatchAction(ActionKind.ROLL, 0, "31", 5)
    from_json = MatchAction.from_json({"k": "roll", "s": 0, "v": "31", "t": 5})
    assert from_word == from_enum == from_json
    assert all(type(action.kind) is ActionKind for action in (from_word, from_enum, from_json))
    with pytest.raises(MatchError, match="unknown action 'rol'"):
        MatchAction("rol")  # type: ignore[arg-type]
