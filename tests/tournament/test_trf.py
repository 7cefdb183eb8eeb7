"""TRF16 with XXR/XXC: reading, writing, and one clear error per malformed line."""

from __future__ import annotations

import pytest
from tests.tournament.swiss_helpers import B, W, bye, game, report, simulate

from tavla.tournament.history import Colour, Outcome, TournamentError
from tavla.tournament.trf import read_trf, write_trf

SAMPLE = report(
    {
        1: [game(3, W, "1"), bye("H")],
        2: [game(4, B, "="), game(3, W, "+")],
        3: [game(1, B, "0"), game(2, B, "-")],
        4: [game(2, W, "="), bye("U")],
        5: [bye("Z"), bye("Z")],
    },
    total=5,
    first=Colour.BLACK,
)


def test_sample_reads_every_code_of_trf_md() -> None:
    tournament = read_trf(SAMPLE)
    assert tournament.total_rounds == 5
    assert tournament.first_colour is Colour.BLACK
    rounds = {e.number: e.rounds for e in tournament.entrants}
    assert [r.outcome for r in rounds[1]] == [Outcome.WIN, Outcome.HALF_BYE]
    assert rounds[2][1].outcome is Outcome.FORFEIT_WIN and rounds[2][1].opponent == 3
    assert rounds[4][1].outcome is Outcome.PAIRING_BYE
    assert tournament.played_rounds == 2
    assert tournament.headers == ("012 Test",)


def test_fixed_columns_of_a_player_line() -> None:
    line = next(line for line in SAMPLE.splitlines() if line.startswith("001    2"))
    assert line[4:8] == "   2" and line[14:47].rstrip() == "Player 2" and line[48:52] == "2380"
    assert line[80:84] == " 1.5"
    assert line[91:99] == "   4 b =" and line[101:109] == "   3 w +"


def test_write_of_read_gives_the_normalised_file_back() -> None:
    assert write_trf(read_trf(SAMPLE)) == SAMPLE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip_of_random_tournaments(seed: int) -> None:
    for tournament, _ in simulate(seed, players=9 + seed, rounds=5):
        text = write_trf(tournament)
        assert write_trf(read_trf(text)) == text


def test_absence_in_the_round_to_pair_is_not_a_played_round() -> None:
    text = report({1: [game(2, W, "1"), bye("H")], 2: [game(1, B, "0")], 3: [bye("U")]}, total=3)
    tournament = read_trf(text)
    assert tournament.played_rounds == 1
    assert tournament.absent_from_next_round() == {1}


def _replace(text: str, number: int, start: int, new: str) -> str:
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(f"001 {number:>4}"))
    line = lines[index]
    lines[index] = line[:start] + new + line[start + len(new) :]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("number", "start", "new", "expected"),
    [
        (1, 4, "  x1", "line 4, columns 5-8: start number"),
        (1, 98, "Q", "line 4, columns 92-99: result 'Q'"),
        (1, 96, "g", "line 4, column 97: colour 'g'"),
        (2, 91, "   9", "line 4, columns 92-99: round 1: player 2's line does not name 1"),
        (1, 80, " 7.0", "line 4, columns 81-84: points 7.0"),
        (1, 80, " x.0", "line 4, columns 81-84: points"),
        (3, 99, "xx", "line 6, columns 100-101: must be blank"),
        (2, 96, "w", "line 4, columns 92-99: round 1: the entry contradicts player 2"),
    ],
)
def test_malformed_input_names_line_and_columns(number: int, start: int, new: str, expected: str) -> None:
    text = report({1: [game(2, W, "1")], 2: [game(1, B, "0")], 3: [bye("U")]}, total=3)
    with pytest.raises(TournamentError, match=expected.replace("(", r"\(")):
        read_trf(_replace(text, number, start, new))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("012 Nothing\n", "no player"),
        ("012 X\n001    1 short\n", "line 2, columns 1-84"),
        ("012 X\nXXR many\n001    1\n", "line 2"),
        ("&&& what\n", "line 1, columns 1-3"),
    ],
)
def test_malformed_files(text: str, expected: str) -> None:
    with pytest.raises(TournamentError, match=expected):
        read_trf(text)


def test_missing_start_number() -> None:
    text = report({1: [], 2: [], 3: []}, total=3)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("001    2")) + "\n"
    with pytest.raises(TournamentError, match="2 is missing"):
        read_trf(text)


def test_opponent_without_a_line() -> None:
    text = report({1: [game(9, W, "1")], 2: [bye("U")]}, total=3)
    with pytest.raises(TournamentError, match="line 4, columns 92-99: round 1: opponent 9 has no 001 line"):
        read_trf(text)
