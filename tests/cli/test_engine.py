"""``tavla engine``: the line protocol of ENGINE_PROTOCOL.md, in-process and as a process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tavla.engine.registry import LEVELS
from tavla.engine.server import EngineServer, Quit
from tavla.rules.abluka import AblukaPosition

START = "3W3/7/7/7/7/7/3B3 b"
TABLA = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w -"


@pytest.fixture
def server() -> EngineServer:
    return EngineServer()


def test_hello_lists_games_and_levels(server: EngineServer) -> None:
    reply = server.handle({"cmd": "hello", "id": 1})
    assert reply["id"] == 1
    assert "abluka" in reply["games"]
    assert reply["levels"][0] == "beginner" and reply["levels"][-1] == "max"
    assert reply["levels"] == list(LEVELS)
    assert reply["name"] and reply["version"]


def test_move_is_a_legal_abluka_turn(server: EngineServer) -> None:
    reply = server.handle({"cmd": "move", "id": "a", "position": START, "level": "medium", "movetime_ms": 50})
    assert reply["id"] == "a"
    position = AblukaPosition.from_notation(START)
    assert position.parse_turn(reply["move"]).text == reply["move"]
    assert reply["after"] == position.play(reply["move"]).notation()  # ENGINE_PROTOCOL: P2
    assert reply["nodes"] >= 1 and reply["depth"] >= 1


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"cmd": "double", "id": 2, "position": START, "level": "hard"}, "no doubling cube"),
        ({"cmd": "take", "id": 2, "position": START, "level": "hard"}, "no doubling cube"),
        ({"cmd": "move", "id": 2, "position": START, "level": "godlike"}, "level 'godlike'"),
        ({"cmd": "move", "id": 2, "position": "3W3/7 b", "level": "hard"}, "ranks"),
        ({"cmd": "move", "id": 2, "position": START, "level": "hard", "movetime_ms": -5}, "movetime_ms"),
        ({"cmd": "move", "id": 2, "position": START, "level": "hard", "movetime_ms": "1"}, "movetime_ms"),
        ({"cmd": "move", "id": 2, "level": "hard"}, "position"),
        ({"cmd": "fly", "id": 2}, "unknown cmd"),
        ({"cmd": "move", "id": 2, "position": "7/7/7/3W3/7/xx5/Bx5 b", "level": "hard"}, "game is over"),
        (
            {"cmd": "move", "id": 2, "position": TABLA.replace(" -", " 31"), "level": "godlike"},
            "level 'godlike'",
        ),
        ({"cmd": "move", "id": 2, "position": TABLA, "level": "hard"}, "not rolled"),
    ],
)
def test_requests_it_cannot_serve_get_one_line_errors(
    server: EngineServer, request_: dict[str, object], message: str
) -> None:
    reply = server.handle(request_)
    assert set(reply) == {"id", "error"}
    assert reply["id"] == 2
    assert message in reply["error"]
    assert "\n" not in reply["error"]


def test_bad_json_and_quit(server: EngineServer) -> None:
    reply = server.handle_line("{not json")
    assert reply is not None and reply["id"] is None and "not JSON" in reply["error"]
    assert server.handle_line("   ") is None
    with pytest.raises(Quit):
        server.handle_line('{"cmd": "quit"}')


def test_serve_answers_in_order_and_stops_at_quit(server: EngineServer) -> None:
    requests = [
        {"cmd": "hello", "id": 1},
        {"cmd": "double", "id": 2, "position": START},
        {"cmd": "move", "id": 3, "position": START, "level": "beginner", "movetime_ms": 20},
        {"cmd": "quit"},
        {"cmd": "hello", "id": 4},
    ]
    source = io.StringIO("".join(json.dumps(r) + "\n" for r in requests))
    sink = io.StringIO()
    server.serve(source, sink)
    replies = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [reply["id"] for reply in replies] == [1, 2, 3]
    assert "error" in replies[1] and "move" in replies[2]


def test_tavla_engine_process_speaks_only_json() -> None:
    requests = [
        {"cmd": "hello", "id": 1},
        {"cmd": "move", "id": 2, "position": START, "level": "easy", "movetime_ms": 50},
        {"cmd": "take", "id": 3, "position": START},
    ]
    lines = "".join(json.dumps(r) + "\n" for r in requests) + "this is not json\n" + '{"cmd": "quit"}\n'
    done = subprocess.run(
        [sys.executable, "-c", "from tavla.cli.main import main; main()", "engine"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == 4
    assert replies[0]["games"] and replies[1]["id"] == 2
    AblukaPosition.from_notation(START).parse_turn(replies[1]["move"])
    assert "error" in replies[2] and "error" in replies[3]


def test_a_request_that_is_not_utf8_gets_an_error_reply(server: EngineServer) -> None:
    for line in (b"\xff\xfe{}\n", "\udcff\udcfe{}\n"):  # read as bytes, or as escaped text
        reply = server.handle_line(line)
        assert reply == {"id": None, "error": "not UTF-8 text: requests are UTF-8 JSON"}
    source = io.BytesIO(b'\xff{"cmd": "hello", "id": 1}\n{"cmd": "hello", "id": 2}\n')
    sink = io.StringIO()
    server.serve(source, sink)
    replies = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [reply["id"] for reply in replies] == [None, 2]


class _BrokenEngine:
    """An engine with bugs: one move raises, the other gives an equity JSON cannot hold."""

    def move(self, position: object, level: str, movetime_ms: int | None) -> dict[str, object]:
        if level == "easy":
            return {"move": "-", "equity": float("nan")}
        raise RuntimeError("the network file\nis gone")

    def fault(self, line: str) -> None:
        raise RuntimeError("the line was lost")


def test_a_bug_in_an_engine_is_reported_on_one_line_and_the_server_goes_on(
    server: EngineServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tavla.engine.server.engine_for", lambda game: _BrokenEngine())
    request = {"id": 7, "cmd": "move", "position": TABLA.replace(" w -", " w 31"), "level": "hard"}
    assert server.handle(request) == {
        "id": 7,
        "error": "internal error: RuntimeError: the network file is gone",
    }
    reply = json.loads(server.reply_line(json.dumps({**request, "level": "easy"})) or "")
    assert reply["id"] == 7
    assert reply["error"].startswith("internal error: a reply JSON cannot hold (Out of range float values")
    # The last guard: a fault outside any request's handling, where no id is known.
    monkeypatch.setattr(server, "handle_line", _BrokenEngine().fault)
    reply = json.loads(server.reply_line(json.dumps(request)) or "")
    assert reply == {"id": None, "error": "internal error: RuntimeError: the line was lost"}
    monkeypatch.undo()
    assert "move" in server.handle(request)


def test_python_m_tavla_engine_reads_bytes_whatever_the_locale() -> None:
    """Standard input is read as bytes: a line that is not UTF-8 gets an error reply even
    where Python would decode text strictly, and the engine answers the next line."""
    done = subprocess.run(
        [sys.executable, "-m", "tavla.engine"],
        input=b'\xff{"cmd": "hello", "id": 1}\n{"cmd": "hello", "id": 2}\n',
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [reply["id"] for reply in replies] == [None, 2]


def test_python_m_tavla_engine_refuses_a_weights_file_it_cannot_read(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.npz"
    done = subprocess.run(
        [sys.executable, "-m", "tavla.engine", "--weights", str(missing)],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"tavla: {missing}: not a network file")
