"""Abluka in the terminal: the board picture and a scripted game against the engine."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from tavla.cli.abluka_view import render
from tavla.cli.play_abluka import play_abluka
from tavla.core.protocol import BLACK, WHITE
from tavla.rules.abluka import AblukaPosition


def text_of(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(renderable)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


def test_board_picture_puts_rank_7_on_top() -> None:
    picture = text_of(render(AblukaPosition.from_notation("W6/7/2x1x2/7/7/7/6B w")))
    rows = [line for line in picture.splitlines() if line[:1].isdigit()]
    assert rows[0].split() == ["7", "W", "*", ".", ".", ".", ".", "."]
    assert rows[2].split() == ["5", ".", ".", "#", ".", "#", ".", "."]
    assert rows[6].split() == ["1", ".", ".", ".", ".", ".", ".", "B"]
    assert "White (W) to move" in picture


def test_each_piece_has_its_own_colour() -> None:
    picture = render(AblukaPosition.from_notation("W6/7/2x1x2/7/7/7/6B w"))
    assert isinstance(picture, Text)
    console = Console(file=io.StringIO(), color_system="truecolor")
    grid = picture.plain.index("\n   a b")  # the squares end where the files are named
    styles = {
        picture.plain[offset]: str(picture.get_style_at_offset(console, offset))
        for offset in range(grid)
        if picture.plain[offset] in "WB#*" and picture.plain[offset - 1] == " "
    }
    assert styles == {"W": "bold bright_white", "B": "bold red", "#": "dim", "*": "green"}


def test_finished_game_names_the_winner() -> None:
    picture = text_of(render(AblukaPosition.from_notation("7/7/7/3W3/7/xx5/Bx5 b")))
    assert "White wins: Black cannot move." in picture


def scripted(answers: list[str]) -> tuple[object, str]:
    feed = iter(answers)
    console = Console(file=io.StringIO(), width=100, color_system=None)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    outcome = play_abluka("beginner", "b", 20, read=read, console=console, seed=3, echo=True)
    return outcome, console.file.getvalue()  # type: ignore[attr-defined]


def test_a_scripted_game_against_the_engine() -> None:
    # Illegal input is explained; a turn can be typed at once or square by square;
    # "undo" takes back the last pair of turns; the game ends when the input ends.
    outcome, output = scripted(["e4", "d2/d2", "moves", "d2/d1", "undo", "e2", "undo", "c2", "c3", "quit"])
    assert outcome is None
    assert "Not allowed: king step not allowed" in output
    assert "Not allowed: the blocker cannot go on d2" in output
    assert "King steps: c1 e1 c2 d2 e2" in output
    assert "Black plays" not in output
    assert "White plays" in output
    assert "Game abandoned." in output


def test_playing_to_the_end_reports_the_result() -> None:
    # The human (White) always plays the first legal turn of the board last drawn.
    console = Console(file=io.StringIO(), width=100, color_system=None)
    typed: list[str] = []

    def read(prompt: str) -> str:
        shown = [line for line in console.file.getvalue().splitlines() if line.startswith("abluka: ")]  # type: ignore[attr-defined]
        position = AblukaPosition.from_notation(shown[-1].removeprefix("abluka: "))
        typed.append(position.legal_turns()[0].text)
        return typed[-1]

    outcome = play_abluka("easy", "w", 20, read=read, console=console, seed=1, echo=False)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert outcome is not None and outcome.winner in (WHITE, BLACK)
    assert ("You win!" if outcome.winner == WHITE else "The engine wins.") in output
    assert output.count("Black plays") in (len(typed), len(typed) + 1)


def test_a_human_who_wins_is_told_so() -> None:
    # The human's turns are the engine's own at a strong level, against the beginner.
    import tavla.engine.builtin  # noqa: F401  (registers the engines)
    from tavla.engine.registry import engine_for

    engine = engine_for("abluka")
    console = Console(file=io.StringIO(), width=100, color_system=None)

    def read(prompt: str) -> str:
        shown = [line for line in console.file.getvalue().splitlines() if line.startswith("abluka: ")]  # type: ignore[attr-defined]
        position = AblukaPosition.from_notation(shown[-1].removeprefix("abluka: "))
        return str(engine.move(position, "hard", 50)["move"])

    outcome = play_abluka("beginner", "w", 20, read=read, console=console, seed=0, echo=False)
    assert outcome is not None and outcome.winner == WHITE
    assert console.file.getvalue().splitlines()[-1] == "You win!"  # type: ignore[attr-defined]
