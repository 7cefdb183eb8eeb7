"""The tournaments' pages: a tournament's public page (entrants, rounds, standings,
updating live) and its administration page (the administrators' steps, the arbiters'
confirmations)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tavla.core.registry import all_games, find_game
from tavla.engine.registry import LEVELS
from tavla.server.deps import Db, OptionalSession, PlatformDep, RowId
from tavla.server.errors import ApiError
from tavla.server.federations.standing import Role, standing_of
from tavla.server.i18n import N_, translate
from tavla.server.live.bots import LEVEL_TITLES
from tavla.server.pages import page_language, render
from tavla.server.stakes import tournaments as tournament_money
from tavla.server.tournaments import powers, rounds, views
from tavla.server.tournaments.schemas import PairingView, TournamentView
from tavla.server.tournaments.stored import read_one_moment, tournament_at

router = APIRouter(include_in_schema=False)

FORMAT_NAMES = {
    rounds.SWISS: N_("Swiss"),
    rounds.KNOCKOUT: N_("Knockout"),
    rounds.ROUND_ROBIN: N_("Round robin"),
}
STATE_NAMES = {
    "draft": N_("In preparation"),
    "registration": N_("Registration open"),
    "check_in": N_("Check-in"),
    "running": N_("Running"),
    "finished": N_("Finished"),
}


def game_titles() -> dict[str, str]:
    return {definition.name: definition.facts.title for definition in all_games()}


def counts_sets(game: str) -> bool:
    """A game without dice (Abluka) plays its matches in sets and ranks on sets won."""
    return not find_game(game).facts.has_dice


def _own_board(pairing: PairingView, name: str | None) -> str | None:
    """Which side of the board ``name`` plays, if any."""
    if name is not None and pairing.white == name:
        return "white"
    if name is not None and pairing.black == name:
        return "black"
    return None


def _gameless(shown: TournamentView) -> int:
    """How many boards of the current round still wait for their game (a start that
    failed half way: the administrator starts the round again)."""
    if not shown.played_rounds:
        return 0
    boards = shown.played_rounds[-1].pairings
    return sum(1 for p in boards if p.black is not None and p.game_id is None and p.result is None)


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(
    tournament_id: RowId, request: Request, db: Db, platform: PlatformDep, session: OptionalSession
) -> Response:
    await read_one_moment(db)
    try:
        found = await tournament_at(db, tournament_id)
    except ApiError:
        return render(request, session, "missing.html", status=404)
    shown = await views.view(db, found)
    user = None if session is None else session.user
    who = await standing_of(db, user)
    name = None if user is None else user.name
    entry = next((e for e in shown.entrants if e.name == name), None)
    return render(
        request,
        session,
        "tournament.html",
        tournament=shown,
        game_title=game_titles().get(shown.game, shown.game),
        format_names=FORMAT_NAMES,
        state_names=STATE_NAMES,
        sets=counts_sets(shown.game),
        entry=entry,
        may_enter=entry is None and powers.can_enter(who, found.federation_id),
        runs_it=powers.can_run(who, found.federation_id) or who.holds(found.federation_id, Role.ARBITER),
        # A player confirms his own board's result here; arbiters on the administration page.
        confirm_for=lambda pairing: _own_board(pairing, name) is not None,
        pool=await tournament_money.terms_of(platform.staked.ledger, found.id),
    )


@router.get("/tournaments/{tournament_id}/admin", response_class=HTMLResponse)
async def administration_page(
    tournament_id: RowId, request: Request, db: Db, session: OptionalSession
) -> Response:
    """The administrators run the tournament here; the arbiters confirm results."""
    await read_one_moment(db)
    try:
        found = await tournament_at(db, tournament_id)
    except ApiError:
        return render(request, session, "missing.html", status=404)
    user = None if session is None else session.user
    name = None if user is None else user.name
    who = await standing_of(db, user)
    runs = powers.can_run(who, found.federation_id)
    arbitrates = who.holds(found.federation_id, Role.ARBITER)
    shown = await views.view(db, found)
    if not runs and not arbitrates:
        refusal = N_("only the administrators and arbiters of {federation} may open this page")
        message = translate(page_language(request, session), refusal, {"federation": shown.federation_name})
        return render(request, session, "missing.html", status=403, refused=message)
    return render(
        request,
        session,
        "tournament_admin.html",
        tournament=shown,
        format_names=FORMAT_NAMES,
        state_names=STATE_NAMES,
        sets=counts_sets(shown.game),
        runs=runs,
        arbitrates=arbitrates,
        levels=LEVELS,
        level_titles=LEVEL_TITLES,
        confirm_for=lambda pairing: arbitrates and _own_board(pairing, name) is None,
        gameless=_gameless(shown),
        # Names are unique: an official entered in the tournament may withdraw nobody.
        may_withdraw=(runs or arbitrates) and name not in {e.name for e in shown.entrants},
        may_start_round=shown.state in ("check_in", "running")
        and shown.standings_after == shown.current_round
        and (shown.rounds is None or shown.current_round < shown.rounds or shown.current_round == 0),
    )
