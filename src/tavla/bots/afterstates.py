"""Every legal turn's resulting position, encoded for a bot, in one call.

``afterstates(position)`` answers the question a one-ply bot asks: what can I
reach with this roll, as features my network reads? It returns an
:class:`Afterstates`: a float32 array with one row per legal turn (the
encoding of the position after that turn, from the side of the player who just
moved, see ``docs/features.md``), the turns' canonical texts in the same order
and the turns themselves. Row ``i``, ``texts[i]`` and ``turns[i]`` are one turn;
the order is that of ``position.legal_turns()``.

Only the features are computed eagerly. A bot scores every row but plays one
turn, so the texts and the turn objects are built on first use, all in one
pass; ``text(i)`` gives one text alone. For the tabla family the rows come
straight from the whole-turn generator's boards, with no Python object per turn.

**Huge progressive doubles** (chelebi, gulbara): where listing would pass
``limit`` positions after some die, a bot still has to move. Given ``score`` (a
function rating positions after the mover's turn, higher better for the mover:
the bot's own evaluation), the turns are the ``width`` best found by the rules'
beam search ``best_turns``, and ``complete`` is False. Without ``score`` it
raises :class:`TooManyTurnsError`. A silent fallback would have to pick the
turns by some heuristic the bot did not ask for, and the bot would believe it
had seen every turn; with its own score the beam keeps the turns it would have
preferred anyway.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, Generic, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tavla.bots import fast
from tavla.bots.encoding import encoder_for
from tavla.bots.encoding.base import Features, States
from tavla.bots.encoding.tabla import encode_boards
from tavla.core.errors import TavlaError, WrongPhaseError
from tavla.rules.backgammon.movegen import Board, board_to_state
from tavla.rules.backgammon.position import BackgammonPosition
from tavla.rules.backgammon.turngen import Found, turn_boards_within
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn
from tavla.rules.gulbara.position import GulbaraPosition
from tavla.rules.movetext import Step, format_turn
from tavla.rules.tapa.position import TapaPosition
from tavla.rules.turns import TURN_LIST_LIMIT

P = TypeVar("P", bound=DiceGame[Any])
Score = Callable[[Any], float]
ScoreMany = Callable[[Sequence[Any]], Sequence[float]]
Ratings = Sequence[float] | npt.NDArray[np.float64]
ScoreRows = Callable[[Features], Ratings]
"""A rating of feature rows (the mover's encoder's, as :func:`afterstates` gives them)."""
BEAM_WIDTH = 64
"""Turns kept by the beam search on a huge progressive double (see the module docstring)."""


class TooManyTurnsError(TavlaError):
    """A progressive double with too many turns to list, and no score to choose among them."""

    def __init__(self, notation: str, limit: int) -> None:
        self.notation = notation
        self.limit = limit
        super().__init__(
            f"more than {limit} positions after one die in {notation}: pass score= (the bot's "
            "evaluation) for a beam search of the best turns, or a larger limit="
        )


class Afterstates(Generic[P]):
    """The legal turns of ``origin`` and the features of the positions they lead to."""

    def __init__(
        self,
        origin: P,
        features: Features,
        *,
        complete: bool,
        make_turns: Callable[[], list[DiceTurn[P]]],
        text_of: Callable[[int], str] | None = None,
        after_of: Callable[[int], P] | None = None,
        turn_of: Callable[[int], DiceTurn[P]] | None = None,
    ) -> None:
        self.origin = origin
        self.features = features
        self.complete = complete
        """False when only the beam search's best turns are listed (huge doubles)."""
        self._make_turns = make_turns
        self._text_of = text_of
        self._after_of = after_of
        self._turn_of = turn_of

    def __len__(self) -> int:
        return len(self.features)

    @property
    def player(self) -> int:
        """The player who moves: the features are seen from his side."""
        return self.origin.side

    @cached_property
    def turns(self) -> list[DiceTurn[P]]:
        return self._make_turns()

    @cached_property
    def texts(self) -> list[str]:
        """Each turn's canonical text (``turn.text``), in row order."""
        return [self.text(index) for index in range(len(self))]

    def turn(self, index: int) -> DiceTurn[P]:
        """The turn of row ``index`` (``turns[index]``): a bot plays one turn, and where
        the rows came from a compiled beam only that turn is looked for."""
        if self._turn_of is not None and "turns" not in self.__dict__:
            return self._turn_of(index)
        return self.turns[index]

    def after(self, index: int) -> P:
        """The position after the turn of row ``index`` (``turns[index].after``), built
        alone where the rows came from a compiled generator: a bot that plays on
        from its choice needs no other turn."""
        if self._after_of is not None and "turns" not in self.__dict__:
            return self._after_of(index)
        return self.turns[index].after

    def text(self, index: int) -> str:
        """The canonical text of the turn of row ``index``."""
        if self._text_of is not None:
            return self._text_of(index)
        return self.turns[index].text


