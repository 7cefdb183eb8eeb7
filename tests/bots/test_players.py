"""Baseline players (random, heuristic, pubeval, network) only ever play legal turns."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.dice_positions import dice_position, dice_start

import tavla
from tavla.bots import duel as duel_module
from tavla.bots.afterstates import afterstates
from tavla.bots.baselines import BASELINES, baseline_player
from tavla.bots.duel import duel, play_game
from tavla.bots.encoding import encoder_for
from tavla.bots.heuristics import HEURISTICS, heuristic_player
from tavla.bots.network import Network
from tavla.bots.players import Player, RandomPlayer, ScoringPlayer, network_player
from tavla.bots.playout import random_playout, random_turn
from tavla.bots.pubeval import PubevalPlayer, inputs, is_race, weights
from tavla.core.errors import TavlaError
from tavla.rules.backgammon import BackgammonPosition
from tavla.rules.dicegame import DiceGame
from tavla.rules.dicesteps import DiceTurn
from tavla.rules.tapa import TapaPosition

FAST_GAMES = ("tabla", "antitabla", "indiyka")
SLOW_GAMES = ("chelebi", "tapa", "gulbara")


class Checked:
    """Wraps a player and checks every turn it chooses against the rules."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.turns = 0

    def choose(self, position: DiceGame[Any]) -> DiceTurn[Any]:
        turn = self.player.choose(position)
        assert turn.origin == position
        # The rules read the turn's text back to the same result (progressive doubles too).
        assert position.parse_turn(turn.text).after == turn.after
        self.turns += 1
        return turn


def checked_game(game: str, first: Player, second: Player, seed: int) -> None:
    players = (Checked(first), Checked(second))
    play_game(game, (players[0], players[1]), seed)
    assert players[0].turns + players[1].turns > 0


@settings(max_examples=4)
@given(seed=st.integers(0, 2**32 - 1))
@pytest.mark.parametrize("game", FAST_GAMES)
def test_baselines_play_legal_turns(game: str, seed: int) -> None:
    checked_game(game, heuristic_player(game), RandomPlayer(seed), seed)


@pytest.mark.parametrize("game", SLOW_GAMES)
def test_baselines_play_legal_turns_with_progressive_doubles_and_pins(game: str) -> None:
    # A smaller listing limit sends chelebi's and gulbara's big doubles to the beam and
    # the step builder, which is what must stay legal.
    heuristic = ScoringPlayer("heuristic", HEURISTICS[game], limit=100, width=8)
    checked_game(game, heuristic, RandomPlayer(11, limit=100), seed=11)


@settings(max_examples=3)
@given(seed=st.integers(0, 2**32 - 1))
def test_pubeval_plays_legal_turns(seed: int) -> None:
    checked_game("tabla", PubevalPlayer(), RandomPlayer(seed), seed)


def huge_doubles(game: str, seed: int, count: int) -> list[Any]:
    """Positions of seeded random games where a progressive double has more than 100
    positions after a die (the beam search's ground)."""
    found: list[Any] = []

    def keep(before: Any, after: Any) -> None:
        if len(found) < count and before.legal_turns_within(100) is None:
            found.append(before)

    rng = random.Random(seed)
    while len(found) < count:
        random_playout(dice_start(game).with_side(rng.randrange(2)), rng, on_turn=keep)
    return found


@pytest.mark.parametrize("game", ["chelebi", "gulbara"])
def test_scoring_players_choose_legal_turns_on_huge_doubles(game: str) -> None:
    network = Network.create(game, hidden=8, seed=2)
    players = [
        ScoringPlayer("network", network.equities, limit=100, width=8),
        ScoringPlayer("heuristic", HEURISTICS[game], limit=100, width=8),
    ]
    for position in huge_doubles(game, seed=5, count=3):
        for player in players:
            Checked(player).choose(position)


