"""Runs inside GNU Backgammon: cubeless chances and cube decisions at 0-ply.

    GNUBG_ORACLE_IN=in.json GNUBG_ORACLE_OUT=out.json gnubg -t -q -r -p gnubg_cube.py

(tests/bots/gnubg_cube_oracle.py writes the fixture from it.)

``in.json`` holds ``cases``: ``{"board": [not_on_roll, on_roll], "cube": [value, owner,
move, length, [score0, score1], crawford], "jacoby": 0/1, "beavers": 0/1}``; the player on
roll is gnubg's player ``move``. Each answer has gnubg's cubeless chances (``evaluate``),
its cube decision (``cfevaluate``: optimal, no double, double/take, double/pass as
gnubg's normalised equities, the recommendation's text), the same three equities as
match winning chances (``eq2mwc``) in a match, and the position's class.
``out.json`` is ``{"results": [...]}``.
"""

import json
import os
from typing import Any

import gnubg


def answer(case: dict[str, Any]) -> dict[str, Any]:
    board = (tuple(case["board"][0]), tuple(case["board"][1]))
    value, owner, move, length, score, crawford = case["cube"]
    info = gnubg.cubeinfo(value, owner, move, length, tuple(score), crawford, 0)
    info["jacoby"] = case.get("jacoby", 0)
    info["beavers"] = case.get("beavers", 0)
    info = gnubg.calcgammonprice(info)
    context = gnubg.evalcontext(1, 0, 1, 1, 0.0)
    chances = gnubg.evaluate(board, info, context)
    optimal, no_double, take, drop, _code, text = gnubg.cfevaluate(board, info, context)
    result = {
        "chances": list(chances[:5]),
        "cubeful": [optimal, no_double, take, drop],
        "recommendation": text,
        "class": gnubg.classifypos(board, 0),
    }
    if length:
        result["mwc"] = [gnubg.eq2mwc(e, info) for e in (no_double, take, drop)]
    return result


def main() -> None:
    with open(os.environ["GNUBG_ORACLE_IN"]) as handle:
        data = json.load(handle)
    results = [answer(case) for case in data["cases"]]
    with open(os.environ["GNUBG_ORACLE_OUT"], "w") as handle:
        json.dump({"results": results}, handle)


main()
