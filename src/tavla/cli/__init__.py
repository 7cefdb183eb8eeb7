"""The ``tavla`` command line.

Numpy's BLAS runs on one thread in the command's process, set here before any
subcommand imports numpy: the bots' matrices are small (a few dozen rows), and
OpenBLAS's threads made self-play training three times slower, spinning against
each other and the machine's other work. An explicit setting in the environment wins.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