def afterstates(
    position: P,
    *,
    limit: int = TURN_LIST_LIMIT,
    score: Score | None = None,
    width: int = BEAM_WIDTH,
    score_many: ScoreMany | None = None,
    score_rows: ScoreRows | None = None,
) -> Afterstates[P]:
    """Every legal turn of ``position`` (dice rolled) with the features of its result.

    ``limit``: past this many positions after one die, the roll is a huge
    progressive double: with ``score`` the ``width`` best turns of a beam search
    are returned (``complete`` False), without it :class:`TooManyTurnsError`.
    ``score_many`` rates a list of positions at once for the beam, in place of
    ``score`` (see ``DiceGame.best_turns``); ``score_rows``, in place of both, rates the
    positions' feature rows as seen by the mover, which lets the compiled beam rate
    the states it reaches without building a position for each.
    """
    if position.outcome() is not None:
        encoder = encoder_for(position)
        return Afterstates(
            position, np.empty((0, encoder.size), dtype=np.float32), complete=True, make_turns=list
        )
    if not position.awaiting_decision:
        position.legal_turns()  # raises the phase error of a position awaiting a roll
    beam = Beam(position, score, score_many, score_rows)
    for base in type(position).__mro__:
        provider = _PROVIDERS.get(base)
        if provider is not None:
            return cast(Afterstates[P], provider(position, limit, beam, width))
    return _listed(position, limit, beam, width)


class Beam:
    """How a huge progressive double is searched: the caller's rating of positions
    after the mover's turn, or of their feature rows."""

    def __init__(
        self,
        position: DiceGame[Any],
        score: Score | None,
        score_many: ScoreMany | None,
        score_rows: ScoreRows | None = None,
    ) -> None:
        self.score = score
        self.score_rows = score_rows
        if score_many is None and score_rows is not None:
            encoder, mover = encoder_for(position), position.side

            def rated(positions: Sequence[Any]) -> Sequence[float]:
                return [float(value) for value in score_rows(encoder.encode_many(positions, mover))]

            score_many = rated
        self.score_many = score_many

    @property
    def rates(self) -> bool:
        return self.score is not None or self.score_many is not None

    def ranked(self, positions: Sequence[Any]) -> list[int]:
        """Indices of ``positions``, rated best first (ties in the given order), as the
        rules' ``best_turns`` ranks them with this beam's scores (the beam ``rates``)."""
        if self.score_many is not None:
            return _best_first(self.score_many(positions))
        score = cast(Score, self.score)  # the beam rates: without score_many, score is set
        return _best_first([score(one) for one in positions])

    def best_turns(self, position: P, width: int, limit: int) -> list[DiceTurn[P]]:
        score_many = self.score_many
        if score_many is not None:
            return position.best_turns(width, score_many=score_many)
        if self.score is not None:
            return position.best_turns(width, self.score)
        raise TooManyTurnsError(position.notation(), limit)


def _best_first(values: Ratings) -> list[int]:
    return sorted(range(len(values)), key=lambda index: -values[index])


def _listed(position: P, limit: int, beam: Beam, width: int) -> Afterstates[P]:
    """Any dice game: the listed turns' resulting positions, encoded together."""
    turns = position.legal_turns_within(limit)
    if turns is None:
        return _beam(position, limit, beam, width)
    listed = list(turns)
    features = encoder_for(position).encode_many([turn.after for turn in listed], position.side)
    return Afterstates(position, features, complete=True, make_turns=lambda: listed)


