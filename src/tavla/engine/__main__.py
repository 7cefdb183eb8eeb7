"""``python -m tavla.engine``: the same as ``tavla engine``."""

from tavla.engine.server import main

main()
