"""The next roll's chances of hits and escapes (``tavla.bots.chances``): shots counted by
hand as a player counts them, and the hit chance checked against the rules themselves
(every legal turn of every roll) over positions of random tabla games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from tests.dice_positions import dice_start

import tavla
from tavla.bots.encoding import encoder_for
from tavla.bots.playout import random_playout
from tavla.bots.terms import TABLA_CHANCE_NAMES, TAPA_CHANCE_NAMES, term_set
from tavla.core.dice import ROLLS

pytestmark = pytest.mark.timeout(120)

CHANCES = term_set("tabla", "chances")
START = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 b -"


def chances(notation: str, player: int = 0) -> dict[str, float]:
    """The chance terms of a position seen by ``player`` (who just moved), in 36ths."""
    assert CHANCES is not None
    position = tavla.from_notation(notation)
    values = CHANCES(encoder_for(position).encode_many([position], player))[0]
    named = dict(zip(TABLA_CHANCE_NAMES, values.tolist(), strict=True))
    return {name: round(named[name] * 36, 6) for name in TABLA_CHANCE_NAMES[-4:]}


def board(white: dict[int, int], black: dict[int, int], bar: tuple[int, int] = (0, 0)) -> str:
    """A tabla position with Black to roll: White's checkers by White's point numbers,
    Black's by White's numbering too (Black's 24-point is White's 1)."""
    cells = []
    for point in range(1, 25):
        if point in white:
            cells.append(f"{white[point]}w")
        elif point in black:
            cells.append(f"{black[point]}b")
        else:
            cells.append("-")
    off = (15 - sum(white.values()) - bar[0], 15 - sum(black.values()) - bar[1])
    return f"tabla {'/'.join(cells)} {bar[0]},{bar[1]} {off[0]},{off[1]} b -"


def test_the_starting_position_has_no_blot_and_fifteen_rolls_escape() -> None:
    # The back checkers on 24 get past Black's points on 19 and 17 (White's numbering)
    # with 8 pips or more by a path not landing on them: 6-2 to 6-5, 5-3, 5-4, 4-4, 3-3
    # and 2-2; 6-6 stops on 18 with 12 blocked.
    assert chances(START) == {
        "his_hit_chance": 0,
        "my_hit_chance": 0,
        "my_escape_chance": 15,
        "his_escape_chance": 15,
    }


@pytest.mark.parametrize(
    ("distance", "shots"),
    [(1, 11), (2, 12), (3, 14), (4, 15), (5, 15), (6, 17), (7, 6), (8, 6), (9, 5), (10, 3), (11, 2), (12, 3)],
)
def test_a_lone_blot_is_hit_by_the_rolls_a_player_counts(distance: int, shots: int) -> None:
    # White's blot on 14, one of Black's checkers `distance` pips behind it (Black moves
    # up White's numbering), the others home where they cannot reach it, and nothing in
    # between: the textbook table of shots.
    notation = board({14: 1, 1: 14}, {14 - distance: 1, 24: 14})
    assert chances(notation)["his_hit_chance"] == shots


def test_points_in_between_take_away_the_rolls_that_would_land_on_them() -> None:
    # Black's checker on 8, 6 pips behind White's blot on 14, with White's points on 10
    # and 11 between (Black would stop there with a 2 or a 3 first): 11 sixes, 5-1 both
    # ways and 4-2 by the 4 first; 3-3 and 2-2 are blocked.
    notation = board({14: 1, 10: 2, 11: 2, 1: 10}, {8: 1, 24: 14})
    assert chances(notation)["his_hit_chance"] == 11 + 2 + 2


def test_a_checker_on_the_bar_hits_only_as_it_enters_or_after() -> None:
    # Black on the bar enters on White's 1-6; White's blot on 3 is hit by any 3, and by
    # 2-1 entering on 2. White's 1 is made, so 1-1 cannot enter.
    notation = board({3: 1, 1: 2, 13: 12}, {24: 14}, bar=(0, 1))
    assert chances(notation)["his_hit_chance"] == 11 + 2


def test_a_full_prime_lets_nothing_escape_and_a_broken_one_some() -> None:
    # White's back checker on 24 behind Black's six points 18-23; with 21 open, it gets
    # past 20-18 (to 17 or lower) by 21-17 (a 4 after a 3) or by 6-1... counted below.
    prime = {point: 2 for point in range(18, 24)}
    notation = board({24: 1, 6: 14}, prime | {12: 3})
    assert chances(notation)["my_escape_chance"] == 0
    broken = board({24: 1, 6: 14}, {point: 2 for point in (18, 19, 20, 22, 23)} | {12: 5})
    # From 24, land on 17 or lower (7 pips or more) without stopping on 23, 22, 20, 19 or
    # 18: only through 21 (a 3 first), then 4 or more: 3-4, 3-5, 3-6 both ways; 3-3 stops
    # on 18.
    assert chances(broken)["my_escape_chance"] == 6


def positions_of_random_games(game: str, seed: int, games: int) -> list[Any]:
    """Every position after a turn of ``games`` random games, the finished ones left out."""
    rng = random.Random(seed)
    positions: list[Any] = []

    def keep(before: Any, after: Any) -> None:
        if after.outcome() is None:
            positions.append(after)

    for _ in range(games):
        random_playout(dice_start(game).with_side(rng.randrange(2)), rng, on_turn=keep)
    return positions


def hit_rolls_by_the_rules(position: Any) -> float:
    """The chance, in 36ths, that the side to roll has a legal turn hitting a blot."""
    other = 1 - position.side
    total = 0.0
    for roll, weight in ROLLS:
        rolled = position._replace(dice=roll)
        if any(turn.after.bar[other] > position.bar[other] for turn in rolled.legal_turns()):
            total += float(weight) * 36
    return total


def test_the_hit_chance_agrees_with_every_legal_turn_of_every_roll() -> None:
    """Over positions of random games, the count of shots equals the rules' own almost
    always; where it does not, it is by the few rolls the module says it leaves out."""
    positions = positions_of_random_games("tabla", seed=5, games=12)
    assert len(positions) > 300
    errors = []
    for position in positions[::2]:
        mover = 1 - position.side  # who just moved, whose blots the other may hit
        counted = chances(position.notation(), player=mover)["his_hit_chance"]
        errors.append(abs(counted - hit_rolls_by_the_rules(position)))
    exact = np.mean(np.array(errors) == 0)
    assert exact >= 0.95, (exact, sorted(errors)[-10:])
    assert max(errors) <= 4, sorted(errors)[-10:]


# ---------------------------------------------------------------------------- tapa
TAPA_CHANCES = term_set("tapa", "chances")
PIN_NAMES = TAPA_CHANCE_NAMES[-4:]


def pin_chances(notation: str, player: int = 0) -> dict[str, float]:
    """Tapa's pin chances of a position seen by ``player`` (who just moved), in 36ths."""
    assert TAPA_CHANCES is not None
    position = tavla.from_notation(notation)
    values = TAPA_CHANCES(encoder_for(position).encode_many([position], player))[0]
    named = dict(zip(TAPA_CHANCE_NAMES, values.tolist(), strict=True))
    return {name: round(named[name] * 36, 6) for name in PIN_NAMES}


