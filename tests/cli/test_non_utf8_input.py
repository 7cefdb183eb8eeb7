"""Input that is not UTF-8, through the real ``tavla`` program with strict UTF-8 streams:
never a traceback; files and ``moves -`` fail with one line and status 2, interactive
commands refuse the line and go on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BAD = b"\xff\xfe{}\n"


def tavla(*args: str, input: bytes) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    return subprocess.run(
        [sys.executable, "-c", "from tavla.cli.main import main; main()", *args],
        input=input, capture_output=True, env=env, timeout=120, check=False,
    )  # fmt: skip


def test_replay_of_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(BAD)
    done = tavla("replay", str(bad), input=b"")
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [f"tavla: {bad}: not UTF-8 text (byte 1 cannot be read)"]


def test_moves_from_stdin_that_is_not_utf8() -> None:
    done = tavla("moves", "-", input=BAD)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == ["tavla: line 1: not UTF-8 text"]


@pytest.mark.parametrize(
    ("args", "refusal"),
    [
        (("play", "tabla", "--seed", "1"), b"unreadable move"),
        (("play", "abluka"), b"unreadable step"),
        (("match", "--length", "1", "--seed", "1", "--black", "random"), b"is not possible now"),
    ],
)
def test_interactive_commands_refuse_the_line_and_go_on(args: tuple[str, ...], refusal: bytes) -> None:
    done = tavla(*args, input=BAD)
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert refusal in done.stdout