def test_a_finished_game_has_no_turn_to_choose() -> None:
    finished = tavla.from_notation("tabla -/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/1b 0,0 15,14 b -")
    for player in (RandomPlayer(1), heuristic_player("tabla"), network_player(Network.create("tabla"))):
        with pytest.raises(TavlaError, match="over"):
            player.choose(finished)  # type: ignore[arg-type]


def test_heuristics_beat_random_play() -> None:
    for game in ("tabla", "antitabla"):
        result = duel(game, heuristic_player(game), RandomPlayer(1), range(10))
        assert result.win_rate >= 0.8, game


def test_duel_plays_each_seed_with_both_colours() -> None:
    # Two identical deterministic players: each seed's two games mirror each other.
    player = heuristic_player("tabla")
    result = duel("tabla", player, player, range(5))
    assert result.games == 10 and result.points == 0 and result.wins == 5


def test_duels_on_several_sets_of_dice_add_up_to_one_on_all_of_them() -> None:
    # Two deterministic players, so that each seed's games are the same whenever played.
    first, second = PubevalPlayer(), heuristic_player("tabla")
    parts = duel("tabla", first, second, range(3)) + duel("tabla", first, second, range(3, 5))
    whole = duel("tabla", first, second, range(5))
    assert parts == whole and whole.games == 10 and whole.squares > 0
    assert parts.ppg_ci95 == whole.ppg_ci95 and parts.win_rate == whole.win_rate


def test_heuristic_hits() -> None:
    # White to play 6-4 can hit the blot on his 2 (8/2*, or 8/2* 6/2 to make the point too).
    position = dice_position("tabla -/1b/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/1b/2w 0,0 0,0 w 64")
    text = heuristic_player("tabla").choose(position).text
    assert "*" in text


def test_pubeval_inputs_of_the_start() -> None:
    start = tavla.find_game("tabla").start().with_side(0)
    assert isinstance(start, BackgammonPosition)
    rows = encoder_for(start).encode_many([start], 0)
    x = inputs(rows)[0]
    # Block 0 is the mover's point 24 (two of his own): ">= 2".
    assert list(x[0:5]) == [0, 0, 1, 0, 0]
    # Block 23 is his point 1, where two of the opponent's stand: n = -2 sets nothing.
    assert list(x[115:120]) == [0, 0, 0, 0, 0]
    # His 6 point holds five: >= 2 and (5 - 3) / 2.
    assert list(x[90:95]) == [0, 0, 1, 0, 1]
    assert x[120] == 0 and x[121] == 0
    assert not is_race(start)
    race = tavla.from_notation("tabla 5w/5w/5w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/5b/5b/5b 0,0 0,0 w 31")
    assert isinstance(race, BackgammonPosition)
    assert is_race(race)
    # A checker on either bar must still come round past the other side: contact.
    for bars in ("1,0", "0,1"):
        white, black = ("4w", "5b") if bars == "1,0" else ("5w", "4b")
        points = f"5w/5w/{white}/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/5b/5b/{black}"
        barred = tavla.from_notation(f"tabla {points} {bars} 0,0 w 31")
        assert isinstance(barred, BackgammonPosition)
        assert not is_race(barred), bars


def test_pubeval_bears_off_the_last_checker() -> None:
    position = tavla.from_notation("tabla 1w/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/5b 0,0 14,10 w 21")
    assert PubevalPlayer().choose(position).after.outcome() is not None


def test_random_player_is_seeded() -> None:
    position = dice_start("tabla").with_side(0).with_roll((3, 1))
    first = [RandomPlayer(7).choose(position).text for _ in range(3)]
    assert len(set(first)) == 1
    rng = random.Random(0)
    assert {RandomPlayer(rng.random()).choose(position).text for _ in range(20)} != {first[0]}


