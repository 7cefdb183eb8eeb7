"""Training of the dice games' evaluators: the layer above the bots that writes files,
runs teachers (GNU Backgammon) and shows progress through callbacks.

Self-play TD(lambda) (``td``, ``run``: ``tavla train``) and supervised fitting on a
teacher's chances (``supervised``, ``teacher``) share the evaluator of
:mod:`tavla.bots.network`.
"""
