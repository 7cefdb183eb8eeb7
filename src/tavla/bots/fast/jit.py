"""numba's ``njit`` when the ``fast`` extra is installed, else nothing to compile.

The kernels of this package are written in the subset of Python that numba
compiles: loops over numpy arrays of small integers. Compiled, they replace the
pure-Python generators in the bots' hot paths; without numba (or with
``TAVLA_NO_JIT=1`` in the environment) :data:`AVAILABLE` is False and the callers
keep the pure-Python generators, which stay the reference the tests compare with.

``cache=True`` stores the machine code next to the sources (``__pycache__``), so
only the first process after an install pays the compilation (tens of seconds).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

try:
    if os.environ.get("TAVLA_NO_JIT"):
        raise ImportError("TAVLA_NO_JIT is set")
    import numba
except ImportError:
    numba = None

AVAILABLE = numba is not None
"""Whether the kernels are compiled (numba importable and not switched off)."""


def jit(function: F) -> F:
    """Compile ``function`` with numba (no Python objects, cached on disk) when available."""
    if numba is None:
        return function
    compiled: F = numba.njit(cache=True, nogil=True)(function)
    return compiled
