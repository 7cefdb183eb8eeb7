"""A child process of the cluster: started, signalled, measured, stopped.

Every component (PostgreSQL, Redis, a server, nginx) is one child process started in
its own session, so that Ctrl-C in the terminal reaches ``tavla cluster`` alone and
the components stop in their order; each child also gets the kernel's parent-death
signal, so that none outlives a ``tavla cluster`` that is itself killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
_PR_SET_PDEATHSIG = 1


class ComponentError(RuntimeError):
    """A component that would not start (its log says why)."""


def free_port(start: int | None = None) -> int:
    """A port of loopback nobody listens on: the first from ``start`` up, or any."""
    if start is None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])
    return consecutive_free_ports(start, 1)[0]


def consecutive_free_ports(start: int, count: int) -> list[int]:
    """``count`` consecutive free ports of loopback, the lowest at ``start`` or above."""
    base = start
    while base + count <= 65536:
        taken = next((port for port in range(base, base + count) if not _free(port)), None)
        if taken is None:
            return list(range(base, base + count))
        base = taken + 1
    raise ComponentError(f"no {count} consecutive free ports from {start}")


def _free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


_LIBC = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


def _die_with_parent() -> None:
    # Runs in the child between fork and exec, after any change of user (which would
    # clear it). libc is loaded beforehand: nothing here takes a lock, and the cluster
    # starts no thread of its own, which is what makes ``preexec_fn`` safe.
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def spawn(
    command: Sequence[str], log: Path, env: dict[str, str] | None = None, user: str | None = None
) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:
        return subprocess.Popen(
            list(command),
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
            user=user,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )


def wait_until(
    ready: Callable[[], bool], seconds: float, what: str, alive: Callable[[], bool], log: Path | None = None
) -> None:
    """Waits for ``ready``; a piece that exits or never answers is an error, which ends
    with the last lines of its ``log`` when given (the log may be gone by the time
    someone reads the error: a test's state folder is removed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive():
            raise ComponentError(f"{what} exited while starting{_last_lines(log)}")
        if ready():
            return
        time.sleep(0.05)
    raise ComponentError(f"{what} did not answer within {seconds:.0f} s{_last_lines(log)}")


def _last_lines(log: Path | None, count: int = 12) -> str:
    if log is None:
        return ""
    try:
        lines = log.read_text(errors="replace").splitlines()[-count:]
    except OSError:
        return ""
    shown = "".join(f"\n    {line}" for line in lines)
    return f":{shown}" if shown else ""


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s process tree, itself first (empty when it is gone)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(text[text.rindex(")") + 2 :].split()[1])
            parents.setdefault(parent, []).append(int(entry.name))
    if not Path(f"/proc/{pid}").exists():
        return []
    tree, index = [pid], 0
    while index < len(tree):
        tree.extend(parents.get(tree[index], []))
        index += 1
    return tree


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid``'s tree so far: the living processes', and
    what the children it has already reaped used (``cutime``/``cstime`` of each)."""
    total = 0
    for member in children(pid):
        try:
            text = Path(f"/proc/{member}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / TICKS


def tree_rss_mib(pid: int) -> float:
    total_kib = 0
    for member in children(pid):
        try:
            lines = Path(f"/proc/{member}/status").read_text().splitlines()
        except OSError:
            continue
        total_kib += next((int(line.split()[1]) for line in lines if line.startswith("VmRSS:")), 0)
    return total_kib / 1024


class Component:
    """One child process and the signals a fault test sends it."""

    name = "component"

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.folder / f"{self.name}.log"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        raise NotImplementedError

    def send(self, number: signal.Signals) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, number)

    def pause(self) -> None:
        """SIGSTOP: as a frozen process, its connections stay open and nothing answers."""
        self.send(signal.SIGSTOP)

    def resume(self) -> None:
        self.send(signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL to the whole tree: a crash, with no goodbye to anyone."""
        if self.process is None:
            return
        for member in reversed(children(self.process.pid)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(member, signal.SIGKILL)
        self.process.wait(10)
        self.process = None

    stop_signal = signal.SIGTERM

    def stop(self, timeout_s: float = 20.0) -> None:
        """The component's own orderly shutdown; a kill when it takes too long."""
        if self.process is None:
            return
        self.resume()  # a paused process would never see the stop signal
        self.send(self.stop_signal)
        try:
            self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()
