"""Strength of the dice-game players against each other, on shared dice.

    .venv/bin/python benchmarks/bot_strength.py --game tapa --player heuristic --opponent random
        [--games 1000] [--seed 0 [5000 ...]] [--weights FILE.npz] [--opponent-weights FILE.npz]

Players (``tavla.bots.baselines``): random, heuristic, pubeval (tabla's board),
network (the shipped weights, or ``--weights`` for a file that ``tavla train``
wrote; ``--opponent-weights`` gives the opponent its own, so that two networks of one
game meet); the bot levels (``tavla.bots.levels``: beginner ... max, searched without a
time limit so that results do not depend on the machine; over ``--weights`` too when
given); and for tabla GNU
Backgammon, ``gnubg`` at 0 plies or ``gnubg2`` at 2 (its "world class" play), and
bgsage (``tavla.oracles.bgsage``, the ``bench`` extra), ``bgsage`` at 0 plies (its
network alone) or ``bgsage1`` at 1; for
indiyka ``exact``, the turn with the best exact winning chance (its engine's play). Each
seed is played twice with the colours swapped, so both players meet the same dice
(``tavla.bots.duel``). Prints games, wins, points per game for the
player with its 95% confidence interval, and each side's CPU time per move. Several
``--seed`` values play as many sets of ``--games`` games, each exactly the run of that
seed alone, a row apiece and their sum at the end: docs/bots.md compares players over
the eight sets ``--seed 0 5000 10000 15000 20000 25000 1000000 30000``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tavla.cli  # noqa: F401  (before numpy loads: its BLAS on one thread, as the command runs it)
from tavla.bots.baselines import BASELINES, baseline_player
from tavla.bots.duel import MAX_TURNS, DuelResult, duel
from tavla.bots.indiyka_exact import best_turn
from tavla.bots.levels import LEVELS, LevelPlayer
from tavla.bots.network import Network
from tavla.bots.players import Player, network_player
from tavla.oracles.bgsage import BgsagePlayer
from tavla.oracles.gnubg import GnubgOracle, GnubgPlayer
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn

console = Console(width=120)


class Timed:
    """A player whose moves are counted and timed (CPU time of this process)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.moves = 0
        self.seconds = 0.0

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        begin = time.process_time()
        turn = self.player.choose(position)
        self.seconds += time.process_time() - begin
        self.moves += 1
        return turn

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.seconds / self.moves if self.moves else 0.0


GNUBG_PLAYERS = {"gnubg": 0, "gnubg1": 1, "gnubg2": 2}
BGSAGE_PLAYERS = {"bgsage": 0, "bgsage1": 1}
PLAYERS = (*BASELINES, *LEVELS, *GNUBG_PLAYERS, *BGSAGE_PLAYERS, "exact")


class ExactIndiyka:
    """Indiyka's bot: the turn that leaves the best exact winning chance."""

    name = "exact"

    def choose(self, position: Any) -> Any:
        return best_turn(position)


def make(name: str, game: str, seed: int, weights: Path | None) -> Player:
    if name == "network" and weights is not None:
        return network_player(Network.load(weights))
    if name in LEVELS:
        return LevelPlayer(game, name, seed=seed, network=None if weights is None else Network.load(weights))
    if name == "exact":
        if game != "indiyka":
            raise SystemExit("the exact player plays indiyka only")
        return ExactIndiyka()
    if name in GNUBG_PLAYERS:
        return GnubgPlayer(GnubgOracle(), GNUBG_PLAYERS[name])
    if name in BGSAGE_PLAYERS:
        return BgsagePlayer(BGSAGE_PLAYERS[name])
    return baseline_player(name, game, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", required=True)
    parser.add_argument("--player", choices=PLAYERS, default="network")
    parser.add_argument("--opponent", choices=PLAYERS, default="heuristic")
    parser.add_argument("--games", type=int, default=1000, help="games in all (half as many seeds)")
    parser.add_argument(
        "--seed",
        type=int,
        nargs="+",
        default=[0],
        help="first seed of the dice; several make as many sets of --games each, a row apiece",
    )
    parser.add_argument("--weights", type=Path, help="a network file for the 'network' player and the levels")
    parser.add_argument(
        "--opponent-weights",
        type=Path,
        help="a network file for the opponent when it is 'network' (default: as --weights)",
    )
    args = parser.parse_args()
    # Two networks meeting each other need a second column name.
    opponent_label = "opponent" if args.opponent == args.player else args.opponent
    table = Table(title=f"{args.game}: {args.player} against {args.opponent}, same dice both ways")
    columns = [
        "games",
        "won",
        "points per game",
        "95% CI",
        f"{args.player} ms/move",
        f"{opponent_label} ms/move",
    ]
    for column in (["first seed"] if len(args.seed) > 1 else []) + columns:
        table.add_column(column, justify="right")
    total: DuelResult | None = None
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(
            f"{args.game}: {args.player} vs {args.opponent}",
            total=len(args.seed) * 2 * max(1, args.games // 2),
        )
        for first_seed in args.seed:
            # Each set is the run of `--seed first_seed` alone: the same players, dice and noise.
            first = Timed(make(args.player, args.game, first_seed + 1, args.weights))
            second = Timed(
                make(args.opponent, args.game, first_seed + 2, args.opponent_weights or args.weights)
            )
            seeds = range(first_seed, first_seed + max(1, args.games // 2))
            result = duel(args.game, first, second, seeds, on_game=lambda: progress.advance(task))
            total = result if total is None else total + result
            label = [str(first_seed)] if len(args.seed) > 1 else []
            table.add_row(*label, *_figures(result), f"{first.ms_per_move:.2f}", f"{second.ms_per_move:.2f}")
    if total is not None and len(args.seed) > 1:
        table.add_section()
        table.add_row("all", *_figures(total), "", "")
    console.print(table)
    if total is not None and total.unfinished:
        console.print(
            f"{total.unfinished} games left unfinished after {MAX_TURNS} turns (counted with no points)"
        )


def _figures(result: DuelResult) -> tuple[str, str, str, str]:
    return (str(result.games), f"{result.win_rate:.1%}", f"{result.ppg:+.3f}", f"± {result.ppg_ci95:.3f}")


if __name__ == "__main__":
    main()
