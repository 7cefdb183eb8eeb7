"""The stores the processes share: a throwaway PostgreSQL cluster and a Redis."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
from pathlib import Path

from tavla.cluster.process import Component, ComponentError, spawn, wait_until

DATABASE = "tavla"


def postgres_bin() -> Path:
    """The newest installed PostgreSQL's programs (Debian's layout, else the PATH)."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: int(path.parent.name.split(".")[0])
    )
    if versions and (versions[-1] / "initdb").exists():
        return versions[-1]
    found = shutil.which("initdb")
    if found is None:
        raise ComponentError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    return Path(found).parent


class Postgres(Component):
    """A PostgreSQL cluster of its own in ``folder/data``, on loopback only.

    As root, it runs as the ``postgres`` user (PostgreSQL refuses root). ``fsync`` is
    off: the cluster is for trying things and measuring, and its data is thrown away.
    """

    name = "postgres"
    stop_signal = signal.SIGINT  # "fast" shutdown: open sessions are ended, not waited for

    def __init__(self, folder: Path, port: int) -> None:
        super().__init__(folder)
        self.port = port
        self.bin = postgres_bin()
        self.user = "postgres" if os.geteuid() == 0 else None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def server_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.server_url}/{DATABASE}"

    def _own(self, path: Path) -> None:
        if self.user is not None:
            account = pwd.getpwnam(self.user)
            os.chown(path, account.pw_uid, account.pw_gid)

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        self._own(self.folder)
        if not (self.data / "PG_VERSION").exists():
            initdb = [str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]
            done = subprocess.run(initdb, user=self.user, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                hint = ""
                if self.user is not None and "Permission denied" in done.stderr:
                    hint = (
                        f" (PostgreSQL runs as {self.user}: every folder above {self.folder} must let it in)"
                    )
                raise ComponentError(f"initdb failed: {done.stderr.strip()[-500:]}{hint}")
        command = [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port)]
        command += ["-k", str(self.folder), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]
        command += ["-c", "max_connections=300"]  # a pool of each server process
        self.process = spawn(command, self.log, user=self.user)
        wait_until(self._answers, 60, "PostgreSQL", lambda: self.running)
        self._create_database()

    def _answers(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(f"{self.server_url}/postgres", connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def _create_database(self) -> None:
        import psycopg

        with psycopg.connect(f"{self.server_url}/postgres", autocommit=True) as connection:
            found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,))
            if found.fetchone() is None:
                connection.execute(f'CREATE DATABASE "{DATABASE}"')


class Redis(Component):
    """redis-server on loopback, keeping nothing on disk: pub/sub is all the site uses."""

    name = "redis"

    def __init__(self, folder: Path, port: int) -> None:
        super().__init__(folder)
        self.port = port

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        binary = shutil.which("redis-server") or "/usr/sbin/redis-server"
        if not Path(binary).exists():
            raise ComponentError("redis-server is not installed (Debian: apt-get install redis-server)")
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.folder)]
        self.process = spawn(command, self.log)
        wait_until(self._answers, 20, "Redis", lambda: self.running)

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False
