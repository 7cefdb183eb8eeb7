"""TPN checks shared by tapa, gulbara and indiyka (RULES.md 1.2)."""

from __future__ import annotations

from collections.abc import Sequence

from tavla.core.errors import NotationError
from tavla.core.registry import game_names
from tavla.rules import tpn


def split_for_game(text: str, game: str) -> tpn.TpnFields:
    """The fields of a TPN line that must name ``game``."""
    fields = tpn.split_tpn(text, tuple(game_names()))
    if fields.name != game:
        raise NotationError("game", fields.game, f"expected {game}")
    return fields


def split_without_bar(text: str, game: str, extras: tuple[str, ...] = ()) -> tpn.TpnFields:
    """The fields of a TPN line of ``game``, a game with no bar and only ``extras``."""
    fields = split_for_game(text, game)
    reject_bar(fields)
    reject_extras(fields, extras)
    return fields


def reject_bar(fields: tpn.TpnFields) -> None:
    if fields.bar != (0, 0):
        raise NotationError(
            "bar", f"{fields.bar[0]},{fields.bar[1]}", f"{fields.name} has no bar: expected 0,0"
        )


def reject_extras(fields: tpn.TpnFields, allowed: tuple[str, ...] = ()) -> None:
    for key, value in fields.extras.items():
        if key not in allowed:
            raise NotationError("extra field", f"{key}={value}", f"{fields.name} has no {key}= field")


def single_colour_points(fields: tpn.TpnFields) -> tuple[int, ...]:
    """Signed counts (White positive) of a game where a point holds one colour only."""
    points: list[int] = []
    for index, stack in enumerate(fields.points):
        if len(stack) > 1:
            raise NotationError(
                f"point {index + 1}", tpn.format_stack(stack), f"{fields.name} has no pinned checkers"
            )
        count, colour = stack[0] if stack else (0, 0)
        points.append(count if colour == 0 else -count)
    return tuple(points)


def check_total(fields: tpn.TpnFields, player: int, on_points: int, expected: int, exact: bool) -> None:
    """Check a player's checker count: exactly ``expected``, or at most (indiyka)."""
    letter = ("White", "Black")[player]
    total = on_points + fields.off[player]
    if total > expected or (exact and total != expected):
        raise NotationError(
            "checkers",
            f"{letter} {total}",
            f"{letter} has {on_points} on points and {fields.off[player]} off: "
            f"{total}, expected {'' if exact else 'at most '}{expected}",
        )


def single_colour_stacks(points: Sequence[int]) -> tuple[tpn.Stack, ...]:
    return tuple(((n, 0),) if n > 0 else ((-n, 1),) if n < 0 else () for n in points)
