"""The rules of every game; importing this package registers them all."""

from tavla.rules import (
    abluka,  # noqa: F401  (registers Abluka)
    backgammon,
    gulbara,  # noqa: F401  (registers gulbara)
    indiyka,  # noqa: F401  (registers indiyka)
    tapa,  # noqa: F401  (registers tapa)
)

__all__ = ["backgammon"]