def _beam(position: P, limit: int, beam: Beam, width: int) -> Afterstates[P]:
    chosen = beam.best_turns(position, width, limit)
    features = encoder_for(position).encode_many([turn.after for turn in chosen], position.side)
    return Afterstates(position, features, complete=False, make_turns=lambda: chosen)


def _compiled(position: P, limit: int, beam: Beam, width: int) -> Afterstates[P]:
    """Tapa and gulbara: rows from the compiled twin of the game's step function.

    It lists the same resulting states in the same order as the rules' search
    (``tests/bots/test_fast.py``), so the rows are the listed turns' rows; the
    turns themselves are listed by the rules on first use, and a single result
    is built from its state (:meth:`Afterstates.after`).
    """
    kind = fast.compiled_kind(position.step_function())
    if kind is None:
        return _listed(position, limit, beam, width)
    sequences, prefer_larger = position.turn_sequences()
    compiled = fast.turn_states(kind, position.mover_state(), sequences, limit, prefer_larger)
    if compiled is None:
        if len(sequences) != 1 or width > limit:  # pragma: no cover - not a huge progressive double
            return _beam(position, limit, beam, width)
        return _compiled_beam(position, kind, position.mover_state(), sequences[0], limit, beam, width)
    played, rows = compiled
    states = rows.copy()  # the compiled store's rows are overwritten by its next search
    features = encoder_for(position).encode_after_states(position, states, played)

    def make_turns() -> list[DiceTurn[P]]:
        turns = position.legal_turns_within(limit)
        if turns is None:  # pragma: no cover - the compiled search found them within limit
            raise RuntimeError(f"the turns of {position.notation()} outgrew the limit")
        return list(turns)

    def after_of(index: int) -> P:
        return position.after_turn(tuple(states[index].tolist()), played)

    return Afterstates(position, features, complete=True, make_turns=make_turns, after_of=after_of)


def _compiled_beam(
    position: P,
    kind: int,
    start: Sequence[int],
    dice: Sequence[int],
    limit: int,
    beam: Beam,
    width: int,
    state_of: Callable[[tuple[int, ...]], Any] = tuple,
    encode: Callable[[States], Features] | None = None,
) -> Afterstates[P]:
    """A huge progressive double: the rules' beam (``best_turns``) run on the compiled
    step planner: the same turns in the same order, with the same steps, each built
    when first asked for.

    ``start`` is the kernel's row of the mover (a mover state, or the tabla family's
    Board), ``state_of`` turns such a row into the rules' mover state and ``encode``
    rows of them into features (by default the encoder's, from mover states).
    """
    if not beam.rates:
        raise TooManyTurnsError(position.notation(), limit)
    encoder = encoder_for(position)

    def features_of(states: list[tuple[int, ...]], played: int) -> Features:
        rows = np.array(states, dtype=np.int8).reshape(len(states), -1)
        return encoder.encode_after_states(position, rows, played) if encode is None else encode(rows)

    def rank(states: list[tuple[int, ...]], played: int) -> list[int]:
        if beam.score_rows is not None and states:
            # The rows straight from the kernel's states: no position built for each.
            return _best_first(beam.score_rows(features_of(states, played)))
        return beam.ranked([position.after_turn(state_of(row), played) for row in states])

    kept = fast.beam_states(kind, start, dice, width, rank)
    played = kept.played
    features = features_of(kept.states, played)
    step_function = position.step_function()

    def turn_of(index: int) -> DiceTurn[P]:
        # The steps of the way the beam kept, as the rules' beam keeps them: each the
        # step of its die from one state to the next.
        path = [state_of(row) for row in kept.path(index)]
        steps = []
        for die, (before, after) in zip(dice, itertools.pairwise(path), strict=False):
            step = next(step for step, reached in step_function(before, die) if reached == after)
            if step is not None:
                steps.append(step)
        return DiceTurn(tuple(steps), position.after_turn(path[-1], played), position)

    return Afterstates(
        position,
        features,
        complete=False,
        make_turns=lambda: [turn_of(index) for index in range(len(kept.states))],
        after_of=lambda index: position.after_turn(state_of(kept.states[index]), played),
        turn_of=turn_of,
    )


