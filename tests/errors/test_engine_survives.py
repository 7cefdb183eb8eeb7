"""``tavla engine`` answers every input line and keeps serving (ENGINE_PROTOCOL.md:
"A request the engine cannot serve gets {"id": ..., "error": "<one clear line>"} and
the engine keeps running")."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tavla.engine.server import EngineServer

HELLO = '{"cmd": "hello", "id": "after"}'
HOSTILE_LINES = [
    "[" * 1000,
    "{" * 1000,
    '{"id": ' + "[" * 500 + "]" * 500 + ', "cmd": "hello"}',
    '{"cmd": "move", "id": 1e400}',
    '{"cmd": "move", "id": NaN}',
    '{"cmd": "move", "id": 1, "movetime_ms": 1e400, "position": "3W3/7/7/7/7/7/3B3 b"}',
    "9" * 5000,
    "[]",
    '"cmd"',
    '{"cmd": "move", "position": "tabla ²"}',
    '{"cmd": "move", "position": ["tabla"]}',
    '{"cmd": "double", "position": "3W3/7/7/7/7/7/3B3 b", "match": {"length": 1e308}}',
    "\ufffd\ufffd",
]


def replies_to(*lines: str) -> list[dict[str, object]]:
    sink = io.StringIO()
    EngineServer().serve(io.StringIO("".join(line + "\n" for line in lines)), sink)
    return [json.loads(line) for line in sink.getvalue().splitlines()]


@pytest.mark.parametrize("line", HOSTILE_LINES)
def test_a_hostile_line_gets_an_error_object_and_the_next_request_is_answered(line: str) -> None:
    replies = replies_to(line, HELLO)
    assert len(replies) == 2
    error, hello = replies
    assert isinstance(error.get("error"), str) and "\n" not in str(error["error"])
    assert "id" in error
    assert hello["id"] == "after" and hello["name"] == "tavla"


def test_the_reply_is_strict_json_even_for_a_huge_number() -> None:
    sink = io.StringIO()
    EngineServer().serve(io.StringIO('{"cmd": "hello", "id": 1e400}\n'), sink)
    # json.loads accepts "Infinity"; a strict client would not: parse it strictly.
    json.loads(sink.getvalue(), parse_constant=lambda name: pytest.fail(f"{name} in the reply"))


def test_the_engine_process_survives_deep_nesting_and_bytes_that_are_not_utf8() -> None:
    lines = b"[" * 1000 + b"\n" + b"\xff\xfe{\n" + HELLO.encode() + b"\n" + b'{"cmd": "quit"}\n'
    done = subprocess.run(
        [sys.executable, "-c", "from tavla.cli.main import main; main()", "engine"],
        input=lines,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [("error" in reply) for reply in replies] == [True, True, False]
    assert replies[2]["id"] == "after"
