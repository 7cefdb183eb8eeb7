"""The rules of federations as predicates (RULES.md 11.1, 11.2), over every standing
and every kind of game, without a server: what the HTTP and websocket tests prove at
the edges holds here for each combination."""

from __future__ import annotations

import itertools

import pytest

from tavla.server.federations import powers
from tavla.server.federations.games import (
    GameAccess,
    can_moderate_chat,
    can_observe,
    can_read_chat,
    can_warn,
    can_write_chat,
)
from tavla.server.federations.standing import NOBODY, Role, Standing

OURS, THEIRS = 1, 2
PLAYER, OPPONENT, SOMEONE = 10, 11, 12

STANDINGS = {
    "nobody": NOBODY,
    "someone": Standing(SOMEONE),
    "owner": Standing(SOMEONE, site_owner=True),
    **{
        f"{role}-of-{where}": Standing(SOMEONE, roles=frozenset({(federation, role)}))
        for role in Role
        for where, federation in (("ours", OURS), ("theirs", THEIRS))
    },
    "seated": Standing(PLAYER, roles=frozenset({(OURS, Role.PLAYER)})),
    "seated-arbiter": Standing(PLAYER, roles=frozenset({(OURS, Role.PLAYER), (OURS, Role.ARBITER)})),
}
GAMES = {
    "-".join(
        (
            "federation" if federation else "site",
            "open" if spectators else "private",
            "over" if over else "live",
        )
    ): GameAccess((PLAYER, OPPONENT), spectators, federation, over)
    for federation, spectators, over in itertools.product((OURS, None), (True, False), (True, False))
}


@pytest.mark.parametrize(("who", "game"), list(itertools.product(STANDINGS, GAMES)))
def test_watching_and_the_chat_follow_the_rules(who: str, game: str) -> None:
    standing, access = STANDINGS[who], GAMES[game]
    seated = who.startswith("seated")
    arbiter = who == "arbiter-of-ours" and access.federation_id == OURS
    assert can_observe(standing, access) == (access.finished or access.spectators or seated or arbiter)
    assert can_read_chat(standing, access) == (seated or arbiter)
    assert can_write_chat(standing, access) == seated
    assert can_moderate_chat(standing, access) == arbiter  # never a player of the game
    official = who in ("arbiter-of-ours", "administrator-of-ours") and access.federation_id == OURS
    assert can_warn(standing, access) == official  # RULES.md 8.3, 11.4: never a player


@pytest.mark.parametrize(("who", "role"), list(itertools.product(STANDINGS, Role)))
def test_running_a_federation_follows_the_rules(who: str, role: Role) -> None:
    standing = STANDINGS[who]
    administrator = who == "administrator-of-ours"
    assert powers.can_create_federation(standing) == (who == "owner")
    assert powers.can_appoint(standing, OURS, role) == (
        who == "owner" if role is Role.ADMINISTRATOR else administrator
    )
    assert powers.can_see_private(standing, OURS) == administrator
    assert powers.can_decide_applications(standing, OURS) == administrator
    member = who == "player-of-ours" or who.startswith("seated")
    assert powers.can_apply(standing, OURS) == (standing.user_id is not None and not member)
