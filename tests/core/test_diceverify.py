"""Checking one game's recorded rolls against its seeds (docs/fair-dice.md): honest
rolls verify, and any change to a seed, the commitment or a roll is found."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from tavla.core.dice import roll
from tavla.core.diceverify import DiceProblem, verify_dice, verify_game_dice
from tavla.core.fairdice import FairDice, commitment
from tavla.core.gamedice import GameDice
from tavla.core.opening import roll_opening

SEED = hashlib.sha256(b"verify").hexdigest()


@dataclass(frozen=True)
class Rolled:
    """A recorded roll: the opening roll has no seat."""

    seat: int | None
    value: str


def honest_rolls(client: str, count: int) -> list[Rolled]:
    """The opening roll and ``count - 1`` more, as a game would record them."""
    dice = FairDice(SEED, client)
    opening = roll_opening(dice)
    rolls = [Rolled(None, f"{opening[0]}{opening[1]}")]
    for number in range(1, count):
        first, second = roll(dice)
        rolls.append(Rolled(number % 2, f"{first}{second}"))
    return rolls


def tying_client_seed() -> str:
    """A client seed whose first two dice are equal: the opening roll is rolled again."""
    for number in range(1000):
        dice = FairDice(SEED, f"tie:{number}")
        if dice.die() == dice.die():
            return f"tie:{number}"
    raise AssertionError("no tie in 1000 seeds")


def test_honest_rolls_verify() -> None:
    rolls = honest_rolls("a:b", 30)
    verdict = verify_game_dice(SEED, "a:b", commitment(SEED), rolls)
    assert verdict.ok and verdict.problem is None and verdict.rolls == 30
    assert verdict.roll_index is None and "30 rolls" in verdict.message


def test_tied_opening_dice_are_drawn_but_not_recorded() -> None:
    client = tying_client_seed()
    rolls = honest_rolls(client, 5)
    assert verify_game_dice(SEED, client, commitment(SEED), rolls).ok
    dice = FairDice(SEED, client)
    first_pair = (dice.die(), dice.die())
    assert rolls[0].value != f"{first_pair[0]}{first_pair[1]}"


def test_no_rolls_verify_once_the_commitment_holds() -> None:
    assert verify_game_dice(SEED, "a:b", commitment(SEED), []).ok


def test_a_changed_roll_is_found_at_its_index() -> None:
    rolls = honest_rolls("a:b", 12)
    changed = "12" if rolls[7].value != "12" else "21"
    rolls[7] = Rolled(rolls[7].seat, changed)
    verdict = verify_game_dice(SEED, "a:b", commitment(SEED), rolls)
    assert verdict.problem is DiceProblem.MISMATCH and verdict.roll_index == 7 and verdict.rolls == 7
    assert f"roll 8 (player {rolls[7].seat}'s roll) is '{changed}'" in verdict.message


def test_swapped_dice_and_nonsense_are_mismatches() -> None:
    rolls = honest_rolls("a:b", 3)
    opening = rolls[0].value
    swapped = [Rolled(None, opening[::-1]), *rolls[1:]]
    verdict = verify_game_dice(SEED, "a:b", commitment(SEED), swapped)
    assert verdict.problem is DiceProblem.MISMATCH and verdict.roll_index == 0
    assert "the opening roll" in verdict.message
    nonsense = [rolls[0], Rolled(1, "77")]
    assert verify_game_dice(SEED, "a:b", commitment(SEED), nonsense).roll_index == 1


def test_another_client_seed_is_found() -> None:
    rolls = honest_rolls("a:b", 20)
    verdict = verify_game_dice(SEED, "a:c", commitment(SEED), rolls)
    assert verdict.problem is DiceProblem.MISMATCH


def test_another_server_seed_is_found_with_or_without_its_commitment() -> None:
    rolls = honest_rolls("a:b", 20)
    other = hashlib.sha256(b"other").hexdigest()
    assert verify_game_dice(other, "a:b", commitment(SEED), rolls).problem is DiceProblem.BAD_COMMITMENT
    # A server that swapped seed and commitment both still meets the recorded rolls.
    assert verify_game_dice(other, "a:b", commitment(other), rolls).problem is DiceProblem.MISMATCH


def test_a_wrong_or_malformed_commitment_or_seed_is_found() -> None:
    rolls = honest_rolls("a:b", 4)
    wrong = commitment(SEED)[::-1]
    assert verify_game_dice(SEED, "a:b", wrong, rolls).problem is DiceProblem.BAD_COMMITMENT
    upper = verify_game_dice(SEED.upper(), "a:b", commitment(SEED), rolls)
    assert upper.problem is DiceProblem.BAD_COMMITMENT
    assert verify_game_dice(SEED, "", commitment(SEED), rolls).problem is DiceProblem.MISMATCH


def test_a_hidden_seed_checks_nothing() -> None:
    verdict = verify_dice(GameDice(commitment(SEED), "a:b"), honest_rolls("a:b", 4))
    assert verdict.problem is DiceProblem.SEED_HIDDEN and not verdict.ok


def test_entries_of_fair_dice_verify_once_revealed() -> None:
    dice = FairDice(SEED, "a:b")
    rolls = honest_rolls("a:b", 6)
    assert GameDice.of(dice, reveal=False).server_seed is None
    assert verify_dice(GameDice.of(dice, reveal=True), rolls).ok
