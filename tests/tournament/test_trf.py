"""TRF16 with XXR/XXC: reading, writing, and one clear error per malformed line."""

from __future__ import annotations

import pytest
from tests.tournament.swiss_helpers import B, W, bye, game, report, simulate

from tavla.tournament.history import Colour, Outcome, RoundEntry, TournamentError
from tavla.tournament.trf import player_line, read_trf, write_trf

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


def test_a_bye_written_two_rounds_ahead_is_refused() -> None:
    # After round 1, player 1's half-point byes stand in rounds 2 and 3. Round 2 is the
    # one to pair: his round-2 bye marks an absence from it, but a round-3 entry cannot
    # exist yet (and read as played, it would have had round 3 paired before round 2).
    ahead = report({1: [game(2, W, "1"), bye("H"), bye("H")], 2: [game(1, B, "0")], 3: [bye("U")]}, total=3)
    with pytest.raises(TournamentError) as error:
        read_trf(ahead)
    assert str(error.value) == "line 4, column 112: round 3 is written before round 2"
    one_ahead = read_trf(
        report({1: [game(2, W, "1"), bye("H")], 2: [game(1, B, "0")], 3: [bye("U")]}, total=3)
    )
    assert one_ahead.played_rounds == 1 and one_ahead.absent_from_next_round() == {1}


# Base report of the exact-message tests: line 4 is player 1, line 5 player 2, line 6 player 3.
ROUND_ONE = report({1: [game(2, W, "1")], 2: [game(1, B, "0")], 3: [bye("U")]}, total=3)


@pytest.mark.parametrize(
    ("number", "start", "new", "expected"),
    [
        # Column 96 is the blank between opponent (92-95) and colour (97).
        (1, 95, "x", "line 4, columns 92-99: round block '   2xw 1' is not 'oooo c r'"),
        (3, 91, "   5", "line 6, columns 92-99: a bye (U) is written '0000 - U', not '   5 - U'"),
        (1, 98, "Q", "line 4, columns 92-99: result 'Q' is not one of 1, 0, =, +, -, U, H, Z"),
        # The opponent field is columns 92-95 only, without the blank after it.
        (1, 91, "  x2", "line 4, columns 92-95: opponent '  x2' is not a number"),
        # A forfeit may have no colour ('-'), but not an unknown one.
        (1, 96, "x +", "line 4, column 97: colour 'x' must be w or b"),
        (1, 4, "   0", "line 4, columns 5-8: start numbers begin at 1"),
        (3, 4, "   1", "line 6, columns 5-8: start number 1 appears twice"),
        (1, 48, "23x0", "line 4, columns 49-52: rating '23x0' is not a number"),
        # The points field is columns 81-84; column 85 is the blank before the rank.
        (1, 80, " x.0", "line 4, columns 81-84: points ' x.0' is not a number"),
        (1, 89, "*", "line 4, columns 90-91: must be blank before the first round block"),
        # One point too many is as wrong as six: the check has no tolerance of a point.
        (1, 80, " 2.0", "line 4, columns 81-84: points 2.0 but the results add up to 1"),
    ],
)
def test_malformed_player_line_whole_message(number: int, start: int, new: str, expected: str) -> None:
    with pytest.raises(TournamentError) as error:
        read_trf(_replace(ROUND_ONE, number, start, new))
    assert str(error.value) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "012 X\n001    1 short\n",
            "line 2, columns 1-84: a player line needs at least its points (column 84)",
        ),
        ("012 X\nXXR many\n001    1\n", "line 2, columns 4-: XXR round count ' many' is not a number"),
    ],
)
def test_malformed_file_whole_message(text: str, expected: str) -> None:
    with pytest.raises(TournamentError) as error:
        read_trf(text)
    assert str(error.value) == expected


