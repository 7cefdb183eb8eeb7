"""gnubg Position ID and Match ID of match states, and match states from them (RULES.md 9.4).

Every phase with chosen dice, round trips over random matches, continuing a match from
its IDs, and IDs that are refused. The comparison with GNU Backgammon itself is in
``test_gnubg_ids_gnubg.py``.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.match.match_helpers import FakeTime, new_match

from tavla.core.dice import ScriptedDice, SeededDice
from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK, WHITE
from tavla.match import Match, MatchRecord, MatchSettings, match_ids, replay_states, state_from_ids
from tavla.match.clock import ClockSettings
from tavla.match.errors import TimeForfeitError
from tavla.match.gnubg_ids import state_from_setup
from tavla.match.players import RandomPlayer, play, play_random_match
from tavla.match.state import MatchState
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.backgammon.gnubg_id import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchInfo,
    decode_match_id,
    encode_match_id,
    encode_position_id,
)

W, B = 0, 1  # seats; White is gnubg's player 1, Black gnubg's player 0
START_ID = "4HPwATDgc/ABMA"
SCENARIOS = json.loads((Path(__file__).parents[1] / "data" / "gnubg_ids.json").read_text())["scenarios"]


def info_of(state: MatchState) -> MatchInfo:
    return decode_match_id(match_ids(state)[1])


def back(state: MatchState) -> MatchState:
    """``state`` through its IDs and back, in a match of the same settings."""
    position_id, match_id = match_ids(state)
    return state_from_setup(state.settings, position_id, match_id)


def opened(**options: Any) -> Match:
    """White won the opening 3-1 and played 8/5 6/5; Black is to roll."""
    match = new_match(**options)
    match.roll((3, 1))
    match.move(W, "8/5 6/5")
    return match


# ------------------------------------------------------------------ each phase
def test_before_the_opening_roll_no_game_has_started() -> None:
    """RULES.md 9.4: the opening (and the moment before game 1) is gnubg's "no game" state."""
    match = new_match(length=5)
    assert match.state.phase == "opening"
    position_id, match_id = match_ids(match.state)
    assert position_id == START_ID
    info = decode_match_id(match_id)
    assert (info.game_state, info.dice, info.dice_owner, info.turn) == (GAME_NONE, None, 1, 1)
    assert (info.match_length, info.score, info.cube_value, info.cube_owner) == (5, (0, 0), 1, None)
    assert match_ids(match.states[0]) == (position_id, match_id)  # before the start action
    again = state_from_ids(position_id, match_id)
    assert again.phase == "opening" and again.settings.length == 5
    money = Match(MatchSettings("tabla", 0, jacoby=True), now=lambda: 0)
    assert match_ids(money.state) == (START_ID, "cAgAAAAAAAAA")  # gnubg's money start, Jacoby on


def test_after_the_opening_roll_matches_gnubg() -> None:
    """RULES.md 9.4: White to play 3-1 at the start of a 5-point match, as gnubg writes it."""
    match = new_match(length=5)
    match.roll((3, 1))
    assert match.state.phase == "move"
    assert match_ids(match.state) == (START_ID, "cImlAAAAAAAE")  # gnubg: set turn 1, set dice 3 1


def test_before_and_after_a_roll() -> None:
    """RULES.md 9.4: the player to act owns the dice and the turn; the roll once rolled."""
    match = opened(length=5)
    before = info_of(match.state)
    assert (before.game_state, before.dice_owner, before.turn, before.dice) == (GAME_PLAYING, 0, 0, None)
    match.roll((2, 4))
    after = info_of(match.state)
    assert (after.dice_owner, after.turn, after.dice) == (0, 0, (4, 2))
    assert back(match.state).position.dice == (4, 2)


def test_double_offered_and_taken() -> None:
    """RULES.md 9.2, 9.4: the turn is the player who answers; the cube shows the old value."""
    match = opened(length=5)
    match.double(B)
    offered = info_of(match.state)
    assert (offered.double_offered, offered.dice_owner, offered.turn) == (True, 0, 1)
    assert (offered.cube_value, offered.cube_owner, offered.dice) == (1, None, None)
    again = back(match.state)
    assert again.phase == "double" and again.actor == W and again.cube == match.state.cube
    match.take(W)
    taken = info_of(match.state)
    assert (taken.double_offered, taken.turn, taken.cube_value, taken.cube_owner) == (False, 0, 2, 1)
    assert back(match.state).cube.owner == W


