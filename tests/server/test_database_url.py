"""The database a server is given (docs/deploy.md): SQLite or PostgreSQL, each opened
with its asynchronous driver; anything else is refused, saying what is wrong."""

from __future__ import annotations

import pytest

from tavla.storage.database import DatabaseUrlError, async_url

pytestmark = pytest.mark.timeout(30)


def test_each_database_is_opened_with_its_asynchronous_driver() -> None:
    assert async_url("sqlite:///tavla.db") == "sqlite+aiosqlite:///tavla.db"
    assert async_url("postgresql://tavla:secret@db/tavla") == "postgresql+psycopg://tavla:secret@db/tavla"


@pytest.mark.parametrize(
    ("url", "said"),
    [
        (
            "mysql://db/tavla",
            "database URL 'mysql://db/tavla': the server runs on SQLite or PostgreSQL, not 'mysql'",
        ),
        ("not a url", "database URL 'not a url' is not a URL: "),
    ],
)
def test_another_database_or_no_url_is_refused_saying_why(url: str, said: str) -> None:
    with pytest.raises(DatabaseUrlError) as refused:
        async_url(url)
    assert str(refused.value).startswith(said)
