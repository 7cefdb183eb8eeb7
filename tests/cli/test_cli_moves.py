"""``tavla moves``: the output contract (issue 2, CLI) on hand-checked positions."""

from __future__ import annotations

import pytest
from tests.cli.cli_helpers import START, Invoke, tpn


def parse_answer(output: str) -> list[tuple[str, str]]:
    lines = output.splitlines()
    assert all(line.count("\t") == 1 for line in lines), lines
    return [(move, after) for move, after in (line.split("\t") for line in lines)]


def test_opening_31_has_16_turns_including_the_point_on_5(invoke: Invoke) -> None:
    # RULES.md 1.3, 2: the sixteen distinct plays of 3-1 from the start.
    result = invoke("moves", START.replace(" w -", " w 31"))
    assert result.exit_code == 0
    answer = dict(parse_answer(result.stdout))
    assert len(answer) == 16
    # 8/5 6/5 by hand: White's 8 keeps 2, 6 keeps 4, 5 gets 2; Black to roll.
    assert answer["8/5 6/5"] == tpn(
        {1: "2b", 5: "2w", 6: "4w", 8: "2w", 12: "5b", 13: "5w", 17: "3b", 19: "5b", 24: "2w"}, side="b"
    )
    assert len(set(answer.values())) == 16
    assert all(after.endswith(" 0,0 0,0 b -") for after in answer.values())


def test_black_to_play_is_answered_in_black_numbering(invoke: Invoke) -> None:
    # RULES.md 1.1: Black's 8/5 6/5 is White's 17/20 19/20.
    result = invoke("moves", START.replace(" w -", " b 31"))
    answer = dict(parse_answer(result.stdout))
    assert answer["8/5 6/5"] == tpn(
        {1: "2b", 6: "5w", 8: "3w", 12: "5b", 13: "5w", 17: "2b", 19: "4b", 20: "2b", 24: "2w"}, side="w"
    )


def test_closed_board_with_a_checker_on_the_bar_passes(invoke: Invoke) -> None:
    # RULES.md 2: all six entry points held by Black: no die can be played.
    closed = {1: "3b", 6: "14w", **{point: "2b" for point in range(19, 25)}}
    result = invoke("moves", tpn(closed, bar="1,0", dice="31"))
    assert result.exit_code == 0
    assert result.stdout == f"-\t{tpn(closed, bar='1,0', side='b')}\n"


def test_entering_comes_first_then_the_other_die(invoke: Invoke) -> None:
    # RULES.md 2: the 6 cannot enter (White's 19 is closed), the 1 enters on 24; the 6 is
    # then played by that checker (24/18), since the others may not bear off yet.
    board = {1: "5b", 6: "14w", **{point: "2b" for point in range(19, 24)}}
    result = invoke("moves", tpn(board, bar="1,0", dice="61"))
    after = {1: "5b", 6: "14w", 18: "1w", **{point: "2b" for point in range(19, 24)}}
    assert parse_answer(result.stdout) == [("bar/18", tpn(after, side="b"))]
    blocked = invoke("moves", tpn(board, bar="1,0", dice="66"))
    assert blocked.stdout == f"-\t{tpn(board, bar='1,0', side='b')}\n"


def test_one_checker_using_both_dice(invoke: Invoke) -> None:
    # RULES.md 1.3: 6/4/3 and 6/5/3 end in the same position: one turn.
    board = {6: "1w", 24: "15b"}
    result = invoke("moves", tpn(board, off="14,0", dice="21"))
    assert parse_answer(result.stdout) == [("6/3", tpn({3: "1w", 24: "15b"}, off="14,0", side="b"))]


def test_bear_off_with_a_higher_die_ends_the_game(invoke: Invoke) -> None:
    # RULES.md 2: the 6 bears off from the highest point; White has borne off all 15.
    board = {2: "1w", 24: "15b"}
    result = invoke("moves", tpn(board, off="14,0", dice="65"))
    [(_, after)] = parse_answer(result.stdout)
    assert after == tpn({24: "15b"}, off="15,0", side="b")


