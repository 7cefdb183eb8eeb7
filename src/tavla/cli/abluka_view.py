"""The terminal picture of an Abluka position (RULES.md 8): a 7x7 grid.

Files a-g run left to right and rank 7 is at the top, as in the notation; ``B`` and
``W`` are the kings, ``#`` a blocker and ``.`` an empty square. The squares the side
to move can step to are marked ``*``.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from tavla.core.protocol import WHITE
from tavla.rules.abluka import AblukaPosition
from tavla.rules.abluka.board import BIT, FILES, SIZE

KING_STYLES = {"W": "bold bright_white", "B": "bold red"}
NAMES = ("White", "Black")


def render(position: AblukaPosition) -> RenderableType:
    """The board as styled text, with whose turn it is (or who won)."""
    steps = position.king_steps()
    lines: list[Text] = [Text(f"abluka: {position.notation()}", style="bold")]
    for rank in range(SIZE - 1, -1, -1):
        line = Text(f"{rank + 1} ")
        for file in range(SIZE):
            square = rank * SIZE + file
            if square == position.white:
                line.append(" W", style=KING_STYLES["W"])
            elif square == position.black:
                line.append(" B", style=KING_STYLES["B"])
            elif position.blockers & BIT[square]:
                line.append(" #", style="dim")
            elif steps & BIT[square]:
                line.append(" *", style="green")
            else:
                line.append(" .")
        lines.append(line)
    lines.append(Text("   " + " ".join(FILES)))
    outcome = position.outcome()
    if outcome is not None and outcome.winner is not None:
        loser = NAMES[1 - outcome.winner]
        lines.append(Text(f"{NAMES[outcome.winner]} wins: {loser} cannot move.", style="bold"))
    else:
        mover = "White (W)" if position.side == WHITE else "Black (B)"
        lines.append(Text(f"{mover} to move: step to a * square, then place a blocker."))
    return Text("\n").join(lines)