def test_resignation_offered_after_rolling_and_while_waiting() -> None:
    """RULES.md 9.4: the resignation field holds the points; the dice stay as rolled."""
    match = opened(length=5)
    match.roll((6, 4))
    match.resign(B, "gammon")
    info = info_of(match.state)
    assert (info.resign, info.turn, info.dice_owner, info.dice) == (2, 1, 0, (6, 4))
    again = back(match.state)
    assert again.phase == "resign" and again.resign == match.state.resign and again.position.dice == (6, 4)
    match.decline(W)
    match.resign(W, "single")  # White resigns while Black has dice to play
    waiting = info_of(match.state)
    assert (waiting.resign, waiting.turn, waiting.dice_owner) == (1, 0, 0)
    assert back(match.state).resign == match.state.resign


def test_game_ends_as_gnubg_shows_them() -> None:
    """RULES.md 9.4: dropped, resigned and finished games, score counted, no dice."""
    dropped = opened(length=5)
    dropped.double(B)
    dropped.drop(W)
    info = info_of(dropped.state)
    assert (info.game_state, info.dice_owner, info.turn, info.score) == (GAME_DROPPED, 0, 1, (1, 0))
    assert back(dropped.state).result == dropped.state.result

    resigned = opened(length=5)
    resigned.roll((6, 4))
    resigned.resign(B, "backgammon")
    resigned.accept(W)
    info = info_of(resigned.state)
    assert (info.game_state, info.resign, info.dice, info.turn, info.score) == (
        GAME_RESIGNED,
        3,
        None,
        0,
        (0, 3),
    )
    again = back(resigned.state)
    assert again.phase == "between" and again.result == resigned.state.result

    finished = next(
        state
        for seed in range(20)
        for state in _random_states("tabla", 5, seed)
        if state.result is not None and state.result.reason == "gammon"
    )
    info = info_of(finished)
    assert info.game_state == GAME_OVER and info.dice is None
    assert isinstance(finished.position, BackgammonPosition)
    assert info.dice_owner == (1 if finished.position.side == WHITE else 0)  # the loser
    assert back(finished).result == finished.result


def test_match_end_is_over() -> None:
    """RULES.md 9.1: the winning game's IDs read back as the end of the match."""
    match = opened(length=3)
    match.roll((6, 4))
    match.resign(B, "backgammon")
    match.accept(W)
    assert match.state.over
    again = back(match.state)
    assert again.over and again.winner == W and again.score == (3, 0)


def test_crawford_game_and_post_crawford() -> None:
    """RULES.md 9.3: the Crawford bit is set in the Crawford game only."""
    match = opened(length=3)
    match.roll((6, 4))
    match.resign(B, "gammon")
    match.accept(W)
    assert info_of(match.state).crawford is False  # the game that reached 2 of 3
    match.start_next_game()
    assert match.state.crawford
    info = info_of(match.state)
    assert (info.crawford, info.game_state, info.score) == (True, GAME_NONE, (0, 2))
    again = back(match.state)
    assert again.crawford and again.crawford_done and again.phase == "opening"
    match.roll((3, 1))
    match.resign(W, "single")
    match.accept(B)
    assert info_of(match.state).crawford  # the end of the Crawford game
    match.start_next_game()
    assert not info_of(match.state).crawford
    assert back(match.state).post_crawford


def test_money_play_jacoby_bit() -> None:
    """RULES.md 9.2, 9.4: the Jacoby bit tells the option in money play; matches never have it."""
    for jacoby in (False, True):
        match = new_match(length=0, jacoby=jacoby)
        info = info_of(match.state)
        assert info.match_length == 0 and info.jacoby is jacoby
        assert state_from_ids(*match_ids(match.state)).settings.jacoby is jacoby
    assert info_of(new_match(length=7).state).jacoby is False