def test_a_lone_tapa_checker_is_pinned_by_the_rolls_a_player_counts() -> None:
    """Section 5: a checker pins a lone enemy checker by landing on it. White's lone
    checker on 8 is 3 pips in front of Black's on 5 (a 3, 1-2, 1-1: 14 rolls) and 7 in
    front of Black's stack on 1 (1-6, 2-5 more: 18); White's on 8 reaches Black's on 5
    with the same 14."""
    notation = "tapa 14b/-/-/-/1b/-/-/1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/14w 0,0 0,0 b -"
    assert pin_chances(notation, player=0) == {
        "his_pin_chance": 18,
        "his_mother_pin_chance": 0,
        "my_pin_chance": 14,
        "my_mother_pin_chance": 0,
    }
    seen_by_black = pin_chances(notation, player=1)
    assert (seen_by_black["his_pin_chance"], seen_by_black["my_pin_chance"]) == (14, 18)


def test_a_lone_mother_and_the_points_closed_on_the_way() -> None:
    """White's mother alone on 24, Black's checker 4 pips behind: a 4, 1-3, 2-2, 1-1 (15
    rolls). White's two checkers on 22 close that point to Black (2-2 and 1-1 are lost:
    13) and reach Black's lone checker on 20 with a 2, with the mother's 4s and 1-3s, or
    1-1 (23 rolls)."""
    open_way = "tapa 14b/-/-/-/-/-/-/-/-/14w/-/-/-/-/-/-/-/-/-/1b/-/-/-/1w 0,0 0,0 b -"
    assert pin_chances(open_way)["his_mother_pin_chance"] == 15 == pin_chances(open_way)["his_pin_chance"]
    closed = "tapa 14b/-/-/-/-/-/-/-/-/12w/-/-/-/-/-/-/-/-/-/1b/-/2w/-/1w 0,0 0,0 b -"
    assert pin_chances(closed) == {
        "his_pin_chance": 13,
        "his_mother_pin_chance": 13,
        "my_pin_chance": 23,
        "my_mother_pin_chance": 0,
    }
    # White's checker on 10 reaches Black's lone one on 7 with a 3 or 2-1 (over 8), not
    # over Black's two on 9 (1-1, 1-2 that way): 13 rolls.
    behind_two = "tapa 12b/-/-/-/-/-/1b/-/2b/1w/-/-/-/-/-/-/-/-/-/-/-/-/-/14w 0,0 0,0 b -"
    assert pin_chances(behind_two)["my_pin_chance"] == 13
    # A checker standing on a pinned one of the other side's closes its point too, and
    # is no lone checker: Black's checker on 5 pinned under White's leaves Black nothing.
    pinned_under = "tapa 14b/-/-/-/1b1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/14w 0,0 0,0 b -"
    assert pin_chances(pinned_under) == dict.fromkeys(PIN_NAMES, 0)
    assert pin_chances(pinned_under, player=1) == dict.fromkeys(PIN_NAMES, 0)


