"""Board terms (``tavla.bots.terms``), counted by hand on small positions, and the
networks that take them as extra inputs."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.dice_positions import dice_start

import tavla
from tavla.bots.encoding import encoder_for
from tavla.bots.fast import tapa_terms as fast_terms
from tavla.bots.heuristics import HEURISTICS
from tavla.bots.network import Network
from tavla.bots.terms import (
    GAME_TERMS,
    TAPA_CHANCE_NAMES,
    longest_run,
    reference_tapa_chance_terms,
    reference_tapa_terms,
    tapa_chance_terms,
    tapa_terms,
)
from tavla.core.errors import TavlaError

pytestmark = pytest.mark.timeout(60)


def terms_of(notation: str, player: int) -> dict[str, float]:
    position = tavla.from_notation(notation)
    game = position.game
    rows = encoder_for(position).encode_many([position], player)
    return dict(zip(GAME_TERMS[game].names, GAME_TERMS[game](rows)[0].tolist(), strict=True))


def test_tabla_start() -> None:
    start = tavla.find_game("tabla").start().notation()
    for player in (0, 1):
        terms = terms_of(start, player)
        assert terms["race"] == 0 and terms["contact"] == 1
        # Points 6, 8, 13 and 24 made: the home board counts 1, 8 counts 0.4, the rest 0.1.
        assert terms["made_points"] == pytest.approx(1.6)
        assert terms["home_points"] == pytest.approx(1 / 6) and terms["prime"] == pytest.approx(1 / 6)
        assert terms["my_back_checkers"] == pytest.approx(2 / 15)
        assert terms["my_pips"] == terms["their_pips"] == pytest.approx(1.67)
        assert terms["shots_at_my_blots"] == terms["shots_at_his_blots"] == 0


def test_tabla_blots_bar_and_race() -> None:
    # White: blots on 5 (Black's two on 1 are 4 pips behind it) and 20 (Black's on 17
    # and 19 are behind it), one checker on the bar.
    notation = "tabla 2b/-/-/-/1w/5w/-/3w/-/-/-/5b/4w/-/-/-/3b/-/5b/1w/-/-/-/- 1,0 0,0 w -"
    terms = terms_of(notation, 0)
    # Direct shots at both blots, each weighted by how far it came (0.5 + point / 24).
    shots = (0.5 + 5 / 24) + (0.5 + 20 / 24)
    assert terms["shots_at_my_blots"] == pytest.approx(shots)
    assert terms["my_bar"] == 1 and terms["their_bar"] == 0
    white = 5 + 30 + 24 + 52 + 20 + 25
    black = 2 * 24 + 5 * 13 + 3 * 8 + 5 * 6
    assert terms["race"] == pytest.approx((black - white) / 25)
    assert terms["my_back_checkers"] == pytest.approx(2 / 15)  # the one on 20 and the one on the bar
    # Seen by Black, the same shots are at his opponent's blots.
    black_terms = terms_of(notation, 1)
    assert black_terms["shots_at_his_blots"] == pytest.approx(shots)
    assert black_terms["their_bar"] == 1 and black_terms["shots_at_my_blots"] == 0


def test_tapa_exposure_and_race() -> None:
    # White's lone checkers on 7 (direct from Black's on 2) and 11 (indirect, 0.4);
    # Black's lone checker on 2 is 5 pips in front of White's on 7.
    notation = "tapa 14b/1b/-/-/-/-/1w/-/-/-/1w/-/-/-/-/-/-/-/-/-/-/-/-/13w 0,0 0,0 w -"
    white, black = terms_of(notation, 0), terms_of(notation, 1)
    assert white["exposure"] == pytest.approx(1.4) and white["his_exposure"] == 1
    assert black["exposure"] == 1 and black["his_exposure"] == pytest.approx(1.4)
    assert white["race"] == pytest.approx((14 * 24 + 23 - (13 * 24 + 7 + 11)) / 25) == -black["race"]
    assert white["made_points"] == 1 and white["pins"] == 0


def test_tapa_pins() -> None:
    # White pins a Black checker on White's 4 (far from Black's home: 1 + 21/24).
    notation = "tapa 14b/-/-/1b1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/14w 0,0 0,0 b -"
    white = terms_of(notation, 0)
    assert white["their_pinned"] == 1 and white["my_pinned"] == 0
    assert white["pins"] == pytest.approx(1 + 21 / 24)
    assert terms_of(notation, 1)["pins"] == pytest.approx(-(1 + 21 / 24))


def tapa_rows_of_random_games(games: int, seed: int) -> np.ndarray:
    """Every afterstate row of ``games`` tapa games played by random turns."""
    from tavla.bots.afterstates import afterstates

    rng = random.Random(seed)
    rows = []
    for _ in range(games):
        position = dice_start("tapa").with_side(rng.randrange(2))
        while position.outcome() is None:
            if position.is_chance:
                position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
            found = afterstates(position)
            rows.append(found.features)
            position = found.after(rng.randrange(len(found.features)))
    return np.concatenate(rows)


def test_compiled_tapa_terms_are_the_reference_to_the_last_bit() -> None:
    """The compiled terms (numba, or the same loops in Python without it) give the numpy
    reference's numbers exactly, so a network or the heuristic plays alike either way."""
    rows = tapa_rows_of_random_games(12, seed=3)
    expected = reference_tapa_chance_terms(rows)
    names = TAPA_CHANCE_NAMES
    # Random games pin checkers and mothers of both sides: every term is exercised.
    assert all(np.count_nonzero(expected[:, names.index(name)]) > 10 for name in names)
    assert np.array_equal(fast_terms.tapa_chance_terms(rows.astype(np.float64)), expected)
    assert np.array_equal(tapa_chance_terms(rows), expected)
    assert np.array_equal(tapa_terms(rows), reference_tapa_terms(rows))


