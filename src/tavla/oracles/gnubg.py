"""GNU Backgammon as an oracle for tabla: its estimates of positions and its plays.

``GnubgOracle`` starts one gnubg process (Debian's ``gnubg`` package) running
``gnubg_worker.py`` and talks to it over a Unix socket, one JSON line each way. It
is for benchmarks and training targets, never for play on the platform: gnubg is
an optional system program.

>>> with GnubgOracle() as gnubg:                                   # doctest: +SKIP
...     gnubg.estimate([position])       # [[win, wg, wbg, lg, lbg]] for the side to act
...     gnubg.best_turn(rolled_position, plies=2)

A gnubg call spends most of its time waiting, not computing: several oracles in
threads (one process each) multiply the throughput on the same cores.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from tavla.core.errors import TavlaError
from tavla.rules.backgammon.gnubg_id import encode_position_id
from tavla.rules.backgammon.position import BackgammonPosition
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn

GNUBG = "/usr/games/gnubg"
WORKER = Path(__file__).with_name("gnubg_worker.py")
START_TIMEOUT_S = 60.0


class GnubgError(TavlaError):
    """gnubg is missing, did not start, or answered with an error."""


def gnubg_available(executable: str = GNUBG) -> bool:
    return shutil.which(executable) is not None


class GnubgOracle:
    """One gnubg process; estimates at ``plies`` unless a call asks for other plies."""

    def __init__(self, *, plies: int = 0, executable: str = GNUBG, timeout_s: float = 120.0) -> None:
        if not gnubg_available(executable):
            raise GnubgError(f"GNU Backgammon is not installed ({executable}): apt-get install gnubg")
        self.plies = plies
        self._folder = tempfile.TemporaryDirectory(prefix="tavla-gnubg-")
        path = os.path.join(self._folder.name, "socket")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(1)
        listener.settimeout(START_TIMEOUT_S)
        env = {**os.environ, "TAVLA_GNUBG_SOCKET": path, "HOME": self._folder.name}
        self._process = subprocess.Popen(
            [executable, "-t", "-q", "-r", "-p", str(WORKER)],
            env=env,
            cwd=self._folder.name,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            self._link, _ = listener.accept()
        except TimeoutError:
            self._process.kill()
            _, errors = self._process.communicate()
            raise GnubgError(f"gnubg did not start: {errors.decode(errors='replace')[-2000:]}") from None
        finally:
            listener.close()
        self._link.settimeout(timeout_s)
        self._reader = self._link.makefile("r", encoding="utf-8")
        self._writer = self._link.makefile("w", encoding="utf-8")

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self._writer.write(json.dumps(request) + "\n")
        self._writer.flush()
        line = self._reader.readline()
        if not line:
            raise GnubgError(f"gnubg stopped answering (exit status {self._process.poll()})")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise GnubgError(f"gnubg: {reply['error']} (request {request['op']})")
        return reply

    def estimate(
        self, positions: Sequence[BackgammonPosition], plies: int | None = None
    ) -> npt.NDArray[np.float64]:
        """gnubg's cubeless estimate of each position for its side to act, one row each:
        win, win gammon, win backgammon, lose gammon, lose backgammon (gammons count
        backgammons, as gnubg's outputs do). Positions of tabla rules only."""
        ids = [encode_position_id(position) for position in positions]
        if not ids:
            return np.empty((0, 5))
        reply = self._ask({"op": "evaluate", "ids": ids, "plies": self.plies if plies is None else plies})
        return np.array(reply["p"], dtype=np.float64)

    def best_turn(
        self, position: BackgammonPosition, plies: int | None = None
    ) -> DiceTurn[BackgammonPosition]:
        """The turn gnubg plays with ``position``'s dice at ``plies`` (0: its net alone;
        2: its usual "world class" search with move filters)."""
        if position.dice is None:
            raise GnubgError(f"the dice must be rolled first in {position.notation()}")
        turns = position.legal_turns()
        high, low = max(position.dice), min(position.dice)
        reply = self._ask(
            {
                "op": "best",
                "id": encode_position_id(position),
                "dice": [high, low],
                "plies": self.plies if plies is None else plies,
            }
        )
        if reply["after"] is None or len(turns) == 1:
            return turns[0]
        for turn in turns:
            if encode_position_id(turn.after) == reply["after"]:
                return turn
        raise GnubgError(
            f"gnubg played to {reply['after']}, which no legal turn of {position.notation()} reaches"
        )

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self._writer.write(json.dumps({"op": "quit"}) + "\n")
                self._writer.flush()
                self._process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self._link.close()
        self._folder.cleanup()

    def __enter__(self) -> GnubgOracle:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class GnubgPlayer:
    """gnubg as a tabla player at ``plies``: ``choose(position)`` with the dice rolled."""

    def __init__(self, oracle: GnubgOracle, plies: int = 0) -> None:
        self.oracle = oracle
        self.plies = plies
        self.name = f"gnubg {plies}-ply"

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        if not isinstance(position, BackgammonPosition) or position.game != "tabla":
            raise GnubgError(f"GNU Backgammon plays tabla only, not {position.notation()}")
        return self.oracle.best_turn(position, self.plies)
