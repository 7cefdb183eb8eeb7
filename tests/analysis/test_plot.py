"""The equity plot of ``tavla analyze --plot`` (docs/analysis.md): what it draws, read
back from the figure rather than from the picture's bytes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tavla.analysis.checker import MoveReview
from tavla.analysis.report import Analysis, PlayerSummary

pytest.importorskip("matplotlib")

import matplotlib.pyplot as plt
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D

from tavla.analysis.plot import equity_figure, game_boundaries, plot_equity, seat_0_equities

NAMES = ("Ayşe", "Boyan")


def xs(line: Line2D) -> list[float]:
    return [float(x) for x in np.asarray(line.get_xdata(), dtype=float)]


def ys(line: Line2D) -> list[float]:
    return [float(y) for y in np.asarray(line.get_ydata(), dtype=float)]


def review(game: int, seat: int, played: float, lost: float = 0.0) -> MoveReview:
    """A turn of ``seat`` that left him ``played`` and gave up ``lost`` against the best."""
    return MoveReview(
        game_number=game,
        action_index=0,
        seat=seat,
        before="",
        played="8/5 6/5",
        best="13/10 13/10",
        played_equity=played,
        best_equity=played + lost,
        alternatives=(),
        forced=False,
        plies=0,
    )


MOVES = [
    review(1, 0, 0.25),
    review(1, 1, 0.5, lost=0.2),  # a blunder by the second seat
    review(1, 0, -1.0, lost=0.1),  # an error by the first
    review(2, 1, 2.0, lost=0.05),  # doubtful: not drawn
    review(2, 0, 0.75),
    review(3, 1, -0.5, lost=0.3),  # another blunder: the legend names it once
]


@pytest.fixture(autouse=True)
def close_figures() -> object:
    yield
    plt.close("all")


ANALYSIS = Analysis("tabla", 0, MOVES, [], [], (PlayerSummary(0, NAMES[0]), PlayerSummary(1, NAMES[1])))


@pytest.mark.timeout(30)
def test_the_line_is_the_first_seats_equity_after_each_turn() -> None:
    assert seat_0_equities(ANALYSIS) == [0.25, -0.5, -1.0, -2.0, 0.75, 0.5]
    figure = equity_figure(ANALYSIS, NAMES)
    line = figure.axes[0].lines[0]
    assert xs(line) == [1, 2, 3, 4, 5, 6]
    assert ys(line) == [0.25, -0.5, -1.0, -2.0, 0.75, 0.5]


@pytest.mark.timeout(30)
def test_games_are_parted_by_dashed_lines_between_their_turns() -> None:
    assert game_boundaries(ANALYSIS) == [3.5, 5.5]
    assert game_boundaries(Analysis("tabla", 0, MOVES[:3], [], [], ANALYSIS.players)) == []
    assert game_boundaries(Analysis("tabla", 0, MOVES[2:], [], [], ANALYSIS.players)) == [1.5, 3.5]
    axes = equity_figure(ANALYSIS, NAMES).axes[0]
    dashed = [line for line in axes.lines if line.get_linestyle() == "--"]
    assert [xs(line)[0] for line in dashed] == [3.5, 5.5]
    level = [line for line in axes.lines if ys(line) == [0.0, 0.0]]
    assert len(level) == 1  # the line of equal chances


@pytest.mark.timeout(30)
def test_errors_and_blunders_are_drawn_over_the_line_in_their_colours() -> None:
    axes = equity_figure(ANALYSIS, NAMES).axes[0]
    points = [line for line in axes.lines if line.get_marker() == "o"]
    drawn = [(xs(line)[0], ys(line)[0], to_hex(line.get_color())) for line in points]
    assert drawn == [(2, -0.5, to_hex("red")), (3, -1.0, to_hex("orange")), (6, 0.5, to_hex("red"))]
    legend = axes.get_legend()
    assert legend is not None and [text.get_text() for text in legend.get_texts()] == ["blunder", "error"]
    unmarked = Analysis("tabla", 0, [MOVES[0]], [], [], ANALYSIS.players)
    assert equity_figure(unmarked, NAMES).axes[0].get_legend() is None


@pytest.mark.timeout(30)
def test_the_axes_name_the_game_the_players_and_the_scale() -> None:
    axes = equity_figure(ANALYSIS, NAMES).axes[0]
    assert axes.get_title() == "tabla: Ayşe v Boyan"
    assert axes.get_ylabel() == "equity for Ayşe"
    assert axes.get_xlabel() == "turn"
    assert axes.get_ylim() == (-3.1, 3.1)  # a backgammon's three points either way


@pytest.mark.timeout(30)
def test_the_plot_is_a_png_file_at_the_path_given(tmp_path: Path) -> None:
    path = tmp_path / "equity.png"
    assert plot_equity(ANALYSIS, path, NAMES) == path
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
