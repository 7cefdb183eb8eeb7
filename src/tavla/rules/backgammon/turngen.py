"""Every legal turn of the tabla family, fast (RULES.md 1.3, 2 and 4).

The generator works on Boards (see :mod:`tavla.rules.backgammon.movegen`): it moves
checkers on one mutable list, depth-first (step, recurse, undo), and builds a tuple
only for a finished turn, which is also the key that de-duplicates turns by the
position they produce. It returns the same turns as the generic breadth-first
:func:`tavla.rules.turns.search_turns` with :func:`~tavla.rules.backgammon.movegen.tabla_steps`
(the tests compare them), much faster:

- Within a run of equal dice the steps are taken in non-increasing order of their
  source point (:func:`_segment_search` says why this loses nothing), so each
  combination of checkers is tried once instead of in every order.
- Between runs of equal dice (chelebi's groups of four) the partial turns are
  de-duplicated by position, so 24 dice grow level by level instead of as a tree.
- Tabla's two shapes of roll have their own searches, without the general machinery:
  :func:`_plain` for two different dice and :func:`_double` for four equal ones.
- Far from home, with nothing on the bar, no step can bear off, and whether a point is
  open never changes during a turn (a point of two or more opposing checkers can't be
  hit). Then the legal steps are listed once and the search only checks that a source
  still holds a checker: :func:`_plain_far` for two different dice and
  :func:`_run_far` for four equal ones (also used for chelebi's groups).
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla.rules.backgammon.movegen import BAR, OPP_BAR, Board
from tavla.rules.movetext import Step

Path = tuple[Step, ...]
Found = dict[Board, Path]

# Steps are shared immutable triples: a finished turn's path allocates no new ones.
_STEPS: dict[tuple[int, int, bool], Step] = {
    (p, t, hit): (p, t, hit) for p in range(1, 26) for t in range(0, 25) for hit in (False, True)
}
Move = tuple[int, int, Step, Step]
# _MOVES[die][point]: an in-board step's source, target, and step without and with a
# hit; entries with point <= die are placeholders that callers never read.
_MOVES: list[list[Move]] = [
    [
        (p, p - die, _STEPS[p, p - die, False], _STEPS[p, p - die, True])
        if p > die
        else (p, 0, (p, 0, False), (p, 0, False))
        for p in range(25)
    ]
    for die in range(7)
]


def turn_boards(
    start: Board, sequences: Sequence[Sequence[int]], *, prefer_first: bool = False
) -> tuple[int, Found]:
    """Every maximal turn from ``start``: (dice played, {resulting board: steps}).

    ``sequences`` are the orders in which the dice may be played, as for
    :func:`tavla.rules.turns.search_turns`: as many dice of one order as possible, in
    order; with ``prefer_first``, when a single die is the most any order plays, the
    first order's die if it can be played (the larger-die rule). With no die playable
    the result is ``(0, {start: ()})``.
    """
    if (
        prefer_first
        and len(sequences) == 2
        and len(sequences[0]) == 2
        and sequences[0][0] > sequences[0][1]
        and sequences[1][0] == sequences[0][1]
        and sequences[1][1] == sequences[0][0]
        and len(sequences[1]) == 2
    ):
        if _far_from_home(start, 2):
            return _plain_far(start, sequences[0][0], sequences[0][1])
        return _plain(start, sequences[0][0], sequences[0][1])
    if len(sequences) == 1 and len(sequences[0]) == 4 and len(set(sequences[0])) == 1:
        return _double(start, sequences[0][0])
    results = [_sequence_search(start, dice) for dice in sequences]
    best = max(played for played, _ in results)
    if prefer_first and best == 1 and results[0][0] == 1:
        return results[0]
    if len(results) == 1:
        return results[0]
    turns: Found = {}
    for played, found in results:
        if played == best:
            for board, path in found.items():
                if board not in turns:
                    turns[board] = path
    return best, turns


class TooManyTurns(Exception):
    """Raised by a search given a ``limit`` when a level of positions outgrows it."""


def turn_boards_within(
    start: Board, sequences: Sequence[Sequence[int]], limit: int, *, prefer_first: bool = False
) -> tuple[int, Found] | None:
    """:func:`turn_boards`, or None as soon as the distinct positions after a group
    of dice (or the turns) exceed ``limit``: bounded work for chelebi's 1-1."""
    try:
        if len(sequences) == 1 and len(sequences[0]) > 4:
            played, found = _sequence_search(start, sequences[0], limit)
        else:
            played, found = turn_boards(start, sequences, prefer_first=prefer_first)
    except TooManyTurns:
        return None
    return None if len(found) > limit else (played, found)


