"""GNU Backgammon's Position ID and Match ID of a match at any moment, and back (RULES.md 9.4).

Players are numbered as in :mod:`tavla.rules.backgammon.gnubg_id`: White (seat 0 in the
dice games) is gnubg's player 1 and Black gnubg's player 0, so gnubg's score pair is
(Black's, White's). The Position ID is written for the player who owns the dice.

What the two IDs say at each :attr:`~tavla.match.state.MatchState.phase`:

- ``roll``, ``move``: a game in play; the player to act owns the dice and the turn, with
  the roll once it is rolled.
- ``double``: the doubler owns the dice (none rolled); the turn is the player who must
  answer; the double-offered bit is set and the cube shows its value before the double.
- ``resign``: the resignation field holds the points offered (1 single, 2 gammon, 3
  backgammon); the turn is the player who must answer; the dice stay as they were (a
  player may resign after rolling, or while waiting for the opponent).
- ``raccoon`` (money play with raccoons): the doubler to roll with the beavered cube. A
  Match ID has no field for the raccoon window, which is lost on the way back.
- ``opening``, and ``between`` before the first game: "no game started" (game state 0),
  the start position, no dice, the cube in the middle, the score and the Crawford flag of
  the game about to start: what gnubg writes before an opening roll.
- ``between`` and ``over`` after a game: the end of that game as gnubg shows it when it
  steps through a match: the final position, no dice, the score with the game counted,
  and the game state "over" (the position is finished; the loser owns the dice),
  "resigned" (the resignation field keeps the points offered; the player on roll owns the
  dice and the turn) or "dropped" (the doubler owns the dice, the turn is the player who
  dropped). A flag (RULES.md 10) costs the points of a backgammon and is written as a
  resigned backgammon. A game stopped by three warnings, which gnubg cannot express, is
  written as it stood when it stopped.

The Crawford bit is set during the Crawford game. The match length is 0 for money play,
where the Jacoby bit says whether the ``jacoby`` option is on; in a match gnubg always
writes "no Jacoby" and so does this module.

The IDs describe a tabla board, so they exist for tabla and for its variants antitabla
and chelebi, whose boards are the same; for those two they say the position, dice, cube
and score exactly, but gnubg itself would read them as backgammon. Other games raise
:class:`~tavla.core.errors.NotationError`.

Going back, :func:`state_from_ids` builds the state those fields describe, which a match
can continue from. What the IDs do not hold is chosen as follows: the game in progress
counts as game 1, nobody is the "starter" of RULES.md 9.2's first-roll rule, no breaks or
warnings have been used, a clock starts stopped and runs from the first action, and after
a resigned game the player on roll is taken to have resigned (gnubg's resign command is
the player on roll's) unless the score shows who won the match. For IDs in the form this
module writes (gnubg 1.07 writes the same), ``match_ids(state_from_ids(p, m)) == (p, m)``.
Stale dice that gnubg can keep next to a double offer or a finished game are dropped, and a
match's Jacoby bit is not checked (gnubg before 1.07 wrote 66-bit IDs without it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

from tavla.core.definition import GameDefinition
from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK, WHITE
from tavla.match.clock import Clock, ClockSettings
from tavla.match.cube import CUBE_CAP, Cube, CubeOffer, OfferKind
from tavla.match.resign import ResignOffer
from tavla.match.settings import MatchSettings
from tavla.match.state import EndReason, GameResult, MatchState, Phase
from tavla.rules.backgammon.gnubg_id import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    GNUBG_PLAYER,
    OUR_SIDE,
    TABLA_FAMILY,
    MatchInfo,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
)
from tavla.rules.backgammon.position import BackgammonPosition

_FLAG_LEVEL = 3  # RULES.md 10: a flag costs the top score, three times the cube


# ------------------------------------------------------------------ state -> IDs
def _tabla_class(definition: GameDefinition) -> type[BackgammonPosition]:
    """The position class of a game gnubg's IDs can describe (the tabla family)."""
    position_class = definition.position_class
    if not definition.facts.gnubg_compatible or not issubclass(position_class, BackgammonPosition):
        raise NotationError("game", definition.name, f"gnubg IDs describe {', '.join(TABLA_FAMILY)} only")
    return position_class


def _player(state: MatchState, seat: int) -> int:
    """gnubg's number of the player in ``seat``."""
    return GNUBG_PLAYER[state.colour_of(seat)]


def _info(state: MatchState, game_state: int, **fields: Any) -> MatchInfo:
    """The Match ID fields every moment shares (cube, score, match), plus ``fields``."""
    settings = state.settings
    cube = state.cube
    black, white = state.seat_of(BLACK), state.seat_of(WHITE)
    return MatchInfo(
        cube_value=cube.value,
        cube_owner=None if cube.owner is None else _player(state, cube.owner),
        crawford=state.crawford,
        game_state=game_state,
        match_length=settings.length,
        score=(state.score[black], state.score[white]),
        jacoby=settings.money and settings.jacoby,
        **fields,
    )


