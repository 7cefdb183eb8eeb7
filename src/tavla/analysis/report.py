"""An analysis of a whole record: the reviews and each player's totals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from tavla.analysis.checker import MARKS, CheckerReviewer, EstimatorFor, MoveReview, RollLuck
from tavla.analysis.cube import CubeReview, CubeReviewer
from tavla.bots.search import SearchSettings
from tavla.match.record import MatchRecord, replay_steps
from tavla.match.state import MatchState


@dataclass
class PlayerSummary:
    seat: int
    name: str
    decisions: int = 0
    """Turns with a choice (forced turns are not counted)."""
    total_loss: float = 0.0
    marks: Counter[str] = field(default_factory=Counter)
    """Marks of the turns."""
    cube_marks: Counter[str] = field(default_factory=Counter)
    luck: float = 0.0
    rolls: int = 0
    cube_decisions: int = 0
    cube_loss: float = 0.0

    @property
    def error_rate(self) -> float:
        """Equity lost per turn with a choice, in thousandths of a point (gnubg's "mEMG
        per move", cubeless here)."""
        return 1000 * self.total_loss / self.decisions if self.decisions else 0.0

    @property
    def cube_error_rate(self) -> float:
        """Normalised equity lost per cube decision, in thousandths of a point."""
        return 1000 * self.cube_loss / self.cube_decisions if self.cube_decisions else 0.0


@dataclass
class Analysis:
    game: str
    plies: int
    moves: list[MoveReview]
    lucks: list[RollLuck]
    cubes: list[CubeReview]
    players: tuple[PlayerSummary, PlayerSummary]

    def marked(self, *, rolled_out: bool = False) -> list[MoveReview | CubeReview]:
        """The turns and cube decisions that got a mark, in the order of the record;
        with ``rolled_out``, also the turns a rollout cleared of the bot's mark."""
        found: list[MoveReview | CubeReview] = [
            review for review in self.moves if review.mark or (rolled_out and review.rollout is not None)
        ]
        found += [review for review in self.cubes if review.mark]
        return sorted(found, key=lambda review: review.action_index)


TAUGHT_GAMES = frozenset({"tabla"})
"""Games whose network learnt from GNU Backgammon's estimates: its verdicts on turns hold
up against rollouts at 0 plies. The networks of the other games learnt from their own
play and overstate losses at 0 plies (three to six times in tapa and gulbara), much less
one roll deep (docs/analysis.md, "Rolling out the marked turns")."""


def default_plies(game: str) -> int:
    """How deep ``game``'s turns are reviewed unless told otherwise: 0 plies where the
    network was taught by GNU Backgammon, else one roll of lookahead."""
    return 0 if game in TAUGHT_GAMES else 1


Progress = Callable[[int, int], None]
"""Called with (actions reviewed, actions in all) as the work goes on."""


def analyze(
    record: MatchRecord,
    estimator_for: EstimatorFor,
    settings: SearchSettings | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Review every turn and roll of ``record`` with the estimators of its game."""
    settings = settings or SearchSettings()
    return combine(record, [review_part(record, estimator_for, settings, progress=progress)])


@dataclass(frozen=True)
class Part:
    """The reviews of some consecutive actions of a record: what :func:`combine` puts
    together."""

    plies: int
    moves: list[MoveReview]
    lucks: list[RollLuck]
    cubes: list[CubeReview]
    end: MatchState | None
    """The match's state after the part's last action (None for an empty part): where
    the next part starts."""


def review_part(
    record: MatchRecord,
    estimator_for: EstimatorFor,
    settings: SearchSettings,
    actions: range | None = None,
    start: MatchState | None = None,
    progress: Progress | None = None,
) -> Part:
    """The reviews of the actions of ``record`` whose indexes are ``actions`` (all of them
    by default); ``start`` is the state before the first, the previous part's ``end``.
    A long record can so be reviewed a part at a time, other work running between the
    parts (the site's bots, docs/deploy.md), and each action is replayed once."""
    # Replayed first: a record that cannot be replayed is refused before any review work.
    steps = list(replay_steps(record, actions, start))
    moves: list[MoveReview] = []
    lucks: list[RollLuck] = []
    total = len(record.actions)
    for item in CheckerReviewer(estimator_for, settings).review(record, steps):
        if isinstance(item, MoveReview):
            moves.append(item)
        else:
            lucks.append(item)
        if progress is not None:
            progress(item.action_index + 1, total)
    cubes = list(CubeReviewer(estimator_for).review(record, steps))
    return Part(settings.plies, moves, lucks, cubes, steps[-1].after if steps else start)


def combine(record: MatchRecord, parts: list[Part]) -> Analysis:
    """The analysis made of ``parts`` of one record, reviewed at the same depth, each
    action in one part."""
    moves = sorted(
        (review for part in parts for review in part.moves), key=lambda review: review.action_index
    )
    lucks = sorted((luck for part in parts for luck in part.lucks), key=lambda luck: luck.action_index)
    cubes = sorted(
        (review for part in parts for review in part.cubes), key=lambda review: review.action_index
    )
    plies = {part.plies for part in parts}
    if len(plies) != 1:
        raise ValueError(f"parts reviewed at different depths: {sorted(plies)}")
    players = summarise(record.settings.names, moves, lucks, cubes)
    return Analysis(record.settings.game, plies.pop(), moves, lucks, cubes, players)


def summarise(
    names: tuple[str, str], moves: list[MoveReview], lucks: list[RollLuck], cubes: list[CubeReview]
) -> tuple[PlayerSummary, PlayerSummary]:
    """Each player's totals over the reviews."""
    players = (PlayerSummary(0, names[0]), PlayerSummary(1, names[1]))
    for move in moves:
        if not move.forced:
            player = players[move.seat]
            player.decisions += 1
            player.total_loss += move.loss
            if move.mark:
                player.marks[move.mark] += 1
    for luck in lucks:
        players[luck.seat].luck += luck.luck
        players[luck.seat].rolls += 1
    for review in cubes:
        player = players[review.seat]
        player.cube_decisions += 1
        player.cube_loss += review.loss
        if review.mark:
            player.cube_marks[review.mark] += 1
    return players


MARK_NAMES = tuple(name for _, name in MARKS)
