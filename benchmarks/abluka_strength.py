"""How strong is the Abluka engine? Matches against a random player and AB-Improved.

Openings: random two-ply openings (a random turn by each side), each played twice
with the colours swapped. Both players get the same time per move. Prints the win
rate with a 95% (Wilson) confidence interval, the engine's nodes per second and the
depth it and AB-Improved reached per phase of the game (by the number of blockers on
the board; the engine stops early when it has proved a result, and its endgame
solver's exact answers count as depth 0 and are left out).

    .venv/bin/python benchmarks/abluka_strength.py --games 200 --movetime-ms 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from tavla.bots.abluka import AblukaBot
from tavla.bots.abluka.baselines import AbImproved, random_opening, random_turn
from tavla.rules.abluka import AblukaPosition

PHASES = (("opening (0-9 blockers)", 0, 9), ("middle (10-19)", 10, 19), ("late (20+)", 20, 49))


@dataclass
class GameResult:
    engine_won: bool
    turns: int
    nodes: int = 0
    engine_ms: int = 0
    depths: dict[str, list[int]] = field(default_factory=dict)
    baseline_depths: dict[str, list[int]] = field(default_factory=dict)


def phase_of(position: AblukaPosition) -> str:
    count = position.blockers.bit_count()
    return next(name for name, low, high in PHASES if low <= count <= high)


def play_game(opponent: str, opening_seed: int, engine_side: int, movetime_ms: int, level: str) -> GameResult:
    position = random_opening(opening_seed)
    bot = AblukaBot(level)
    baseline = AbImproved()
    rng = random.Random(opening_seed * 2 + engine_side)
    result = GameResult(False, 0)
    depths: dict[str, list[int]] = defaultdict(list)
    baseline_depths: dict[str, list[int]] = defaultdict(list)
    while position.outcome() is None:
        if position.side == engine_side:
            turn, found = bot.think(position, movetime_ms)
            result.nodes += found.nodes
            result.engine_ms += found.elapsed_ms
            if found.depth:
                depths[phase_of(position)].append(found.depth)
            position = turn.after
        else:
            if opponent == "random":
                to, block = random_turn(position.mover, position.waiter, position.blockers, rng)
            else:
                to, block, reached = baseline.choose(
                    position.mover, position.waiter, position.blockers, movetime_ms
                )
                baseline_depths[phase_of(position)].append(reached)
            position = position.after_turn(to, block)
        result.turns += 1
    outcome = position.outcome()
    result.engine_won = outcome is not None and outcome.winner == engine_side
    result.depths = dict(depths)
    result.baseline_depths = dict(baseline_depths)
    return result


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(
    opponent: str, games: int, movetime_ms: int, jobs: int, level: str, seed: int, console: Console
) -> list[str]:
    tasks = [(opponent, seed + index // 2, index % 2, movetime_ms, level) for index in range(games)]
    results: list[GameResult] = []
    with Progress(console=console) as progress:
        bar = progress.add_task(f"vs {opponent} at {movetime_ms} ms/move", total=games)
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_game, *task) for task in tasks]
            for future in as_completed(futures):
                results.append(future.result())
                progress.advance(bar)
    wins = sum(r.engine_won for r in results)
    low, high = wilson(wins, games)
    nodes = sum(r.nodes for r in results)
    seconds = sum(r.engine_ms for r in results) / 1000
    depth_text = []
    for name, _, _ in PHASES:
        reached = [d for r in results for d in r.depths.get(name, [])]
        text = f"{sum(reached) / len(reached):.1f} (max {max(reached)})" if reached else "-"
        theirs = [d for r in results for d in r.baseline_depths.get(name, [])]
        if theirs:
            text += f" / {sum(theirs) / len(theirs):.1f}"
        depth_text.append(text)
    return [
        opponent,
        str(movetime_ms),
        str(games),
        f"{wins}",
        f"{100 * wins / games:.1f}%",
        f"{100 * low:.1f}-{100 * high:.1f}%",
        f"{nodes / seconds:,.0f}" if seconds else "-",
        *depth_text,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games", type=int, default=200, help="games per opponent (even: openings x 2 colours)"
    )
    parser.add_argument("--movetime-ms", type=int, default=1000, help="time per move for both players")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    parser.add_argument("--opponent", choices=("random", "ab-improved", "both"), default="both")
    parser.add_argument("--level", default="max", help="the engine's level")
    parser.add_argument("--seed", type=int, default=1, help="first opening seed")
    args = parser.parse_args()
    console = Console(width=170)
    opponents = ("random", "ab-improved") if args.opponent == "both" else (args.opponent,)
    table = Table(title="Abluka engine strength")
    columns = ["opponent", "ms/move", "games", "wins", "win rate", "95% CI", "engine nodes/s"]
    columns += [f"depth, {name}: engine (max) / baseline" for name, _, _ in PHASES]
    for column in columns:
        table.add_column(column)
    for opponent in opponents:
        table.add_row(*run(opponent, args.games, args.movetime_ms, args.jobs, args.level, args.seed, console))
    console.print(table)


if __name__ == "__main__":
    main()
