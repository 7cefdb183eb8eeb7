"""The server's dice are provably fair (docs/fair-dice.md), checked from outside.

A bot game of tabla is played to its end over the websocket. Its record's dice
verify, with the library and with ``tavla verify-dice`` on the downloaded file; the
commitment each game showed is the hash of the seed revealed after it; a live
game's record keeps the current seed hidden; a changed seed is caught; and a
player's profile counts exactly their own rolls.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import select
from tests.server.conftest import Site
from tests.server.play import Seat
from tests.server.served import first_legal

from tavla.core.diceverify import DiceProblem
from tavla.match.actions import ActionKind
from tavla.match.fairdice import verify_match_dice
from tavla.match.record import MatchRecord
from tavla.storage.models import GameDice

TAVLA = Path(sys.executable).with_name("tavla")


def sha256_of_seed(server_seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def live_record(site: Site, game_id: str) -> dict[str, Any]:
    response = site.as_(None).get(f"/api/games/{game_id}/record")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def play_watching_the_dice(site: Site, seat: Seat, game_id: str) -> tuple[dict[int, str], int]:
    """Play to the end; the commitment each game showed, and the live records checked."""
    shown: dict[int, str] = {}
    checked = 0
    for _ in range(5000):
        state = seat.state
        dice = state["dice"]
        if dice is not None and not state["match"]["over"]:
            number = dice["game"]
            assert shown.setdefault(number, dice["commitment"]) == dice["commitment"]
            for revealed in dice["revealed"]:
                assert sha256_of_seed(revealed["server_seed"]) == shown[revealed["game"]]
            if checked < number and state["match"]["phase"] in ("roll", "move"):
                # The live game's record: earlier games' seeds revealed, the current one hidden.
                entries = live_record(site, game_id)["dice"]
                assert len(entries) == number
                assert entries[-1]["commitment"] == dice["commitment"]
                assert entries[-1]["server_seed"] is None
                for entry in entries[:-1]:
                    assert sha256_of_seed(entry["server_seed"]) == entry["commitment"]
                checked = number
        if state["match"]["over"]:
            return shown, checked
        action = first_legal(state)
        if action is None:
            seat.read_state()
            continue
        answer = seat.send(action)
        assert answer["type"] == "ack", answer
    raise AssertionError("the match did not end")


def test_the_board_reveals_a_games_server_seed_as_soon_as_the_game_ends(site: Site) -> None:
    """In the next game of the match, the board shows the seed the last one's commitment
    stood for: a player checks each game's dice while the match goes on."""
    ayse = site.register("ayse")
    game_id = site.bot_game(ayse, game="tabla", length=5, level="beginner")
    with site.as_(ayse).websocket_connect(f"/ws/game/{game_id}") as socket:
        seat = Seat(socket)
        first = seat.wait(lambda s: s["match"]["actor"] == 0 and s["match"]["phase"] in ("roll", "move"))
        assert first["dice"]["game"] == 1 and first["dice"]["revealed"] == []
        commitment = first["dice"]["commitment"]
        # A backgammon resigned, which any bot accepts: 3 of the 5 points.
        assert seat.send({"kind": "resign", "level": "backgammon"})["type"] == "ack"
        second = seat.wait(lambda s: s["match"]["game_number"] == 2 and s["dice"]["game"] == 2)
        assert second["match"]["score"] == [0, 3]
        (revealed,) = second["dice"]["revealed"]
        assert revealed["game"] == 1 and revealed["commitment"] == commitment
        assert sha256_of_seed(revealed["server_seed"]) == commitment


def verify_dice_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TAVLA), "verify-dice", str(path)], capture_output=True, text=True, timeout=60, check=False
    )


def test_a_finished_bot_games_dice_verify_and_a_changed_seed_is_caught(site: Site, tmp_path: Path) -> None:
    ayse = site.register("ayse")
    game_id = site.bot_game(ayse, game="tabla", length=3, level="beginner", client_seed="ayse-chose-this")
    with site.as_(ayse).websocket_connect(f"/ws/game/{game_id}") as socket:
        seat = Seat(socket)
        assert seat.state["dice"]["client_seed"].startswith("ayse-chose-this:")
        shown, checked = play_watching_the_dice(site, seat, game_id)
    assert checked >= 1 and shown

    async def revealed() -> list[bool]:
        async with site.platform.sessions() as db:
            flags = await db.scalars(
                select(GameDice.revealed).where(GameDice.game_id == game_id).order_by(GameDice.game_number)
            )
            return list(flags)

    # Each game's seed was marked revealed as the game ended, on this game's rows.
    assert site.portal.call(revealed) == [True] * len(shown)

    text = site.as_(None).get(f"/api/games/{game_id}/record").text
    record = MatchRecord.from_json(text)
    assert len(record.dice) == len(shown) == sum(1 for a in record.actions if a.kind == ActionKind.START)
    for number, entry in enumerate(record.dice, start=1):
        assert entry.commitment == shown[number]
        assert entry.server_seed is not None and sha256_of_seed(entry.server_seed) == entry.commitment
        assert entry.client_seed.startswith("ayse-chose-this:")
    checks = verify_match_dice(record)
    assert [check.game for check in checks] == list(range(1, len(shown) + 1))
    assert all(check.verdict.ok for check in checks), checks

    downloaded = tmp_path / "record.json"
    downloaded.write_text(text)
    result = verify_dice_cli(downloaded)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(": OK") == len(shown)

    # One hex digit of a revealed seed changed: it is no longer the seed committed to.
    data = json.loads(text)
    seed = data["dice"][0]["server_seed"]
    data["dice"][0]["server_seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    result = verify_dice_cli(changed)
    assert result.returncode == 1 and "FAILED" in result.stdout, result.stdout + result.stderr
    problems = [
        check.verdict.problem for check in verify_match_dice(MatchRecord.from_json(changed.read_text()))
    ]
    assert problems[0] == DiceProblem.BAD_COMMITMENT and all(p is None for p in problems[1:])

    # A changed client seed gives other dice than the ones recorded.
    data = json.loads(text)
    data["dice"][0]["client_seed"] = "somebody-else:" + data["dice"][0]["client_seed"].split(":")[1]
    other = MatchRecord.from_json(json.dumps(data))
    assert verify_match_dice(other)[0].verdict.problem == DiceProblem.MISMATCH


def test_the_profile_counts_exactly_the_players_own_rolls(site: Site) -> None:
    ayse = site.register("ayse")
    own: list[tuple[int, int]] = []
    for _ in range(2):
        game_id = site.bot_game(ayse, game="tabla", length=1, level="beginner")
        with site.as_(ayse).websocket_connect(f"/ws/game/{game_id}") as socket:
            play_watching_the_dice(site, Seat(socket), game_id)
        record = MatchRecord.from_json(site.as_(None).get(f"/api/games/{game_id}/record").text)
        others = [a for a in record.actions if a.kind == ActionKind.ROLL and a.seat != 0]
        assert others, "the bot's rolls and the opening rolls are there to be left out"
        own.extend(
            (int(a.value[0]), int(a.value[1]))
            for a in record.actions
            if a.kind == ActionKind.ROLL and a.seat == 0
        )
    dice = site.as_(None).get("/api/users/ayse").json()["dice"]
    faces = [0] * 6
    for pair in own:
        for die in pair:
            faces[die - 1] += 1
    assert dice["rolls"] == len(own)
    assert dice["doubles"] == sum(1 for a, b in own if a == b)
    assert dice["faces"] == faces