def _segments(dice: Sequence[int]) -> list[list[int]]:
    """Cut the dice after every run of four or more equal dice (chelebi's groups).

    ``[6, 3]`` and ``[2, 2, 2, 2]`` stay whole; ``[1]*4 + [2]*4`` gives two segments.
    """
    segments: list[list[int]] = [[]]
    for die in dice:
        current = segments[-1]
        if len(current) >= 4 and current[-1] != die and current[-4:] == [current[-1]] * 4:
            current = []
            segments.append(current)
        current.append(die)
    return segments


def _sequence_search(start: Board, dice: Sequence[int], limit: int | None = None) -> tuple[int, Found]:
    """As many of ``dice`` as possible, in order: (dice played, boards with a path)."""
    level: Found = {start: ()}
    played = 0
    for segment in _segments(dice):
        got, following = _segment_search(level, segment, limit)
        if got == 0:
            break
        played += got
        level = following
        if got < len(segment):
            break
    return played, level


def _highest(board: list[int]) -> int:
    """The mover's highest occupied point, 25 with a checker on the bar, 0 when all off."""
    if board[BAR]:
        return BAR
    point = 24
    while point and board[point] <= 0:
        point -= 1
    return point


def _far_from_home(board: Board, steps: int) -> bool:
    """True when ``steps`` single steps can't bear off: nothing is on the bar and at
    least ``steps`` checkers are outside the home board (a step brings one home)."""
    if board[BAR]:
        return False
    outside = 0
    for point in range(24, 6, -1):
        n = board[point]
        if n > 0:
            outside += n
            if outside >= steps:
                return True
    return False


def _segment_search(level: Found, dice: Sequence[int], limit: int | None = None) -> tuple[int, Found]:
    """Play as many of ``dice`` as possible, in order, from every board of ``level``.

    Returns the most dice any board played and the boards reached with that many,
    each with the first path found to it (the level's path, then the new steps).
    With a ``limit``, raises TooManyTurns once more boards than that are found.

    Why steps of equal dice may be taken in non-increasing order of source point:
    take a legal sequence with a step from p directly followed by a step from q > p
    (same die d). Played q first, then p, both steps stay legal and end in the same
    position: the p-step never brings a checker to q or to q - d (it lands on p - d),
    so q still has its checker and q - d the same opponent count; the q-step only
    adds a checker to q - d, which can't close p - d; a bear-off from p with p < d
    needs p to be the highest point, impossible while q's checker is above it, so the
    p-step was an exact bear-off or a move inside the board, still legal; and q = bar
    can't follow another step, the bar being entered before anything else moves.
    Swapping such pairs sorts any legal sequence, so the sorted ones reach every
    position. (They even reach different positions: the sources can be read back
    from the result, highest point first.)
    """
    count = len(dice)
    found_at: list[Found] = [{} for _ in range(count + 1)]
    b: list[int] = []
    path: list[Step] = []
    prefix: Path = ()
    steps = _STEPS

    def search(depth: int, top: int, high: int) -> None:
        if depth == count:
            key = tuple(b)
            if key not in found_at[depth]:
                found_at[depth][key] = prefix + tuple(path)
            return
        die = dice[depth]
        if depth and dice[depth - 1] != die:
            top = BAR  # the ordering holds within a run of equal dice only
        moved = False
        if high == BAR:
            # Entering: the only legal step while the bar holds a checker.
            target = BAR - die
            x = b[target]
            if x >= -1:
                moved = True
                b[BAR] -= 1
                if x == -1:
                    b[target] = 1
                    b[OPP_BAR] += 1
                else:
                    b[target] = x + 1
                path.append(steps[BAR, target, x == -1])
                search(depth + 1, BAR, BAR if b[BAR] else _highest(b))
                path.pop()
                b[target] = x
                b[BAR] += 1
                if x == -1:
                    b[OPP_BAR] -= 1
        else:
            home = high <= 6
            for point in range(high if high < top else top, 0, -1):
                n = b[point]
                if n <= 0:
                    continue
                target = point - die
                if target > 0:
                    x = b[target]
                    if x < -1:
                        continue
                    moved = True
                    b[point] = n - 1
                    if x == -1:
                        b[target] = 1
                        b[OPP_BAR] += 1
                    else:
                        b[target] = x + 1
                    path.append(steps[point, target, x == -1])
                    new_high = high
                    if n == 1 and point == high:
                        new_high = point - 1  # ``target`` holds a checker now
                        while b[new_high] <= 0:
                            new_high -= 1
                    search(depth + 1, point, new_high)
                    path.pop()
                    b[target] = x
                    b[point] = n
                    if x == -1:
                        b[OPP_BAR] -= 1
                elif home and (target == 0 or point == high):
                    moved = True
                    b[point] = n - 1
                    b[0] += 1
                    path.append(steps[point, 0, False])
                    new_high = high
                    if n == 1 and point == high:
                        new_high = point - 1
                        while new_high and b[new_high] <= 0:
                            new_high -= 1
                    search(depth + 1, point, new_high)
                    path.pop()
                    b[0] -= 1
                    b[point] = n
        if not moved:
            key = tuple(b)
            if key not in found_at[depth]:
                found_at[depth][key] = prefix + tuple(path)

    same = all(die == dice[0] for die in dice)
    for board, start_path in level.items():
        if same and count == 4 and _far_from_home(board, 4):
            _run_far(board, dice[0], start_path, found_at)
        else:
            b = list(board)
            prefix = start_path
            search(0, BAR, _highest(b))
        if limit is not None and len(found_at[count]) > limit:
            raise TooManyTurns
    for depth in range(count, -1, -1):
        if found_at[depth]:
            return depth, found_at[depth]
    raise AssertionError("a search always records its start")  # pragma: no cover


