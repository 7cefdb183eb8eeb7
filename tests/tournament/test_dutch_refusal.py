"""A round that no pairing can satisfy: the refusal is right (a brute-force search finds
no pairing either) and its message names the blocking criterion and the way out."""

from __future__ import annotations

import pytest
from benchmarks.swiss_oracle import ours
from benchmarks.swiss_refusal import complete_pairing
from tests.tournament.swiss_helpers import B, W, bye, game, report

from tavla.tournament.dutch.players import swiss_players
from tavla.tournament.history import TournamentError
from tavla.tournament.trf import read_trf

# Everybody has met everybody: C.1.
ALL_MET = {
    1: [game(2, W, "1"), game(3, B, "1"), bye("U")],
    2: [game(1, B, "0"), bye("U"), game(3, W, "1")],
    3: [bye("U"), game(1, W, "0"), game(2, B, "0")],
}
# 1-2 and 3-4 are the only games not yet played, and both pairs are due the same colour
# absolutely (WW, BB) outside the last round: C.3.
SAME_COLOURS = {
    1: [game(3, W, "1"), game(4, W, "1")],
    2: [game(4, W, "1"), game(3, W, "1")],
    3: [game(1, B, "0"), game(2, B, "0")],
    4: [game(2, B, "0"), game(1, B, "0")],
}
# 1 had the pairing bye, 2 won by forfeit (so 2-3 was never played), 1-2 met: whoever
# sits out breaks C.2 or C.1.
BYES_USED = {
    1: [game(2, W, "1"), bye("U")],
    2: [game(1, B, "0"), game(3, W, "+")],
    3: [bye("U"), game(2, B, "-")],
}


@pytest.mark.parametrize(
    ("rounds", "criterion"), [(ALL_MET, "(C.1)"), (SAME_COLOURS, "(C.3)"), (BYES_USED, "(C.2)")]
)
def test_refusal_is_right_and_says_what_blocks_and_what_to_do(
    rounds: dict[int, list[object]], criterion: str
) -> None:
    text = report(rounds, total=6)  # type: ignore[arg-type]
    tournament = read_trf(text)
    players = swiss_players(tournament.entrants, tournament.played_rounds, 6, frozenset())
    assert complete_pairing(players) is None  # brute force agrees: there is none
    played = tournament.played_rounds
    with pytest.raises(TournamentError) as refusal:
        ours(text)
    message = str(refusal.value)
    assert message.startswith(f"round {played + 1}: no pairing")
    assert criterion in message
    assert f"set XXR to {played}" in message and "by hand" in message
    assert "\n" not in message


def test_a_player_who_may_meet_nobody_is_named() -> None:
    text = report(ALL_MET, total=6)
    with pytest.raises(TournamentError, match=r"players 1, 2, 3 may meet none of the others"):
        ours(text)


def test_brute_force_finds_a_pairing_when_there_is_one() -> None:
    """After 1-3 and 2-4 the search pairs 1-2 and 3-4; with 5 added, who had the bye,
    it leaves out a player still allowed the bye, never 5."""
    rounds = {1: [game(3, W, "1")], 2: [game(4, W, "1")], 3: [game(1, B, "0")], 4: [game(2, B, "0")]}
    tournament = read_trf(report(rounds, total=3))
    found = complete_pairing(swiss_players(tournament.entrants, 1, 3, frozenset()))
    assert found == [(1, 2), (3, 4)]
    tournament = read_trf(report({**rounds, 5: [bye("U")]}, total=3))
    found = complete_pairing(swiss_players(tournament.entrants, 1, 3, frozenset()))
    assert found is not None and len(found) == 2 and 5 in {n for pair in found for n in pair}