def test_raccoon_window_reads_back_as_the_doubler_to_roll() -> None:
    """RULES.md 9.2: a Match ID has no raccoon window; the beavered cube stays."""
    match = opened(length=0, beavers=True, raccoons=True)
    match.double(B)
    match.beaver(W)
    assert match.state.phase == "raccoon"
    info = info_of(match.state)
    assert (info.double_offered, info.turn, info.dice_owner, info.cube_value, info.cube_owner) == (
        False,
        0,
        0,
        4,
        1,
    )
    again = back(match.state)
    assert again.phase == "roll" and again.actor == B and again.cube.value == 4 and again.cube.owner == W


def test_flag_is_written_as_a_resigned_backgammon() -> None:
    """RULES.md 10: a flag costs three times the cube, as a resigned backgammon does."""
    time = FakeTime()
    match = new_match(time, length=9, clock=ClockSettings(12_000, 60_000))
    match.roll((3, 1))
    time.advance(80_000)
    assert match.check_time() == W
    info = info_of(match.state)
    assert (info.game_state, info.resign, info.score) == (GAME_RESIGNED, 3, (3, 0))


def test_game_stopped_by_warnings_is_written_as_it_stood() -> None:
    """RULES.md 8.3, 11.4: gnubg has no forfeit; the IDs show the game when it stopped."""
    match = new_match(length=5)
    match.roll((3, 1))
    playing = match_ids(match.state)
    for _ in range(3):
        match.warn(B)
    assert match.state.over and match.state.forfeit == "warnings"
    assert match_ids(match.state) == playing


def test_antitabla_and_chelebi_have_ids_other_games_do_not() -> None:
    """RULES.md 9.4: the IDs describe a tabla board."""
    for game in ("antitabla", "chelebi"):
        match = new_match(game=game, length=3)
        match.roll((3, 1))
        again = state_from_ids(*match_ids(match.state), game=game)
        assert again.position == match.state.position and type(again.position).game == game
    for game in ("tapa", "abluka"):
        state = new_match(game=game, length=3).state
        with pytest.raises(NotationError) as raised:
            match_ids(state)
        assert raised.value.field == "game"
        with pytest.raises(NotationError):
            state_from_ids(START_ID, "cAgAAAAAAAAA", game=game)


def test_ids_gnubg_wrote_read_back_to_themselves() -> None:
    """RULES.md 9.4: every Position ID/Match ID pair gnubg wrote in the oracle fixture."""
    assert len(SCENARIOS) >= 30
    for scenario in SCENARIOS:
        ids = (scenario["position_id"], scenario["match_id"])
        state = state_from_ids(*ids)
        assert match_ids(state) == ids, scenario["commands"]
        cube = scenario["cubeinfo"]
        assert state.cube.value == cube["cube"] and state.settings.length == cube["matchto"]
        assert state.score == (cube["score"][1], cube["score"][0])  # gnubg's player 1 is White


# ------------------------------------------------------------ random matches
def _random_match(game: str, length: int, seed: int, **options: Any) -> Match:
    settings = MatchSettings(game, length, names=("Ayse", "Boris"), **options)
    match = Match(settings, dice=SeededDice(seed), now=FakeTime(0))
    players = tuple(
        RandomPlayer(random.Random(seed * 2 + seat), double_rate=0.1, resign_rate=0.02) for seat in (0, 1)
    )
    return play_random_match(match, (players[0], players[1]))


def _random_states(game: str, length: int, seed: int, **options: Any) -> list[MatchState]:
    return _random_match(game, length, seed, **options).states


CASES = [
    ("tabla", 3, {}),
    ("tabla", 5, {}),
    ("tabla", 7, {}),
    ("tabla", 0, {"beavers": True, "raccoons": True, "jacoby": True}),
    ("tabla", 0, {"beavers": True}),
    ("antitabla", 3, {}),
]


