"""Hand-made positions for the rules of tabla, antitabla and chelebi (RULES.md 1.3, 2-4).

Each expected set of turns was worked out by hand from the rules, not from our output.
"""

from __future__ import annotations

import pytest
from tests.rules.backgammon.positions import parse, tpn

import tavla
from tavla.core.protocol import BLACK, WHITE, Outcome, OutcomeReason


def turn_texts(text: str) -> set[str]:
    return {turn.text for turn in tavla.from_notation(text).legal_turns()}


def test_start_position_notation_matches_rules_example() -> None:
    """RULES.md 1.2: the example TPN is tabla's start with White to roll."""
    start = tavla.find_game("tabla").start()
    assert start.notation() == ("tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w -")


def test_only_one_die_playable_must_be_the_larger() -> None:
    """RULES.md 1.3: either die but not both can be played -> the larger one."""
    # White's lone checker on 20; Black holds White's 9 (=20-6-5) so 6 and 5 never combine.
    position = tpn({20: 1}, {16: 2, 1: 13}, dice="65")
    assert turn_texts(position) == {"20/14"}


def test_only_one_die_playable_must_be_the_larger_far_from_home() -> None:
    """RULES.md 1.3: the larger-die rule also with two checkers outside the home board
    (the search that lists the steps once, for positions far from home).

    White on 10 and 20 with 6-5: 10/4 and 10/5 are closed, 20/14 and 20/15 open, and
    neither goes on (14-5 and 15-6 are White's 9, closed): the 6 must be played.
    """
    position = "tabla 9b/-/-/2b/2b/-/-/-/2b/1w/-/-/-/-/-/-/-/-/-/1w/-/-/-/- 0,0 13,0 w 65"
    assert turn_texts(position) == {"20/14"}


def test_only_the_smaller_die_playable() -> None:
    """RULES.md 1.3: when the larger die cannot be played at all, the smaller is played."""
    position = tpn({20: 1}, {11: 2, 16: 2, 1: 11}, dice="65")  # White's 14 and 9 closed
    assert turn_texts(position) == {"20/15"}


def test_one_checker_uses_both_dice() -> None:
    """RULES.md 1.3: a single checker may use both dice; the intermediate point must be open."""
    assert turn_texts(tpn({20: 1}, {1: 15}, dice="65")) == {"20/9"}
    # 14 closed: the checker must go through 15.
    only_via_15 = parse(tpn({20: 1}, {11: 2, 1: 13}, dice="65"))
    [turn] = only_via_15.legal_turns()
    assert turn.text == "20/9"
    assert [step[:2] for step in turn.steps] == [(20, 15), (15, 9)]
    # 14 and 15 both closed: no die can be played at all.
    assert turn_texts(tpn({20: 1}, {11: 2, 10: 2, 1: 11}, dice="65")) == {"-"}


def test_bear_off_with_a_higher_die_from_the_highest_point() -> None:
    """RULES.md 2: a die higher than the highest point bears off from the highest point."""
    assert turn_texts(tpn({3: 2, 2: 1}, {1: 15}, dice="65")) == {"3/off(2)"}
    # 6-1: the 6 bears off from 3; the 1 moves inside (3/2 or 2/1), in either order.
    assert turn_texts(tpn({3: 2, 2: 1}, {1: 15}, dice="61")) == {"3/2 3/off", "3/off 2/1"}


def test_bear_off_not_allowed_with_a_checker_outside_home() -> None:
    """RULES.md 2: bearing off starts only when all 15 are home."""
    # 7 is outside: the 6 must be 7/1 (bearing off from 3 with the 6 is not allowed yet),
    # then the 5 ... after 7/1 all are home and 5 bears off from 3 (highest 3 < 5).
    # 6 first: 7/1, then the 5 bears off from 3 (the highest point); 5 first: 7/2, then
    # the 6 bears off from 3. Bearing off before 7 has come home is never allowed.
    assert turn_texts(tpn({7: 1, 3: 1}, {2: 15}, dice="65")) == {"7/1 3/off", "7/2 3/off"}


def test_entering_from_the_bar_comes_first() -> None:
    """RULES.md 2: with a checker on the bar, nothing else moves before it enters."""
    # White on the bar and one on 13; Black holds his 6 (White's 19: the 6 entry).
    position = tpn({13: 1}, {6: 2, 1: 13}, bar=(1, 0), dice="65")
    assert turn_texts(position) == {"bar/20 13/7", "bar/14"}


def test_entering_with_one_die_then_blocked() -> None:
    """RULES.md 1.3 and 2: one checker enters with the 6; the second can't enter with the 5."""
    position = tpn({}, {5: 2, 1: 13}, bar=(2, 0), dice="65")  # White's 20 closed
    assert turn_texts(position) == {"bar/19"}


def test_closed_board_passes() -> None:
    """RULES.md 1.3: if no die can be played the turn passes."""
    closed = {point: 2 for point in range(1, 7)}
    closed[24] = 3
    position = parse(tpn({13: 14}, closed, bar=(1, 0), dice="64"))
    [turn] = position.legal_turns()
    assert turn.text == "-"
    assert turn.after.side == BLACK
    assert turn.after.points == position.points


