"""The ``tavla`` command line."""