def _run_far(board: Board, die: int, prefix: Path, found_at: list[Found]) -> None:
    """Four dice of ``die`` from ``board`` when ``_far_from_home(board, 4)``, into
    ``found_at[dice played]``: the search of :func:`_segment_search`, unrolled.

    Candidate sources are the points holding a checker now or reachable on the way,
    whose target is open; they are listed once, highest first, and each level of the
    loop starts where the one above stands (the non-increasing order).
    """
    candidates: set[int] = set()
    for point in range(24, die, -1):
        if board[point] > 0:
            for reach in range(point, max(point - 4 * die, die), -die):
                candidates.add(reach)
    table = _MOVES[die]
    moves = [table[point] for point in sorted(candidates, reverse=True) if board[point - die] >= -1]
    b = list(board)
    end = len(moves)
    setdefault = found_at[4].setdefault
    moved1 = False
    for i1 in range(end):
        q1, t1, s1, h1 = moves[i1]
        n1 = b[q1]
        if n1 <= 0:
            continue
        moved1 = True
        x1 = b[t1]
        b[q1] = n1 - 1
        if x1 == -1:
            b[t1] = 1
            b[OPP_BAR] += 1
            s1 = h1
        else:
            b[t1] = x1 + 1
        moved2 = False
        for i2 in range(i1, end):
            q2, t2, s2, h2 = moves[i2]
            n2 = b[q2]
            if n2 <= 0:
                continue
            moved2 = True
            x2 = b[t2]
            b[q2] = n2 - 1
            if x2 == -1:
                b[t2] = 1
                b[OPP_BAR] += 1
                s2 = h2
            else:
                b[t2] = x2 + 1
            moved3 = False
            for i3 in range(i2, end):
                q3, t3, s3, h3 = moves[i3]
                n3 = b[q3]
                if n3 <= 0:
                    continue
                moved3 = True
                x3 = b[t3]
                b[q3] = n3 - 1
                if x3 == -1:
                    b[t3] = 1
                    b[OPP_BAR] += 1
                    s3 = h3
                else:
                    b[t3] = x3 + 1
                moved4 = False
                for i4 in range(i3, end):
                    q4, t4, s4, h4 = moves[i4]
                    n4 = b[q4]
                    if n4 <= 0:
                        continue
                    moved4 = True
                    x4 = b[t4]
                    b[q4] = n4 - 1
                    if x4 == -1:
                        b[t4] = 1
                        b[OPP_BAR] += 1
                        key = tuple(b)
                        b[OPP_BAR] -= 1
                        s4 = h4
                    else:
                        b[t4] = x4 + 1
                        key = tuple(b)
                    b[t4] = x4
                    b[q4] = n4
                    setdefault(key, (*prefix, s1, s2, s3, s4))  # hashes the key once
                if not moved4:
                    _keep(found_at[3], b, (*prefix, s1, s2, s3))
                b[t3] = x3
                b[q3] = n3
                if x3 == -1:
                    b[OPP_BAR] -= 1
            if not moved3:
                _keep(found_at[2], b, (*prefix, s1, s2))
            b[t2] = x2
            b[q2] = n2
            if x2 == -1:
                b[OPP_BAR] -= 1
        if not moved2:
            _keep(found_at[1], b, (*prefix, s1))
        b[t1] = x1
        b[q1] = n1
        if x1 == -1:
            b[OPP_BAR] -= 1
    if not moved1:
        _keep(found_at[0], b, prefix)


