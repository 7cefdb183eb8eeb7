"""Training of the dice-game evaluators: self-play TD(lambda), checkpoints, strength logs.

Pure library code with no terminal output: ``tavla train`` (``tavla.cli.train``)
drives it with a progress bar. Only numpy is needed; plotting the strength log
needs matplotlib (the ``train`` extra).
"""

from tavla.bots.training.run import TrainingRun, TrainingSettings
from tavla.bots.training.td import TDTrainer

__all__ = ["TDTrainer", "TrainingRun", "TrainingSettings"]
