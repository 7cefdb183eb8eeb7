"""Fair dice over whole matches (docs/fair-dice.md, docs/records.md section 1): matches
played with them verify after a JSON round trip, and tampering is found."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from tests.match.fair_helpers import FairMatch, fair_match, fair_record, server_seed

from tavla.core.diceverify import DiceProblem
from tavla.core.errors import TavlaError
from tavla.core.fairdice import FairDice, commitment
from tavla.core.gamedice import GameDice
from tavla.match.actions import MatchAction
from tavla.match.errors import MatchError
from tavla.match.fairdice import MatchFairDice, games_of, verify_match_dice
from tavla.match.gnubg_ids import match_ids
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings

MULTI_GAME_SEED = 1
"""The random match of this seed has three games."""


def all_ok(record: MatchRecord) -> bool:
    return all(check.verdict.ok for check in verify_match_dice(record))


def test_a_one_game_match_with_fair_dice_verifies() -> None:
    dice = FairDice(server_seed("one", 1), "ayse:mehmet")
    match = Match(MatchSettings("tabla", length=1), dice=dice, now=lambda: 0)
    while not match.state.over:
        if match.state.phase in ("opening", "roll"):
            match.roll()
        else:
            seat = match.state.actor
            assert seat is not None
            match.move(seat, match.state.position.legal_turns()[0])
    record = MatchRecord.of(match, dice=(GameDice.of(dice, reveal=True),))
    checks = verify_match_dice(MatchRecord.from_json(record.to_json()))
    assert [check.game for check in checks] == [1] and checks[0].verdict.ok


def test_every_game_of_a_match_verifies_after_a_round_trip() -> None:
    match = fair_match(MULTI_GAME_SEED)
    record = match.fair.record(match)
    assert len(record.dice) == len(match.state.results) == 3
    assert all(entry.server_seed is not None for entry in record.dice)
    read = MatchRecord.from_json(record.to_json())
    assert read == record and read.dice == record.dice
    checks = verify_match_dice(read)
    assert [check.game for check in checks] == [1, 2, 3]
    assert all(check.verdict.ok and check.action is None for check in checks)
    assert [entry.client_seed for entry in read.dice] == ["ayse1:mehmet", "ayse2:mehmet", "ayse3:mehmet"]


def test_the_seed_of_the_game_in_play_stays_hidden() -> None:
    match = FairMatch(MatchSettings("tabla", length=3))
    match.roll()
    entries = match.fair.record_dice(match)
    assert len(entries) == 1 and entries[0].server_seed is None
    assert entries[0].commitment == commitment(server_seed("test", 1))
    checks = verify_match_dice(match.fair.record(match))
    assert checks[0].verdict.problem is DiceProblem.SEED_HIDDEN


def test_one_altered_roll_is_found_at_its_action() -> None:
    record = fair_record(MULTI_GAME_SEED)
    rolls = [i for i, action in enumerate(record.actions) if action.kind == "roll"]
    target = rolls[len(rolls) // 2]
    old = record.actions[target]
    actions = list(record.actions)
    changed = old.value[::-1] if old.value[0] != old.value[1] else "12"
    actions[target] = MatchAction(old.kind, old.seat, changed)
    checks = verify_match_dice(replace(record, actions=actions))
    bad = [check for check in checks if not check.verdict.ok]
    assert len(bad) == 1 and bad[0].action == target + 1
    assert bad[0].verdict.problem is DiceProblem.MISMATCH


def test_changed_seeds_or_commitments_are_found() -> None:
    record = fair_record(MULTI_GAME_SEED)
    first = record.dice[0]
    other = server_seed("other", 1)
    cases = {
        DiceProblem.BAD_COMMITMENT: [
            replace(first, server_seed=other),
            replace(first, commitment=commitment(other)),
        ],
        DiceProblem.MISMATCH: [
            replace(first, server_seed=other, commitment=commitment(other)),
            replace(first, client_seed="ayse1:mehmed"),
        ],
    }
    for problem, entries in cases.items():
        for entry in entries:
            checks = verify_match_dice(replace(record, dice=(entry, *record.dice[1:])))
            assert checks[0].verdict.problem is problem
            assert all(check.verdict.ok for check in checks[1:])


def test_missing_and_extra_entries_are_reported() -> None:
    record = fair_record(MULTI_GAME_SEED)
    short = verify_match_dice(replace(record, dice=record.dice[:2]))
    assert [check.verdict.problem for check in short] == [None, None, DiceProblem.NO_DICE]
    extra = verify_match_dice(replace(record, dice=(*record.dice, record.dice[0])))
    assert [check.game for check in extra] == [1, 2, 3, 4]
    assert extra[3].verdict.problem is DiceProblem.NO_GAME


@pytest.mark.parametrize("kept", [0, 1])
def test_every_game_after_the_last_entry_is_reported_without_dice(kept: int) -> None:
    """docs/fair-dice.md: each game the record holds is judged, the ones after the last
    fair-dice entry each as having none (RULES.md 9.4: a record a director checks)."""
    record = fair_record(MULTI_GAME_SEED)
    checks = verify_match_dice(replace(record, dice=record.dice[:kept]))
    assert [check.game for check in checks] == [1, 2, 3]
    assert all(check.verdict.ok for check in checks[:kept])
    for check in checks[kept:]:
        assert check.verdict.problem is DiceProblem.NO_DICE and check.action is None
        assert check.verdict.message == "the record has no fair-dice entry for this game"


def test_a_refused_roll_draws_no_dice() -> None:
    """The rules refuse before the dice are drawn, so the numbering stays the game's."""
    match = FairMatch(MatchSettings("tabla", length=1))
    match.roll()
    drawn = match.fair.games[0].dice_drawn
    with pytest.raises(MatchError):
        match.roll()  # a turn is to be played, not a roll
    assert match.fair.games[0].dice_drawn == drawn
    assert all_ok(replace(match.fair.record(match), dice=(GameDice.of(match.fair.games[0], reveal=True),)))


