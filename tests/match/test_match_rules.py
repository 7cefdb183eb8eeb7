"""Match rules with chosen dice: opening roll, cube timing, Crawford, scoring (RULES.md 1.4, 9)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tests.match.match_helpers import new_match

import tavla
from tavla.core.errors import TavlaError, WrongPhaseError
from tavla.core.protocol import OutcomeReason
from tavla.match.actions import ActionKind, MatchAction, apply_action
from tavla.match.cube import Cube
from tavla.match.errors import CubeError, MatchError, MatchSettingsError, ResignError, WrongPlayerError
from tavla.match.match import Match
from tavla.match.resign import parse_level
from tavla.match.state import GameResult

W, B = 0, 1


def refused(
    match: Match, kind: str, seat: int | None, value: str = "", error: type[Exception] = TavlaError
) -> None:
    """The action raises ``error`` and leaves the match exactly as it was."""
    before_state, before_actions = match.state, list(match.actions)
    with pytest.raises(error):
        match.act(kind, seat, value)
    assert match.state == before_state
    assert match.state is before_state
    assert match.actions == before_actions


def opened(**options: Any) -> Match:
    """A tabla match after White won the opening 5-2 and played 13/8 13/11."""
    match = new_match(**options)
    match.roll((5, 2))
    match.move(W, "13/8 13/11")
    return match


def test_opening_roll_decides_the_starter_who_plays_both_dice() -> None:
    """RULES.md 1.4: the higher die starts and plays the two numbers rolled."""
    match = new_match(length=5)
    assert match.state.phase == "opening"
    refused(match, "roll", None, "33", WrongPhaseError)  # equal opening dice are rolled again
    match.roll((2, 6))
    assert match.state.starter == B
    assert match.state.actor == B
    assert match.state.position.dice == (6, 2)


def test_the_opening_roll_names_no_player() -> None:
    """RULES.md 1.4: both players throw one die each; the roll is nobody's."""
    match = new_match(length=5)
    with pytest.raises(WrongPlayerError) as raised:
        match.act("roll", W, "31")
    assert str(raised.value) == "the opening roll belongs to nobody: give no player"
    assert match.state.phase == "opening" and [action.kind for action in match.actions] == ["start"]


def test_double_only_before_rolling_and_by_the_player_to_act() -> None:
    """RULES.md 9.2: only before rolling; the answer belongs to the other player."""
    match = new_match(length=5)
    match.roll((5, 2))
    refused(match, "double", W, error=CubeError)  # White has dice to play
    match.move(W, "13/8 13/11")
    refused(match, "double", W, error=WrongPlayerError)
    match.double(B)
    assert match.state.phase == "double" and match.state.actor == W
    refused(match, "roll", B, "31")
    refused(match, "take", B, error=WrongPlayerError)
    match.take(W)
    assert match.state.cube == Cube(2, W)
    refused(match, "double", B, error=CubeError)  # White owns the cube now
    match.roll((3, 1))
    match.move(B, "8/5 6/5")
    match.double(W)  # the owner may redouble
    match.take(B)
    assert match.state.cube == Cube(4, B)


def test_drop_loses_the_value_before_the_double_and_scores_it() -> None:
    match = opened(length=5)
    match.double(B)
    match.take(W)
    match.roll((3, 1))
    match.move(B, "8/5 6/5")
    match.double(W)
    match.drop(B)
    state = match.state
    assert state.phase == "between"
    assert state.score == (2, 0)
    assert state.result is not None and (state.result.winner, state.result.points) == (W, 2)
    assert state.result.cube == 2


def test_no_double_past_64() -> None:
    """RULES.md 9.2: nobody may double when the cube shows 64."""
    match = opened(length=5)
    match.state = replace(match.state, cube=Cube(64, B))
    match.states[-1] = match.state
    refused(match, "double", B, error=CubeError)
    match.state = replace(match.state, cube=Cube(32, B))
    match.double(B)
    match.take(W)
    assert match.state.cube.value == 64


def test_crawford_then_post_crawford() -> None:
    """RULES.md 9.3: no doubling in the game after a player reaches N-1; free again after it."""
    match = opened(length=3)
    match.double(B)
    match.take(W)
    match.roll((3, 1))
    match.move(B, "8/5 6/5")
    match.double(W)
    match.drop(B)
    assert match.state.score == (2, 0)
    match.start_next_game()
    assert match.state.crawford and not match.state.post_crawford
    match.roll((6, 1))
    match.move(W, "13/7 8/7")
    refused(match, "double", B, error=CubeError)
    match.resign(B, "single")
    match.accept(W)
    assert match.state.over and match.state.winner == W and match.state.score == (3, 0)

    match = opened(length=3)
    match.double(B)
    match.take(W)
    match.roll((3, 1))
    match.move(B, "8/5 6/5")
    match.double(W)
    match.drop(B)
    match.start_next_game()
    match.roll((6, 1))
    match.resign(W, "single")  # the leader gives up the Crawford game: 2-1
    match.accept(B)
    match.start_next_game()
    assert not match.state.crawford and match.state.post_crawford
    match.roll((6, 1))
    match.move(W, "13/7 8/7")
    match.double(B)  # post-Crawford: the trailer doubles at once
    match.drop(W)
    assert match.state.score == (2, 2)


