"""Bad input on the command line: one clear line on standard error and exit status 2."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import ParamSpec, TypeVar

import typer

from tavla.core.errors import TavlaError

P = ParamSpec("P")
R = TypeVar("R")

USAGE_ERROR = 2

POSITION_ARGUMENT = {"ignore_unknown_options": True}
"""Context settings of a command whose argument is a position: Click reads a word
beginning with '-' as an option and answers an unknown one with a usage box; this
hands it to the command, whose reader names what is wrong in one line."""


def reject_option_like(text: str) -> None:
    """One line for a word that can only be a mistyped option (``--lmit``)."""
    if text.startswith("--") and " " not in text:
        raise fail(f"no such option: {text}")


def fail(message: str) -> typer.Exit:
    """Print ``message`` as one line on standard error; return the Exit to raise."""
    print(f"tavla: {message}", file=sys.stderr)
    return typer.Exit(USAGE_ERROR)


@contextmanager
def clear_errors() -> Iterator[None]:
    """Turn the library's input errors into one line and exit status 2."""
    try:
        yield
    except TavlaError as error:
        raise fail(str(error)) from None


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Decorator form of :func:`clear_errors` for a command function."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with clear_errors():
            return command(*args, **kwargs)

    return wrapper


def read_text_file(path: Path) -> str:
    """The text of ``path`` read as UTF-8 (a leading byte order mark is dropped);
    an unreadable file or one that is not UTF-8 fails with one line."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise fail(f"{path}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise fail(f"{path}: not UTF-8 text (byte {error.start + 1} cannot be read)") from None


def utf8_line(line: str | bytes) -> str:
    """One line of input as text; raises TavlaError when it is not UTF-8 (read as bytes,
    or as text with the undecodable bytes escaped)."""
    try:
        if isinstance(line, bytes):
            return line.decode("utf-8")
        line.encode("utf-8")
    except UnicodeError:
        raise TavlaError("not UTF-8 text") from None
    return line