def test_dice_before_any_game_is_begun_are_refused() -> None:
    with pytest.raises(RuntimeError, match="begin_game"):
        MatchFairDice().die()
    fair = MatchFairDice()
    match = Match(MatchSettings("tabla", length=3), dice=fair, now=lambda: 0)
    with pytest.raises(RuntimeError, match="1 games played, fair dice begun for 0"):
        fair.record_dice(match)


def test_games_are_counted_from_each_start_and_a_setup_in_play() -> None:
    match = fair_match(MULTI_GAME_SEED)
    record = match.fair.record(match)
    starts = [i for i, action in enumerate(record.actions) if action.kind == "start"]
    assert [game[0] for game in games_of(record)] == starts
    middle = starts[0] + 4  # game 1 in play
    continued = MatchRecord(record.settings, record.actions[middle:], setup=match_ids(match.states[middle]))
    assert [game[0] for game in games_of(continued)] == [0, *(i - middle for i in starts[1:])]
    between = starts[1]  # game 1 over, game 2 not yet started
    later = MatchRecord(record.settings, record.actions[between:], setup=match_ids(match.states[between]))
    assert [game[0] for game in games_of(later)] == [i - between for i in starts[1:]]


def test_abluka_has_nothing_to_verify_and_its_records_take_no_dice() -> None:
    record = MatchRecord(MatchSettings("abluka"))
    assert verify_match_dice(record) == ()
    data = json.loads(record.to_json())
    data["dice"] = [fair_record(0).dice[0].to_json()]
    with pytest.raises(TavlaError, match="abluka is played without dice"):
        MatchRecord.from_json(json.dumps(data))


def test_records_without_fair_dice_write_no_dice_key() -> None:
    record = MatchRecord.of(Match(MatchSettings("tabla", length=1), now=lambda: 0))
    data = json.loads(record.to_json())
    assert "dice" not in data and MatchRecord.from_json(record.to_json()).dice == ()
    data["dice"] = []
    assert MatchRecord.from_json(json.dumps(data)).dice == ()


def dice_json(**changes: object) -> str:
    record = fair_record(0)
    data = json.loads(record.to_json())
    entry = data["dice"][0]
    for key, value in changes.items():
        if value is KeyError:
            del entry[key]
        else:
            entry[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"scheme": "hmac-sha512"}, "dice[0].scheme"),
        ({"scheme": KeyError}, "dice[0].scheme"),
        ({"commitment": "ABC"}, "dice[0].commitment"),
        ({"commitment": 5}, "dice[0].commitment"),
        ({"client_seed": ""}, "dice[0].client_seed"),
        ({"client_seed": None}, "dice[0].client_seed"),
        ({"server_seed": "00"}, "dice[0].server_seed"),
        ({"server_seed": KeyError}, "dice[0].server_seed"),
        ({"salt": "x"}, "dice[0].salt"),
    ],
)
def test_malformed_dice_entries_are_refused_naming_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(TavlaError) as refused:
        MatchRecord.from_json(dice_json(**changes))
    assert str(refused.value).startswith(field)


def test_dice_that_are_not_a_list_of_objects_are_refused() -> None:
    data = json.loads(fair_record(0).to_json())
    for bad, field in [({}, "dice"), ([1], "dice[0]")]:
        data["dice"] = bad
        with pytest.raises(TavlaError) as refused:
            MatchRecord.from_json(json.dumps(data))
        assert str(refused.value).startswith(field)
