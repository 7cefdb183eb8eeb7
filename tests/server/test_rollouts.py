"""The archive's rollouts of a finished game's marked turns (docs/analysis.md,
docs/API.md): asked for by a registered player, run once in the bots' workers, stored
so that every process and visitor sees them, taken over when their process dies."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from tests.server.conftest import Player, Site, make_settings
from tests.server.play import Seat
from tests.server.test_live import play_out

from tavla.analysis.report import analyze
from tavla.analysis.rollouts import roll_out_marked
from tavla.bots.network import Network
from tavla.bots.rollout import RolloutSettings
from tavla.bots.search import SearchSettings
from tavla.match.record import MatchRecord
from tavla.server import rollouts as rollouts_module
from tavla.server.app import create_app
from tavla.storage.models import AnalysisRollout

pytestmark = pytest.mark.timeout(240)

SETTINGS = RolloutSettings(trials=2, truncate=2, variance_reduction=True)
"""Small enough for a test: the site's settings are the library's, so the figures match."""


def small_settings(database_url: str) -> Any:
    return make_settings(database_url, rollout_trials=SETTINGS.trials, rollout_truncate=SETTINGS.truncate)


@pytest.fixture
def site(database_url: str) -> Iterator[Site]:
    with TestClient(create_app(small_settings(database_url)), base_url="http://testserver") as client:
        yield Site(client)


def finished_game(site: Site, player: Player) -> str:
    game_id = site.bot_game(player, game="tabla", length=1, level="beginner")
    with site.as_(player).websocket_connect(f"/ws/game/{game_id}") as socket:
        # Ten turns, then a resignation the bot accepts: half the turns of a game played
        # out, and half its rollouts' time.
        assert play_out(Seat(socket), resign_after=10)["match"]["over"]
    return game_id


def wait_done(site: Site, game_id: str, timeout_s: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state: dict[str, Any] = site.as_(None).get(f"/api/games/{game_id}/analysis/rollout").json()["rollout"]
        if state["state"] != "running":
            return state
        time.sleep(0.05)
    raise AssertionError("the rollout did not end")


def expected_rollout(site: Site, game_id: str) -> Any:
    """The library's rollout of the same record: what ``tavla analyze --rollout`` gives."""
    record = MatchRecord.from_json(site.as_(None).get(f"/api/games/{game_id}/record").text)
    network = Network.shipped("tabla")
    analysis = analyze(record, lambda _: network, SearchSettings(plies=0))
    return analysis, roll_out_marked(analysis, record, lambda _: network, SETTINGS)


def set_row(site: Site, game_id: str, **values: Any) -> None:
    async def change() -> None:
        async with site.platform.sessions() as db:
            chosen = update(AnalysisRollout).where(AnalysisRollout.game_id == game_id)
            await db.execute(chosen.values(**values))
            await db.commit()

    site.portal.call(change)


