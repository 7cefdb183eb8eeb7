"""Score brackets paired from hand-built player lists (C.04.3 criteria that a TRF of a
few rounds can hardly isolate: moved-down players, colours of topscorers in the last
round, repeated upfloats), and the order in which boards are published."""

from __future__ import annotations

from tavla.tournament.dutch import _publication_key
from tavla.tournament.dutch.brackets import RoundPairer
from tavla.tournament.dutch.players import Float, SwissPlayer
from tavla.tournament.history import Colour

NONE, UP = Float.NONE, Float.UP


def player(
    number: int,
    points: float,
    colours: str,
    opponents: tuple[int, ...] = (),
    *,
    floats: tuple[Float, Float] = (NONE, NONE),
    topscorer: bool = False,
) -> SwissPlayer:
    """Player ``number`` (pairing number = start number) with ``colours`` such as "WBB"
    for the games played, oldest first."""
    return SwissPlayer(
        number=number,
        rank=number - 1,
        score=round(points * 2),
        opponents=frozenset(opponents),
        colours=tuple(Colour(c.lower()) for c in colours),
        bye_allowed=True,
        floats=floats,
        topscorer=topscorer,
    )


def pairs_of(players: list[SwissPlayer]) -> set[tuple[int, int]]:
    """The pairs the bracket pairer makes, higher-ranked player first."""
    pairs, bye = RoundPairer(players).pair()
    assert bye is None
    return {(a.number, b.number) for a, b in pairs}


def test_the_highest_moved_down_player_is_paired_when_only_one_can_be() -> None:
    """1 and 2 (2 points, both due white absolutely, so C.3 keeps them apart) move down
    to the 1-point bracket, whose only resident 3 can take one of them, equally well on
    every criterion. C.04.3 B.2: S1 starts with the highest moved-down players (the rest
    wait in Limbo, D.3 exchanges come later), so 1 meets 3 and 2 floats on to meet 4."""
    players = [
        player(1, 2, "BB", (7, 8)),
        player(2, 2, "BB", (9, 10)),
        player(3, 1, "WW", (11, 12)),
        player(4, 0, "BW", (13, 14)),
        player(5, 0, "WB", (15, 16)),
        player(6, 0, "BW", (17, 18)),
    ]
    assert pairs_of(players) == {(1, 3), (2, 4), (5, 6)}


def test_a_repeated_upfloat_goes_to_the_smaller_score_difference_c17() -> None:
    """1 (3 points) and 2 (2.5) already met and both move down to the 2-point bracket
    {3, 4}. 3 upfloated last round and upfloats again whoever he meets (C.13 cannot
    help); C.17 then minimises the score difference of that upfloat: 3 meets 2, not 1,
    although D.1's order would pair 1 with 3."""
    players = [
        player(1, 3, "BWB", (2, 9, 10)),
        player(2, 2.5, "BWB", (1, 11, 12)),
        player(3, 2, "WBW", (13, 14, 15), floats=(UP, NONE)),
        player(4, 2, "WBW", (16, 17, 18)),
    ]
    assert pairs_of(players) == {(1, 4), (2, 3)}


def test_an_absolute_preference_beside_a_strong_one_is_no_colour_difference_beyond_two_c8() -> None:
    """1 must have white (BB), 3 and 4 want white strongly (one game, B), 2 mildly. Every
    pairing leaves two preferences unmet and one strong one (C.10, C.11); 1 against 3
    only gives 3 a difference of two, not beyond (C.8), so D.1's first candidate stands."""
    players = [player(1, 1, "BB"), player(2, 1, "WB"), player(3, 1, "B"), player(4, 1, "B")]
    assert pairs_of(players) == {(1, 3), (2, 4)}


def test_last_round_topscorers_due_white_absolutely_do_not_meet_when_one_would_get_a_third_black_c9() -> None:
    """Last round, four topscorers all wanting white: 1 and 2 absolutely (WBB), 3 and 4
    strongly (BWB). 1-2 costs one strong preference fewer (C.11) but gives one of them
    black a third time in a row, which C.9 ranks higher."""
    players = [player(n, 2, c, topscorer=True) for n, c in ((1, "WBB"), (2, "WBB"), (3, "BWB"), (4, "BWB"))]
    assert pairs_of(players) == {(1, 3), (2, 4)}


def test_the_player_with_the_smaller_colour_difference_yields_and_may_get_a_third_colour_c9() -> None:
    """Last round, topscorers wanting black: 1 absolutely by two whites in a row (BBWW,
    difference 0), 2 absolutely by a difference of two (WWBW), 3 and 4 strongly (WBW).
    Between 1 and 2 the wider difference wins (E.2), so 1 would get white a third time
    (C.9); 1-3 and 2-4 keep C.9 at the cost of a strong preference (C.11, lower)."""
    players = [player(n, 2, c, topscorer=True) for n, c in ((1, "BBWW"), (2, "WWBW"), (3, "WBW"), (4, "WBW"))]
    assert pairs_of(players) == {(1, 3), (2, 4)}


def test_the_yielding_player_without_a_repeated_colour_keeps_c9_even_beyond_two() -> None:
    """Last round, four topscorers all due black absolutely and every pair beyond a
    difference of two (C.8 counts two in every pairing). Against 1 (WWBWW, difference 3)
    3 (WWBW, difference 2, no repeat) yields and gets white without a third in a row
    (E.2, C.9 kept); 2 and 4 (both WBWW) would give one of them a third white. Every
    pairing breaks C.9 exactly once, so D.1's first candidate, 1-3 and 2-4, stands."""
    players = [
        player(1, 2, "WWBWW", topscorer=True),
        player(2, 2, "WBWW", topscorer=True),
        player(3, 2, "WWBW", topscorer=True),
        player(4, 2, "WBWW", topscorer=True),
    ]
    assert pairs_of(players) == {(1, 3), (2, 4)}


def test_boards_are_ordered_by_the_higher_player_whichever_side_of_the_pair_he_is_on() -> None:
    """The key reads the higher-ranked player's score first, then the lower's, then rank,
    whichever order the pair comes in."""
    high, low = player(3, 2, "WB"), player(1, 1, "BW")
    assert _publication_key((high, low)) == _publication_key((low, high)) == (-4, -2, 2)
