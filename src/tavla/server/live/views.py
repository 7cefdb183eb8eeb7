"""What a connection is shown of a room: the ``state`` message of docs/API.md 4."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tavla.match.actions import ActionKind, MatchAction
from tavla.match.officials import NO_SHOW_GRACE_MS, NO_SHOW_STEP_MS, forfeit_points
from tavla.schema import match_state_json, steps_json
from tavla.schema.match import clock_json
from tavla.server.live.basics import site_bot_level

if TYPE_CHECKING:
    from tavla.server.live.room import Room

# The actions a person reads in the move list (starts, flags and warnings are shown
# through the state itself).
_LISTED = {
    ActionKind.ROLL,
    ActionKind.MOVE,
    ActionKind.DOUBLE,
    ActionKind.TAKE,
    ActionKind.DROP,
    ActionKind.BEAVER,
    ActionKind.RACCOON,
    ActionKind.RESIGN,
    ActionKind.ACCEPT,
    ActionKind.DECLINE,
    ActionKind.BREAK,
    ActionKind.FLAG,
}


class MoveList:
    """A room's move list, extended as actions are appended instead of rebuilt for
    every message (a room's actions only ever grow)."""

    def __init__(self) -> None:
        self.moves: list[dict[str, Any]] = []
        self.seen = 0
        self.game = 0
        self.dice = ""
        self._text: tuple[int, str] | None = None

    def json_text(self, room: Room) -> str:
        """The list as JSON text, written again only when it grew."""
        moves = self.of(room)
        if self._text is None or self._text[0] != len(moves):
            self._text = (len(moves), json.dumps(moves, separators=(",", ":"), ensure_ascii=False))
        return self._text[1]

    def of(self, room: Room) -> list[dict[str, Any]]:
        actions = room.actions
        if len(actions) < self.seen:  # not the same actions: start again
            self.__init__()  # type: ignore[misc]
        for action in actions[self.seen :]:
            self._add(room, action)
        self.seen = len(actions)
        return self.moves

    def _add(self, room: Room, action: MatchAction) -> None:
        if action.kind == ActionKind.START:
            self.game += 1
            return
        if action.kind == ActionKind.ROLL:
            self.dice = action.value
            if action.seat is None:
                self.moves.append(
                    {"game": self.game, "seat": None, "kind": "opening", "text": self.dice, "dice": self.dice}
                )
            return
        if action.kind in _LISTED:
            entry = {
                "game": self.game,
                "seat": action.seat,
                "kind": str(action.kind),
                "text": action.value,
                "dice": None,
            }
            if action.kind == ActionKind.MOVE and room.has_dice:
                entry["dice"] = self.dice
            self.moves.append(entry)


def move_list(room: Room) -> list[dict[str, Any]]:
    """The moves a person reads, one entry per listed action (a copy: messages wait in
    queues while the room goes on)."""
    return list(room.move_list.of(room))


def _players(room: Room) -> list[dict[str, Any]]:
    now = room.now()
    players = []
    for seat, info in enumerate(room.seats):
        since = room.away_since[seat]
        players.append(
            {
                "name": info.name,
                "bot": info.bot is not None,
                "bot_level": site_bot_level(info.user_id, info.bot),
                "connected": since is None,
                "away_ms": None if since is None else max(0, now - since),
            }
        )
    return players


def _dice(room: Room) -> dict[str, Any] | None:
    seed = room.feed.seeds.get(room.state.game_number)
    if seed is None:
        return None
    return {
        "game": seed.game_number,
        "commitment": seed.commitment,
        "client_seed": seed.client_seed,
        "revealed": [
            {"game": s.game_number, "server_seed": s.server_seed, "commitment": s.commitment}
            for s in room.feed.seeds.values()
            if s.revealed
        ],
    }


SHARED_KEYS = ("players", "match", "moves", "dice", "spectators", "arbiters", "warnings", "waiting")


def shared_text(room: Room, shared: dict[str, Any]) -> str:
    """The shared parts as one JSON object's text; the move list's text is kept from
    one change to the next (it only grows, and is the longest part)."""
    rest = json.dumps(
        {key: shared[key] for key in SHARED_KEYS if key != "moves"}, separators=(",", ":"), ensure_ascii=False
    )
    return rest[:-1] + ',"moves":' + room.move_list.json_text(room) + "}"


"""The parts of a ``state`` message that are the same for every viewer."""


def _match_json(room: Room) -> dict[str, Any]:
    """The match state's JSON. Steps, chat and presence leave the state as it was: its
    JSON is kept and only the clock, which reads the time, is made again."""
    now = room.now()
    cached = room.match_json_cache
    if cached is not None and cached[0] is room.state:
        data = dict(cached[1])
        clock = clock_json(room.state.clock, now)
        data["clock"] = None if clock is None else clock.model_dump(mode="json", by_alias=True)
        return data
    data = match_state_json(room.state, now).model_dump(mode="json", by_alias=True)
    room.match_json_cache = (room.state, data)
    return data


def shared_view(room: Room) -> dict[str, Any]:
    """What every connection of the room is shown alike at this moment."""
    return {
        "v": room.book.version,
        "game_id": room.game_id,
        "players": _players(room),
        "match": _match_json(room),
        "moves": move_list(room),
        "dice": _dice(room),
        # An arbiter observing is an official, not a spectator: the players who allowed
        # no spectators see none, and are told that an arbiter watches.
        "spectators": sum(1 for viewer in room.viewers if viewer.seat is None and not viewer.arbiter),
        "arbiters": sum(1 for viewer in room.viewers if viewer.seat is None and viewer.arbiter),
        "warnings": warnings(room),
        "waiting": waiting(room),
    }


def waiting(room: Room) -> dict[str, Any] | None:
    """While the first game of a tournament's match awaits its players: who has come,
    and when the one who came is credited his next point (RULES.md 11.4)."""
    if not room.awaiting_players:
        return None
    return {
        "now_ms": room.now(),
        "from_ms": room.no_show_from_ms,
        "arrived": [when is not None for when in room.arrived],
        "credit_due_ms": room.credit_due(),
        "forfeit_at": forfeit_points(room.state),
        "grace_ms": NO_SHOW_GRACE_MS,
        "step_ms": NO_SHOW_STEP_MS,
    }


def warnings(room: Room) -> list[dict[str, Any]]:
    """The arbiters' warnings so far, with their notes, for everybody on the board."""
    return [
        {"seat": action.seat, "note": action.value, "t_ms": action.t_ms}
        for action in room.actions
        if action.kind == ActionKind.WARN
    ]


def state_message(
    room: Room,
    seat: int | None,
    shared: dict[str, Any] | None = None,
    *,
    reads_chat: bool | None = None,
    official: dict[str, bool] | None = None,
) -> dict[str, Any]:
    """The ``state`` for ``seat``; ``shared`` is :func:`shared_view` when the caller
    shows the same moment to several connections (it is built once, not per viewer).
    The chat's lines go to the players, and to whom ``reads_chat`` names (an arbiter)."""
    common = shared_view(room) if shared is None else shared
    steps = None
    if room.builder is not None and seat is not None and room.state.actor == seat:
        steps = steps_json(room.builder).model_dump(mode="json", by_alias=True)
    shown = seat is not None if reads_chat is None else reads_chat
    chat = {
        "enabled": room.chat_enabled,
        "closed": room.chat_closed,
        "messages": [{"seat": line.seat, "text": line.text, "t_ms": line.t_ms} for line in room.chat]
        if shown
        else [],
    }
    return {
        "type": "state",
        "v": common["v"],
        "game_id": common["game_id"],
        "seat": seat,
        "last_seq": 0 if seat is None else room.book.last_seq[seat],
        "players": common["players"],
        "match": common["match"],
        "steps": steps,
        "moves": common["moves"],
        "dice": common["dice"],
        "chat": chat,
        "spectators": common["spectators"],
        "arbiters": common["arbiters"],
        "warnings": common["warnings"],
        "waiting": common["waiting"],
        "official": official or {"closes_chat": False, "warns": False},
    }