def test_starter_may_not_double_before_his_first_roll_from_game_two() -> None:
    """RULES.md 9.2 (decision) with winner_starts (RULES.md 1.4): the winner starts by rolling."""
    match = opened(length=5, next_game_start="winner_starts")
    match.resign(B, "single")
    match.accept(W)
    match.start_next_game()
    state = match.state
    assert state.phase == "roll" and state.actor == W and state.starter == W
    refused(match, "double", W, error=CubeError)
    match.roll((4, 4))  # the starter rolls both dice: a double counts
    match.move(W, "24/20(2) 13/9(2)")
    match.double(B)
    match.take(W)
    match.roll((2, 1))
    match.move(B, "24/22 24/23")
    match.double(W)  # after his first roll the starter may double
    assert match.state.phase == "double"


def test_cube_off_and_games_without_the_cube() -> None:
    match = opened(length=5, cube=False)
    refused(match, "double", B, error=CubeError)


def test_money_options_are_refused_in_a_match() -> None:
    """RULES.md 9.2: beavers, raccoons and Jacoby do not apply in a match."""
    for options in ({"beavers": True}, {"jacoby": True}, {"raccoons": True, "beavers": True}):
        with pytest.raises(MatchSettingsError):
            new_match(length=5, **options)
    with pytest.raises(MatchSettingsError):
        new_match(raccoons=True)  # raccoons need beavers


def test_beaver_and_raccoon_in_money_play() -> None:
    """RULES.md 9.2: a beaver makes the cube x4 on the taker's side; a raccoon x8, same side."""
    match = opened(beavers=True, raccoons=True)
    match.double(B)
    match.beaver(W)
    assert match.state.cube.value == 4 and match.state.cube.owner == W
    assert match.state.phase == "raccoon" and match.state.actor == B
    refused(match, "raccoon", W, error=WrongPlayerError)
    match.raccoon(B)
    assert match.state.cube == Cube(8, W)
    match.roll((3, 1))
    match.move(B, "8/5 6/5")
    match.resign(W, "single")
    match.accept(B)
    assert match.state.score == (0, 8) and match.state.over and match.state.winner == B


def test_doubler_may_roll_instead_of_raccooning() -> None:
    match = opened(beavers=True, raccoons=True)
    match.double(B)
    match.beaver(W)
    match.roll((3, 1))
    assert match.state.cube == Cube(4, W)
    assert match.state.phase == "move"


def test_beaver_refused_without_the_option() -> None:
    match = opened()
    match.double(B)
    refused(match, "beaver", W, error=CubeError)


def _about_to_win_gammon(**options: object) -> Match:
    """White bears off his last checker with 2-1; Black has none off: a gammon (RULES.md 2)."""
    match = opened(**options)
    position = tavla.from_notation("tabla 1w/-/-/-/-/-/-/-/-/-/-/-/15b/-/-/-/-/-/-/-/-/-/-/- 0,0 14,0 w 21")
    match.state = replace(match.state, position=position)
    return match


@pytest.mark.parametrize(("jacoby", "cube", "points"), [(False, 1, 2), (True, 1, 1), (True, 2, 4)])
def test_gammon_scores_with_cube_and_jacoby(jacoby: bool, cube: int, points: int) -> None:
    """RULES.md 1.5, 9.2: points x cube; with Jacoby a gammon counts 1 while the cube is centred."""
    match = _about_to_win_gammon(jacoby=jacoby)
    match.state = replace(match.state, cube=Cube(cube, None if cube == 1 else B))
    match.move(W, "1/off")
    result = match.state.result
    assert result is not None and result.reason == "gammon" and result.points == points
    assert match.state.over and match.state.score == (points, 0)


def test_a_void_tapa_game_scores_nothing_and_the_match_goes_on() -> None:
    """RULES.md 5, 1.4: both mothers pinned voids the game: no points, whatever the cube;
    the next game begins with a new opening roll and a centred cube."""
    match = new_match(game="tapa", length=3)
    match.roll((5, 2))
    fields = "/".join({1: "1b", 4: "1w", 24: "1w1b"}.get(point, "-") for point in range(1, 25))
    position = tavla.from_notation(f"tapa {fields} 0,0 13,13 w 31")
    match.state = replace(match.state, position=position, cube=Cube(2, B))
    match.move(W, "4/1*")
    state = match.state
    assert state.result == GameResult(None, 0, OutcomeReason.VOID, 2)
    assert state.phase == "between" and not state.over and state.score == (0, 0)
    match.start_next_game()
    assert match.state.phase == "opening" and match.state.game_number == 2
    assert match.state.cube == Cube(1, None)


