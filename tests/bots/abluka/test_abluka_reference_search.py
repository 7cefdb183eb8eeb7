"""The Abluka engine's search held to a plain minimax over the candidates it promises.

``search.py`` promises: at the root and wherever the kings reach at most
``exact_width`` empty squares, every blocker (one square standing for all the squares
no king reaches, which are all alike); elsewhere the squares around the other king
(radius 2 before the horizon, radius 1 and the squares between the kings above it)
and one far square. Its leaves are ``evaluate``, a separated position is
``separated_score`` (both tested against brute force elsewhere), and a step that
leaves the other king at most one free neighbour wins at once (RULES.md 8.1).

The reference below searches exactly that tree by plain minimax, from the rules' own
turns where the engine promises all of them: with late-move reductions switched off,
the engine's windows, table and ordering must change its effort only, never a score.
"""

from __future__ import annotations

import random

import pytest
from tests.bots.abluka.brute_force import random_open_position

import tavla.bots.abluka.search as search
from tavla.bots.abluka import Searcher, SearchSettings
from tavla.bots.abluka.baselines import random_opening
from tavla.bots.abluka.endgame import SurvivalSolver, separated_regions
from tavla.bots.abluka.evaluation import WIN, evaluate, separated_score
from tavla.rules.abluka import AblukaPosition
from tavla.rules.abluka.board import BIT, FULL, NEIGHBOURS, grow, reachable


def _within(square: int, steps: int) -> int:
    mask = BIT[square]
    for _ in range(steps):
        mask = grow(mask)
    return mask & ~BIT[square]


def _squares(mask: int) -> list[int]:
    return [square for square in range(49) if mask & BIT[square]]


def candidate_turns(
    mover: int, waiter: int, blockers: int, depth: int, *, root: bool, exact_width: int = 14
) -> list[tuple[int, int]]:
    """The turns the engine promises to search, as ``(to, block)``."""
    position = AblukaPosition(mover, waiter, blockers, 0)
    empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
    reach = reachable(BIT[mover], empty | BIT[waiter]) & empty
    reach |= reachable(BIT[waiter], empty) & empty
    unreachable = _squares(empty & ~reach)
    # Any one unreachable square stands for the others: the last here, where the
    # engine takes the first.
    stand_in = unreachable[-1] if unreachable else None
    turns = []
    for turn in position.legal_turns():
        if turn.block in unreachable and turn.block != stand_in:
            continue
        turns.append((turn.to, turn.block))
    if root or reach.bit_count() <= exact_width:
        return turns
    near_waiter = _within(waiter, 2)
    # Radius 2 on the last turn before the horizon; radius 1 and between the kings above it.
    zone = near_waiter if depth <= 1 else _within(waiter, 1) | (near_waiter & _within(mover, 2))
    playable = reach | BIT[mover]
    narrowed: list[tuple[int, int]] = []
    for to in _squares(NEIGHBOURS[mover] & empty):
        after_empty = (empty & ~BIT[to]) | BIT[mover]
        blocks = _squares(after_empty & playable & zone)
        if stand_in is not None:
            blocks.append(stand_in)
        elif playable & zone != playable:  # some square lies outside the zone
            far = _squares(after_empty & ~(near_waiter | _within(to, 2) | BIT[waiter] | BIT[to]))
            blocks.extend(far[:1])
        narrowed.extend((to, block) for block in blocks)
    return narrowed


def reference(
    mover: int,
    waiter: int,
    blockers: int,
    depth: int,
    ply: int,
    solver: SurvivalSolver,
    *,
    root: bool = False,
) -> int:
    """The score the engine's search promises for the side to move, by plain minimax."""
    empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
    steps = _squares(NEIGHBOURS[mover] & empty)
    if not steps:
        return -WIN + ply
    for to in steps:
        after_empty = (empty & ~BIT[to]) | BIT[mover]
        if (NEIGHBOURS[waiter] & after_empty).bit_count() <= 1:
            return WIN - ply - 1
    if depth <= 0:
        return evaluate(mover, waiter, blockers, solver, ply)
    regions = separated_regions(mover, waiter, blockers)
    if regions is not None:
        return separated_score(mover, waiter, regions, solver, ply)
    return max(
        -reference(waiter, to, blockers | BIT[block], depth - 1, ply + 1, solver)
        for to, block in candidate_turns(mover, waiter, blockers, depth, root=root)
    )


