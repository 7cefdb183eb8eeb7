"""Hand-made gulbara positions, each test citing the RULES.md item it checks.

Positions are written in White's numbering; Black's point k is White's
((k + 11) mod 24) + 1 (RULES.md 1.1): Black's 24 is White's 12, Black's home board
(his 1-6) is White's 13-18. The expected positions were worked out by hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from tests.stepping import turn_by_steps

import tavla
from tavla.core.errors import IllegalMoveError, NotationError, TavlaError, WrongPhaseError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.gulbara import GulbaraOptions, GulbaraPosition, progressive_dice
from tavla.rules.gulbara.movegen import to_opponent_point


def gulbara(points: dict[int, str], off: str, side: str = "w", dice: str = "-", extras: str = "r=0,0") -> str:
    fields = "/".join(points.get(point, "-") for point in range(1, 25))
    return f"gulbara {fields} 0,0 {off} {side} {dice} {extras}"


def position(text: str) -> GulbaraPosition:
    return GulbaraPosition.from_notation(text)


def texts(text: str) -> set[str]:
    return {turn.text for turn in position(text).legal_turns()}


def test_start_and_numbering() -> None:
    """RULES.md 6.1 and 1.1: both start on their own 24; my n is his ((n+11) mod 24)+1."""
    assert GulbaraPosition.start().notation() == gulbara({12: "15b", 24: "15w"}, "0,0")
    assert [to_opponent_point(n) for n in (12, 24, 1, 13, 18)] == [24, 12, 13, 1, 6]
    for alias in ("gul bara", "gul-bara", "rosespring", "gulbara"):
        assert tavla.find_game(alias) is tavla.find_game("gulbara")


def test_both_players_move_the_same_way() -> None:
    """RULES.md 6.1: Black moves from his 24 (White's 12) towards his 1 (White's 13)."""
    start = GulbaraPosition.start().with_side(BLACK).with_roll((6, 5))
    assert {turn.text for turn in start.legal_turns()} == {"24/19 24/18", "24/13"}
    after = start.parse_turn("24/13").after
    assert after.notation() == gulbara({1: "1b", 12: "14b", 24: "15w"}, "0,0", extras="r=0,1")


def test_a_single_checker_holds_a_point_and_intermediate_points_must_be_open() -> None:
    """RULES.md 6.1: nothing is hit; a lone enemy holds its point, also as a stop on the way.

    White's last checker on 20, a Black one on 17, roll 3-1: 20/17 is closed, so the
    checker plays 20/19/16. With a Black checker on 19 too, nothing can move.
    """
    assert texts(gulbara({17: "1b", 20: "1w"}, "14,14", dice="31")) == {"20/16"}
    assert texts(gulbara({17: "1b", 19: "1b", 20: "1w"}, "14,13", dice="31")) == {"-"}


def test_bearing_off_works_as_in_tabla() -> None:
    """RULES.md 6.1 and 2: a die above the highest point bears off from the highest."""
    assert texts(gulbara({3: "1w", 5: "1w", 12: "15b"}, "13,0", dice="64")) == {
        "5/off 3/off",
        "5/1 3/off",
    }


def test_progressive_sequences() -> None:
    """RULES.md 6.2: four n's, then four of each higher number up to four 6's."""
    assert progressive_dice(6) == [6, 6, 6, 6]
    assert progressive_dice(4) == [4] * 4 + [5] * 4 + [6] * 4
    assert len(progressive_dice(1)) == 24


def test_exemption_of_the_first_three_rolls() -> None:
    """RULES.md 6.2: doubles are plain for a player's first three rolls, progressive from his fourth.

    White's last checker on 24, Black's all on his point 1 (White's 13), roll 4-4.
    On White's third roll (r=2) it plays 24/8; on his fourth (r=3) it goes on with
    the 5's: 8/3, then bears off and wins, Black having borne off none and
    nothing in his 13-24: 2 points.
    """
    third = position(gulbara({13: "15b", 24: "1w"}, "14,0", dice="44", extras="r=2,0"))
    (turn,) = third.legal_turns()
    assert turn.text == "24/8"
    assert turn.after.notation() == gulbara({8: "1w", 13: "15b"}, "14,0", side="b", extras="r=3,0")
    fourth = position(gulbara({13: "15b", 24: "1w"}, "14,0", dice="44", extras="r=3,0"))
    (turn,) = fourth.legal_turns()
    assert turn.text == "24/off"
    assert turn.after.outcome() == Outcome(WHITE, 2, OutcomeReason.GAMMON)
    assert "c=" not in turn.after.notation()  # the game is over: nothing passes


def test_progressive_from_roll_option() -> None:
    """RULES.md 6.2 (option progressive_from_roll, default 4): 1 applies it from the first roll."""
    options = tavla.find_game("gulbara").options
    assert isinstance(options, GulbaraOptions)
    assert options.progressive_from_roll == 4
    always = tavla.find_game("gulbara").with_options(progressive_from_roll=1)
    first = always.from_notation(gulbara({13: "15b", 24: "1w"}, "14,0", dice="44", extras="r=0,0"))
    assert [turn.text for turn in first.legal_turns()] == ["24/off"]
    assert tavla.find_game("gulbara").with_options(progressive_from_roll=4) is tavla.find_game("gulbara")
    with pytest.raises(TavlaError):
        tavla.find_game("gulbara").with_options(progressive_from_roll=5)


def test_a_started_double_that_cannot_be_finished_passes_to_the_opponent() -> None:
    """RULES.md 6.2-6.3: four 4's and one 5 played, the rest (5556666) go to Black.

    White's checker on 10 is shut in by Black's 4, 5 and 6 and keeps White from
    bearing off; the one on 24 plays 24/20/16/12/8 and 8/3, then no 5 can be played.
    """
    before = position(
        gulbara({4: "1b", 5: "1b", 6: "1b", 10: "1w", 24: "1w"}, "13,12", dice="44", extras="r=3,3")
    )
    (turn,) = before.legal_turns()
    assert turn.text == "24/3"
    expected = gulbara(
        {3: "1w", 4: "1b", 5: "1b", 6: "1b", 10: "1w"}, "13,12", side="b", extras="c=5556666 r=3,3"
    )
    assert turn.after.notation() == expected
    completing = turn.after
    assert not completing.is_chance
    assert completing.to_act == BLACK
    with pytest.raises(WrongPhaseError):
        completing.with_roll((3, 1))
    turns = completing.legal_turns()
    assert turns
    for done in turns:
        assert len(done.steps) == 7  # Black can play all seven dice here
        after = done.after
        assert after.is_chance and after.to_act == BLACK  # then he rolls his own turn
        assert after.complete == () and after.rolls == (3, 3)  # completing is not a roll
        assert after.points[2] == 1 and after.points[9] == 1  # White's checkers untouched


def test_a_double_started_with_exactly_four_dice_passes_the_rest() -> None:
    """RULES.md 6.2-6.3: the double is started once the four 5's are played, even if
    no 6 follows: the four 6's go to Black.

    White's checker on 8 is stuck (8/3 and 8/2 are Black's) and keeps White from
    bearing off; the one on 24 plays 24/19/14/9/4 and no 6 can be played.
    """
    before = position(gulbara({2: "1b", 3: "1b", 8: "1w", 24: "1w"}, "13,13", dice="55", extras="r=3,3"))
    (turn,) = before.legal_turns()
    assert turn.text == "24/4"
    assert turn.after.notation() == gulbara(
        {2: "1b", 3: "1b", 4: "1w", 8: "1w"}, "13,13", side="b", extras="c=6666 r=3,3"
    )
    # Black's 15 and 14 (White's 3 and 2) each run two 6's on open points.
    assert [done.text for done in turn.after.legal_turns()] == ["15/3 14/2"]


def test_the_rule_set_stays_with_the_game_through_a_completion() -> None:
    """RULES.md 6.2-6.3: under progressive_from_roll=1 Black completes White's double, then
    rolls his own turn under the same rule set, where a double is progressive at once."""
    text = gulbara({2: "1b", 3: "1b", 4: "1w", 8: "1w"}, "13,13", side="b", extras="c=6666 r=1,0")
    completing = position(text.replace("gulbara ", "gulbara(progressive_from_roll=1) "))
    (done,) = completing.legal_turns()
    assert done.text == "15/3 14/2"
    after = done.after
    assert after.options == completing.options and after.progressive()
    assert after.notation().startswith("gulbara(progressive_from_roll=1) ")
    assert not position(after.notation().replace("(progressive_from_roll=1)", "")).progressive()


def test_a_rule_set_reads_a_completion_under_its_own_rules() -> None:
    """RULES.md 1.2, 6.2: a TPN without options, read by a rule set that has them, is
    checked under that rule set: with progressive_from_roll=1 White's first roll can
    have been a progressive double whose rest Black now owes (under the default, not)."""
    always = tavla.find_game("gulbara").with_options(progressive_from_roll=1)
    text = gulbara({2: "1b", 3: "1b", 4: "1w", 8: "1w"}, "13,13", side="b", extras="c=6666 r=1,0")
    headed = text.replace("gulbara ", "gulbara(progressive_from_roll=1) ")
    assert always.from_notation(text) == position(headed)
    assert always.from_notation(text).notation() == headed
    with pytest.raises(NotationError) as refused:
        position(text)
    assert refused.value.reason == "the opponent's double cannot have been progressive yet"


def test_a_double_that_was_not_started_is_simply_over() -> None:
    """RULES.md 6.3: only two 5's can be played (24/19/14, then 9 is closed): nothing passes."""
    before = position(gulbara({9: "1b", 24: "1w"}, "14,14", dice="55", extras="r=3,3"))
    (turn,) = before.legal_turns()
    assert turn.text == "24/14"
    assert turn.after.notation() == gulbara({9: "1b", 14: "1w"}, "14,14", side="b", extras="r=3,3")
    assert turn.after.is_chance


