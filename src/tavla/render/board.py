"""A dice-game board as a picture sees it: points in the numbering of the side to act.

The model is built from the TPN fields alone (RULES.md 1.2), so every dice game is
drawn the same way: tapa stacks keep their pinned checkers (``1b2w``), indiyka's
checkers that are not yet entered are counted, and gulbara, where both sides move
the same way round the board, is numbered by its own rule (RULES.md 1.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavla.core.definition import Direction
from tavla.core.dice import Roll
from tavla.core.protocol import BLACK, WHITE
from tavla.core.registry import find_game
from tavla.rules import tpn

CHECKERS = 15
"""Checkers per player in every dice game (RULES.md 1.1)."""

COLOUR_NAMES = ("White", "Black")


@dataclass(frozen=True, slots=True)
class Checker:
    colour: int
    pinned: bool


@dataclass(frozen=True)
class BoardView:
    """What a board picture shows. ``points[n - 1]`` is the viewer's point ``n``."""

    game: str
    viewer: int
    points: tuple[tpn.Stack, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    not_entered: tuple[int, int]
    pips: tuple[int, int] | None
    side: int
    dice: Roll | None
    extras: dict[str, str]

    def checkers(self, point: int) -> list[Checker]:
        """The checkers on the viewer's ``point``, bottom first; all but the top run are pinned."""
        stack = self.points[point - 1]
        found: list[Checker] = []
        for index, (count, colour) in enumerate(stack):
            pinned = index < len(stack) - 1
            found.extend(Checker(colour, pinned) for _ in range(count))
        return found


def white_point(point: int, player: int, same_direction: bool) -> int:
    """White's number for ``player``'s point ``point`` (RULES.md 1.1)."""
    if player == WHITE:
        return point
    if same_direction:
        return (point + 11) % 24 + 1
    return 25 - point


def own_point(white: int, player: int, same_direction: bool) -> int:
    """``player``'s number for White's point ``white``: the inverse of :func:`white_point`."""
    if player == WHITE:
        return white
    if same_direction:
        return (white - 12 - 1) % 24 + 1
    return 25 - white


def _pips(fields: tpn.TpnFields, same_direction: bool) -> tuple[int, int]:
    totals = [25 * fields.bar[WHITE], 25 * fields.bar[BLACK]]
    for index, stack in enumerate(fields.points):
        for count, colour in stack:
            totals[colour] += count * own_point(index + 1, colour, same_direction)
    return totals[WHITE], totals[BLACK]


def board_view(notation: str) -> BoardView:
    """The board of a dice-game TPN, seen by the side to act.

    Only the TPN's shape is checked here; reading it as a position of its game
    (checker counts, legal stacks) is the game's job and comes first.
    """
    head = notation.split(" ", 1)[0]
    fields = tpn.split_tpn(notation, (head.partition("(")[0],))
    facts = find_game(fields.name).facts
    same_direction = facts.direction is Direction.SAME
    viewer = fields.side
    points = tuple(fields.points[white_point(point, viewer, same_direction) - 1] for point in range(1, 25))
    on_board = [0, 0]
    for stack in fields.points:
        for count, colour in stack:
            on_board[colour] += count
    not_entered = tuple(
        max(0, CHECKERS - on_board[player] - fields.bar[player] - fields.off[player])
        for player in (WHITE, BLACK)
    )
    return BoardView(
        game=fields.game,
        viewer=viewer,
        points=points,
        bar=fields.bar,
        off=fields.off,
        not_entered=(not_entered[0], not_entered[1]),
        pips=_pips(fields, same_direction) if facts.has_pips else None,
        side=fields.side,
        dice=fields.dice,
        extras=dict(fields.extras),
    )


def roll_text(dice: Sequence[int | str]) -> str:
    """A roll as displays show it, the higher die first: ``6-5``, ``4-4``.

    Records and notations keep their own order; every picture and message uses this."""
    high, low = sorted((int(dice[0]), int(dice[1])), reverse=True)
    return f"{high}-{low}"


def status_line(view: BoardView) -> str:
    """Who acts and how: ``White to play 3-1``, ``Black to roll`` ..."""
    name = COLOUR_NAMES[view.side]
    completing = view.extras.get("c")
    if completing and view.dice is None:
        return f"{name} to complete the opponent's double: {' '.join(completing)}"
    if view.dice is None:
        return f"{name} to roll"
    return f"{name} to play {roll_text(view.dice)}"


def extra_lines(view: BoardView) -> list[str]:
    """Plain-language lines for the extra TPN fields (RULES.md 1.2)."""
    lines: list[str] = []
    completing = view.extras.get("c")
    if completing and view.dice is not None:
        lines.append(f"first to complete the opponent's double: {' '.join(completing)}")
    rolls = view.extras.get("r")
    if rolls:
        white, _, black = rolls.partition(",")
        lines.append(f"rolls made: White {white}, Black {black}")
    for key, value in view.extras.items():
        if key not in ("c", "r"):
            lines.append(f"{key}={value}")
    return lines


def player_summary(view: BoardView, player: int) -> str:
    """``White: pips 167, bar 0, off 0`` (and ``not entered`` where any are)."""
    parts = []
    if view.pips is not None:
        parts.append(f"pips {view.pips[player]}")
    parts.append(f"bar {view.bar[player]}")
    parts.append(f"off {view.off[player]}")
    if any(view.not_entered):
        parts.append(f"not entered {view.not_entered[player]}")
    return f"{COLOUR_NAMES[player]}: {', '.join(parts)}"