def test_the_longest_run_of_held_points_is_counted_as_a_player_counts_a_prime() -> None:
    rng = np.random.default_rng(5)
    held = rng.random((400, 24)) < rng.random((400, 1))  # from nearly open boards to nearly closed ones
    held[0], held[1] = False, True

    def counted(row: np.ndarray) -> int:
        best = run = 0
        for point in row:
            run = run + 1 if point else 0
            best = max(best, run)
        return best

    assert longest_run(held).tolist() == [counted(row) for row in held]
    assert longest_run(held)[:2].tolist() == [0, 24]


def test_gulbara_blocks() -> None:
    # White holds 10, two pips in front of Black's checkers on 12; Black holds 20,
    # four pips in front of White's checkers on 24.
    notation = "gulbara -/-/-/-/-/-/-/-/-/1w/-/14b/-/-/-/-/-/-/-/1b/-/-/-/14w 0,0 0,0 w - r=0,0"
    white = terms_of(notation, 0)
    assert white["blocking"] == 1 and white["his_blocking"] == 1 and white["held_points"] == 2


@pytest.mark.parametrize("game", sorted(GAME_TERMS))
def test_terms_follow_the_board_not_the_side_to_act(game: str) -> None:
    """The heuristics are a weighting of the terms: both change with the board."""
    start = tavla.find_game(game).start()
    rows = encoder_for(start).encode_many([start, start.with_side(1)], 0)
    values = GAME_TERMS[game](rows)
    assert np.array_equal(values[0], values[1])
    assert np.isfinite(HEURISTICS[game](rows)).all()