def test_the_first_die_the_opponent_cannot_play_ends_the_completion() -> None:
    """RULES.md 6.3: he does not skip to later dice; dice he cannot play are lost.

    Black's last checker on his 24 (White's 12); his 19 (White's 7) is held by White,
    so his 5 cannot be played and neither can the 6's after it.
    """
    blocked = position(gulbara({7: "1w", 12: "1b"}, "14,14", side="b", extras="c=56666 r=3,1"))
    (turn,) = blocked.legal_turns()
    assert turn.text == "-"
    assert turn.after.notation() == gulbara({7: "1w", 12: "1b"}, "14,14", side="b", extras="r=3,1")
    assert turn.after.is_chance
    open_sixes = position(gulbara({7: "1w", 12: "1b"}, "14,14", side="b", extras="c=66 r=3,1"))
    assert [turn.text for turn in open_sixes.legal_turns()] == ["24/12"]


@pytest.mark.parametrize(
    ("points", "off", "expected"),
    [
        ({13: "14b"}, "15,1", Outcome(WHITE, 1, OutcomeReason.SINGLE)),
        ({13: "15b"}, "15,0", Outcome(WHITE, 2, OutcomeReason.GAMMON)),
        ({13: "14b", 8: "1b"}, "15,0", Outcome(WHITE, 3, OutcomeReason.BACKGAMMON)),  # Black's 20
        ({13: "14b", 2: "1b"}, "15,0", Outcome(WHITE, 3, OutcomeReason.BACKGAMMON)),  # Black's 14
        ({13: "14b", 1: "1b"}, "15,0", Outcome(WHITE, 3, OutcomeReason.BACKGAMMON)),  # Black's 13
        ({13: "14b", 24: "1b"}, "15,0", Outcome(WHITE, 2, OutcomeReason.GAMMON)),  # Black's 12
    ],
)
def test_results(points: dict[int, str], off: str, expected: Outcome) -> None:
    """RULES.md 6.4: 3 when the loser bore off none and is in his 19-24 or 13-18."""
    assert position(gulbara(points, off, side="b", extras="r=3,3")).outcome() == expected