def _same_carried_fields(state: MatchState, again: MatchState) -> None:
    """What the IDs carry is the same in ``again`` (see the notes of tavla.match.gnubg_ids)."""
    assert (again.score, again.crawford, again.settings.length) == (
        state.score,
        state.crawford,
        state.settings.length,
    )
    assert (again.cube.value, again.cube.owner) == (state.cube.value, state.cube.owner)
    if state.game_number:
        assert again.crawford_done == state.crawford_done
    phase = state.phase
    if phase in ("roll", "move", "double", "resign"):
        assert (again.phase, again.actor, again.resign, again.cube.offer) == (
            phase, state.actor, state.resign, state.cube.offer
        )  # fmt: skip
        dice = state.position.dice
        assert isinstance(state.position, BackgammonPosition)
        assert again.position == replace(
            state.position, dice=None if dice is None else (max(dice), min(dice))
        )
    elif phase == "raccoon":
        assert again.phase == "roll" and again.actor == state.actor
    elif state.result is None:
        assert again.phase == "opening"
    elif state.result.reason != "warnings":
        result = again.result
        assert result is not None and result.points == state.result.points
        if state.result.reason not in ("resign", "flag"):  # a Match ID does not say who resigned
            assert (result.winner, result.reason) == (state.result.winner, state.result.reason)
        if state.forfeit is None:
            assert again.over == state.over
        if state.forfeit is None and (state.settings.length or state.result.reason not in ("resign", "flag")):
            assert again.winner == state.winner


@pytest.mark.parametrize(("game", "length", "options"), CASES)
def test_every_state_of_random_matches_round_trips(game: str, length: int, options: dict[str, Any]) -> None:
    """RULES.md 9.4: each state's IDs read back to a state with the same IDs and fields."""
    phases: set[str] = set()
    for seed in range(4):
        for state in _random_states(game, length, seed, **options):
            ids = match_ids(state)
            again = state_from_setup(state.settings, *ids)
            assert match_ids(again) == ids, (seed, state.phase)
            _same_carried_fields(state, again)
            phases.add(state.phase)
    assert {"opening", "roll", "move", "double", "resign", "between", "over"} <= phases


def test_clocked_matches_with_flags_round_trip() -> None:
    """RULES.md 9.4, 10: flags too; the clock itself is not part of the IDs."""
    reasons: set[str] = set()
    for seed in range(3):
        settings = MatchSettings("tabla", 5, clock=ClockSettings(move_ms=1_000, reserve_ms=4_000))
        time = FakeTime(0)
        rng = random.Random(seed)
        match = Match(settings, dice=SeededDice(seed), now=time)
        players = (RandomPlayer(random.Random(seed)), RandomPlayer(random.Random(~seed)))
        while not match.state.over:
            time.advance(rng.randint(0, 1_600))
            with contextlib.suppress(TimeForfeitError):  # the flag is recorded; play goes on
                _one_action(match, players)
        reasons.update(r.reason for r in match.state.results)
        for state in match.states:
            ids = match_ids(state)
            again = state_from_setup(settings, *ids)
            assert match_ids(again) == ids
            _same_carried_fields(state, again)
    assert "flag" in reasons


def _one_action(match: Match, players: tuple[RandomPlayer, RandomPlayer]) -> None:
    state = match.state
    if state.phase == "opening":
        match.roll()
    elif state.phase == "between":
        match.start_next_game()
    else:
        assert state.actor is not None
        play(match, players[state.actor].choose(state))


@pytest.mark.parametrize("seed", range(3))
def test_a_match_continues_from_its_ids(seed: int) -> None:
    """RULES.md 9.4: replaying the rest of a match from the IDs of any moment gives the
    same IDs at every later moment, and the record of that continuation reads back."""
    match = _random_match("tabla", 5, seed)
    states, actions = match.states, match.actions
    rng = random.Random(seed)
    starts = [i for i in range(1, len(states)) if states[i].phase != "raccoon"]
    for index in rng.sample(starts, 12):
        record = MatchRecord(match.settings, actions[index:], setup=match_ids(states[index]))
        replayed = [match_ids(state) for state in replay_states(record)]
        assert replayed == [match_ids(state) for state in states[index:]]
        text = record.to_json()
        assert json.loads(text)["version"] == 3 and "setup" in json.loads(text)
        assert MatchRecord.from_json(text) == record