def _keep(found: Found, board: list[int], path: Path) -> None:
    key = tuple(board)
    if key not in found:
        found[key] = path


def _plain_far(start: Board, high: int, low: int) -> tuple[int, Found]:
    """:func:`turn_boards` for two different dice when ``_far_from_home(start, 2)``.

    A step is legal when its source holds a checker and its target is open, and
    openness is fixed for the turn. So when the low die is played first and the high
    die then moves a checker that stood on its point at the start, the same two steps
    were legal high die first and reach the same position: the low-first order only
    adds the turns whose second step moves the checker that just arrived on a point
    that was not the mover's.
    """
    b = list(start)
    sources = [point for point in range(24, 0, -1) if b[point] > 0]
    high_table = _MOVES[high]
    low_table = _MOVES[low]
    legal = {
        high: [high_table[point] for point in sources if point > high and b[point - high] >= -1],
        low: [low_table[point] for point in sources if point > low and b[point - low] >= -1],
    }
    found: Found = {}
    setdefault = found.setdefault  # one hash per key, where ``in`` then ``[]=`` take two
    for first, second in ((high, low), (low, high)):
        low_first = first == low
        seconds = legal[second]
        for point, target, step, hit_step in legal[first]:
            n = b[point]
            x = b[target]
            b[point] = n - 1
            if x == -1:
                b[target] = 1
                b[OPP_BAR] += 1
                step = hit_step
            else:
                b[target] = x + 1
            if x <= 0:
                # The checker on ``target`` is new: its own second step, if open.
                to = target - second
                if to > 0 and b[to] >= -1:
                    y = b[to]
                    b[target] = 0
                    if y == -1:
                        b[to] = 1
                        b[OPP_BAR] += 1
                        key = tuple(b)
                        b[OPP_BAR] -= 1
                        second_step = _STEPS[target, to, True]
                    else:
                        b[to] = y + 1
                        key = tuple(b)
                        second_step = _STEPS[target, to, False]
                    b[to] = y
                    b[target] = 1
                    setdefault(key, (step, second_step))
            if not low_first:
                for other, to, plain, hit in seconds:
                    m = b[other]
                    if m <= 0:
                        continue
                    y = b[to]
                    b[other] = m - 1
                    if y == -1:
                        b[to] = 1
                        b[OPP_BAR] += 1
                        key = tuple(b)
                        b[OPP_BAR] -= 1
                        plain = hit
                    else:
                        b[to] = y + 1
                        key = tuple(b)
                    b[to] = y
                    b[other] = m
                    setdefault(key, (step, plain))
            b[target] = x
            b[point] = n
            if x == -1:
                b[OPP_BAR] -= 1
    if found:
        return 2, found
    # One die at most: the high one if it can be played (RULES.md 1.3).
    for die in (high, low):
        if legal[die]:
            singles: Found = {}
            for point, target, step, hit_step in legal[die]:
                after = list(start)
                after[point] -= 1
                if after[target] == -1:
                    after[target] = 1
                    after[OPP_BAR] += 1
                    step = hit_step
                else:
                    after[target] += 1
                singles[tuple(after)] = (step,)
            return 1, singles
    return 0, {start: ()}