def _board(state: MatchState) -> BackgammonPosition:
    """The position of a match of the tabla family (checked by :func:`_tabla_class`)."""
    # match_ids refused every game outside the family first (_tabla_class).
    return cast(BackgammonPosition, state.position)


def _ids(state: MatchState, info: MatchInfo) -> tuple[str, str]:
    return encode_position_id(_board(state)), encode_match_id(info)


def _playing_ids(state: MatchState) -> tuple[str, str]:
    position = _board(state)
    on_roll = GNUBG_PLAYER[position.side]
    turn, doubled, resign = on_roll, False, 0
    phase = state.phase
    offer, resigned = state.cube.offer, state.resign
    # Each phase is named after what is pending: the offer is there when its phase is.
    if phase == "double" and offer is not None:
        turn, doubled = _player(state, 1 - offer.by), True
    elif phase == "resign" and resigned is not None:
        turn, resign = _player(state, 1 - resigned.by), resigned.points
    info = _info(
        state,
        GAME_PLAYING,
        dice_owner=on_roll,
        turn=turn,
        double_offered=doubled,
        resign=resign,
        dice=position.dice,
    )
    return _ids(state, info)


def _finished_ids(state: MatchState, result: GameResult) -> tuple[str, str]:
    position = _board(state)
    on_roll = GNUBG_PLAYER[position.side]
    if result.reason == "drop":
        info = _info(state, GAME_DROPPED, dice_owner=on_roll, turn=1 - on_roll)
    elif result.reason in ("resign", "flag"):
        level = _FLAG_LEVEL if result.reason == "flag" else result.points // result.cube
        info = _info(state, GAME_RESIGNED, dice_owner=on_roll, turn=on_roll, resign=level)
    elif position.outcome() is not None:
        info = _info(state, GAME_OVER, dice_owner=on_roll, turn=on_roll)
    else:
        # Stopped without a result of the board (three warnings): the game as it stood.
        info = _info(state, GAME_PLAYING, dice_owner=on_roll, turn=on_roll, dice=position.dice)
    return _ids(state, info)


def match_ids(state: MatchState) -> tuple[str, str]:
    """gnubg's (Position ID, Match ID) of ``state``; see the module's notes for each phase.

    Raises NotationError for games other than tabla, antitabla and chelebi.
    """
    _tabla_class(state.definition)
    phase = state.phase
    if phase in ("between", "over"):
        if state.result is not None:
            return _finished_ids(state, state.result)
        phase = Phase.OPENING  # before the first game: as before its opening roll
    if phase == "opening":
        position = _board(state)
        on_roll = GNUBG_PLAYER[position.side]
        return _ids(state, _info(state, GAME_NONE, dice_owner=on_roll, turn=on_roll))
    return _playing_ids(state)


# ------------------------------------------------------------------ IDs -> state
def _fail(field: str, value: object, reason: str) -> NotationError:
    return NotationError(field, str(value), reason)


@dataclass(frozen=True)
class _Reading:
    """A Match ID read in seats: what the checks and the state builders share."""

    info: MatchInfo
    settings: MatchSettings
    position: BackgammonPosition  # the dice owner to act, no dice yet
    score: tuple[int, int]  # by seat

    def seat(self, player: int) -> int:
        """The seat of gnubg's ``player`` (seats are colours in the dice games)."""
        return OUR_SIDE[player]

    @property
    def on_roll(self) -> int:
        return self.seat(self.info.dice_owner)

    @property
    def answerer(self) -> int:
        return self.seat(self.info.turn)

    def cube(self, offer: CubeOffer | None = None) -> Cube:
        owner = self.info.cube_owner
        return Cube(self.info.cube_value, None if owner is None else self.seat(owner), offer)


def _check_settings(settings: MatchSettings, info: MatchInfo, match_id: str) -> None:
    if info.match_length != settings.length:
        raise _fail("match length", info.match_length, f"the match settings say {settings.length}")
    if settings.money and info.jacoby != settings.jacoby:
        state = "on" if info.jacoby else "off"
        raise _fail("jacoby", state, f"the Match ID {match_id} has Jacoby {state}; the settings do not")