def test_match_from_ids_plays_on_and_its_record_replays() -> None:
    """RULES.md 9.4: a match pasted from gnubg (7 points, 2-4, cube 4) is played to the end."""
    ids = ("4HPwATDgc/ABMA", "QonqACAAIAAE")  # gnubg: score 2 4, cube 4 owned by player 0, 5-2
    match = Match.from_ids(*ids, dice=SeededDice(3), now=FakeTime(0))
    state = match.state
    assert (state.phase, state.actor, state.position.dice, state.score) == ("move", W, (5, 2), (4, 2))
    assert (state.cube.value, state.cube.owner, state.settings.length) == (4, B, 7)
    players = (RandomPlayer(random.Random(1)), RandomPlayer(random.Random(2)))
    play_random_match(match, players)
    assert match.state.over and max(match.state.score) >= 7
    record = MatchRecord.of(match)
    assert record.setup == ids
    read = MatchRecord.from_json(record.to_json())
    assert read == record and list(replay_states(read)) == match.states


# ------------------------------------------------------------------ bad IDs
START = BackgammonPosition.start()
NOT_START = BackgammonPosition.from_notation(
    "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/1w/1w 0,0 0,0 w -"
)
WHITE_OFF = BackgammonPosition(tuple([0] * 18 + [-15] + [0] * 5), (0, 0), (15, 0), BLACK)  # White has won


def _ids(position: BackgammonPosition = START, **fields: Any) -> tuple[str, str]:
    info = MatchInfo(**{"match_length": 5, **fields})
    return encode_position_id(position), encode_match_id(info)


CRAWFORD_NO_CUBE = "nobody may double in the Crawford game (RULES.md 9.3)"
NO_CUBE = "the match is played without the cube"
NO_GAME = "no game has started: "
BAD = [
    ("position id", "4HPwATDgc/ABM", "expected 14 characters, got 13", ("4HPwATDgc/ABM", "cAgAAAAAAAAE")),
    (
        "match id",
        "cAgAAAAAAAA!",
        "not base64 (A-Z, a-z, 0-9, + and / only)",
        ("4HPwATDgc/ABMA", "cAgAAAAAAAA!"),
    ),
    ("crawford", "on", "the Crawford game is played when one player first has 4 of 5", _ids(crawford=True)),
    ("crawford", "on", "there is no Crawford game in money play", _ids(crawford=True, match_length=0)),
    ("crawford", "on", CRAWFORD_NO_CUBE, _ids(crawford=True, score=(4, 1), cube_value=2, cube_owner=1)),
    ("score", "5-0", "the match to 5 was already over", _ids(score=(0, 5))),  # by seat: White's 5 first
    ("cube", "2", "a cube above 1 has an owner (it rises only by a take)", _ids(cube_value=2)),
    ("cube owner", "0", "a cube at 1 is in the middle: nobody has taken it", _ids(cube_owner=0)),
    ("cube", "128", "the cube stops at 64 (RULES.md 9.2)", _ids(cube_value=128, cube_owner=1)),
    ("turn", "0", "with nothing offered the turn is the player on roll", _ids(turn=0)),
    ("turn", "1", "the player who answers a double is the doubler's opponent", _ids(double_offered=True)),
    (
        "resignation",
        "1",
        "a double and a resignation cannot both be pending",
        _ids(double_offered=True, turn=0, resign=1),
    ),
    (
        "cube owner",
        "0",
        "the doubler must own the cube or find it in the middle",
        _ids(double_offered=True, turn=0, cube_value=2, cube_owner=0),
    ),
    (
        "cube",
        "64",
        "the cube stops at 64: nobody may double it (RULES.md 9.2)",
        _ids(double_offered=True, turn=0, cube_value=64, cube_owner=1),
    ),
    (
        "game state",
        "1",
        "the position is finished but the game is in play",
        _ids(WHITE_OFF, dice_owner=0, turn=0),
    ),
    (
        "position id",
        encode_position_id(NOT_START),
        NO_GAME + "expected the start position",
        _ids(NOT_START, game_state=GAME_NONE),
    ),
    (
        "dice",
        "(3, 1)",
        NO_GAME + "no dice are rolled before the opening roll",
        _ids(game_state=GAME_NONE, dice=(3, 1)),
    ),
    (
        "cube",
        "2",
        NO_GAME + "the cube is in the middle at 1",
        _ids(game_state=GAME_NONE, cube_value=2, cube_owner=1),
    ),
    (
        "double offered",
        "1",
        NO_GAME + "nobody can double yet",
        _ids(game_state=GAME_NONE, double_offered=True),
    ),
    ("resignation", "1", NO_GAME + "nobody can resign yet", _ids(game_state=GAME_NONE, resign=1, turn=0)),
    ("turn", "0", NO_GAME + "nobody answers anything", _ids(game_state=GAME_NONE, turn=0)),
    ("game state", "2", "the game is over but the position is not finished", _ids(game_state=GAME_OVER)),
    (
        "resignation",
        "1",
        "a game played to the end was not resigned",
        _ids(WHITE_OFF, game_state=GAME_OVER, dice_owner=0, turn=0, resign=1, score=(2, 0)),
    ),
    (
        "score",
        "1-0",
        "the winner's score is below the 2 points won",
        _ids(WHITE_OFF, game_state=GAME_OVER, dice_owner=0, turn=0, score=(0, 1)),
    ),
    (
        "turn",
        "1",
        "in a dropped game the turn is the player who dropped, not the doubler",
        _ids(game_state=GAME_DROPPED, score=(0, 1)),
    ),
    (
        "resignation",
        "1",
        "a dropped game was not resigned",
        _ids(game_state=GAME_DROPPED, resign=1, turn=0, score=(0, 1)),
    ),
    (
        "resignation",
        "0",
        "a resigned game names the points offered (1-3)",
        _ids(game_state=GAME_RESIGNED, score=(1, 0)),
    ),
    (
        "game state",
        "3",
        "the position is finished: the game ended on the board",
        _ids(WHITE_OFF, game_state=GAME_RESIGNED, resign=1, dice_owner=0, turn=0, score=(0, 1)),
    ),
]


