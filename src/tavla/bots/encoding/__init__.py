"""Feature encodings of dice-game positions for bots (see ``docs/features.md``).

Every dice game has one :class:`Encoder`: a fixed-length float32 vector per
position, seen from the point of view of one player (the *perspective*). The
encoders are registered by position class and found by walking the class's
bases, so antitabla and chelebi use tabla's encoder without a list of game names.
"""

from __future__ import annotations

from tavla.bots.encoding.base import Encoder, encoder_for, register_encoder
from tavla.bots.encoding.gulbara import GulbaraEncoder
from tavla.bots.encoding.indiyka import IndiykaEncoder
from tavla.bots.encoding.tabla import TablaEncoder
from tavla.bots.encoding.tapa import TapaEncoder

__all__ = [
    "Encoder",
    "GulbaraEncoder",
    "IndiykaEncoder",
    "TablaEncoder",
    "TapaEncoder",
    "encoder_for",
    "register_encoder",
]
