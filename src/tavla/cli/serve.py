"""``tavla serve``: the online platform on one process (docs/API.md)."""

from __future__ import annotations

from typing import Annotated, Any

import typer


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on (TAVLA_HOST).")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (TAVLA_PORT).")] = None,
    database: Annotated[
        str | None,
        typer.Option(
            "--database", help="Database URL, sqlite:///FILE or postgresql://... (TAVLA_DATABASE_URL)."
        ),
    ] = None,
    production: Annotated[
        bool | None, typer.Option("--production", help="Refuse to start without TAVLA_SECRET_KEY.")
    ] = None,
) -> None:
    """Run the server: lobby, live games and bots in the browser."""
    try:
        import uvicorn

        from tavla.server.app import create_app
        from tavla.server.settings import Settings, SettingsError
    except ImportError as error:
        typer.echo(
            f"the server needs its packages: pip install 'tavla[server]' ({error.name} is missing)", err=True
        )
        raise typer.Exit(2) from None
    overrides: dict[str, Any] = {
        key: value
        for key, value in {
            "host": host,
            "port": port,
            "database_url": database,
            "production": production,
        }.items()
        if value is not None
    }
    try:
        settings = Settings(**overrides)
    except (SettingsError, ValueError) as error:
        typer.echo(f"tavla serve: {_first_line(error)}", err=True)
        raise typer.Exit(2) from None
    try:
        app = create_app(settings)
    except ValueError as error:
        typer.echo(f"tavla serve: {error}", err=True)
        raise typer.Exit(2) from None
    shown_host = "127.0.0.1" if settings.host in ("0.0.0.0", "::") else settings.host
    typer.echo(
        f"Tavla is starting on http://{shown_host}:{settings.port} (database: {_safe(settings.database_url)})"
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        # Board states are a few kilobytes; compressing each one cost the server more
        # CPU than anything but the rules (benchmarks/server_load.py).
        ws_per_message_deflate=False,
        # A frame this large is cut off with 1009 before it is read whole; the handler
        # refuses anything over ws.MAX_MESSAGE anyway (docs/API.md 9).
        ws_max_size=WS_MAX_FRAME,
        log_level="info",
        # X-Forwarded-For is believed from the trusted proxies only (docs/API.md 9).
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies),
    )


WS_MAX_FRAME = 64 * 1024
"""The largest websocket frame the server reads (uvicorn's default is 16 MiB)."""


def _first_line(error: Exception) -> str:
    text = str(error)
    for line in text.splitlines():
        if "Value error, " in line:
            return line.split("Value error, ", 1)[1].split(" [type=")[0]
    return text.splitlines()[0] if text else type(error).__name__


def _safe(url: str) -> str:
    """The URL without its password, for the log."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "?"


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
