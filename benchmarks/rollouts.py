"""Rollouts of the shipped networks: cost, spread, and how far the shallower estimates lie.

    .venv/bin/python benchmarks/rollouts.py --game tapa [--positions 30] [--seed 0]
        [--settings 36x10 12x10vr 12xendvr]

Positions after a turn are taken from seeded self-play games of the game's network
(every sixth turn). Each is rolled out with every ``--settings`` (TRIALS x TURNS, ``end``
to play to the game's end, ``vr`` for variance reduction), for the player who just
moved, and the table gives per settings: CPU seconds a position, the mean standard
error of the equity, and the mean distance in equity from the rollout to the
network's 0-ply and 1-ply estimates of the same positions, each with the same
standard error's share taken out (the root of the mean of d^2 - se^2: what is left
is the estimate's own distance from the rollout's truth).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import tavla.cli  # before numpy loads: its BLAS on one thread, as the command runs it

# isort: split
import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tavla
from tavla.bots.network import Network
from tavla.bots.outcomes import equity
from tavla.bots.players import network_player
from tavla.bots.rollout import Roller, RolloutSettings
from tavla.bots.search import DiceSearch, SearchSettings
from tavla.rules.dicegame import DiceGame

console = Console(width=120)


def parse(word: str, seed: int) -> RolloutSettings:
    reduced = word.endswith("vr")
    trials, _, turns = word.removesuffix("vr").partition("x")
    return RolloutSettings(int(trials), 0 if turns == "end" else int(turns), reduced, seed)


def positions_of(game: str, network: Network, count: int, seed: int) -> list[DiceGame[Any]]:
    player = network_player(network)
    dice = random.Random(seed)
    found: list[DiceGame[Any]] = []
    while len(found) < count:
        position: DiceGame[Any] = tavla.find_game(game).start().with_side(dice.randrange(2))  # type: ignore[assignment]
        turns = 0
        while position.outcome() is None and len(found) < count:
            if position.is_chance:
                position = position.with_roll((dice.randint(1, 6), dice.randint(1, 6)))
                continue
            position = player.choose(position).after
            turns += 1
            if turns % 6 == 0 and position.outcome() is None:
                found.append(position)
    return found


def distance(estimate: Any, rolled: Any, spread: Any) -> str:
    """The root mean square distance of ``estimate`` from the rollouts, less their noise."""
    excess = float(np.mean((estimate - rolled) ** 2 - spread**2))
    return f"{np.sqrt(max(excess, 0.0)):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", required=True)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--settings", nargs="+", default=["36x10", "12x10vr", "12xendvr"])
    args = parser.parse_args()
    network = Network.shipped(args.game)
    positions = positions_of(args.game, network, args.positions, args.seed)
    search = DiceSearch(network, SearchSettings())
    owners = [1 - position.to_act for position in positions]
    zero = np.array([float(equity(network.chances(p, o))) for p, o in zip(positions, owners, strict=True)])
    one = np.array(
        [float(equity(search.position_estimate(p, o, 1))) for p, o in zip(positions, owners, strict=True)]
    )
    table = Table(
        title=f"{args.game}: rollouts of {len(positions)} positions of self-play (seed {args.seed})"
    )
    for heading in ("settings", "CPU s a position", "mean s.e.", "0-ply off by", "1-ply off by"):
        table.add_column(heading, justify="right")
    roller = Roller(network)
    with Progress(console=console, transient=True) as progress:
        for word in args.settings:
            settings = parse(word, args.seed)
            task = progress.add_task(settings.label, total=len(positions))
            values, errors = [], []
            begin = time.process_time()
            for position, owner in zip(positions, owners, strict=True):
                found = roller.rollout(position, owner, settings)
                values.append(found.equity)
                errors.append(found.equity_error)
                progress.advance(task)
            seconds = (time.process_time() - begin) / len(positions)
            rolled, spread = np.array(values), np.array(errors)
            off = [distance(estimate, rolled, spread) for estimate in (zero, one)]
            table.add_row(settings.label, f"{seconds:.2f}", f"{spread.mean():.3f}", *off)
    console.print(table)


if __name__ == "__main__":
    main()
