"""Legal-turn generation speed for tabla, against bgsage's C++ generator, and chelebi's worst cases.

    .venv/bin/python benchmarks/movegen.py [--positions 300] [--rounds 3] [--seed 1]
                                           [--chelebi-games 4] [--chelebi-lowest-double 3]
                                           [--chelebi-start]

Part 1 builds a fixed set of tabla positions from seeded random games (some with the
mover on the bar, some bearing off) and generates every legal turn for each position
and each of the 21 rolls with

- ours, core: ``turn_boards`` on the mover's board (resulting boards and steps);
- ours, API: ``position.with_roll(roll).legal_turns()`` (Turn objects; ``after`` is
  built on first use), and the same touching every ``turn.after``;
- bgsage (if installed; ``make bench`` installs it): ``bgsage.possible_moves``, and its
  extension function ``bgbot_cpp.possible_moves`` without the Python list copies.

Each is timed ``--rounds`` times, interleaved, in CPU time of this process, and the
best round counts (the machine may be shared). It prints position-rolls per second,
whole positions (all 21 rolls) per second and the ratio to ``bgsage.possible_moves``,
and checks that bgsage and we find the same resulting positions for every
(position, roll).

Part 2 plays seeded random chelebi games (turns chosen step by step) and, for every
progressive double from ``--chelebi-lowest-double`` up (default 3: a 1-1 or 2-2 in
mid-game can need minutes and gigabytes), lists all legal turns; the three largest
turn-sets are reported with time and peak memory (tracemalloc). ``--chelebi-start``
adds 1-1 and 2-2 from the starting position.
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import tavla
from tavla.core.dice import ROLLS
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.backgammon.turngen import turn_boards

ALL_ROLLS: list[tuple[int, int]] = [roll for roll, _ in ROLLS]
SLOW_S = 20.0
console = Console(width=150)

try:
    import bgbot_cpp  # type: ignore[import-not-found]
    import bgsage as bgsage  # exported: benchmarks/afterstates.py compares against it too
except ImportError:  # pragma: no cover - depends on the machine
    bgsage = None
    bgbot_cpp = None


# ------------------------------------------------------------------ position set
def random_game_positions(game: str, rng: random.Random, games: int) -> list[BackgammonPosition]:
    """Every position with the side to roll met in ``games`` seeded random games."""
    owner = tavla.find_game(game)
    seen: list[BackgammonPosition] = []
    for _ in range(games):
        position = owner.start()
        while position.outcome() is None:
            assert isinstance(position, BackgammonPosition)
            seen.append(position)
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            position = rng.choice(position.with_roll(roll).legal_turns()).after
    return seen


def tabla_position_set(seed: int, size: int) -> list[BackgammonPosition]:
    """A fixed set: a fifth with the mover on the bar, a fifth bearing off, the rest any."""
    rng = random.Random(seed)
    pool = random_game_positions("tabla", rng, max(20, size // 8))
    on_bar = [p for p in pool if p.bar[p.side]]
    bearing_off = [p for p in pool if all(n <= 0 for n in p.mover_board()[7:26])]
    others = [p for p in pool if p not in on_bar and p not in bearing_off]
    quota = size // 5
    chosen = rng.sample(on_bar, min(quota, len(on_bar))) + rng.sample(
        bearing_off, min(quota, len(bearing_off))
    )
    chosen += rng.sample(others, size - len(chosen))
    return chosen


def bgsage_board(position: BackgammonPosition) -> list[int]:
    """bgsage's layout: the opponent's bar, points 1-24 signed (mover positive), the mover's bar."""
    board = position.mover_board()
    return [board[26], *board[1:25], board[25]]


# ------------------------------------------------------------------ timing
Job = Callable[[BackgammonPosition, tuple[int, int]], object]


def ours_core(position: BackgammonPosition, roll: tuple[int, int]) -> object:
    return turn_boards(position.mover_board(), position.dice_sequences(roll), prefer_first=True)


def ours_api(position: BackgammonPosition, roll: tuple[int, int]) -> object:
    return position.with_roll(roll).legal_turns()


