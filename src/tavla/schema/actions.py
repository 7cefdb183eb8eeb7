"""The JSON a client sends to act (:class:`ActionJson`), and reading it safely.

Each action is an object with a ``kind``; only ``move``, ``step`` and ``resign``
carry more. The seat is optional: the server knows who is connected, and a client
that plays both seats (one screen for two players) names the seat it acts for.
``step``, ``undo`` and ``commit`` play a turn one step at a time on the server's
step builder; ``commit`` then plays the finished turn as a ``move``. The match's own
actions ``start``, ``flag`` and ``warn`` come from the server and the arbiter, never
from a client, and are refused here.

:func:`parse_action` turns untrusted JSON into one of these models or raises
:class:`ActionJsonError` (a :class:`~tavla.core.errors.TavlaError`) naming the field
that is wrong; :func:`match_action` turns a model into the
:class:`~tavla.match.actions.MatchAction` the match applies.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import Field, RootModel, ValidationError
from pydantic_core import ErrorDetails

from tavla.core.errors import TavlaError
from tavla.match.actions import ActionKind, MatchAction
from tavla.schema.common import JsonModel

TEXT_LIMIT = 200
"""The longest move or step text accepted (a progressive double's longest turn is far
shorter); longer text is refused before it reaches the rules."""
MESSAGE_LIMIT = 100_000
"""The longest JSON text read at all."""

MoveText = Annotated[str, Field(min_length=1, max_length=TEXT_LIMIT)]
Seat = Annotated[int, Field(ge=0, le=1)]


class ActionBase(JsonModel):
    seat: Seat | None = None
    """The seat acting, for a client that plays both; checked against the connection."""


class RollAction(ActionBase):
    """Roll the dice (the server rolls them); also declines a raccoon."""

    kind: Literal["roll"]


class MoveAction(ActionBase):
    """Play a whole turn given as move text (``13/8 13/11``, ``-``; Abluka ``d2/e5``)."""

    kind: Literal["move"]
    turn: MoveText


class StepAction(ActionBase):
    """Play one step of the turn: a ``text`` from the legal steps of ``StepsJson``."""

    kind: Literal["step"]
    step: MoveText


class UndoAction(ActionBase):
    """Take back the last step of the turn being played."""

    kind: Literal["undo"]


class CommitAction(ActionBase):
    """Play the steps played so far as the turn (they must form a whole legal turn)."""

    kind: Literal["commit"]


class DoubleAction(ActionBase):
    kind: Literal["double"]


class TakeAction(ActionBase):
    kind: Literal["take"]


class DropAction(ActionBase):
    kind: Literal["drop"]


class BeaverAction(ActionBase):
    kind: Literal["beaver"]


class RaccoonAction(ActionBase):
    kind: Literal["raccoon"]


class ResignAction(ActionBase):
    """Offer to lose the game at ``level`` times the cube (Abluka: ``single`` only)."""

    kind: Literal["resign"]
    level: Literal["single", "gammon", "backgammon"] = "single"


class AcceptAction(ActionBase):
    """Accept the opponent's resignation."""

    kind: Literal["accept"]


class DeclineAction(ActionBase):
    """Decline the opponent's resignation: play goes on."""

    kind: Literal["decline"]


class BreakAction(ActionBase):
    """Take a break between games (RULES.md 11.4)."""

    kind: Literal["break"]


AnyAction = (
    RollAction
    | MoveAction
    | StepAction
    | UndoAction
    | CommitAction
    | DoubleAction
    | TakeAction
    | DropAction
    | BeaverAction
    | RaccoonAction
    | ResignAction
    | AcceptAction
    | DeclineAction
    | BreakAction
)


class ActionJson(RootModel[Annotated[AnyAction, Field(discriminator="kind")]]):
    """Any action a client sends; ``kind`` says which."""


CLIENT_KINDS: tuple[str, ...] = (
    "roll", "move", "step", "undo", "commit", "double", "take", "drop",
    "beaver", "raccoon", "resign", "accept", "decline", "break",
)  # fmt: skip
BUILDER_KINDS = ("step", "undo", "commit")
"""Kinds the server's step builder handles; they are not match actions."""


class ActionJsonError(TavlaError):
    """Action JSON that cannot be read: ``field`` names the part that is wrong
    (``action`` when it is the whole)."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        where = "action" if field == "action" else f"action field {field!r}"
        super().__init__(f"{where}: {reason}")


def _first_error(error: ValidationError) -> ActionJsonError:
    """The first problem pydantic found, with the field named as the client wrote it."""
    detail: ErrorDetails = error.errors(include_url=False, include_input=False)[0]
    location = [str(part) for part in detail["loc"]]
    kinds = ", ".join(CLIENT_KINDS)
    if detail["type"] == "union_tag_not_found":
        return ActionJsonError("kind", f"missing; expected one of {kinds}")
    if detail["type"] == "union_tag_invalid":
        given = str(detail.get("ctx", {}).get("tag", ""))[:40]
        return ActionJsonError("kind", f"{given!r} is not one of {kinds}")
    # The first part names the union member (the kind), which the client did not write.
    fields = location[1:] if location and location[0] in CLIENT_KINDS else location
    return ActionJsonError(".".join(fields) or "action", detail["msg"])


def parse_action(data: str | bytes | object) -> AnyAction:
    """An action from JSON text or from data already decoded (``json.loads``);
    raises ActionJsonError naming the wrong field."""
    if isinstance(data, bytes | bytearray):
        try:
            data = data.decode()
        except UnicodeDecodeError:
            raise ActionJsonError("action", "not UTF-8 text") from None
    if not isinstance(data, str):
        # Decoded data is checked as the JSON it came from, so that strictness is the
        # same either way (enum words, no numbers in strings).
        try:
            data = json.dumps(data, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise ActionJsonError("action", f"not JSON data ({error})") from None
    if len(data) > MESSAGE_LIMIT:
        raise ActionJsonError("action", f"{len(data)} characters; at most {MESSAGE_LIMIT}")
    try:
        return ActionJson.model_validate_json(data).root
    except ValidationError as error:
        raise _first_error(error) from None


def acting_seat(action: AnyAction, seat: int | None) -> int | None:
    """The seat ``action`` is made for: the connection's ``seat`` (None: a client that
    may act for both), which the action's own ``seat`` must agree with."""
    if action.seat is None:
        return seat
    if seat is not None and action.seat != seat:
        raise ActionJsonError("seat", f"{action.seat}: this client plays seat {seat}")
    return action.seat


def match_action(action: AnyAction, seat: int | None, t_ms: int) -> MatchAction:
    """The match action of ``action`` from the connection of ``seat`` at ``t_ms``.

    ``roll`` comes with no dice: the server rolls them (``Match.roll``). ``step``,
    ``undo`` and ``commit`` belong to the step builder: the server commits the
    builder's turn and applies it as a ``move``; they raise ActionJsonError here.
    """
    if isinstance(action, StepAction | UndoAction | CommitAction):
        raise ActionJsonError("kind", f"{action.kind} is played on the step builder, not the match")
    seat = acting_seat(action, seat)
    value = ""
    if isinstance(action, MoveAction):
        value = action.turn
    elif isinstance(action, ResignAction):
        value = action.level
    return MatchAction(ActionKind(action.kind), seat, value, t_ms)
