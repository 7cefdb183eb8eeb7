"""Who may run what in a federation (RULES.md 11.1), as predicates over a standing.

The site owner makes federations and hands each to its administrators; an
administrator runs his own federation (its arbiters and players) and no other.
Private data (members' contact addresses, pending applications) is the
administrators' of that federation alone: not the site owner's, not another's.
"""

from __future__ import annotations

from tavla.server.federations.standing import Role, Standing


def can_create_federation(who: Standing) -> bool:
    return who.site_owner


def can_appoint(who: Standing, federation_id: int, role: Role) -> bool:
    """May ``who`` give ``role`` in the federation to somebody (or take it away)?"""
    if role is Role.ADMINISTRATOR:
        return who.site_owner
    return who.holds(federation_id, Role.ADMINISTRATOR)


def can_see_private(who: Standing, federation_id: int) -> bool:
    return who.holds(federation_id, Role.ADMINISTRATOR)


def can_decide_applications(who: Standing, federation_id: int) -> bool:
    return who.holds(federation_id, Role.ADMINISTRATOR)


def can_apply(who: Standing, federation_id: int) -> bool:
    """A signed-in account that is not yet a player of the federation may ask to be."""
    return who.user_id is not None and not who.holds(federation_id, Role.PLAYER)
