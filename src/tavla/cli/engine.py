"""``tavla engine``: serve the engine line protocol on standard input and output."""

from __future__ import annotations

import typer

from tavla.engine.server import main as serve


def engine() -> None:
    """Answer engine requests, one JSON object per line (see docs/engine-protocol.md)."""
    serve()


def register(app: typer.Typer) -> None:
    app.command("engine")(engine)
