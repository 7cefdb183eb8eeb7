"""Bad input on the command line: one clear line on standard error and exit status 2."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

import typer

from tavla.core.errors import TavlaError

P = ParamSpec("P")
R = TypeVar("R")

USAGE_ERROR = 2


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
