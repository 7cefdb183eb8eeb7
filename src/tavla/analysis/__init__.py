"""Reviews of finished games and matches: each decision against a bot's choice.

``analyze(record, ...)`` gives an :class:`~tavla.analysis.report.Analysis`: every
turn's equity lost and mark, every roll's luck, and each player's totals. ``tavla
analyze FILE`` prints it and plots the equity over the match.
"""
