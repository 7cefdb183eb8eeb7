"""``tavla cluster``: several server processes behind nginx on this machine (docs/deploy.md)."""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer


def cluster(
    processes: Annotated[int, typer.Option(min=1, max=64, help="How many tavla serve processes.")] = 3,
    port: Annotated[
        int, typer.Option(min=1, max=65000, help="nginx's port; the processes take the next free ones.")
    ] = 8000,
    host: Annotated[str, typer.Option(help="Address nginx listens on.")] = "127.0.0.1",
    state_dir: Annotated[
        Path | None,
        typer.Option(
            help="Logs, configuration and PostgreSQL's data (default: a temporary folder, removed)."
        ),
    ] = None,
    database_url: Annotated[
        str | None, typer.Option(help="An existing PostgreSQL database instead of a cluster of its own.")
    ] = None,
    redis_url: Annotated[
        str | None, typer.Option(help="An existing Redis instead of one of its own.")
    ] = None,
) -> None:
    """Run PostgreSQL, Redis, N tavla serve processes and nginx in front of them, until Ctrl-C."""
    try:
        from rich.console import Console
        from rich.table import Table

        from tavla.cluster import Cluster, ClusterOptions, ComponentError
    except ImportError as error:
        typer.echo(
            f"tavla cluster needs the server's packages: pip install 'tavla[server]' ({error.name})", err=True
        )
        raise typer.Exit(2) from None
    console = Console()
    options = ClusterOptions(processes, port, host, state_dir, database_url, redis_url)
    stopping = threading.Event()

    def stop_on(number: int, _frame: FrameType | None) -> None:
        stopping.set()

    try:
        the_cluster = Cluster(options)
    except (ComponentError, ValueError, OSError) as error:
        typer.echo(f"tavla cluster: {error}", err=True)
        raise typer.Exit(1) from None
    previous = {number: signal.signal(number, stop_on) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        # A line, not a spinner: the spinner's thread would run while children fork.
        console.print(f"starting in {the_cluster.folder} ...")
        the_cluster.start()
    except (ComponentError, ValueError, OSError) as error:
        for number, handler in previous.items():
            signal.signal(number, handler)
        typer.echo(f"tavla cluster: {error} (logs in {the_cluster.folder})", err=True)
        raise typer.Exit(1) from None
    try:
        table = Table(title=f"tavla cluster: {the_cluster.url}  (state: {the_cluster.folder})")
        for heading in ("component", "pid", "port", "URL", "log"):
            table.add_column(heading)
        for component in the_cluster.components:
            address = getattr(component, "port", "")
            url = getattr(component, "url", "")
            table.add_row(component.name, str(component.pid), str(address), url, str(component.log))
        console.print(table)
        console.print("Ctrl-C stops everything.")
        while not stopping.wait(1.0):
            for component in the_cluster.components:
                if not component.running and component.process is not None:
                    console.print(f"[red]{component.name} (pid {component.pid}) exited; see {component.log}")
                    component.process = None
    finally:
        console.print("stopping: nginx, the processes, Redis, PostgreSQL ...")
        the_cluster.stop()
        for number, handler in previous.items():
            signal.signal(number, handler)
    console.print("stopped.")


def register(app: typer.Typer) -> None:
    app.command("cluster")(cluster)
