"""The JSON form of a match at one moment (:class:`MatchStateJson`).

Seats (0, 1) are the players in the order of ``settings.names``; ``colours`` says
which colour each plays in the current game (fixed in dice games, alternating in
Abluka). Times are integer milliseconds on the match's time source; the clock is
read at ``now_ms``, the reading the caller passes in, so the numbers a client gets
are those of that instant.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from tavla.core.protocol import OutcomeReason
from tavla.match.actions import double_error
from tavla.match.clock import Clock, ClockSettings
from tavla.match.cube import Cube
from tavla.match.resign import ResignOffer
from tavla.match.settings import MatchSettings
from tavla.match.state import EndReason, GameResult, MatchState, Phase
from tavla.schema.common import Colour, JsonModel, colour
from tavla.schema.position import OptionValues, PositionJson, position_json

Seat = Annotated[int, Field(ge=0, le=1)]
Pair = Annotated[list[int], Field(min_length=2, max_length=2)]
"""Two numbers, seat 0's first."""


class ClockSettingsJson(JsonModel):
    move_ms: int
    """The allowance each move gets before the reserve runs."""
    reserve_ms: int
    per_game: bool
    """The reserve is given again every game (dice games) or lasts the match (Abluka)."""
    flag_loses: Literal["game", "match"]


class SettingsJson(JsonModel):
    game: str
    options: OptionValues
    """Every rule option of the game with its value."""
    length: int
    """Points to win; 0 is a single game for money."""
    cube: bool
    beavers: bool
    raccoons: bool
    jacoby: bool
    next_game_start: Literal["opening_roll", "winner_starts"]
    sets: int
    """Games of a match without dice (Abluka)."""
    clock: ClockSettingsJson | None
    names: Annotated[list[str], Field(min_length=2, max_length=2)]


class CubeOfferJson(JsonModel):
    kind: Literal["double", "beaver"]
    """``double`` waits for take, drop or beaver; ``beaver`` leaves the doubler a raccoon."""
    by: Seat
    """The seat that doubled."""


class CubeJson(JsonModel):
    in_use: bool
    """The cube is played in this game (on, a dice game, not the Crawford game)."""
    value: int
    owner: Seat | None
    """null: in the middle."""
    offer: CubeOfferJson | None
    may_double: bool
    """The seat that acts may double now."""


class ResignJson(JsonModel):
    by: Seat
    level: Literal["single", "gammon", "backgammon"]
    points: int
    """The level's points before the cube."""


class SeatTimeJson(JsonModel):
    allowance_ms: int
    """What is left of the allowance of the move in progress: 0 for the seat that waits
    while the other's time runs, the whole allowance while the clock is stopped."""
    reserve_ms: int
    remaining_ms: int
    """Allowance and reserve together: the time before the flag falls."""


class ClockJson(JsonModel):
    now_ms: int
    """The time source's reading these numbers are taken at."""
    running: Seat | None
    """The seat whose time runs, or null when the clock is stopped."""
    since_ms: int
    """When the running seat's time started (or the clock stopped)."""
    seats: Annotated[list[SeatTimeJson], Field(min_length=2, max_length=2)]


class ResultJson(JsonModel):
    """A finished game."""

    winner: Seat | None
    """null: a void game."""
    points: int
    """Points scored, the cube included."""
    reason: OutcomeReason | EndReason
    cube: int


class MatchStateJson(JsonModel):
    settings: SettingsJson
    game_number: int
    """1 for the first game; 0 before it starts."""
    score: Pair
    crawford: bool
    """This game is the Crawford game (nobody may double)."""
    post_crawford: bool
    phase: Phase
    """What the match awaits: see docs/json.md for what each phase allows."""
    actor: Seat | None
    """The seat that must act now (and whose clock runs), or null."""
    colours: Annotated[list[Colour], Field(min_length=2, max_length=2)]
    """The colour each seat plays in this game."""
    cube: CubeJson
    resign: ResignJson | None
    clock: ClockJson | None
    position: PositionJson
    results: list[ResultJson]
    """The games played so far, first first."""
    over: bool
    winner: Seat | None
    """The match's winner once over (null: not over, or a drawn Abluka match)."""
    forfeit: EndReason | None
    """Why the match was lost before its end (``flag``, ``warnings``), or null."""
    breaks_left: Pair
    break_ends_ms: int
    warnings: Pair


