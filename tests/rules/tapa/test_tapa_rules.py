"""Hand-made tapa positions, each test citing the RULES.md item it checks.

Positions are written in White's numbering (RULES.md 1.1, 1.2); Black's point k is
White's 25 - k. The expected positions were worked out by hand from the rules.
"""

from __future__ import annotations

import pytest

import tavla
from tavla.core.errors import IllegalMoveError, NotationError, TavlaError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.rules.tapa import TapaPosition


def tapa(points: dict[int, str], off: str, side: str = "w", dice: str = "-") -> str:
    """A tapa TPN line from White's points -> stack text."""
    fields = "/".join(points.get(point, "-") for point in range(1, 25))
    return f"tapa {fields} 0,0 {off} {side} {dice}"


def afters(text: str) -> set[str]:
    return {turn.after.notation() for turn in TapaPosition.from_notation(text).legal_turns()}


def texts(text: str) -> set[str]:
    return {turn.text for turn in TapaPosition.from_notation(text).legal_turns()}


def test_start_has_all_fifteen_on_the_own_point_24() -> None:
    """RULES.md 5: all 15 checkers start on the player's own point 24 (White's 1 for Black)."""
    assert TapaPosition.start().notation() == tapa({1: "15b", 24: "15w"}, "0,0")
    assert tavla.find_game("plakoto").position_class is TapaPosition
    assert tavla.find_game("mahbousseh").position_class is TapaPosition


def test_landing_on_a_lone_enemy_pins_it_and_leaving_releases_it() -> None:
    """RULES.md 5: a lone enemy checker is pinned; it is free again once the pinner leaves.

    White on 8 and 10, a lone Black checker on 5, roll 3-2. The checker from 8 can
    play both dice (8/5*/3 releases the pin at once, as does 8/6/3), the one from 10
    can (10/7/5* or 10/8/5*), or the dice are split (8/5* 10/8 pins; 8/6 10/7).
    8/5* 10/8 and 10/5* leave the same position: one turn.
    """
    position = tapa({5: "1b", 8: "1w", 10: "1w"}, "13,14", dice="32")
    assert afters(position) == {
        tapa({3: "1w", 5: "1b", 10: "1w"}, "13,14", side="b"),
        tapa({5: "1b1w", 8: "1w"}, "13,14", side="b"),
        tapa({5: "1b", 6: "1w", 7: "1w"}, "13,14", side="b"),
    }
    assert texts(position) == {"8/3", "10/5*", "10/7 8/6"}


def test_a_pinner_cannot_be_pinned() -> None:
    """RULES.md 5: a point whose top is an enemy checker is closed unless it is a lone one.

    Black (moving towards White's 24) has a free checker on White's 2 and one pinned
    on White's 5 under a single White checker. Roll 3-1: 2 -> 5 is closed, so the
    free checker must go 2 -> 3 -> 6 (Black's 23/22/19); the pinned one cannot move.
    """
    position = tapa({2: "1b", 5: "1b1w"}, "14,13", side="b", dice="31")
    assert texts(position) == {"23/19"}
    assert afters(position) == {tapa({5: "1b1w", 6: "1b"}, "14,13")}


def test_a_pinned_checker_cannot_move_but_the_others_can() -> None:
    """RULES.md 5: pinned checkers cannot move; a player with pins moves his other checkers.

    White is pinned on 10 under one Black checker, White's free checker is on 12;
    roll 2-1. 12/10 is closed (a lone pinner), so 12/11/9 is the only play.
    """
    position = tapa({10: "1w1b", 12: "1w"}, "13,14", dice="21")
    assert texts(position) == {"12/9"}


def test_own_stack_grows_on_a_pinned_enemy_checker() -> None:
    """RULES.md 5: a checker may land on its own stack standing on a pinned enemy checker.

    White pins on 5 and has checkers on 8 and 9; Black holds 1 and 2, so the pinner
    (5/1, 5/2) cannot move and neither checker can play both dice (9/2, 8/1 closed).
    Roll 4-3: either both land on the pinning stack, or they go to 6 and 4.
    """
    position = tapa({1: "2b", 2: "2b", 5: "1b1w", 8: "1w", 9: "1w"}, "12,10", dice="43")
    assert texts(position) == {"9/5 8/5", "9/6 8/4"}
    assert tapa({1: "2b", 2: "2b", 5: "1b3w"}, "12,10", side="b") in afters(position)