def test_a_game_missing_from_the_shorter_line_of_the_opponent() -> None:
    # Player 1's round 2 names player 2, whose line stops after round 1.
    text = report({1: [game(3, W, "1"), game(2, B, "1")], 2: [bye("U")], 3: [game(1, B, "0")]}, total=3)
    with pytest.raises(TournamentError) as error:
        read_trf(text)
    assert str(error.value) == "line 4, columns 102-109: round 2: player 2's line does not name 1"


def test_a_forfeit_without_colour_is_read_and_written_with_a_dash() -> None:
    # A forfeit was not played, so its colour may be unknown: '-' in column 97.
    forfeit_win = RoundEntry(2, None, Outcome.FORFEIT_WIN)
    forfeit_loss = RoundEntry(1, None, Outcome.FORFEIT_LOSS)
    text = report({1: [forfeit_win], 2: [forfeit_loss]}, total=3)
    assert text.splitlines()[3][91:99] == "   2 - +"
    tournament = read_trf(text)
    assert tournament.entrants[0].rounds == (forfeit_win,)
    assert tournament.entrants[1].rounds == (forfeit_loss,)


def test_each_field_is_read_from_its_own_columns_only() -> None:
    # Every field filled to its full width and every separator column (9, 14, 48, 53,
    # 57, 69, 80, 85) holding a stray '|': no field may take in its neighbour's column.
    columns = [
        (1, "001"),
        (5, "   1"),
        (10, "m"),
        (11, " GM"),
        (15, "Abdurrahman Bedirhanoglu Karakaya"),  # 33 characters: 15-47
        (49, "2405"),
        (54, "TUR"),
        (58, "12345678901"),  # 11 characters: 58-68
        (70, "1990/05/17"),
        (81, " 0.0"),
        (86, "   1"),
    ]
    line = list("|" * 89)
    for column, text in columns:
        line[column - 1 : column - 1 + len(text)] = text
    player = read_trf("".join(line) + "\n").players[0]
    assert player.entrant.name == "Abdurrahman Bedirhanoglu Karakaya"
    assert player.entrant.rating == 2405
    assert (player.sex, player.title, player.federation) == ("m", "GM", "TUR")
    assert (player.fide_id, player.birth_date, player.rank) == ("12345678901", "1990/05/17", "1")


def test_crlf_file_reads_like_lf() -> None:
    crlf = SAMPLE.replace("\n", "\r\n")
    assert read_trf(crlf) == read_trf(SAMPLE)
    assert write_trf(read_trf(crlf)) == SAMPLE


def test_header_lines_are_kept_to_their_last_character() -> None:
    # A city in capitals ends in X: the end-of-line handling must strip line breaks only.
    text = SAMPLE.replace("012 Test\n", "012 Test\n022 ESSEX\n")
    assert read_trf(text).headers == ("012 Test", "022 ESSEX")
    assert write_trf(read_trf(text)) == text


def test_other_xxc_words_are_kept_after_the_first_colour() -> None:
    # bbpPairings reads more XXC words than white1/black1 (e.g. "rank").
    text = SAMPLE.replace("XXC black1\n", "XXC black1 rank\n")
    tournament = read_trf(text)
    assert tournament.first_colour is Colour.BLACK
    assert tournament.extra_colour_words == ("rank",)
    assert write_trf(tournament) == text


def test_player_line_writes_points_given_instead_of_the_sum() -> None:
    # The caller may write another score than the rounds' sum into columns 81-84.
    player = read_trf(ROUND_ONE).players[0]
    assert player.entrant.points == 1.0
    assert player_line(player)[80:84] == " 1.0"
    assert player_line(player, points=1.5)[80:84] == " 1.5"


def test_with_round_writes_each_entry_to_its_player_and_absent_for_the_others() -> None:
    tournament = read_trf(ROUND_ONE)
    paired = tournament.with_round({1: game(3, W, "="), 3: game(1, B, "=")})
    rounds = {e.number: e.rounds[1:] for e in paired.entrants}
    assert rounds == {1: (game(3, W, "="),), 2: (bye("Z"),), 3: (game(1, B, "="),)}
