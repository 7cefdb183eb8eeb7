"""GNU Backgammon's Position ID and Match ID for the tabla family (RULES.md 1.1-1.2).

Both IDs are base64 text (standard alphabet, no ``=`` padding) of a bit string packed
least significant bit first: bit ``i`` is bit ``i % 8`` of byte ``i // 8``.

*Position ID* (14 characters, an 80-bit key). For each player in turn, walk his
points 1..24 in his own numbering and then his bar, writing one ``1`` per checker and
a ``0`` after each place; pad with ``0`` to 80 bits. Checkers borne off are not
written: they are what is missing from 15. GNU Backgammon (1.07, checked by
``tests/oracle``) writes the player *not* on roll first and the player on roll second,
the order of its board ``(opponent, player on roll)``; this module does the same.

*Match ID* (12 characters, a 66-bit key), fields in this order, each written least
significant bit first: cube (log2 of its value, 4 bits), cube owner (2: player 0, 1,
or 3 for centred), dice owner (1: the player on roll or who rolled), Crawford (1),
game state (3), turn (1: the player who must decide now), double offered (1),
resignation (2), die 1 (3), die 2 (3; 0 and 0 before the roll), match length (15;
0 for money play), player 0's score (15), player 1's score (15). GNU Backgammon
1.07 also writes a 67th bit, set when the Jacoby rule is *not* in use (always set in
match play); the published 66-bit description predates it.

Players. gnubg numbers its players 0 and 1; here **White is gnubg's player 1** (X,
the player gnubg shows at the bottom and numbers its points from, by default the
person at the board) and **Black is gnubg's player 0** (O). With that choice the
Position ID's numbering for White on roll is White's own numbering, as in TPN, and
the tabla start with White to roll before the opening roll is ``4HPwATDgc/ABMA``
with Match ID ``cAgAAAAAAAAA``, the values gnubg writes for money play before the
opening roll.
:class:`MatchInfo` itself speaks gnubg's numbering; :func:`to_gnubg_ids` and
:func:`from_gnubg_ids` translate.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tavla.core.errors import NotationError
from tavla.core.protocol import BLACK, WHITE
from tavla.core.registry import find_game
from tavla.rules import tpn
from tavla.rules.backgammon.position import CHECKERS, BackgammonPosition

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_POSITION_KEY_BITS = 80
_MATCH_KEY_BITS = 67
_SCORE_BITS = 15
MAX_CUBE_LOG = 15

# Game states of the Match ID.
GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROPPED = 4

_CENTRED = 3  # the cube owner field's value for a centred cube

#: The games whose positions gnubg's IDs can describe (one checker colour per point).
TABLA_FAMILY = ("tabla", "antitabla", "chelebi")

#: gnubg's player number for each of our sides, and back.
GNUBG_PLAYER = {WHITE: 1, BLACK: 0}
OUR_SIDE = {1: WHITE, 0: BLACK}


# ------------------------------------------------------------------ bit strings
def _pack(bits: Sequence[int], length: int) -> bytes:
    """``length`` bits, least significant bit of each byte first."""
    data = bytearray((length + 7) // 8)
    for index, bit in enumerate(bits):
        if bit:
            data[index // 8] |= 1 << (index % 8)
    return bytes(data)


def _unpack(data: bytes) -> list[int]:
    return [(byte >> shift) & 1 for byte in data for shift in range(8)]


def _to_text(bits: Sequence[int], length: int) -> str:
    return base64.b64encode(_pack(bits, length)).decode("ascii").rstrip("=")


def _from_text(text: str, field: str, length: int) -> list[int]:
    """The bits of an ID; ``length`` is its number of characters."""
    if len(text) != length:
        raise NotationError(field, text, f"expected {length} characters, got {len(text)}")
    padding = "=" * (-length % 4)
    try:
        data = base64.b64decode(text + padding, validate=True)
    except (binascii.Error, ValueError):
        raise NotationError(field, text, "not base64 (A-Z, a-z, 0-9, + and / only)") from None
    return _unpack(data)


def _field_bits(value: int, width: int) -> list[int]:
    return [(value >> shift) & 1 for shift in range(width)]


def _field_value(bits: Sequence[int]) -> int:
    return sum(bit << shift for shift, bit in enumerate(bits))


# ------------------------------------------------------------------ Position ID
def _halves(position: BackgammonPosition) -> tuple[list[int], list[int]]:
    """(opponent, side to act): 24 points in the player's own numbering, then the bar."""
    points = position.points
    white = [max(points[p - 1], 0) for p in range(1, 25)] + [position.bar[WHITE]]
    black = [max(-points[24 - p], 0) for p in range(1, 25)] + [position.bar[BLACK]]
    return (black, white) if position.side == WHITE else (white, black)