@pytest.fixture
def no_reductions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Late-move reductions prune by a shallower look: switched off, the search is exact."""
    monkeypatch.setattr(search, "LMR_AFTER", 10**6)
    monkeypatch.setattr(search, "ROOT_LMR_AFTER", 10**6)


def _up_to_stand_in(turns: list[tuple[int, int]], unreachable: int) -> set[tuple[int, int]]:
    """The turns with a blocker nobody can reach counted as any other such blocker (-1)."""
    return {(to, -1 if unreachable & BIT[block] else block) for to, block in turns}


def _positions(seed: int) -> list[AblukaPosition]:
    """Middle games (wide: the narrowed candidates) and small regions (exact everywhere)."""
    rng = random.Random(seed)
    found = [random_opening(seed * 10 + index, rng.randint(4, 12)) for index in range(3)]
    found += [random_open_position(rng, 12) for _ in range(3)]
    return [
        position
        for position in found
        if separated_regions(position.mover, position.waiter, position.blockers) is None
    ]


def _solver() -> SurvivalSolver:
    return SurvivalSolver(budget=10**7)


def expected(position: AblukaPosition, depth: int, ply: int = 0, *, root: bool = False) -> int:
    """The reference's score of ``position`` searched ``depth`` plies from ``ply``."""
    return reference(*position_args(position), depth, ply, _solver(), root=root)


def searched(
    position: AblukaPosition, depth: int, alpha: int = -WIN - 1, beta: int = WIN + 1, ply: int = 0
) -> int:
    """The engine's score of ``position`` by a search of ``depth`` plies, on a fresh table."""
    return _searcher()._search(*position_args(position), depth, alpha, beta, ply)


def position_args(position: AblukaPosition) -> tuple[int, int, int]:
    return position.mover, position.waiter, position.blockers


def _searcher() -> Searcher:
    """A searcher called below its driver: no clock, and an endgame budget as large as the reference's."""
    searcher = Searcher(SearchSettings(solver_budget=10**7))
    searcher._deadline = float("inf")
    return searcher


@pytest.mark.usefixtures("no_reductions")
@pytest.mark.parametrize("seed", range(3))
def test_a_full_window_search_scores_as_the_reference(seed: int) -> None:
    for position in _positions(seed):
        for depth in (1, 2):
            assert searched(position, depth) == expected(position, depth), (position.notation(), depth)


@pytest.mark.usefixtures("no_reductions")
@pytest.mark.parametrize("seed", range(3))
def test_a_narrow_window_bounds_the_score_on_the_right_side(seed: int) -> None:
    """Fail-soft alpha-beta: an answer at or below alpha is an upper bound of the score, one
    at or above beta a lower bound, one between them the score itself."""
    rng = random.Random(seed)
    for position in _positions(seed):
        exact = expected(position, 2)
        windows = [(exact - 1, exact + 1), (exact, exact + 1), (exact - 1, exact)]
        for _ in range(3):
            low, high = sorted(rng.sample(range(exact - 60, exact + 60), 2))
            windows.append((low, high))
        for alpha, beta in windows:
            found = searched(position, 2, alpha, beta)
            if found <= alpha:
                assert exact <= found, (position.notation(), alpha, beta)
            elif found >= beta:
                assert exact >= found, (position.notation(), alpha, beta)
            else:
                assert exact == found, (position.notation(), alpha, beta)


@pytest.mark.usefixtures("no_reductions")
@pytest.mark.parametrize("seed", range(2))
def test_the_root_chooses_a_turn_worth_the_reference_s_best(seed: int) -> None:
    """The root tries every legal turn; its choice scores the best of them, and the table
    and killers kept from one depth to the next change nothing."""
    for position in _positions(seed):
        searcher = _searcher()
        previous = None
        for depth in (1, 2):
            to, block, score = searcher._root(*position_args(position), depth, previous)
            best = expected(position, depth, root=True)
            assert score == best, (position.notation(), depth)
            chosen = -reference(position.waiter, to, position.blockers | BIT[block], depth - 1, 1, _solver())
            assert chosen == best
            assert position.turn_error(to, block) is None
            previous = (to, block, score)


