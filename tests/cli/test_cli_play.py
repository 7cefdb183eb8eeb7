"""``tavla play``: whole games driven through the prompt, and illegal input (issue 2, CLI 6)."""

from __future__ import annotations

import importlib.util
import io
import queue
import random
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.cli.cli_helpers import Invoke, tpn

import tavla
from tavla.cli import moves
from tavla.cli.terminal_game import TerminalGame, describe_outcome

ROOT = Path(__file__).resolve().parents[2]


def first_legal_move(game: tavla.Game) -> str:
    """What a program reading ``tavla moves`` would answer: the first line's move text."""
    return moves.answer(game.position.notation()).split("\t", 1)[0]


class StepByStep:
    """Answers one die at a time (the step interface), then ``done``."""

    def __init__(self, game: tavla.Game) -> None:
        self.game = game
        self.position: Any = None
        self.builder: Any = None

    def __call__(self, prompt: str) -> str:
        if self.game.position is not self.position:
            self.position = self.game.position
            self.builder = self.position.steps()
        if self.builder.complete:
            return "done"
        step: str = self.builder.legal_steps()[0]
        self.builder.step(step)
        return step


def play_out(name: str, seed: int, human: int, stepwise: bool) -> tuple[tavla.Game, str, int]:
    game = tavla.new_game(name)
    prompts = 0

    answer = StepByStep(game) if stepwise else None

    def read(prompt: str) -> str:
        nonlocal prompts
        prompts += 1
        return answer(prompt) if answer else first_legal_move(game)

    buffer = io.StringIO()
    session = TerminalGame(
        game, human, tavla.SeededDice(seed), random.Random(seed), Console(file=buffer, width=100), read=read
    )
    assert session.run() is True
    return game, buffer.getvalue(), prompts


@pytest.mark.parametrize(
    ("name", "seed", "human", "stepwise"),
    [("tabla", 1, 0, False), ("tabla", 2, 1, True), ("antitabla", 3, 0, False), ("chelebi", 4, 1, True)],
)
def test_a_whole_game_reaches_its_result(name: str, seed: int, human: int, stepwise: bool) -> None:
    game, output, prompts = play_out(name, seed, human, stepwise)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is not None
    assert output.rstrip().splitlines()[-1] == describe_outcome(game, human)
    assert f"{('White', 'Black')[outcome.winner]} (" in output.splitlines()[-1]
    assert prompts > 10
    # the record the session left replays to the same end (RULES.md 9.4 spirit)
    assert tavla.Game.replay(game.record()).position == game.position


ALWAYS_ILLEGAL = [
    ("25/20", "unreadable move"),
    ("hello", "not legal"),
    ("6/off", "not legal"),
    ("24/18 24/18 24/18 24/18 24/18", "not legal"),
    ("8/5(9)", "cannot be read"),
    ("done", "not complete"),
    ("undo", "Nothing to take back"),
]


def test_illegal_input_is_explained_and_changes_nothing(invoke: Invoke) -> None:
    script = ["position", *(text for text, _ in ALWAYS_ILLEGAL), "tpn", "help", "quit"]
    result = invoke("play", "tabla", "--seed", "7", input="\n".join(script) + "\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    tpns = [
        line for line in out.splitlines() if line.startswith("tabla 2b") or re.match(r"^tabla \S+ \d", line)
    ]
    assert len(tpns) == 2 and tpns[0] == tpns[1]
    replies = out.split("> ")
    for (text, expected), reply in zip(ALWAYS_ILLEGAL, replies[2:], strict=False):
        assert reply.startswith(text) and expected in reply, (text, reply)
    opening = re.search(r"Opening roll: White (\d), Black (\d)\. (White|Black) starts with (\d)-(\d)\.", out)
    assert opening is not None
    white, black, starter, high, low = opening.groups()
    assert starter == ("White" if white > black else "Black") and (high, low) == tuple(
        sorted((white, black))[::-1]
    )
    assert "24/18 13/11" in out  # the help shows the syntax
    assert "Legal turns (" in out
    assert out.rstrip().endswith("You left the game.")