def ours_api_after(position: BackgammonPosition, roll: tuple[int, int]) -> object:
    return [turn.after for turn in position.with_roll(roll).legal_turns()]


def bgsage_public(position: BackgammonPosition, roll: tuple[int, int]) -> object:
    return bgsage.possible_moves(bgsage_board(position), roll[0], roll[1])


def bgsage_extension(position: BackgammonPosition, roll: tuple[int, int]) -> object:
    return bgbot_cpp.possible_moves(bgsage_board(position), roll[0], roll[1])


def time_job(job: Job, positions: list[BackgammonPosition], rolls: list[tuple[int, int]]) -> float:
    """CPU seconds of this process (not wall time: the machine may be shared)."""
    begin = time.process_time()
    for position in positions:
        for roll in rolls:
            job(position, roll)
    return time.process_time() - begin


def measure(
    jobs: dict[str, Job], positions: list[BackgammonPosition], rounds: int
) -> dict[str, dict[str, float]]:
    """Best time per job over ``rounds`` interleaved rounds, for all/plain/double rolls."""
    kinds = {
        "all": ALL_ROLLS,
        "plain": [r for r in ALL_ROLLS if r[0] != r[1]],
        "double": [r for r in ALL_ROLLS if r[0] == r[1]],
    }
    best: dict[str, dict[str, float]] = {name: {} for name in jobs}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("timing", total=rounds * len(jobs) * 2)
        for _ in range(rounds):
            for name, job in jobs.items():
                for kind in ("plain", "double"):
                    elapsed = time_job(job, positions, kinds[kind])
                    best[name][kind] = min(best[name].get(kind, float("inf")), elapsed)
                    progress.advance(task)
    for times in best.values():
        times["all"] = times["plain"] + times["double"]
    return best


def agreement(positions: list[BackgammonPosition]) -> tuple[int, int, int, list[str]]:
    """(pairs compared, pairs where the sets of resulting positions differ, pairs where
    bgsage lists a position twice, examples of differences)."""
    compared = differ = duplicated = 0
    examples: list[str] = []
    for position in positions:
        for roll in ALL_ROLLS:
            _, found = turn_boards(position.mover_board(), position.dice_sequences(roll), prefer_first=True)
            ours = {(b[26], *b[1:25], b[25]) for b in found}
            listed = [tuple(board) for board in bgsage.possible_moves(bgsage_board(position), *roll)]
            # With no legal move bgsage lists nothing or the unchanged board; we list the pass.
            theirs = set(listed) or {tuple(bgsage_board(position))}
            compared += 1
            duplicated += len(listed) != len(theirs)
            if ours != theirs:
                differ += 1
                if len(examples) < 5:
                    examples.append(
                        f"{position.notation()} roll {roll}: ours {len(ours)}, bgsage {len(theirs)}"
                    )
    return compared, differ, duplicated, examples


def report_speed(positions: list[BackgammonPosition], rounds: int) -> None:
    jobs: dict[str, Job] = {
        "ours: turn_boards (core)": ours_core,
        "ours: legal_turns()": ours_api,
        "ours: legal_turns() + every .after": ours_api_after,
    }
    if bgsage is not None:
        jobs["bgsage.possible_moves"] = bgsage_public
        jobs["bgbot_cpp.possible_moves (no list copy)"] = bgsage_extension
    best = measure(jobs, positions, rounds)
    pairs = {"all": len(positions) * 21, "plain": len(positions) * 15, "double": len(positions) * 6}
    reference = best.get("bgsage.possible_moves")
    table = Table(title=f"tabla: {len(positions)} positions x 21 rolls, best of {rounds} rounds")
    for column in (
        "generator",
        "time s",
        "position-rolls/s",
        "positions/s (21 rolls)",
        "ratio",
        "µs plain",
        "µs double",
    ):
        table.add_column(column, justify="left" if column == "generator" else "right")
    for name, times in best.items():
        ratio = f"{reference['all'] / times['all']:.2f}" if reference else "-"
        table.add_row(
            name,
            f"{times['all']:.2f}",
            f"{pairs['all'] / times['all']:,.0f}",
            f"{len(positions) / times['all']:,.0f}",
            ratio,
            f"{times['plain'] / pairs['plain'] * 1e6:.1f}",
            f"{times['double'] / pairs['double'] * 1e6:.1f}",
        )
    console.print(table)
    console.print("ratio = bgsage.possible_moves time / this generator's time (above 1: faster than bgsage)")
    if bgsage is None:
        console.print("bgsage is not installed (`make bench` installs it): ours only.")
        return
    compared, differ, duplicated, examples = agreement(positions)
    console.print(
        f"agreement with bgsage: {compared} (position, roll) pairs, {differ} with different sets of "
        f"resulting positions, {duplicated} where bgsage listed a position twice"
    )
    for example in examples:
        console.print(f"  {example}")


