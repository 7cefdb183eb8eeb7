"""The fair-dice scheme hmac-sha256-v1 (docs/fair-dice.md): a pinned vector checked
against an independent derivation, determinism, rejection sampling, the seeds and the
entries that records keep of them."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from tavla.core.dicestats import dice_stats
from tavla.core.errors import NotationError
from tavla.core.fairdice import (
    ACCEPT_BELOW,
    SCHEME,
    FairDice,
    check_client_seed,
    check_server_seed,
    commitment,
    die_from_digests,
    die_messages,
    join_client_seeds,
    new_server_seed,
    seed_chain,
)
from tavla.core.gamedice import GameDice

SEED = bytes(range(32)).hex()
CLIENT = "alice:bob"
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
FIRST_DICE = [3, 6, 3, 4, 2, 1, 3, 4, 3, 4, 4, 6, 2, 2, 6, 2, 2, 6, 4, 1]
REJECTED_FIRST_BYTE = 27
"""Die 27 of the vector: its digest begins with 0xfe, so its second byte (0x9c) decides."""


def reference_die(seed_hex: str, client_seed: str, index: int) -> int:
    """The derivation as docs/fair-dice.md states it, written again with hmac alone."""
    key = bytes.fromhex(seed_hex)
    message = f"{client_seed}:{index}"
    extension = 0
    while True:
        digest = hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:
                return byte % 6 + 1
        extension += 1
        message = f"{client_seed}:{index}:{extension}"


def test_the_pinned_vector() -> None:
    assert SCHEME == "hmac-sha256-v1"
    assert commitment(SEED) == COMMITMENT == hashlib.sha256(bytes(range(32))).hexdigest()
    dice = FairDice(SEED, CLIENT)
    assert dice.commitment == COMMITMENT
    assert [dice.die() for _ in FIRST_DICE] == FIRST_DICE
    assert dice.dice_drawn == len(FIRST_DICE)


def test_the_vector_agrees_with_an_independent_derivation() -> None:
    dice = FairDice(SEED, CLIENT)
    assert [dice.die() for _ in range(400)] == [reference_die(SEED, CLIENT, i) for i in range(400)]


def test_a_rejected_byte_passes_the_choice_to_the_next() -> None:
    digest = hmac.digest(bytes(range(32)), f"{CLIENT}:{REJECTED_FIRST_BYTE}".encode(), "sha256")
    assert digest[0] >= ACCEPT_BELOW and digest[1] == 0x9C
    dice = FairDice(SEED, CLIENT)
    drawn = [dice.die() for _ in range(REJECTED_FIRST_BYTE + 1)]
    assert drawn[REJECTED_FIRST_BYTE] == 0x9C % 6 + 1 == 1


def test_same_seeds_same_dice_other_seeds_other_dice() -> None:
    def first(seed: str, client: str) -> list[int]:
        dice = FairDice(seed, client)
        return [dice.die() for _ in range(40)]

    assert first(SEED, CLIENT) == first(SEED, CLIENT)
    assert first(SEED, CLIENT) != first(SEED, "bob:alice")
    assert first(SEED, CLIENT) != first("ff" * 32, CLIENT)


def test_every_face_has_42_accepted_bytes_and_no_rejected_byte_is_mapped() -> None:
    """No modulo bias by construction: 252 = 6 x 42 bytes accepted, 252-255 never used."""
    faces = Counter(die_from_digests([bytes([byte])]) for byte in range(ACCEPT_BELOW))
    assert faces == dict.fromkeys(range(1, 7), 42)
    for byte in range(ACCEPT_BELOW, 256):
        with pytest.raises(ValueError):
            die_from_digests([bytes([byte] * 32)])


def test_a_wholly_rejected_digest_extends_to_the_next_message() -> None:
    assert die_from_digests([bytes([255] * 32), bytes([252, 7])]) == 7 % 6 + 1
    messages = die_messages("a:b", 12)
    assert [next(messages) for _ in range(3)] == [b"a:b:12", b"a:b:12:1", b"a:b:12:2"]


def test_dice_of_fixed_seeds_look_uniform() -> None:
    """A sanity bound, not a proof: with these fixed seeds the test cannot flake."""
    dice = FairDice(hashlib.sha256(b"uniformity").hexdigest(), "seat0:seat1")
    rolls = [(dice.die(), dice.die()) for _ in range(30_000)]
    stats = dice_stats(rolls)
    assert stats.p_value > 0.001 and stats.doubles_p_value > 0.001
    assert all(abs(share - 1 / 6) < 0.01 for share in stats.face_shares)


def test_new_server_seeds_are_fresh_hex_and_the_repr_hides_them() -> None:
    first, second = new_server_seed(), new_server_seed()
    assert first != second and len(first) == 64 and int(first, 16) >= 0
    dice = FairDice.new(CLIENT)
    assert dice.commitment == commitment(dice.server_seed)
    assert dice.server_seed not in repr(dice) and dice.commitment in repr(dice)


def test_the_seeds_of_fair_dice_cannot_be_changed() -> None:
    dice = FairDice(SEED, CLIENT)
    with pytest.raises(AttributeError):
        dice.server_seed = "ff" * 32  # type: ignore[misc]


@pytest.mark.parametrize("seed", ["", "00" * 31, "00" * 33, "AB" * 32, "zz" * 32, " " + "0" * 63])
def test_malformed_server_seeds_are_refused(seed: str) -> None:
    with pytest.raises(NotationError, match="server_seed"):
        FairDice(seed, CLIENT)
    with pytest.raises(NotationError):
        commitment(seed)


def test_join_client_seeds() -> None:
    assert join_client_seeds("alice", "bob") == "alice:bob"
    assert join_client_seeds("ä" * 64, "ğ") == "ä" * 64 + ":ğ"
    refused = [("a:b", "c", 0), ("a", "", 1), ("", "b", 0), ("a", "x" * 65, 1), ("a\n", "b", 0)]
    for seat0, seat1, seat in refused:
        with pytest.raises(NotationError, match=f"seat {seat} seed"):
            join_client_seeds(seat0, seat1)


def test_client_seeds_are_printable_and_bounded() -> None:
    assert check_client_seed("x" * 129) == "x" * 129
    for bad in ["", "x" * 130, "tab\there", "\udc80"]:
        with pytest.raises(NotationError, match="client_seed"):
            FairDice(SEED, bad)


def test_a_seed_chain_ends_with_the_last_seed_and_each_seed_commits_to_the_next() -> None:
    chain = seed_chain(SEED, 3)
    assert chain == [commitment(commitment(SEED)), commitment(SEED), SEED]
    assert chain[1] == COMMITMENT
    assert seed_chain(SEED, 1) == [SEED]


def test_a_malformed_server_seed_says_what_a_seed_is() -> None:
    with pytest.raises(NotationError) as raised:
        check_server_seed("AB" * 32, "games[2].server_seed")
    error = raised.value
    assert (error.field, error.value, error.reason) == (
        "games[2].server_seed",
        "AB" * 32,
        "expected 64 lowercase hex digits (32 bytes)",
    )


@pytest.mark.parametrize(
    ("seed", "reason"),
    [
        ("", "a seed may not be empty"),
        ("x" * 130, "a seed has at most 129 characters"),
        ("tab\there", "a seed has printable characters only"),
    ],
)
def test_a_bad_client_seed_is_named_client_seed_with_the_reason(seed: str, reason: str) -> None:
    with pytest.raises(NotationError) as raised:
        check_client_seed(seed)
    error = raised.value
    assert (error.field, error.value, error.reason) == ("client_seed", seed[:70], reason)


def test_fair_dice_entries_of_another_scheme_name_the_scheme() -> None:
    entry = GameDice(COMMITMENT, CLIENT, SEED).to_json()
    assert GameDice.from_json(entry) == GameDice(COMMITMENT, CLIENT, SEED)
    with pytest.raises(NotationError) as raised:
        GameDice.from_json({**entry, "scheme": "hmac-sha512-v2"}, "games[1].dice")
    error = raised.value
    assert (error.field, error.value, error.reason) == (
        "games[1].dice.scheme",
        "hmac-sha512-v2",
        "expected 'hmac-sha256-v1' (the one scheme known)",
    )
    with pytest.raises(NotationError) as raised:
        GameDice.from_json({**entry, "scheme": 1}, "games[1].dice")
    error = raised.value
    assert (error.field, error.value, error.reason) == ("games[1].dice.scheme", "1", "expected a string")
