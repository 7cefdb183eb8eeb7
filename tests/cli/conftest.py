from __future__ import annotations

import pytest
from tests.cli.cli_helpers import Invoke, board_commands_app
from typer.testing import CliRunner, Result


@pytest.fixture
def invoke() -> Invoke:
    """Run the board commands in-process: ``invoke("moves", tpn, input=...)``."""
    app = board_commands_app()
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input)

    return run
