"""Maximum-weight matching (networkx, exact with integer weights of any size) and the
completion test: can a set of players all be paired, bar one who may take the bye?"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import networkx as nx

Weight = Callable[[int, int], int | None]


def best_matching(vertices: Sequence[int], weight: Weight) -> dict[int, int]:
    """The maximum-weight matching of ``vertices`` (indices into the caller's player
    list, in rank order); ``weight(u, v)`` for u < v gives the edge's weight, None or 0
    when the two may not meet. Returns each matched vertex's partner."""
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(vertices)
    for i, u in enumerate(vertices):
        for v in vertices[i + 1 :]:
            w = weight(u, v)
            if w:
                graph.add_edge(u, v, weight=w)
    partner: dict[int, int] = {}
    for u, v in nx.max_weight_matching(graph):
        partner[u] = v
        partner[v] = u
    return partner


def _greedy_completes(
    vertices: Sequence[int], allowed: Callable[[int, int], bool], may_sit_out: Callable[[int], bool]
) -> bool:
    """A quick proof that the players can be completed: pair each in turn with the
    first free player it may meet. Failure proves nothing."""
    free = list(vertices)
    left_over: list[int] = []
    while free:
        u = free.pop(0)
        for k, v in enumerate(free):
            if allowed(u, v):
                del free[k]
                break
        else:
            left_over.append(u)
    return not left_over or (len(left_over) == 1 and may_sit_out(left_over[0]))


def completes(
    vertices: Sequence[int], allowed: Callable[[int, int], bool], may_sit_out: Callable[[int], bool]
) -> bool:
    """True when ``vertices`` can all be paired, or all but one who ``may_sit_out``."""
    if len(vertices) < 2:
        return all(may_sit_out(v) for v in vertices)
    if _greedy_completes(vertices, allowed, may_sit_out):
        return True
    if _greedy_completes(list(vertices)[::-1], allowed, may_sit_out):
        return True

    def weight(u: int, v: int) -> int | None:
        if not allowed(u, v):
            return None
        # Pairs first (each worth more than all the second field together), then one
        # per pair member who may not sit out: the one left over may sit out if anyone can.
        return pair_value + (not may_sit_out(u)) + (not may_sit_out(v))

    pair_value = 2 * len(vertices) + 1

    partner = best_matching(list(vertices), weight)
    unmatched = [v for v in vertices if v not in partner]
    return not unmatched or (len(unmatched) == 1 and may_sit_out(unmatched[0]))