def test_a_node_at_the_horizon_is_lost_won_at_once_or_evaluated() -> None:
    """Depth 0: a king with no step has lost, a step that leaves the other king one free
    square at most wins at once, and any other position is evaluated."""
    rng = random.Random(8)
    seen = set()
    for _ in range(300):
        position = random_open_position(rng, rng.randint(4, 10))
        score = expected(position, 0, ply=2)
        assert searched(position, 0, ply=2) == score, position.notation()
        seen.add(score if abs(score) >= WIN - 10 else 0)
    assert seen == {WIN - 3, 0}  # both kinds of node met (a king with no step ends the game before)


@pytest.mark.usefixtures("no_reductions")
@pytest.mark.parametrize(("depth", "size", "count", "seed"), [(3, 10, 4, 3), (4, 7, 12, 6)])
def test_small_regions_are_searched_exactly_several_plies_deep(
    depth: int, size: int, count: int, seed: int
) -> None:
    """Deeper trees: the null windows, re-searches and bounds kept in the table meet each
    other on the way, and none may change the score."""
    rng = random.Random(seed)
    for _ in range(count):
        position = random_open_position(rng, size)
        assert searched(position, depth) == expected(position, depth), position.notation()


def test_the_root_lists_every_turn_once_and_one_stand_in_for_squares_nobody_reaches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    position = random_opening(10, 16)  # 28 squares the kings reach, 3 they never will
    empty = FULL & ~(position.blockers | BIT[position.mover] | BIT[position.waiter])
    unreachable = empty & ~reachable(BIT[position.mover], empty | BIT[position.waiter])
    assert unreachable, "a square nobody reaches"
    visited: list[tuple[int, int]] = []

    def record(self: Searcher, mover: int, waiter: int, blockers: int, *rest: int) -> int:
        visited.append((waiter, (blockers & ~position.blockers).bit_length() - 1))
        return 0  # every turn alike: each is searched once, none again

    monkeypatch.setattr(Searcher, "_search", record)
    _searcher()._root(*position_args(position), 1, None)
    promised = candidate_turns(*position_args(position), 1, root=True)
    assert _up_to_stand_in(visited, unreachable) == _up_to_stand_in(promised, unreachable)
    assert len(visited) == len(_up_to_stand_in(visited, unreachable))  # no turn twice, one stand-in a step


@pytest.mark.parametrize("seed", range(3))
def test_a_search_repeated_is_answered_from_the_table(seed: int) -> None:
    """What a search finds is kept at its depth: the same search again is one node."""
    for position in _positions(seed)[:3]:
        searcher = _searcher()
        args = (position.mover, position.waiter, position.blockers, 2, -WIN - 1, WIN + 1, 0)
        score = searcher._search(*args)
        searcher.nodes = 0
        assert searcher._search(*args) == score
        assert searcher.nodes == 1


@pytest.mark.parametrize("seed", range(3))
def test_inside_the_tree_the_candidates_are_those_promised(seed: int) -> None:
    """Below the root the engine lists the narrowed candidates, each once: near the other
    king, between the kings, one far square, and one square for all those nobody reaches."""
    for position in _positions(seed):
        mover, waiter, blockers = position_args(position)
        empty = FULL & ~(blockers | BIT[mover] | BIT[waiter])
        reach = reachable(BIT[mover], empty | BIT[waiter]) & empty
        unreachable = empty & ~reach
        for depth in (1, 2, 3):
            codes = _searcher()._ordered_turns(mover, waiter, empty, reach, depth, 1, 0, root=False)
            listed = [(code & 63, code >> 6) for code in codes]
            assert len(listed) == len(set(listed))
            promised = candidate_turns(mover, waiter, blockers, depth, root=False)
            # The stand-in for the squares nobody reaches may be any one of them.
            assert _up_to_stand_in(listed, unreachable) == _up_to_stand_in(promised, unreachable), (
                position.notation(),
                depth,
            )


def test_the_nodes_reported_are_the_nodes_visited(monkeypatch: pytest.MonkeyPatch) -> None:
    visits = 0
    search_node = Searcher._search

    def counted(self: Searcher, *args: int) -> int:
        nonlocal visits
        visits += 1
        return search_node(self, *args)

    monkeypatch.setattr(Searcher, "_search", counted)
    position = random_opening(3, 6)
    result = Searcher(SearchSettings(max_depth=2)).choose(*position_args(position), 60_000)
    assert result.depth == 2
    assert result.nodes == visits > 100