def encode_position_id(position: BackgammonPosition) -> str:
    """The Position ID of a tabla-family position, its side to act as gnubg's player on roll."""
    key = 0  # the bit string as an integer: bit i of the string is bit i of the key
    shift = 0
    for half in _halves(position):
        for count in half:
            key |= ((1 << count) - 1) << shift
            shift += count + 1
    return base64.b64encode(key.to_bytes(_POSITION_KEY_BITS // 8, "little")).decode("ascii").rstrip("=")


def _decode_halves(pid: str) -> tuple[list[int], list[int]]:
    bits = _from_text(pid, "position id", POSITION_ID_LENGTH)[:_POSITION_KEY_BITS]
    counts: list[int] = []  # 50 runs of ones: the opponent's 25 places, then the mover's
    run = 0
    end = -1
    for index, bit in enumerate(bits):
        if bit:
            run += 1
            continue
        counts.append(run)
        run = 0
        if len(counts) == 50:
            end = index
            break
    if end < 0:
        raise NotationError("position id", pid, "more than 30 checkers in the key")
    if any(bits[end + 1 :]):
        raise NotationError("position id", pid, "bits set after the last point")
    halves = (counts[:25], counts[25:])
    for player, half in zip(("not on roll", "on roll"), halves, strict=True):
        if sum(half) > CHECKERS:
            raise NotationError("position id", pid, f"the player {player} has {sum(half)} checkers (> 15)")
    return halves[0], halves[1]


def decode_position_id(pid: str, *, side: int = WHITE, game: str = "tabla") -> BackgammonPosition:
    """The position a Position ID describes, with ``side`` as the player on roll (dice None)."""
    if side not in (WHITE, BLACK):
        raise NotationError("side", str(side), "expected 0 (White) or 1 (Black)")
    opponent, mover = _decode_halves(pid)
    white, black = (mover, opponent) if side == WHITE else (opponent, mover)
    points: list[int] = []
    for index in range(24):
        on_white = white[index]  # White's point index + 1
        on_black = black[23 - index]  # the same point in Black's numbering
        if on_white and on_black:
            raise NotationError("position id", pid, f"White's point {index + 1} holds checkers of both sides")
        points.append(on_white - on_black)
    bar = (white[24], black[24])
    off = (CHECKERS - sum(white), CHECKERS - sum(black))
    if off == (CHECKERS, CHECKERS):  # an empty board: AAAAAAAAAAAAAA
        raise NotationError("position id", pid, tpn.BOTH_FINISHED)
    position_class = find_game(game).position_class
    if not issubclass(position_class, BackgammonPosition):
        raise NotationError("game", game, f"Position IDs describe {', '.join(TABLA_FAMILY)} only")
    return position_class(tuple(points), bar, off, side, None)


# -------------------------------------------------------------------- Match ID
@dataclass(frozen=True)
class MatchInfo:
    """The fields of a Match ID, players numbered as gnubg numbers them (0 and 1).

    ``cube_owner`` is None for a centred cube; ``dice`` None before the roll, else
    kept higher die first, the order gnubg writes them in (the order a roll was
    rolled in is not part of a Match ID); ``match_length`` 0 for money play;
    ``score`` is (player 0, player 1).
    """

    cube_value: int = 1
    cube_owner: int | None = None
    dice_owner: int = 1
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 1
    double_offered: bool = False
    resign: int = 0
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool | None = None  # None: gnubg's default, in use for money play only

    def __post_init__(self) -> None:
        if self.jacoby is None:
            object.__setattr__(self, "jacoby", self.match_length == 0)
        value = self.cube_value
        if value < 1 or value & (value - 1) or value.bit_length() - 1 > MAX_CUBE_LOG:
            raise NotationError("cube", str(value), "expected a power of two from 1 to 32768")
        if self.cube_owner not in (None, 0, 1):
            raise NotationError("cube owner", str(self.cube_owner), "expected 0, 1 or None (centred)")
        for name, player in (("dice owner", self.dice_owner), ("turn", self.turn)):
            if player not in (0, 1):
                raise NotationError(name, str(player), "expected player 0 or 1")
        if not GAME_NONE <= self.game_state <= GAME_DROPPED:
            raise NotationError("game state", str(self.game_state), "expected 0-4")
        if not 0 <= self.resign <= 3:
            raise NotationError("resignation", str(self.resign), "expected 0-3 (none, 1, 2 or 3 points)")
        if self.dice is not None:
            if len(self.dice) != 2 or not all(1 <= die <= 6 for die in self.dice):
                raise NotationError("dice", str(self.dice), "expected two dice 1-6 or None")
            object.__setattr__(self, "dice", (max(self.dice), min(self.dice)))
        limit = (1 << _SCORE_BITS) - 1
        if not 0 <= self.match_length <= limit:
            raise NotationError("match length", str(self.match_length), f"expected 0-{limit}")
        if len(self.score) != 2 or not all(0 <= points <= limit for points in self.score):
            raise NotationError("score", str(self.score), f"expected two scores 0-{limit}")

    @property
    def is_money(self) -> bool:
        return self.match_length == 0


def encode_match_id(info: MatchInfo) -> str:
    """The 12-character Match ID of ``info``."""
    owner = _CENTRED if info.cube_owner is None else info.cube_owner
    die1, die2 = info.dice if info.dice is not None else (0, 0)
    fields = (
        (info.cube_value.bit_length() - 1, 4),
        (owner, 2),
        (info.dice_owner, 1),
        (int(info.crawford), 1),
        (info.game_state, 3),
        (info.turn, 1),
        (int(info.double_offered), 1),
        (info.resign, 2),
        (die1, 3),
        (die2, 3),
        (info.match_length, _SCORE_BITS),
        (info.score[0], _SCORE_BITS),
        (info.score[1], _SCORE_BITS),
        (0 if info.jacoby else 1, 1),
    )
    bits: list[int] = []
    for value, width in fields:
        bits.extend(_field_bits(value, width))
    return _to_text(bits, _MATCH_KEY_BITS)


_MATCH_WIDTHS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, _SCORE_BITS, _SCORE_BITS, _SCORE_BITS, 1)


def decode_match_id(mid: str) -> MatchInfo:
    """The fields of a Match ID; raises NotationError for a malformed or impossible one."""
    bits = _from_text(mid, "match id", MATCH_ID_LENGTH)
    if any(bits[_MATCH_KEY_BITS:]):
        raise NotationError("match id", mid, "bits set after the 67-bit key")
    values: list[int] = []
    start = 0
    for width in _MATCH_WIDTHS:
        values.append(_field_value(bits[start : start + width]))
        start += width
    cube_log, owner, dice_owner, crawford, state, turn, doubled, resign, die1, die2 = values[:10]
    length, score0, score1, no_jacoby = values[10:]
    if owner == 2:
        raise NotationError("match id", mid, "cube owner field is 2 (expected 0, 1 or 3)")
    if (die1 == 0) != (die2 == 0) or die1 > 6 or die2 > 6:
        raise NotationError("match id", mid, f"dice {die1} and {die2} are not a roll")
    try:
        return MatchInfo(
            cube_value=1 << cube_log,
            cube_owner=None if owner == _CENTRED else owner,
            dice_owner=dice_owner,
            crawford=bool(crawford),
            game_state=state,
            turn=turn,
            double_offered=bool(doubled),
            resign=resign,
            dice=(die1, die2) if die1 else None,
            match_length=length,
            score=(score0, score1),
            jacoby=not no_jacoby,
        )
    except NotationError as error:
        raise NotationError("match id", mid, f"{error.field} {error.value}: {error.reason}") from None


# ------------------------------------------------------------- our side <-> gnubg
def game_state_of(position: BackgammonPosition) -> int:
    """The Match ID's game state a position implies by itself.

    The start position without dice is "no game started" (before the opening roll,
    the state gnubg writes for it); a finished game is "over"; anything else "playing".
    """
    if position.outcome() is not None:
        return GAME_OVER
    start = type(position).start()
    at_start = (position.points, position.bar, position.off) == (start.points, start.bar, start.off)
    return GAME_NONE if at_start and position.dice is None else GAME_PLAYING


def to_gnubg_ids(position: BackgammonPosition, info: MatchInfo | None = None) -> tuple[str, str]:
    """(Position ID, Match ID) for ``position``; ``info`` gives the match and cube.

    The dice owner and the dice always come from the position (its side to act and
    its dice, written higher die first as gnubg does). The turn is the dice owner's
    unless ``info`` says a double or a resignation is pending, when ``info.turn``
    (the player who must answer) is kept.
    Without ``info`` this is money play with the cube centred at 1 and the game
    state of :func:`game_state_of`.
    """
    player = GNUBG_PLAYER[position.side]
    if info is None:
        info = MatchInfo(game_state=game_state_of(position))
    pending = info.double_offered or info.resign
    info = replace(info, dice_owner=player, turn=info.turn if pending else player, dice=position.dice)
    return encode_position_id(position), encode_match_id(info)


def from_gnubg_ids(pid: str, mid: str, *, game: str = "tabla") -> tuple[BackgammonPosition, MatchInfo]:
    """The position (side to act: the dice owner) and the match fields.

    The position carries the Match ID's dice only where they are a roll to play: a
    game in play, no double pending, not finished. gnubg also keeps the last dice
    in other states (a double offered, a game over); those stay in the MatchInfo.
    """
    info = decode_match_id(mid)
    side = OUR_SIDE[info.dice_owner]
    position = decode_position_id(pid, side=side, game=game)
    playable = info.game_state == GAME_PLAYING and not info.double_offered and position.outcome() is None
    if info.dice is not None and playable:
        position = position.with_roll(info.dice)
    return position, info


def split_gnubg_id(text: str) -> tuple[str, str | None]:
    """Split gnubg's combined ``PositionID:MatchID`` form; a bare Position ID gives None."""
    pid, sep, mid = text.strip().partition(":")
    return pid, (mid if sep else None)
