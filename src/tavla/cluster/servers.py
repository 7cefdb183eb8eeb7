"""The ``tavla serve`` processes of a cluster and the nginx in front of them."""

from __future__ import annotations

import os
import shutil
import signal
import sys
from importlib import resources
from pathlib import Path
from string import Template

import httpx

from tavla.cluster.process import Component, ComponentError, spawn, wait_until

# ``python -c`` rather than the ``tavla`` script: it works wherever the package imports.
_TAVLA = [sys.executable, "-c", "from tavla.cli.main import main; main()"]


class TavlaServer(Component):
    """One ``tavla serve`` process on loopback; its settings come from ``env``."""

    def __init__(self, folder: Path, index: int, port: int, env: dict[str, str]) -> None:
        super().__init__(folder)
        self.index = index
        self.port = port
        self.env = env
        self.name = f"server-{index}"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> None:
        """Start without waiting (``wait_ready`` waits), so that several start at once."""
        self.folder.mkdir(parents=True, exist_ok=True)
        command = [*_TAVLA, "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        self.process = spawn(command, self.log, env=self.env)

    def wait_ready(self, seconds: float = 120) -> None:
        wait_until(self._answers, seconds, f"{self.name} (see {self.log})", lambda: self.running, self.log)

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def _answers(self) -> bool:
        try:
            response = httpx.get(f"{self.url}/api/health", timeout=2)
        except httpx.HTTPError:
            return False
        return response.status_code == 200 and response.json().get("process", {}).get("pid") == self.pid


def nginx_binary() -> str:
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(found).exists():
        raise ComponentError("nginx is not installed (Debian: apt-get install nginx)")
    return found


def nginx_config(folder: Path, host: str, port: int, upstream_ports: list[int], workers: int = 1) -> str:
    """nginx.conf for a balancer on ``host:port`` over the servers of ``upstream_ports``."""
    template = resources.files("tavla.cluster").joinpath("nginx.conf.template").read_text(encoding="utf-8")
    servers = "\n".join(f"        server 127.0.0.1:{port};" for port in upstream_ports)
    return Template(template).substitute(
        folder=folder, host=host, port=port, servers=servers, workers=workers, connections=16384
    )


class Nginx(Component):
    """The balancer: nginx in the foreground, its files all in ``folder``."""

    name = "nginx"
    stop_signal = signal.SIGTERM  # fast: open websockets are closed, their clients reconnect

    def __init__(
        self, folder: Path, host: str, port: int, upstream_ports: list[int], workers: int = 1
    ) -> None:
        super().__init__(folder)
        self.host = host
        self.port = port
        self.upstream_ports = upstream_ports
        self.workers = workers

    @property
    def url(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return f"http://{shown}:{self.port}"

    @property
    def config(self) -> Path:
        return self.folder / "nginx.conf"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)  # as root, the workers run as an unprivileged user
        text = nginx_config(self.folder, self.host, self.port, self.upstream_ports, self.workers)
        self.config.write_text(text, encoding="utf-8")
        # -e: the error log before the configuration is read (the default one may be unwritable).
        command = [nginx_binary(), "-e", str(self.folder / "nginx-error.log"), "-p", str(self.folder)]
        command += ["-c", str(self.config), "-g", "daemon off;"]
        self.process = spawn(command, self.log, env=dict(os.environ))
        wait_until(self._answers, 20, f"nginx (see {self.log})", lambda: self.running)

    def _answers(self) -> bool:
        try:
            httpx.get(f"{self.url}/api/health", timeout=2)
        except httpx.HTTPError:
            return False
        return True
