"""numba's ``njit`` when the ``fast`` extra is installed, else nothing to compile.

The kernels of this package are written in the subset of Python that numba
compiles: loops over numpy arrays of small integers. Compiled, they replace the
pure-Python generators in the bots' hot paths; without numba (or with
``TAVLA_NO_JIT=1`` in the environment) :data:`AVAILABLE` is False and the callers
keep the pure-Python generators, which stay the reference the tests compare with.

``cache=True`` stores the machine code next to the sources (``__pycache__``), so
only the first process after an install pays the compilation (tens of seconds).
numba checks a cached function against its own file only: after editing a kernel,
delete the ``*.nbi``/``*.nbc`` files (``make clean`` does) or the functions of other
files that call it keep the old code.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def _numba() -> ModuleType | None:
    if os.environ.get("TAVLA_NO_JIT"):
        return None
    try:
        return importlib.import_module("numba")
    except ImportError:
        return None


numba = _numba()

AVAILABLE = numba is not None
"""Whether the kernels are compiled (numba importable and not switched off)."""


def jit(function: F) -> F:
    """Compile ``function`` with numba (no Python objects, cached on disk) when available."""
    if numba is None:
        return function
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def jit_inline(function: F) -> F:
    """:func:`jit` for a small helper of the kernels, inlined into its callers by numba
    (a call passing arrays costs more than the few operations of such a helper)."""
    if numba is None:
        return function
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))
