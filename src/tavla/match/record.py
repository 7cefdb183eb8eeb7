"""Match records in JSON (RULES.md 9.4): the settings plus every action, replayable.

A record holds the rules in force (the settings), every roll, every turn in its
canonical move text, every cube and resignation action and break, and the reading
of the time source at each action, from which the clocks follow. Replaying the
actions on a fresh match gives exactly the states of the live match.

A record may start from a position pasted from GNU Backgammon: ``setup`` holds its
Position ID and Match ID, and the replay starts from the state they describe. Records
of the tabla family also carry the IDs of their final state (``final``), checked
against the replay when the record is read, so that a corrupted record is refused.

A match played with fair dice (docs/fair-dice.md) keeps each game's commitment and
seeds in ``dice``, one entry per game in order; records without it read as before.

The JSON is the one record format of games and matches (:mod:`tavla.core.record`,
version 3, kind ``match``); the match records of versions 1 and 2 are read too.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tavla.core.errors import NotationError, TavlaError
from tavla.core.game import GameRecord
from tavla.core.gamedice import GameDice
from tavla.core.jsonread import member, only_keys, want_list, want_object, want_str
from tavla.core.record import RECORD_VERSION, RecordKind, envelope, read_envelope
from tavla.match.actions import ActionKind, MatchAction, action_kind, apply_action
from tavla.match.gnubg_ids import match_ids, state_from_setup
from tavla.match.match import Match
from tavla.match.settings import MatchSettings
from tavla.match.state import MatchState, new_state

_MATCH_RECORD = "match record"
_RECORD_KEYS = ("format", "version", "kind", "settings", "setup", "actions", "dice", "final")
_SETTINGS_KEYS = tuple(MatchSettings("tabla").to_json())


@dataclass
class MatchRecord:
    settings: MatchSettings
    actions: list[MatchAction] = field(default_factory=list)
    setup: tuple[str, str] | None = None
    """The gnubg (Position ID, Match ID) the record starts from; None: the match's start."""
    dice: tuple[GameDice, ...] = ()
    """Each game's fair-dice commitment and seeds, in the order of the games; empty when
    the dice were not fair dice (:mod:`tavla.match.fairdice`)."""
    live_final: tuple[int, MatchState] | None = field(default=None, compare=False, repr=False)
    """(number of actions, final state) of the live match the record was taken from:
    writing the final IDs then needs no replay."""

    @classmethod
    def of(cls, match: Match, *, dice: tuple[GameDice, ...] = ()) -> MatchRecord:
        """The record of ``match`` so far, with the fair-dice entries ``dice`` if any
        (:meth:`tavla.match.fairdice.MatchFairDice.record_dice` makes them)."""
        live = (len(match.actions), match.state)
        return cls(match.settings, list(match.actions), match.setup, dice, live)

    @property
    def has_gnubg_ids(self) -> bool:
        return self.settings.definition.facts.gnubg_compatible

    def final_ids(self) -> tuple[str, str]:
        """The gnubg IDs of the replay's final state; raises as :func:`replay` does."""
        if self.live_final is not None and self.live_final[0] == len(self.actions):
            return match_ids(self.live_final[1])
        return match_ids(replay(self))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {**envelope(RecordKind.MATCH), "settings": self.settings.to_json()}
        if self.setup is not None:
            data["setup"] = _ids_json(self.setup)
        data["actions"] = [action.to_json() for action in self.actions]
        if self.dice:
            data["dice"] = [entry.to_json() for entry in self.dice]
        if self.has_gnubg_ids:
            # A record that does not replay has no final state to vouch for.
            with contextlib.suppress(TavlaError):
                data["final"] = _ids_json(self.final_ids())
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=None, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        """Read a record; NotationError (a TavlaError) naming the first wrong field.

        The structure and the type of every value are checked before use; then the
        settings' own rules, and the replay against ``final`` where it is given.
        """
        read = read_envelope(text, _MATCH_RECORD)
        if read.kind is RecordKind.GAME:
            raise NotationError(
                f"{_MATCH_RECORD}.kind",
                "game",
                "a single game's record: read it with tavla.GameRecord (MatchRecord.of_game: as a match)",
            )
        data = read.data
        if read.version == RECORD_VERSION:  # earlier versions are read as they were written
            _check_keys(data)
        settings = MatchSettings.from_json(member(data, "settings", "match record"))
        items = want_list(member(data, "actions", "match record"), "actions")
        actions = [MatchAction.from_json(item, f"actions[{index}]") for index, item in enumerate(items)]
        setup = _ids_from_json(data.get("setup"), "setup")
        final = _ids_from_json(data.get("final"), "final")
        dice = _dice_from_json(data, settings)
        record = cls(settings, actions, setup, dice)
        if final is not None:
            record.check_final(final)
        return record

    @classmethod
    def of_game(cls, record: GameRecord) -> MatchRecord:
        """A single game's record as the record of a one-game match without cube or
        clock, which replays to the same positions: for tools that show matches.

        Only games played from the starting position with an opening roll have such a
        match; others are refused (NotationError naming ``start`` or ``opening``).
        """
        settings = MatchSettings(record.game, length=0, cube=False, options=tuple(record.options.items()))
        start = settings.definition.start()
        if record.start != start.notation():
            raise NotationError("start", record.start, "a match starts from the starting position")
        if start.is_chance and not record.opening:
            raise NotationError("opening", "false", "a match's games start with the opening roll")
        actions = [MatchAction(ActionKind.START, None, "", 0)]
        actions.extend(
            MatchAction(action_kind(action.kind), action.seat, action.value, 0) for action in record.actions
        )
        return cls(settings, _with_seats(settings, actions))

    def check_final(self, final: tuple[str, str]) -> None:
        """Raise NotationError unless the record replays to the gnubg IDs ``final``."""
        shown = f"{final[0]}:{final[1]}"
        try:
            replayed = self.final_ids()
        except TavlaError as error:
            raise NotationError("final", shown, f"the record does not replay: {error}") from None
        if replayed != final:
            raise NotationError(
                "final", shown, f"the actions replay to {replayed[0]}:{replayed[1]}: the record is corrupted"
            )


