"""The compiled generators (tavla.bots.fast) against the pure-Python rules they mirror.

Every test runs on positions met in seeded random playouts, drawn by Hypothesis,
with every one of the 21 rolls. The differential tests need numba (the ``fast``
extra) and are skipped without it; the tests of ``afterstates`` and
``random_playout`` run twice, through the compiled path and through the pure-Python
one (``fast.AVAILABLE`` switched off), and both must agree with the rules.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.dice_positions import dice_position, dice_start

import tavla
from tavla.bots import fast
from tavla.bots.afterstates import TooManyTurnsError, afterstates
from tavla.bots.encoding import encoder_for
from tavla.bots.playout import random_playout, random_turn_by_steps
from tavla.core.dice import ROLLS
from tavla.rules.backgammon.movegen import board_to_state, state_to_board, tabla_steps
from tavla.rules.backgammon.position import BackgammonPosition
from tavla.rules.backgammon.turngen import turn_boards_within
from tavla.rules.dicegame import DiceGame
from tavla.rules.gulbara.movegen import gulbara_steps
from tavla.rules.tapa.movegen import tapa_steps
from tavla.rules.turns import turn_states_within

ALL_ROLLS = [roll for roll, _ in ROLLS]
DICE_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")
COMPILED_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara")
KINDS = {"tapa": fast.TAPA, "gulbara": fast.GULBARA}
LIMIT = 200
"""Past this many positions after one die a double is "huge": listing bigger ones in
pure Python would make the tests slow, and the limit is part of what is compared."""

needs_numba = pytest.mark.skipif(not fast.AVAILABLE, reason="numba (the fast extra) is not installed")


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    """Compile or load every kernel once, before the tests' own work."""
    fast.warm_up()


PATHS = [pytest.param("python"), pytest.param("compiled", marks=needs_numba)]


@contextmanager
def through(path: str) -> Iterator[None]:
    """The pure-Python generators (``fast.AVAILABLE`` off) or the compiled ones."""
    available = fast.AVAILABLE
    fast.AVAILABLE = available and path == "compiled"
    try:
        yield
    finally:
        fast.AVAILABLE = available


def playout_positions(game: str, seed: int) -> list[Any]:
    """The positions with a turn due met in one seeded random game."""
    found: list[Any] = []
    rng = random.Random(seed)
    start = dice_start(game).with_side(rng.randrange(2))
    random_playout(start, rng, on_turn=lambda before, after: found.append(before))
    return found


def met_position(game: str, seed: int, pick: int) -> Any:
    positions = playout_positions(game, seed)
    return positions[pick % len(positions)]


def with_each_roll(position: Any) -> list[Any]:
    """``position`` with each of the 21 rolls (as it is when it completes a gulbara double)."""
    if position.dice is None:
        return [position]
    return [position._replace(dice=roll) for roll in ALL_ROLLS]


positions_drawn = settings(max_examples=12)
seeds = st.integers(0, 10_000)
picks = st.integers(0, 1_000)


# ------------------------------------------------------------------ step kernels
@needs_numba
@positions_drawn
@given(game=st.sampled_from(COMPILED_GAMES), seed=seeds, pick=picks)
def test_steps_in_the_rules_order(game: str, seed: int, pick: int) -> None:
    """Each kind's steps: the rules' step function's results, in its order."""
    position = met_position(game, seed, pick)
    state = position.mover_state()
    for die in range(1, 7):
        if isinstance(position, BackgammonPosition):
            kind, row = fast.TABLA, state_to_board(state)
            expected = [state_to_board(after) for _, after in tabla_steps(state, die)]
        else:
            kind, row = KINDS[game], state
            step_function = tapa_steps if game == "tapa" else gulbara_steps
            expected = [after for _, after in step_function(state, die)]
        assert fast_steps(kind, row, die) == expected


