"""Example objects of docs/json.md for the web board's demo page and browser tests.

    python tests/web/make_fixtures.py          # rewrites static/demo-data.js and static/text.json
    python tests/web/make_fixtures.py --check  # exit 1 if either is out of date

For each of the seven games: the match at its start, and a match in the middle of a
game with dice to play and the steps object of the turn (for the board to offer).
A few more states show what the board must draw: tabla with a checker on the bar
and a double offered, a bear-off, tapa with pins, indiyka still entering, Abluka
waiting for its blocker. Random play from fixed seeds (tavla.match.Match and the
library's own random player) makes them; the file is checked to be up to date by
tests/web/test_fixtures.py.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tavla.core.dice import ROLLS, SeededDice
from tavla.match import ClockSettings, Match, MatchSettings
from tavla.match.players import RandomPlayer
from tavla.schema import match_state_json, steps_json

GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka", "abluka")
STATIC = Path(__file__).resolve().parents[2] / "src" / "tavla" / "server" / "static"
OUT = STATIC / "demo-data.js"
TEXT_JS = STATIC / "text.js"
TEXT_JSON = STATIC / "text.json"
"""The board's English texts as plain JSON, for the server's translation catalogs."""
NAMES = ("Ayşe", "Mehmet")
SLOW_DOUBLES = ((1, 1), (2, 2))
"""Progressive 1-1 and 2-2 make turns that take long to enumerate: not rolled here."""

Json = dict[str, Any]


class Clock:
    """A time source that moves on a little with every reading."""

    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        self.ms += 1_500
        return self.ms


def _roll(rng: random.Random) -> tuple[int, int]:
    rolls = [roll for roll, _ in ROLLS if roll not in SLOW_DOUBLES]
    high, low = rng.choice(rolls)
    return (high, low) if rng.random() < 0.5 else (low, high)


def _match(game: str, seed: int, **extra: Any) -> tuple[Match, Clock]:
    clock = Clock()
    settings = MatchSettings(
        game,
        length=0 if game == "abluka" else 5,
        clock=ClockSettings(move_ms=12_000, reserve_ms=600_000) if game != "abluka" else None,
        names=NAMES,
        **extra,
    )
    return Match(settings, dice=SeededDice(seed), now=clock), clock


def _snapshot(match: Match, clock: Clock, played: tuple[str, ...] = ()) -> Json:
    """The match state and, while a turn is to be played, its steps object."""
    state = match.state
    steps = None
    if state.phase == "move" and state.position.outcome() is None:
        builder = state.position.steps()
        for text in played:
            builder.step(text)
        steps = steps_json(builder).model_dump(mode="json")
    return {"match": match_state_json(state, clock.ms).model_dump(mode="json"), "steps": steps}


def _advance(match: Match, rng: random.Random, player: RandomPlayer) -> None:
    """One action: the opening roll, a roll, or a random turn."""
    state = match.state
    if state.phase == "opening":
        dice = _roll(rng)
        while dice[0] == dice[1]:  # equal opening dice are rolled again
            dice = _roll(rng)
        match.roll(dice)
    elif state.phase == "roll":
        match.roll(_roll(rng))
    elif state.phase == "move":
        assert state.actor is not None
        match.move(state.actor, player.random_turn(state.position))
    elif state.phase == "between":
        match.start_next_game()
    else:
        raise RuntimeError(f"unexpected phase {state.phase}")


def _play_until(game: str, want: Callable[[Json], bool], *, first_seed: int = 1, **extra: Any) -> Json:
    """The first state, over seeded random games, in which a turn is to be played and
    ``want`` holds for its position (with ``legal``, the steps object's legal steps)."""
    for seed in range(first_seed, first_seed + 200):
        rng = random.Random(seed)
        match, clock = _match(game, seed, **extra)
        player = RandomPlayer(rng)
        for _ in range(300):
            if match.state.over or match.state.position.outcome() is not None:
                break
            _advance(match, rng, player)
            if match.state.phase == "move":
                snap = _snapshot(match, clock)
                legal = snap["steps"]["legal"] if snap["steps"] else []
                if legal and want({**snap["match"]["position"], "legal": legal}):
                    return snap
    raise RuntimeError(f"{game}: no state found")


def _on_board(position: Json) -> int:
    return sum(run["count"] for point in position["points"] for run in point["checkers"])


def _pinned(position: Json) -> int:
    return sum(1 for point in position["points"] for run in point["checkers"] if run["pinned"])


def start(game: str) -> Json:
    match, clock = _match(game, 1)
    return _snapshot(match, clock)


def mid(game: str) -> Json:
    """A turn in the middle of a game, the board well mixed."""
    seed = 10 * GAMES.index(game) + 1
    if game == "abluka":
        return _play_until(game, lambda p: len(p["blockers"]) >= 8, first_seed=seed)
    if game == "chelebi":  # a progressive double
        return _play_until(
            game, lambda p: p["dice"][0] == p["dice"][1] and p["pips"]["white"] < 150, first_seed=seed
        )
    if game == "tapa":
        return _play_until(game, lambda p: _pinned(p) >= 2, first_seed=seed)
    if game == "indiyka":
        return _play_until(
            game, lambda p: 0 < p["not_entered"]["white"] + p["not_entered"]["black"] < 20, first_seed=seed
        )
    if game == "gulbara":  # completing the opponent's progressive double
        return _play_until(game, lambda p: bool(p["completing"]), first_seed=seed)
    return _play_until(game, lambda p: p["pips"]["white"] < 140 and p["pips"]["black"] < 140, first_seed=seed)


def extras() -> dict[str, Json]:
    """States that show more of the board and its buttons."""
    found: dict[str, Json] = {}
    # A checker on the bar of the side to act: it must enter first.
    found["tabla-bar"] = _play_until(
        "tabla", lambda p: p["bar"][p["to_act"]] > 0 and p["bar"]["white"] + p["bar"]["black"] >= 2
    )
    # Bearing off: steps go to "off".
    found["tabla-bearoff"] = _play_until(
        "tabla", lambda p: 0 < p["off"][p["to_act"]] < 12 and any(s["to"] == "off" for s in p["legal"])
    )
    # Indiyka removing: every checker entered, some removed.
    found["indiyka-removing"] = _play_until(
        "indiyka", lambda p: p["not_entered"][p["to_act"]] == 0 and 0 < p["off"][p["to_act"]] < 10
    )
    # Abluka: the king has moved, the blocker is to be put down.
    match, clock = _match("abluka", 1)
    rng = random.Random(1)
    player = RandomPlayer(rng)
    for _ in range(6):
        _advance(match, rng, player)
    first = match.state.position.steps().legal_steps()[0]
    found["abluka-blocker"] = _snapshot(match, clock, (first,))
    assert found["abluka-blocker"]["steps"]["legal"][0]["piece"] == "blocker"
    # Tabla: a double offered, the cube centred at 1, with beavers (money play).
    match, clock = _match("tabla", 3)
    rng = random.Random(3)
    player = RandomPlayer(rng)
    for _ in range(4):
        _advance(match, rng, player)
    while match.state.phase != "roll":
        _advance(match, rng, player)
    actor = match.state.actor
    assert actor is not None
    match.double(actor)
    found["tabla-double"] = _snapshot(match, clock)
    # Money play with beavers: a double waits for take, drop or beaver.
    money_clock = Clock()
    money = Match(
        MatchSettings("tabla", length=0, beavers=True, raccoons=True, names=NAMES),
        dice=SeededDice(4),
        now=money_clock,
    )
    rng = random.Random(4)
    player = RandomPlayer(rng)
    while money.state.phase != "roll":
        _advance(money, rng, player)
    actor = money.state.actor
    assert actor is not None
    found["tabla-roll"] = _snapshot(money, money_clock)
    money.double(actor)
    found["tabla-beaver"] = _snapshot(money, money_clock)
    money.beaver(1 - actor)
    found["tabla-raccoon"] = _snapshot(money, money_clock)
    money.roll((5, 3))
    found["tabla-owned"] = _snapshot(money, money_clock)
    return found


def fixtures() -> dict[str, Json]:
    out: dict[str, Json] = {}
    for game in GAMES:
        out[f"{game}-start"] = start(game)
        out[f"{game}-mid"] = mid(game)
    out.update(extras())
    return out


def module_text(data: dict[str, Json]) -> str:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    return (
        "// Generated by tests/web/make_fixtures.py: do not edit by hand.\n"
        "// Match states and steps objects (docs/json.md) for the demo page and the browser tests.\n"
        f"export const FIXTURES = {body};\n"
    )


def text_json() -> str:
    """text.js's DEFAULT_TEXT (strict JSON between its markers) as a JSON file."""
    source = TEXT_JS.read_text(encoding="utf-8")
    block = source.split("/* BEGIN TAVLA_TEXT */", 1)[1].split("/* END TAVLA_TEXT */", 1)[0]
    body = block.split("=", 1)[1].strip().removesuffix(";")
    return json.dumps(json.loads(body), ensure_ascii=False, indent=2) + "\n"


def main() -> None:
    outputs = {OUT: module_text(fixtures()), TEXT_JSON: text_json()}
    if "--check" in sys.argv:
        stale = [path.name for path, text in outputs.items() if path.read_text(encoding="utf-8") != text]
        if stale:
            print("out of date:", ", ".join(stale))
        sys.exit(1 if stale else 0)
    for path, text in outputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