def test_end_of_input_leaves_the_game(invoke: Invoke) -> None:
    result = invoke("play", "backgammon", "--seed", "3", "--color", "b", input="")
    assert result.exit_code == 0
    assert "End of input." in result.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [(["play", "go"], "game 'go'"), (["play", "tabla", "--color", "red"], "--color 'red'")],
)
def test_bad_arguments_exit_2(invoke: Invoke, args: list[str], expected: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and expected in result.stderr


def tavla_command() -> list[str]:
    """The installed ``tavla``; while the CLI lacks a subcommand module, the board commands alone."""
    if importlib.util.find_spec("tavla.cli.convert") is not None:
        return [str(Path(sys.executable).parent / "tavla")]
    return [
        sys.executable,
        "-c",
        "from tests.cli.cli_helpers import board_commands_app; board_commands_app()()",
    ]


TPN_LINE = re.compile(r"^tabla \S+ \d+,\d+ \d+,\d+ [wb] \S+$")


def test_installed_command_plays_a_game_through_stdin() -> None:
    """A program answers each prompt with the first line of ``tavla moves`` for the position."""
    process = subprocess.Popen(
        [*tavla_command(), "play", "tabla", "--seed", "11", "--color", "w"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdin is not None and process.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    transcript: list[str] = []
    try:
        process.stdin.write("position\n")
        process.stdin.flush()
        while (line := lines.get(timeout=30)) is not None:
            transcript.append(line)
            if TPN_LINE.match(line):
                move = moves.answer(line).split("\t", 1)[0]
                process.stdin.write(f"{move}\nposition\n")
                process.stdin.flush()
    except BrokenPipeError:
        pass
    finally:
        process.wait(timeout=30)
    assert process.returncode == 0, process.stderr.read() if process.stderr else ""
    assert re.match(
        r"^(White|Black) \((you|your opponent)\) wins: (single|gammon|backgammon), [123] point",
        transcript[-1],
    )
    assert sum(1 for line in transcript if line.startswith("You played ")) > 5


def test_steps_undo_and_done_at_the_prompt() -> None:
    """RULES.md 1.3: one die at a time, take back, then commit with ``done``."""
    game = tavla.new_game("tabla")
    start: dict[str, Any] = {}
    script: list[str] = []
    script_steps: list[str] = []

    def read(prompt: str) -> str:
        if not start:
            start["position"] = game.position
            planner = game.position.steps()
            first = planner.legal_steps()[0]
            planner.step(first)
            second = planner.legal_steps()[0]
            # a step, take it back, "done" too early, then the two steps and "done"
            script.extend([first, "undo", "undo", first, "done", second, "done"])
            script_steps.extend([first, second])
        if game.position is not start["position"]:
            return "quit"
        return script.pop(0)

    buffer = io.StringIO()
    session = TerminalGame(
        game, 0, tavla.SeededDice(5), random.Random(5), Console(file=buffer, width=100), read=read
    )
    assert session.run() is False
    out = buffer.getvalue()
    assert "Took back" in out and "Nothing to take back" in out and "not complete yet" in out
    before: Any = start["position"]
    expected = before.parse_turn(f"{script_steps[0]} {script_steps[1]}").text
    assert f"You played {expected}\n" in out


@pytest.mark.parametrize("name", tavla.game_names())
def test_every_registered_game_plays_to_the_end_step_by_step(name: str) -> None:
    """The command is written against the game protocol only: new games need no change."""
    # seed 1 keeps chelebi free of the long progressive doubles whose validation in
    # Position.play enumerates every full turn (slow); the steps themselves are fast.
    game, output, _ = play_out(name, 1, 0, stepwise=True)
    assert game.outcome() is not None
    assert output.rstrip().splitlines()[-1] == describe_outcome(game, 0)


def test_the_bot_at_a_level_plays_its_turns(invoke: Invoke) -> None:
    """Black against the bot: the bot's turns are the engine's (docs/bots.md levels)."""
    result = invoke("play", "tabla", "--seed", "5", "--color", "b", "--level", "medium", input="quit\n")
    assert result.exit_code == 0, result.stdout
    assert "against the bot at level medium" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_an_unknown_level_is_refused_in_one_line(invoke: Invoke) -> None:
    result = invoke("play", "tapa", "--level", "grand")
    assert result.exit_code == 2
    levels = "beginner, easy, medium, hard, max"
    assert result.stderr == f"tavla: --level 'grand': expected random or one of {levels}\n"


def test_the_random_level_says_whom_you_meet(invoke: Invoke) -> None:
    result = invoke("play", "tabla", "--seed", "1", "--level", "random", input="quit\n")
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines()[0] == "tabla: you play White against a random-legal opponent."


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("black", "off", "human", "said"),
    [
        ({1: "1b"}, "15,14", 0, "White (you) wins: single, 1 point."),
        ({13: "15b"}, "15,0", 1, "White (your opponent) wins: gammon, 2 points."),
    ],
)
def test_the_result_names_the_winner_for_the_player(
    black: dict[int, str], off: str, human: int, said: str
) -> None:
    game = tavla.Game(tavla.from_notation(tpn(black, off=off, side="b")))
    assert describe_outcome(game, human) == said


def test_a_void_tapa_game_is_said_to_be_void_and_why() -> None:
    """RULES.md 5: both mothers pinned at once, nobody scores."""
    position = tavla.from_notation(tpn({1: "1b", 4: "1w", 24: "1w1b"}, off="13,13", dice="31", game="tapa"))
    game = tavla.Game(position)
    game.play(game.position.parse_turn("4/1*"))
    assert describe_outcome(game, 0) == "The game is void, both mothers pinned: nobody scores."
