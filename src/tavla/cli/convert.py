"""``tavla convert``: between TPN and GNU Backgammon's Position ID and Match ID.

    tavla convert "<TPN>" [--length 7 --score 2,4 --cube 2 --owner w --crawford]
    tavla convert 4HPwATDgc/ABMA:cAgAAAAAAAAA
    tavla convert --position-id 4HPwATDgc/ABMA [--match-id cAgAAAAAAAAA | --side b]

A TPN (tabla, antitabla or chelebi) prints two lines, ``Position ID: ...`` and
``Match ID: ...``: money play with the cube centred at 1 unless the match options
say otherwise; ``--score`` and ``--owner`` speak of White and Black. An ID prints
the TPN: the Match ID decides the side to act and the dice (White is gnubg's player
1, see ``tavla.rules.backgammon.gnubg_id``); without one, ``--side`` does (White by
default). Bad input exits with status 2 and one line naming the field and value.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated

import typer

import tavla
from tavla.cli.errors import POSITION_ARGUMENT, clear_errors, reject_option_like
from tavla.core.digits import parse_natural
from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK, SIDE_LETTERS, WHITE
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.backgammon.gnubg_id import (
    GNUBG_PLAYER,
    TABLA_FAMILY,
    MatchInfo,
    decode_position_id,
    from_gnubg_ids,
    game_state_of,
    split_gnubg_id,
    to_gnubg_ids,
)


def _count(text: str, field: str) -> int:
    return parse_natural(text, field, "expected a whole number")


def _side(text: str, field: str) -> int:
    if text not in SIDE_LETTERS:
        raise NotationError(field, text, "expected 'w' (White) or 'b' (Black)")
    return SIDE_LETTERS.index(text)


@dataclass(frozen=True)
class MatchOptions:
    """The match options of the command, as typed (our sides: White, Black)."""

    length: str | None = None
    score: str | None = None
    cube: str | None = None
    owner: str | None = None
    crawford: bool = False

    def given(self) -> list[tuple[str, str]]:
        """(option, value) for each option that was given."""
        named = [("--length", self.length), ("--score", self.score), ("--cube", self.cube)]
        named += [("--owner", self.owner), ("--crawford", "on" if self.crawford else None)]
        return [(name, value) for name, value in named if value is not None]


def _score(text: str, match_length: int) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise NotationError("score", text, "expected White's and Black's score such as 2,4")
    points = (_count(parts[0], "score"), _count(parts[1], "score"))
    if not match_length:
        raise NotationError("score", text, "a score needs a match length (--length)")
    if max(points) >= match_length:
        raise NotationError("score", text, f"a score must be below the match length {match_length}")
    return points


def match_info(position: BackgammonPosition, options: MatchOptions) -> MatchInfo:
    """The Match ID fields for ``position`` under ``options``."""
    match_length = _count(options.length, "length") if options.length is not None else 0
    points = _score(options.score, match_length) if options.score is not None else (0, 0)
    if options.crawford and (not match_length or match_length - 1 not in points):
        raise NotationError("crawford", "on", "the Crawford game needs a player 1 point from the match")
    cube_value = _count(options.cube, "cube") if options.cube is not None else 1
    cube_owner = None
    if options.owner is not None:
        cube_owner = GNUBG_PLAYER[_side(options.owner, "owner")]
        if cube_value < 2:
            raise NotationError("owner", options.owner, "a cube at 1 is centred; give --cube 2 or more")
    return MatchInfo(
        cube_value=cube_value,
        cube_owner=cube_owner,
        crawford=options.crawford,
        game_state=game_state_of(position),
        match_length=match_length,
        score=(points[BLACK], points[WHITE]),  # gnubg's order: player 0 (Black), player 1 (White)
    )


def ids_of(text: str, options: MatchOptions) -> str:
    """The two output lines for a TPN."""
    position = tavla.from_notation(text)
    if position.game not in TABLA_FAMILY or not isinstance(position, BackgammonPosition):
        raise NotationError("game", position.game, f"gnubg IDs exist for {', '.join(TABLA_FAMILY)} only")
    pid, mid = to_gnubg_ids(position, match_info(position, options))
    return f"Position ID: {pid}\nMatch ID: {mid}\n"


def tpn_of(pid: str, mid: str | None, side: str | None, game: str) -> str:
    """The TPN line for a Position ID and an optional Match ID."""
    if mid is None:
        position = decode_position_id(pid, side=_side(side or "w", "side"), game=game)
    else:
        if side is not None:
            raise NotationError("side", side, "the Match ID says who is on roll; leave --side out")
        position = from_gnubg_ids(pid, mid, game=game)[0]
    return position.notation() + "\n"


def convert(
    text: Annotated[
        str | None,
        typer.Argument(help="A TPN, or a Position ID alone or as gnubg's PositionID:MatchID."),
    ] = None,
    position_id: Annotated[str | None, typer.Option("--position-id", help="A gnubg Position ID.")] = None,
    match_id: Annotated[str | None, typer.Option("--match-id", help="A gnubg Match ID.")] = None,
    side: Annotated[
        str | None, typer.Option("--side", help="Side on roll for a Position ID alone: w or b.")
    ] = None,
    game: Annotated[str, typer.Option("--game", help="Game of the TPN made from an ID.")] = "tabla",
    length: Annotated[str | None, typer.Option("--length", help="Match length (0: money play).")] = None,
    score: Annotated[str | None, typer.Option("--score", help="Match score as White,Black.")] = None,
    cube: Annotated[str | None, typer.Option("--cube", help="Cube value, a power of two.")] = None,
    owner: Annotated[str | None, typer.Option("--owner", help="Cube owner: w or b (else centred).")] = None,
    crawford: Annotated[bool, typer.Option("--crawford", help="This game is the Crawford game.")] = False,
) -> None:
    """Convert a TPN to gnubg's Position ID and Match ID, or IDs to a TPN."""
    if text is not None:
        reject_option_like(text)
    options = MatchOptions(length, score, cube, owner, crawford)
    with clear_errors():
        sys.stdout.write(_run(text, position_id, match_id, side, game, options))


def _run(
    text: str | None,
    position_id: str | None,
    match_id: str | None,
    side: str | None,
    game: str,
    options: MatchOptions,
) -> str:
    if text is not None and " " in text.strip():
        if position_id is not None or match_id is not None:
            raise NotationError("input", text, "give either a TPN or --position-id, not both")
        return ids_of(text, options)
    given = options.given()
    if given:
        raise NotationError(*given[0], "match options go with a TPN; a Match ID carries them itself")
    if text is not None:
        if position_id is not None:
            raise NotationError("input", text, "give the Position ID once (argument or --position-id)")
        position_id, in_text = split_gnubg_id(text)
        if in_text is not None:
            if match_id is not None:
                raise NotationError("match id", match_id, "the argument already has a Match ID")
            match_id = in_text
    if position_id is None:
        raise NotationError("input", "", "give a TPN, a Position ID or --position-id")
    return tpn_of(position_id.strip(), match_id.strip() if match_id else None, side, game)


def register(app: typer.Typer) -> None:
    app.command("convert", context_settings=POSITION_ARGUMENT)(convert)
