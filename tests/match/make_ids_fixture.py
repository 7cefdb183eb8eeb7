"""Regenerate the stored gnubg IDs of ``tests/data/match/ids`` (needs /usr/games/gnubg).

    python -m tests.match.make_ids_fixture

Writes ``ours_<seed>.mat`` for :data:`FIXTURE_SEEDS` (our random matches, as the .mat
differential tests make them), copies :data:`GNUBG_MATCHES` (matches gnubg played against
itself) from ``tests/data/match/gnubg``, and has gnubg write ``<name>.ids.json`` for
every ``.mat`` there: its Position ID and Match ID at each record (``gnubg_ids_oracle.py``).
"""

from __future__ import annotations

import shutil

from tavla.match.mat import export_mat

from .gnubg_ids_compare import FIXTURE, run_ids_oracle
from .mat_oracle import DATA, our_random_match

FIXTURE_SEEDS = (3, 5, 28)  # drops, takes, resignations, Crawford and post-Crawford games
GNUBG_MATCHES = ("gnubg_0.mat", "gnubg_1.mat")


def main() -> None:
    FIXTURE.mkdir(parents=True, exist_ok=True)
    for seed in FIXTURE_SEEDS:
        (FIXTURE / f"ours_{seed}.mat").write_text(export_mat(our_random_match(seed)))
    for name in GNUBG_MATCHES:
        shutil.copy(DATA / "gnubg" / name, FIXTURE / name)
    readings = run_ids_oracle(FIXTURE)
    print(f"{len(readings)} matches: {', '.join(readings)}")


if __name__ == "__main__":
    main()
