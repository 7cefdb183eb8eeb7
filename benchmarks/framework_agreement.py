"""The tabla family's fast generator against the dice-game framework's own search.

    .venv/bin/python benchmarks/framework_agreement.py [--games 20] [--seed 1]

Plays seeded random games of tabla, antitabla and chelebi, and for every position met
and each of the 21 rolls lists the legal turns twice: with the fast whole-turn
generator (``legal_turns()``) and with the framework's breadth-first search
(``DiceGame._generate_turns``). It counts the (position, roll) pairs, the turns, and
the pairs where the two differ in resulting positions or in texts, and times both.
Progressive doubles too large to list (over 3,000 positions after a die) are counted
apart and skipped.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.progress import track
from rich.table import Table

import tavla
from tavla.core.dice import ROLLS
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.dicegame import DiceGame

GAMES = ("tabla", "antitabla", "chelebi")
LIST_LIMIT = 3000


def positions_of(game: str, games: int, rng: random.Random) -> list[BackgammonPosition]:
    """Positions to roll from: every position with the side to roll in seeded games
    (turns chosen at random, step by step, so that no long list is needed)."""
    found: list[BackgammonPosition] = []
    for _ in range(games):
        position = tavla.find_game(game).start().with_side(rng.randrange(2))
        while position.outcome() is None:
            if isinstance(position, BackgammonPosition):
                found.append(position)
            rolled = position.with_roll(rng.choice([roll for roll, _ in ROLLS]))
            builder = rolled.steps()
            while not builder.complete:
                builder.step(rng.choice(list(builder.legal_steps())))
            position = rolled.play(builder.commit())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="random games per game (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = Table(title="fast generator vs framework search, every roll of every position met")
    for column in ("game", "positions", "pairs", "turns", "differ", "skipped", "fast s", "framework s"):
        table.add_column(column, justify="right")
    for game in GAMES:
        positions = positions_of(game, args.games, random.Random(f"{args.seed} {game}"))
        pairs = turns = differ = skipped = 0
        fast_s = framework_s = 0.0
        for position in track(positions, description=f"{game:10}"):
            for roll, _ in ROLLS:
                rolled = position.with_roll(roll)
                if rolled.legal_turns_within(LIST_LIMIT) is None:
                    skipped += 1
                    continue
                rolled = position.with_roll(roll)  # a fresh copy: nothing cached
                started = time.perf_counter()
                fast = {turn.after: turn.text for turn in rolled.legal_turns()}
                fast_s += time.perf_counter() - started
                started = time.perf_counter()
                framework = {turn.after: turn.text for turn in DiceGame._generate_turns(rolled)}
                framework_s += time.perf_counter() - started
                pairs += 1
                turns += len(fast)
                differ += fast != framework
        table.add_row(
            game,
            f"{len(positions):,}",
            f"{pairs:,}",
            f"{turns:,}",
            str(differ),
            str(skipped),
            f"{fast_s:.1f}",
            f"{framework_s:.1f}",
        )
    Console().print(table)
    print("times include building every resulting position and its canonical text")


if __name__ == "__main__":
    main()
