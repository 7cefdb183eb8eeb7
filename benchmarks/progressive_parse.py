"""Reading and writing whole-turn text on chelebi's long progressive doubles (1-1, 2-2, 3-3).

    .venv/bin/python benchmarks/progressive_parse.py [--cases N] [--reference K]
        [--weaker-cut K] [--unordered K] [--chooser steps|medium] [--seed S]

Such a roll can have over a million legal turns, so ``parse_turn`` does not list
them: it computes the position the text describes and searches depth-first for a
turn reaching exactly it. The cases are seeded random mid-game positions given a
low double, with a random legal turn played by steps. With ``--chooser medium`` the
turn is the one the ``medium`` bot chooses, in positions after up to 60 random turns
(where 12 leave few checkers near home; a bot's slowest texts were those of turns
that bear off). Half the cases keep the turn's text (legal), half get two
destinations moved by one point each (same pips, mostly illegal).

Printed: the time to read each text (median, 90th percentile, maximum) and, for the
first ``--reference`` legal cases, the time to list every legal turn and pick the one
with the text's resulting position (the plain way), in the same run, with the ratio.

Writing a turn's text (``turn.text``) searches for its first playing order
(``find_turn``); its time is printed for every case's turn, on a fresh copy of the
position. In the same run, the first ``--weaker-cut`` cases' search is timed again
with the checkers' walks left out of its cut (only the pips and the points above each
point checked, as before the walks were added), which can take minutes a turn, and
the first ``--unordered`` cases' with the walks but not the order of the dice (as
before: a bear-off may come first and end with any die), each with the ratio and the
same text found.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from typing import Any
from unittest import mock

from rich.progress import track

from tavla.bots.levels import LevelPlayer
from tavla.core.errors import IllegalMoveError
from tavla.core.registry import find_game
from tavla.rules import walks
from tavla.rules.backgammon import position as family

CHELEBI: Any = find_game("chelebi").position_class


def random_position(rng: random.Random, most_turns: int = 12) -> Any:
    """A position after a few random turns, given a 1-1, 2-2 or 3-3 to play."""
    while True:
        position = CHELEBI.start().with_roll((rng.randint(1, 6), rng.randint(1, 6)))
        for _ in range(rng.randint(0, most_turns)):
            position = position.play(turn_by_steps(position, rng))
            if position.outcome() is not None:
                break
            position = position.with_roll((rng.randint(1, 6), rng.randint(1, 6)))
        if position.outcome() is None:
            die = rng.choice((1, 2, 3))
            return CHELEBI(position.points, position.bar, position.off, position.side, (die, die))


def turn_by_steps(position: Any, rng: random.Random) -> Any:
    builder = position.steps()
    while not builder.complete:
        builder.step(rng.choice(builder.legal_steps()))
    return builder.commit()


def shifted(text: str, rng: random.Random) -> str:
    """Two destinations moved one point, one up and one down: the same pips."""
    words = text.split()
    if len(words) < 2:
        return text
    for index, change in zip(rng.sample(range(len(words)), 2), (1, -1), strict=True):
        body, bracket, count = words[index].partition("(")
        points = body.split("/")
        last = points[-1].rstrip("*")
        if last.isdigit() and 1 <= int(last) + change <= 24:
            points[-1] = str(int(last) + change)
        words[index] = "/".join(points) + bracket + count
    return " ".join(words)


def timed_parse(position: Any, text: str) -> tuple[float, bool]:
    start = time.perf_counter()
    try:
        position.parse_turn(text)
        legal = True
    except IllegalMoveError:
        legal = False
    return time.perf_counter() - start, legal


def by_listing(position: Any, text: str) -> float:
    """List every legal turn of a fresh copy and pick the text's; the seconds taken."""
    fresh = CHELEBI.from_notation(position.notation())
    wanted = position.parse_turn(text).after
    start = time.perf_counter()
    assert sum(turn.after == wanted for turn in fresh.legal_turns()) == 1
    return time.perf_counter() - start