@pytest.mark.parametrize(
    ("field", "value", "reason", "ids"), BAD, ids=[f"{i}-{row[0]}" for i, row in enumerate(BAD)]
)
def test_malformed_or_contradictory_ids_are_refused(
    field: str, value: str, reason: str, ids: tuple[str, str]
) -> None:
    """RULES.md 9.4: a bad ID raises NotationError naming the field, the value read and
    the rule it breaks: the line a player or a tournament director reads."""
    with pytest.raises(NotationError) as raised:
        state_from_ids(*ids)
    assert (raised.value.field, raised.value.value, raised.value.reason) == (field, value, reason)


def test_a_match_outside_the_tabla_family_has_no_ids() -> None:
    """RULES.md 9.4: gnubg's IDs describe the tabla board; a tapa match is refused by name."""
    match = new_match(game="tapa", length=3)
    with pytest.raises(NotationError) as raised:
        match_ids(match.state)
    assert (raised.value.field, raised.value.value) == ("game", "tapa")
    assert raised.value.reason == "gnubg IDs describe tabla, antitabla, chelebi only"


NO_CUBE_MATCH = MatchSettings("tabla", 5, cube=False)
SETTINGS_BAD = [
    ("match length", "5", "the match settings say 7", MatchSettings("tabla", 7), _ids()),
    ("cube", "2", NO_CUBE, NO_CUBE_MATCH, _ids(cube_value=2, cube_owner=1)),
    ("double offered", "1", NO_CUBE, NO_CUBE_MATCH, _ids(double_offered=True, turn=0)),
]


@pytest.mark.parametrize(("field", "value", "reason", "settings", "ids"), SETTINGS_BAD)
def test_ids_that_the_settings_forbid_are_refused_with_the_reason(
    field: str, value: str, reason: str, settings: MatchSettings, ids: tuple[str, str]
) -> None:
    """RULES.md 9.2, 9.4: IDs continuing a match of given settings must fit them."""
    with pytest.raises(NotationError) as raised:
        state_from_setup(settings, *ids)
    assert (raised.value.field, raised.value.value, raised.value.reason) == (field, value, reason)


@pytest.mark.parametrize("jacoby", [False, True])
def test_a_jacoby_bit_other_than_the_settings_is_refused_naming_it(jacoby: bool) -> None:
    """RULES.md 9.2, 9.4: in money play the Match ID's Jacoby bit must be the settings'."""
    ids = _ids(match_length=0, jacoby=jacoby)
    word = "on" if jacoby else "off"
    with pytest.raises(NotationError) as raised:
        state_from_setup(MatchSettings("tabla", 0, jacoby=not jacoby), *ids)
    assert (raised.value.field, raised.value.value) == ("jacoby", word)
    assert raised.value.reason == f"the Match ID {ids[1]} has Jacoby {word}; the settings do not"


