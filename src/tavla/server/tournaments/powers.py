"""Who may do what in a tournament, as predicates over a standing (RULES.md 11.1, 11.4).

A tournament belongs to one federation: its administrators run it, its players enter
it, its arbiters make results official. Nobody else, the site owner included, has any
power over it.
"""

from __future__ import annotations

from tavla.server.federations.standing import Role, Standing


def can_run(who: Standing, federation_id: int) -> bool:
    """Create the tournament, open registration and check-in, add bots, start rounds."""
    return who.holds(federation_id, Role.ADMINISTRATOR)


def can_enter(who: Standing, federation_id: int) -> bool:
    return who.holds(federation_id, Role.PLAYER)


def can_arbitrate(who: Standing, federation_id: int, players: tuple[int | None, int | None]) -> bool:
    """An arbiter of the federation who does not play in the match confirms its result."""
    return who.holds(federation_id, Role.ARBITER) and who.user_id not in players


def can_withdraw(who: Standing, federation_id: int, entered: set[int]) -> bool:
    """An administrator or arbiter of the federation withdraws a player from a running
    tournament, unless he is himself entered in it: withdrawing a rival would hand him,
    or those he is level with, a forfeit win (``entered``: the entrants' account ids)."""
    official = who.holds(federation_id, Role.ADMINISTRATOR) or who.holds(federation_id, Role.ARBITER)
    return official and who.user_id not in entered