def test_hitting_sends_the_blot_to_the_bar() -> None:
    """RULES.md 2: landing on a blot hits it; an intermediate hit shows in the text."""
    blot_on_7 = parse(tpn({13: 14}, {18: 1, 2: 14}, dice="42"))
    hit = blot_on_7.play("13/7*")
    assert hit.bar == (0, 1)
    assert hit.points[6] == 1  # White's point 7 now holds White's checker
    assert blot_on_7.play("13/9 13/11").bar == (0, 0)
    blot_on_9 = tpn({13: 14}, {16: 1, 2: 14}, dice="42")
    assert "13/9*/7" in turn_texts(blot_on_9)  # via 9, hitting there
    assert "13/7" in turn_texts(blot_on_9)  # via 11, no hit
    assert parse(blot_on_9).play("13/9*/7").bar == (0, 1)


def test_doubles_play_four_moves() -> None:
    """RULES.md 1.3: a double gives four moves of that number."""
    turns = parse(tpn({24: 1, 13: 14}, {2: 15}, dice="66")).legal_turns()
    assert {len(turn.steps) for turn in turns} == {4}
    assert "24/18 13/7(3)" in {turn.text for turn in turns}


def test_chelebi_progressive_double_plays_24_moves() -> None:
    """RULES.md 4: 1-1 plays four 1s, four 2s ... four 6s: 24 moves when all are playable."""
    # 6-6 is the last step of the progression: four 6s, as in tabla.
    six_six = parse(tpn({24: 2, 13: 13}, {2: 15}, game="chelebi", dice="66"))
    assert {len(turn.steps) for turn in six_six.legal_turns()} == {4}
    # A lone checker on 24 with 1-1 is borne off with the last 3; no die is left to play.
    lone = parse(tpn({24: 1}, {10: 2}, game="chelebi", dice="11"))
    [turn] = lone.legal_turns()
    assert turn.after.off == (15, 13)
    assert len(turn.steps) == 12  # 4x1, 4x2, then 12/9/6/3/off with the four 3s


def test_chelebi_first_unplayable_die_ends_the_turn() -> None:
    """RULES.md 4: the first die that cannot be played ends the turn; the rest are lost."""
    # Lone White checker on 24; after four 1s it stands on 20; White's 18 is closed.
    blocked = tpn({24: 1}, {7: 2}, game="chelebi", dice="11")
    assert turn_texts(blocked) == {"24/20"}
    # Open 18 but close 9: 1s to 20, 2s to 12, the first 3 (12/9) is blocked.
    later = tpn({24: 1}, {16: 2}, game="chelebi", dice="11")
    assert turn_texts(later) == {"24/12"}
    # Tabla plays the same 1-1 as a plain double.
    assert turn_texts(tpn({24: 1}, {16: 2}, dice="11")) == {"24/20"}


def test_chelebi_1_1_from_the_start_plays_24_dice() -> None:
    """RULES.md 4: from the start 1-1 can be played in full (24 moves)."""
    start = tavla.find_game("chelebi").start().with_roll((1, 1))
    builder = start.steps()
    for _ in range(24):
        builder.step(builder.legal_steps()[0])
    assert builder.complete
    assert builder.legal_steps() == []


@pytest.mark.parametrize(
    ("white", "black", "bar", "expected"),
    [
        ({}, {1: 14}, (0, 0), Outcome(WHITE, 1, OutcomeReason.SINGLE)),  # Black bore one off
        ({}, {13: 15}, (0, 0), Outcome(WHITE, 2, OutcomeReason.GAMMON)),
        ({}, {13: 14}, (0, 1), Outcome(WHITE, 3, OutcomeReason.BACKGAMMON)),  # Black on the bar
        ({}, {20: 1, 13: 14}, (0, 0), Outcome(WHITE, 3, OutcomeReason.BACKGAMMON)),  # in White's home
    ],
)
def test_tabla_results(
    white: dict[int, int], black: dict[int, int], bar: tuple[int, int], expected: Outcome
) -> None:
    """RULES.md 2: 1, 2 or 3 points by the loser's checkers."""
    position = tavla.from_notation(tpn(white, black, bar=bar, side="b"))
    assert position.outcome() == expected
    assert position.legal_turns() == ()
    assert not position.is_chance


@pytest.mark.parametrize(
    ("black", "bar", "expected"),
    [
        ({1: 14}, (0, 0), Outcome(BLACK, 1, OutcomeReason.SINGLE)),
        ({13: 15}, (0, 0), Outcome(BLACK, 2, OutcomeReason.GAMMON)),
        ({20: 1, 13: 14}, (0, 0), Outcome(BLACK, 3, OutcomeReason.BACKGAMMON)),
        ({13: 14}, (0, 1), Outcome(BLACK, 3, OutcomeReason.BACKGAMMON)),
    ],
)
def test_antitabla_reversed_goal_and_scoring(
    black: dict[int, int], bar: tuple[int, int], expected: Outcome
) -> None:
    """RULES.md 3: the first to bear off all 15 loses; the other scores by tabla's tests."""
    position = tavla.from_notation(tpn({}, black, bar=bar, side="b", game="antitabla"))
    assert position.outcome() == expected


def test_aliases_resolve_to_tabla() -> None:
    """Issue: backgammon, tavla and portes name tabla."""
    for alias in ("backgammon", "tavla", "portes", "TABLA"):
        assert tavla.find_game(alias).name == "tabla"
