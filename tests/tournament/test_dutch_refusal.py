"""A round that no pairing can satisfy: the refusal is right (a brute-force search finds
no pairing either) and its message names the blocking criterion and the way out."""

from __future__ import annotations

import re

import pytest
from benchmarks.swiss_oracle import ours
from benchmarks.swiss_refusal import complete_pairing
from tests.tournament.swiss_helpers import B, W, bye, game, report

from tavla.tournament.dutch import pair_round
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
# 1-2 and 2-3 met; 1 and 3 are both due white absolutely (BBB); 2 had the pairing bye;
# 4 and 5 sit out. Only 1-3 with the bye to 2 is left, and it breaks C.3 and C.2 both:
# dropping either rule alone still leaves no pairing.
BOTH_RULES = {
    1: [game(2, B, "0"), game(5, B, "1"), game(4, B, "1")],
    2: [game(1, W, "1"), game(3, W, "1"), bye("U")],
    3: [game(4, B, "0"), game(2, B, "0"), game(5, B, "1")],
    4: [game(3, W, "1"), bye("U"), game(1, W, "0"), bye("Z")],
    5: [bye("U"), game(1, W, "0"), game(3, W, "0"), bye("Z")],
}
# 1 met 2 and 3 and is due white absolutely (BB), as is 4: only 1 can meet nobody, and
# 1-4 with 2-3 is the one pairing left, and C.3 forbids it (5 and 6 sit out).
ONE_ISOLATED = {
    1: [game(2, B, "0"), game(3, B, "0")],
    2: [game(1, W, "1"), game(5, B, "0")],
    3: [game(6, W, "1"), game(1, W, "1")],
    4: [game(5, B, "0"), game(6, B, "0")],
    5: [game(4, W, "1"), game(2, W, "1"), bye("Z")],
    6: [game(3, B, "0"), game(4, W, "1"), bye("Z")],
}


@pytest.mark.parametrize(
    ("rounds", "criterion"),
    [
        (ALL_MET, "(C.1)"),
        (SAME_COLOURS, "(C.3)"),
        (BYES_USED, "(C.2)"),
        (BOTH_RULES, "(C.3) and the one-bye rule (C.2)"),
        (ONE_ISOLATED, "(C.3)"),
    ],
)
def test_refusal_is_right_and_says_what_blocks_and_what_to_do(
    rounds: dict[int, list[object]], criterion: str
) -> None:
    text = report(rounds, total=6)  # type: ignore[arg-type]
    tournament = read_trf(text)
    absent = tournament.absent_from_next_round()  # those marked H or Z for the round
    players = swiss_players(tournament.entrants, tournament.played_rounds, 6, absent)
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


@pytest.mark.parametrize(
    ("rounds", "reason"),
    [
        (ALL_MET, "every complete pairing repeats a game already played (C.1)"),
        (
            SAME_COLOURS,
            "every complete pairing puts two players due the same colour absolutely together (C.3)",
        ),
        (
            ONE_ISOLATED,
            "every complete pairing puts two players due the same colour absolutely together (C.3)",
        ),
        (BYES_USED, "every player who could sit out has already had the pairing bye or a forfeit win (C.2)"),
        (BOTH_RULES, "the colour rule (C.3) and the one-bye rule (C.2) together leave no pairing"),
    ],
)
def test_refusal_names_the_one_rule_that_blocks_or_both_together(
    rounds: dict[int, list[object]], reason: str
) -> None:
    """The reason is the rule whose relaxing alone would leave a pairing: C.3 when the
    colour rule alone blocks, C.2 when the bye rule alone blocks, both when only dropping
    the two together helps, C.1 when even that does not."""
    text = report(rounds, total=6)  # type: ignore[arg-type]
    with pytest.raises(TournamentError) as refusal:
        ours(text)
    # The reason ends the clause: the isolated players (";") or the way out (".") follow.
    assert re.search(rf"absolute criteria: {re.escape(reason)}[;.]", str(refusal.value))


def test_a_single_player_who_may_meet_nobody_is_named_in_the_singular() -> None:
    text = report(ONE_ISOLATED, total=6)
    with pytest.raises(TournamentError) as refusal:
        ours(text)
    assert "; player 1 may meet none of the others present." in str(refusal.value)


def test_no_round_is_paired_once_all_rounds_have_been_played() -> None:
    """XXR 3 with three rounds written: there is no round 4 to pair, although the field
    could still be paired (1-6, 2-3, 4-5 never met); with two played, round 3 is paired."""
    rounds = {
        1: [game(2, W, "1"), game(3, B, "1"), game(4, W, "1")],
        2: [game(1, B, "0"), game(5, W, "1"), game(6, B, "1")],
        3: [game(4, W, "1"), game(1, W, "0"), game(5, B, "1")],
        4: [game(3, B, "0"), game(6, W, "1"), game(1, B, "0")],
        5: [game(6, W, "1"), game(2, B, "0"), game(3, W, "0")],
        6: [game(5, B, "0"), game(4, B, "0"), game(2, W, "0")],
    }
    entrants = read_trf(report(rounds, total=3)).entrants
    with pytest.raises(TournamentError, match=r"^all 3 rounds have been played$"):
        pair_round(entrants, 3, 3)
    assert len(pair_round(entrants, 2, 3).games) == 3
