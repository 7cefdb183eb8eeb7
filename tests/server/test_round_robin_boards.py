"""A round robin's boards as the site pairs them (RULES.md 11.3): every pair meets once,
and a player rests in each round only when the field is odd."""

from __future__ import annotations

import itertools

import pytest

from tavla.server.tournaments import rounds
from tavla.server.tournaments.rounds import Player

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize("field", [4, 5])
def test_every_pair_meets_once_and_only_an_odd_field_rests(field: int) -> None:
    players = [Player(number, f"player {number}") for number in range(1, field + 1)]
    total = rounds.total_rounds(rounds.ROUND_ROBIN, None, field)
    assert total == (field - 1 if field % 2 == 0 else field)
    met: list[frozenset[int]] = []
    resting: list[int] = []
    for number in range(1, total + 1):
        boards = rounds.pair(rounds.ROUND_ROBIN, None, (1,), players, [], number)
        assert [board.board for board in boards] == list(range(1, len(boards) + 1))
        games = [board for board in boards if board.black is not None]
        rests = [board.white for board in boards if board.black is None]
        assert len(games) == field // 2 and len(rests) == field % 2
        met += [frozenset((board.white, board.black)) for board in games if board.black is not None]
        resting += rests
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations(range(1, field + 1), 2)), key=sorted
    )
    assert sorted(resting) == ([] if field % 2 == 0 else list(range(1, field + 1)))
