"""The evaluator: shapes, masks, batched rows, saving and the shipped weights."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.dice_positions import dice_start

import tavla
from tavla.bots.afterstates import afterstates
from tavla.bots.encoding import encoder_for
from tavla.bots.network import Network, shipped_games
from tavla.bots.outcomes import equity, flip, output_mask
from tavla.bots.players import network_player
from tavla.bots.playout import random_playout
from tavla.core.errors import TavlaError

DICE_GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka")


def rolled_positions(game: str, seed: int, count: int) -> list[Any]:
    """Positions with small turn sets met in a seeded random game."""
    found: list[Any] = []

    def keep(before: Any, after: Any) -> None:
        if len(found) < count and before.legal_turns_within(300) is not None:
            found.append(before)

    rng = random.Random(seed)
    random_playout(dice_start(game).with_side(rng.randrange(2)), rng, on_turn=keep)
    return found


@pytest.mark.parametrize("game", DICE_GAMES)
def test_shapes_and_chances(game: str) -> None:
    network = Network.create(game, hidden=16, seed=3)
    assert network.inputs == encoder_for(tavla.find_game(game).position_class).size
    position = rolled_positions(game, seed=1, count=1)[0]
    rows = afterstates(position).features
    estimates = network.evaluate(rows)
    assert estimates.shape == (len(rows), 5)
    assert ((estimates >= 0) & (estimates <= 1)).all()
    assert network.evaluate(rows[0]).shape == (5,)
    assert network.equities(rows) == pytest.approx(equity(estimates))


def test_impossible_gammons_are_masked() -> None:
    network = Network.create("indiyka", hidden=8, seed=1)
    network.b2[:] = 5.0  # whatever the weights say
    rows = afterstates(rolled_positions("indiyka", seed=2, count=1)[0]).features
    estimates = network.evaluate(rows)
    assert (estimates[:, 1:] == 0).all()
    assert (estimates[:, 0] > 0.9).all()


@pytest.mark.parametrize("game", ["tabla", "tapa", "gulbara"])
def test_batched_rows_equal_one_by_one(game: str) -> None:
    network = Network.create(game, hidden=24, seed=5)
    for position in rolled_positions(game, seed=4, count=5):
        rows = afterstates(position).features
        batched = network.evaluate(rows)
        for index, row in enumerate(rows):
            assert network.evaluate(row) == pytest.approx(batched[index], abs=1e-12)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    network = Network.create("tapa", hidden=12, seed=9)
    network.metadata["games"] = 17
    path = network.save(tmp_path / "tapa")
    assert path.suffix == ".npz" and (tmp_path / "tapa.json").exists()
    loaded = Network.load(path)
    for name, array in network.arrays().items():
        assert np.array_equal(getattr(loaded, name), array)
    assert loaded.metadata == network.metadata
    assert json.loads((tmp_path / "tapa.json").read_text())["games"] == 17


SHIPPED = [(game, False) for game in shipped_games()] + [
    (game, True) for game in shipped_games() if Network.shipped_policy(game) is not None
]


@pytest.mark.parametrize(("game", "policy"), SHIPPED)
def test_shipped_weights_say_how_they_were_made(game: str, policy: bool) -> None:
    network = Network.shipped_policy(game) if policy else Network.shipped(game)
    assert network is not None
    metadata = network.metadata
    assert metadata["game"] == game
    made_by = ("tavla train --game", "tavla teach --game", "tavla distill --game")
    assert metadata["command"].startswith(made_by)
    for key in ("seed", "games", "date", "encoder", "inputs", "hidden"):
        assert key in metadata
    terms = len(metadata.get("terms", ()))
    encoded = encoder_for(tavla.find_game(game).position_class).size
    assert network.inputs == metadata["inputs"] == encoded + terms
    position = rolled_positions(game, seed=6, count=1)[0]
    turn = network_player(network).choose(position)
    assert position.parse_turn(turn.text).after == turn.after


def test_shipped_weights_are_small() -> None:
    """Issue 12: a few MB in all, the policy networks included."""
    folder = Path(tavla.__file__).parent / "bots" / "weights"
    files = [path for path in folder.rglob("*") if path.is_file()]
    assert any(path.parent.name == "policy" for path in files)
    assert sum(path.stat().st_size for path in files) < 4_000_000


@pytest.mark.parametrize("game", ["tapa", "gulbara"])
def test_a_policy_ships_for_tapa_and_gulbara(game: str) -> None:
    """Their policies (``tavla distill``) have the shipped networks' inputs; the games
    without one get None, not an error."""
    policy = Network.shipped_policy(game)
    assert policy is not None
    assert policy.inputs == Network.shipped(game).inputs and policy.hidden == Network.shipped(game).hidden
    assert policy.metadata["command"].startswith(f"tavla distill --game {game} --decisions")
    assert policy.metadata["games"] > Network.shipped(game).metadata["games"]


def test_the_games_without_a_policy_get_none() -> None:
    assert [game for game in shipped_games() if Network.shipped_policy(game) is not None] == [
        "gulbara",
        "tapa",
    ]
    assert Network.shipped_policy("tabla") is None
    assert Network.shipped_policy("nosuch") is None


def test_chances_of_a_position_awaiting_a_roll_from_either_side() -> None:
    network = Network.create("tabla", hidden=8, seed=4)
    position = rolled_positions("tabla", seed=3, count=1)[0]
    turn = network_player(network).choose(position)
    after = turn.after  # the opponent rolls next
    mover = position.side
    found = afterstates(position)
    row = found.features[found.texts.index(turn.text)]
    assert network.chances(after, mover) == pytest.approx(network.evaluate(row))
    assert network.chances(after, 1 - mover) == pytest.approx(flip(network.evaluate(row)))


def test_no_shipped_weights_is_a_clear_error() -> None:
    with pytest.raises(TavlaError, match="tavla train --game nosuch"):
        Network.shipped("nosuch")


def test_a_network_starts_one_of_a_game_on_the_same_board() -> None:
    """Tabla's weights may start chelebi's (RULES 4: tabla but for its doubles)."""
    tabla = Network.create("tabla", hidden=8, seed=2, terms=True)
    tabla.metadata.update(games=40, benchmark="measured in tabla", command="tavla teach --game tabla")
    chelebi = tabla.for_game("chelebi")
    assert chelebi.game == "chelebi" and chelebi.metadata["init_game"] == "tabla"
    assert chelebi.metadata["games"] == 40 and chelebi.metadata["command"] == "tavla teach --game tabla"
    assert "benchmark" not in chelebi.metadata and tabla.metadata["benchmark"] == "measured in tabla"
    assert chelebi.term_label == tabla.term_label
    chelebi.w1[0, 0] += 1.0  # a copy: training the new network leaves the old one alone
    assert chelebi.w1[0, 0] != tabla.w1[0, 0]
    position = rolled_positions("chelebi", seed=5, count=1)[0]
    rows = afterstates(position).features
    assert np.array_equal(tabla.for_game("chelebi").evaluate(rows), tabla.evaluate(rows))
    assert tabla.for_game("tabla") is tabla


@pytest.mark.parametrize(
    ("source", "game", "differ"),
    [
        ("tabla", "tapa", "boards"),
        ("tabla", "gulbara", "boards"),
        ("tabla", "indiyka", "boards"),
        ("tapa", "tabla", "boards"),
    ],
)
def test_a_network_of_another_board_cannot_start_a_game(source: str, game: str, differ: str) -> None:
    network = Network.create(source, hidden=4, seed=1)
    with pytest.raises(
        TavlaError, match=f"a network of {source} cannot start one of {game}: their {differ} differ"
    ):
        network.for_game(game)


def test_a_network_for_other_results_cannot_start_a_game() -> None:
    network = Network.create("tabla", hidden=4, seed=1)
    network.mask = output_mask("indiyka")  # weights that never learnt a gammon
    with pytest.raises(TavlaError, match="cannot start one of chelebi: their results differ"):
        network.for_game("chelebi")


def test_a_widened_network_estimates_as_before_and_learns_with_its_new_units() -> None:
    network = Network.create("tapa", hidden=6, seed=3, terms=True)
    wide = network.widened(10, seed=4)
    assert (wide.hidden, wide.inputs) == (10, network.inputs)
    assert wide.metadata["hidden"] == 10 and wide.metadata["widened_from"] == 6
    position = rolled_positions("tapa", seed=2, count=1)[0]
    rows = afterstates(position).features
    np.testing.assert_allclose(wide.evaluate(rows), network.evaluate(rows), rtol=0, atol=1e-12)
    # The new units see the inputs (they are not dead) but weigh nothing in the outputs yet.
    assert np.all(wide.w1[:, 6:] != 0) and not np.any(wide.w2[6:])
    assert np.array_equal(wide.w1[:, :6], network.w1) and np.array_equal(wide.w2[:6], network.w2)
    assert network.hidden == 6  # the original is left as it was
    same = network.widened(6)
    assert same.hidden == 6 and "widened_from" not in same.metadata
    with pytest.raises(TavlaError, match="a network of 6 hidden units cannot be narrowed to 4"):
        network.widened(4)


def test_weights_given_more_terms_estimate_as_before_and_learn_from_them() -> None:
    """``with_terms``: tapa's board terms extended by the pin chances, or any set given to
    raw weights, the new inputs first weighing nothing."""
    board = Network.create("tapa", hidden=6, seed=3, terms=True)
    raw = Network.create("tapa", hidden=6, seed=3)
    rows = afterstates(rolled_positions("tapa", seed=4, count=1)[0]).features
    for network in (board, raw):
        extended = network.with_terms("chances")
        assert extended.term_label == "chances" and extended.inputs == rows.shape[1] + 16
        assert extended.metadata["inputs"] == extended.inputs
        assert extended.metadata["terms_extended_from"] == network.term_label
        np.testing.assert_allclose(extended.evaluate(rows), network.evaluate(rows), rtol=0, atol=1e-12)
        assert np.array_equal(extended.w1[: network.inputs], network.w1)
        assert not np.any(extended.w1[network.inputs :])
    # Its inputs are really the chances: a weight on Black's chance to pin White's lone
    # checker on 8 (18 rolls of 36) moves White's estimate.
    pinnable = tavla.from_notation("tapa 14b/-/-/-/1b/-/-/1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/14w 0,0 0,0 b -")
    row = encoder_for(pinnable).encode_many([pinnable], 0)
    extended = board.with_terms("chances")
    assert extended.prepare(row)[0, -4] == pytest.approx(18 / 36)
    extended.w1[-4] = 5.0
    assert not np.allclose(extended.evaluate(row), board.evaluate(row))
    same = extended.with_terms("chances")
    assert "terms_extended_from" in same.metadata and same.inputs == extended.inputs
    with pytest.raises(TavlaError, match="the set 'board' does not extend them"):
        board.with_terms("chances").with_terms("board")
    with pytest.raises(TavlaError, match="the set 'chances' does not extend them"):
        Network.create("gulbara", hidden=4, terms=True).with_terms("chances")
