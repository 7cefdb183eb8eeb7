"""Jellyfish .mat export and import for tabla (RULES.md 9.4), against stored gnubg readings.

``tests/data/match/gnubg/`` holds matches GNU Backgammon played against itself and
exported, with gnubg's own reading of each (``.gnubg.json``); ``tests/data/match/ours/``
holds matches of ours exported as .mat with gnubg's reading of those files. The
``gnubg`` tests in ``test_mat_gnubg.py`` regenerate both when gnubg is installed.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from tests.match.mat_compare import differences
from tests.match.mat_oracle import DATA, our_random_match

from tavla.core.errors import NotationError
from tavla.match.mat import export_mat, import_mat
from tavla.match.record import MatchRecord, replay

GNUBG_MATCHES = sorted((DATA / "gnubg").glob("*.mat"))
OUR_MATCHES = sorted((DATA / "ours").glob("*.mat"))


def _reading(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.with_name(path.stem + ".gnubg.json").read_text())
    return data


def test_fixtures_exist() -> None:
    assert len(GNUBG_MATCHES) >= 6 and len(OUR_MATCHES) >= 10


@pytest.mark.parametrize("path", GNUBG_MATCHES, ids=lambda p: p.stem)
def test_gnubg_match_imports_and_replays_like_gnubg(path: Path) -> None:
    """A match gnubg played and exported replays here to gnubg's moves, results and boards."""
    record = import_mat(path.read_text())
    assert differences(record, _reading(path)) == []
    assert replay(record).over


@pytest.mark.parametrize("path", OUR_MATCHES, ids=lambda p: p.stem)
def test_our_export_reads_in_gnubg_as_ours(path: Path) -> None:
    """gnubg read our exported file without a warning and saw the same match."""
    reading = _reading(path)
    assert reading["warnings"] == []
    assert differences(import_mat(path.read_text()), reading) == []


def test_differences_notice_a_changed_move() -> None:
    """The comparison can fail: one step moved one point further is caught."""
    path = GNUBG_MATCHES[0]
    reading = _reading(path)
    game = reading["games"][0]  # type: ignore[index]
    move = next(a for a in game["actions"] if a["action"] == "move" and len(a["move"]) == 2)
    first, second = move["move"]
    move["move"] = [first, [second[0], second[1] - 1 if second[1] > 1 else second[1] + 1]]
    assert differences(import_mat(path.read_text()), reading) != []


def _play_only(record: MatchRecord) -> list[tuple[str, int | None, str]]:
    """The actions a .mat keeps: no resignation offers; the dice of a roll in either order."""
    kept = []
    for a in record.actions:
        if a.kind in ("resign", "accept", "decline"):
            continue
        value = "".join(sorted(a.value, reverse=True)) if a.kind == "roll" and a.seat is not None else a.value
        kept.append((a.kind, a.seat, value))
    # A roll that a resignation followed before the move has no cell in a .mat.
    return [
        a
        for a, b in zip(kept, [*kept[1:], None], strict=True)
        if a[0] != "roll" or (b is not None and b[0] == "move")
    ]


@pytest.mark.parametrize("seed", range(6))
def test_export_then_import_gives_the_same_match(seed: int) -> None:
    record = our_random_match(seed)
    text = export_mat(record)
    back = import_mat(text)
    assert back.settings.length == record.settings.length
    assert back.settings.names == record.settings.names
    assert _play_only(back) == _play_only(record)
    assert replay(back).score == replay(record).score
    assert [r.winner for r in replay(back).results] == [r.winner for r in replay(record).results]
    assert export_mat(back) == text


@pytest.mark.parametrize("path", OUR_MATCHES, ids=lambda p: p.stem)
def test_a_stored_match_text_with_doubles_exports_back_to_itself(path: Path) -> None:
    """RULES.md 9.2, 9.4: texts gnubg read without a warning, cube actions included
    (``Doubles => N`` names the value the cube goes to), export back letter for letter."""
    text = path.read_text()
    assert "Doubles => " in text
    assert export_mat(import_mat(text)) == text


