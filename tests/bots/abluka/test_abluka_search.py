"""The Abluka engine: forced wins found (checked by brute force), legal play at every level."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tests.bots.abluka.brute_force import mover_wins, random_open_position, random_separated_position

from tavla.bots.abluka import LEVELS, AblukaBot, Searcher, SearchSettings
from tavla.bots.abluka.baselines import AbImproved, random_opening, random_turn
from tavla.bots.abluka.endgame import separated_regions
from tavla.bots.abluka.evaluation import WIN_THRESHOLD
from tavla.core.errors import TavlaError
from tavla.rules.abluka import AblukaPosition
from tavla.rules.abluka.board import BIT, FULL, NEIGHBOURS


def test_engine_finds_forced_wins() -> None:
    rng = random.Random(3)
    bot = AblukaBot("hard")
    checked = deep = 0
    while checked < 12:
        position = random_open_position(rng, 7)
        memo: dict[str, bool] = {}
        if not mover_wins(position, memo):
            continue
        # Not a win in one turn: the win needs the opponent's replies to be searched.
        if not any(turn.after.outcome() is not None for turn in position.legal_turns()):
            deep += 1
        turn, _ = bot.think(position, movetime_ms=120_000)  # stops once the win is proved
        assert not mover_wins(turn.after, memo), f"{turn.text} throws away the win in {position}"
        checked += 1
    assert deep >= 3


@pytest.mark.parametrize(
    "text",
    [
        "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxx3B/xxxx3/xxx1xW1 w",  # only f2/d3 wins (of 32)
        "xxxx1Wx/xxx2B1/xxxxx2/xxxx1x1/xxxxxxx/xxxxxxx/xxxxxxx w",  # only g6/f7 wins (of 24)
    ],
)
def test_a_single_winning_turn_is_found(text: str) -> None:
    position = AblukaPosition.from_notation(text)
    memo: dict[str, bool] = {}
    winning = [turn.text for turn in position.legal_turns() if not mover_wins(turn.after, memo)]
    assert len(winning) == 1
    assert all(turn.after.outcome() is None for turn in position.legal_turns())  # no win in one
    # The search stops as soon as it proves the win: the time is a bound on a failure,
    # never what the result depends on (under load the old 1 s was too short).
    turn, result = AblukaBot("hard").think(position, movetime_ms=120_000)
    assert turn.text == winning[0]
    assert result.score > 0


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_turns_to_the_end(level: str) -> None:
    rng = random.Random(level)
    bot = AblukaBot(level, seed=1)
    position = AblukaPosition.start()
    while position.outcome() is None:
        if position.side == 1:
            turn, _ = bot.think(position, movetime_ms=20)
            assert position.parse_turn(turn.text).after == turn.after
            position = turn.after
        else:
            to, block = random_turn(position.mover, position.waiter, position.blockers, rng)
            position = position.after_turn(to, block)
    assert position.outcome() is not None


def test_unknown_level_and_finished_game_are_errors() -> None:
    with pytest.raises(TavlaError, match="unknown"):
        AblukaBot("grandmaster")
    over = AblukaPosition.from_notation("7/7/7/3W3/7/xx5/Bx5 b")
    with pytest.raises(TavlaError, match="over"):
        AblukaBot("easy").think(over, 10)


def test_ab_improved_plays_legal_turns() -> None:
    position = AblukaPosition.start()
    baseline = AbImproved()
    for _ in range(4):
        to, block, depth = baseline.choose(position.mover, position.waiter, position.blockers, 30)
        assert position.turn_error(to, block) is None
        assert depth >= 1
        position = position.after_turn(to, block)


def _minimax(position: AblukaPosition, depth: int, ply: int) -> int:
    """AB-Improved's score by plain minimax: the reference for its pruning and table."""
    empty = FULL & ~(position.blockers | BIT[position.mover] | BIT[position.waiter])
    mine = (NEIGHBOURS[position.mover] & empty).bit_count()
    if mine == 0:
        return -10_000 + ply
    if depth == 0:
        return mine - (NEIGHBOURS[position.waiter] & empty).bit_count()
    return max(
        -_minimax(position.after_turn(turn.to, turn.block), depth - 1, ply + 1)
        for turn in position.legal_turns()
    )


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_ab_improved_search_scores_as_plain_minimax(depth: int) -> None:
    """Pruning, the transposition table and move ordering change the effort, never the score."""
    rng = random.Random(1)
    for _ in range(12):
        position = random_open_position(rng, 12)
        to, block, score = AbImproved().search_depth(
            position.mover, position.waiter, position.blockers, depth
        )
        assert score == _minimax(position, depth, 0)
        assert -_minimax(position.after_turn(to, block), depth - 1, 1) == score


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_changes_only_the_noise_source(level: str) -> None:
    """A seeded bot searches with its level's settings (a seed once shifted them)."""
    seeded = AblukaBot(level, seed=5).searcher.settings
    unseeded = AblukaBot(level).searcher.settings
    assert seeded.seed == 5
    assert replace(seeded, seed=None) == unseeded


@pytest.mark.parametrize("seed", [0, 3])
def test_ab_improved_s_table_saves_what_it_searched(seed: int) -> None:
    """The baseline is AB-Improved in its published form, transposition table included
    (docs/abluka-engine.md): a search repeated with the table warm answers from it at a
    small part of the cost of the same search after the table is cleared."""
    position = random_opening(seed, 6)
    args = (position.mover, position.waiter, position.blockers, 3)
    baseline = AbImproved()
    score = baseline.search_depth(*args)[2]
    baseline.nodes = 0
    assert baseline.search_depth(*args)[2] == score  # the turn may change between equals
    warm = baseline.nodes
    baseline.table.clear()
    baseline.nodes = 0
    assert baseline.search_depth(*args)[2] == score
    assert warm * 5 < baseline.nodes


