"""Two engines playing each other (docs/engine-protocol.md, "Engines against each
other"): ``tavla engine --weights`` plays a trained network of one's own, the client
checks every reply against the rules, and ``tavla duel`` reports the games. Engines that
misbehave (an illegal move, a false ``after``, silence, a crash) are named, not followed."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import tavla
from tavla.bots.levels import LevelPlayer
from tavla.bots.network import Network
from tavla.engine.client import EngineFailure, EnginePlayer, EngineProcess
from tavla.rules.dicegame import DiceGame

pytestmark = pytest.mark.timeout(120)

ENGINE = [sys.executable, "-m", "tavla.engine"]
TAVLA = [sys.executable, "-c", "from tavla.cli.main import main; main()"]
"""The ``tavla`` command of this installation."""


def opening() -> DiceGame[Any]:
    """Tapa's start with White to play 6-4."""
    position = tavla.find_game("tapa").start().with_side(0).with_roll((6, 4))
    assert isinstance(position, DiceGame)
    return position


def fake_engine(folder: Path, answer: str) -> list[str]:
    """An engine that says hello and answers every move with ``answer`` (Python code
    given ``request`` and ``position``, the request's position text, that prints one
    reply line, or does anything else)."""
    script = folder / "engine.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            import tavla
            for line in sys.stdin:
                request = json.loads(line)
                if request["cmd"] == "hello":
                    hello = {"name": "fake", "version": "1", "games": ["tapa"]}
                    print(json.dumps({"id": request["id"], **hello}), flush=True)
                    continue
                if request["cmd"] == "quit":
                    break
                position = request["position"]
            """
        )
        + textwrap.indent(textwrap.dedent(answer), "    ")
    )
    return [sys.executable, str(script)]


@pytest.fixture(scope="module")
def small_network(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tapa network of our own: untrained, so that it plays unlike the shipped one."""
    return Network.create("tapa", hidden=8, seed=3).save(tmp_path_factory.mktemp("weights") / "tapa.npz")


def test_the_engine_plays_the_move_the_library_s_bot_plays() -> None:
    start = opening()
    with EngineProcess(ENGINE) as engine:
        assert "tapa" in engine.hello["games"] and engine.name.startswith("tavla ")
        assert "weights" not in engine.hello and "(" not in engine.name
        played = EnginePlayer(engine, "medium").choose(start)
    assert played.after == LevelPlayer("tapa", "medium").choose(start).after


def test_an_engine_with_weights_of_one_s_own_plays_that_network(small_network: Path) -> None:
    position = opening()
    theirs = LevelPlayer("tapa", "medium", network=Network.load(small_network)).choose(position)
    shipped = LevelPlayer("tapa", "medium").choose(position)
    assert theirs.after != shipped.after  # the two networks differ here: the test can tell them apart
    with EngineProcess([*ENGINE, "--weights", str(small_network)]) as engine:
        assert EnginePlayer(engine, "medium").choose(position).after == theirs.after
        # hello names the file that plays, with its hash; an engine without --weights does not.
        digest = hashlib.sha256(small_network.read_bytes()).hexdigest()[:16]
        assert engine.hello["weights"] == {"tapa": f"tapa.npz, sha256 {digest}"}
        assert engine.name.endswith(f"(tapa: tapa.npz, sha256 {digest})")
    with EngineProcess([*TAVLA, "engine", "--weights", str(small_network)]) as engine:  # `tavla engine`
        assert EnginePlayer(engine, "medium").choose(position).after == theirs.after


def test_a_network_file_without_its_game_is_refused(tmp_path: Path) -> None:
    network = Network.create("tapa", hidden=4, seed=1)
    saved = network.save(tmp_path / "mine.npz")
    saved.with_suffix(".json").unlink()
    done = subprocess.run(
        [*TAVLA, "engine", "--weights", str(saved)],
        input="", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"tavla: {saved}: its .json names no game a network plays (none)"


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            'print(json.dumps({"id": request["id"], "move": "24/13", "after": position}), flush=True)',
            "an illegal move in",
        ),
        (
            "turn = tavla.from_notation(position).legal_turns()[0]\n"
            'print(json.dumps({"id": request["id"], "move": turn.text, "after": position}), flush=True)',
            "is not where",
        ),
        ('print(json.dumps({"id": request["id"], "error": "no idea"}), flush=True)', "refused move: no idea"),
        ('print(json.dumps({"id": None, "error": "not JSON"}), flush=True)', "refused move: not JSON"),
        ('sys.stderr.write("out of memory\\n"); sys.exit(3)', "stopped (exit status 3): out of memory"),
        ("print('{not json', flush=True)", "a reply that is not JSON: {not json"),
    ],
    ids=["illegal", "false after", "error reply", "error without id", "crash", "not json"],
)
def test_an_engine_that_misbehaves_is_named_and_not_followed(
    tmp_path: Path, answer: str, expected: str
) -> None:
    position = opening()
    with (
        EngineProcess(fake_engine(tmp_path, answer), label="the fake engine") as engine,
        pytest.raises(EngineFailure, match="the fake engine") as failure,
    ):
        EnginePlayer(engine, "medium").choose(position)
    assert expected in str(failure.value)