def test_several_pins_in_one_turn() -> None:
    """RULES.md 5: a turn may pin several checkers."""
    position = TapaPosition.from_notation(tapa({4: "1b", 5: "1b", 6: "1w", 8: "1w"}, "13,13", dice="32"))
    after = position.parse_turn("8/5* 6/4*").after
    assert after.notation() == tapa({4: "1b1w", 5: "1b1w"}, "13,13", side="b")


def test_a_double_plays_four_moves() -> None:
    """RULES.md 1.3 (as in tabla): a double is played four times."""
    assert texts(tapa({1: "15b", 20: "1w"}, "14,0", dice="22")) == {"20/12"}


def test_a_closed_point_does_not_hide_the_moves_of_lower_checkers() -> None:
    """RULES.md 5: a point of two enemy checkers is closed; other checkers still move.

    White on 10 and 8, Black holds White's 7 with two; roll 3-1. The 3 first: 10/7 is
    closed, 8/5 then 10/9 or 5/4. The 1 first: 10/9 (8/7 closed), then 9/6 or 8/5.
    """
    position = tapa({1: "13b", 7: "2b", 8: "1w", 10: "1w"}, "13,0", dice="31")
    assert texts(position) == {"10/9 8/5", "8/4", "10/6"}


def test_bearing_off_starts_with_every_checker_in_points_1_to_6() -> None:
    """RULES.md 5: bearing off needs all remaining checkers in the home board (1-6).

    With 6-1 the checker on 6 bears off with the 6 (or 6/5/off). White on 7 and 2 with
    2-1, Black holding White's 5 and 6: the checker on 7 cannot come home, so the one
    on 2 cannot bear off; only the 1 is played.
    """
    assert texts(tapa({1: "15b", 6: "1w", 3: "1w"}, "13,0", dice="61")) == {"6/off", "6/2 3/off"}
    shut_out = tapa({5: "2b", 6: "2b", 24: "11b", 7: "1w", 2: "1w"}, "13,0", dice="21")
    assert texts(shut_out) == {"2/1"}


def test_fifteen_checkers_on_point_1_bear_off() -> None:
    """RULES.md 5: bearing off as in tabla, also with all fifteen checkers on point 1
    (a 1-1 bears off four, a 6-5 two)."""
    assert texts(tapa({1: "15w", 24: "15b"}, "0,0", dice="11")) == {"1/off(4)"}
    assert texts(tapa({1: "15w", 24: "15b"}, "0,0", dice="65")) == {"1/off(2)"}


def test_bear_off_is_blocked_by_a_pinned_checker_in_the_home_board() -> None:
    """RULES.md 5: bearing off needs every remaining checker home and none pinned."""
    pinned = tapa({3: "1w1b", 5: "2w"}, "12,14", dice="65")
    assert texts(pinned) == {"-"}
    free = tapa({3: "1w", 5: "2w", 7: "1b"}, "12,14", dice="65")
    assert texts(free) == {"5/off(2)"}


def test_both_mothers_pinned_is_a_void_game() -> None:
    """RULES.md 5: both mothers pinned at the same time: the game is void, nobody scores.

    White's mother (his last checker on his 24) is pinned; White's checker on 4 pins
    Black's mother on White's 1 with the 3. White cannot bear off (a pinned checker).
    """
    position = TapaPosition.from_notation(tapa({1: "1b", 4: "1w", 24: "1w1b"}, "13,13", dice="31"))
    (turn,) = position.legal_turns()
    assert turn.text == "4/1*"
    assert turn.after.outcome() == Outcome(None, 0, OutcomeReason.VOID)
    assert not turn.after.is_chance
    assert turn.after.legal_turns() == ()