def test_a_resignation_is_recorded_by_its_name() -> None:
    """RULES.md 1.5: a resignation offered as a number is written in the record by name."""
    match = opened(length=7)
    match.resign(B, " 2 ")
    assert match.actions[-1].kind == "resign" and match.actions[-1].value == "gammon"
    match.decline(W)
    assert match.state.phase == "roll" and match.state.actor == B


@pytest.mark.parametrize(("level", "points"), [("single", 2), ("gammon", 4), ("backgammon", 6)])
def test_resignation_is_worth_its_level_times_the_cube(level: str, points: int) -> None:
    match = opened(length=7)
    match.double(B)
    match.take(W)
    match.roll((3, 1))
    match.resign(B, level)
    assert match.state.phase == "resign" and match.state.actor == W
    refused(match, "roll", B, "31")
    refused(match, "accept", B, error=WrongPlayerError)
    match.accept(W)
    assert match.state.score == (points, 0)
    assert match.state.result is not None and match.state.result.reason == "resign"


@pytest.mark.parametrize(
    ("jacoby", "doubled", "points"), [(True, False, 1), (False, False, 2), (True, True, 4)]
)
def test_accepted_gammon_resignation_in_money_play_follows_jacoby(
    jacoby: bool, doubled: bool, points: int
) -> None:
    """RULES.md 9.2: with Jacoby a gammon counts 1 while the cube is centred, whether it
    is played out or resigned; once the cube is turned it counts 2 times the cube."""
    match = opened(length=0, jacoby=jacoby)
    if doubled:
        match.double(B)
        match.take(W)
        match.roll((3, 1))
        match.move(B, "8/5 6/5")
        match.roll((4, 2))
        match.move(W, "8/4 6/4")
    match.resign(B, "gammon")
    match.accept(W)
    result = match.state.result
    assert result is not None and result.reason == "resign" and result.points == points
    assert match.state.over and match.state.winner == W and match.state.score == (points, 0)


def test_resignation_levels_by_name_or_number() -> None:
    """RULES.md 1.5: a resignation offers a single (1), a gammon (2) or a backgammon (3)."""
    texts = ("single", "Gammon", " backgammon ", "1", "2", "3")
    assert [parse_level(text) for text in texts] == [1, 2, 3, 1, 2, 3]
    with pytest.raises(ResignError, match="'triple'"):
        parse_level("triple")


RESIGN_REFUSALS = [
    (
        "tabla",
        False,
        "resign",
        W,
        "single",
        ResignError,
        "resign: not possible now (the match is at 'opening')",
    ),
    ("tabla", True, "resign", None, "single", WrongPlayerError, "resign: say which player resigns"),
    ("tabla", True, "accept", B, "", ResignError, "accept: not possible now (the match is at 'move')"),
    ("abluka", False, "resign", B, "gammon", ResignError, "a game without dice is resigned as a single"),
]


@pytest.mark.parametrize(("game", "rolled", "kind", "seat", "value", "error", "message"), RESIGN_REFUSALS)
def test_a_refused_resignation_says_why(
    game: str, rolled: bool, kind: str, seat: int | None, value: str, error: type[Exception], message: str
) -> None:
    """RULES.md 1.5: a resignation names its player, comes during a game, and in a game
    without dice is a single; the refusal tells the player which rule he met."""
    match = new_match(game=game, sets=3) if game == "abluka" else new_match(game=game, length=5)
    if rolled:
        match.roll((5, 2))
    before_state, before_actions = match.state, list(match.actions)
    with pytest.raises(error) as raised:
        match.act(kind, seat, value)
    assert str(raised.value) == message
    assert match.state is before_state and match.actions == before_actions


def test_declined_resignation_goes_back_to_play() -> None:
    match = opened(length=7)
    before = match.state
    match.resign(B, "gammon")
    match.decline(W)
    assert match.state == before
    refused(match, "resign", B, "triple", ResignError)
    refused(match, "accept", W, error=ResignError)


def test_wrong_time_actions_leave_the_state_unchanged() -> None:
    match = new_match(length=3)
    refused(match, "move", W, "13/8 13/11")
    refused(match, "double", W)
    refused(match, "start", None)
    refused(match, "take", B)
    refused(match, "break", W)
    refused(match, "fly", W, error=MatchError)
    match.roll((5, 2))
    refused(match, "move", W, "13/8 13/12")  # not the dice rolled
    refused(match, "move", B, "13/8 13/11", WrongPlayerError)
    refused(match, "roll", W, "31")
    refused(match, "drop", B, error=CubeError)
    refused(match, "move", 7, "13/8 13/11", WrongPlayerError)


def test_over_match_refuses_everything() -> None:
    match = opened(length=1)
    match.resign(B, "single")
    match.accept(W)
    assert match.state.over and match.state.phase == "over"
    refused(match, "start", None, error=MatchError)
    with pytest.raises(MatchError):
        apply_action(match.state, MatchAction(ActionKind.ROLL, None, "31", 10**9))
