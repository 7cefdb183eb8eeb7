"""Live games: one room per game owns its state; every intent passes through it."""
