"""The example session of docs/API.md 7 runs as written against a real server process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from tests.server.served import QUICK_AND_UNLIMITED, free_port

ROOT = Path(__file__).resolve().parents[2]


def example_client() -> str:
    text = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- example: client -->\n```python\n(.*?)```", text, re.S)
    assert found, "docs/API.md lost its example client"
    return found.group(1)


@pytest.mark.timeout(180)
def test_the_documented_client_plays_a_game_to_the_end(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, **QUICK_AND_UNLIMITED}
    command = [str(Path(sys.executable).with_name("tavla")), "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--database", f"sqlite:///{tmp_path / 'db'}"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        script = tmp_path / "client.py"
        script.write_text(example_client(), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(script), f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=150
        )
        assert done.returncode == 0, done.stderr
        assert re.fullmatch(r"score \[\d+, \d+\]", done.stdout.strip().splitlines()[-1]), done.stdout
    finally:
        server.terminate()
        server.wait(timeout=10)
