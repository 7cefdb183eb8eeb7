"""``tavla show``: draw a position in the terminal, or as an SVG image with ``--svg``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import tavla
from tavla.cli.board_view import GAME_VIEWS, position_renderable
from tavla.cli.errors import POSITION_ARGUMENT, fail, reject_option_like, reports_errors
from tavla.render.board import board_view
from tavla.render.svg import board_svg


@reports_errors
def show(
    position: Annotated[
        str, typer.Argument(help="A position: TPN, or Abluka's notation (docs/notation.md).")
    ],
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Also write the board as an SVG image to this file.")
    ] = None,
) -> None:
    """Draw the board, numbered from the side to act."""
    reject_option_like(position)
    parsed = tavla.from_notation(position)
    if svg is not None:
        if parsed.definition.facts.board in GAME_VIEWS:
            raise fail(f"--svg {svg}: no SVG picture of {parsed.game} yet")
        try:
            svg.write_text(board_svg(board_view(parsed.notation())), encoding="utf-8")
        except OSError as error:
            raise fail(f"--svg {svg}: {error.strerror or error}") from None
    Console(highlight=False).print(position_renderable(parsed))


def register(app: typer.Typer) -> None:
    app.command("show", context_settings=POSITION_ARGUMENT)(show)