def timed_text(position: Any, turn: Any, *patches: Any) -> tuple[float, str]:
    """The first playing order's search on a fresh copy of ``position`` (nothing found
    before is kept, the walks neither), its cut weakened by ``patches``: the seconds
    and the text."""
    fresh = CHELEBI.from_notation(position.notation())
    target = turn.after.mover_state_of(position.side)
    # What one search worked out would speed the next.
    walks._walks.cache_clear()
    walks._first_bear_off.cache_clear()
    with contextlib.ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch)
        start = time.perf_counter()
        found = fresh.find_turn(target)
        seconds = time.perf_counter() - start
    assert found is not None
    return seconds, found.text


def with_weaker_cut(position: Any, turn: Any, text: str, *patches: Any) -> float:
    seconds, weaker = timed_text(position, turn, *patches)
    assert weaker == text, f"{weaker} against {text} in {position.notation()}"
    return seconds


def without_walks() -> tuple[Any, ...]:
    """Only the pips and the points above each point checked."""
    return (mock.patch.object(family, "walks_fit", lambda *_: True),)


def without_order() -> tuple[Any, ...]:
    """The walks without the order of the dice: bearing off may come first and waste
    any die."""
    # Each checker's walks as they are (its reach, in the fifth argument), unchecked.
    return (mock.patch.object(walks, "_bearing_off", lambda *args: [reach.fewest for reach in args[4]]),)


def compared(name: str, pairs: list[tuple[float, float]]) -> None:
    if pairs:
        ours, old = (sum(seconds) for seconds in zip(*pairs, strict=True))
        print(
            f"{name}: the first {len(pairs)} texts written in {old:.2f} s (at most "
            f"{max(o for _, o in pairs):.2f} s), with the whole cut in {ours:.2f} s (at most "
            f"{max(w for w, _ in pairs):.2f} s): {old / ours:.1f} x"
        )


def summary(name: str, seconds: list[float]) -> None:
    if not seconds:
        return
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    print(
        f"{name:<8} {len(seconds):4d} texts: median {statistics.median(seconds):7.3f} s, "
        f"90th percentile {p90:7.3f} s, max {ordered[-1]:7.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=60)
    parser.add_argument("--reference", type=int, default=2)
    parser.add_argument("--weaker-cut", type=int, default=0)
    parser.add_argument("--unordered", type=int, default=0)
    parser.add_argument("--chooser", choices=("steps", "medium"), default="steps")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = []
    texts: list[float] = []
    weaker: list[tuple[float, float]] = []
    unordered: list[tuple[float, float]] = []
    bot = LevelPlayer("chelebi", "medium") if args.chooser == "medium" else None
    for number in track(range(args.cases), description="writing turn texts"):
        position = random_position(rng, 12 if bot is None else 60)
        turn = turn_by_steps(position, rng) if bot is None else bot.choose(position)
        seconds, text = timed_text(position, turn)
        texts.append(seconds)
        if number < args.weaker_cut:
            weaker.append((seconds, with_weaker_cut(position, turn, text, *without_walks())))
        if number < args.unordered:
            unordered.append((seconds, with_weaker_cut(position, turn, text, *without_order())))
        cases.append((position, shifted(text, rng) if number % 2 else text, number % 2 == 0))
    times: dict[str, list[float]] = {"legal": [], "refused": []}
    reference: list[tuple[float, float]] = []
    for position, text, original in track(cases, description="reading turn texts"):
        seconds, legal = timed_parse(position, text)
        assert legal or not original, f"a legal turn was refused: {text} in {position.notation()}"
        times["legal" if legal else "refused"].append(seconds)
        if original and len(reference) < args.reference:
            reference.append((seconds, by_listing(position, text)))
    summary("written", texts)
    compared("without the walks", weaker)
    compared("without the order", unordered)
    summary("legal", times["legal"])
    summary("refused", times["refused"])
    for ours, old in reference:
        print(
            f"reference: listing every turn {old:7.2f} s, reading the text {ours:6.3f} s, {old / ours:6.0f} x"
        )


if __name__ == "__main__":
    main()
