"""The board of a dice-game position as an SVG image (plain text, no dependency).

Same picture as the terminal board: points numbered for the side to act, his home
board at the bottom right, the bar in the middle, the off trays on the right.
Checkers are ``<circle class="checker white|black">`` (``pinned`` added for a tapa
checker under a stack); a stack taller than five shows its count on the fifth.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from tavla.render.board import (
    COLOUR_NAMES,
    BoardView,
    Checker,
    extra_lines,
    player_summary,
    status_line,
)

POINT_WIDTH = 40
RADIUS = 18
STACK = 5
"""Checkers drawn per point; a taller stack shows its count on the last one."""
HALF_HEIGHT = 2 * RADIUS * STACK
GAP = 60
MARGIN = 20
BAR_WIDTH = 48
TRAY_WIDTH = 48
HEADER = 50
BOARD_TOP = HEADER + 20
BOARD_HEIGHT = 2 * HALF_HEIGHT + GAP
BOARD_LEFT = MARGIN
HALF_WIDTH = 6 * POINT_WIDTH
BAR_LEFT = BOARD_LEFT + HALF_WIDTH
RIGHT_LEFT = BAR_LEFT + BAR_WIDTH
TRAY_LEFT = RIGHT_LEFT + HALF_WIDTH + 8
WIDTH = TRAY_LEFT + TRAY_WIDTH + MARGIN
MIDDLE = BOARD_TOP + BOARD_HEIGHT / 2

FILL = ("#f4efe2", "#2b2b2b")
STROKE = ("#6b5b45", "#000000")
LABEL = ("#2b2b2b", "#f4efe2")
CLASS = ("white", "black")
TRIANGLE = ("#b5653b", "#d9c49a")

STYLE = """
text { font-family: sans-serif; }
.title { font-size: 18px; font-weight: bold; fill: #222; }
.number { font-size: 12px; fill: #333; text-anchor: middle; }
.count { font-size: 14px; font-weight: bold; text-anchor: middle; dominant-baseline: central; }
.info { font-size: 13px; fill: #222; }
.tray-label { font-size: 12px; fill: #f4efe2; text-anchor: middle; }
.pinned { stroke: #d62828; stroke-width: 3; }
"""


def _attrs(**values: object) -> str:
    return " ".join(
        f"{key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}" for key, value in values.items()
    )


def _el(tag: str, text: str | None = None, /, **values: object) -> str:
    if text is None:
        return f"<{tag} {_attrs(**values)}/>"
    return f"<{tag} {_attrs(**values)}>{escape(text)}</{tag}>"


def _point_x(point: int) -> float:
    """Left edge of the viewer's ``point``: 13-24 along the top, 12-1 along the bottom."""
    column = point - 13 if point >= 13 else 12 - point
    left = BOARD_LEFT if column < 6 else RIGHT_LEFT
    return left + (column % 6) * POINT_WIDTH


def _checker(cx: float, cy: float, checker: Checker, label: str | None = None) -> list[str]:
    css = f"checker {CLASS[checker.colour]}" + (" pinned" if checker.pinned else "")
    stroke = {} if checker.pinned else {"stroke": STROKE[checker.colour], "stroke_width": 1.5}
    parts = [_el("circle", cx=cx, cy=cy, r=RADIUS - 1, fill=FILL[checker.colour], class_=css, **stroke)]
    if label is not None:
        parts.append(_el("text", label, x=cx, y=cy, class_="count", fill=LABEL[checker.colour]))
    return parts


def _stack(cx: float, edge: float, direction: int, checkers: list[Checker]) -> list[str]:
    """Checkers from ``edge`` towards the middle (``direction`` +1 down, -1 up)."""
    parts: list[str] = []
    shown = checkers[:STACK]
    for height, checker in enumerate(shown):
        cy = edge + direction * (RADIUS + 2 * RADIUS * height)
        label = None
        if height == STACK - 1 and len(checkers) > STACK:
            top = checkers[-1]
            label = str(sum(1 for c in checkers if c.colour == top.colour and not c.pinned))
            checker = top
        parts.extend(_checker(cx, cy, checker, label))
    return parts


def _points(view: BoardView) -> list[str]:
    parts: list[str] = []
    bottom = BOARD_TOP + BOARD_HEIGHT
    for point in range(1, 25):
        left = _point_x(point)
        top_row = point >= 13
        base, tip = (
            (BOARD_TOP, BOARD_TOP + HALF_HEIGHT - 10) if top_row else (bottom, bottom - HALF_HEIGHT + 10)
        )
        shape = f"{left},{base} {left + POINT_WIDTH},{base} {left + POINT_WIDTH / 2},{tip}"
        parts.append(_el("polygon", points=shape, fill=TRIANGLE[point % 2], class_="point"))
        number_y = BOARD_TOP - 6 if top_row else bottom + 16
        parts.append(_el("text", str(point), x=left + POINT_WIDTH / 2, y=number_y, class_="number"))
        direction = 1 if top_row else -1
        parts.extend(_stack(left + POINT_WIDTH / 2, base, direction, view.checkers(point)))
    return parts


def _bar_and_trays(view: BoardView) -> list[str]:
    mover, other = view.viewer, 1 - view.viewer
    parts = [
        _el(
            "rect",
            x=BAR_LEFT,
            y=BOARD_TOP,
            width=BAR_WIDTH,
            height=BOARD_HEIGHT,
            fill="#5a3b22",
            class_="bar",
        ),
        _el("text", "BAR", x=BAR_LEFT + BAR_WIDTH / 2, y=MIDDLE + 4, class_="tray-label"),
    ]
    centre = BAR_LEFT + BAR_WIDTH / 2
    parts.extend(_stack(centre, MIDDLE - 12, -1, [Checker(other, False)] * view.bar[other]))
    parts.extend(_stack(centre, MIDDLE + 12, 1, [Checker(mover, False)] * view.bar[mover]))
    parts.append(
        _el(
            "rect",
            x=TRAY_LEFT,
            y=BOARD_TOP,
            width=TRAY_WIDTH,
            height=BOARD_HEIGHT,
            fill="#5a3b22",
            class_="tray",
        )
    )
    parts.append(_el("text", "OFF", x=TRAY_LEFT + TRAY_WIDTH / 2, y=MIDDLE + 4, class_="tray-label"))
    for player, top in ((other, True), (mover, False)):
        count = view.off[player]
        for index in range(count):
            y = BOARD_TOP + 4 + index * 9 if top else BOARD_TOP + BOARD_HEIGHT - 12 - index * 9
            parts.append(
                _el(
                    "rect",
                    x=TRAY_LEFT + 6,
                    y=y,
                    width=TRAY_WIDTH - 12,
                    height=8,
                    rx=2,
                    fill=FILL[player],
                    stroke=STROKE[player],
                    class_=f"off {CLASS[player]}",
                )
            )
        if count:
            label_y = BOARD_TOP + 4 + count * 9 + 14 if top else BOARD_TOP + BOARD_HEIGHT - 12 - count * 9 - 4
            parts.append(
                _el("text", str(count), x=TRAY_LEFT + TRAY_WIDTH / 2, y=label_y, class_="tray-label")
            )
    return parts


PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _dice(view: BoardView) -> list[str]:
    if view.dice is None:
        return []
    size = 34
    parts: list[str] = []
    colour = view.side
    for index, value in enumerate(sorted(view.dice, reverse=True)):  # the higher die first
        x = RIGHT_LEFT + HALF_WIDTH / 2 - size - 6 + index * (size + 12)
        y = MIDDLE - size / 2
        parts.append(
            _el(
                "rect",
                x=x,
                y=y,
                width=size,
                height=size,
                rx=6,
                fill=FILL[colour],
                stroke=STROKE[colour],
                stroke_width=1.5,
                class_="die",
                data_value=value,
            )
        )
        for dx, dy in PIPS[value]:
            parts.append(
                _el(
                    "circle",
                    cx=x + size / 2 + dx * 9,
                    cy=y + size / 2 + dy * 9,
                    r=3.5,
                    fill=LABEL[colour],
                    class_="pip",
                )
            )
    return parts


def board_svg(view: BoardView) -> str:
    """The SVG document for ``view``."""
    info = [player_summary(view, view.viewer), player_summary(view, 1 - view.viewer), *extra_lines(view)]
    if any(len(stack) > 1 for stack in view.points):
        info.append("A checker ringed in red is pinned under the stack above it.")
    height = BOARD_TOP + BOARD_HEIGHT + 30 + 18 * len(info) + MARGIN
    body = [
        _el("rect", x=0, y=0, width=WIDTH, height=height, fill="#faf7f0"),
        _el("text", f"{view.game}: {status_line(view)}", x=MARGIN, y=30, class_="title"),
        _el(
            "rect",
            x=BOARD_LEFT,
            y=BOARD_TOP,
            width=2 * HALF_WIDTH + BAR_WIDTH,
            height=BOARD_HEIGHT,
            fill="#efe0bf",
            stroke="#5a3b22",
            stroke_width=2,
        ),
        *_points(view),
        *_bar_and_trays(view),
        *_dice(view),
    ]
    y = BOARD_TOP + BOARD_HEIGHT + 40
    for line in info:
        body.append(_el("text", line, x=MARGIN, y=y, class_="info"))
        y += 18
    body.append(
        _el(
            "text",
            f"Points numbered for {COLOUR_NAMES[view.viewer]}, who moves from 24 towards 1.",
            x=MARGIN,
            y=y,
            class_="info",
        )
    )
    header = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height + 18}" '
        f'viewBox="0 0 {WIDTH} {height + 18}">'
    )
    return "\n".join([header, f"<style>{STYLE}</style>", *body, "</svg>"]) + "\n"
