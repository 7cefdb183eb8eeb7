"""What a connection is shown of a room: the ``state`` message of docs/API.md 4."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tavla.match.actions import ActionKind
from tavla.schema import match_state_json, steps_json

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


def move_list(room: Room) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    game = 0
    dice = ""
    for action in room.actions:
        if action.kind == ActionKind.START:
            game += 1
            continue
        if action.kind == ActionKind.ROLL:
            dice = action.value
            if action.seat is None:
                moves.append({"game": game, "seat": None, "kind": "opening", "text": dice, "dice": dice})
            continue
        if action.kind in _LISTED:
            entry = {
                "game": game,
                "seat": action.seat,
                "kind": str(action.kind),
                "text": action.value,
                "dice": None,
            }
            if action.kind == ActionKind.MOVE and room.has_dice:
                entry["dice"] = dice
            moves.append(entry)
    return moves


def _players(room: Room) -> list[dict[str, Any]]:
    now = room.now()
    players = []
    for seat, info in enumerate(room.seats):
        since = room.away_since[seat]
        players.append(
            {
                "name": info.name,
                "bot": info.bot is not None,
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


def state_message(room: Room, seat: int | None) -> dict[str, Any]:
    steps = None
    if room.builder is not None and seat is not None and room.state.actor == seat:
        steps = steps_json(room.builder).model_dump(mode="json", by_alias=True)
    chat = {
        "enabled": room.chat_enabled,
        "messages": [{"seat": line.seat, "text": line.text, "t_ms": line.t_ms} for line in room.chat]
        if seat is not None
        else [],
    }
    return {
        "type": "state",
        "v": room.book.version,
        "game_id": room.game_id,
        "seat": seat,
        "last_seq": 0 if seat is None else room.book.last_seq[seat],
        "players": _players(room),
        "match": match_state_json(room.state, room.now()).model_dump(mode="json", by_alias=True),
        "steps": steps,
        "moves": move_list(room),
        "dice": _dice(room),
        "chat": chat,
        "spectators": sum(1 for viewer in room.viewers if viewer.seat is None),
    }
