"""The interface's languages: English, Turkish and Bulgarian, from gettext catalogs.

Catalogs are the ``.po`` files under ``locale/<lang>/LC_MESSAGES/messages.po``,
read with Babel when the server starts (no compiled ``.mo`` files to keep in step).
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Protocol

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES = ("en", "tr", "bg")
LANGUAGE_NAMES = {"en": "English", "tr": "Türkçe", "bg": "Български"}
LOCALE = Path(__file__).with_name("locale")
LANGUAGE_COOKIE = "tavla_lang"
"""The language a visitor picked on a page (``?lang=``), kept for the guest's next visits."""


def N_(message: str) -> str:
    """Marks ``message`` for extraction into the catalog; it is translated where it is
    answered, in the reader's language (``translate``). ``{name}`` marks a parameter."""
    return message


class CatalogTranslations(gettext.NullTranslations):
    """gettext's interface over a Babel catalog; untranslated messages fall back to English.

    A message may carry a context (``msgctxt``) where one English word needs two
    translations: "Board" is the game's board ("Tahta") and a pairing's table ("Masa").
    """

    def __init__(self, catalog: Catalog | None) -> None:
        super().__init__()
        self._messages: dict[tuple[str | None, str], str] = {}
        self._plurals: dict[tuple[str | None, str], tuple[str, ...]] = {}
        self._plural_of = gettext.c2py(catalog.plural_expr if catalog is not None else "n != 1")
        for message in catalog or ():
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple):
                strings = tuple(message.string) if isinstance(message.string, tuple) else ()
                if all(strings):
                    self._plurals[message.context, message.id[0]] = strings
            elif message.string:
                self._messages[message.context, str(message.id)] = str(message.string)

    def gettext(self, message: str) -> str:
        return self._messages.get((None, message), message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.npgettext(None, singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._messages.get((context, message), message)

    def npgettext(self, context: str | None, singular: str, plural: str, n: int) -> str:
        strings = self._plurals.get((context, singular))
        if strings:
            return strings[min(self._plural_of(n), len(strings) - 1)]
        return singular if n == 1 else plural

    def has(self, message: str, context: str | None = None) -> bool:
        return (context, message) in self._messages or (context, message) in self._plurals


@cache
def translations(language: str) -> CatalogTranslations:
    path = LOCALE / language / "LC_MESSAGES" / "messages.po"
    if language == "en" or not path.is_file():
        return CatalogTranslations(None)
    with path.open("rb") as file:
        return CatalogTranslations(read_po(file, locale=language))


def browser_language(accept_language: str) -> str:
    """The first of our languages the browser asks for (``Accept-Language``), else English."""
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, position, tag.strip().lower().split("-")[0]))
    for _quality, _position, language in sorted(ranked):
        if language in LANGUAGES:
            return language
    return "en"


class HasLanguage(Protocol):
    """An account (``User``) or a copy of its language settings (``Reader``)."""

    @property
    def guest(self) -> bool: ...

    @property
    def language(self) -> str: ...


@dataclass(frozen=True)
class Reader:
    """The language settings of a session's account, copied while its database session
    is open (a refusal is answered after the transaction ended)."""

    guest: bool
    language: str


def choose_language(user: HasLanguage | None, chosen: str | None, accept_language: str) -> str:
    """The language to answer in: a registered account's own; for a guest or nobody the
    one picked on a page (``chosen``), else the guest's, else the browser's."""
    if user is not None and not user.guest:
        return str(user.language)
    if chosen in LANGUAGES:
        return str(chosen)
    if user is not None and user.language in LANGUAGES:
        return str(user.language)
    return browser_language(accept_language)


def placeholders(text: str) -> set[str]:
    """The named parameters ``{name}`` of a message (``{{`` is a literal brace)."""
    try:
        return {field for _literal, field, _spec, _conv in string.Formatter().parse(text) if field}
    except ValueError:
        return set()


def number(
    language: str, value: float | Decimal, places: int = 2, *, sign: bool = False, grouped: bool = False
) -> str:
    """``value`` with ``places`` decimals as ``language`` writes numbers: Turkish and
    Bulgarian with a decimal comma ("-0,163"); ``grouped`` separates the thousands as
    each language does ("1,234.50", "1.234,50", "1 234,50"); ``sign`` writes "+" too."""
    if round(value, places) == 0:
        value = 0  # no "-0.00" for a value that rounds to nothing
    digits = ("#,##0" if grouped else "0") + ("." + "0" * places if places else "")
    pattern = f"+{digits};-{digits}" if sign else digits
    return format_decimal(value, format=pattern, locale=language)


def score(language: str, value: float) -> str:
    """Tournament points and tie-breaks, in halves and quarters: one decimal, two where
    a quarter needs them ("3.0", "6.25"; "3,0" in Turkish and Bulgarian)."""
    return format_decimal(value, format="0.0#", locale=language)


def money(language: str, cents: int) -> str:
    """An amount of money in whole cents, as ``language`` writes it: 123456 is
    "1,234.56" in English, "1.234,56" in Turkish, "1 234,56" in Bulgarian."""
    return number(language, Decimal(cents) / 100, grouped=True)


@dataclass(frozen=True)
class Money:
    """An amount (whole cents) given to a message as a parameter: written in the
    reader's language when the message is translated (``translate``)."""

    cents: int

    def __str__(self) -> str:
        return money("en", self.cents)


def translate(language: str, message: str, params: Mapping[str, object] | None = None) -> str:
    """``message`` (an English msgid marked with ``N_``) in ``language``, its ``{name}``
    parameters filled in (an amount of ``Money`` as the language writes it). A
    translation that does not format falls back to English."""
    text = translations(language).gettext(message)
    if not params:
        return text
    params = {
        key: money(language, value.cents) if isinstance(value, Money) else value
        for key, value in params.items()
    }
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return message.format(**params)
