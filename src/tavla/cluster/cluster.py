"""Several ``tavla serve`` processes on one machine, as a site of several would run.

The order is the one a real deployment has: the stores first (PostgreSQL, Redis), the
schema migrated once, the processes, and the balancer last; stopping goes backwards,
so that no process ever loses its database while it still serves.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from tavla.cluster.process import Component, ComponentError, consecutive_free_ports, free_port
from tavla.cluster.servers import Nginx, TavlaServer
from tavla.cluster.stores import Postgres, Redis

# Set here for every process, whatever the environment says: what they must share.
SHARED_SETTINGS = ("TAVLA_DATABASE_URL", "TAVLA_REDIS_URL", "TAVLA_SECRET_KEY")


def bot_workers_each(processes: int) -> int:
    """This machine's cores shared out among the processes' bot workers, at least one
    each: every process would otherwise start one per core (docs/deploy.md, "The bots'
    workers")."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this system
        cores = os.cpu_count() or 1
    return max(1, cores // processes)


@dataclass
class ClusterOptions:
    processes: int = 3
    port: int = 8000
    """The balancer's port; the processes take the first free ones after it."""
    host: str = "127.0.0.1"
    state_dir: Path | None = None
    """Logs, configuration and PostgreSQL's data; None: a temporary folder, removed at stop."""
    database_url: str | None = None
    """An existing database; None: a PostgreSQL cluster of its own in the state folder."""
    redis_url: str | None = None
    nginx_workers: int = 1
    settings: dict[str, str] = field(default_factory=dict)
    """More ``TAVLA_*`` settings for every process (e.g. ``TAVLA_BOT_DELAY_MS``)."""


class Cluster:
    """Start, watch and stop the set; each piece is reachable for fault tests
    (``cluster.servers[1].kill()``, ``cluster.postgres.restart()``, ``cluster.redis.pause()``).
    """

    def __init__(self, options: ClusterOptions) -> None:
        if options.processes < 1:
            raise ValueError("a cluster needs at least one process")
        self.options = options
        self._temporary = options.state_dir is None
        self.folder = (
            Path(tempfile.mkdtemp(prefix="tavla-cluster-"))
            if options.state_dir is None
            else options.state_dir
        )
        if self.folder.exists() and not self.folder.is_dir():
            raise ValueError(f"{self.folder} is a file, not a folder for the cluster's state")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)  # PostgreSQL's and nginx's users must reach their folders
        self.postgres = None if options.database_url else Postgres(self.folder / "postgres", free_port())
        self.redis = None if options.redis_url else Redis(self.folder / "redis", free_port())
        self.secret_key = os.environ.get("TAVLA_SECRET_KEY") or secrets.token_urlsafe(32)
        ports = consecutive_free_ports(options.port + 1, options.processes)
        self.servers = [
            TavlaServer(self.folder / "servers", i + 1, port, self._server_env())
            for i, port in enumerate(ports)
        ]
        self.nginx = Nginx(self.folder / "nginx", options.host, options.port, ports, options.nginx_workers)

    @property
    def database_url(self) -> str:
        if self.postgres is not None:
            return self.postgres.url
        if self.options.database_url is None:
            raise ValueError("no database")
        return self.options.database_url

    @property
    def redis_url(self) -> str:
        if self.redis is not None:
            return self.redis.url
        if self.options.redis_url is None:
            raise ValueError("no redis")
        return self.options.redis_url

    @property
    def url(self) -> str:
        return self.nginx.url

    def _server_env(self) -> dict[str, str]:
        env = {**os.environ, **self.options.settings}
        env.setdefault("TAVLA_BOT_PROCESSES", str(bot_workers_each(self.options.processes)))
        env.update(
            TAVLA_DATABASE_URL=self.database_url,
            TAVLA_REDIS_URL=self.redis_url,
            TAVLA_SECRET_KEY=self.secret_key,
        )
        return env

    @property
    def components(self) -> list[Component]:
        """All of them, in starting order."""
        stores: list[Component] = [c for c in (self.postgres, self.redis) if c is not None]
        return [*stores, *self.servers, self.nginx]

    def start(self) -> None:
        try:
            for store in (self.postgres, self.redis):
                if store is not None:
                    store.start()
            self.migrate()
            for server in self.servers:
                server.launch()
            for server in self.servers:
                server.wait_ready()
            self.nginx.start()
        except BaseException:
            self._stop_components()  # the state folder stays: its logs say what went wrong
            raise

    def migrate(self) -> None:
        """Once, before the processes start, so that they do not all migrate at once."""
        from tavla.storage.database import migrate, open_engine

        async def run() -> None:
            engine = open_engine(self.database_url)
            try:
                await migrate(engine)
            finally:
                await engine.dispose()

        try:
            asyncio.run(run())
        except Exception as error:  # the driver's own errors, many kinds: one message
            from sqlalchemy.engine import make_url

            shown = make_url(self.database_url).render_as_string(hide_password=True)
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise ComponentError(f"could not migrate {shown}: {reason}") from error

    def stop(self) -> None:
        """nginx, the processes, Redis, PostgreSQL: each waited for before the next."""
        self._stop_components()
        if self._temporary:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _stop_components(self) -> None:
        for component in reversed(self.components):
            component.stop()

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()
