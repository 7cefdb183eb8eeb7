"""Targets from the network's own lookahead or rollouts, for the games no outside program plays.

Tabla has GNU Backgammon for a teacher; tapa, chelebi, gulbara and antitabla have
none. What a network can give itself is depth: its n-ply estimate of a position
(:meth:`~tavla.bots.search.DiceSearch.position_estimate`, the mean over the next
rolls of the best reply, estimated a ply shallower) has seen the rolls that follow
played, where its 0-ply estimate guesses them; a rollout (:mod:`tavla.bots.rollout`)
plays the game on for several turns, or to its end. Fitting a network on such
targets moves its 0-ply play towards its deeper play, as strong programs refine a
network on its own deeper evaluations and rollouts.

The estimates are deterministic (the search draws nothing; a rollout's dice come
from its seed and the position's text), and are always computed in fresh worker
processes, so the labels of a dataset do not depend on how many processes computed
them.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt

import tavla
from tavla.bots.network import Network
from tavla.bots.rollout import Roller, RolloutSettings
from tavla.bots.search import DiceSearch, SearchSettings
from tavla.core.errors import TavlaError
from tavla.rules.dicegame import DiceGame

Depth = int | RolloutSettings
"""How deep a label looks: plies of lookahead, or a rollout."""

ONE_PLY_BATCH = 8
"""Positions labelled at 1 ply in one network call (deeper, one at a time: a position's
2-ply replies alone come to thousands)."""
_search: DiceSearch | None = None
"""The worker process's search, made once by :func:`_start`."""
_roller: Roller | None = None
"""The worker process's rollouts, with the same network."""


def _start(game: str, weights: str | None) -> None:
    global _search, _roller
    network = Network.load(Path(weights)) if weights else Network.shipped(game)
    _search = DiceSearch(network, SearchSettings())
    _roller = Roller(network)


def _label(task: tuple[list[str], Depth]) -> npt.NDArray[np.float64]:
    texts, depth = task
    if _search is None or _roller is None:
        raise RuntimeError("a labelling worker was not started")
    rows = np.empty((len(texts), 5))
    positions: list[DiceGame[object]] = []
    for text in texts:
        parsed = tavla.from_notation(text)
        if not isinstance(parsed, DiceGame):
            raise TavlaError(f"not a dice game's position: {text}")
        positions.append(parsed)
    # The player who just moved: the dataset's targets are from his side.
    owners = [1 - position.to_act for position in positions]
    if depth == 1:  # a few positions' replies in one network call (equal to one at a time)
        for start in range(0, len(positions), ONE_PLY_BATCH):
            batch = slice(start, start + ONE_PLY_BATCH)
            rows[batch] = _search.position_estimates(positions[batch], owners[batch], 1)
        return rows
    for index, (after, owner) in enumerate(zip(positions, owners, strict=True)):
        if isinstance(depth, RolloutSettings):
            rows[index] = _roller.rollout(after, owner, depth).chances
        else:
            rows[index] = _search.position_estimate(after, owner, depth)
    return rows


def network_targets(
    game: str,
    positions: Sequence[DiceGame[object]],
    *,
    plies: int = 0,
    rollout: RolloutSettings | None = None,
    weights: Path | None = None,
    processes: int = 2,
    chunk: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> npt.NDArray[np.float64]:
    """The network's (``weights``, or the shipped one of ``game``) ``plies``-deep
    estimate of each position after a turn, or with ``rollout`` its rollout, for the
    player who made that turn: one row of five chances per position, in order."""
    depth: Depth = plies
    if rollout is not None:
        if plies:
            raise TavlaError("a label is a lookahead of some plies or a rollout, not both")
        depth = rollout
    elif plies < 1:
        raise TavlaError("a network's own 0-ply estimates teach it nothing: give plies 1 or more")
    if chunk is None:  # a rollout's position costs seconds: show progress more often
        chunk = 100 if rollout is None else 4
    texts = [position.notation() for position in positions]
    tasks = [(texts[start : start + chunk], depth) for start in range(0, len(texts), chunk)]
    if processes < 1:
        raise TavlaError(f"labelling needs at least one process, not {processes}")
    initargs = (game, None if weights is None else str(weights))
    # Always in spawned workers, even a single one: they start alike whatever the
    # caller has done to its own process (a BLAS set to other threads computes the last
    # bits of a product otherwise), so one process and several give equal labels. Spawned,
    # not forked: the caller may run threads (a progress display).
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(processes, context, initializer=_start, initargs=initargs) as pool:
        results = _collect(pool.map(_label, tasks), len(texts), progress)
    return np.concatenate(results) if results else np.empty((0, 5))


def _collect(
    labelled: Iterable[npt.NDArray[np.float64]], total: int, progress: Callable[[int, int], None] | None
) -> list[npt.NDArray[np.float64]]:
    """The chunks' rows in order, telling ``progress`` as each arrives."""
    results: list[npt.NDArray[np.float64]] = []
    done = 0
    for rows in labelled:
        results.append(rows)
        done += len(rows)
        if progress is not None:
            progress(done, total)
    return results
