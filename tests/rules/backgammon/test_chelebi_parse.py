"""Reading whole-turn text on chelebi's progressive doubles (RULES.md 4, 1.2).

A 1-1 from the start has over 100,000 turns, too many to list before reading one;
``parse_turn`` searches for the position the text describes instead.
"""

from __future__ import annotations

import random

import pytest

from tavla.core.errors import IllegalMoveError
from tavla.core.registry import find_game
from tavla.rules.backgammon.position import BackgammonPosition

CHELEBI = find_game("chelebi")


def chelebi_start() -> BackgammonPosition:
    """``CHELEBI.start()``, typed as the tabla family's position that it is."""
    position = CHELEBI.start()
    assert isinstance(position, BackgammonPosition)
    return position


def chelebi(text: str) -> BackgammonPosition:
    """``CHELEBI.from_notation(text)``, typed as the tabla family's position that it is."""
    position = CHELEBI.from_notation(text)
    assert isinstance(position, BackgammonPosition)
    return position


def random_turn(position: BackgammonPosition, rng: random.Random) -> tuple[str, BackgammonPosition]:
    builder = position.steps()
    while not builder.complete:
        builder.step(rng.choice(builder.legal_steps()))
    turn = builder.commit()
    return turn.text, turn.after


@pytest.mark.parametrize(("die", "seed"), [(1, 1), (1, 2), (2, 3), (3, 4)])
def test_a_turn_built_step_by_step_reads_back_from_its_text(die: int, seed: int) -> None:
    """RULES.md 4: the text of any legal progressive turn names that very turn."""
    position = chelebi_start().with_roll((die, die))
    assert position.legal_turns_within(1_000) is None  # too many turns to list
    text, after = random_turn(position, random.Random(seed))
    assert position.parse_turn(text).after == after


def test_a_hit_on_the_way_is_read_from_the_star() -> None:
    """RULES.md 1.2: '*' marks a hit; the text fixes the whole position after the turn."""
    position = chelebi("chelebi 1b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/1b/2w 0,0 0,0 w 11")
    turn = position.parse_turn("24/23*/9 24/7 13/6 13/3 13/2 13/1* 8/6 8/4 8/2")
    assert turn.after.bar == (0, 2)
    assert (turn.after.points[22], turn.after.points[0]) == (0, 1)


def test_a_hit_the_text_leaves_out_is_still_found() -> None:
    """RULES.md 4: with the 1s playable only from White's 24-point, its first step hits
    on 23; '24/3' without naming 23 still means that turn."""
    position = chelebi("chelebi -/-/-/-/-/-/-/-/-/-/-/5b/5w/-/-/-/3b/3w/6b/5w/-/-/1b/2w 0,0 0,0 w 11")
    assert position.legal_turns_within(20_000) is None
    text, after = random_turn(position, random.Random(0))
    assert "24/23*/" in text
    assert position.parse_turn(text.replace("23*/", "")).after == after
    assert after.bar == (0, 1)


@pytest.mark.parametrize(
    "text",
    [
        "24/7 24/5 13/7(3) 13/6 13/2 8/6 8/4 8/3",  # one pip short of the 84 the dice give
        "24/7 24/5 13/7(3) 13/6 13/2 8/6 8/4 6/4",  # pips of the dice, but 6/4 is not the turn
        "24/18(2) 13/1(5) 8/2(2)",  # 84 pips, but 13/1 ends on Black's two checkers
    ],
)
def test_illegal_text_is_refused_at_once_and_changes_nothing(text: str) -> None:
    """RULES.md 1.3: a text that is no legal turn is refused with the position unchanged."""
    position = chelebi_start().with_roll((1, 1))
    before = position.notation()
    with pytest.raises(IllegalMoveError):
        position.parse_turn(text)
    assert position.notation() == before


def test_a_bear_off_cannot_waste_pips_while_checkers_stay_above_the_die() -> None:
    """RULES.md 2: a die bears off from a lower point only from the highest one. Black's
    text needs one pip wasted by a 6, yet leaves checkers on his 6-point: refused."""
    position = chelebi("chelebi 1w/3w/3w/6w/1b/-/-/-/-/-/-/5b/-/-/-/-/2b/-/6b/-/-/-/-/1b 0,0 2,0 b 11")
    with pytest.raises(IllegalMoveError):
        position.parse_turn("20/5 13/5 13/4 13/1 13/off(2) 8/6 8/5 6/3 6/1")
    text, after = random_turn(position, random.Random(5))
    assert position.parse_turn(text).after == after


def reads_a_random_turn_and_a_hit(die: int, seed: int) -> None:
    """A turn built step by step on ``die``-``die`` from the start, and a turn hitting
    twice on the way, each read back from its text."""
    position = chelebi_start().with_roll((die, die))
    text, after = random_turn(position, random.Random(seed))
    assert position.parse_turn(text).after == after
    hit = chelebi("chelebi 1b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/1b/2w 0,0 0,0 w 11").parse_turn(
        "24/23*/9 24/7 13/6 13/3 13/2 13/1* 8/6 8/4 8/2"
    )
    assert hit.after.bar == (0, 2)


@pytest.mark.parametrize(("die", "seed"), [(1, 1), (1, 5), (2, 3), (3, 4)])
def test_the_whole_board_search_alone_reads_every_turn(
    die: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search along the text's paths comes first; the search over the whole board is
    its fallback for texts whose paths cannot be walked as written. With the first
    disabled, the fallback alone must read each turn, hits included."""
    from tavla.rules.backgammon import textsearch

    monkeypatch.setattr(textsearch.PathWalk, "run", lambda self: None)
    reads_a_random_turn_and_a_hit(die, seed)


@pytest.mark.parametrize(("die", "seed"), [(1, 1), (1, 2), (2, 3), (3, 4), (4, 7), (5, 8)])
def test_the_path_search_alone_reads_texts_walkable_as_written(
    die: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other half: where each path of the text is one checker's journey (as in these
    turns, and in the hit below), the search along the paths finds the turn by itself,
    without the slower search over whole boards."""
    from tavla.rules.backgammon import textsearch

    def no_fallback(self: object) -> None:
        raise AssertionError("the whole-board search was needed")

    monkeypatch.setattr(textsearch.BoardWalk, "run", no_fallback)
    reads_a_random_turn_and_a_hit(die, seed)


BLACK_AWAY = "-/-/-/-/-/5b/-/-/-/-/-/-/5b/-/-/-/-/5b"  # White's points 7-24


@pytest.mark.parametrize(
    ("home", "roll", "seed"),
    [("5w/5w/5w/-/-/-", "11", 0), ("-/-/-/5w/5w/5w", "11", 1), ("2w/2w/2w/3w/3w/3w", "22", 1)],
)
def test_the_text_search_reads_a_bear_off_whose_last_dice_waste_pips(
    home: str, roll: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md 2, 4: a progressive double that bears off checkers from below the die
    leaves pips unused; the search that reads a huge double's text (here forced, the
    listing switched off) must allow that waste to the dice still to come, the largest
    of which are the last."""
    position = chelebi(f"chelebi {home}/{BLACK_AWAY} 0,0 0,0 w {roll}")
    text, after = random_turn(position, random.Random(seed))
    assert "/off" in text
    monkeypatch.setattr(BackgammonPosition, "legal_turns_within", lambda self, limit: None)
    assert position.parse_turn(text).after == after
