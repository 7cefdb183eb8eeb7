"""``tavla play abluka``: a game in the terminal against the Abluka engine.

The player types a turn as ``d2/e5`` (king to d2, blocker on e5), or the king's
square and then the blocker's on their own line. ``moves`` lists the legal turns,
``undo`` takes back the last pair of turns, ``quit`` ends the game; an empty line
shows the prompt again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console

from tavla.bots.abluka import AblukaBot
from tavla.cli.abluka_view import NAMES, render
from tavla.core.errors import IllegalMoveError, TavlaError
from tavla.core.protocol import SIDE_LETTERS, Outcome
from tavla.rules.abluka import AblukaPosition, AblukaSteps

ReadLine = Callable[[str], str]
HELP = "Type a turn such as d2/e5, or a square at a time; also: moves, undo, quit."


def play_abluka(
    level: str = "hard",
    color: str = "b",
    movetime_ms: int | None = None,
    *,
    read: ReadLine = input,
    console: Console | None = None,
    seed: int | None = None,
    echo: bool | None = None,
) -> Outcome | None:
    """Play one game; ``color`` is the human's side (``b`` moves first). The result, or None if quit."""
    side_letter = color.strip().lower()[:1]
    if side_letter not in SIDE_LETTERS:
        raise TavlaError(f"colour {color!r}: expected w or b")
    human = SIDE_LETTERS.index(side_letter)
    bot = AblukaBot(level, seed=seed)
    out = console or Console(highlight=False)
    show_input = (not sys.stdin.isatty()) if echo is None else echo
    history: list[AblukaPosition] = []
    position = AblukaPosition.start()
    out.print(f"Abluka against the engine ({level}). You are {NAMES[human]}. {HELP}")
    while position.outcome() is None:
        out.print(render(position))
        if position.side != human:
            turn, _ = bot.think(position, movetime_ms)
            out.print(f"{NAMES[position.side]} plays {turn.text}")
            history.append(position)
            position = turn.after
            continue
        answer = _human_turn(position, read, out, show_input)
        if answer is None:
            out.print("Game abandoned.")
            return None
        if answer == "undo":
            earlier = [index for index, seen in enumerate(history) if seen.side == human]
            if not earlier:
                out.print("Nothing to take back.")
                continue
            position = history[earlier[-1]]
            del history[earlier[-1] :]
            continue
        history.append(position)
        position = position.play(answer)
    out.print(render(position))
    outcome = position.outcome()
    if outcome is not None and outcome.winner is not None:
        out.print("You win!" if outcome.winner == human else "The engine wins.")
    return outcome


def _human_turn(position: AblukaPosition, read: ReadLine, out: Console, echo: bool) -> str | None:
    """A legal turn text, ``undo``, or None when the player quits or the input ends."""
    builder: AblukaSteps = position.steps()
    while True:
        prompt = "king to? " if not builder.played else f"{builder.played[0]}, blocker on? "
        try:
            text = read(prompt).strip().lower()
        except EOFError:
            return None
        if echo:
            out.print(text)
        if not text:  # an empty line asks again, as in the dice games
            continue
        if text in ("quit", "q", "exit"):
            return None
        if text in ("undo", "u"):
            if builder.played:
                builder.undo()
                continue
            return "undo"
        if text in ("moves", "m", "help", "?"):
            out.print(HELP)
            out.print("King steps: " + " ".join(position.steps().legal_steps()))
            continue
        try:
            if "/" in text:
                return position.parse_turn(text).text
            builder.step(text)
        except IllegalMoveError as error:
            out.print(f"Not allowed: {error.reason}")
            continue
        if builder.complete:
            return builder.commit().text
