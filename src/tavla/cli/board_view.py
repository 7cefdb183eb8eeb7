"""Drawing positions in the terminal with Rich.

Dice games are drawn from their TPN (:mod:`tavla.render.board`) in the numbering of
the side to act, his home board at the bottom right as in the usual diagrams. Games
with their own picture (Abluka's 7x7 board) are listed in :data:`GAME_VIEWS`.
"""

from __future__ import annotations

import importlib

from rich.console import Console, RenderableType
from rich.text import Text

from tavla.core.definition import BoardKind
from tavla.core.protocol import AnyPosition
from tavla.render.board import (
    COLOUR_NAMES,
    BoardView,
    Checker,
    board_view,
    extra_lines,
    player_summary,
    status_line,
)

GAME_VIEWS: dict[BoardKind, str] = {BoardKind.GRID: "tavla.cli.abluka_view"}
"""Boards drawn by a module of their own: the kind of board to a module with
``render(position)``."""

GLYPHS = ("O", "X")
STYLES = ("bold bright_white", "bold red")
PINNED_STYLE = "reverse"
ROWS = 5
"""Checkers drawn per point; a taller stack shows its count in the last row."""

CELL = 3
TOP_POINTS = tuple(range(13, 25))
BOTTOM_POINTS = tuple(range(12, 0, -1))


def _cells(checkers: list[Checker]) -> list[Text]:
    """A column of ``ROWS`` cells from the board's edge inwards."""
    cells: list[Text] = []
    shown = checkers if len(checkers) <= ROWS else checkers[: ROWS - 1]
    for checker in shown:
        glyph = GLYPHS[checker.colour]
        if checker.pinned:
            cells.append(Text(f"[{glyph}]", style=f"{STYLES[checker.colour]} {PINNED_STYLE}"))
        else:
            cells.append(Text(f" {glyph} ", style=STYLES[checker.colour]))
    if len(checkers) > ROWS:
        top = checkers[-1].colour
        run = sum(1 for checker in checkers if checker.colour == top and not checker.pinned)
        cells.append(Text(f"{run:>2} ", style=STYLES[top]))
    cells.extend(Text(" " * CELL) for _ in range(ROWS - len(cells)))
    return cells


def _tray(count: int, colour: int) -> list[Checker]:
    return [Checker(colour, False)] * count


def _half(view: BoardView, points: tuple[int, ...], bar: int, off: int, top: bool) -> list[Text]:
    """The five rows of the top or bottom half, each from the edge inwards."""
    columns = [_cells(view.checkers(point)) for point in points]
    bar_cells = _cells(_tray(view.bar[bar], bar))  # drawn from the middle outwards
    off_cells = _cells(_tray(view.off[off], off))
    rows: list[Text] = []
    for row in range(ROWS):
        line = Text("|")
        for column in columns[:6]:
            line.append_text(column[row])
        line.append("|")
        line.append_text(bar_cells[ROWS - 1 - row])
        line.append("|")
        for column in columns[6:]:
            line.append_text(column[row])
        line.append("|")
        line.append_text(off_cells[row])
        line.append("|")
        rows.append(line)
    return rows if top else rows[::-1]


def _numbers(points: tuple[int, ...]) -> Text:
    left = "".join(f"{point:>{CELL}}" for point in points[:6])
    right = "".join(f"{point:>{CELL}}" for point in points[6:])
    return Text(f" {left} {' ' * CELL} {right}")


def render_board(view: BoardView) -> Text:
    """The whole picture as styled text (plain when the console has no colours)."""
    mover, other = view.viewer, 1 - view.viewer
    border = "+" + "-" * (6 * CELL) + "+" + "-" * CELL + "+" + "-" * (6 * CELL) + "+" + "-" * CELL + "+"
    middle = "|" + " " * (6 * CELL) + "|BAR|" + " " * (6 * CELL) + "|OFF|"
    lines: list[Text] = [
        Text(f"{view.game}: {status_line(view)}", style="bold"),
        _numbers(TOP_POINTS),
        Text(border),
        *_half(view, TOP_POINTS, bar=other, off=other, top=True),
        Text(middle),
        *_half(view, BOTTOM_POINTS, bar=mover, off=mover, top=False),
        Text(border),
        _numbers(BOTTOM_POINTS),
    ]
    for player in (mover, other):
        line = Text(f"{GLYPHS[player]} ", style=STYLES[player])
        line.append(player_summary(view, player))
        lines.append(line)
    lines.extend(Text(extra) for extra in extra_lines(view))
    if any(view.points[point - 1] and len(view.points[point - 1]) > 1 for point in range(1, 25)):
        lines.append(Text("[X] / [O]: a pinned checker under the stack"))
    lines.append(Text(f"Points numbered for {COLOUR_NAMES[mover]}, who moves from 24 towards 1."))
    return Text("\n").join(lines)


def dice_board(notation: str) -> Text:
    """The terminal picture of a dice-game TPN."""
    return render_board(board_view(notation))


def position_renderable(position: AnyPosition) -> RenderableType:
    """A picture of any game's position: its own view if it has one, else the board."""
    module_name = GAME_VIEWS.get(position.definition.facts.board)
    if module_name is not None:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            return Text(position.notation())
        rendered: RenderableType = module.render(position)
        return rendered
    return dice_board(position.notation())


def print_position(position: AnyPosition, console: Console | None = None) -> None:
    (console or Console(highlight=False)).print(position_renderable(position))
