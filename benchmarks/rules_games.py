"""Legal-turn generation speed per game, and the worst gulbara progressive doubles met.

    .venv/bin/python benchmarks/rules_games.py [--games N] [--cap STATES] [--seed S]

Part 1 plays seeded random games of every dice game (turns chosen step by step, so
no full listing is needed to play) and keeps every position with dice as a fixed
set; progressive doubles are set apart. It then times ``legal_turns()`` on fresh
copies of the set and prints turns per second and positions per second per game.

Part 2 takes every progressive double (gulbara, and chelebi for comparison) met in
those games and measures, per position: the number of distinct legal turns (a
breadth-first count of positions, de-duplicated after every die, stopped once a
die's level passes ``--cap``) and its time, and the time to play one whole turn
through the step interface, which never lists turns. For the three largest, the
peak memory (tracemalloc) of ``legal_turns()``, or of the capped count when there
are too many turns to list, is printed too.
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import tavla
from tavla.core.dice import ROLLS
from tavla.rules.dicegame import DiceGame

DICE_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")
PROGRESSIVE_GAMES = ("gulbara", "chelebi")
BEAM_WIDTH = 64


def random_roll(rng: random.Random) -> tuple[int, int]:
    return rng.choices([roll for roll, _ in ROLLS], [float(p) for _, p in ROLLS])[0]


def dice_count(position: Any) -> int:
    if hasattr(position, "turn_sequences"):
        sequences, _ = position.turn_sequences()
    else:
        sequences = position.dice_sequences(position.dice)
    return max(len(dice) for dice in sequences)


def play_by_steps(position: Any, rng: random.Random) -> Any:
    builder = position.steps()
    while not builder.complete:
        builder.step(rng.choice(builder.legal_steps()))
    return builder.commit().after


def collect(game: str, games: int, seed: int) -> tuple[list[str], list[str]]:
    """Decision positions met in random games: (ordinary, progressive doubles)."""
    rng = random.Random(f"{seed}-{game}")
    ordinary: list[str] = []
    progressive: list[str] = []
    for _ in range(games):
        position = tavla.find_game(game).start().with_side(rng.randrange(2))
        for _ in range(3000):
            if position.outcome() is not None:
                break
            if position.is_chance:
                position = position.with_roll(random_roll(rng))
                continue
            (progressive if dice_count(position) > 4 else ordinary).append(position.notation())
            position = play_by_steps(position, rng)
    return ordinary, progressive


def time_listing(game: str, texts: list[str]) -> tuple[int, float]:
    fresh = [tavla.from_notation(text) for text in texts]
    started = time.perf_counter()
    turns = sum(len(position.legal_turns()) for position in fresh)
    return turns, time.perf_counter() - started


@dataclass
class Worst:
    notation: str
    dice: int
    turns: int | None  # None: a die's level passed the cap
    largest_level: int
    count_s: float
    steps_s: float
    peak_mib: float = 0.0
    listing_s: float | None = None
    beam_s: float | None = None


def count_turns(position: Any, cap: int) -> tuple[int | None, int]:
    """Distinct final positions of the turn (exact), or None past ``cap``; largest level."""
    if hasattr(position, "turn_sequences"):
        sequences, _ = position.turn_sequences()
        step_function: Callable[[Any, int], Any] = position.step_function()
    else:
        sequences = position.dice_sequences(position.dice)
        step_function = type(position).step_function
    (dice,) = sequences
    level = {position.mover_state()}
    largest = 1
    for die in dice:
        following = {after for state in level for _, after in step_function(state, die)}
        if not following:
            break
        level = following
        largest = max(largest, len(level))
        if len(level) > cap:
            return None, largest
    return len(level), largest


def measure(text: str, cap: int, rng: random.Random) -> Worst:
    position = tavla.from_notation(text)
    started = time.perf_counter()
    turns, largest = count_turns(position, cap)
    count_s = time.perf_counter() - started
    started = time.perf_counter()
    play_by_steps(tavla.from_notation(text), rng)
    steps_s = time.perf_counter() - started
    return Worst(text, dice_count(position), turns, largest, count_s, steps_s)


def measure_memory(worst: Worst, cap: int) -> None:
    """Peak memory of listing the turns (or of the capped count when there are too many)."""
    position = tavla.from_notation(worst.notation)
    tracemalloc.start()
    if worst.turns is None:
        count_turns(position, cap)
    else:
        started = time.perf_counter()
        position.legal_turns()
        worst.listing_s = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    worst.peak_mib = peak / 2**20
    if hasattr(position, "best_turns"):
        started = time.perf_counter()
        again = tavla.from_notation(worst.notation)
        assert isinstance(again, DiceGame)
        again.best_turns(BEAM_WIDTH, pips_left)
        worst.beam_s = time.perf_counter() - started


def pips_left(position: Any) -> float:
    """A crude score for the beam search: the fewer pips the mover has left, the better."""
    state = position.with_side(1 - position.side).mover_state()
    return -float(sum(point * count for point, count in enumerate(state[1:25], 1) if count > 0))


def report(game: str, found: list[Worst], cap: int) -> None:
    found.sort(key=lambda worst: (worst.turns is not None, -(worst.turns or 0), -worst.largest_level))
    print(f"\n{game}: {len(found)} progressive doubles met; the largest turn sets:")
    for worst in found[:3]:
        measure_memory(worst, cap)
        turns = f">{cap}" if worst.turns is None else str(worst.turns)
        listing = (
            "listing not tried (too many)"
            if worst.listing_s is None
            else f"legal_turns() {worst.listing_s:.2f}s (under tracemalloc)"
        )
        print(
            f"  {worst.dice:>2} dice, turns {turns}, largest level after a die {worst.largest_level}, "
            f"count {worst.count_s:.2f}s, {listing}, peak {worst.peak_mib:.1f} MiB, "
            f"one turn step by step {worst.steps_s:.3f}s"
            + ("" if worst.beam_s is None else f", best_turns({BEAM_WIDTH}) {worst.beam_s:.2f}s")
            + f"\n    {worst.notation}"
        )
    print(f"  step by step, slowest whole turn: {max((w.steps_s for w in found), default=0):.3f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="random games per game (default 4)")
    parser.add_argument("--cap", type=int, default=100_000, help="stop counting past this many positions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"Legal-turn listing over a fixed set ({args.games} seeded random games per game)")
    print(f"{'game':<10} {'positions':>9} {'turns':>8} {'seconds':>8} {'turns/s':>9} {'positions/s':>11}")
    progressive: dict[str, list[str]] = {}
    for game in DICE_GAMES:
        ordinary, doubles = collect(game, args.games, args.seed)
        progressive[game] = doubles
        turns, seconds = time_listing(game, ordinary)
        print(
            f"{game:<10} {len(ordinary):>9} {turns:>8} {seconds:>8.3f} "
            f"{turns / seconds:>9.0f} {len(ordinary) / seconds:>11.0f}"
        )

    rng = random.Random(args.seed)
    for game in PROGRESSIVE_GAMES:
        report(game, [measure(text, args.cap, rng) for text in progressive[game]], args.cap)


if __name__ == "__main__":
    main()
