"""Rollouts of the turns an analysis marks.

The bot's verdict on a turn is the difference of two estimates, each a few hundredths
off; the turn it names best is the highest of several such estimates, so its lead
tends to be overstated. In tapa and gulbara, whose networks learnt from their own
play, the turns their network marks at 0 plies lose three to six times less in the
rollouts than it says (docs/analysis.md). A rollout checks a verdict as strong players check
one in GNU Backgammon: the turn played and the bot's best are played on to the end
(or for ``truncate`` turns) many times, the bot choosing every turn of both sides,
both candidates meeting the same dice trial by trial, and the mean difference is
what the turn played gave up, with its standard error.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import numpy as np

from tavla.analysis.checker import EstimatorFor, MoveReview, RolledLoss
from tavla.analysis.report import Analysis, summarise
from tavla.bots.outcomes import equity
from tavla.bots.rollout import Roller, RolloutSettings
from tavla.bots.search import Estimator
from tavla.core.definition import GameDefinition
from tavla.core.errors import TavlaError
from tavla.match.record import MatchRecord
from tavla.rules.dicegame import DiceGame

Progress = Callable[[int, int], None]
"""Called with (decisions rolled out, decisions to roll out)."""

DEFAULT_SETTINGS = RolloutSettings(trials=36, truncate=10, variance_reduction=True)
"""How marked turns are rolled out unless told otherwise."""
GAME_SETTINGS = {"gulbara": RolloutSettings(trials=144, truncate=10, variance_reduction=False)}
"""Where plain trials pay better: taking the luck out of a gulbara trial costs seven
times a plain one and narrows the loss's error less than four plain trials do
(docs/analysis.md has the measurements)."""


def default_settings(game: str) -> RolloutSettings:
    """The settings ``game``'s marked turns are rolled out with by default."""
    return GAME_SETTINGS.get(game, DEFAULT_SETTINGS)


def roll_out_marked(
    analysis: Analysis,
    record: MatchRecord,
    estimator_for: EstimatorFor,
    settings: RolloutSettings,
    progress: Progress | None = None,
    processes: int = 1,
) -> Analysis:
    """``analysis`` with every marked turn rolled out: each such review carries its
    :class:`RolledLoss`, its loss and mark become the rollout's, and the players'
    totals are counted again. Turns the bot did not mark, and cube decisions, keep
    their estimates. With ``processes`` above 1 the turns are rolled out in as many
    spawned processes at once (the estimator is sent to them, so it must pickle)."""
    if processes < 1:
        raise TavlaError(f"rollouts need at least one process, not {processes}")
    definition = record.settings.definition
    estimator = estimator_for(record.settings.game)
    chosen = marked_turns(analysis)
    tasks = [(review, settings) for review in chosen]
    with contextlib.ExitStack() as stack:
        if processes == 1 or len(chosen) < 2:
            roller = Roller(estimator)
            losses: Iterator[RolledLoss] = (rolled_loss(roller, definition, *task) for task in tasks)
        else:
            pool = stack.enter_context(
                ProcessPoolExecutor(
                    min(processes, len(chosen)),
                    multiprocessing.get_context("spawn"),  # the caller may run threads: a progress display
                    initializer=_start_worker,
                    initargs=(estimator, definition),
                )
            )
            losses = pool.map(_rolled_in_worker, tasks)
        rolled: dict[int, RolledLoss] = {}
        for done, (review, loss) in enumerate(zip(chosen, losses, strict=True), start=1):
            rolled[review.action_index] = loss
            if progress is not None:
                progress(done, len(chosen))
    return with_rollouts(analysis, record, rolled)


def marked_turns(analysis: Analysis) -> list[MoveReview]:
    """The turns a rollout checks: those the bot marked, in the record's order."""
    return [review for review in analysis.moves if review.mark]


def with_rollouts(analysis: Analysis, record: MatchRecord, rolled: Mapping[int, RolledLoss]) -> Analysis:
    """``analysis`` with the rollouts ``rolled`` (by the turn's action index in the
    record) given to their turns, and the players' totals counted again. Raises
    :class:`TavlaError` for an index that is no turn of the analysis."""
    moves = list(analysis.moves)
    at = {review.action_index: index for index, review in enumerate(moves)}
    for action_index, loss in rolled.items():
        if action_index not in at:
            raise TavlaError(f"action {action_index} is no reviewed turn of the record")
        moves[at[action_index]] = replace(moves[at[action_index]], rollout=loss)
    players = summarise(record.settings.names, moves, analysis.lucks, analysis.cubes)
    return replace(analysis, moves=moves, players=players)


_worker: tuple[Roller, GameDefinition] | None = None


def _start_worker(estimator: Estimator, definition: GameDefinition) -> None:
    global _worker
    _worker = (Roller(estimator), definition)


def _rolled_in_worker(task: tuple[MoveReview, RolloutSettings]) -> RolledLoss:
    if _worker is None:
        raise TavlaError("a rollout worker was not started")
    roller, definition = _worker
    return rolled_loss(roller, definition, *task)


def rolled_loss(
    roller: Roller, definition: GameDefinition, review: MoveReview, settings: RolloutSettings
) -> RolledLoss:
    """The review's best turn and the turn played, rolled out on the same dice."""
    return loss_of([trial_differences(roller, definition, review, settings)], settings)


def trial_differences(
    roller: Roller,
    definition: GameDefinition,
    review: MoveReview,
    settings: RolloutSettings,
    chosen: range | None = None,
) -> np.ndarray:
    """Trial by trial, the best turn's equity less the played turn's, both meeting the
    same dice; ``chosen``: only those trials (a rollout played in parts gives, part
    by part, what the whole one gives)."""
    before = definition.from_notation(review.before)
    if not isinstance(before, DiceGame):
        raise TavlaError(f"not a dice game position: {review.before}")
    side = before.side
    rows = [
        roller.trials(before.parse_turn(text).after, side, settings, dice=review.before, chosen=chosen)[0]
        for text in (review.best, review.played)
    ]
    differences: np.ndarray = equity(rows[0]) - equity(rows[1])
    return differences


def loss_of(parts: Sequence[np.ndarray], settings: RolloutSettings) -> RolledLoss:
    """The loss the trials' differences measure, with its standard error; ``parts``:
    the differences of the trials in order, played in one part or several."""
    differences = np.concatenate(parts)
    trials = len(differences)
    error = float(np.std(differences, ddof=1)) / math.sqrt(trials) if trials > 1 else 0.0
    return RolledLoss(float(differences.mean()), error, trials, settings.label)