def fast_steps(kind: int, state: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    from tavla.bots.fast.steps import MAX_STEPS, WIDTHS, successors
    from tavla.bots.fast.store import ROW_BYTES

    width = WIDTHS[kind]
    row = np.zeros(ROW_BYTES, dtype=np.int8)
    row[:width] = state
    out = np.zeros((MAX_STEPS, ROW_BYTES), dtype=np.int8)
    count = successors(kind, row, die, out, np.zeros(MAX_STEPS, dtype=np.int64))
    return [tuple(out[index, :width].tolist()) for index in range(count)]


# ------------------------------------------------------------------ whole turns
@needs_numba
@positions_drawn
@given(game=st.sampled_from(("tabla", "antitabla", "chelebi")), seed=seeds, pick=picks)
def test_tabla_family_boards_in_the_generators_order(game: str, seed: int, pick: int) -> None:
    """The compiled whole-turn generator: turngen's boards, in its order, on every roll,
    with and without a limit (chelebi's progressive doubles give up alike)."""
    position = met_position(game, seed, pick)
    board = position.mover_board()
    for roll in ALL_ROLLS:
        sequences = position.dice_sequences(roll)
        shape = fast.tabla_roll(sequences)
        assert shape is not None
        for limit in (LIMIT, 20):
            expected = turn_boards_within(board, sequences, limit, prefer_first=True)
            found = fast.tabla_turn_boards(board, shape, limit)
            if expected is None:
                assert found is None, (position.notation(), roll, limit)
                continue
            assert found is not None, (position.notation(), roll, limit)
            assert found[0] == expected[0]
            assert [tuple(row) for row in found[1].tolist()] == list(expected[1])


@needs_numba
@positions_drawn
@given(game=st.sampled_from(("tapa", "gulbara")), seed=seeds, pick=picks)
def test_framework_states_in_the_searchs_order(game: str, seed: int, pick: int) -> None:
    """The compiled breadth-first search: turn_states_within's states, in its order."""
    for rolled in with_each_roll(met_position(game, seed, pick)):
        sequences, prefer = rolled.turn_sequences()
        for limit in (None, LIMIT, 20) if max(map(len, sequences)) <= 4 else (LIMIT, 20):
            expected = turn_states_within(
                rolled.mover_state(), sequences, rolled.step_function(), limit, prefer_first=prefer
            )
            found = fast.turn_states(KINDS[game], rolled.mover_state(), sequences, limit, prefer)
            if expected is None:
                assert found is None, (rolled.notation(), limit)
                continue
            assert found is not None, (rolled.notation(), limit)
            assert found[0] == expected[0]
            assert [tuple(row) for row in found[1].tolist()] == expected[1]


@needs_numba
@positions_drawn
@given(game=st.sampled_from(("chelebi", "gulbara")), seed=seeds, pick=picks, draw=seeds)
def test_step_planner_draws_the_same_turn(game: str, seed: int, pick: int, draw: int) -> None:
    """The compiled planner of huge doubles: the same steps to choose from at every die,
    so the same random turn and the same draws from the generator."""
    position = met_position(game, seed, pick)
    for rolled in with_each_roll(position):
        sequences, _ = rolled.turn_sequences()
        if len(sequences) != 1:
            continue
        reference, compiled = random.Random(draw), random.Random(draw)
        expected = random_turn_by_steps(rolled, reference)
        if isinstance(rolled, BackgammonPosition):
            board, played = fast.random_turn_by_steps(
                fast.TABLA, rolled.mover_board(), sequences[0], compiled
            )
            state = board_to_state(board, rolled.off[1 - rolled.side])
        else:
            state, played = fast.random_turn_by_steps(
                KINDS[game], rolled.mover_state(), sequences[0], compiled
            )
        assert rolled.after_turn(state, played) == expected, rolled.notation()
        assert reference.random() == compiled.random()


# ------------------------------------------------------------------ the public paths
@pytest.mark.parametrize("path", PATHS)
@positions_drawn
@given(game=st.sampled_from(DICE_GAMES), seed=seeds, pick=picks)
def test_afterstates_rows_are_the_legal_turns_results(path: str, game: str, seed: int, pick: int) -> None:
    """afterstates: one row per legal turn, in legal_turns' order, equal bit for bit to
    the encoding of the turn's result, and the same turns (on every roll)."""
    with through(path):
        check_afterstates(game, seed, pick)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("game", ["tapa", "gulbara"])
def test_afterstates_while_bearing_off(path: str, game: str) -> None:
    """The last turns of seeded games, where both sides have checkers off in different
    numbers: rows read from mover states count each side's own."""
    positions = [p for p in playout_positions(game, 3)[-30:] if p.off[0] != p.off[1]]
    assert len(positions) >= 4
    with through(path):
        for position in positions:
            check_rolled(position, encoder_for(position))


def check_afterstates(game: str, seed: int, pick: int) -> None:
    encoder = encoder_for(tavla.find_game(game).start())
    rolls = with_each_roll(met_position(game, seed, pick))
    if game == "tapa":  # the Greek rule is one of the encoding's features: both rule sets
        greek = [dataclasses.replace(p.options, mother_pin_wins=True) for p in rolls[::4]]
        rolls += [p._replace(options=options) for p, options in zip(rolls[::4], greek, strict=True)]
    for rolled in rolls:
        check_rolled(rolled, encoder)


def check_rolled(rolled: Any, encoder: Any) -> None:
    """afterstates of one rolled position against the rules' listing of its turns."""
    turns = rolled.legal_turns_within(LIMIT)
    if turns is None:
        with pytest.raises(TooManyTurnsError):
            afterstates(rolled, limit=LIMIT)
        return
    found = afterstates(rolled, limit=LIMIT)
    # Before anything lists the turns: the compiled path builds each result alone.
    afters = [found.after(index) for index in range(len(found))]
    expected = encoder.encode_many([turn.after for turn in turns], rolled.side)
    assert found.features.dtype == np.float32 and np.array_equal(found.features, expected)
    assert afters == [turn.after for turn in turns]
    assert [turn.after for turn in found.turns] == [turn.after for turn in turns]
    assert [found.text(index) for index in range(len(found))] == [turn.text for turn in turns]


def scores(encoder: Any, mover: int, weights: Any, positions: Any) -> list[float]:
    """A fixed rating of positions, seen by ``mover``: not linear, so that what all the
    candidates share (gulbara's dice passed on) can still change their order."""
    return [float(np.tanh(encoder.encode(p, mover) @ weights) ** 3) for p in positions]


def row_scores(weights: Any, rows: Any) -> list[float]:
    """:func:`scores` of the positions' rows, row by row (the same products to the bit)."""
    return [float(np.tanh(row @ weights) ** 3) for row in rows]


def ties(positions: Any) -> list[float]:
    return [0.0] * len(positions)


@needs_numba
@pytest.mark.parametrize(("game", "seed"), [("gulbara", 3), ("gulbara", 4), ("chelebi", 4), ("chelebi", 14)])
def test_compiled_beam_keeps_the_rules_turns(game: str, seed: int) -> None:
    """Chelebi's and gulbara's huge progressive doubles: the beam on the compiled
    planner keeps the rules' beam's turns in its order, with the same rows, whether the
    scores differ or all tie (then the order is the search's own)."""
    cases = 0
    stride = 12 if game == "gulbara" else 6  # chelebi's random games are shorter
    for position in playout_positions(game, seed)[::stride]:
        encoder = encoder_for(position)
        weights = np.random.default_rng(seed).normal(size=encoder.size)
        rating = functools.partial(scores, encoder, position.side, weights)
        huge = [rolled for rolled in with_each_roll(position) if rolled.legal_turns_within(LIMIT) is None]
        # The same rating of the rows the compiled beam reads from its states directly.
        rows_rating = functools.partial(row_scores, weights)
        for rolled in huge[:1]:
            for score_many, score_rows in ((rating, None), (ties, None), (None, rows_rating)):
                found = afterstates(
                    rolled, limit=LIMIT, score_many=score_many, score_rows=score_rows, width=8
                )
                afters = [found.after(index) for index in range(len(found))]
                one_by_one = [found.turn(index) for index in range(len(found))]
                with through("python"):
                    pure = afterstates(rolled, limit=LIMIT, score_many=score_many or rating, width=8)
                assert not found.complete and np.array_equal(found.features, pure.features)
                assert afters == [turn.after for turn in pure.turns] == [turn.after for turn in found.turns]
                assert [turn.steps for turn in one_by_one] == [turn.steps for turn in pure.turns]
                assert [turn.text for turn in one_by_one] == [turn.text for turn in pure.turns] == found.texts
                cases += 1
    assert cases >= 6


@needs_numba
def test_a_full_beam_memo_grows_and_the_beam_reruns() -> None:
    """A beam whose memo fills up runs again on a larger one, to the same turns."""
    from tavla.bots.fast.scratch import Scratch, beam_store

    position = dice_position("chelebi 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 11")
    encoder = encoder_for(position)
    rating = functools.partial(
        scores, encoder, position.side, np.random.default_rng(1).normal(size=encoder.size)
    )
    with through("python"):
        pure = [turn.after for turn in afterstates(position, score_many=rating, width=8).turns]
    tiny = Scratch(1, 64)
    fast.scratch._local.beam = tiny
    try:
        found = afterstates(position, score_many=rating, width=8)
        assert tiny.capacity > 64 and beam_store() is tiny
    finally:
        del fast.scratch._local.beam
    assert [found.after(index) for index in range(len(found))] == pure


@needs_numba
@pytest.mark.parametrize("draw", [1, 2, 3])
def test_a_full_planner_memo_grows_and_the_turn_is_drawn_again_with_the_same_draws(draw: int) -> None:
    """A random turn whose memo fills up midway is planned again on a larger memo from
    the generator's state before it: the same turn, and the same draws after it."""
    from tavla.bots.fast.scratch import Scratch, memo_store

    position = dice_position("chelebi 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 11")
    assert isinstance(position, BackgammonPosition)
    sequences, _ = position.turn_sequences()
    reference, compiled = random.Random(draw), random.Random(draw)
    expected = random_turn_by_steps(position, reference)
    tiny = Scratch(1, 64)
    fast.scratch._local.memo = tiny
    try:
        board, played = fast.random_turn_by_steps(fast.TABLA, position.mover_board(), sequences[0], compiled)
        assert tiny.capacity > 64 and memo_store() is tiny
    finally:
        del fast.scratch._local.memo
    state = board_to_state(board, position.off[1 - position.side])
    assert position.after_turn(state, played) == expected
    assert reference.random() == compiled.random()


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=6)
@given(game=st.sampled_from(DICE_GAMES), seed=seeds)
def test_seeded_playout_plays_legal_turns(path: str, game: str, seed: int) -> None:
    """random_playout with a seed: every turn's result is among the legal results."""
    seen: list[tuple[Any, Any]] = []
    rng = random.Random(seed)
    start = dice_start(game).with_side(rng.randrange(2))
    with through(path):
        result = random_playout(start, rng, on_turn=lambda before, after: seen.append((before, after)))
    assert result.outcome == result.final.outcome() is not None and result.turns == len(seen)
    for before, after in seen:
        turns = before.legal_turns_within(LIMIT)
        if turns is not None:
            assert after in {turn.after for turn in turns}, before.notation()
        else:  # a huge double: the rules find the turn that leads there
            found = before.find_turn(after.with_side(before.side).mover_state())
            assert found is not None and found.after == after, before.notation()