def _clock_settings_json(settings: ClockSettings) -> ClockSettingsJson:
    flag_loses: Literal["game", "match"] = "match" if settings.flag_loses == "match" else "game"
    return ClockSettingsJson(
        move_ms=settings.move_ms,
        reserve_ms=settings.reserve_ms,
        per_game=settings.per_game,
        flag_loses=flag_loses,
    )


def _settings_json(settings: MatchSettings) -> SettingsJson:
    start: Literal["opening_roll", "winner_starts"] = (
        "winner_starts" if settings.next_game_start == "winner_starts" else "opening_roll"
    )
    return SettingsJson(
        game=settings.game,
        options=settings.definition.option_values(),
        length=settings.length,
        cube=settings.cube,
        beavers=settings.beavers,
        raccoons=settings.raccoons,
        jacoby=settings.jacoby,
        next_game_start=start,
        sets=settings.sets,
        clock=None if settings.clock is None else _clock_settings_json(settings.clock),
        names=list(settings.names),
    )


def _cube_json(state: MatchState) -> CubeJson:
    cube: Cube = state.cube
    offer = None
    if cube.offer is not None:
        kind: Literal["double", "beaver"] = "double" if cube.offer.kind == "double" else "beaver"
        offer = CubeOfferJson(kind=kind, by=cube.offer.by)
    return CubeJson(
        in_use=state.cube_in_use,
        value=cube.value,
        owner=cube.owner,
        offer=offer,
        may_double=state.actor is not None and double_error(state, state.actor) is None,
    )


def _resign_json(offer: ResignOffer | None) -> ResignJson | None:
    if offer is None:
        return None
    levels: dict[int, Literal["single", "gammon", "backgammon"]] = {1: "single", 2: "gammon", 3: "backgammon"}
    return ResignJson(by=offer.by, level=levels[offer.points], points=offer.points)


def clock_json(clock: Clock | None, now_ms: int) -> ClockJson | None:
    if clock is None:
        return None
    seats = []
    for seat in (0, 1):
        allowance, reserve = clock.remaining(seat, now_ms)
        seats.append(
            SeatTimeJson(allowance_ms=allowance, reserve_ms=reserve, remaining_ms=allowance + reserve)
        )
    return ClockJson(now_ms=now_ms, running=clock.running, since_ms=clock.since_ms, seats=seats)


def _result_json(result: GameResult) -> ResultJson:
    return ResultJson(winner=result.winner, points=result.points, reason=result.reason, cube=result.cube)


def match_state_json(state: MatchState, now_ms: int) -> MatchStateJson:
    """The JSON form of ``state``, its clock read at ``now_ms`` (raises ClockError when
    ``now_ms`` is before the clock last changed)."""
    allowed = state.breaks_allowed
    return MatchStateJson(
        settings=_settings_json(state.settings),
        game_number=state.game_number,
        score=list(state.score),
        crawford=state.crawford,
        post_crawford=state.post_crawford,
        phase=state.phase,
        actor=state.actor,
        colours=[colour(state.colour_of(seat)) for seat in (0, 1)],
        cube=_cube_json(state),
        resign=_resign_json(state.resign),
        clock=clock_json(state.clock, now_ms),
        position=position_json(state.position),
        results=[_result_json(result) for result in state.results],
        over=state.over,
        winner=state.winner,
        forfeit=state.forfeit,
        breaks_left=[max(0, allowed - used) for used in state.breaks_used],
        break_ends_ms=state.break_ends_ms,
        warnings=list(state.warnings),
    )
