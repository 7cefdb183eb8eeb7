"""Provably fair dice: each game's dice follow from two seeds, checkable afterwards.

The scheme ``hmac-sha256-v1`` (docs/fair-dice.md tells it for players):

- The server draws a fresh **server seed** for every game, 32 random bytes written as
  64 lowercase hex digits, and publishes its **commitment** ``sha256(seed bytes)`` in
  hex before the first die of that game. The seed itself stays secret until the game
  is over.
- The **client seed** is text the players chose (:func:`join_client_seeds` joins the
  two players' seeds), UTF-8 encoded.
- Die number ``i`` of the game (0, 1, 2, ... counting every die drawn, the opening
  roll's equal dice that are rolled again included) is read from the bytes of
  ``HMAC-SHA256(key=seed bytes, msg="<client seed>:<i>")``, then of
  ``msg="<client seed>:<i>:1"``, ``":2"`` ... : the first byte below 252 gives the die
  ``byte % 6 + 1``. 252 is the largest multiple of 6 that fits in a byte, so every face
  has 42 bytes of the 252 accepted: no face is favoured (a plain ``byte % 6`` over all
  256 bytes would favour 1-4). A whole digest rejected has odds of (4/256)^32, about
  2^-192: the extension exists for the definition to be complete, not because it
  happens.

Nothing here reads a clock or a file: the same seeds always give the same dice.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Iterator

from tavla.core.errors import NotationError

SCHEME = "hmac-sha256-v1"
"""The name records carry for this derivation; a changed derivation gets a new name."""

SEED_BYTES = 32
ACCEPT_BELOW = 252
"""Bytes 252-255 are rejected: 252 = 6 x 42 keeps the six faces equally likely."""
PLAYER_SEED_LIMIT = 64
"""The longest seed one player may choose, in characters."""
SEPARATOR = ":"
CLIENT_SEED_LIMIT = 2 * PLAYER_SEED_LIMIT + len(SEPARATOR)

_HEX_SEED = re.compile(r"[0-9a-f]{64}")


def new_server_seed() -> str:
    """A fresh server seed from the operating system's cryptographic source."""
    return secrets.token_hex(SEED_BYTES)


def seed_chain(last_seed: str, games: int) -> list[str]:
    """The server seeds of ``games`` games, each the commitment of the next one.

    Game g plays ``chain[g - 1]``; ``chain[k] == commitment(chain[k + 1])``. Publishing
    ``commitment(chain[0])`` before any player chooses a seed binds the server to the
    seeds of every game of the match: each revealed seed is the next game's commitment.
    """
    if games < 1:
        raise ValueError("a chain has one game or more")
    chain = [last_seed]
    check_server_seed(last_seed, "last_seed")
    for _ in range(games - 1):
        chain.append(commitment(chain[-1]))
    chain.reverse()
    return chain


def is_hex_digest(text: str) -> bool:
    """64 lowercase hex digits: the one way seeds and commitments are written."""
    return _HEX_SEED.fullmatch(text) is not None


def check_server_seed(server_seed: str, field: str = "server_seed") -> bytes:
    """The seed's 32 bytes; NotationError naming ``field`` unless it is 64 lowercase hex digits."""
    if not is_hex_digest(server_seed):
        raise NotationError(field, server_seed[:70], "expected 64 lowercase hex digits (32 bytes)")
    return bytes.fromhex(server_seed)


def commitment(server_seed: str) -> str:
    """The SHA-256 of the seed's bytes in hex: published before the game, it binds the
    server to the seed without telling it."""
    return hashlib.sha256(check_server_seed(server_seed)).hexdigest()


def _check_text(text: str, field: str, limit: int) -> None:
    if not text:
        raise NotationError(field, text, "a seed may not be empty")
    if len(text) > limit:
        raise NotationError(field, text[:70], f"a seed has at most {limit} characters")
    if not text.isprintable():
        # Control characters would make a seed look the same as another when shown.
        raise NotationError(field, text, "a seed has printable characters only")


def check_client_seed(client_seed: str, field: str = "client_seed") -> str:
    """``client_seed`` if it is 1..129 printable characters; NotationError otherwise."""
    _check_text(client_seed, field, CLIENT_SEED_LIMIT)
    return client_seed


def join_client_seeds(seat0: str, seat1: str) -> str:
    """The client seed of a game: seat 0's seed, ``:``, seat 1's seed.

    Each seed is 1..64 printable characters without ``:``, so the joined text splits
    back into the two seeds in exactly one way and neither player can pose as having
    chosen part of the other's seed. NotationError naming the seat otherwise.
    """
    for seat, seed in enumerate((seat0, seat1)):
        field = f"seat {seat} seed"
        _check_text(seed, field, PLAYER_SEED_LIMIT)
        if SEPARATOR in seed:
            raise NotationError(field, seed, f"a player's seed may not contain {SEPARATOR!r}")
    return f"{seat0}{SEPARATOR}{seat1}"


def die_messages(client_seed: str, index: int) -> Iterator[bytes]:
    """The HMAC messages of die ``index``: ``<client>:<index>``, then ``<client>:<index>:<j>``.

    The index has no ``:``, so within one game (one client seed) no two messages are equal.
    """
    base = f"{client_seed}{SEPARATOR}{index}"
    yield base.encode()  # UTF-8, as every message
    extension = 1
    while True:
        yield f"{base}{SEPARATOR}{extension}".encode()
        extension += 1


def die_from_digests(digests: Iterable[bytes]) -> int:
    """The die the digests' bytes give: the first byte below 252, as ``byte % 6 + 1``."""
    for digest in digests:
        for byte in digest:
            if byte < ACCEPT_BELOW:
                return byte % 6 + 1
    raise ValueError("the digests ran out before a byte below 252")


def die_at(key: bytes, client_seed: str, index: int) -> int:
    """Die number ``index`` of the game with server seed bytes ``key`` and ``client_seed``."""
    digests = (hmac.digest(key, message, "sha256") for message in die_messages(client_seed, index))
    return die_from_digests(digests)


class FairDice:
    """The dice of one game from its server seed and client seed (a :class:`DiceSource`).

    ``dice_drawn`` counts the dice given so far, which is the index of the next one.
    The ``repr`` shows the commitment, never the seed: a logged object tells nothing.
    """

    def __init__(self, server_seed: str, client_seed: str) -> None:
        self._key = check_server_seed(server_seed)
        self._server_seed = server_seed
        self._client_seed = check_client_seed(client_seed)
        self._commitment = hashlib.sha256(self._key).hexdigest()
        self.dice_drawn = 0

    # Read-only: a seed changed after the commitment was published would break the proof.
    @property
    def server_seed(self) -> str:
        return self._server_seed

    @property
    def client_seed(self) -> str:
        return self._client_seed

    @property
    def commitment(self) -> str:
        return self._commitment

    @classmethod
    def new(cls, client_seed: str) -> FairDice:
        """The dice of a new game with a fresh secret server seed."""
        return cls(new_server_seed(), client_seed)

    def die(self) -> int:
        value = die_at(self._key, self._client_seed, self.dice_drawn)
        self.dice_drawn += 1
        return value

    def __repr__(self) -> str:
        shown = f"commitment={self._commitment!r}, client_seed={self._client_seed!r}"
        return f"FairDice({shown}, dice_drawn={self.dice_drawn})"