def test_a_silent_engine_is_given_up(tmp_path: Path) -> None:
    with (
        EngineProcess(fake_engine(tmp_path, "pass"), label="the quiet one") as engine,
        pytest.raises(EngineFailure, match="the quiet one: no answer to move within 1 s"),
    ):
        engine.request({"cmd": "move", "position": "x", "level": "medium"}, timeout_s=1)


def test_a_program_that_cannot_start_is_named() -> None:
    with pytest.raises(EngineFailure, match="cannot start it"):
        EngineProcess(["/nonexistent/engine"], label="the missing one")


def duel(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TAVLA, "duel", *options],
        capture_output=True, text=True, timeout=110, env={"COLUMNS": "200", "PATH": ""},
    )  # fmt: skip


def test_a_duel_of_an_engine_with_itself_is_even_and_a_weak_network_loses(small_network: Path) -> None:
    # The same deterministic engine on both sides of shared dice: each seed's two games
    # are mirror images, so the result is exactly even.
    even = duel("--game", "tapa", "--games", "4", "--seed", "7")
    assert even.returncode == 0, even.stderr
    rows = [line for line in even.stdout.splitlines() if "tavla engine" in line]
    assert len(rows) == 2 and all("2 (50.0%)" in row and "0.000 ±" in row for row in rows)
    # An untrained network against the shipped one: it loses every game of six.
    mine = f"{sys.executable} -m tavla.engine --weights {small_network}"
    weak = duel("--game", "tapa", "--games", "6", "--first", mine)
    assert weak.returncode == 0, weak.stderr
    first, second = (line for line in weak.stdout.splitlines() if "(medium)" in line)
    assert "0 (0.0%)" in first and "6 (100.0%)" in second


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--game", "tapa", "--games", "3"], "--games 3: an even number"),
        (["--game", "abluka", "--cube"], "abluka has no doubling cube"),
        (["--game", "tapa", "--first", "/nonexistent/engine"], "the first engine: cannot start it"),
        (["--game", "gulbara", "--second", "FAKE"], "the second engine does not play gulbara"),
    ],
)
def test_a_duel_that_cannot_be_played_says_why(tmp_path: Path, options: list[str], message: str) -> None:
    fake = " ".join(fake_engine(tmp_path, "pass"))
    done = duel(*(fake if option == "FAKE" else option for option in options))
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_a_duel_plays_the_games_the_library_plays_in_process() -> None:
    """Over the protocol the engines play exactly the games that the library's own
    players play on the same seeds (``tavla.bots.duel``, as benchmarks/bot_strength.py)."""
    from tavla.bots.duel import duel as in_process

    done = duel(
        "--game", "tapa", "--games", "2", "--seed", "3", "--first-level", "hard", "--second-level", "medium"
    )
    assert done.returncode == 0, done.stderr
    first = next(line for line in done.stdout.splitlines() if "(hard)" in line)
    expected = in_process("tapa", LevelPlayer("tapa", "hard"), LevelPlayer("tapa", "medium"), range(3, 4))
    assert f"{expected.wins} ({expected.win_rate:.1%})" in first
    assert f"{expected.ppg + 0.0:+.3f} ± {expected.ppg_ci95:.3f}" in first


