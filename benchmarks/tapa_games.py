"""How a tapa player's games against another are won and lost: pins and the race.

    .venv/bin/python benchmarks/tapa_games.py --player medium --opponent heuristic
        [--games 1000] [--seed 0] [--weights FILE.npz]

Plays the games of ``bot_strength.py`` with the same arguments (the same seeds, both
colours, the same dice) and counts, for the player, in every game: the opponent's
checkers it pinned and its own that were pinned (each checker caught counts once each
time it is caught), where on the board its own were caught, and the race when contact
ends (the first position after a turn in which every checker of one side has passed
every checker of the other, a pinned checker counted where it lies): the opponent's pips
minus the player's. Prints how the games ended, and the share won after each count of
pins and each race lead, so that one sees where a player's losses come from
(docs/bots.md, "Where tapa's games are lost").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tavla.cli  # noqa: F401  (before numpy loads: its BLAS on one thread, as the command runs it)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.bot_strength import PLAYERS, make

from tavla.bots.duel import play_game
from tavla.core.protocol import WHITE
from tavla.rules.tapa.position import TapaPosition

console = Console(width=120)
POINTS = 24
RACE_BUCKETS = ((-999, -20), (-20, -5), (-5, 5), (5, 20), (20, 999))
QUARTERS = ("1-6", "7-12", "13-18", "19-24")


def sign(player: int) -> int:
    return 1 if player == WHITE else -1


def pinned_points(position: TapaPosition, player: int) -> set[int]:
    """The board indexes (White's numbering, 0-23) where ``player``'s checker lies pinned."""
    return {index for index, pin in enumerate(position.pins) if pin * sign(player) > 0}


def own_point(index: int, player: int) -> int:
    """The point ``player`` calls a board index (1-24, his 24 being where he starts)."""
    return index + 1 if player == WHITE else POINTS - index


def occupied(position: TapaPosition, player: int) -> list[int]:
    s = sign(player)
    return [i for i in range(POINTS) if position.tops[i] * s > 0 or position.pins[i] * s > 0]


def pips(position: TapaPosition, player: int) -> int:
    s = sign(player)
    return sum(
        (max(position.tops[i] * s, 0) + (position.pins[i] * s > 0)) * own_point(i, player)
        for i in range(POINTS)
    )


def contact_over(position: TapaPosition) -> bool:
    # White moves down the indexes and Black up them: they have passed when White's
    # highest checker is below Black's lowest.
    white, black = occupied(position, WHITE), occupied(position, 1 - WHITE)
    return not white or not black or max(white) < min(black)


@dataclass
class GameCount:
    """What happened in one game, for the player of ``seat``."""

    seat: int
    pins_made: int = 0
    pins_suffered: int = 0
    caught_on: Counter[int] = field(default_factory=Counter)
    race_lead: int | None = None

    def watch(self, before: Any, after: Any) -> None:
        for player in (self.seat, 1 - self.seat):
            new = pinned_points(after, player) - pinned_points(before, player)
            if player == self.seat:
                self.pins_suffered += len(new)
                self.caught_on.update((own_point(index, player) - 1) // 6 for index in new)
            else:
                self.pins_made += len(new)
        if self.race_lead is None and contact_over(after):
            self.race_lead = pips(after, 1 - self.seat) - pips(after, self.seat)


def bucket_table(title: str, rows: list[tuple[str, list[int]]]) -> Table:
    table = Table(title=title)
    for column in ("", "games", "share of games", "won"):
        table.add_column(column, justify="right")
    total = sum(len(scores) for _, scores in rows)
    for label, scores in rows:
        if scores:
            won = sum(score > 0 for score in scores) / len(scores)
            table.add_row(label, str(len(scores)), f"{len(scores) / total:.1%}", f"{won:.1%}")
    return table


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--player", choices=PLAYERS, default="medium")
    parser.add_argument("--opponent", choices=PLAYERS, default="heuristic")
    parser.add_argument("--games", type=int, default=1000, help="games in all (half as many seeds)")
    parser.add_argument("--seed", type=int, default=0, help="first seed of the dice")
    parser.add_argument("--weights", type=Path, help="a network file for the 'network' player and the levels")
    args = parser.parse_args()
    first = make(args.player, "tapa", args.seed + 1, args.weights)
    second = make(args.opponent, "tapa", args.seed + 2, None)
    seeds = range(args.seed, args.seed + max(1, args.games // 2))
    counts: list[tuple[GameCount, int]] = []
    endings: Counter[str] = Counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"tapa: {args.player} vs {args.opponent}", total=2 * len(seeds))
        for seed in seeds:
            for seat in (0, 1):
                players = (first, second) if seat == 0 else (second, first)
                count = GameCount(seat)
                outcome = play_game("tapa", players, seed, watch=count.watch)
                if outcome is None or outcome.winner is None:
                    score, ending = 0, "void or unfinished"
                else:
                    score = outcome.points if outcome.winner == seat else -outcome.points
                    ending = f"{'won' if score > 0 else 'lost'} {outcome.reason.value}"
                endings[ending] += 1
                counts.append((count, score))
                progress.advance(task)
    games = len(counts)
    won = sum(score > 0 for _, score in counts)
    console.print(
        f"tapa: {args.player} against {args.opponent}, {games} games from seed {args.seed}: "
        f"{won / games:.1%} won, {sum(score for _, score in counts) / games:+.3f} a game"
    )
    ended = Table(title="How the games ended")
    ended.add_column("")
    ended.add_column("games", justify="right")
    for ending, number in sorted(endings.items()):
        ended.add_row(ending, str(number))
    console.print(ended)
    pins = Table(title=f"Pins a game ({args.player}'s own caught on his points ...)")
    for column in ("", "all games", "games won", "games lost", *QUARTERS):
        pins.add_column(column, justify="right")
    for label, attribute in (("made", "pins_made"), ("suffered", "pins_suffered")):
        values = [(getattr(count, attribute), score) for count, score in counts]
        wins = [value for value, score in values if score > 0]
        losses = [value for value, score in values if score < 0]
        quarters = (
            [f"{sum(c.caught_on[q] for c, _ in counts) / games:.2f}" for q in range(4)]
            if attribute == "pins_suffered"
            else [""] * 4
        )
        pins.add_row(
            label,
            f"{sum(value for value, _ in values) / games:.2f}",
            f"{sum(wins) / max(1, len(wins)):.2f}",
            f"{sum(losses) / max(1, len(losses)):.2f}",
            *quarters,
        )
    console.print(pins)
    by_difference: dict[int, list[int]] = {difference: [] for difference in range(-3, 4)}
    for count, score in counts:
        by_difference[max(-3, min(3, count.pins_made - count.pins_suffered))].append(score)
    console.print(
        bucket_table(
            "Pins made minus pins suffered",
            [
                (
                    f"{difference:+d}"
                    + (" or fewer" if difference == -3 else " or more" if difference == 3 else ""),
                    scores,
                )
                for difference, scores in by_difference.items()
            ],
        )
    )
    by_race: list[tuple[str, list[int]]] = []
    for low, high in RACE_BUCKETS:
        scores = [score for c, score in counts if c.race_lead is not None and low <= c.race_lead < high]
        label = (
            f"below {high}" if low == -999 else f"{low} or more" if high == 999 else f"{low} to {high - 1}"
        )
        by_race.append((label, scores))
    by_race.append(("contact never ended", [score for c, score in counts if c.race_lead is None]))
    console.print(bucket_table(f"{args.player}'s race lead in pips when contact ended", by_race))


if __name__ == "__main__":
    main()