@needs_numba
@pytest.mark.parametrize("game", [*DICE_GAMES, "tapa mother_pin_wins"])
def test_compiled_playouts_are_the_pure_python_games(game: str) -> None:
    """The compiled path lists the same turns in the same order and draws alike: a seed
    gives the same game with or without numba (tapa's loop on states included, under
    both rule sets: pinned mothers end its games)."""
    name, _, option = game.partition(" ")
    definition = tavla.find_game(name)
    start = (definition.with_options(**{option: True}) if option else definition).start()
    assert isinstance(start, DiceGame)
    compiled = [random_playout(start.with_side(seed % 2), random.Random(seed)) for seed in range(16)]
    with through("python"):
        pure = [random_playout(start.with_side(seed % 2), random.Random(seed)) for seed in range(16)]
    assert [(p.final, p.turns) for p in compiled] == [(p.final, p.turns) for p in pure]


def test_rolls_the_compiled_generator_does_not_know() -> None:
    """Dice sequences of another shape are left to the pure-Python generator."""
    assert fast.tabla_roll([[6, 1], [1, 6]]) == (6, 1, False)
    assert fast.tabla_roll([[3] * 4]) == (3, 3, False)
    assert fast.tabla_roll([[5] * 4 + [6] * 4]) == (5, 5, True)
    odd_shapes: tuple[list[list[int]], ...] = (
        [[1, 6], [6, 1]],
        [[6, 1]],
        [[3] * 3],
        [[5] * 4 + [6] * 3],
        [],
        [[]],
    )
    for odd in odd_shapes:
        assert fast.tabla_roll(odd) is None