def test_pubeval_weights_are_the_published_ones() -> None:
    contact, race = weights()
    assert len(contact) == len(race) == 122
    assert (contact[0], contact[1], contact[120], contact[121]) == (0.25696, -0.66937, 5.62596, -2.758)
    assert (race[1], race[2], race[120], race[121]) == (-0.1716, 0.2701, 0.0, 3.4204)
    assert race[::5].tolist() == [0.0] * 25  # in a race his blots (and his bar) weigh nothing


def test_a_game_too_long_is_left_unfinished_with_no_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """Antitabla players that both stay behind can hit back and forth for ever."""
    monkeypatch.setattr(duel_module, "MAX_TURNS", 6)
    result = duel("tabla", RandomPlayer(1), RandomPlayer(2), range(2))
    assert result.games == 4 and result.unfinished == 4
    assert result.wins == result.points == 0
    assert play_game("tabla", (RandomPlayer(1), RandomPlayer(2)), 0) is None


def test_a_watcher_sees_every_turn_of_the_game_in_order_and_changes_nothing() -> None:
    """``play_game(watch=...)``: each turn's position with its dice and the one it left,
    chained from the start to the end, the game the same as unwatched."""
    players = (heuristic_player("tapa"), RandomPlayer(5))
    seen: list[tuple[DiceGame[Any], DiceGame[Any]]] = []
    outcome = play_game("tapa", players, 11, watch=lambda before, after: seen.append((before, after)))
    assert outcome == play_game("tapa", (heuristic_player("tapa"), RandomPlayer(5)), 11)
    start = tavla.find_game("tapa").start()
    assert isinstance(start, TapaPosition) and isinstance(seen[0][0], TapaPosition)
    assert seen[0][0].dice is not None and seen[0][0].tops == start.tops
    for (_, after), (before, _) in itertools.pairwise(seen):
        assert before.dice is not None and before == after.with_roll(before.dice)
    assert all(after.dice is None for _, after in seen)
    assert seen[-1][1].outcome() == outcome


@pytest.mark.parametrize("game", ["tapa", "gulbara"])
def test_baselines_by_name_are_the_players_they_name(game: str) -> None:
    """``baseline_player`` is what benchmarks and the CLI build players with (docs/bots.md,
    "Players"): each name gives that player, playing what the player itself plays."""
    rng = random.Random(3)
    positions = [dice_start(game).with_side(0).with_roll((6, 5))]
    for _ in range(5):  # on through random turns, each next roll random
        after = random_turn(positions[-1], rng)
        positions.append(after.with_roll((rng.randint(1, 6), rng.randint(1, 6))))
    expected = {
        "heuristic": heuristic_player(game),
        "network": network_player(Network.shipped(game)),
    }
    for name, player in expected.items():
        named = baseline_player(name, game)
        assert named.name == name
        assert [named.choose(p).text for p in positions] == [player.choose(p).text for p in positions]
    assert baseline_player("random", game, seed=4).name == "random"
    with pytest.raises(TavlaError, match="unknown player"):
        baseline_player("gnubg", game)
    assert "pubeval" in BASELINES
    with pytest.raises(TavlaError, match="tabla's board only"):
        baseline_player("pubeval", game)


@pytest.mark.parametrize("game", sorted(HEURISTICS))
def test_a_heuristic_rates_each_turn_on_its_own(game: str) -> None:
    """A roll's turns are rated in one batch; each rating must be that of the turn alone,
    whatever else the batch holds (else a turn's choice would hang on the others listed)."""
    rng = random.Random(8)
    position = dice_start(game).with_side(1).with_roll((4, 2))
    batches = []
    for _ in range(8):
        batches.append(afterstates(position).features)
        position = random_turn(position, rng).with_roll((rng.randint(1, 3), rng.randint(4, 6)))
    rows = np.concatenate(batches)  # rows of several positions: any batch must do
    together = HEURISTICS[game](rows)
    alone = [HEURISTICS[game](rows[index : index + 1])[0] for index in range(len(rows))]
    assert len(set(alone)) > 1 and together == pytest.approx(alone, abs=1e-12)