START_POINTS = {12: "15b", 24: "15w"}
NOT_PROGRESSIVE = "not the rest of a progressive double (four of each number up to 6)"


@pytest.mark.parametrize(
    ("text", "field", "value", "reason"),
    [
        (
            gulbara(START_POINTS, "0,0", extras=""),
            "r",
            "",
            "gulbara needs r=<White>,<Black>, the rolls made so far",
        ),
        (
            gulbara(START_POINTS, "0,0", extras="r=4,0"),
            "r",
            "4,0",
            "expected two roll counts 0-3 such as r=0,0",
        ),
        (
            gulbara(START_POINTS, "0,0", dice="31", extras="c=6666 r=3,3"),
            "c",
            "6666",
            "the side to act completes the opponent's dice before rolling: dice must be '-'",
        ),
        (gulbara(START_POINTS, "0,0", extras="c=565 r=3,3"), "c", "565", NOT_PROGRESSIVE),
        (gulbara(START_POINTS, "0,0", extras="c=56 r=3,3"), "c", "56", NOT_PROGRESSIVE),
        (
            gulbara(START_POINTS, "0,0", extras="c=x6 r=3,3"),
            "c",
            "x6",
            "expected 1 to 20 dice such as c=556666",
        ),
        (
            gulbara(START_POINTS, "0,0", side="b", extras="c=6666 r=1,3"),
            "r",
            "1,3",
            "the opponent's double cannot have been progressive yet",
        ),
        (
            gulbara(START_POINTS, "0,0", extras="r=3,3 c=6666"),
            "extra field",
            "r=3,3 c=6666",
            "expected c= (if any) before r=",
        ),
        (
            gulbara({12: "14b", 24: "15w", 5: "1b1w"}, "0,0"),
            "point 5",
            "1b1w",
            "gulbara has no pinned checkers",
        ),
        (gulbara(START_POINTS, "0,0", extras="r=0,0 x=1"), "extra field", "x=1", "gulbara has no x= field"),
    ],
)
def test_bad_notation_names_the_field(text: str, field: str, value: str, reason: str) -> None:
    """RULES.md 1.2: r= is required, c= is a progressive tail with no dice, no pins;
    the refusal names the field, the text and the rule."""
    with pytest.raises(NotationError) as caught:
        GulbaraPosition.from_notation(text.replace("  ", " ").strip())
    assert (caught.value.field, caught.value.value, caught.value.reason) == (field, value, reason)