def test_mother_pin_wins_option() -> None:
    """RULES.md 5 (option mother_pin_wins): pinning the opponent's mother while having no
    checker on the own point 24 wins at once with 2 points; off by default."""
    text = tapa({1: "1b", 4: "1w", 9: "1w"}, "13,14", dice="31")
    default = TapaPosition.from_notation(text).parse_turn("4/1* 9/8").after
    assert default.outcome() is None
    greek_class = tavla.find_game("tapa").with_options(mother_pin_wins=True)
    greek = greek_class.from_notation(text)
    assert greek != TapaPosition.from_notation(text)
    after = greek.parse_turn("4/1* 9/8").after
    assert after.outcome() == Outcome(WHITE, 2, OutcomeReason.MOTHER_PINNED)
    # While White still has a checker on his point 24 the pin does not win.
    home = greek_class.from_notation(tapa({1: "1b", 4: "1w", 24: "2w"}, "12,14", dice="31"))
    assert home.parse_turn("4/1* 24/23").after.outcome() is None
    with pytest.raises(TavlaError):
        tavla.find_game("tapa").with_options(no_such_rule=True)


def test_a_rule_set_reads_text_without_options_under_its_own_rules() -> None:
    """RULES.md 1.2, 5: a TPN without options, read by a rule set that has them, is
    checked under that rule set. White has pinned Black's mother and has no checker on
    his point 24: under mother_pin_wins the game is over, so Black has no dice to roll,
    whether the text names the option or the rule set reading it does."""
    text = tapa({1: "1b1w", 9: "1w"}, "13,14", side="b", dice="31")
    assert TapaPosition.from_notation(text).outcome() is None
    greek_class = tavla.find_game("tapa").with_options(mother_pin_wins=True)
    for reader, written in (
        (greek_class.from_notation, text),
        (tavla.from_notation, text.replace("tapa ", "tapa(mother_pin_wins=true) ")),
    ):
        with pytest.raises(NotationError) as refused:
            reader(written)
        assert (refused.value.field, refused.value.reason) == ("dice", "the game is over: no dice to play")
    over = greek_class.from_notation(text.replace(" 31", " -"))
    assert over.definition is greek_class
    assert over.outcome() == Outcome(WHITE, 2, OutcomeReason.MOTHER_PINNED)


@pytest.mark.parametrize(
    ("points", "off", "expected"),
    [
        ({19: "14b"}, "15,1", Outcome(WHITE, 1, OutcomeReason.SINGLE)),
        ({19: "15b"}, "15,0", Outcome(WHITE, 2, OutcomeReason.GAMMON)),
        ({19: "14b", 3: "1b"}, "15,0", Outcome(WHITE, 3, OutcomeReason.BACKGAMMON)),
        # White's home board is his 1-6: Black's checker never moved from his 24 counts...
        ({19: "14b", 1: "1b"}, "15,0", Outcome(WHITE, 3, OutcomeReason.BACKGAMMON)),
        # ... one on White's 7 does not.
        ({19: "14b", 7: "1b"}, "15,0", Outcome(WHITE, 2, OutcomeReason.GAMMON)),
        # Black's home board is his 1-6, White's 19-24.
        ({10: "14w"}, "1,15", Outcome(BLACK, 1, OutcomeReason.SINGLE)),
        ({10: "15w"}, "0,15", Outcome(BLACK, 2, OutcomeReason.GAMMON)),
        ({10: "14w", 19: "1w"}, "0,15", Outcome(BLACK, 3, OutcomeReason.BACKGAMMON)),
        ({10: "14w", 24: "1w"}, "0,15", Outcome(BLACK, 3, OutcomeReason.BACKGAMMON)),
    ],
)
def test_results(points: dict[int, str], off: str, expected: Outcome) -> None:
    """RULES.md 5: 1 if the loser bore off, 2 if not, 3 if not and he is in the winner's home."""
    position = TapaPosition.from_notation(tapa(points, off, side="b"))
    assert position.outcome() == expected
    assert not position.is_chance


