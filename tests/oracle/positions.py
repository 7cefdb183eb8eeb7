"""Tabla positions for the oracle: from random games, chosen for variety, plus extremes.

Random games (seeded dice, a uniformly random legal turn each time) give ordinary
positions; the sample is then filled by quota so that it holds plenty of positions
with the side to act on the bar, bearing off, or able to hit. A few hand-made
extremes (closed boards, many checkers on the bar, odd bear-offs) are added.
"""

from __future__ import annotations

import random
from dataclasses import replace

import tavla
from tavla.core.dice import ROLLS
from tavla.core.protocol import WHITE
from tavla.rules.backgammon import BackgammonPosition


def own_tpn(mover: dict[int, int], other: dict[int, int], *, bar: tuple[int, int] = (0, 0)) -> str:
    """TPN with White to act; ``mover`` is White's points, ``other`` Black's in his numbering."""
    fields = ["-"] * 24
    for point, count in mover.items():
        fields[point - 1] = f"{count}w"
    for point, count in other.items():
        if fields[24 - point] != "-":
            raise ValueError(f"both sides on White's point {25 - point}")
        fields[24 - point] = f"{count}b"
    off = (15 - sum(mover.values()) - bar[0], 15 - sum(other.values()) - bar[1])
    return f"tabla {'/'.join(fields)} {bar[0]},{bar[1]} {off[0]},{off[1]} w -"


def extreme_positions() -> list[tuple[BackgammonPosition, str]]:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2}
    cases = [
        (own_tpn({6: 13}, closed, bar=(2, 0)), "closed board, two on the bar"),
        (
            own_tpn({}, {1: 2, 2: 2, 3: 2, 5: 2, 6: 2, 13: 5}, bar=(15, 0)),
            "fifteen on the bar, one point open",
        ),
        (
            own_tpn({6: 11}, {1: 2, 2: 2, 3: 1, 4: 2, 5: 2, 6: 2, 24: 2}, bar=(4, 2)),
            "four on the bar, one blot",
        ),
        (own_tpn({13: 12}, {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 14: 9}, bar=(3, 0)), "blots everywhere"),
        (own_tpn({6: 15}, {24: 15}), "all fifteen on the six point"),
        (own_tpn({6: 1, 2: 1}, {24: 2, 18: 13}), "two checkers, gaps, anchor behind"),
        (own_tpn({7: 1, 6: 2, 5: 3, 4: 3, 3: 3, 2: 3}, {3: 2, 12: 13}), "last checker outside"),
        (own_tpn({2: 1}, {20: 15}), "fourteen off, one left"),
        (own_tpn({24: 2, 6: 13}, {7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 2: 3}), "behind a full prime"),
        (
            own_tpn({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 4}, bar=(0, 1)),
            "start, opponent on bar",
        ),
        (own_tpn({5: 2, 4: 2, 3: 2, 2: 2, 1: 7}, {12: 15}), "bear-off, crowded low points"),
        (own_tpn({24: 1, 1: 14}, {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 5}), "one straggler behind a 6-prime"),
        (own_tpn({6: 10, 24: 1}, {23: 2, 22: 2, 21: 2, 20: 2, 18: 2, 13: 1}, bar=(4, 2)), "both on the bar"),
        (own_tpn({10: 1, 6: 2}, {5: 3, 4: 3, 3: 3, 2: 3, 1: 2}), "race, single checkers far"),
    ]
    return [(BackgammonPosition.from_notation(text), tag) for text, tag in cases]


def game_positions(seed: int) -> list[BackgammonPosition]:
    """Every position of one random game where a roll is due (dice removed)."""
    game = tavla.new_game("tabla")
    dice = tavla.SeededDice(seed)
    choose = random.Random(seed)
    seen: list[BackgammonPosition] = []
    while not game.is_over:
        game.roll(source=dice)
        position: BackgammonPosition = game.position  # type: ignore[assignment]
        seen.append(replace(position, dice=None))
        # Sorted so that the sample does not depend on the order the generator lists turns in.
        turns = sorted(game.legal_turns(), key=lambda turn: turn.after.notation())
        game.play(choose.choice(turns))
    return seen


def is_on_bar(position: BackgammonPosition) -> bool:
    return position.bar[position.side] > 0


def is_bearing_off(position: BackgammonPosition) -> bool:
    mine = [n if position.side == WHITE else -n for n in position.points]
    outside = mine[6:] if position.side == WHITE else mine[:18]
    return not is_on_bar(position) and not any(count > 0 for count in outside)


def can_hit(position: BackgammonPosition) -> bool:
    return any(
        "*" in turn.text  # the move text marks every hit
        for roll, _ in ROLLS
        for turn in position.with_roll(roll).legal_turns()
    )


def sample_positions(count: int, seed: int) -> list[tuple[BackgammonPosition, str]]:
    """About ``count`` distinct positions with tags, from random games and by quota."""
    pool: dict[str, BackgammonPosition] = {}
    game_seed = seed * 1000
    while len(pool) < count * 12:
        for position in game_positions(game_seed):
            pool.setdefault(position.notation(), position)
        game_seed += 1
    choose = random.Random(seed)
    candidates = list(pool.values())
    choose.shuffle(candidates)
    quotas = {"bar": count // 4, "bear-off": count // 4, "hit": count // 4}
    picked: list[tuple[BackgammonPosition, str]] = []
    for position in candidates:
        if len(picked) >= count:
            break
        tag = "bar" if is_on_bar(position) else "bear-off" if is_bearing_off(position) else None
        if tag is None and quotas["hit"] > 0 and can_hit(position):
            tag = "hit"
        if tag is None:
            if sum(quotas.values()) < count - len(picked):
                picked.append((position, "other"))
        elif quotas[tag] > 0:
            quotas[tag] -= 1
            picked.append((position, tag))
    return picked