def test_completion_round_trips() -> None:
    """RULES.md 1.2: c= comes before r= and both round-trip."""
    text = gulbara(
        {3: "1w", 10: "1w", 4: "1b", 5: "1b", 6: "1b"}, "13,12", side="b", extras="c=5556666 r=3,3"
    )
    assert tavla.from_notation(text).notation() == text


SPREAD = gulbara(
    {24: "3w", 23: "2w", 22: "2w", 21: "2w", 20: "2w", 19: "2w", 17: "2w",
     12: "3b", 11: "2b", 10: "2b", 9: "2b", 8: "2b", 15: "2b", 14: "2b"},
    "0,0", dice="11", extras="r=3,3",
)  # fmt: skip


def test_a_long_progressive_double_is_playable_step_by_step_at_interactive_speed() -> None:
    """RULES.md 1.3 and 6.2: 1-1 gives 24 dice; stepping must not list the (millions of) turns."""
    spread = position(SPREAD)
    assert spread.legal_turns_within(20_000) is None  # far too many to list
    rng = random.Random(7)
    turn = turn_by_steps(spread, rng, undo_rate=0.2)
    assert len(turn.steps) == 24
    assert "_turns" not in spread.__dict__  # no turn was listed
    assert spread.parse_turn(turn.text).after == turn.after
    assert spread.play(turn) == turn.after


def test_a_long_double_that_cannot_be_finished_is_still_quick_to_step() -> None:
    """RULES.md 6.2 and 1.3: Black holds White's whole home board, so White's checkers can
    reach 7 at best: 2+4+5+7+9 pips for each three, 81 in all, short of the 84 that 1-1
    progressive needs. The planner must prove that 24 dice are impossible (its worst case)
    and offer only steps that still play 23 (84 - 6 = 78 <= 81 pips)."""
    text = gulbara(
        {
            1: "2b",
            2: "2b",
            3: "2b",
            4: "2b",
            5: "2b",
            6: "2b",
            9: "3w",
            11: "3w",
            12: "3w",
            14: "3w",
            16: "3w",
        },
        "0,3",
        dice="11",
        extras="r=3,3",
    )
    shut_in = position(text)
    rng = random.Random(3)
    builder = shut_in.steps()
    while not builder.complete:
        builder.step(rng.choice(builder.legal_steps()))
    turn = builder.commit()
    assert len(turn.steps) == 23
    assert "_turns" not in shut_in.__dict__  # no turn was listed
    assert shut_in.parse_turn(turn.text).after == turn.after
    assert turn.after.complete == (6,)  # started, one 6 left: it passes to Black


def test_best_turns_bounds_the_work_for_bots() -> None:
    """RULES.md 1.3: every turn returned is legal and plays all the dice it must."""
    spread = position(SPREAD)
    chosen = spread.best_turns(30, lambda after: -sum(abs(n) for n in after.points[:12]))
    assert 0 < len(chosen) <= 30
    for turn in chosen[:5]:
        assert len(turn.steps) == 24
        assert spread.parse_turn(turn.text).after == turn.after