def _check_cube(reading: _Reading) -> None:
    info = reading.info
    if info.cube_value > CUBE_CAP:
        raise _fail("cube", info.cube_value, f"the cube stops at {CUBE_CAP} (RULES.md 9.2)")
    if info.cube_value == 1 and info.cube_owner is not None:
        raise _fail("cube owner", info.cube_owner, "a cube at 1 is in the middle: nobody has taken it")
    if info.cube_value > 1 and info.cube_owner is None:
        raise _fail("cube", info.cube_value, "a cube above 1 has an owner (it rises only by a take)")
    if info.cube_value > 1 and not reading.settings.cube:
        raise _fail("cube", info.cube_value, "the match is played without the cube")
    if info.crawford and (info.cube_value > 1 or info.double_offered):
        raise _fail("crawford", "on", "nobody may double in the Crawford game (RULES.md 9.3)")


def _check_score(reading: _Reading, before: tuple[int, int]) -> None:
    """``before``: the score when the game started (the score itself for a game in play)."""
    info, length = reading.info, reading.settings.length
    if length == 0:
        if info.crawford:
            raise _fail("crawford", "on", "there is no Crawford game in money play")
        return
    if max(before) >= length:
        raise _fail(
            "score", f"{reading.score[0]}-{reading.score[1]}", f"the match to {length} was already over"
        )
    if info.crawford and list(before).count(length - 1) != 1:
        raise _fail(
            "crawford",
            "on",
            f"the Crawford game is played when one player first has {length - 1} of {length}",
        )


def _crawford_done(reading: _Reading, before: tuple[int, int]) -> bool:
    """RULES.md 9.3: the Crawford game is played or being played."""
    length = reading.settings.length
    return reading.info.crawford or (length > 0 and length - 1 in before)


def _base_state(reading: _Reading, definition: GameDefinition, **fields: Any) -> MatchState:
    settings = reading.settings
    clock = None if settings.clock is None else Clock.new(settings.clock)
    position = fields.pop("position", reading.position)
    return MatchState(
        settings,
        definition,
        position,
        score=reading.score,
        game_number=1,
        crawford=reading.info.crawford,
        clock=clock,
        **fields,
    )


def _opening_state(reading: _Reading, definition: GameDefinition) -> MatchState:
    info, position = reading.info, reading.position
    start = _tabla_class(definition).start()
    if (position.points, position.bar, position.off) != (start.points, start.bar, start.off):
        raise _fail(
            "position id", encode_position_id(position), "no game has started: expected the start position"
        )
    if info.dice is not None:
        raise _fail("dice", info.dice, "no game has started: no dice are rolled before the opening roll")
    if info.cube_value != 1:
        raise _fail("cube", info.cube_value, "no game has started: the cube is in the middle at 1")
    if info.double_offered:
        raise _fail("double offered", 1, "no game has started: nobody can double yet")
    if info.resign:
        raise _fail("resignation", info.resign, "no game has started: nobody can resign yet")
    if info.turn != info.dice_owner:
        raise _fail("turn", info.turn, "no game has started: nobody answers anything")
    _check_score(reading, reading.score)
    return _base_state(
        reading,
        definition,
        position=position,
        awaiting_opening=True,
        crawford_done=_crawford_done(reading, reading.score),
    )


def _playing_state(reading: _Reading, definition: GameDefinition) -> MatchState:
    info, position = reading.info, reading.position
    if position.outcome() is not None:
        raise _fail("game state", info.game_state, "the position is finished but the game is in play")
    _check_score(reading, reading.score)
    cube = reading.cube()
    resign = None
    if info.double_offered:
        if info.resign:
            raise _fail("resignation", info.resign, "a double and a resignation cannot both be pending")
        if info.turn == info.dice_owner:
            raise _fail("turn", info.turn, "the player who answers a double is the doubler's opponent")
        if not reading.settings.cube:
            raise _fail("double offered", 1, "the match is played without the cube")
        if cube.owner not in (None, reading.on_roll):
            raise _fail(
                "cube owner", info.cube_owner, "the doubler must own the cube or find it in the middle"
            )
        if cube.value * 2 > CUBE_CAP:
            raise _fail(
                "cube", cube.value, f"the cube stops at {CUBE_CAP}: nobody may double it (RULES.md 9.2)"
            )
        cube = replace(cube, offer=CubeOffer(OfferKind.DOUBLE, reading.on_roll))
    elif info.resign:
        resign = ResignOffer(1 - reading.answerer, info.resign)
        if info.dice is not None:
            position = position.with_roll(info.dice)
    else:
        if info.turn != info.dice_owner:
            raise _fail("turn", info.turn, "with nothing offered the turn is the player on roll")
        if info.dice is not None:
            position = position.with_roll(info.dice)
    return _base_state(
        reading,
        definition,
        position=position,
        cube=cube,
        resign=resign,
        crawford_done=_crawford_done(reading, reading.score),
    )


