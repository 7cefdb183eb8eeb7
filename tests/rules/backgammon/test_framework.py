"""The tabla family in the dice-game framework (RULES.md 1.1, 1.3).

The fast whole-turn generator is an accelerator behind the framework: it lists
exactly the turns, with the same texts, that the framework's own die-by-die search
lists. A turn has one canonical text, the first playing order's, however it was
entered, and the step builder offers each distinct step once.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.rules.backgammon.positions import parse
from tests.rules.backgammon.test_movegen import ROLLS, positions, view_of

import tavla
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn
from tavla.rules.movetext import format_turn

START_65 = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 65"


def framework_turns(position: BackgammonPosition) -> dict[object, str]:
    """The framework's breadth-first search (not the fast generator): after -> text."""
    return {turn.after: turn.text for turn in DiceGame._generate_turns(position)}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["tabla", "antitabla", "chelebi"]).flatmap(positions), st.sampled_from(ROLLS))
def test_the_fast_generator_lists_what_the_framework_lists(
    position: BackgammonPosition, roll: tuple[int, int]
) -> None:
    if position.game == "chelebi" and roll[0] == roll[1] and roll[0] < 5:
        spread = max((p for p in range(1, 26) if view_of(position).mine[p]), default=0) > 8
        if spread:
            roll = (6, 6)  # low progressive doubles from spread positions are too many to list twice
    rolled = position.with_roll(roll)
    fast = {turn.after: turn.text for turn in rolled.legal_turns()}
    assert fast == framework_turns(rolled)
    for turn in DiceGame._generate_turns(rolled):
        # The breadth-first search keeps the first playing order of each turn: its
        # own steps read as the canonical text.
        assert format_turn(turn.steps) == turn.text


def test_a_turn_entered_die_by_die_has_the_listed_text() -> None:
    """RULES.md 1.1: 8/2 then 13/8 is the turn listed as 13/2."""
    position = tavla.from_notation(START_65)
    builder = position.steps()
    builder.step("8/2")
    builder.step("13/8")
    turn = builder.commit()
    assert turn.text == "13/2"
    assert turn.text in {listed.text for listed in position.legal_turns()}
    game = tavla.Game(position)
    game.play(turn)
    assert game.record().actions[-1].value == "13/2"


def test_each_distinct_step_is_offered_once() -> None:
    """RULES.md 1.3: 5/off with the 5 or with the 6 is one step."""
    position = tavla.from_notation("tabla -/1w/-/-/1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/15b 0,0 13,0 w 65")
    assert position.steps().legal_steps() == ["5/off"]  # either die; the 2 waits for the other


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("tabla"), st.sampled_from(ROLLS), st.integers(0, 2**32 - 1))
def test_any_order_of_entry_with_undos_gives_the_listed_text(
    position: BackgammonPosition, roll: tuple[int, int], seed: int
) -> None:
    rolled = position.with_roll(roll)
    listed = {turn.after: turn.text for turn in rolled.legal_turns()}
    rng = random.Random(seed)
    builder = rolled.steps()
    while not builder.complete:
        options = list(builder.legal_steps())
        assert len(set(options)) == len(options)
        builder.step(rng.choice(options))
        if builder.played and rng.random() < 0.3:
            builder.undo()
    turn = builder.commit()
    assert listed[turn.after] == turn.text
    assert rolled.parse_turn(turn.text).after == turn.after


def test_a_huge_doubles_first_playing_order_is_searched_once_per_position() -> None:
    """RULES.md 4: chelebi's 1-1 plays four 1s, then four 2s, on to four 6s; a turn's
    text is its first playing order, which a search finds. Every copy of the turn asks
    the position again, which answers from that one search, as a fresh position would."""
    notation = "chelebi 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w 11"
    position = parse(notation)
    assert position.legal_turns_within(3000) is None
    turn = position.best_turns(1, lambda after: float(after.points[0]))[0]
    target = turn.after.with_side(position.side).mover_state()
    first = position.find_turn(target)
    assert first is not None and position.find_turn(target) is first
    copy = DiceTurn(turn.steps, turn.after, position)
    fresh = parse(notation).find_turn(target)
    assert fresh is not None
    assert copy.text == turn.text == fresh.text
    assert first.after == turn.after