def _tabla(
    position: BackgammonPosition, limit: int, beam: Beam, width: int
) -> Afterstates[BackgammonPosition]:
    """The tabla family: rows straight from the whole-turn generator's boards.

    With the compiled generator (:mod:`tavla.bots.fast`) the rows come from its
    int8 boards, the same boards in the same order; the turns (and their step
    paths, for the texts) are then listed by the pure-Python generator on first use.
    """
    start = position.mover_board()
    if position.dice is None:
        raise WrongPhaseError(f"the dice must be rolled first in {position.notation()}")
    sequences = position.dice_sequences(position.dice)
    roll = fast.tabla_roll(sequences) if fast.AVAILABLE else None
    if roll is None:
        return _tabla_listed(position, start, sequences, limit, beam, width)
    compiled = fast.tabla_turn_boards(start, roll, limit)
    if compiled is None:
        if not roll[2] or width > limit:  # pragma: no cover - only progressive doubles are huge
            return _beam(position, limit, beam, width)
        opponent_off = position.off[1 - position.side]
        return _compiled_beam(
            position,
            fast.TABLA,
            start,
            sequences[0],
            limit,
            beam,
            width,
            state_of=lambda board: board_to_state(board, opponent_off),
            encode=lambda boards: fast.tabla_features(boards, opponent_off),
        )
    features = fast.tabla_features(compiled[1], position.off[1 - position.side])
    listed: list[Found] = []

    def found() -> Found:
        if not listed:
            again = turn_boards_within(start, sequences, limit, prefer_first=True)
            if again is None:  # pragma: no cover - the compiled generator found them within limit
                raise RuntimeError(f"the turns of {position.notation()} outgrew the limit")
            listed.append(again[1])
        return listed[0]

    return _tabla_afterstates(position, features, not roll[2], found)


def _tabla_listed(
    position: BackgammonPosition,
    start: Board,
    sequences: list[list[int]],
    limit: int,
    beam: Beam,
    width: int,
) -> Afterstates[BackgammonPosition]:
    found = turn_boards_within(start, sequences, limit, prefer_first=True)
    if found is None:
        return _beam(position, limit, beam, width)
    boards = found[1]
    features = encode_boards(list(boards), position.off[1 - position.side], False)
    return _tabla_afterstates(position, features, canonical_paths(sequences), lambda: boards)


def _tabla_afterstates(
    position: BackgammonPosition, features: Features, canonical: bool, found: Callable[[], Found]
) -> Afterstates[BackgammonPosition]:
    def make_turns() -> list[DiceTurn[BackgammonPosition]]:
        return [DiceTurn(path, None, position, board) for board, path in found().items()]

    # The generator's path is the turn's first playing order (the one its text is
    # written from) when the dice are two different ones or four equal ones: see
    # canonical_paths. Chelebi's progressive doubles get their texts from the rules.
    if canonical:
        paths: list[list[tuple[Step, ...]]] = []

        def text_of(index: int) -> str:
            if not paths:
                paths.append(list(found().values()))
            return format_turn(paths[0][index])

        return Afterstates(position, features, complete=True, make_turns=make_turns, text_of=text_of)
    return Afterstates(position, features, complete=True, make_turns=make_turns)


def canonical_paths(sequences: Sequence[Sequence[int]]) -> bool:
    """Whether :func:`turn_boards` finds each turn by its first playing order.

    A turn's text is written from the first way of playing it in the rules'
    depth-first order: dice orders in turn, then the highest source point first
    (``BackgammonPosition.turn_text``). For two different dice the generator
    searches in exactly that order and keeps the first path to each board. For
    four equal dice it keeps the path whose sources never increase; with equal
    dice the board fixes how many steps leave each point (counting down from the
    top: steps leaving p = steps arriving at p minus p's net change), so that
    path is the highest-first ordering of the only possible sources, which is the
    first the depth-first search tries. Chelebi's longer progressive doubles
    de-duplicate after each group of four, which may keep another path.
    """
    return all(len(dice) <= 4 for dice in sequences)


_PROVIDERS: dict[type, Callable[[Any, int, Beam, int], Afterstates[Any]]] = {
    BackgammonPosition: _tabla,
    TapaPosition: _compiled,
    GulbaraPosition: _compiled,
}
"""Faster ways than listing turns, by position class (found through the class's bases)."""
