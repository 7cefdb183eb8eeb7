"""Pins are judged when the turn is committed (RULES.md 5, the second "(decision)").

Both mothers pinned (a void game) and, under ``mother_pin_wins``, the opponent's
mother pinned end the game only if they still stand at the end of the turn; the
obligation to play as many dice as possible (RULES.md 1.3) counts dice, never the
game's end. Positions are in White's numbering (RULES.md 1.1, 1.2).
"""

from __future__ import annotations

import pytest

import tavla
from tavla.core.errors import IllegalMoveError
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason
from tavla.rules.tapa import TapaPosition


def tapa(points: dict[int, str], off: str, side: str = "w", dice: str = "-") -> str:
    """A tapa TPN line from White's points -> stack text."""
    fields = "/".join(points.get(point, "-") for point in range(1, 25))
    return f"tapa {fields} 0,0 {off} {side} {dice}"


GREEK = tavla.find_game("tapa").with_options(mother_pin_wins=True)

# Black to play 6-2. Black's mother (White's 1) is pinned; White's mother (White's
# 24, Black's 1) stands alone. Black's free checkers are on his 4, 3 and 2, where a
# 6 could only bear off, which his pinned mother forbids: only the 2 can be played,
# 3/1* (pinning White's mother: a void game) or 4/2.
VOID_CHOICE = "tapa 1b3w/5w/2w/2w/-/-/1w/-/-/-/-/-/-/-/-/-/-/1w/-/-/5b/2b/7b/1w 0,0 0,0 b 62"

# White to play 3-1 with his mother pinned on his 24; his checker on 4 can pin
# Black's lone mother on White's 1 with the 3, and the 1 is then played from 9.
VOID_WITH_SECOND_DIE = tapa({1: "1b", 4: "1w", 9: "1w", 24: "1w1b"}, "12,13", dice="31")

# Greek rules, White to play 2-1 with no checker on his point 24: 3/1* pins Black's
# lone mother, and the 1 can then bear that pinner off (White has all his checkers
# home and none pinned), releasing the mother within the turn.
PIN_THEN_RELEASE = tapa({1: "1b", 3: "1w", 5: "1w", 20: "10b"}, "13,4", dice="21")

# Greek rules, White to play 3-1: 4/1* pins Black's mother while White still has a
# checker on his point 24, which the 1 can take away (24/23).
PIN_THEN_EMPTY_START = tapa({1: "1b", 4: "1w", 24: "1w"}, "13,14", dice="31")


def greek(text: str) -> TapaPosition:
    """``GREEK.from_notation(text)``, typed as the tapa position that it is."""
    position = GREEK.from_notation(text)
    assert isinstance(position, TapaPosition)
    return position


def outcomes(position: TapaPosition) -> dict[str, Outcome | None]:
    return {turn.text: turn.after.outcome() for turn in position.legal_turns()}


def builder_afters(position: TapaPosition) -> set[TapaPosition]:
    """Every position the step builder can commit, walking all its steps with undo."""
    builder = position.steps()
    found: set[TapaPosition] = set()

    def walk() -> None:
        if builder.complete:
            found.add(builder.commit().after)
            return
        options = builder.legal_steps()
        assert options, f"the builder stalls after {builder.played} in {position}"
        for text in options:
            builder.step(text)
            walk()
            builder.undo()

    walk()
    return found


def test_a_void_pin_is_one_choice_not_forced() -> None:
    """RULES.md 5 (decision): the dice count, not the game's end; both single-die plays
    are legal, and only the pin voids the game."""
    position = TapaPosition.from_notation(VOID_CHOICE)
    assert outcomes(position) == {"3/1*": Outcome(None, 0, OutcomeReason.VOID), "4/2": None}
    assert position.parse_turn("4/2").after.notation() == (
        "tapa 1b3w/5w/2w/2w/-/-/1w/-/-/-/-/-/-/-/-/-/-/1w/-/-/4b/2b/8b/1w 0,0 0,0 w -"
    )


def test_a_void_reached_at_the_end_of_a_turn_ends_the_game() -> None:
    """RULES.md 5: both mothers pinned at the end of the turn void the game, after the
    other die was played; the pin alone no longer counts as a whole turn."""
    position = TapaPosition.from_notation(VOID_WITH_SECOND_DIE)
    assert outcomes(position) == {
        "9/5": None,
        "9/6 4/3": None,
        "9/8 4/1*": Outcome(None, 0, OutcomeReason.VOID),
    }
    with pytest.raises(IllegalMoveError):
        position.parse_turn("4/1*")
    void = position.parse_turn("4/1* 9/8").after
    assert void.mother_pinned(WHITE) and void.mother_pinned(BLACK)
    assert not void.is_chance and void.legal_turns() == ()


