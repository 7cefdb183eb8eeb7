"""Training positions for tabla and GNU Backgammon's estimates of them as targets.

Self-play finds the positions a bot meets: every position after a turn played,
and a few of the turns it did not play (a bot must rank bad turns too, so it
must have seen them). When the student itself plays (a :class:`Ranker`), the
turns it rated next best are kept too: its mistakes hide among them, and a
teacher's estimate of each is what corrects its ranking where it matters.

GNU Backgammon estimates each at a chosen depth; its estimate is for its player
on roll, the opponent of the one who just moved, and is turned to the mover's
side here, the convention of the bots' estimates.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from tavla.bots.outcomes import flip
from tavla.core.errors import TavlaError
from tavla.core.registry import find_game
from tavla.oracles.gnubg import GnubgOracle
from tavla.rules.backgammon.position import BackgammonPosition
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn

if TYPE_CHECKING:
    from tavla.bots.network import Network

MAX_TURNS = 2_000
"""A game longer than this is a broken player; the collection stops with an error."""


class Chooser(Protocol):
    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]: ...


class Ranker(Chooser, Protocol):
    def ranked(self, position: DiceGame[Any]) -> Sequence[DiceTurn[Any]]:
        """The legal turns, the one it plays first and the rest best first."""
        ...


def self_play_positions(
    game: str,
    player: Chooser,
    games: int,
    seed: int,
    *,
    alternatives: int = 2,
    close: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[DiceGame[Any]]:
    """Positions after the turns of ``games`` seeded games of ``player`` against itself:
    each turn played, the ``close`` turns ``player`` (then a :class:`Ranker`) rated
    next best, and up to ``alternatives`` other legal turns, drawn at random.
    Finished games are left out (their value is known); repeats are kept once."""
    if close and not hasattr(player, "ranked"):
        raise TavlaError("keeping the next best turns needs a player that ranks them")
    rng = random.Random(seed)
    seen: dict[str, DiceGame[Any]] = {}
    start = find_game(game).start()
    if not isinstance(start, DiceGame):
        raise TavlaError(f"{game} is not a dice game: no self-play positions to collect")
    for number in range(games):
        position: DiceGame[Any] = start.with_side(rng.randrange(2))
        for _ in range(MAX_TURNS):
            if position.outcome() is not None:
                break
            if position.is_chance:
                position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
                continue
            if close:
                chosen, *rest = cast(Ranker, player).ranked(position)
                near, others = rest[:close], rest[close:]
            else:
                chosen, near = player.choose(position), []
                others = list(position.legal_turns_within(400) or ())
            picked = rng.sample(others, min(alternatives, len(others)))
            for turn in (chosen, *near, *picked):
                after = turn.after
                if after.outcome() is None:
                    seen.setdefault(after.notation(), after)
            position = chosen.after
        else:
            raise RuntimeError(f"a self-play game of {game} ran past {MAX_TURNS} turns")
        if progress is not None:
            progress(number + 1, games)
    return list(seen.values())


def gnubg_targets(
    positions: Sequence[BackgammonPosition],
    *,
    plies: int = 0,
    processes: int = 2,
    chunk: int = 500,
    progress: Callable[[int, int], None] | None = None,
) -> npt.NDArray[np.float64]:
    """GNU Backgammon's estimate of each position after a turn, for the player who
    made that turn: one row of five chances per position, in order."""
    chunks = [positions[start : start + chunk] for start in range(0, len(positions), chunk)]
    oracles = [GnubgOracle(plies=plies) for _ in range(max(1, min(processes, len(chunks))))]
    done = 0
    try:

        def label(index: int) -> npt.NDArray[np.float64]:
            oracle = oracles[index % len(oracles)]
            return oracle.estimate(chunks[index])

        results: list[npt.NDArray[np.float64]] = []
        with ThreadPoolExecutor(max_workers=len(oracles)) as pool:
            # One chunk per oracle at a time: map keeps the order of the chunks.
            for start in range(0, len(chunks), len(oracles)):
                batch = range(start, min(start + len(oracles), len(chunks)))
                for rows in pool.map(label, batch):
                    results.append(rows)
                    done += len(rows)
                    if progress is not None:
                        progress(done, len(positions))
    finally:
        for oracle in oracles:
            oracle.close()
    if not results:
        return np.empty((0, 5))
    on_roll = np.concatenate(results)
    return mover_view(on_roll)


def mover_view(on_roll: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Estimates for the player on roll, seen from the player who just moved."""
    return flip(on_roll)


def save_dataset(path: str, positions: Sequence[DiceGame[Any]], targets: npt.NDArray[np.float64]) -> None:
    """Positions (as notation) and their targets in one .npz file."""
    np.savez_compressed(path, positions=np.array([p.notation() for p in positions]), targets=targets)


def load_dataset(path: str) -> tuple[list[str], npt.NDArray[np.float64]]:
    """The positions' notations and their targets written by :func:`save_dataset`."""
    with np.load(path) as data:
        return [str(text) for text in data["positions"]], np.asarray(data["targets"], dtype=np.float64)


def deepest_labels(
    texts: Sequence[str], targets: npt.NDArray[np.float64], depths: Sequence[int]
) -> tuple[list[str], npt.NDArray[np.float64], int]:
    """One row per position: where datasets label the same position more than once (a
    sample relabelled at 2-ply beside its 0-ply set), the deepest estimate is kept, the
    first of equally deep ones. A position met again in the same games (an opening
    reached twice) is fitted once too: gnubg gave it the same estimate each time.
    ``depths`` gives each row's plies. Returns the texts, the targets, and how many rows
    were dropped."""
    best: dict[str, int] = {}
    for row, text in enumerate(texts):
        kept = best.get(text)
        if kept is None or depths[row] > depths[kept]:
            best[text] = row
    rows = sorted(best.values())
    return [texts[row] for row in rows], targets[rows], len(texts) - len(rows)


ROLLOUT_TO_THE_END = 1000
"""The depth :func:`teacher_plies` gives a rollout played to the game's end."""


def teacher_plies(teacher: str) -> int:
    """The depth of a dataset's teacher, as its metadata names it ("gnubg 2-ply": 2; a
    rollout stopped after 10 turns, "network rollout 12x10 vr": 10; one played to the
    end: :data:`ROLLOUT_TO_THE_END`)."""
    words = teacher.split()
    if "rollout" in words[:-1]:
        turns = words[words.index("rollout") + 1].partition("x")[2]
        return ROLLOUT_TO_THE_END if turns == "end" else int(turns)
    return int(words[-1].removesuffix("-ply")) if words and words[-1].endswith("-ply") else 0


def network_inputs(network: Network, texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """The network's inputs for each position, seen from the player who just moved, in
    single precision (the fit's), made a slice at a time so that millions fit in memory."""
    import tavla
    from tavla.bots.encoding import encoder_for

    encoder = None
    inputs = np.empty((len(texts), network.inputs), dtype=np.float32)
    for start in range(0, len(texts), 20_000):
        positions = [tavla.from_notation(text) for text in texts[start : start + 20_000]]
        encoder = encoder or encoder_for(positions[0])
        for mover in (0, 1):
            rows = [index for index, position in enumerate(positions) if position.to_act == 1 - mover]
            if rows:
                features = encoder.encode_many([positions[index] for index in rows], mover)
                inputs[[start + index for index in rows]] = network.prepare(features)
    return inputs