@pytest.mark.parametrize("path", GNUBG_MATCHES, ids=lambda p: p.stem)
def test_the_cube_values_of_a_gnubg_match_export_as_gnubg_wrote_them(path: Path) -> None:
    """RULES.md 9.2, 9.4: gnubg's own files differ from ours in spacing and step order,
    but each ``Doubles => N`` (and take or drop) comes out as gnubg wrote it."""
    cube_cell = re.compile(r"Doubles => \d+|Takes|Drops")
    text = path.read_text()
    written = cube_cell.findall(text)
    assert any(cell.startswith("Doubles") for cell in written)
    assert cube_cell.findall(export_mat(import_mat(text))) == written


def test_export_refuses_other_games_and_money_play() -> None:
    record = our_random_match(0)
    with pytest.raises(NotationError):
        export_mat(replace(record, settings=replace(record.settings, length=0)))
    with pytest.raises(NotationError):
        export_mat(replace(record, settings=replace(record.settings, next_game_start="winner_starts")))
    with pytest.raises(NotationError):
        export_mat(replace(record, settings=replace(record.settings, game="antitabla")))


def test_import_reports_an_illegal_move_with_its_game() -> None:
    text = GNUBG_MATCHES[0].read_text()
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("  3)"))
    lines[index] = "  3) 52: 24/1 24/22" + lines[index][19:]
    with pytest.raises(NotationError, match="game 1"):
        import_mat("\n".join(lines))
    with pytest.raises(NotationError):
        import_mat("this is not a match\n")


ENDINGS = sorted((DATA / "endings").glob("*.mat"))
"""Matches gnubg recorded whose games end every way a game can (``test_mat_endings_gnubg.py``)."""


@pytest.mark.parametrize("path", ENDINGS, ids=lambda p: p.stem)
def test_every_ending_gnubg_writes_imports_to_gnubg_score(path: Path) -> None:
    """Bear-off, dropped doubles, resignations before and after the roll, at every level."""
    assert {p.stem for p in ENDINGS} == {"bearoff", "drop", "resign_after_roll", "resign_before_roll"}
    record = import_mat(path.read_text())
    assert differences(record, _reading(path)) == []
    assert list(replay(record).score) == _reading(path)["final_score"]


ROLL_THEN_RESIGN = """ 5 point match

 Game 1
 gnubg : 0                      root : 0
  1) 62: 13/7 24/22              51:
      Wins 1 point
"""


def test_a_roll_with_no_move_then_wins_is_a_roll_then_a_resignation() -> None:
    record = import_mat(ROLL_THEN_RESIGN)
    kinds = [(a.kind, a.seat, a.value) for a in record.actions]
    assert kinds[-4:] == [("move", 0, "24/22 13/7"), ("roll", 1, "51"), ("resign", 1, "single"),
                          ("accept", 0, "")]  # fmt: skip
    assert replay(record).score == (1, 0)
    # written back in gnubg's form: the roll with no move, then the winner's line
    assert "62: 13/7 24/22              51:\n      Wins 1 point" in export_mat(record)
    assert import_mat(export_mat(record)).actions == record.actions


def test_a_roll_with_no_move_and_none_possible_is_still_a_pass() -> None:
    text = (DATA / "endings" / "bearoff.mat").read_text()
    empty_rolls = len(re.findall(r"\b[1-6][1-6]:(?= {2,}|\s*$)", text, re.MULTILINE))
    record = import_mat(text)
    passes = [a for a in record.actions if a.kind == "move" and a.value == "-"]
    assert empty_rolls > 0 and len(passes) == empty_rolls


# ------------------------------------------------------------------ refusals and details
OURS_0 = (DATA / "ours" / "ours_0.mat").read_text()
"""Game 1 ends on the board with Boris winning 8 points (a cube at 4, a gammon)."""
ONE_MOVE = " 3 point match\n\n Game 1\n  1) 31: 8/5 6/5\n"