def test_the_step_builder_goes_on_after_a_void_pin() -> None:
    """RULES.md 5 (decision) and 1.3: pinning the second mother with the first die does
    not finish the turn in the step builder; the other die must still be played."""
    position = TapaPosition.from_notation(VOID_WITH_SECOND_DIE)
    builder = position.steps()
    builder.step("4/1*")
    assert not builder.complete
    assert builder.legal_steps() == ["9/8"]
    builder.step("9/8")
    assert builder.commit().after.outcome() == Outcome(None, 0, OutcomeReason.VOID)


def test_a_mother_pinned_then_released_in_one_turn_ends_nothing() -> None:
    """RULES.md 5 (decision): a pin made and released within the turn ends nothing.

    Under default rules a void pin cannot be undone within the turn (the mover's own
    mother is pinned, so he cannot bear off the pinner on his point 1); the release
    is possible where the mover's mother is not pinned, which under ``mother_pin_wins``
    is the case the rule must not end early.
    """
    position = greek(PIN_THEN_RELEASE)
    builder = position.steps()
    builder.step("3/1*")
    assert not builder.complete
    builder.step("1/off")
    released = builder.commit().after
    assert released.outcome() is None
    assert not released.mother_pinned(BLACK)
    expected = tapa({1: "1b", 5: "1w", 20: "10b"}, "14,4", side="b")
    assert released.notation() == GREEK.head + expected[len("tapa") :]  # the TPN names the option
    assert outcomes(position) == {
        "5/2": None,
        "5/4 3/1*": Outcome(WHITE, 2, OutcomeReason.MOTHER_PINNED),
        "3/off": None,
    }
    # Under default rules the same pins never end the game.
    assert set(outcomes(TapaPosition.from_notation(PIN_THEN_RELEASE)).values()) == {None}


def test_mother_pin_wins_is_judged_at_the_end_of_the_turn() -> None:
    """RULES.md 5 (option mother_pin_wins, decision): the pin wins once the turn leaves
    the mother pinned and no checker on the winner's point 24, whichever came first;
    the pin alone, with a die still playable, is not a turn."""
    position = greek(PIN_THEN_EMPTY_START)
    assert outcomes(position) == {
        "24/20": None,
        "24/21 4/3": None,
        "24/23 4/1*": Outcome(WHITE, 2, OutcomeReason.MOTHER_PINNED),
    }
    with pytest.raises(IllegalMoveError):
        position.parse_turn("4/1*")
    builder = position.steps()
    builder.step("4/1*")
    assert not builder.complete
    builder.step("24/23")
    won = builder.commit().after
    assert won.outcome() == Outcome(WHITE, 2, OutcomeReason.MOTHER_PINNED)
    assert not won.is_chance and won.legal_turns() == ()
    # The same turn under default rules goes on.
    default = TapaPosition.from_notation(PIN_THEN_EMPTY_START).parse_turn("24/23 4/1*").after
    assert default.outcome() is None and default.is_chance


def test_black_wins_by_the_pinned_mother_in_his_numbering() -> None:
    """RULES.md 5 (option mother_pin_wins): the rule for Black, whose point 24 is White's 1.

    Black pins White's lone mother on White's 24 (Black's 1) from Black's 4 with the 3
    and empties his own point 24 with the 1.
    """
    text = tapa({1: "1b", 21: "1b", 24: "1w"}, "14,13", side="b", dice="31")
    position = greek(text)
    assert outcomes(position)["24/23 4/1*"] == Outcome(BLACK, 2, OutcomeReason.MOTHER_PINNED)
    assert outcomes(TapaPosition.from_notation(text))["24/23 4/1*"] is None


@pytest.mark.parametrize(
    ("rule_set", "text"),
    [
        (TapaPosition, VOID_CHOICE),
        (TapaPosition, VOID_WITH_SECOND_DIE),
        (GREEK, VOID_WITH_SECOND_DIE),
        (GREEK, PIN_THEN_RELEASE),
        (TapaPosition, PIN_THEN_RELEASE),
        (GREEK, PIN_THEN_EMPTY_START),
    ],
)
def test_the_step_builder_agrees_with_legal_turns(rule_set: type[TapaPosition], text: str) -> None:
    """RULES.md 1.3 and 5: the step builder commits exactly the positions legal_turns lists."""
    position = rule_set.from_notation(text)
    assert builder_afters(position) == {turn.after for turn in position.legal_turns()}
