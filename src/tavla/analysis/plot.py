"""The equity over a reviewed match as a PNG (matplotlib, the ``train`` extra)."""

from __future__ import annotations

from pathlib import Path

from tavla.analysis.report import Analysis


def plot_equity(analysis: Analysis, path: Path, names: tuple[str, str]) -> Path:
    """White's cubeless equity after each turn played, game after game; marked turns
    drawn over the line (errors orange, blunders red)."""
    import matplotlib

    matplotlib.use("Agg")  # no display: analysis runs in terminals and on servers
    import matplotlib.pyplot as plt

    xs = list(range(1, len(analysis.moves) + 1))
    ys = [review.played_equity if review.seat == 0 else -review.played_equity for review in analysis.moves]
    figure, axes = plt.subplots(figsize=(9, 4))
    axes.plot(xs, ys, color="#345", linewidth=1.2)
    axes.axhline(0.0, color="grey", linewidth=0.8)
    for index, review in enumerate(analysis.moves):
        if index and review.game_number != analysis.moves[index - 1].game_number:
            axes.axvline(index + 0.5, color="#bbb", linewidth=0.8, linestyle="--")
        colour = {"error": "orange", "blunder": "red"}.get(review.mark)
        if colour:
            axes.plot(xs[index], ys[index], "o", color=colour)
    axes.set_xlabel("turn")
    axes.set_ylabel(f"equity for {names[0]}")
    axes.set_ylim(-3.1, 3.1)
    axes.set_title(f"{analysis.game}: {names[0]} v {names[1]}")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