def pinned_points(notation: str, colour: str) -> set[int]:
    """The points where a checker of ``colour`` lies pinned under the other colour."""
    fields = notation.split()[1].split("/")
    return {
        point
        for point, field in enumerate(fields, 1)
        if len(field) > 2 and field[-1] != colour and colour in field
    }


def pin_rolls_by_the_rules(position: Any) -> float:
    """The chance, in 36ths, that the side to roll has a legal turn pinning a checker of
    the other side's that was free before."""
    colour = "wb"[1 - position.side]
    before = pinned_points(position.notation(), colour)
    total = 0.0
    for roll, weight in ROLLS:
        rolled = position.with_roll(roll)
        if any(pinned_points(turn.after.notation(), colour) - before for turn in rolled.legal_turns()):
            total += float(weight) * 36
    return total


def test_the_pin_chance_agrees_with_every_legal_turn_of_every_roll() -> None:
    """Over positions of random tapa games, every roll the rules let pin a lone checker is
    counted, and the count equals the rules' own almost always. Where it does not, it
    counts a roll too many: a pin the mover could not keep, as when a checker's only
    legal play carries it over the lone checker and on, which the count leaves out."""
    positions = positions_of_random_games("tapa", seed=7, games=6)
    assert len(positions) > 300
    differences, pinnable = [], 0
    for position in positions[::3]:
        mover = 1 - position.side
        by_rules = pin_rolls_by_the_rules(position)
        pinnable += by_rules > 0
        differences.append(pin_chances(position.notation(), player=mover)["his_pin_chance"] - by_rules)
    assert pinnable >= 20  # the sample holds positions with pins to count
    found = np.array(differences)
    assert found.min() >= 0, sorted(differences)[:10]
    assert np.mean(found == 0) >= 0.9 and found.mean() <= 0.25, (np.mean(found == 0), found.mean())
