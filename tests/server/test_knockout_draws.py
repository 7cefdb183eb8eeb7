"""A knockout match without a winner (a void tapa game: both mothers pinned): the next
round cannot be paired from it, and the table leaves its two players in, ranked with
those still playing."""

from __future__ import annotations

import pytest

from tavla.server.tournaments import rounds
from tavla.server.tournaments.rounds import Played, Player
from tavla.tournament.history import TournamentError

pytestmark = pytest.mark.timeout(30)

PLAYERS = [Player(number, name) for number, name in ((1, "ali"), (2, "bora"), (3, "cem"), (4, "deniz"))]
ROUND_ONE = [Played(1, 1, 1, 4, "draw"), Played(1, 2, 2, 3, "white")]


def test_the_table_leaves_a_drawn_match_open_and_places_the_loser_below() -> None:
    lines = rounds.table(rounds.KNOCKOUT, (1,), PLAYERS, ROUND_ONE, 1)
    assert [(line.rank, line.name) for line in lines] == [(1, "ali"), (1, "bora"), (1, "deniz"), (3, "cem")]


def test_the_next_round_is_not_paired_from_a_drawn_match() -> None:
    with pytest.raises(TournamentError, match="board 1 of round 1: a knockout match needs a winner"):
        rounds.pair(rounds.KNOCKOUT, None, (1,), PLAYERS, ROUND_ONE, 2)
