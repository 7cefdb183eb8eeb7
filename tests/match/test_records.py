"""Match records (RULES.md 9.4): JSON round trips and exact replays of random matches
of every registered game, Abluka sets and its sudden-death clock (RULES.md 8.3)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from tavla.core.dice import SeededDice
from tavla.core.errors import NotationError, TavlaError
from tavla.core.game import Game
from tavla.core.registry import find_game, game_names
from tavla.match.actions import ActionKind, MatchAction
from tavla.match.clock import ClockSettings
from tavla.match.errors import TimeForfeitError
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play_random_match
from tavla.match.record import MatchRecord, replay, replay_states
from tavla.match.settings import MatchSettings


def jittery_time(seed: int, most_ms: int) -> Callable[[], int]:
    """A time source that moves on by 0..``most_ms`` at every reading."""
    rng = random.Random(seed)
    now = [0]

    def read() -> int:
        now[0] += rng.randint(0, most_ms)
        return now[0]

    return read


class NoSmallDoubles:
    """Seeded dice that roll 1-1 and 2-2 again.

    With progressive doubles (chelebi, gulbara) these rolls give 24 or 20 moves,
    whose full enumeration can take minutes in spread-out positions; the records
    under test do not need them.
    """

    def __init__(self, seed: int) -> None:
        self._dice = SeededDice(seed)
        self._queue: list[int] = []

    def die(self) -> int:
        if not self._queue:
            pair = (self._dice.die(), self._dice.die())
            while pair in ((1, 1), (2, 2)):
                pair = (self._dice.die(), self._dice.die())
            self._queue = list(pair)
        return self._queue.pop(0)


def random_match(game: str, seed: int, length: int | None = None, **options: object) -> Match:
    if length is None:
        length = 3 if find_game(game).start().is_chance else 0
    settings = MatchSettings(game=game, length=length, **options)  # type: ignore[arg-type]
    match = Match(settings, dice=NoSmallDoubles(seed), now=jittery_time(seed, 2_500))
    players = (RandomPlayer(random.Random(seed), resign_rate=0.02), RandomPlayer(random.Random(~seed)))
    return play_random_match(match, players)


@pytest.mark.parametrize("game", game_names())
def test_replay_equals_the_live_state_at_every_step(game: str) -> None:
    """Every registered game: the JSON record replays to the live state after every action."""
    for seed in (1, 2):
        clock = ClockSettings(move_ms=1_000, reserve_ms=30_000)  # tight enough that flags fall
        match = random_match(game, seed, clock=clock)
        assert match.state.over
        record = MatchRecord.from_json(MatchRecord.of(match).to_json())
        assert record == MatchRecord.of(match)
        assert list(replay_states(record)) == match.states
        assert all(action.t_ms >= 0 for action in record.actions)


def test_random_matches_use_every_kind_of_action() -> None:
    """The replay test above is only as good as the actions it sees."""
    seen: set[str] = set()
    for seed in range(6):
        clock = ClockSettings(move_ms=1_000, reserve_ms=20_000)
        match = random_match("tabla", seed, clock=clock)
        seen.update(action.kind for action in match.actions)
        seen.update(r.reason for r in match.state.results)
    assert {"roll", "move", "double", "take", "drop", "resign", "accept", "decline", "flag", "start"} <= seen


def test_money_game_with_beavers_and_raccoons_replays() -> None:
    for seed in range(4):
        match = random_match("tabla", seed, length=0, beavers=True, raccoons=True, jacoby=True)
        match_length_zero = match.settings.length == 0
        assert match_length_zero and match.state.over and len(match.state.results) == 1
        assert replay(MatchRecord.of(match)) == match.state


KEYS_REFUSED = [
    (("extra",), "match record.extra", "format, version, kind, settings, setup, actions, dice, final"),
    (
        ("settings", "lenght"),
        "settings.lenght",
        "game, length, cube, beavers, raccoons, jacoby, next_game_start, sets, clock, names, options",
    ),
    (("actions", 1, "seat"), "actions[1].seat", "k, t, s, v"),
    (("final", "matchid"), "final.matchid", "position_id, match_id"),
]


@pytest.mark.parametrize(("path", "field", "keys"), KEYS_REFUSED)
def test_a_key_the_record_format_does_not_have_is_refused_by_name(
    path: tuple[str | int, ...], field: str, keys: str
) -> None:
    """RULES.md 9.4: a misspelt key would otherwise read as one left out (a length, a
    seat); the refusal names it and lists the keys of that place."""
    match = Match(MatchSettings("tabla", 3), dice=SeededDice(1))
    match.roll()
    data = json.loads(MatchRecord.of(match).to_json())
    MatchRecord.from_json(json.dumps(data))  # as written: read
    place = data
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = 5
    with pytest.raises(NotationError) as raised:
        MatchRecord.from_json(json.dumps(data))
    assert (raised.value.field, raised.value.value) == (field, "5")
    assert raised.value.reason == f"not a key here; expected {keys}"


def test_tampered_record_is_refused() -> None:
    match = random_match("tabla", 3)
    record = MatchRecord.of(match)
    moves = [i for i, action in enumerate(record.actions) if action.kind == "move"]
    bad = list(record.actions)
    bad[moves[3]] = MatchAction(ActionKind.MOVE, bad[moves[3]].seat, "24/1", bad[moves[3]].t_ms)
    with pytest.raises(TavlaError):
        replay(MatchRecord(record.settings, bad))
    with pytest.raises(TavlaError):
        MatchRecord.from_json('{"format": "tavla-match", "version": 1}')


def test_a_record_whose_actions_do_not_replay_says_why_against_its_final_ids() -> None:
    """RULES.md 9.4: a record vouched for by its final IDs but holding an illegal move is
    refused under ``final``, with the replay's own refusal in the reason."""
    record = MatchRecord.of(random_match("tabla", 3))
    data = json.loads(record.to_json())
    index = next(i for i, action in enumerate(data["actions"]) if action["k"] == "move")
    data["actions"][index]["v"] = "24/1"
    final = data["final"]
    bad = MatchRecord(record.settings, [MatchAction.from_json(item) for item in data["actions"]])
    with pytest.raises(TavlaError) as replay_refusal:
        replay(bad)
    with pytest.raises(NotationError) as raised:
        MatchRecord.from_json(json.dumps(data))
    assert (raised.value.field, raised.value.value) == (
        "final",
        f"{final['position_id']}:{final['match_id']}",
    )
    assert raised.value.reason == f"the record does not replay: {replay_refusal.value}"