def _result(reading: _Reading) -> GameResult:
    """The result a finished game's IDs describe; raises for one they contradict."""
    info, position, settings = reading.info, reading.position, reading.settings
    value = info.cube_value
    if info.double_offered:
        raise _fail("double offered", 1, "the game is over: no double can be pending")
    outcome = position.outcome()
    if info.game_state == GAME_OVER:
        if outcome is None or outcome.winner is None:
            raise _fail("game state", info.game_state, "the game is over but the position is not finished")
        if info.resign:
            raise _fail("resignation", info.resign, "a game played to the end was not resigned")
        raw = 1 if settings.money and settings.jacoby and value == 1 else outcome.points
        return GameResult(outcome.winner, raw * value, outcome.reason, value)
    if outcome is not None:
        raise _fail("game state", info.game_state, "the position is finished: the game ended on the board")
    if info.game_state == GAME_DROPPED:
        if info.resign:
            raise _fail("resignation", info.resign, "a dropped game was not resigned")
        if info.turn == info.dice_owner:
            raise _fail(
                "turn", info.turn, "in a dropped game the turn is the player who dropped, not the doubler"
            )
        if info.crawford:
            raise _fail("crawford", "on", "nobody may double in the Crawford game (RULES.md 9.3)")
        return GameResult(reading.on_roll, value, EndReason.DROP, value)
    if not info.resign:
        raise _fail("resignation", 0, "a resigned game names the points offered (1-3)")
    winner = 1 - reading.on_roll  # gnubg's resignations are the player on roll's
    length = settings.length
    if length and max(reading.score) >= length:
        winner = 0 if reading.score[0] >= length else 1
    return GameResult(winner, info.resign * value, EndReason.RESIGN, value)


def _finished_state(reading: _Reading, definition: GameDefinition) -> MatchState:
    result = _result(reading)
    scorer = cast(int, result.winner)  # every ending _result reads has one: gnubg has no void games
    before = list(reading.score)
    before[scorer] -= result.points
    if before[scorer] < 0:
        raise _fail(
            "score",
            f"{reading.score[0]}-{reading.score[1]}",
            f"the winner's score is below the {result.points} points won",
        )
    start_score = (before[0], before[1])
    _check_score(reading, start_score)
    length = reading.settings.length
    over, winner = (True, result.winner) if length == 0 else (False, None)
    for seat in (0, 1):
        if length and reading.score[seat] >= length:
            over, winner = True, seat
    return _base_state(
        reading,
        definition,
        position=reading.position,
        cube=reading.cube(),
        crawford_done=_crawford_done(reading, start_score),
        result=result,
        results=(result,),
        over=over,
        winner=winner,
    )


def state_from_setup(settings: MatchSettings, position_id: str, match_id: str) -> MatchState:
    """The state two gnubg IDs describe in a match of ``settings`` (RULES.md 9.4).

    ``settings`` must agree with the Match ID (match length, Jacoby in money play);
    raises NotationError naming the field of a malformed or contradictory ID.
    """
    definition = settings.definition
    position_class = _tabla_class(definition)
    info = decode_match_id(match_id)
    _check_settings(settings, info, match_id)
    board = decode_position_id(position_id, side=OUR_SIDE[info.dice_owner], game=position_class.game)
    position = position_class(board.points, board.bar, board.off, board.side, None)
    score = (info.score[GNUBG_PLAYER[WHITE]], info.score[GNUBG_PLAYER[BLACK]])
    reading = _Reading(info, settings, position, score)
    _check_cube(reading)
    if info.game_state == GAME_NONE:
        return _opening_state(reading, definition)
    if info.game_state == GAME_PLAYING:
        return _playing_state(reading, definition)
    return _finished_state(reading, definition)


def settings_from_ids(
    match_id: str,
    *,
    game: str = "tabla",
    names: tuple[str, str] = ("White", "Black"),
    clock: ClockSettings | None = None,
) -> MatchSettings:
    """Match settings as a Match ID gives them: the length (0: money play) and Jacoby."""
    info = decode_match_id(match_id)
    return MatchSettings(
        game, info.match_length, jacoby=info.is_money and bool(info.jacoby), clock=clock, names=names
    )


def state_from_ids(
    position_id: str,
    match_id: str,
    *,
    game: str = "tabla",
    names: tuple[str, str] = ("White", "Black"),
    clock: ClockSettings | None = None,
) -> MatchState:
    """The match state of gnubg's Position ID and Match ID, ready to be continued.

    The settings come from the Match ID (:func:`settings_from_ids`); ``names`` and
    ``clock`` add what it does not say. Raises NotationError naming the field of a
    malformed or contradictory ID, and returns nothing partial.
    """
    settings = settings_from_ids(match_id, game=game, names=names, clock=clock)
    return state_from_setup(settings, position_id, match_id)
