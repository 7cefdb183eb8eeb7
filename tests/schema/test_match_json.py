"""Match state JSON through random matches of every game: it validates at every state
and says what the state says (phase, actor, score, cube, clock, position, results)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tests.match.match_helpers import FakeTime
from tests.match.test_records import NoSmallDoubles, jittery_time

from tavla.core.protocol import OutcomeReason
from tavla.core.registry import find_game, game_names
from tavla.match.actions import ActionKind, MatchAction, apply_action
from tavla.match.clock import ClockSettings
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play_random_match
from tavla.match.settings import MatchSettings
from tavla.match.state import GameResult, MatchState, new_state
from tavla.schema import MatchStateJson, match_state_json, position_json


def check_state(state: MatchState, now_ms: int) -> MatchStateJson:
    model = match_state_json(state, now_ms)
    assert MatchStateJson.model_validate(model.model_dump()) == model
    assert MatchStateJson.model_validate_json(model.model_dump_json()) == model
    assert model.phase == state.phase and model.actor == state.actor
    assert model.score == list(state.score) and model.game_number == state.game_number
    assert model.position == position_json(state.position)
    assert model.cube.value == state.cube.value and model.cube.owner == state.cube.owner
    assert (model.cube.offer is None) == (state.cube.offer is None)
    assert [r.reason for r in model.results] == [r.reason for r in state.results]
    assert model.over == state.over and model.winner == state.winner
    if state.clock is None:
        assert model.clock is None
    else:
        assert model.clock is not None and model.clock.running == state.clock.running
        for seat, times in enumerate(model.clock.seats):
            assert times.remaining_ms == sum(state.clock.remaining(seat, now_ms))
    return model


@pytest.mark.parametrize("game", game_names())
def test_every_state_of_random_matches_validates(game: str) -> None:
    phases: set[str] = set()
    for seed in (1, 2):
        length = 3 if find_game(game).facts.has_dice else 0
        clock = ClockSettings(move_ms=1_000, reserve_ms=30_000)
        settings = MatchSettings(game=game, length=length, clock=clock)
        match = Match(settings, dice=NoSmallDoubles(seed), now=jittery_time(seed, 2_500))
        players = (RandomPlayer(random.Random(seed), resign_rate=0.02), RandomPlayer(random.Random(~seed)))
        play_random_match(match, players)
        times = [0] + [action.t_ms for action in match.actions]
        for state, now_ms in zip(match.states, times, strict=True):
            phases.add(check_state(state, now_ms).phase)
        final = check_state(match.state, times[-1] + 500)
        assert final.over and final.phase == "over"
    assert {"between", "move", "over"} <= phases


def test_cube_resign_and_clock_are_read_at_now() -> None:
    time = FakeTime(0)
    settings = MatchSettings("tabla", length=5, clock=ClockSettings(move_ms=10_000, reserve_ms=60_000))
    match = Match(settings, now=time)
    match.roll((3, 1))
    match.move(0, "8/5 6/5")
    time.advance(2_000)
    match.double(1)
    data = check_state(match.state, 5_000).model_dump(mode="json")
    assert data["phase"] == "double" and data["actor"] == 0
    assert data["cube"]["offer"] == {"kind": "double", "by": 1}
    assert data["clock"]["now_ms"] == 5_000 and data["clock"]["running"] == 0
    assert data["clock"]["seats"][0] == {"allowance_ms": 7_000, "reserve_ms": 60_000, "remaining_ms": 67_000}
    match.take(0)
    match.roll((6, 5))
    match.resign(1, "gammon")
    data = check_state(match.state, time.now_ms).model_dump(mode="json")
    assert data["resign"] == {"by": 1, "level": "gammon", "points": 2}
    match.accept(0)
    data = check_state(match.state, time.now_ms).model_dump(mode="json")
    assert data["results"] == [{"winner": 0, "points": 4, "reason": "resign", "cube": 2}]
    assert data["score"] == [4, 0] and data["phase"] == "between"
    assert data["colours"] == ["white", "black"] and data["breaks_left"] == [1, 1]


def test_abluka_colours_alternate_by_game() -> None:
    match = Match(MatchSettings("abluka", sets=3), now=lambda: 0)
    assert check_state(match.state, 0).colours == ["white", "black"]
    match.resign(match.state.actor or 0)
    match.accept(1 - (match.state.resign.by if match.state.resign else 0))
    match.start_next_game()
    assert check_state(match.state, 0).colours == ["black", "white"]


@pytest.mark.parametrize("flag_loses", ["game", "match"])
def test_the_clock_settings_name_what_a_flag_loses(flag_loses: str) -> None:
    clock = ClockSettings(move_ms=9_000, reserve_ms=90_000, per_game=False, flag_loses=flag_loses)
    match = Match(MatchSettings("tabla", length=7, clock=clock), now=lambda: 0)
    data = check_state(match.state, 0).model_dump(mode="json")
    assert data["settings"]["clock"] == {
        "move_ms": 9_000,
        "reserve_ms": 90_000,
        "per_game": False,
        "flag_loses": flag_loses,
    }


def test_a_beaver_awaiting_a_raccoon_is_an_offer_of_its_own_by_the_doubler() -> None:
    match = Match(MatchSettings("tabla", length=0, beavers=True, raccoons=True), now=lambda: 0)
    match.roll((3, 1))
    match.move(0, "8/5 6/5")
    match.double(1)
    assert check_state(match.state, 0).model_dump(mode="json")["cube"]["offer"] == {"kind": "double", "by": 1}
    match.beaver(0)
    cube = check_state(match.state, 0).model_dump(mode="json")["cube"]
    assert cube["offer"] == {"kind": "beaver", "by": 1} and cube["value"] == 4


@pytest.mark.parametrize(("level", "points"), [("single", 1), ("gammon", 2), ("backgammon", 3)])
def test_a_resignation_names_its_level_and_points(level: str, points: int) -> None:
    match = Match(MatchSettings("tabla", length=5), now=lambda: 0)
    match.roll((3, 1))
    match.resign(0, level)
    resign = check_state(match.state, 0).model_dump(mode="json")["resign"]
    assert resign == {"by": 0, "level": level, "points": points}


def test_breaks_left_count_down_for_the_player_who_took_one() -> None:
    state = replace(
        new_state(MatchSettings(length=13)), game_number=1, result=GameResult(0, 1, OutcomeReason.SINGLE)
    )
    assert check_state(state, 0).breaks_left == [2, 2]
    state = apply_action(state, MatchAction(ActionKind.BREAK, 1, "", 5_000))[0]
    assert check_state(state, 5_000).breaks_left == [2, 1]
