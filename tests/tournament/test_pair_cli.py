"""``tavla pair FILE.trf``: bbpPairings -p output, and one line for a bad file."""

from __future__ import annotations

from pathlib import Path

import typer
from tests.tournament.swiss_helpers import B, W, game, report
from typer.testing import CliRunner

from tavla.cli import pair


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    pair.register(app)
    app.command("noop", hidden=True)(lambda: None)  # keeps "pair" a subcommand
    return app


def test_pair_prints_count_then_white_black_then_bye(tmp_path: Path) -> None:
    file = tmp_path / "t.trf"
    file.write_text(report({1: [game(2, W, "1")], 2: [game(1, B, "0")], 3: [], 4: [], 5: []}, total=3))
    result = CliRunner().invoke(_app(), ["pair", str(file)])
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert out[0] == str(len(out) - 1)
    assert out[-1].endswith(" 0")
    numbers = sorted(int(n) for line in out[1:] for n in line.split() if n != "0")
    assert numbers == [1, 2, 3, 4, 5]


def test_bad_file_is_one_line_and_nonzero_exit(tmp_path: Path) -> None:
    file = tmp_path / "bad.trf"
    file.write_text("012 X\n001    1 short\n")
    result = CliRunner().invoke(_app(), ["pair", str(file)])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "line 2" in result.output and "Traceback" not in result.output


def test_missing_round_count_is_an_error(tmp_path: Path) -> None:
    file = tmp_path / "no_xxr.trf"
    text = report({1: [], 2: []}, total=3).replace("XXR 3\n", "")
    file.write_text(text)
    result = CliRunner().invoke(_app(), ["pair", str(file)])
    assert result.exit_code == 2
    assert "XXR" in result.output