def _played_game(actions: int) -> Game:
    """A tabla game from the start: the opening 3-1, then the first legal turn each time."""
    game = Game.new("tabla")
    game.roll((3, 1))
    rolls = iter([(5, 3), (6, 1), (4, 2), (6, 5)])
    for _ in range(actions):
        if game.is_chance:
            game.roll(next(rolls))
        else:
            game.play(game.position.legal_turns()[0])
    return game


def test_a_single_game_is_a_match_of_length_zero_without_cube() -> None:
    """RULES.md 9.4: a game record reads as one game of money play (length 0), no cube."""
    game = _played_game(5)
    record = MatchRecord.of_game(game.record())
    assert (record.settings.game, record.settings.length, record.settings.cube) == ("tabla", 0, False)
    assert record.actions[0] == MatchAction(ActionKind.START, None, "", 0)
    assert replay(record).position == game.position


def test_a_game_record_without_seats_gets_the_seat_of_each_roll_and_move() -> None:
    """Version 0 game records did not say who rolled or moved: each action gets the
    seat that was to act, and the record is the one of a game that names them."""
    record = _played_game(5).record()
    seatless = replace(record, actions=[replace(action, seat=None) for action in record.actions])
    as_match = MatchRecord.of_game(seatless)
    assert as_match.actions == MatchRecord.of_game(record).actions
    assert [a.seat for a in as_match.actions if a.kind in ("roll", "move")] == [None, 0, 1, 1, 0, 0]


def test_a_game_without_the_opening_roll_is_no_match() -> None:
    """RULES.md 1.4, 9.4: a match's games start with the opening roll."""
    record = replace(_played_game(0).record(), opening=False, actions=[])
    with pytest.raises(NotationError) as raised:
        MatchRecord.of_game(record)
    assert (raised.value.field, raised.value.value, raised.value.reason) == (
        "opening",
        "false",
        "a match's games start with the opening roll",
    )


@pytest.mark.skipif("abluka" not in game_names(), reason="Abluka is not registered")
def test_abluka_sets_alternate_colours_and_end_at_two() -> None:
    """RULES.md 8.3: 3 sets by default, colours alternating, over as soon as one has 2."""
    for seed in range(4):
        match = random_match("abluka", seed)
        state = match.state
        assert state.over and max(state.score) == 2 and state.winner == state.score.index(2)
        assert 2 <= len(state.results) <= 3
        firsts = [
            s
            for s in match.states
            if s.phase == "move" and s.position.notation() == s.position.start().notation()
        ]
        # Black moves first (RULES.md 8.1): seat 0 in even sets, seat 1 in odd ones.
        assert {(s.game_number, s.actor) for s in firsts} == {
            (n, n % 2) for n in range(1, len(state.results) + 1)
        }
        assert all(s.cube.value == 1 for s in match.states)


@pytest.mark.skipif("abluka" not in game_names(), reason="Abluka is not registered")
def test_abluka_sudden_death_clock_loses_the_match() -> None:
    """RULES.md 8.3: one budget per player for the match; running out loses the match."""
    now = [0]
    match = Match(MatchSettings(game="abluka", clock=ClockSettings.sudden_death(60_000)), now=lambda: now[0])
    assert match.state.actor == 1  # seat 1 plays Black in the first set
    now[0] = 10_000
    match.move(1, match.state.position.legal_turns()[0].text)
    now[0] = 70_000  # seat 0 thinks for a minute
    with pytest.raises(TimeForfeitError):
        match.move(0, match.state.position.legal_turns()[0].text)
    assert match.state.over and match.state.winner == 1
    assert match.state.clock is not None and match.state.clock.reserve_ms == (0, 50_000)


@pytest.mark.skipif("abluka" not in game_names(), reason="Abluka is not registered")
def test_abluka_has_no_cube_and_only_single_resignations() -> None:
    match = Match(MatchSettings(game="abluka"), now=lambda: 0)
    with pytest.raises(TavlaError):
        match.double(1)
    with pytest.raises(TavlaError):
        match.resign(1, "gammon")
    match.resign(1, "single")
    match.accept(0)
    assert match.state.score == (1, 0) and match.state.phase == "between"


@pytest.mark.skipif("abluka" not in game_names(), reason="Abluka is not registered")
def test_even_number_of_sets_can_be_drawn() -> None:
    """RULES.md 8.3: the player with more sets wins; with 2 sets at 1-1 nobody does."""
    match = Match(MatchSettings(game="abluka", sets=2), now=lambda: 0)
    match.resign(0, "single")
    match.accept(1)
    match.start_next_game()
    assert match.state.colour_of(0) == 1 and match.state.actor == 0  # seat 0 plays Black now
    match.resign(1, "single")
    match.accept(0)
    assert match.state.over and match.state.winner is None and match.state.score == (1, 1)
