"""Afterstates of tabla against bgsage's generator, and random playouts per game.

    .venv/bin/python benchmarks/afterstates.py [--positions 300] [--rounds 3] [--seed 1]
                                               [--games 40] [--playout-rounds 2]

Part 1 takes the fixed tabla position set of ``benchmarks/movegen.py`` (300 seeded
positions x 21 rolls) and times, interleaved, in CPU time of this process, best of
``--rounds``:

- ``afterstates(position)``: every legal turn's resulting position as a float32
  feature row (texts not asked for: a bot reads them for the turn it plays);
- the same, reading every text too (``.texts``);
- ``legal_turns()`` then every ``turn.after`` encoded one by one (the way without
  afterstates);
- ``bgsage.possible_moves`` (if installed; ``make bench`` installs it): the C++
  generator's resulting boards as Python lists, no features.

With numba installed (the ``fast`` extra) ``afterstates`` and ``random_playout``
run the compiled generators of ``tavla.bots.fast``: they are compiled, or loaded
from numba's cache, before any timing (``fast.warm_up``).

Part 2 plays seeded random games of every dice game, from the start with a
random side to begin, on one core: the old way (every turn built die by die
through ``position.steps()`` with random legal steps, as
``benchmarks/rules_games.py`` plays) and ``tavla.bots.playout.random_playout``,
the same seeds for both, interleaved, best of ``--playout-rounds``. It prints
games per second and the ratio.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tavla
from tavla.bots import fast
from tavla.bots.afterstates import afterstates
from tavla.bots.encoding import encoder_for
from tavla.bots.playout import random_playout
from tavla.rules.backgammon import BackgammonPosition

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.movegen import ALL_ROLLS, bgsage, bgsage_board, tabla_position_set

DICE_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")
console = Console(width=140)
Job = Callable[[BackgammonPosition], object]


# ------------------------------------------------------------------ afterstates
def job_features(rolled: BackgammonPosition) -> object:
    return afterstates(rolled).features


def job_texts(rolled: BackgammonPosition) -> object:
    found = afterstates(rolled)
    return found.features, found.texts


def job_listed(rolled: BackgammonPosition) -> object:
    encoder = encoder_for(rolled)
    return [encoder.encode(turn.after, rolled.side) for turn in rolled.legal_turns()]


def job_bgsage(rolled: BackgammonPosition) -> object:
    dice = rolled.dice
    assert dice is not None
    return bgsage.possible_moves(bgsage_board(rolled), dice[0], dice[1])


def time_job(job: Job, rolled: list[BackgammonPosition]) -> float:
    """CPU seconds over fresh copies (no turn list cached from an earlier job)."""
    fresh = [position._replace() for position in rolled]
    begin = time.process_time()
    for position in fresh:
        job(position)
    return time.process_time() - begin


def report_afterstates(seed: int, size: int, rounds: int) -> None:
    positions = tabla_position_set(seed, size)
    rolled = [position.with_roll(roll) for position in positions for roll in ALL_ROLLS]
    jobs: dict[str, Job] = {
        "afterstates: features": job_features,
        "afterstates: features + every text": job_texts,
        "legal_turns() + encode every .after": job_listed,
    }
    if bgsage is not None:
        jobs["bgsage.possible_moves (boards, no features)"] = job_bgsage
    best: dict[str, float] = {}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("afterstates", total=rounds * len(jobs))
        for _ in range(rounds):
            for name, job in jobs.items():
                best[name] = min(best.get(name, float("inf")), time_job(job, rolled))
                progress.advance(task)
    reference = best.get("bgsage.possible_moves (boards, no features)")
    table = Table(title=f"tabla: {size} positions x 21 rolls, best of {rounds} rounds (CPU time)")
    for column in ("job", "time s", "position-rolls/s", "µs each", "ratio to bgsage"):
        table.add_column(column, justify="left" if column == "job" else "right")
    for name, seconds in best.items():
        table.add_row(
            name,
            f"{seconds:.2f}",
            f"{len(rolled) / seconds:,.0f}",
            f"{seconds / len(rolled) * 1e6:.1f}",
            f"{reference / seconds:.2f}" if reference else "-",
        )
    console.print(table)
    if bgsage is None:
        console.print("bgsage is not installed (`make bench` installs it): no ratio.")
    else:
        console.print("ratio = bgsage.possible_moves time / this job's time (above 1: faster than bgsage)")


# ------------------------------------------------------------------ playouts
def old_playout(position: Any, rng: random.Random) -> Any:
    """The old way: every turn built die by die through the step builder."""
    while position.outcome() is None:
        if position.is_chance:
            position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
            continue
        builder = position.steps()
        while not builder.complete:
            builder.step(rng.choice(builder.legal_steps()))
        position = builder.commit().after
    return position


def new_playout(position: Any, rng: random.Random) -> Any:
    return random_playout(position, rng).final


def time_playouts(game: str, games: int, play: Callable[[Any, random.Random], Any]) -> float:
    start = tavla.find_game(game).start()
    begin = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        play(start.with_side(rng.randrange(2)), rng)
    return time.process_time() - begin


def report_playouts(games: int, rounds: int) -> None:
    ways = {"old: steps()": old_playout, "random_playout": new_playout}
    best: dict[tuple[str, str], float] = {}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("playouts", total=rounds * len(ways) * len(DICE_GAMES))
        for _ in range(rounds):
            for game in DICE_GAMES:
                for name, play in ways.items():
                    seconds = time_playouts(game, games, play)
                    best[game, name] = min(best.get((game, name), float("inf")), seconds)
                    progress.advance(task)
    table = Table(title=f"random playouts, {games} seeded games per game, best of {rounds} rounds (CPU time)")
    for column in ("game", "old games/s", "random_playout games/s", "ratio"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for game in DICE_GAMES:
        old, new = best[game, "old: steps()"], best[game, "random_playout"]
        table.add_row(game, f"{games / old:,.1f}", f"{games / new:,.1f}", f"{old / new:.2f}")
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    begin = time.perf_counter()
    fast.warm_up()
    if fast.AVAILABLE:
        console.print(f"compiled generators (numba): ready in {time.perf_counter() - begin:.1f} s, not timed")
    else:
        console.print("numba is not installed (the fast extra): the pure-Python generators run")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=40, help="playouts per game and way (0: none)")
    parser.add_argument("--playout-rounds", type=int, default=2)
    args = parser.parse_args()
    if args.positions:
        report_afterstates(args.seed, args.positions, args.rounds)
    if args.games:
        report_playouts(args.games, args.playout_rounds)


if __name__ == "__main__":
    main()
