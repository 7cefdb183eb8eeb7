"""gnubg-style move text in the mover's numbering (RULES.md 1.1).

A step is ``(from, to, hit)`` with 25 for the bar and 0 for off. A turn's canonical
text chains the steps of one checker (``24/14``, showing an intermediate point only
where it hit: ``13/7*/5``), counts repeated moves (``8/5(2)``), and lists the moves
from the highest starting point down; ``-`` is a turn with no step.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tavla.core.digits import is_digits
from tavla.core.errors import NotationError

Step = tuple[int, int, bool]
BAR = 25
OFF = 0


def point_name(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def _chains(steps: Iterable[Step]) -> list[list[Step]]:
    chains: list[list[Step]] = []
    for step in steps:
        for chain in reversed(chains):
            if chain[-1][1] == step[0] and step[0] != OFF:
                chain.append(step)
                break
        else:
            chains.append([step])
    return chains


def _chain_text(chain: list[Step]) -> str:
    parts = [point_name(chain[0][0])]
    for index, (_, to, hit) in enumerate(chain):
        last = index == len(chain) - 1
        if hit or last:
            parts.append(point_name(to) + ("*" if hit else ""))
    return "/".join(parts)


def format_turn(steps: Sequence[Step]) -> str:
    """The canonical text of a turn played as ``steps`` (in playing order)."""
    if not steps:
        return "-"
    chains = _chains(steps)
    keyed = sorted(
        ((chain[0][0], chain[-1][1], _chain_text(chain)) for chain in chains),
        key=lambda item: (-item[0], -item[1], item[2]),
    )
    counts = Counter(text for _, _, text in keyed)
    parts: list[str] = []
    for _, _, text in keyed:
        if text in counts:
            count = counts.pop(text)
            parts.append(text if count == 1 else f"{text}({count})")
    return " ".join(parts)


def format_step(step: Step) -> str:
    return f"{point_name(step[0])}/{point_name(step[1])}{'*' if step[2] else ''}"


@dataclass(frozen=True)
class ParsedMove:
    """A move text read without a position: checker paths and the points marked ``*``."""

    paths: tuple[tuple[int, ...], ...]
    """One entry per checker moved: the points it visits, in the mover's numbering."""
    starred: frozenset[int]


_TOKEN = re.compile(r"^(?P<body>[^()]+)(?:\((?P<count>[1-9][0-9]?)\))?$")


def _parse_point(text: str, token: str, first: bool) -> int:
    lowered = text.lower()
    if lowered == "bar" and first:
        return BAR
    if lowered == "off" and not first:
        return OFF
    if is_digits(text) and 1 <= int(text) <= 24:
        return int(text)
    raise NotationError("move", token, f"point {text!r} is not 1-24, 'bar' (from) or 'off' (to)")


def parse_move(text: str) -> ParsedMove:
    """Read ``24/18 13/11``, ``bar/22*``, ``6/off``, ``8/5(2)``, ``13/7*/5`` or ``-``."""
    stripped = text.strip()
    if stripped in ("-", ""):
        if stripped == "":
            raise NotationError("move", text, "empty move; write '-' for a turn with no move")
        return ParsedMove((), frozenset())
    paths: list[tuple[int, ...]] = []
    starred: set[int] = set()
    for token in stripped.replace(",", " ").split():
        match = _TOKEN.match(token)
        if match is None:
            raise NotationError("move", token, "expected from/to such as 24/18, bar/22* or 8/5(2)")
        pieces = match.group("body").split("/")
        if len(pieces) < 2:
            raise NotationError("move", token, "expected from/to such as 24/18")
        path: list[int] = []
        for index, piece in enumerate(pieces):
            hit = piece.endswith("*")
            name = piece[:-1] if hit else piece
            point = _parse_point(name, token, first=index == 0)
            if hit:
                if index == 0:
                    raise NotationError("move", token, "'*' marks the point landed on, not the start")
                starred.add(point)
            path.append(point)
        for a, b in itertools.pairwise(path):
            if b >= a:
                raise NotationError("move", token, f"{point_name(a)}/{point_name(b)} does not move forward")
        count = int(match.group("count") or 1)
        paths.extend([tuple(path)] * count)
    return ParsedMove(tuple(paths), frozenset(starred))