def test_a_match_from_ids_rolls_with_the_dice_it_is_given() -> None:
    """RULES.md 9.4: a match continued from IDs takes its dice from the source given."""
    match = Match.from_ids(*_ids(), dice=ScriptedDice([6, 4]), now=FakeTime(0))
    assert (match.state.phase, match.state.actor) == ("roll", W)
    assert match.roll() == (6, 4)
    assert match.state.position.dice == (6, 4)


def test_ids_must_agree_with_the_settings_they_continue() -> None:
    """RULES.md 9.4: a record's settings and its setup IDs must say the same."""
    ids = _ids()
    with pytest.raises(NotationError) as raised:
        state_from_setup(MatchSettings("tabla", 7), *ids)
    assert raised.value.field == "match length"
    money = _ids(match_length=0, jacoby=True)
    with pytest.raises(NotationError) as raised:
        state_from_setup(MatchSettings("tabla", 0, jacoby=False), *money)
    assert raised.value.field == "jacoby"
    assert state_from_setup(MatchSettings("tabla", 0, jacoby=True), *money).settings.jacoby
    record = MatchRecord(MatchSettings("tabla", 7), [], setup=ids)
    with pytest.raises(NotationError):
        list(replay_states(record))


def test_valid_ids_of_every_game_state_are_accepted() -> None:
    """The counterpart of the refusals: the same fields in a consistent form read back."""
    good = [
        _ids(),
        _ids(game_state=GAME_NONE),
        _ids(crawford=True, score=(4, 1)),
        _ids(double_offered=True, turn=0, cube_value=2, cube_owner=1),
        _ids(WHITE_OFF, game_state=GAME_OVER, dice_owner=0, turn=0, score=(0, 2)),
        _ids(game_state=GAME_DROPPED, turn=0, score=(0, 1)),
        _ids(game_state=GAME_RESIGNED, resign=2, score=(2, 0)),
    ]
    for ids in good:
        assert match_ids(state_from_ids(*ids)) == ids


# ------------------------------------------------------------------ records
def test_records_without_setup_or_final_read_as_before() -> None:
    """RULES.md 9.4: a record without setup or final reads and replays as it did, and so
    does one written as version 1 of the match format (``tavla-match``)."""
    match = _random_match("tabla", 3, 1)
    data = json.loads(MatchRecord.of(match).to_json())
    assert data["version"] == 3 and "setup" not in data
    old = {"format": "tavla-match", "version": 1, "settings": data["settings"], "actions": data["actions"]}
    assert list(replay_states(MatchRecord.from_json(json.dumps(old)))) == match.states
    assert data["final"] == {"position_id": match_ids(match.state)[0], "match_id": match_ids(match.state)[1]}
    del data["final"]
    record = MatchRecord.from_json(json.dumps(data))
    assert record.setup is None and list(replay_states(record)) == match.states
    abluka = json.loads(MatchRecord.of(new_match(game="abluka")).to_json())
    assert "final" not in abluka  # no gnubg IDs for Abluka


def test_a_corrupted_record_is_refused() -> None:
    """RULES.md 9.4: the final IDs must be those of the replay."""
    match = _random_match("tabla", 3, 2)
    text = MatchRecord.of(match).to_json()
    data = json.loads(text)
    data["final"]["match_id"] = "cAgAAAAAAAAE"
    with pytest.raises(NotationError) as raised:
        MatchRecord.from_json(json.dumps(data))
    assert raised.value.field == "final" and "corrupted" in raised.value.reason
    data = json.loads(text)
    states = match.states
    index, other = next(
        (i, turn.text)
        for i in reversed(range(len(match.actions)))
        if match.actions[i].kind == "move"
        for turn in states[i].position.legal_turns()
        if turn.after != states[i + 1].position
    )
    data["actions"][index]["v"] = other  # a legal move, but not the one played
    with pytest.raises(NotationError) as raised:
        MatchRecord.from_json(json.dumps(data))
    assert raised.value.field == "final"
