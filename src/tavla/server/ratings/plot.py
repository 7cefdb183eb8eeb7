"""A rating history as an SVG line chart, drawn on the server (no script on the page).

One point per rating the player held: the starting value, then the value after each
change. The points are spaced evenly, not by time (a tournament's rounds come minutes
apart, and months may pass between tournaments); the dates under the axis name the
changes they stand under.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 10, 30
"""The plot area's margins: room for the rating labels left and the dates below."""
MAX_DATE_LABELS = 3
"""The first, the middle and the last: more would overlap on a phone."""


@dataclass(frozen=True)
class PlotPoint:
    rating: float
    t_ms: int


@dataclass(frozen=True)
class Plot:
    svg: str
    points: tuple[tuple[float, float], ...]
    """The points' coordinates in the SVG's own units, for the tests."""


def _nice_step(span: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about four ticks."""
    raw = max(span, 1.0) / 4.0
    power = 10.0 ** math.floor(math.log10(raw))
    return next(power * m for m in (1.0, 2.0, 5.0, 10.0) if power * m >= raw)


def day(t_ms: int) -> str:
    return datetime.fromtimestamp(t_ms / 1000, tz=UTC).strftime("%Y-%m-%d")


def history_plot(points: list[PlotPoint], label: str) -> Plot:
    """The chart of ``points`` (at least one), titled ``label`` for screen readers."""
    if not points:
        raise ValueError("a rating history has at least its starting point")
    ratings = [p.rating for p in points]
    low, high = min(ratings), max(ratings)
    step = _nice_step(high - low)
    axis_low = math.floor(low / step) * step
    axis_high = math.ceil(high / step) * step
    if axis_high == axis_low:
        axis_low, axis_high = axis_low - step, axis_high + step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(index: int) -> float:
        return LEFT + (inner_w / 2 if len(points) == 1 else inner_w * index / (len(points) - 1))

    def y_of(rating: float) -> float:
        return TOP + inner_h * (axis_high - rating) / (axis_high - axis_low)

    coords = tuple((round(x_of(i), 1), round(y_of(p.rating), 1)) for i, p in enumerate(points))
    parts = [
        f'<svg class="rating-plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}"'
        ' xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(label)}</title>",
    ]
    tick = axis_low
    while tick <= axis_high + step / 2:
        y = round(y_of(tick), 1)
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}"/>')
        parts.append(f'<text class="y-label" x="{LEFT - 6}" y="{y + 4}" text-anchor="end">{tick:.0f}</text>')
        tick += step
    parts.append(
        f'<line class="axis" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}"/>'
    )
    for index in _date_label_indexes(points):
        x = coords[index][0]
        anchor = (
            "middle"
            if len(points) == 1
            else "start"
            if index == 0
            else "end"
            if index == len(points) - 1
            else "middle"
        )
        parts.append(
            f'<text class="x-label" x="{x}" y="{HEIGHT - BOTTOM + 17}" text-anchor="{anchor}">'
            f"{day(points[index].t_ms)}</text>"
        )
    if len(coords) > 1:
        path = " ".join(f"{x},{y}" for x, y in coords)
        parts.append(f'<polyline class="line" points="{path}"/>')
    for (x, y), point in zip(coords, points, strict=True):
        parts.append(
            f'<circle class="point" cx="{x}" cy="{y}" r="3"><title>{point.rating:.0f}</title></circle>'
        )
    parts.append("</svg>")
    return Plot("".join(parts), coords)


def _date_label_indexes(points: list[PlotPoint]) -> list[int]:
    """Up to three evenly spread points to date, the first among them; a date already
    written by the label before is not written again."""
    count = min(MAX_DATE_LABELS, len(points))
    if count == 1:
        return [0]
    kept: list[int] = []
    for index in sorted({round(i * (len(points) - 1) / (count - 1)) for i in range(count)}):
        if not kept or day(points[kept[-1]].t_ms) != day(points[index].t_ms):
            kept.append(index)
    return kept