def _legal_moves(b: list[int], die: int, top: int = BAR) -> list[tuple[int, int]]:
    """(source, target) of every legal step with ``die`` on ``b`` from a source no
    higher than ``top``, highest source first; target 0 is off."""
    if b[BAR]:
        target = BAR - die
        return [(BAR, target)] if b[target] >= -1 else []
    high = 24
    while high and b[high] <= 0:
        high -= 1
    if high > 6:
        start = high if high < top else top
        return [(p, p - die) for p in range(start, die, -1) if b[p] > 0 and b[p - die] >= -1]
    moves = []
    for point in range(high if high < top else top, 0, -1):
        if b[point] > 0:
            target = point - die
            if target > 0:
                if b[target] >= -1:
                    moves.append((point, target))
            elif target == 0 or point == high:
                moves.append((point, 0))
    return moves


def _plain(start: Board, high: int, low: int) -> tuple[int, Found]:
    """:func:`turn_boards` for two different dice, any position (bar, bear-off)."""
    b = list(start)
    steps = _STEPS
    found: Found = {}
    setdefault = found.setdefault
    singles: dict[int, Found] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        for point, target in _legal_moves(b, first):
            n = b[point]
            x = b[target]
            b[point] = n - 1
            if target == 0:
                b[0] = x + 1
                step = steps[point, 0, False]
            elif x == -1:
                b[target] = 1
                b[OPP_BAR] += 1
                step = steps[point, target, True]
            else:
                b[target] = x + 1
                step = steps[point, target, False]
            seconds = _legal_moves(b, second)
            for other, to in seconds:
                m = b[other]
                y = b[to]
                b[other] = m - 1
                if to == 0:
                    b[0] = y + 1
                    setdefault(tuple(b), (step, steps[other, 0, False]))
                elif y == -1:
                    b[to] = 1
                    b[OPP_BAR] += 1
                    setdefault(tuple(b), (step, steps[other, to, True]))
                    b[OPP_BAR] -= 1
                else:
                    b[to] = y + 1
                    setdefault(tuple(b), (step, steps[other, to, False]))
                b[to] = y
                b[other] = m
            if not seconds and not found:
                singles[first][tuple(b)] = (step,)
            b[target] = x
            b[point] = n
            if x == -1 and target:
                b[OPP_BAR] -= 1
    if found:
        return 2, found
    # One die at most: the high one if it can be played (RULES.md 1.3).
    for die in (high, low):
        if singles[die]:
            return 1, singles[die]
    return 0, {start: ()}


def _double(start: Board, die: int) -> tuple[int, Found]:
    """:func:`turn_boards` for four equal dice, any position: the search of
    :func:`_segment_search` (non-increasing sources), with the far-from-home loops."""
    found_at: list[Found] = [{}, {}, {}, {}, {}]
    if _far_from_home(start, 4):
        _run_far(start, die, (), found_at)
    else:
        _double_search(list(start), die, 0, BAR, [], found_at)
    for depth in range(4, -1, -1):
        if found_at[depth]:
            return depth, found_at[depth]
    raise AssertionError("a search always records its start")  # pragma: no cover


def _double_search(
    b: list[int], die: int, depth: int, top: int, path: list[Step], found_at: list[Found]
) -> None:
    moves = _legal_moves(b, die, top) if depth < 4 else []
    if not moves:
        found_at[depth].setdefault(tuple(b), tuple(path))
        return
    steps = _STEPS
    for point, target in moves:
        n = b[point]
        x = b[target]
        b[point] = n - 1
        if target == 0:
            b[0] = x + 1
            path.append(steps[point, 0, False])
        elif x == -1:
            b[target] = 1
            b[OPP_BAR] += 1
            path.append(steps[point, target, True])
        else:
            b[target] = x + 1
            path.append(steps[point, target, False])
        _double_search(b, die, depth + 1, point, path, found_at)
        path.pop()
        b[target] = x
        b[point] = n
        if x == -1 and target:
            b[OPP_BAR] -= 1