def _ids_json(ids: tuple[str, str]) -> dict[str, str]:
    return {"position_id": ids[0], "match_id": ids[1]}


def _check_keys(data: dict[str, Any]) -> None:
    """Every key of a record written now is one this version writes (NotationError)."""
    only_keys(data, _RECORD_KEYS, _MATCH_RECORD)
    settings = data.get("settings")
    if isinstance(settings, dict):
        only_keys(settings, _SETTINGS_KEYS, "settings")
    actions = data.get("actions")
    for index, item in enumerate(actions if isinstance(actions, list) else []):
        if isinstance(item, dict):
            only_keys(item, ("k", "t", "s", "v"), f"actions[{index}]")
    for name in ("setup", "final"):
        ids = data.get(name)
        if isinstance(ids, dict):
            only_keys(ids, ("position_id", "match_id"), name)


def _ids_from_json(data: object, name: str) -> tuple[str, str] | None:
    if data is None:
        return None
    ids = want_object(data, name)
    position_id = want_str(member(ids, "position_id", name), f"{name}.position_id")
    match_id = want_str(member(ids, "match_id", name), f"{name}.match_id")
    return position_id, match_id


def _dice_from_json(data: dict[str, Any], settings: MatchSettings) -> tuple[GameDice, ...]:
    if "dice" not in data:
        return ()
    items = want_list(data["dice"], "dice")
    if items and not settings.definition.facts.has_dice:
        raise NotationError("dice", "[...]", f"{settings.game} is played without dice")
    return tuple(GameDice.from_json(item, f"dice[{index}]") for index, item in enumerate(items))


def initial_state(record: MatchRecord) -> MatchState:
    """The state a replay starts from: the match's start, or the record's gnubg setup."""
    if record.setup is None:
        return new_state(record.settings)
    return state_from_setup(record.settings, record.setup[0], record.setup[1])


def replay_states(record: MatchRecord) -> Iterator[MatchState]:
    """The state before the first action and after each action of ``record``."""
    state = initial_state(record)
    yield state
    for action in record.actions:
        state, _ = apply_action(state, action)
        yield state


@dataclass(frozen=True)
class Step:
    """One action of a record with the match's state before and after it."""

    index: int
    action: MatchAction
    before: MatchState
    after: MatchState


def replay_steps(
    record: MatchRecord, actions: range | None = None, start: MatchState | None = None
) -> Iterator[Step]:
    """Each action of ``record`` with the states around it: all of them, or those whose
    indexes are ``actions`` (consecutive). ``start``, the state before the first of
    them, spares replaying the record up to it."""
    actions = range(len(record.actions)) if actions is None else actions
    if actions.step != 1:
        raise ValueError("replay_steps takes consecutive actions")
    state = start
    if state is None:
        state = initial_state(record)
        for action in record.actions[: actions.start]:
            state, _ = apply_action(state, action)
    for index in actions:
        action = record.actions[index]
        after, _ = apply_action(state, action)
        yield Step(index, action, state, after)
        state = after


def replay(record: MatchRecord) -> MatchState:
    """The final state of ``record``; raises the error of the first refused action."""
    state = initial_state(record)
    for action in record.actions:
        state, _ = apply_action(state, action)
    return state


def _with_seats(settings: MatchSettings, actions: list[MatchAction]) -> list[MatchAction]:
    """The actions with the seat that acts filled in where a game record left it out
    (version 0 records did not say); the replay refuses any that do not fit."""
    state = new_state(settings)
    done: list[MatchAction] = []
    for action in actions:
        actor = state.actor
        if action.kind in ("roll", "move") and action.seat is None and actor is not None:
            action = MatchAction(action.kind, actor, action.value, action.t_ms)
        state, recorded = apply_action(state, action)
        done.append(recorded)
    return done