# ------------------------------------------------------------------ chelebi
def measure_turns(position: BackgammonPosition) -> tuple[int, float, str]:
    """(turns, CPU seconds, peak traced memory) of ``legal_turns()`` on fresh copies.

    tracemalloc slows allocation several times, so a case that takes more than
    ``SLOW_S`` seconds is not traced again: the table says so."""
    fresh = tavla.from_notation(position.notation())
    begin = time.process_time()
    count = len(fresh.legal_turns())
    elapsed = time.process_time() - begin
    if elapsed > SLOW_S:
        return count, elapsed, f"not traced (> {SLOW_S:.0f} s)"
    fresh = tavla.from_notation(position.notation())
    tracemalloc.start()
    fresh.legal_turns()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return count, elapsed, f"{peak / 2**20:.1f}"


def play_by_steps(rolled: BackgammonPosition, rng: random.Random) -> BackgammonPosition:
    """A random legal turn chosen step by step: never lists the whole turn-set."""
    builder = rolled.steps()
    while not builder.complete:
        builder.step(rng.choice(builder.legal_steps()))
    after: BackgammonPosition = builder.commit().after
    return after


def report_chelebi(seed: int, games: int, lowest_double: int, from_start: bool) -> None:
    rng = random.Random(seed)
    owner = tavla.find_game("chelebi")
    timed: list[tuple[int, float, str]] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("chelebi games", total=games)
        for _ in range(games):
            position: Any = owner.start()
            while position.outcome() is None:
                roll = (rng.randint(1, 6), rng.randint(1, 6))
                rolled = position.with_roll(roll)
                if roll[0] == roll[1] and roll[0] >= lowest_double:
                    begin = time.process_time()
                    count = len(rolled.legal_turns())
                    timed.append((count, time.process_time() - begin, rolled.notation()))
                position = play_by_steps(rolled, rng)
            progress.advance(task)
    timed.sort(reverse=True)
    title = (
        f"chelebi: largest turn-sets of the {len(timed)} doubles from {lowest_double}-{lowest_double} up "
        f"met in {games} random games"
    )
    table = Table(title=title)
    for column in ("position", "turns", "CPU s", "peak MiB (tracemalloc)"):
        table.add_column(column, justify="left" if column == "position" else "right")
    cases = [notation for _, _, notation in timed[:3]]
    if from_start:
        cases[:0] = [owner.start().with_roll((value, value)).notation() for value in (1, 2)]
    for notation in cases:
        case = tavla.from_notation(notation)
        assert isinstance(case, BackgammonPosition)
        count, elapsed, peak = measure_turns(case)
        table.add_row(notation, f"{count:,}", f"{elapsed:.2f}", peak)
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chelebi-games", type=int, default=4)
    parser.add_argument(
        "--chelebi-lowest-double",
        type=int,
        default=3,
        help="list the turns of doubles from this value up (1-1 and 2-2 in mid-game can take GBs)",
    )
    parser.add_argument(
        "--chelebi-start", action="store_true", help="also measure chelebi 1-1 and 2-2 from the start"
    )
    args = parser.parse_args()
    positions = tabla_position_set(args.seed, args.positions)
    report_speed(positions, args.rounds)
    if args.chelebi_games or args.chelebi_start:
        report_chelebi(args.seed, args.chelebi_games, args.chelebi_lowest_double, args.chelebi_start)


if __name__ == "__main__":
    main()
