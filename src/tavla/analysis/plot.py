"""The equity over a reviewed match as a PNG (matplotlib, the ``train`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tavla.analysis.report import Analysis

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MARK_COLOURS = {"error": "orange", "blunder": "red"}
"""The marks drawn over the line, and their colours; doubtful turns are not drawn."""


def seat_0_equities(analysis: Analysis) -> list[float]:
    """The first seat's cubeless equity after each turn played, in the record's order."""
    return [review.played_equity if review.seat == 0 else -review.played_equity for review in analysis.moves]


def game_boundaries(analysis: Analysis) -> list[float]:
    """Where one game's turns end and the next game's begin, on the plot's turn axis."""
    games = [review.game_number for review in analysis.moves]
    return [index + 0.5 for index in range(1, len(games)) if games[index] != games[index - 1]]


def equity_figure(analysis: Analysis, names: tuple[str, str]) -> Figure:
    """The first seat's equity after each turn played, game after game, with the games'
    boundaries dashed and the errors and blunders drawn over the line."""
    import matplotlib

    matplotlib.use("Agg")  # no display: analysis runs in terminals and on servers
    import matplotlib.pyplot as plt

    xs = list(range(1, len(analysis.moves) + 1))
    ys = seat_0_equities(analysis)
    figure, axes = plt.subplots(figsize=(9, 4))
    axes.plot(xs, ys, color="#345", linewidth=1.2)
    axes.axhline(0.0, color="grey", linewidth=0.8)
    for boundary in game_boundaries(analysis):
        axes.axvline(boundary, color="#bbb", linewidth=0.8, linestyle="--")
    labelled: set[str] = set()
    for x, y, review in zip(xs, ys, analysis.moves, strict=True):
        colour = MARK_COLOURS.get(review.mark)
        if colour:
            label = review.mark if review.mark not in labelled else None
            labelled.add(review.mark)
            axes.plot(x, y, "o", color=colour, label=label)
    if labelled:
        axes.legend(loc="upper left")
    axes.set_xlabel("turn")
    axes.set_ylabel(f"equity for {names[0]}")
    axes.set_ylim(-3.1, 3.1)
    axes.set_title(f"{analysis.game}: {names[0]} v {names[1]}")
    figure.tight_layout()
    return figure


def plot_equity(analysis: Analysis, path: Path, names: tuple[str, str]) -> Path:
    """:func:`equity_figure` written to ``path`` as a PNG."""
    import matplotlib.pyplot as plt

    figure = equity_figure(analysis, names)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
