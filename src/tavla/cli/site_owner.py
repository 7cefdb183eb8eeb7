"""``tavla site-owner``: make an account the site owner, or stop it being one.

The site owner creates federations and appoints their administrators
(docs/federations.md). Nobody can become one through the web: whoever runs the
server names the account here, on the server's database, after registering it.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer


def site_owner(
    name: Annotated[str | None, typer.Argument(help="The registered account to make the site owner.")] = None,
    revoke: Annotated[
        bool, typer.Option("--revoke", help="Take the site owner's powers away instead.")
    ] = False,
    database: Annotated[
        str | None,
        typer.Option("--database", help="Database URL, as for tavla serve (TAVLA_DATABASE_URL)."),
    ] = None,
) -> None:
    """Name the site owner (or, without a name, list the site owners)."""
    try:
        from tavla.server.federations.owners import OwnerError, list_owners, set_owner
        from tavla.server.settings import Settings
    except ImportError as error:
        typer.echo(
            f"the command needs the server's packages: pip install 'tavla[server]' ({error.name} is missing)",
            err=True,
        )
        raise typer.Exit(2) from None
    url = database or Settings().database_url
    try:
        if name is None:
            owners = asyncio.run(list_owners(url))
            typer.echo("\n".join(owners) if owners else "no site owner yet: tavla site-owner NAME")
            return
        changed = asyncio.run(set_owner(url, name, not revoke))
    except (OwnerError, ValueError) as error:
        typer.echo(f"tavla site-owner: {error}", err=True)
        raise typer.Exit(2) from None
    state = "is no longer" if revoke else "is now"
    typer.echo(f"{changed} {state} a site owner")


def register(app: typer.Typer) -> None:
    app.command("site-owner")(site_owner)
