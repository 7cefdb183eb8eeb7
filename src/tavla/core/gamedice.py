"""What a record keeps of one game's fair dice (docs/records.md, docs/fair-dice.md).

``{"scheme": "hmac-sha256-v1", "commitment": ..., "client_seed": ..., "server_seed": ...}``,
the server seed ``null`` while the game is being played: revealing it earlier would
let anyone compute the rest of the game's dice.

Reading checks the shape of every value, not that the seed matches the commitment:
a record whose dice do not verify is still a record, and saying so is the
verifier's job (:mod:`tavla.core.diceverify`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tavla.core.errors import NotationError
from tavla.core.fairdice import SCHEME, FairDice, check_client_seed, check_server_seed, is_hex_digest
from tavla.core.jsonread import member, shown, want_object, want_str

_KEYS = ("scheme", "commitment", "client_seed", "server_seed")


@dataclass(frozen=True)
class GameDice:
    """One game's commitment, client seed and (once the game is over) server seed."""

    commitment: str
    client_seed: str
    server_seed: str | None = None
    scheme: str = SCHEME

    @classmethod
    def of(cls, dice: FairDice, *, reveal: bool) -> GameDice:
        """The entry of the game ``dice`` roll for; ``reveal`` only once that game is over."""
        return cls(dice.commitment, dice.client_seed, dice.server_seed if reveal else None)

    def to_json(self) -> dict[str, Any]:
        return {
            "scheme": self.scheme,
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "server_seed": self.server_seed,
        }

    @classmethod
    def from_json(cls, data: object, field: str = "dice") -> GameDice:
        """Read one entry; NotationError naming ``field.key`` of the first wrong value."""
        item = want_object(data, field)
        unknown = sorted(set(item) - set(_KEYS))
        if unknown:
            raise NotationError(f"{field}.{unknown[0]}", shown(item[unknown[0]]), "not a key of fair dice")
        scheme = want_str(member(item, "scheme", field), f"{field}.scheme")
        if scheme != SCHEME:
            raise NotationError(f"{field}.scheme", scheme, f"expected {SCHEME!r} (the one scheme known)")
        committed = want_str(member(item, "commitment", field), f"{field}.commitment")
        if not is_hex_digest(committed):
            raise NotationError(f"{field}.commitment", committed[:70], "expected 64 lowercase hex digits")
        client_seed = want_str(member(item, "client_seed", field), f"{field}.client_seed")
        check_client_seed(client_seed, f"{field}.client_seed")
        value = member(item, "server_seed", field)
        seed = None if value is None else want_str(value, f"{field}.server_seed")
        if seed is not None:
            check_server_seed(seed, f"{field}.server_seed")
        return cls(committed, client_seed, seed)
