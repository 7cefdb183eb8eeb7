"""The interface's languages: English, Turkish and Bulgarian, from gettext catalogs.

Catalogs are the ``.po`` files under ``locale/<lang>/LC_MESSAGES/messages.po``,
read with Babel when the server starts (no compiled ``.mo`` files to keep in step).
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

LANGUAGES = ("en", "tr", "bg")
LANGUAGE_NAMES = {"en": "English", "tr": "Türkçe", "bg": "Български"}
LOCALE = Path(__file__).with_name("locale")


class CatalogTranslations(gettext.NullTranslations):
    """gettext's interface over a Babel catalog; untranslated messages fall back to English."""

    def __init__(self, catalog: Catalog | None) -> None:
        super().__init__()
        self._messages: dict[str, str] = {}
        self._plurals: dict[str, tuple[str, ...]] = {}
        self._plural_of = gettext.c2py(catalog.plural_expr if catalog is not None else "n != 1")
        for message in catalog or ():
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple):
                strings = tuple(message.string) if isinstance(message.string, tuple) else ()
                if all(strings):
                    self._plurals[message.id[0]] = strings
            elif message.string:
                self._messages[str(message.id)] = str(message.string)

    def gettext(self, message: str) -> str:
        return self._messages.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        strings = self._plurals.get(singular)
        if strings:
            return strings[min(self._plural_of(n), len(strings) - 1)]
        return singular if n == 1 else plural

    def has(self, message: str) -> bool:
        return message in self._messages or message in self._plurals


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