@pytest.mark.parametrize(
    ("answer", "ask", "expected"),
    [
        (
            'print(json.dumps({"id": request["id"], "take": "beaver"}), flush=True)',
            "take",
            "'beaver' to a double",
        ),
        (
            'print(json.dumps({"id": request["id"], "double": "yes"}), flush=True)',
            "double",
            "'yes' to double",
        ),
    ],
)
def test_a_cube_answer_out_of_the_protocol_is_refused(
    tmp_path: Path, answer: str, ask: str, expected: str
) -> None:
    position = tavla.find_game("tabla").start().with_side(0)
    assert isinstance(position, DiceGame)
    with (
        EngineProcess(fake_engine(tmp_path, answer), label="the fake engine") as engine,
        pytest.raises(EngineFailure, match=expected),
    ):
        getattr(EnginePlayer(engine, "medium"), ask)(position, 1, None)


def test_a_duel_with_the_cube_of_an_engine_with_itself_is_even() -> None:
    done = duel("--game", "tabla", "--games", "4", "--seed", "100", "--cube")
    assert done.returncode == 0, done.stderr
    assert "4 money games with the cube" in done.stdout
    rows = [line for line in done.stdout.splitlines() if "tavla engine" in line]
    assert len(rows) == 2 and all("2 (50.0%)" in row and "0.000 ±" in row for row in rows)


def test_an_abluka_duel_starts_from_shared_openings() -> None:
    done = duel("--game", "abluka", "--games", "2", "--movetime-ms", "30", "--first-level", "hard")
    assert done.returncode == 0, done.stderr
    assert "abluka: 2 games from shared openings, seeds 0 to 0" in done.stdout
    rows = [line for line in done.stdout.splitlines() if "tavla engine" in line]
    won = [int(row.split("│")[3].split()[0]) for row in rows]
    assert len(rows) == 2 and sum(won) == 2  # Abluka has no draws


def test_an_engine_that_never_says_hello_is_not_left_running(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    script = tmp_path / "mute.py"
    written = f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))"
    script.write_text(f"import os, time\n{written}\ntime.sleep(600)\n")
    with pytest.raises(EngineFailure, match="the mute one: no answer to hello within 3 s"):
        EngineProcess([sys.executable, str(script)], label="the mute one", hello_timeout_s=3)
    if pid_file.exists():  # (a machine so busy that it was ended before it wrote it: ended all the same)
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid_file.read_text()), 0)


def recording_engine(folder: Path) -> tuple[list[str], Path]:
    """``tavla engine`` behind a script that first writes down every request line."""
    log = folder / "requests.jsonl"
    script = folder / "recorder.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys
            from tavla.engine.server import EngineServer, Quit
            server = EngineServer()
            with open({str(log)!r}, "a", encoding="utf-8") as log:
                for line in sys.stdin:
                    log.write(line)
                    log.flush()
                    try:
                        reply = server.reply_line(line)
                    except Quit:
                        break
                    if reply is not None:
                        print(reply, flush=True)
            """
        )
    )
    return [sys.executable, str(script)], log


def test_the_client_asks_for_its_level_time_and_cube_and_counts_its_time(tmp_path: Path) -> None:
    command, log = recording_engine(tmp_path)
    start = tavla.find_game("tabla").start()
    assert isinstance(start, DiceGame)
    opening, later = start.with_side(0).with_roll((6, 4)), start.with_side(1).with_roll((5, 2))
    with EngineProcess(command, label="the recorder") as engine:
        player = EnginePlayer(engine, "beginner", movetime_ms=400)
        started = time.perf_counter()
        player.choose(opening)
        first = player.seconds
        assert 0 < first <= time.perf_counter() - started
        player.choose(later)
        assert player.moves == 2 and player.seconds > first
        assert player.double(start.with_side(1), 1, None) is False  # nothing to double for at the start
        assert player.take(start.with_side(0), 2, 1) is True
    requests = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for request in requests:
        request.pop("id", None)
    money = {"length": 0, "jacoby": False, "beavers": False}
    assert requests == [
        {"cmd": "hello"},
        {"cmd": "move", "position": opening.notation(), "level": "beginner", "movetime_ms": 400},
        {"cmd": "move", "position": later.notation(), "level": "beginner", "movetime_ms": 400},
        {
            "cmd": "double",
            "position": start.with_side(1).notation(),
            "level": "beginner",
            "match": {**money, "cube": 1, "owner": None},
        },
        {
            "cmd": "take",
            "position": start.with_side(0).notation(),
            "level": "beginner",
            "match": {**money, "cube": 2, "owner": "b"},
        },
        {"cmd": "quit"},
    ]
