"""Refusals say who and why: the texts a player or a record's reader is shown.

Each test pins one message that a user acts on (RULES.md 9.2 for the cube, 9.4 for
records); an error that said nothing, or named the wrong player, field or value, would
leave a player in Sofia or Izmir guessing.
"""

from __future__ import annotations

import json

import pytest

from tavla.core.errors import NotationError
from tavla.match.actions import double_error
from tavla.match.cube import Cube, CubeOffer, OfferKind
from tavla.match.errors import CubeError
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings

pytestmark = pytest.mark.timeout(60)


def _tabla_match_at_second_roll() -> Match:
    match = Match(MatchSettings("tabla", 5))
    match.roll((3, 1))
    mover = match.state.actor
    if mover is None:
        raise AssertionError("the opening roll names a mover")
    match.move(mover, match.state.position.legal_turns()[0].text)
    return match


def test_only_the_player_to_act_may_double() -> None:
    """RULES.md 9.2: before rolling, the player to act may double; his opponent may not."""
    state = _tabla_match_at_second_roll().state
    actor = state.actor
    if actor is None:
        raise AssertionError("somebody is to roll")
    assert double_error(state, actor) is None
    for other in (1 - actor, None):
        assert double_error(state, other) == f"player {actor} is to act"


def test_a_player_cannot_answer_his_own_double() -> None:
    offered = Cube(1, None, CubeOffer(OfferKind.DOUBLE, 0))
    for answer in ("take", "drop_points"):
        with pytest.raises(CubeError, match=r"player 0 cannot (take|drop) his own double"):
            getattr(offered, answer)(0)


def test_dice_in_a_diceless_record_are_refused_by_name() -> None:
    """RULES.md 9.4: an Abluka record carries no dice; a record that has some is refused."""
    match = Match(MatchSettings("abluka", 0, cube=False, sets=1))
    data = MatchRecord.of(match).to_dict()
    data["dice"] = [{"game": 1}]
    with pytest.raises(NotationError) as refused:
        MatchRecord.from_json(json.dumps(data))
    assert (refused.value.field, refused.value.value) == ("dice", "[...]")
    assert refused.value.reason == "abluka is played without dice"


def _settings_json(**changes: object) -> dict[str, object]:
    data = MatchSettings("tabla", 5).to_json()
    data.update(changes)
    return data


def test_settings_without_names_get_the_default_names() -> None:
    data = _settings_json()
    del data["names"]
    assert MatchSettings.from_json(data).names == ("White", "Black")


def test_settings_field_errors_name_the_field_and_value() -> None:
    with pytest.raises(NotationError) as refused:
        MatchSettings.from_json(_settings_json(sets=0))
    assert (refused.value.field, refused.value.value) == ("settings.sets", "0")
    data = _settings_json()
    del data["sets"]
    with pytest.raises(NotationError) as refused:
        MatchSettings.from_json(data, "match.settings")
    assert (refused.value.field, refused.value.reason) == ("match.settings.sets", "missing")
    with pytest.raises(NotationError) as refused:
        MatchSettings.from_json(_settings_json(options={"mother_pin_wins": "yes"}))
    assert refused.value.field == "settings.options.mother_pin_wins"
    assert "yes" in refused.value.value