def test_a_full_store_grows_and_the_search_reruns() -> None:
    """A search that outgrows the store is rerun on a larger one, with the same result."""
    scratch = importlib.import_module("tavla.bots.fast.scratch")
    if not fast.AVAILABLE:
        pytest.skip("numba (the fast extra) is not installed")
    position = tavla.from_notation(
        "tabla 1w/2w/1w/1w/-/2w/1w/2w/1w/-/-/3b/1w/-/-/1b/1b/1w/4b/1b/2b/3b/2w/- 0,0 0,0 w 33"
    )
    assert isinstance(position, BackgammonPosition)
    board = position.mover_board()
    sequences = position.dice_sequences((3, 3))
    expected = turn_boards_within(board, sequences, 1500, prefer_first=True)
    assert expected is not None and len(expected[1]) > 64
    shape = fast.tabla_roll(sequences)
    assert shape is not None
    store = scratch.search_store()
    small = scratch.Scratch(capacity=16)
    scratch._local.search = small
    try:
        found = fast.tabla_turn_boards(board, shape, 1500)
        assert small.capacity > 16
    finally:
        scratch._local.search = store
    assert found is not None and [tuple(row) for row in found[1].tolist()] == list(expected[1])


def test_replace_keeps_dice_games_dataclasses() -> None:
    """random_playout rolls by copying a position's fields: they are dataclass fields."""
    for game in DICE_GAMES:
        position = tavla.find_game(game).start()
        assert dataclasses.is_dataclass(position)
        assert "dice" in {field.name for field in dataclasses.fields(position)}