def test_bearing_off_the_last_checker_scores_a_pinned_checker_as_in_the_home_board() -> None:
    """RULES.md 5: a Black checker pinned in White's home board counts for the 3 points."""
    position = TapaPosition.from_notation(tapa({2: "1b1w", 20: "14b"}, "14,0", dice="21"))
    after = position.parse_turn("2/off").after
    assert after.outcome() == Outcome(WHITE, 3, OutcomeReason.BACKGAMMON)


def test_black_moves_in_his_own_numbering() -> None:
    """RULES.md 1.1: move text is in the mover's numbering (Black's 24 is White's 1)."""
    start = TapaPosition.start().with_side(BLACK).with_roll((6, 5))
    assert {turn.text for turn in start.legal_turns()} == {"24/19 24/18", "24/13"}


def test_step_interface_marks_pins_and_undoes() -> None:
    """RULES.md 1.3: steps one die at a time with undo; RULES.md 1.1: '*' marks a pin."""
    position = TapaPosition.from_notation(tapa({5: "1b", 8: "1w", 10: "1w"}, "13,14", dice="32"))
    builder = position.steps()
    assert "8/5*" in builder.legal_steps()
    builder.step("8/5*")
    assert not builder.complete
    builder.undo()
    builder.step("10/7")
    builder.step("7/5")
    assert builder.complete
    assert builder.commit().after == position.parse_turn("10/5*").after
    with pytest.raises(IllegalMoveError):
        position.steps().step("8/4")


OWN_24 = "a player never lands on his own point 24, so cannot pin there"


@pytest.mark.parametrize(
    ("text", "field", "value", "reason"),
    [
        (
            tapa({5: "2b2w", 24: "13w"}, "0,13"),
            "point 5",
            "2b2w",
            "only a lone checker can be pinned: the bottom run must be 1",
        ),
        (
            tapa({5: "1b1w1b", 24: "14w"}, "0,13"),
            "point 5",
            "1b1w1b",
            "a tapa point holds at most one pinned checker under one stack",
        ),
        (tapa({24: "1b2w", 1: "14b"}, "13,0"), "point 24", "1b2w", OWN_24),
        (tapa({1: "1w1b", 24: "14w"}, "0,14"), "point 1", "1w1b", OWN_24),
        (tapa({1: "15b", 24: "15w"}, "0,0") + " c=556666", "extra field", "c=556666", "tapa has no c= field"),
        (
            tapa({1: "15b", 24: "14w"}, "0,0"),
            "checkers",
            "White 14",
            "White has 14 on points and 0 off: 14, expected 15",
        ),
        (
            tapa({1: "15b", 24: "15w"}, "0,0").replace(" 0,0 0,0", " 1,0 0,0"),
            "bar",
            "1,0",
            "tapa has no bar: expected 0,0",
        ),
        # Both mothers pinned: the game is void, so there are no dice to play.
        (
            tapa({1: "1b1w", 24: "1w1b"}, "13,13", dice="31"),
            "dice",
            "31",
            "the game is over: no dice to play",
        ),
    ],
)
def test_bad_notation_names_the_field(text: str, field: str, value: str, reason: str) -> None:
    """RULES.md 1.2 and 5: stacks tapa cannot have are rejected with the field, the
    value and the rule, as a player reads them."""
    with pytest.raises(NotationError) as caught:
        TapaPosition.from_notation(text)
    assert (caught.value.field, caught.value.value, caught.value.reason) == (field, value, reason)


def test_pinned_stacks_round_trip() -> None:
    """RULES.md 1.2: '1b2w' is one Black checker pinned under two White ones."""
    text = tapa({1: "13b", 5: "1b2w", 24: "1w1b", 20: "12w"}, "0,0", side="b", dice="42")
    position = tavla.from_notation(text)
    assert isinstance(position, TapaPosition)
    assert position.notation() == text
    assert position.stacks()[4] == ((1, BLACK), (2, WHITE))
    assert position.mother_pinned(WHITE) and not position.mother_pinned(BLACK)
