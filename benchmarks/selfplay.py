"""Self-play training speed per game: the compiled generators against the pure-Python ones.

    .venv/bin/python benchmarks/selfplay.py [--games 60] [--rounds 2] [--seed 1] [--lambda 0.7]
                                            [--game tapa --game gulbara ...]

``tavla train`` spends its time in self-play: every turn lists the legal turns'
results as feature rows (``afterstates``), the network rates them, and the TD
update follows. For each game with a network (the shipped weights, learning at
a small rate) this plays ``--games`` self-play games from the same seed twice,
interleaved, best of ``--rounds``, in CPU time of this process:

- through the compiled generators of ``tavla.bots.fast`` (the ``fast`` extra,
  numba), compiled or loaded from numba's cache before any timing;
- through the rules' pure-Python generators (``fast.AVAILABLE`` switched off),
  the reference.

Both must end with the same weights, bit for bit: the benchmark says so or
stops. It prints games per second each way and their ratio.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tavla.cli  # noqa: F401  (before numpy loads: its BLAS on one thread, as `tavla train` runs it)
from tavla.bots import fast
from tavla.bots.network import Network
from tavla.training.td import TDTrainer

GAMES_WITH_NETWORKS = ("tabla", "antitabla", "chelebi", "tapa", "gulbara")
console = Console(width=120)


def selfplay(game: str, games: int, seed: int, compiled: bool, lam: float) -> tuple[float, Network]:
    """CPU seconds for ``games`` self-play games from the shipped weights, and the weights after."""
    available = fast.AVAILABLE
    fast.AVAILABLE = available and compiled
    try:
        network = Network.shipped(game)
        trainer = TDTrainer(network, alpha=0.01, lam=lam, rng=random.Random(seed))
        begin = time.process_time()
        for _ in range(games):
            trainer.play_game()
        return time.process_time() - begin, network
    finally:
        fast.AVAILABLE = available


def same_weights(one: Network, other: Network) -> bool:
    # Bytes, not numpy: numpy must load after tavla.cli has set its BLAS to one thread.
    mine, theirs = one.arrays(), other.arrays()
    return mine.keys() == theirs.keys() and all(mine[key].tobytes() == theirs[key].tobytes() for key in mine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="self-play games per game and path")
    parser.add_argument("--rounds", type=int, default=2, help="timings per path; the best is kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lambda", dest="lam", type=float, default=0.7, help="TD's trace decay (0: TD(0))")
    parser.add_argument("--game", action="append", choices=GAMES_WITH_NETWORKS, help="default: all five")
    args = parser.parse_args()
    if not fast.AVAILABLE:
        parser.error("numba (the fast extra) is not installed: there is no compiled path to compare")
    fast.warm_up()
    chosen = args.game or list(GAMES_WITH_NETWORKS)
    title = f"self-play TD({args.lam:g}) games, {args.games} a round, best of {args.rounds} (CPU time)"
    table = Table(title=title)
    for column in ("game", "compiled games/s", "pure Python games/s", "ratio", "same weights"):
        table.add_column(column, justify="right" if column != "game" else "left")
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("self-play", total=len(chosen) * args.rounds * 2)
        for game in chosen:
            best = {True: float("inf"), False: float("inf")}
            weights: dict[bool, Network] = {}
            for _ in range(args.rounds):
                for compiled in (True, False):
                    seconds, weights[compiled] = selfplay(game, args.games, args.seed, compiled, args.lam)
                    best[compiled] = min(best[compiled], seconds)
                    progress.advance(task)
            same = same_weights(weights[True], weights[False])
            if not same:
                raise SystemExit(f"{game}: the two paths ended with different weights")
            compiled_rate, pure_rate = args.games / best[True], args.games / best[False]
            ratio = compiled_rate / pure_rate
            table.add_row(game, f"{compiled_rate:.1f}", f"{pure_rate:.1f}", f"{ratio:.2f} x", "yes")
    console.print(table)


if __name__ == "__main__":
    main()
