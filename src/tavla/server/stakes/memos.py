"""The ledger's memos and reasons in the reader's language, where the pages show them.

The ledger writes its memos in English, the books' own words, and keeps them so: they
are part of the record, and a record must read the same to every auditor. The pages
translate them when they show them: each memo the ledger can write is either one of
a few fixed texts or one of a few sentences with a name or a number in it
(ledger/postings.py), recognised here by its shape. A text of none of these shapes (a
reason an administrator typed) is shown as it was written.
"""

from __future__ import annotations

import re

from tavla.server.i18n import N_, translate

FIXED = frozenset(
    (
        # memos
        N_("deposit"),
        N_("withdrawal"),
        N_("stake reserved"),
        N_("both stakes reserved"),
        N_("game settled"),
        N_("own reservation back"),
        N_("unused reservation back"),
        N_("game released"),
        N_("reservation released"),
        N_("prizes paid"),
        N_("tournament cancelled"),
        # reasons the server gives
        N_("play started"),
        N_("official result"),
        N_("official result: game over"),
        N_("game void"),
        N_("game void: no winner"),
        N_("a player could not pay the stake"),
        N_("the game could not start"),
        N_("tournament entry"),
        N_("registration withdrawn"),
        N_("sponsorship"),
        N_("prizes"),
    )
)

SHAPES = (
    (re.compile(r"stake won from (?P<player>.+)"), N_("stake won from {player}")),
    (re.compile(r"fee (?P<percent>[0-9.]+)% of the pot"), N_("fee {percent}% of the pot")),
    (re.compile(r"fee of game (?P<game>\S+)"), N_("fee of game {game}")),
    (re.compile(r"paid in to (?P<account>\S+)"), N_("paid in to {account}")),
    (re.compile(r"paid out of (?P<account>\S+)"), N_("paid out of {account}")),
    (re.compile(r"entry fee of tournament (?P<tournament>\S+) refunded"),
     N_("entry fee of tournament {tournament} refunded")),
    (re.compile(r"entry fee of tournament (?P<tournament>\S+)"), N_("entry fee of tournament {tournament}")),
    (re.compile(r"entry fee of (?P<player>\S+) refunded"), N_("entry fee of {player} refunded")),
    (re.compile(r"entry fee of (?P<player>\S+)"), N_("entry fee of {player}")),
    (re.compile(r"added to the pool of tournament (?P<tournament>\S+)"),
     N_("added to the pool of tournament {tournament}")),
    (re.compile(r"sponsored by (?P<sponsor>.+)"), N_("sponsored by {sponsor}")),
    (re.compile(r"prize for place (?P<place>[0-9]+)"), N_("prize for place {place}")),
    (re.compile(r"refund from tournament (?P<tournament>\S+)"), N_("refund from tournament {tournament}")),
)  # fmt: skip


def translated(language: str, text: str) -> str:
    """``text`` (a memo or a reason) in ``language`` when the ledger wrote it; as it is
    when a person did."""
    if text in FIXED:
        return translate(language, text, {})
    for shape, template in SHAPES:
        found = shape.fullmatch(text)
        if found is not None:
            return translate(language, template, found.groupdict())
    return text


def details(language: str, heading: str, memo: str, reason: str | None) -> list[str]:
    """What a statement line shows after its kind's name ``heading`` (already in
    ``language``): its memo and its reason, translated, each only when it says something
    the words before it do not. A deposit's memo is "deposit" and, when the administrator
    gave none, so is its reason: the line then reads "Deposit", not "Deposit deposit ·
    deposit"."""
    said = {heading.casefold()}
    shown = []
    for text in (memo, reason or ""):
        words = translated(language, text).strip()
        if words and words.casefold() not in said:
            said.add(words.casefold())
            shown.append(words)
    return shown


def actor(language: str, recorded: str) -> str:
    """Who made a statement line, as its reader says it: the ledger records the server as
    "server" and an administrator's deposit as "admin:NAME"; a player's own entry fee
    carries his name, shown as it is."""
    if recorded == "server":
        return translate(language, N_("the server"), {})
    if recorded.startswith("admin:"):
        return translate(language, N_("{name} (administrator)"), {"name": recorded.removeprefix("admin:")})
    return recorded