def test_batch_mode_answers_each_line_and_reports_bad_ones(invoke: Invoke) -> None:
    good = START.replace(" w -", " w 31")
    other = START.replace(" w -", " b 66")
    lines = [good, "", "tabla nonsense", other, START]
    result = invoke("moves", "-", input="\n".join(lines) + "\n")
    assert result.exit_code == 2
    singles = [invoke("moves", text).stdout for text in (good, other)]
    # the blank line is skipped; a bad line gives an empty answer so answers stay in step
    assert result.stdout == singles[0] + "\n" + "\n" + singles[1] + "\n" + "\n"
    errors = result.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith("tavla: line 3: ")
    assert errors[1].startswith("tavla: line 5: ") and "dice" in errors[1]


def test_batch_mode_all_good_exits_zero(invoke: Invoke) -> None:
    texts = [START.replace(" w -", f" w {roll}") for roll in ("31", "42", "65", "11")]
    result = invoke("moves", "-", input="\n".join(texts))
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == "".join(invoke("moves", text).stdout + "\n" for text in texts)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (START, "dice '-'"),
        (START.replace(" w -", " w 71"), "dice '71'"),
        (START.replace("2w 0,0", "1w 0,0").replace(" w -", " w 31"), "White 14"),
        (START.replace(" w -", " w 31").replace("/2w ", "/-/2w "), "points"),
        (START.replace("tabla", "tabal").replace(" w -", " w 31"), "game 'tabal'"),
        (START.replace(" w -", " x 31"), "side 'x'"),
        (tpn({24: "15b"}, off="15,0", side="b"), "the game is over"),
        (tpn({24: "15b"}, off="15,0", side="b", dice="31"), "dice '31'"),
        # text naming no game: TPN's form unless it has Abluka's shape
        ("garbage", "position 'garbage': expected TPN, '<game> <points> <bar> <off> <side> <dice>'"),
        ("hello world", "with a game among tabla, antitabla, chelebi, gulbara, indiyka, tapa"),
        ("", "position '': expected TPN"),
        ("3W3/7/7/7/7/7/3B3", "expected '<ranks> <side>', e.g. 3W3/7/7/7/7/7/3B3 b"),
        ("3W3/7/7 b", "ranks '3W3/7/7': 3 ranks"),
    ],
)
def test_bad_input_is_one_line_and_status_2(invoke: Invoke, text: str, expected: str) -> None:
    result = invoke("moves", text)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert expected in result.stderr
    assert "Traceback" not in result.stderr


def test_abluka_start_lists_every_turn(invoke: Invoke) -> None:
    # RULES.md 8.1: Black's king on d1 has 5 empty neighbours; after each step any of
    # the 47 empty squares takes the blocker: 5 * 47 turns.
    result = invoke("moves", "3W3/7/7/7/7/7/3B3 b")
    assert result.exit_code == 0
    answer = parse_answer(result.stdout)
    assert len(answer) == 5 * 47
    assert ("d2/e5", "3W3/7/4x2/7/7/3B3/7 w") in answer


def test_abluka_lost_position_lists_nothing(invoke: Invoke) -> None:
    # RULES.md 8.1: Black on b1 with a1, c1, a2, b2, c2 blocked cannot move: he has lost.
    result = invoke("moves", "3W3/7/7/7/7/xxx4/xBx4 b")
    assert result.exit_code == 0
    assert result.stdout == ""


def test_batch_mode_reports_a_line_that_is_not_utf8(invoke: Invoke) -> None:
    good = START.replace(" w -", " w 31")
    data = b"\xff\xfe{}\n" + good.encode() + b"\n"
    result = invoke("moves", "-", input=data)
    assert result.exit_code == 2
    assert result.stdout == "\n" + invoke("moves", good).stdout + "\n"  # answers stay in step
    assert result.stderr.splitlines() == ["tavla: line 1: not UTF-8 text"]
