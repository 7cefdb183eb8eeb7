"""A random turn played die by die through a position's step builder, for the tests."""

from __future__ import annotations

import random
from typing import Any


def turn_by_steps(position: Any, rng: random.Random, undo_rate: float = 0.3) -> Any:
    """Play random legal steps, now and then taking one back and playing it again;
    return the committed turn. Checks that the builder never stalls mid-turn."""
    builder = position.steps()
    while not builder.complete:
        options = builder.legal_steps()
        assert options, f"no step but the turn is incomplete in {position}"
        assert len(set(options)) == len(options), f"a step offered twice: {options} in {position}"
        choice = rng.choice(options)
        builder.step(choice)
        if rng.random() < undo_rate:
            builder.undo()
            assert choice in builder.legal_steps()
            builder.step(choice)
    assert builder.legal_steps() == []
    return builder.commit()
