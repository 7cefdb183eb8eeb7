"""``tavla play abluka`` reaches the Abluka game loop with the engine."""

from __future__ import annotations

from typer.testing import CliRunner

from tavla.cli.main import app


def test_play_abluka_against_the_engine_then_quit() -> None:
    result = CliRunner().invoke(
        app, ["play", "abluka", "--level", "beginner", "--movetime-ms", "50", "--color", "w"], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "White plays" not in result.output  # Black (the engine) moves first
    assert "Black plays" in result.output
    assert "Game abandoned." in result.output


def test_play_unknown_game_is_one_clear_line() -> None:
    result = CliRunner().invoke(app, ["play", "shogi"])
    assert result.exit_code == 2
    assert "shogi" in result.output
