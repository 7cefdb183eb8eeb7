"""Run one of the oracle scripts inside GNU Backgammon, JSON in and JSON out."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

GNUBG = "/usr/games/gnubg"
HERE = Path(__file__).resolve().parent


def gnubg_available() -> bool:
    return shutil.which(GNUBG) is not None


def run_script(name: str, payload: dict[str, Any], timeout: float = 600) -> dict[str, Any]:
    """Run ``tests/oracle/<name>`` inside gnubg with ``payload`` as its input."""
    with tempfile.TemporaryDirectory(prefix="gnubg-oracle-") as tmp:
        source = Path(tmp) / "in.json"
        target = Path(tmp) / "out.json"
        source.write_text(json.dumps(payload))
        env = {**os.environ, "GNUBG_ORACLE_IN": str(source), "GNUBG_ORACLE_OUT": str(target), "HOME": tmp}
        done = subprocess.run(
            [GNUBG, "-t", "-q", "-r", "-p", str(HERE / name)],
            env=env,
            cwd=tmp,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if not target.exists():
            tail = (done.stdout + done.stderr)[-3000:]
            raise RuntimeError(f"gnubg ran {name} without output (status {done.returncode}):\n{tail}")
        result: dict[str, Any] = json.loads(target.read_text())
        return result


def run_batches(name: str, key: str, items: list[Any], batch: int = 40, workers: int = 2) -> list[Any]:
    """Run ``name`` over ``items`` in batches (one gnubg process each); results in order.

    gnubg spends most of each call sleeping, so two processes at once cost little CPU.
    """
    chunks = [items[start : start + batch] for start in range(0, len(items), batch)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        answers = list(pool.map(lambda chunk: run_script(name, {key: chunk}), chunks))
    return [result for answer in answers for result in answer["results"]]


def gnubg_version() -> str:
    done = subprocess.run([GNUBG, "--version"], capture_output=True, text=True, check=False, timeout=60)
    return done.stdout.splitlines()[0].strip() if done.stdout else "unknown"
