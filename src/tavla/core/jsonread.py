"""Reading JSON from outside (records, engine requests) without surprises.

``json.loads`` alone lets through what the readers then trip over: ``1e400``
becomes ``inf`` (``int(inf)`` raises OverflowError), ``NaN`` and ``Infinity`` are
accepted although they are not JSON, a line of a thousand ``[`` raises
RecursionError, and a number of 5,000 digits a plain ValueError. :func:`load_json`
turns all of these into a :class:`NotationError` naming the field, and the
``want_*`` functions check the shape and type of each value so that a reader
never meets an AttributeError on a value of the wrong kind.
"""

from __future__ import annotations

import json
import math
from typing import Any

from tavla.core.errors import NotationError

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted: records and requests need a few levels."""
SHOWN = 40
"""How much of a wrong value an error message shows."""


def shown(value: object) -> str:
    """A wrong value as an error message shows it: JSON text, cut short."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise NotationError("number", text, "too large for a number")
    return number


def _not_json(text: str) -> object:
    raise NotationError("number", text, "not JSON (NaN and Infinity are not numbers in JSON)")


def _nesting(text: str) -> int:
    """The deepest nesting of brackets outside strings (a cheap scan before parsing)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def load_json(text: str, field: str) -> object:
    """Parse ``text``; NotationError naming ``field`` for anything that is not plain JSON."""
    if _nesting(text) > MAX_DEPTH:
        raise NotationError(field, text[:SHOWN], f"nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_not_json)
    except NotationError as error:
        raise NotationError(field, error.value, error.reason) from None
    except RecursionError:  # the scan above should make this unreachable; stay safe anyway
        raise NotationError(field, text[:SHOWN], "nested too deeply") from None
    except ValueError as error:  # JSONDecodeError, and integers of thousands of digits
        raise NotationError(field, text[:SHOWN], f"not JSON ({_first_line(str(error))})") from None


def _first_line(text: str) -> str:
    return text.splitlines()[0] if text else text


def want_object(value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise NotationError(field, shown(value), "expected a JSON object")
    return value


def want_list(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise NotationError(field, shown(value), "expected a JSON array")
    return value


def want_str(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise NotationError(field, shown(value), "expected a string")
    return value


def want_bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise NotationError(field, shown(value), "expected true or false")
    return value


def want_int(value: object, field: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """A JSON integer (not a boolean, not 2.0) within the bounds given."""
    if type(value) is not int:
        raise NotationError(field, shown(value), "expected a whole number")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        low = "" if minimum is None else str(minimum)
        high = "" if maximum is None else str(maximum)
        raise NotationError(field, shown(value), f"expected a whole number in {low}..{high}")
    return value


def only_keys(data: dict[str, Any], keys: tuple[str, ...], field: str) -> None:
    """NotationError naming ``field.key`` for the first key of ``data`` not in ``keys``:
    a misspelt optional key would otherwise be read as left out."""
    key = next((key for key in data if key not in keys), None)
    if key is not None:
        raise NotationError(f"{field}.{key}", shown(data[key]), f"not a key here; expected {', '.join(keys)}")


def member(data: dict[str, Any], key: str, field: str) -> object:
    """``data[key]``; NotationError naming ``field.key`` when it is missing."""
    if key not in data:
        raise NotationError(f"{field}.{key}", "", "missing")
    return data[key]
