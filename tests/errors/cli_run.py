"""Run the real ``tavla`` command in-process and read its one-line refusals."""

from __future__ import annotations

from dataclasses import dataclass

from typer.testing import CliRunner

from tavla.cli.main import app

TABLA_START = "tabla 2b/-/-/-/-/5w/-/3w/-/-/-/5b/5w/-/-/-/3b/-/5b/-/-/-/-/2w 0,0 0,0 w -"


@dataclass(frozen=True)
class Ran:
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None


def tavla(*args: str, input: str | None = None) -> Ran:
    result = CliRunner().invoke(app, list(args), input=input)
    # SystemExit is how a command exits; anything else escaped the command.
    escaped = None if isinstance(result.exception, SystemExit) else result.exception
    return Ran(result.exit_code, result.stdout, result.stderr, escaped)


def assert_one_line_refusal(ran: Ran, *fragments: str) -> None:
    """Exit status 2, nothing escaped, and one ``tavla:`` line on standard error."""
    assert ran.exception is None, repr(ran.exception)
    assert ran.exit_code == 2, (ran.stdout, ran.stderr)
    lines = ran.stderr.splitlines()
    assert len(lines) == 1, ran.stderr
    assert lines[0].startswith("tavla: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