def test_a_network_with_terms_takes_them_after_the_encoding(tmp_path: Path) -> None:
    network = Network.create("tapa", hidden=8, seed=2, terms=True)
    raw = Network.create("tapa", hidden=8, seed=2)
    terms = GAME_TERMS["tapa"]
    assert network.inputs == raw.inputs + len(terms.names)
    start = tavla.find_game("tapa").start()
    rows = encoder_for(start).encode_many([start], 0)
    prepared = network.prepare(rows)
    assert np.array_equal(prepared[:, : raw.inputs], rows)
    assert prepared[0, raw.inputs :] == pytest.approx(terms.inputs(rows)[0])
    # The terms' weights matter: changing them changes the estimate.
    before = network.evaluate(rows[0])
    network.w1[raw.inputs :] += 0.5
    assert not np.allclose(before, network.evaluate(rows[0]))
    loaded = Network.load(network.save(tmp_path / "tapa"))
    assert loaded.evaluate(rows[0]) == pytest.approx(network.evaluate(rows[0]))
    assert loaded.metadata["terms"] == list(terms.names)


def test_weights_made_with_other_terms_are_refused(tmp_path: Path) -> None:
    network = Network.create("gulbara", hidden=4, seed=1, terms=True)
    network.metadata["terms"] = ["race", "something_else"]
    with pytest.raises(TavlaError, match="other board terms"):
        Network.load(network.save(tmp_path / "old"))
    network.metadata["terms"] = list(GAME_TERMS["gulbara"].names)
    network.metadata["term_sizes"] = [1.0] * len(GAME_TERMS["gulbara"].names)
    with pytest.raises(TavlaError, match="scaled otherwise"):
        Network.load(network.save(tmp_path / "rescaled"))
    with pytest.raises(TavlaError, match="indiyka has no board terms"):
        Network.create("indiyka", terms=True)
    # Weights whose rows do not match the inputs their metadata names: both counts told.
    network.metadata["term_sizes"] = GAME_TERMS["gulbara"].divisors().tolist()
    network.metadata["inputs"] = network.inputs + 1
    with pytest.raises(TavlaError, match=rf"^{network.inputs} weight rows for {network.inputs + 1} inputs$"):
        Network.load(network.save(tmp_path / "short"))


def test_a_tabla_network_may_take_the_next_rolls_chances_too(tmp_path: Path) -> None:
    board_only = Network.create("tabla", hidden=4, seed=3, terms=True)
    with_chances = Network.create("tabla", hidden=4, seed=3, terms="chances")
    assert with_chances.inputs == board_only.inputs + 4
    assert (board_only.term_label, with_chances.term_label) == ("board", "chances")
    assert Network.create("tabla", hidden=4).term_label is None
    # A blot of White's on 14 with a checker of Black's 6 pips behind: 17 rolls hit it.
    position = tavla.from_notation("tabla 14w/-/-/-/-/-/-/1b/-/-/-/-/-/1w/-/-/-/-/-/-/-/-/-/14b 0,0 0,0 b -")
    rows = encoder_for(position).encode_many([position], 0)
    prepared = with_chances.prepare(rows)[0]
    hit = rows.shape[1] + with_chances.metadata["terms"].index("his_hit_chance")
    assert prepared[hit] == pytest.approx(17 / 36)
    loaded = Network.load(with_chances.save(tmp_path / "chances"))
    assert loaded.term_label == "chances" and loaded.evaluate(rows[0]) == pytest.approx(
        with_chances.evaluate(rows[0])
    )
    with pytest.raises(TavlaError, match="no board terms called 'shots'"):
        Network.create("tabla", terms="shots")


def test_tabla_shots_from_the_bar() -> None:
    # Black has one on the bar and nothing else behind White's blot on 3: only a 3
    # entering hits it, a direct shot (the blot counted 0.5 + 3 / 24).
    notation = "tabla -/-/1w/-/-/6w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/6b/-/-/-/-/- 0,1 0,0 w -"
    shots = 0.5 + 3 / 24
    white, black = terms_of(notation, 0), terms_of(notation, 1)
    assert white["shots_at_my_blots"] == pytest.approx(shots) and white["their_bar"] == 1
    assert black["shots_at_his_blots"] == pytest.approx(shots) and black["my_bar"] == 1
    assert white["shots_at_his_blots"] == black["shots_at_my_blots"] == 0
