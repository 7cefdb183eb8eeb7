"""How far the network's verdicts on turns hold up: its lookahead's judgement of every
turn of games between two players, and paired rollouts of a sample of its verdicts.

    .venv/bin/python benchmarks/judgement.py --game tapa --player medium --opponent heuristic
        [--games 80] [--seed 0] [--trials 72] [--sample 8]

Plays the games of ``bot_strength.py`` with the same arguments (the same seeds, both
colours, the same dice). For every turn with a choice, the judge, the game's shipped
network one roll deep (level ``hard``'s filter: the best 8 turns within 0.16 at 0-ply,
and the turn played), names its best turn and the equity the turn played gives up
against it. If the judge's estimates were exact, each side's losses would add up to
the result: the player's points a game would be the opponent's losses less its own.

Then, for the opponent's turns that the judge marks as errors (0.08 or more) and for
one in ``--sample`` of the others where it prefers another turn (chosen by the
position's text, so any split of the seeds picks the same), the judge's best turn and
the turn played are rolled out to the end: ``--trials`` plain trials with the network
choosing every turn at 0-ply, both candidates meeting the same dice. The rollouts'
difference is what the turn played gives up when the network plays on, free of the
judge's own errors. Prints judged and rolled losses side by side, by the judge's mark
(docs/bots.md, "What the network's verdicts are worth").
"""

from __future__ import annotations

import argparse
import math
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tavla.cli  # noqa: F401  (before numpy loads: its BLAS on one thread, as the command runs it)

# isort: split
import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.bot_strength import PLAYERS, make

from tavla.analysis.checker import MARKS
from tavla.bots.duel import play_game
from tavla.bots.levels import level_search
from tavla.bots.network import Network
from tavla.bots.outcomes import equity
from tavla.bots.rollout import Roller, RolloutSettings

console = Console(width=120)


@dataclass(frozen=True)
class Verdict:
    by_player: bool
    judged: float
    """Equity the turn played gives up against the judge's best, by the judge."""
    judged_win: float
    """The same in the chance of winning."""
    rolled: float | None = None
    """What the rollouts say it gives up (None: not rolled out)."""
    rolled_win: float | None = None


class Judge:
    """The shipped network at 1-ply, judging turns, and its rollouts."""

    def __init__(self, game: str, trials: int, sample: int) -> None:
        self.search = level_search(game, "hard")
        self.roller = Roller(Network.shipped(game))
        self.settings = RolloutSettings(trials=trials, variance_reduction=False, seed=7)
        self.sample = sample
        self.verdicts: list[Verdict] = []

    def watcher(self, player_seat: int) -> Any:
        def watch(before: Any, after: Any) -> None:
            verdict = self.judge(before, after, before.side == player_seat)
            if verdict is not None:
                self.verdicts.append(verdict)

        return watch

    def judge(self, before: Any, after: Any, by_player: bool) -> Verdict | None:
        found, estimate = self.search.expand(before)
        if len(found) <= 1:
            return None
        afters = [turn.after for turn in found.turns]
        texts = [position.notation() for position in afters]
        zero_ply = equity(estimate)
        order = np.argsort(-zero_ply, kind="stable")
        keep = self.search.settings.keep_at(1)
        margin = self.search.settings.margin_at(1)
        judged = [int(i) for i in order[:keep] if zero_ply[order[0]] - zero_ply[i] <= margin]
        played = texts.index(after.notation())
        if played not in judged:
            judged.append(played)
        deeper = self.search.turn_estimates([afters[i] for i in judged], before.side, 1)
        values = equity(deeper)
        at = judged.index(played)
        best = judged[int(np.argmax(values))]
        verdict = Verdict(
            by_player, float(values.max() - values[at]), float(deeper[:, 0].max() - deeper[at, 0])
        )
        key = before.notation()
        chosen = verdict.judged >= MARKS[1][0] or zlib.crc32(key.encode()) % self.sample == 0
        if by_player or best == played or not chosen:
            return verdict
        rolled = [
            self.roller.rollout(afters[i], before.side, self.settings, dice=key) for i in (best, played)
        ]
        return Verdict(
            by_player,
            verdict.judged,
            verdict.judged_win,
            rolled[0].equity - rolled[1].equity,
            float(rolled[0].chances[0] - rolled[1].chances[0]),
        )