def test_ab_improved_takes_the_quickest_win() -> None:
    """Wins are scored by their distance (RULES.md 8.1: a king with no step has lost): a
    turn that blocks the other king now scores a win one ply away, and is the one chosen
    over any slower win."""
    rng = random.Random(5)
    found = 0
    for _ in range(400):
        position = random_open_position(rng, 8)
        if all(turn.after.legal_turns() for turn in position.legal_turns()):
            continue
        to, block, score = AbImproved().search_depth(position.mover, position.waiter, position.blockers, 3)
        assert score == 10_000 - 1
        assert not position.after_turn(to, block).legal_turns()
        found += 1
    assert found >= 5


@pytest.mark.parametrize("seed", [*range(4), None])
def test_with_no_time_at_all_the_engine_still_plays_a_sensible_legal_turn(seed: int | None) -> None:
    """With no time, the engine answers with what its first ply found when the clock
    (checked every 256 nodes) stopped it; with no ply to search at all, with its rule of
    thumb: the step that keeps its king the most room, a blocker beside the other king.
    (None: the kings side by side, White's in the corner: a king's square is no step.)"""
    position = random_opening(seed, 2) if seed is not None else AblukaPosition(0, 8, 0, 0)
    hurried = Searcher().choose(position.mover, position.waiter, position.blockers, 0)
    assert hurried.depth <= 1 and position.turn_error(hurried.to, hurried.block) is None
    unsearched = Searcher(SearchSettings(max_depth=0))
    result = unsearched.choose(position.mover, position.waiter, position.blockers, 0)
    assert result.depth == 0 and result.score == 0
    assert position.turn_error(result.to, result.block) is None
    empty = FULL & ~(position.blockers | BIT[position.mover] | BIT[position.waiter])
    room = {
        to: (NEIGHBOURS[to] & empty).bit_count()
        for to in range(49)
        if NEIGHBOURS[position.mover] & empty & BIT[to]
    }
    assert room[result.to] == max(room.values())
    assert NEIGHBOURS[position.waiter] & BIT[result.block]


@pytest.mark.parametrize("separated", [True, False])
def test_the_engine_reports_the_time_it_took(monkeypatch: pytest.MonkeyPatch, separated: bool) -> None:
    """Each answer carries the time it took in milliseconds, read here from a clock that
    moves a quarter of a second at each reading: kings apart are solved exactly at the
    root (docs/abluka-engine.md, "Exact endgames"), depth 0; others are searched until the
    2 s given are spent."""
    rng = random.Random(2)
    position = random_separated_position(rng, 3, 6) if separated else random_opening(2, 4)
    readings: list[float] = []

    def clock() -> float:
        readings.append(0.25 * len(readings))  # exact in binary: no rounding in the milliseconds
        return readings[-1]

    monkeypatch.setattr("tavla.bots.abluka.search.time.perf_counter", clock)
    result = Searcher().choose(position.mover, position.waiter, position.blockers, 2_000)
    assert result.elapsed_ms == 250 * (len(readings) - 1) > 0
    assert position.turn_error(result.to, result.block) is None
    if separated:
        assert result.depth == 0 and abs(result.score) >= WIN_THRESHOLD
        assert result.nodes == 0  # the solver answered: no node of the search was visited
    else:
        assert result.depth >= 1 and result.elapsed_ms >= 2_000


def test_a_seeded_noisy_level_repeats_its_choices_and_another_seed_differs() -> None:
    """The weak levels' noise comes from the bot's seed, so a seeded game can be replayed
    (a researcher's experiment, a reported bug); an unseeded bot is free to vary."""
    positions = [random_opening(seed, 4) for seed in range(8)]

    def choices(seed: int) -> list[tuple[int, int]]:
        bot = AblukaBot("beginner", seed=seed)
        found = []
        for position in positions:
            turn, _ = bot.think(position, movetime_ms=10_000)
            found.append((turn.to, turn.block))
        return found

    assert choices(1) == choices(1)
    assert choices(1) != choices(2)


@pytest.mark.parametrize(("movetime_ms", "solved"), [(60_000, False), (10_000_000, True)])
def test_the_root_solver_spends_at_most_half_the_time(
    monkeypatch: pytest.MonkeyPatch, movetime_ms: int, solved: bool
) -> None:
    """Kings apart are solved exactly at the root when the solver manages within half the
    time given; a region too large for that is searched instead, with the time left. The
    clock moves a quarter of a second at each reading, and this position's exact solution
    reads it 143 times (35.5 s)."""
    position = AblukaPosition.from_notation("xxxxxxx/xxxxxxx/xxxxxxx/3xxx1/3xx1B/3xxxx/1W2xxx w")
    assert separated_regions(position.mover, position.waiter, position.blockers) is not None
    readings: list[float] = []

    def clock() -> float:
        readings.append(0.25 * len(readings))
        return readings[-1]

    monkeypatch.setattr("tavla.bots.abluka.search.time.perf_counter", clock)
    result = Searcher().choose(position.mover, position.waiter, position.blockers, movetime_ms)
    assert position.turn_error(result.to, result.block) is None
    if solved:
        assert result.depth == 0 and abs(result.score) >= WIN_THRESHOLD
    else:  # the solver gave up at half the time; the search went on after it
        assert result.depth >= 1 and result.elapsed_ms > movetime_ms / 2
