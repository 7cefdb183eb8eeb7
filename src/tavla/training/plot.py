"""The strength log as a PNG (matplotlib, from the ``train`` extra)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def plot_log(rows: Sequence[dict[str, Any]], path: Path, title: str) -> Path:
    """Win rate and points per game (with the 95% interval) against games trained."""
    import matplotlib

    matplotlib.use("Agg")  # no display: training runs in terminals and on servers
    import matplotlib.pyplot as plt

    games = [int(row["games"]) for row in rows]
    ppg = [float(row["ppg"]) for row in rows]
    ci = [float(row["ppg_ci95"]) for row in rows]
    wins = [float(row["win_rate"]) for row in rows]
    figure, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
    top.plot(games, wins, marker="o")
    top.axhline(0.5, color="grey", linewidth=0.8)
    top.set_ylabel("win rate")
    top.set_ylim(0, 1)
    top.set_title(title)
    bottom.errorbar(games, ppg, yerr=ci, marker="o", capsize=3)
    bottom.axhline(0.0, color="grey", linewidth=0.8)
    bottom.set_ylabel("points per game")
    bottom.set_xlabel("self-play games")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
