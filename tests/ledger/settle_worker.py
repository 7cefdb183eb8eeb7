"""One contender of the multi-process race in test_concurrency, run as its own process:

    python settle_worker.py DATABASE_URL GAME_ID SIGNAL_FOLDER NAME

It connects, says it is ready, waits for the start signal, settles the game for
Ayşe with 3 points and prints the transaction it got back as JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from tavla.ledger.accounts import SITE, player_account
from tavla.ledger.service import Ledger
from tavla.storage.database import open_engine, sessions


async def contend(url: str, game_id: str, signals: Path, name: str) -> None:
    engine = open_engine(url)
    try:
        ledger = Ledger(sessions(engine))
        await ledger.balance(player_account(SITE, "ayse"))  # the connection is open before the race
        (signals / f"ready-{name}").touch()
        while not (signals / "go").exists():
            await asyncio.sleep(0.001)
        record = await ledger.settle(game_id, "ayse", 3)
        print(json.dumps({"id": record.id, "repeated": record.repeated}))
    finally:
        await engine.dispose()


if __name__ == "__main__":
    url, game_id, folder, name = sys.argv[1:5]
    asyncio.run(contend(url, game_id, Path(folder), name))