def mean_ci(values: list[float]) -> str:
    array = np.array(values)
    if len(array) < 2:
        return f"{array.mean():+.3f}" if len(array) else ""
    return f"{array.mean():+.3f} ± {1.96 * array.std(ddof=1) / math.sqrt(len(array)):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="tapa")
    parser.add_argument("--player", choices=PLAYERS, default="medium")
    parser.add_argument("--opponent", choices=PLAYERS, default="heuristic")
    parser.add_argument("--games", type=int, default=80, help="games in all (half as many seeds)")
    parser.add_argument("--seed", type=int, default=0, help="first seed of the dice")
    parser.add_argument("--trials", type=int, default=72, help="rollout trials of each candidate")
    parser.add_argument("--sample", type=int, default=8, help="roll out one in SAMPLE of the lesser verdicts")
    parser.add_argument("--weights", type=Path, help="a network file for the player")
    args = parser.parse_args()
    first = make(args.player, args.game, args.seed + 1, args.weights)
    second = make(args.opponent, args.game, args.seed + 2, None)
    judge = Judge(args.game, args.trials, args.sample)
    seeds = range(args.seed, args.seed + max(1, args.games // 2))
    scores: list[int] = []
    per_game: list[tuple[list[Verdict], int]] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{args.game}: {args.player} vs {args.opponent}", total=2 * len(seeds))
        for seed in seeds:
            for seat in (0, 1):
                players = (first, second) if seat == 0 else (second, first)
                start = len(judge.verdicts)
                outcome = play_game(args.game, players, seed, watch=judge.watcher(seat))
                score = 0 if outcome is None or outcome.winner is None else outcome.points
                score = score if outcome is not None and outcome.winner == seat else -score
                scores.append(score)
                per_game.append((judge.verdicts[start:], score))
                progress.advance(task)
    games = len(scores)
    console.print(
        f"{args.game}: {args.player} against {args.opponent}, {games} games from seed {args.seed}: "
        f"{sum(s > 0 for s in scores) / games:.1%} won, {mean_ci([float(s) for s in scores])} a game"
    )
    losses = Table(title="What each side's turns give up a game, by the judge (network, 1-ply)")
    for column in ("", "turns with a choice", "equity", "chance of winning"):
        losses.add_column(column, justify="right")
    for label, side in ((args.player, True), (args.opponent, False)):
        mine = [[v for v in verdicts if v.by_player == side] for verdicts, _ in per_game]
        losses.add_row(
            label,
            f"{sum(map(len, mine)) / games:.1f}",
            mean_ci([sum(v.judged for v in game) for game in mine]),
            mean_ci([sum(v.judged_win for v in game) for game in mine]),
        )
    console.print(losses)
    rolled = [v for v in judge.verdicts if v.rolled is not None]
    checked = Table(
        title=f"The {args.opponent}'s turns the judge faults, rolled out ({args.trials} trials each)"
    )
    for column in ("judged loss", "turns", "judged", "rolled", "rolled, winning chance", "rolled below 0"):
        checked.add_column(column, justify="right")
    bands = ((MARKS[0][0], math.inf), (MARKS[1][0], MARKS[0][0]), (0.0, MARKS[1][0]))
    for low, high in bands:
        band = [v for v in rolled if low <= v.judged < high]
        if not band:
            continue
        label = f"{low:.2f} or more" if high == math.inf else f"{low:.2f} to {high:.2f}"
        label += f" (1 in {args.sample})" if high == MARKS[1][0] else ""
        checked.add_row(
            label,
            str(len(band)),
            mean_ci([v.judged for v in band]),
            mean_ci([v.rolled for v in band if v.rolled is not None]),
            mean_ci([v.rolled_win for v in band if v.rolled_win is not None]),
            f"{sum(v.rolled is not None and v.rolled < 0 for v in band) / len(band):.0%}",
        )
    console.print(checked)

    # The rolled-out turns stand for all the opponent's faulted turns: the lesser ones
    # are a sample of one in --sample.
    def weight(verdict: Verdict) -> int:
        return 1 if verdict.judged >= MARKS[1][0] else args.sample

    judged_total = sum(weight(v) * v.judged for v in rolled) / games
    rolled_total = sum(weight(v) * (v.rolled or 0.0) for v in rolled) / games
    console.print(
        f"The {args.opponent}'s faulted turns a game, weighted by the sample: judged {judged_total:.3f}, "
        f"rolled {rolled_total:.3f}"
    )


if __name__ == "__main__":
    main()
