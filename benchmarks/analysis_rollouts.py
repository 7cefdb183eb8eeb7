"""What rolling out the marked turns does to an analysis, and what it costs.

    .venv/bin/python benchmarks/analysis_rollouts.py [--game tapa ...] [--games 4] [--seed 0]
        [--trials 36] [--truncate 10] [--no-variance-reduction] [--plies 0] [--part 0]
        [--review-part 0]

For each game, plays ``--games`` one-point matches of the bot at level ``medium`` against
the heuristic baseline (seeded dice), reviews them as ``tavla analyze`` does at
``--plies`` (``--review-part`` actions at a time, as the site's workers do), then rolls
out every marked turn as ``tavla analyze --rollout`` does with the given settings
(docs/analysis.md), ``--part`` trials at a time as the site's workers play them (all at
once by default). Prints, per game: the CPU seconds of a match's review and of its
longest part, the marked turns, the CPU seconds a rollout of one takes on average and at
most, its longest part, the rollouts' mean standard error, the equity the bot said the
marked turns lost against what the rollouts say, and how many marks the rollouts kept,
lowered, raised or cleared.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tavla.cli  # noqa: F401  (before numpy loads: its BLAS on one thread, as the command runs it)
from tavla.analysis.checker import MARKS, RolledLoss
from tavla.analysis.report import Analysis, Part, combine, review_part
from tavla.analysis.rollouts import loss_of, marked_turns, trial_differences, with_rollouts
from tavla.bots.baselines import baseline_player
from tavla.bots.levels import LevelPlayer
from tavla.bots.network import Network
from tavla.bots.rollout import Roller, RolloutSettings
from tavla.bots.search import SearchSettings
from tavla.core.dice import SeededDice
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings

console = Console(width=120)
GAMES = ("tabla", "tapa", "chelebi", "gulbara")
SEVERITY = {"": 0, **{name: len(MARKS) - rank for rank, (_, name) in enumerate(MARKS)}}


def play(game: str, seed: int) -> MatchRecord:
    """A one-point match of level ``medium`` (seat 0) against the heuristic (seat 1)."""
    players = (LevelPlayer(game, "medium"), baseline_player("heuristic", game))
    settings = MatchSettings(game=game, length=1, names=("medium", "heuristic"))
    match = Match(settings, dice=SeededDice(seed), start=True)
    while match.state.result is None:
        seat = match.state.actor
        if match.state.phase == "move" and seat is not None:
            match.move(seat, players[seat].choose(match.state.position))  # type: ignore[arg-type]
        else:
            match.roll()
    return MatchRecord.of(match)


def review_in_parts(
    record: MatchRecord, estimator_for: Callable[[str], Network], plies: int, size: int
) -> tuple[Analysis, list[float]]:
    """The record reviewed ``size`` actions at a time (0: at once) as the site's workers
    review it, and the CPU seconds of each part."""
    total = len(record.actions)
    size = size or max(total, 1)
    parts: list[Part] = []
    took: list[float] = []
    start = None
    for first in range(0, max(total, 1), size):
        begin = time.process_time()
        part = review_part(
            record, estimator_for, SearchSettings(plies=plies), range(first, min(first + size, total)), start
        )
        took.append(time.process_time() - begin)
        parts.append(part)
        start = part.end
    return combine(record, parts), took


def measure(
    game: str, args: argparse.Namespace, settings: RolloutSettings, advance: Callable[[], None]
) -> list[str]:
    """The table's cells for ``game``."""
    estimator_for = {game: Network.shipped(game)}.__getitem__
    judged_losses: list[float] = []
    rolled_losses: list[float] = []
    errors: list[float] = []
    changes = {"kept": 0, "lowered": 0, "cleared": 0, "raised": 0}
    seconds = 0.0
    longest_turn = longest_part = 0.0
    review_seconds = longest_review_part = 0.0
    roller = Roller(estimator_for(game))
    step = args.part or settings.trials
    for seed in range(args.seed, args.seed + args.games):
        record = play(game, seed)
        judged, part_seconds = review_in_parts(record, estimator_for, args.plies, args.review_part)
        review_seconds += sum(part_seconds)
        longest_review_part = max(longest_review_part, *part_seconds)
        found: dict[int, RolledLoss] = {}
        for review in marked_turns(judged):
            parts: list[Any] = []
            turn = 0.0
            for first in range(0, settings.trials, step):
                begin = time.process_time()
                chosen = range(first, min(first + step, settings.trials))
                parts.append(trial_differences(roller, record.settings.definition, review, settings, chosen))
                took = time.process_time() - begin
                longest_part = max(longest_part, took)
                turn += took
            longest_turn = max(longest_turn, turn)
            seconds += turn
            found[review.action_index] = loss_of(parts, settings)
        rolled = with_rollouts(judged, record, found)
        for before, after in zip(judged.moves, rolled.moves, strict=True):
            if after.rollout is None:
                continue
            judged_losses.append(before.loss)
            rolled_losses.append(after.rollout.loss)
            errors.append(after.rollout.error)
            old, new = SEVERITY[before.mark], SEVERITY[after.mark]
            kind = "kept" if new == old else "cleared" if new == 0 else "lowered" if new < old else "raised"
            changes[kind] += 1
        advance()
    count = len(errors)
    if not count:
        return [
            f"{review_seconds / args.games:.2f}",
            f"{longest_review_part:.2f}",
            "0",
            *[""] * 7,
            *["0"] * 3,
        ]
    return [
        f"{review_seconds / args.games:.2f}",
        f"{longest_review_part:.2f}",
        str(count),
        f"{seconds / count:.2f}",
        f"{longest_turn:.2f}",
        f"{longest_part:.2f}",
        f"{statistics.fmean(errors):.3f}",
        f"{statistics.fmean(judged_losses):.3f}",
        f"{statistics.fmean(rolled_losses):+.3f}",
        *(str(changes[kind]) for kind in ("kept", "lowered", "cleared", "raised")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--games", type=int, default=4, help="matches a game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trials", type=int, default=36)
    parser.add_argument("--truncate", type=int, default=10)
    parser.add_argument("--no-variance-reduction", action="store_true")
    parser.add_argument("--plies", type=int, default=0, choices=(0, 1, 2))
    parser.add_argument(
        "--review-part", type=int, default=0, help="actions reviewed at a time, as the site does (0: all)"
    )
    parser.add_argument(
        "--part", type=int, default=0, help="trials played at a time, as the site's workers do (0: all)"
    )
    args = parser.parse_args()
    settings = RolloutSettings(
        trials=args.trials, truncate=args.truncate, variance_reduction=not args.no_variance_reduction
    )
    table = Table(title=f"Marked turns rolled out ({settings.label}), reviewed at {args.plies} plies")
    for heading in (
        "game",
        "review s",
        "longest review part",
        "marked",
        "CPU s each",
        "longest",
        "longest part",
        "mean error",
        "bot's loss",
        "rolled",
        "kept",
        "lowered",
        "cleared",
        "raised",
    ):
        table.add_column(heading, justify="left" if heading == "game" else "right")
    with Progress(console=console, transient=True) as progress:
        for game in args.game:
            task = progress.add_task(game, total=args.games)
            table.add_row(game, *measure(game, args, settings, partial(progress.advance, task)))
    console.print(table)
    console.print(
        "bot's loss, rolled: the mean equity the marked turns lost, by the bot's estimate and by the "
        "rollouts; kept ... raised: the marks after the rollouts against the bot's"
    )


if __name__ == "__main__":
    main()