CELLS = "expected a roll, Doubles, Takes, Drops or Wins"
WINS_8 = 1 + OURS_0.splitlines().index(next(line for line in OURS_0.splitlines() if "Wins 8 points" in line))
IMPORT_REFUSALS = [
    ("", "mat", "", "empty match file"),
    ("; only a comment\n\n", "mat", "; only a comment\n\n", "empty match file"),
    (" Game 1\n", "mat line 1", "Game 1", "expected 'N point match' first"),
    ("; a comment\n 0 point match\n", "mat line 2", "0 point match", "only matches to N points are read"),
    (ONE_MOVE + "\n Game 2\n", "mat line 6", "Game 2", "the previous game has no result"),
    (ONE_MOVE + "      Wins 5 points\n", "mat line 5", "Wins 5 points", "not 1, 2 or 3 times the cube (1)"),
    (ONE_MOVE + "  2) Castles\n", "mat line 5", "Castles", CELLS),
    (ONE_MOVE + "  2) 5 2: 13/8 13/11\n", "mat line 5", "5 2: 13/8 13/11", CELLS),
    (ONE_MOVE + "  Black resigns   Wins 1 point\n", "mat line 5", "Black resigns", CELLS),
    (
        OURS_0.replace("Wins 8 points", "Wins 4 points", 1),
        f"mat line {WINS_8}",
        "Wins 4 points",
        "the game ended with player 1 winning 8 points",
    ),
]


@pytest.mark.parametrize(("text", "field", "value", "reason"), IMPORT_REFUSALS)
def test_a_file_that_cannot_be_imported_says_which_line_and_why(
    text: str, field: str, value: str, reason: str
) -> None:
    """RULES.md 9.4: the importer names the line, the text it could not take and the reason."""
    with pytest.raises(NotationError) as raised:
        import_mat(text)
    assert (raised.value.field, raised.value.value, raised.value.reason) == (field, value, reason)


def test_a_refused_move_names_its_line_and_game() -> None:
    """RULES.md 9.4: an action the rules refuse is named by its line and its game."""
    with pytest.raises(NotationError) as raised:
        import_mat(ONE_MOVE + "  2)                             62: 24/18 13/12\n")
    assert raised.value.field == "mat line 5"
    assert raised.value.value == "move 24/18 13/12"
    assert raised.value.reason.startswith("game 1: ")


def test_export_refusals_say_what_cannot_be_written() -> None:
    """RULES.md 9.4: .mat holds tabla matches to N points from their first game."""
    record = our_random_match(0)
    refusals = [
        (replace(record, setup=("4HPwATDgc/ABMA", "cAgAAAAAAAAE")), "setup",
         "a .mat match starts at its first game, not from a position"),
        (replace(record, settings=replace(record.settings, length=0)), "tabla",
         "only tabla matches to N points export to .mat"),
        (replace(record, settings=replace(record.settings, game="antitabla")), "antitabla",
         "only tabla matches to N points export to .mat"),
        (replace(record, settings=replace(record.settings, next_game_start="winner_starts")), "winner_starts",
         "only matches with opening rolls export to .mat"),
    ]  # fmt: skip
    for bad, value, reason in refusals:
        with pytest.raises(NotationError) as raised:
            export_mat(bad)
        assert (raised.value.field, raised.value.value, raised.value.reason) == ("mat", value, reason)


def test_player_names_are_written_as_single_words_and_no_line_ends_in_spaces() -> None:
    """A .mat header is ``name : score``: spaces and colons in a name become '_', an
    empty name is PlayerN; lines carry no trailing spaces."""
    record = our_random_match(0)
    text = export_mat(replace(record, settings=replace(record.settings, names=("Ay:se Kaya", ""))))
    assert " Ay_se_Kaya : 0                 Player1 : 0\n" in text
    assert all(line == line.rstrip() for line in text.splitlines())
    assert import_mat(text).settings.names == ("Ay_se_Kaya", "Player1")


def test_a_file_without_a_game_header_keeps_the_default_names_and_no_times() -> None:
    """Without a ``name : score`` line the players are White and Black; a .mat holds
    no times, so every action is at 0 ms."""
    record = import_mat(ONE_MOVE)
    assert record.settings.names == ("White", "Black")
    assert [(a.kind, a.seat, a.value, a.t_ms) for a in record.actions] == [
        ("start", None, "", 0),
        ("roll", None, "31", 0),
        ("move", 0, "8/5 6/5", 0),
    ]


def test_a_roll_cell_without_a_space_after_the_colon_reads_the_same() -> None:
    """``31:8/5 6/5`` is read as ``31: 8/5 6/5``: the steps start right after the colon."""
    assert import_mat(ONE_MOVE.replace("31: ", "31:")).actions == import_mat(ONE_MOVE).actions
