"""Keeps the interface's translation catalogs in step with the sources (docs/translating.md).

    python -m tavla.server.i18n_catalog extract   # write locale/messages.pot from the sources
    python -m tavla.server.i18n_catalog update    # extract, then merge it into every language's .po
    python -m tavla.server.i18n_catalog check     # is the .pot current, and is every message translated?

The texts come from the server's Python files (messages marked with ``N_``), its
Jinja2 templates (``_()``), as ``locale/babel.cfg`` maps them, and from the English
values of ``static/text.json`` (the web board's texts). ``check`` exits with 1 and
lists what is wrong; the tests run the same checks.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

import tavla
from tavla.server.i18n import LANGUAGES, LOCALE, placeholders

SERVER = Path(__file__).parent
MAPPING = LOCALE / "babel.cfg"
TEMPLATE = LOCALE / "messages.pot"
BOARD_TEXT = SERVER / "static" / "text.json"
PROJECT = "Tavla"
WIDTH = 100
TEMPLATE_HEADER = """\
# The texts of Tavla's web interface, in English: the template of every language's catalog.
# Made by `python -m tavla.server.i18n_catalog extract`; do not edit (docs/translating.md).
#"""
CATALOG_HEADER = """\
# Tavla's web interface in the language {language}: translate each msgstr (docs/translating.md).
# `python -m tavla.server.i18n_catalog update` adds new texts and drops vanished ones.
#"""
PERCENT_FIELD = re.compile(r"%\((\w+)\)[sdif]")


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "messages.po"


def translated_languages() -> tuple[str, ...]:
    """Every language but English, whose texts are the msgids themselves."""
    return tuple(language for language in LANGUAGES if language != "en")


def extract() -> Catalog:
    """A fresh template catalog from the sources: no translations, one entry per text."""
    catalog = Catalog(
        project=PROJECT,
        version=tavla.__version__,
        header_comment=TEMPLATE_HEADER,
        fuzzy=False,
    )
    with MAPPING.open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file, str(MAPPING))  # type: ignore[no-untyped-call]
    for filename, lineno, message, comments, context in extract_from_dir(
        SERVER, method_map, options_map, strip_comment_tags=True
    ):
        catalog.add(
            message, None, [(Path(filename).as_posix(), lineno)], auto_comments=comments, context=context
        )
    board: dict[str, str] = json.loads(BOARD_TEXT.read_text(encoding="utf-8"))
    for key, english in board.items():
        note = f"web board: {key}"
        if key.startswith("key."):
            note += " (a keyboard shortcut: one letter, different from the other key.* letters)"
        catalog.add(english, None, [("static/text.json", 0)], auto_comments=[note])
    return catalog


def msgids(catalog: Catalog) -> set[str]:
    """Every text of ``catalog``, a text with a context written "text (context: …)"."""
    return {
        str(message.id) if message.context is None else f"{message.id} (context: {message.context})"
        for message in catalog
        if message.id
    }


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=WIDTH, include_lineno=False, ignore_obsolete=True)


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


def update(template: Catalog) -> list[Path]:
    """Merges ``template`` into each language's catalog (new messages untranslated,
    vanished ones dropped); a missing catalog is started empty."""
    written = []
    for language in translated_languages():
        path = po_path(language)
        if path.is_file():
            catalog = read(path, language)
        else:
            catalog = Catalog(
                locale=language,
                project=PROJECT,
                version=tavla.__version__,
                header_comment=CATALOG_HEADER.format(language=language),
                fuzzy=False,
            )
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        write(catalog, path)
        written.append(path)
    return written


def fields(text: str) -> set[str]:
    """The parameters of a text: ``{name}`` and ``%(name)s``."""
    return placeholders(text) | {f"%({name})" for name in PERCENT_FIELD.findall(text)}


def translation_problems(language: str, template: Catalog) -> list[str]:
    """Every message of ``template`` missing, fuzzy, or with other parameters in ``language``."""
    path = po_path(language)
    if not path.is_file():
        return [f"{language}: no catalog at {path}"]
    catalog = read(path, language)
    problems = []
    for wanted in template:
        if not wanted.id:
            continue
        message: Message | None = catalog.get(wanted.id, context=wanted.context)
        name = f"{language}: {wanted.id!r}"
        # A text with plural forms has a tuple of them, each to be translated.
        english = wanted.id[0] if isinstance(wanted.id, tuple) else wanted.id
        strings = () if message is None else message.string
        forms = tuple(strings) if isinstance(strings, tuple) else (strings,)
        if message is None or not all(forms):
            problems.append(f"{name} is not translated")
        elif message.fuzzy:
            problems.append(f"{name} is marked fuzzy")
        elif any(fields(str(form)) != fields(str(english)) for form in forms):
            problems.append(f"{name}: the translation's parameters differ: {message.string!r}")
    return problems


def template_problems(template: Catalog) -> list[str]:
    """How the stored .pot differs from a fresh extraction."""
    if not TEMPLATE.is_file():
        return [f"no template at {TEMPLATE}: run extract"]
    stored, fresh = msgids(read(TEMPLATE)), msgids(template)
    return [f"{TEMPLATE.name} lacks {text!r}: run update" for text in sorted(fresh - stored)] + [
        f"{TEMPLATE.name} still has {text!r}: run update" for text in sorted(stored - fresh)
    ]


def check() -> list[str]:
    template = extract()
    problems = template_problems(template)
    for language in translated_languages():
        problems += translation_problems(language, template)
    return problems


def main(argv: Iterable[str]) -> int:
    command = next(iter(argv), "")
    if command == "extract":
        template = extract()
        write(template, TEMPLATE)
        print(f"{TEMPLATE}: {len(msgids(template))} messages")
    elif command == "update":
        template = extract()
        write(template, TEMPLATE)
        for path in update(template):
            print(f"updated {path}")
    elif command == "check":
        problems = check()
        for problem in problems:
            print(problem)
        if problems:
            return 1
        print("every message is translated")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
