"""Migration 0003 on a database that already has accounts and games: they keep
working, nobody becomes a site owner, no chat is closed."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, text

from tavla.storage.database import _alembic_config


def test_upgrading_keeps_existing_accounts_and_games(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+pysqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0002")
        connection.execute(
            text(
                "INSERT INTO users (id, name, name_key, guest, language, home_side, created_ms)"
                " VALUES (1, 'ayse', 'ayse', 0, 'tr', 'right', 0)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO games (id, settings, seat0_user_id, spectators, chat0, chat1, client_seed0,"
                " client_seed1, status, version, last_seq0, last_seq1, last_ack0, last_ack1,"
                " pending_steps, score, created_ms) VALUES ('g1', '{}', 1, 1, 1, 1, '', '', 'live',"
                " 0, 0, 0, 0, 0, '[]', '[0, 0]', 0)"
            )
        )
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "head")
        assert connection.execute(text("SELECT site_owner FROM users")).scalar_one() in (0, False)
        row = connection.execute(text("SELECT federation_id, chat_closed FROM games")).one()
        assert row[0] is None and row[1] in (0, False)
        # 0006: a game stored before the no-show procedure starts at once, its clock at 0.
        later = connection.execute(
            text("SELECT clock_ms, no_show_from_ms, arrived0_ms, arrived1_ms FROM games")
        )
        assert tuple(later.one()) == (0, None, None, None)
    with engine.begin() as connection:
        command.downgrade(_alembic_config(connection), "0002")
        assert connection.execute(text("SELECT name FROM users")).scalar_one() == "ayse"
    engine.dispose()
