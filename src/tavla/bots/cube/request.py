"""The cube context of a ``double`` or ``take`` request, from a match given as JSON.

Two forms of ``match`` reach an engine: the protocol's own (docs/engine-protocol.md:
``length``, ``score`` White first, ``cube``, ``owner`` ``"w"``/``"b"``/null,
``crawford`` for the Crawford game, ``jacoby``, ``beavers``) and the server's match
state (docs/json.md: ``settings``, ``score`` by seat, ``crawford``, ``post_crawford``,
``cube`` with its ``owner`` and pending ``offer``; seat 0 plays White in the dice
games). No ``match`` is a money game with a centred cube. Everything becomes a
:class:`~tavla.bots.cube.CubeContext` seen from the doubler, the player on roll. Every
dice game's engine reads its requests with it, and move analysis its records' states.
"""

from __future__ import annotations

from typing import Any

from tavla.bots.cube.context import CubeContext, CubeOwner, CubePosition, MatchScore, Money
from tavla.core.errors import TavlaError

_COLOURS = {"w": 0, "b": 1}


def doubler_of(position: Any, match: dict[str, Any] | None, *, answering: bool) -> int:
    """The colour that doubles (or would): the side to act for ``double``; for ``take``
    the protocol's position shows the taker to act, the server's the doubler, whose
    offer it also names."""
    if not answering:
        return int(position.side)
    cube = match.get("cube") if match is not None and "settings" in match else None
    if isinstance(cube, dict) and isinstance(cube.get("offer"), dict):
        return int(cube["offer"]["by"])
    return 1 - int(position.side)


def cube_context(match: dict[str, Any] | None, doubler: int) -> CubeContext:
    """The context of the decision of ``doubler`` (a colour); TavlaError for a bad match."""
    if match is None:
        return CubeContext()
    try:
        if "settings" in match:
            return _from_match_state(match, doubler)
        return _from_protocol(match, doubler)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise TavlaError(f"match {match!r} cannot be read: {error}") from None


def _from_protocol(match: dict[str, Any], doubler: int) -> CubeContext:
    owner = match.get("owner")
    holder = None if owner is None else _COLOURS[owner]
    cube = CubePosition(int(match.get("cube", 1)), _owner(holder, doubler))
    length = int(match.get("length", 0))
    if length == 0:
        return CubeContext(cube, Money(jacoby=bool(match.get("jacoby")), beavers=bool(match.get("beavers"))))
    score = match["score"]
    away, opp_away = length - int(score[doubler]), length - int(score[1 - doubler])
    crawford = bool(match.get("crawford"))
    # The Crawford game is named; any later game with a side 1-away is after it.
    post = not crawford and 1 in (away, opp_away)
    return CubeContext(cube, MatchScore(away, opp_away, crawford_game=crawford, post_crawford=post))


def _from_match_state(match: dict[str, Any], doubler: int) -> CubeContext:
    settings, cube_json = match["settings"], match["cube"]
    cube = CubePosition(int(cube_json["value"]), _owner(cube_json.get("owner"), doubler))
    length = int(settings["length"])
    if length == 0:
        flags = (bool(settings[name]) for name in ("jacoby", "beavers", "raccoons"))
        return CubeContext(cube, Money(*flags))
    score = match["score"]
    away, opp_away = length - int(score[doubler]), length - int(score[1 - doubler])
    crawford, post = bool(match["crawford"]), bool(match["post_crawford"])
    return CubeContext(cube, MatchScore(away, opp_away, crawford_game=crawford, post_crawford=post))


def _owner(owner: int | None, doubler: int) -> CubeOwner:
    if owner is None:
        return CubeOwner.CENTRED
    return CubeOwner.ME if int(owner) == doubler else CubeOwner.OPPONENT
