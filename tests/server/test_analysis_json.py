"""A review as the archive's API gives it (tavla.server.analysis.analysis_json; docs/API.md):
every cube decision and turn with its game, step and seat, equities rounded to 0.001.

The record: White, with two checkers on his 6 and 5 points against Black's last checker,
doubles (RULES.md 9.2), Black takes, and White rolls 2-1 and plays."""

from __future__ import annotations

from tests.bots.exact_bearoff import bear_off

from tavla.analysis.report import analyze
from tavla.bots.network import Network
from tavla.bots.search import SearchSettings
from tavla.match.match import Match
from tavla.match.record import MatchRecord
from tavla.rules.backgammon.gnubg_id import to_gnubg_ids
from tavla.server.analysis import analysis_json


def doubled_and_taken() -> MatchRecord:
    match = Match.from_ids(*to_gnubg_ids(bear_off((6, 5), (1,))))
    match.double(0)
    match.take(1)
    match.roll((2, 1))
    match.move(0, match.state.position.legal_turns()[-1])
    return MatchRecord.of(match)


def test_the_cube_decisions_and_turns_carry_their_game_step_and_rounded_equities() -> None:
    network = Network.shipped("tabla")
    analysis = analyze(doubled_and_taken(), lambda _: network, SearchSettings(plies=0))
    shown = analysis_json(analysis)
    assert [(cube["step"], cube["game"], cube["seat"], cube["kind"]) for cube in shown["cubes"]] == [
        (1, 1, 0, "double"),
        (2, 1, 1, "answer"),
    ]
    assert [(cube["chosen"], cube["right"]) for cube in shown["cubes"]] == [
        (review.chosen, review.right) for review in analysis.cubes
    ]
    assert [cube["loss"] for cube in shown["cubes"]] == [round(review.loss, 3) for review in analysis.cubes]
    (move,) = shown["moves"]
    (reviewed,) = analysis.moves
    assert (move["step"], move["game"], move["seat"]) == (4, 1, 0)
    equities = (move["equity"], move["best_equity"], move["loss"], move["judged_loss"])
    exact = (reviewed.played_equity, reviewed.best_equity, reviewed.loss, reviewed.judged_loss)
    assert equities == tuple(round(value, 3) for value in exact)
    assert round(reviewed.played_equity, 3) != round(reviewed.played_equity, 4)  # the rounding shows