def test_a_progressive_double_bearing_off_fifteen_reads_counts_of_ten_and_more() -> None:
    """RULES.md 6.2, 6.4 and 1.1: 3-3 progressive gives Black 16 dice for his 15 checkers
    on his 1, 2, 3 and 6 (White's 13, 14, 15, 18): all go off, White has nothing in his
    13-24, so Black wins 2; the text counts ten checkers off point 1."""
    always = tavla.find_game("gulbara").with_options(progressive_from_roll=1)
    before = always.from_notation(
        gulbara(
            {1: "3w", 3: "5w", 4: "4w", 5: "1w", 7: "1w", 8: "1w", 13: "10b", 14: "2b", 15: "2b", 18: "1b"},
            "0,0",
            side="b",
            dice="33",
            extras="r=3,3",
        )
    )
    turn = before.parse_turn("6/off 3/off(2) 2/off(2) 1/off(10)")
    assert turn.text == "6/off 3/off(2) 2/off(2) 1/off(10)"
    assert turn.after.outcome() == Outcome(BLACK, 2, OutcomeReason.GAMMON)
    with pytest.raises(IllegalMoveError) as refused:
        turn.after.parse_turn("6/off")
    assert (refused.value.move, refused.value.reason) == ("6/off", "the game is over")
    assert refused.value.position == turn.after.notation()


def test_illegal_text_is_rejected() -> None:
    """RULES.md 1.3: a text naming no legal turn is an IllegalMoveError."""
    start = GulbaraPosition.start().with_roll((6, 5))
    cases = (
        ("24/12", "illegal move"),
        ("-", "a move is possible, '-' is not legal"),
        ("13/7", "no checker of the mover on 13"),
        ("24/x", "unreadable move ("),
    )
    for text, reason in cases:
        with pytest.raises(IllegalMoveError) as refused:
            start.parse_turn(text)
        # The error names the text, the position and why, for the player's message.
        assert refused.value.reason.startswith(reason), (text, refused.value.reason)
        assert refused.value.move == text
        assert refused.value.position == start.notation()


def _points_made(after: object) -> float:
    """White's made points count twice, his blots count against him: the score the
    tests below maximise (a bot's first rule of thumb)."""
    points = after.points  # type: ignore[attr-defined]
    return float(2 * sum(1 for n in points if n >= 2) - sum(1 for n in points if n == 1))


def test_best_turns_of_a_listable_roll_are_its_best_first_and_no_more_than_asked() -> None:
    """A chelebi 4-4 (RULES.md 4) lists 5,278 turns: the 30 asked for are the 30 best."""
    start = tavla.find_game("chelebi").start().with_side(0).with_roll((4, 4))
    assert isinstance(start, BackgammonPosition)
    every = sorted((_points_made(turn.after) for turn in start.legal_turns()), reverse=True)
    chosen = start.best_turns(30, _points_made)
    assert [_points_made(turn.after) for turn in chosen] == every[:30]


def test_best_turns_of_a_huge_roll_come_best_first_and_are_legal() -> None:
    """Chelebi's 1-1 is too large to list: the beam's turns are legal, sorted by score,
    and its best is no worse than a random legal turn's."""
    start = tavla.find_game("chelebi").start().with_side(0).with_roll((1, 1))
    assert isinstance(start, BackgammonPosition)
    assert start.legal_turns_within(1_000) is None
    chosen = start.best_turns(20, _points_made)
    scores = [_points_made(turn.after) for turn in chosen]
    assert 0 < len(chosen) <= 20 and scores == sorted(scores, reverse=True)
    for turn in chosen[:3]:
        assert start.parse_turn(turn.text).after == turn.after
    builder = start.steps()
    rng = random.Random(3)
    while not builder.complete:
        builder.step(rng.choice(builder.legal_steps()))
    assert scores[0] >= _points_made(builder.commit().after)


@pytest.mark.parametrize("roll", [(4, 4), (1, 1)])
def test_best_turns_rate_by_batch_alone_as_they_rate_one_by_one(roll: tuple[int, int]) -> None:
    """A batch rater is enough (a bot's network rates many positions at once); with no
    rater at all the call is refused, not answered at random."""
    start = tavla.find_game("chelebi").start().with_side(0).with_roll(roll)
    assert isinstance(start, BackgammonPosition)
    batches: list[int] = []

    def rate_many(positions: Sequence[Any]) -> list[float]:
        batches.append(len(positions))
        return [_points_made(one) for one in positions]

    by_batch = start.best_turns(20, score_many=rate_many)
    assert [turn.after for turn in by_batch] == [turn.after for turn in start.best_turns(20, _points_made)]
    assert batches and max(batches) > 1
    with pytest.raises(TypeError, match="score"):
        start.best_turns(20)