def test_a_rollout_is_asked_for_once_by_a_registered_player_and_changes_the_analysis(
    site: Site, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One trial a call: each turn's two in two parts, which must make the whole.
    monkeypatch.setattr(rollouts_module, "trials_a_call", lambda settings: 1)
    player = site.register("ayse")
    game_id = site.bot_game(player, game="tabla", length=1, level="beginner")
    url = f"/api/games/{game_id}/analysis/rollout"
    assert site.as_(None).get(url).json() == {"id": game_id, "rollout": None}
    # Nobody signed in, a guest, a game still played: refused, and nothing started.
    assert site.as_(None).post(url, json={}).status_code == 401
    guest = site.guest()
    assert site.post(guest, url).json()["error"]["code"] == "forbidden"
    playing = site.post(player, url)
    assert playing.status_code == 409 and playing.json()["error"]["code"] == "not_finished"
    with site.as_(player).websocket_connect(f"/ws/game/{game_id}") as socket:
        assert play_out(Seat(socket), resign_after=10)["match"]["over"]
    assert site.as_(None).get(url).json()["rollout"] is None
    before = site.as_(None).get(f"/api/games/{game_id}/analysis").json()
    assert before["rollout"] is None and all(move["rollout"] is None for move in before["moves"])

    started = site.post(player, url)
    assert started.status_code == 202, started.text
    assert started.json()["rollout"]["state"] == "running"
    assert started.json()["rollout"]["settings"] == {"trials": 2, "truncate": 2, "variance_reduction": True}
    state = wait_done(site, game_id)
    analysis, rolled = expected_rollout(site, game_id)
    marked = [review for review in analysis.moves if review.mark]
    assert marked, "a beginner's opponent playing its first legal turn makes marked turns"
    assert state["state"] == "done" and state["done"] == state["total"] == len(marked)

    # The analysis now carries each marked turn's rollout, and its marks and totals follow.
    found = site.as_(None).get(f"/api/games/{game_id}/analysis").json()
    assert found["rollout"]["state"] == "done"
    for move, review in zip(found["moves"], rolled.moves, strict=True):
        if review.rollout is None:
            assert move["rollout"] is None
        else:
            assert move["rollout"] == {
                "loss": round(review.rollout.loss, 3),
                "error": round(review.rollout.error, 3),
                "trials": 2,
            }
        assert move["loss"] == round(review.loss, 3) and move["mark"] == review.mark
        assert move["judged_loss"] == round(review.judged_loss, 3)
    for totals, summary in zip(found["totals"], rolled.players, strict=True):
        assert totals["error_rate"] == round(summary.error_rate, 1)
        assert totals["marks"] == {mark: summary.marks[mark] for mark in ("doubtful", "error", "blunder")}
    assert [m["rollout"] is not None for m in found["moves"]] == [bool(r.mark) for r in analysis.moves]

    # Asked again (by anybody registered): the stored rollout, nothing run again.
    again = site.post(site.register("boris"), url)
    assert again.status_code == 202 and again.json()["rollout"] == state
    assert not rollouts_module_runs(site)

    # Another server process on the same database sees it without running anything.
    with TestClient(create_app(small_settings(database_url)), base_url="http://testserver") as other:
        elsewhere = other.get(f"/api/games/{game_id}/analysis").json()
        assert elsewhere["rollout"] == found["rollout"] and elsewhere["moves"] == found["moves"]


def rollouts_module_runs(site: Site) -> dict[str, Any]:
    runs: dict[str, Any] = site.platform.rollouts._runs
    return runs


def test_a_run_whose_process_died_is_taken_over_and_goes_on_from_its_last_turn(site: Site) -> None:
    player = site.register("ayse")
    game_id = finished_game(site, player)
    url = f"/api/games/{game_id}/analysis/rollout"
    assert site.post(player, url).status_code == 202
    first = wait_done(site, game_id)
    assert first["total"] >= 1
    row = site.portal.call(site.platform.rollouts.row, game_id)
    assert row is not None
    kept = dict(row.results[0], loss=-0.777)  # a mark no rollout would make: it must survive
    # As a process dead after its first turn leaves it: running, its heartbeat old.
    stale = rollouts_module.STALE_MS + 1000
    set_row(site, game_id, state="running", token="f" * 32, done=1, results=[kept])
    set_row(site, game_id, heartbeat_ms=AnalysisRollout.heartbeat_ms - stale)
    # A run not done changes nothing in the analysis yet.
    moves = site.as_(None).get(f"/api/games/{game_id}/analysis").json()["moves"]
    assert all(move["rollout"] is None for move in moves)
    # While its heartbeat is fresh, another run is not started.
    set_row(site, game_id, heartbeat_ms=AnalysisRollout.heartbeat_ms + stale)
    answer = site.post(player, url).json()["rollout"]
    assert answer["state"] == "running" and answer["done"] == 1 and not rollouts_module_runs(site)
    set_row(site, game_id, heartbeat_ms=AnalysisRollout.heartbeat_ms - stale)
    assert site.post(player, url).json()["rollout"]["state"] == "running"
    again = wait_done(site, game_id)
    assert again["state"] == "done" and again["total"] == first["total"] == again["done"]
    row = site.portal.call(site.platform.rollouts.row, game_id)
    assert row is not None and row.token != "f" * 32
    assert row.results[0] == kept and len(row.results) == first["total"]
    moves = site.as_(None).get(f"/api/games/{game_id}/analysis").json()["moves"]
    move = next(move for move in moves if move["rollout"])
    assert move["rollout"]["loss"] == -0.777 and move["loss"] == 0 and move["mark"] == ""


def test_a_run_that_lost_its_token_writes_nothing(site: Site) -> None:
    player = site.register("ayse")
    game_id = finished_game(site, player)
    assert site.post(player, f"/api/games/{game_id}/analysis/rollout").status_code == 202
    wait_done(site, game_id)
    set_row(site, game_id, token="a" * 32, done=0)
    record = MatchRecord.from_json(site.as_(None).get(f"/api/games/{game_id}/record").text)
    lost = rollouts_module._Run(game_id, "b" * 32, record, SETTINGS)
    assert site.portal.call(lambda: site.platform.rollouts._write(lost, done=5)) is False
    row = site.portal.call(site.platform.rollouts.row, game_id)
    assert row is not None and row.done == 0 and row.token == "a" * 32


def test_a_failed_rollout_says_so_and_is_started_again_when_asked(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = site.register("ayse")
    game_id = finished_game(site, player)
    url = f"/api/games/{game_id}/analysis/rollout"
    real = rollouts_module.roll_out_trials

    def broken(*args: Any) -> Any:
        raise RuntimeError("a worker's bug")

    monkeypatch.setattr(rollouts_module, "roll_out_trials", broken)
    assert site.post(player, url).status_code == 202
    assert wait_done(site, game_id)["state"] == "failed"
    assert site.as_(None).get(f"/api/games/{game_id}/analysis").json()["rollout"]["state"] == "failed"
    monkeypatch.setattr(rollouts_module, "roll_out_trials", real)
    assert site.post(player, url).json()["rollout"]["state"] == "running"
    assert wait_done(site, game_id)["state"] == "done"


def test_a_game_no_bot_reviews_is_refused(site: Site) -> None:
    player = site.register("ayse")
    game_id = site.bot_game(player, game="abluka", length=1, sets=1, level="beginner")
    with site.as_(player).websocket_connect(f"/ws/game/{game_id}") as socket:
        assert play_out(Seat(socket))["match"]["over"]
    answer = site.post(player, f"/api/games/{game_id}/analysis/rollout")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "no_analysis"
    assert site.as_(None).get(f"/api/games/{game_id}/analysis/rollout").json()["rollout"] is None


def slow_parts(monkeypatch: pytest.MonkeyPatch, seconds: float) -> Callable[[], None]:
    """Each part of a rollout takes ``seconds`` more: a run lasts long enough to be seen.
    Returns what makes the parts fast again, once the test has seen what it waits for."""
    real = rollouts_module.roll_out_trials

    def slow(*args: Any) -> Any:
        time.sleep(seconds)
        return real(*args)

    monkeypatch.setattr(rollouts_module, "roll_out_trials", slow)
    return lambda: monkeypatch.setattr(rollouts_module, "roll_out_trials", real)


def test_a_second_games_rollout_waits_for_the_first_and_keeps_its_heartbeat(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = site.register("ayse")
    first, second = finished_game(site, player), finished_game(site, player)
    speed_up = slow_parts(monkeypatch, 0.3)
    monkeypatch.setattr(rollouts_module, "STALE_MS", 450)  # a waiting run renews every 0.15 s
    assert site.post(player, f"/api/games/{first}/analysis/rollout").status_code == 202
    assert site.post(player, f"/api/games/{second}/analysis/rollout").status_code == 202
    row = site.portal.call(site.platform.rollouts.row, second)
    assert row is not None
    beats = {row.heartbeat_ms}
    while (state := wait_one(site, first)) == "running":
        row = site.portal.call(site.platform.rollouts.row, second)
        assert row is not None
        if row.total is None:  # still waiting its turn
            beats.add(row.heartbeat_ms)
            if len(beats) == 3:
                speed_up()  # the second has renewed its claim twice while it waited
    assert state == "done" and len(beats) >= 3
    assert wait_done(site, second)["state"] == "done"


def wait_one(site: Site, game_id: str) -> str:
    time.sleep(0.1)
    state: str = site.as_(None).get(f"/api/games/{game_id}/analysis/rollout").json()["rollout"]["state"]
    return state


def test_the_sites_settings_are_the_games_defaults_unless_the_site_sets_them() -> None:
    assert rollouts_module.site_settings("tabla") == RolloutSettings(36, 10, True)
    assert rollouts_module.site_settings("tapa") == RolloutSettings(36, 10, True)
    # Progressive doubles: plain trials, each turn a few seconds of a worker.
    assert rollouts_module.site_settings("chelebi") == RolloutSettings(144, 10, False)
    assert rollouts_module.site_settings("gulbara") == RolloutSettings(144, 10, False)
    assert rollouts_module.site_settings("gulbara", trials=8, truncate=0) == RolloutSettings(8, 0, False)
    assert rollouts_module.site_settings("tabla", truncate=3) == RolloutSettings(36, 3, True)


def test_a_finished_runs_turns_carry_the_settings_it_ran_with() -> None:
    """The analysis names how each turn was rolled out (plain trials in chelebi and
    gulbara): the label is rebuilt from the stored settings, every one of them."""
    stored = {"trials": 144, "truncate": 10, "variance_reduction": False}
    result = {"action": 7, "loss": 0.125, "error": 0.031, "trials": 144}
    row = AnalysisRollout(state="done", settings=stored, results=[result])
    (rolled,) = rollouts_module.results_of(row).items()
    assert rolled[0] == 7 and (rolled[1].loss, rolled[1].error, rolled[1].trials) == (0.125, 0.031, 144)
    assert rolled[1].settings == RolloutSettings(144, 10, False).label != RolloutSettings(144, 10, True).label
    assert (
        rollouts_module.results_of(AnalysisRollout(state="running", settings=stored, results=[result])) == {}
    )


def test_a_process_holding_its_most_runs_refuses_another_and_starts_nothing(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = site.register("ayse")
    first, second = finished_game(site, player), finished_game(site, player)
    speed_up = slow_parts(monkeypatch, 0.2)
    monkeypatch.setattr(rollouts_module, "WAITING", 1)
    assert site.post(player, f"/api/games/{first}/analysis/rollout").status_code == 202
    refused = site.post(player, f"/api/games/{second}/analysis/rollout")
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "busy"
    assert site.as_(None).get(f"/api/games/{second}/analysis/rollout").json()["rollout"] is None
    # Asked again, the run it holds is answered, not refused.
    assert site.post(player, f"/api/games/{first}/analysis/rollout").json()["rollout"]["state"] == "running"
    speed_up()
    assert wait_done(site, first)["state"] == "done"
    assert site.post(player, f"/api/games/{second}/analysis/rollout").status_code == 202
    assert wait_done(site, second)["state"] == "done"
