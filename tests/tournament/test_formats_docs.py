"""The Python examples of docs/tournaments.md and docs/ratings.md run, and the values
their comments show are the values the code gives."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).parent.parent.parent / "docs"


def checked_lines(block: str) -> list[tuple[str, object]]:
    """(expression, expected) for each expression line whose comment, on the same line
    or alone on the next, is a Python literal."""
    found = []
    lines = block.splitlines()
    for number, line in enumerate(lines):
        code, _, comment = line.partition("  # ")
        if not code.strip() or code.lstrip().startswith("#"):
            continue
        if not comment and number + 1 < len(lines) and lines[number + 1].startswith("# "):
            comment = lines[number + 1][2:]
        try:
            is_expression = isinstance(ast.parse(code.strip()).body[0], ast.Expr)
            expected = ast.literal_eval(comment.strip())
        except (SyntaxError, ValueError):
            continue
        if is_expression:
            found.append((code.strip(), expected))
    return found


def blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("page", ["tournaments.md", "ratings.md"])
def test_the_examples_run_and_show_true_values(page: str) -> None:
    checks = 0
    for block in blocks(page):
        namespace: dict[str, object] = {}
        statements = [line for line in block.splitlines() if not line.startswith("#")]
        # Run line by line so each checked expression sees the state at its own line.
        source = "\n".join(statements)
        tree = ast.parse(source)
        expected = dict(checked_lines(block))
        for node in tree.body:
            text = ast.get_source_segment(source, node)
            assert text is not None
            if isinstance(node, ast.Expr) and text in expected:
                assert eval(compile(ast.Expression(node.value), page, "eval"), namespace) == expected[text], (
                    text
                )
                checks += 1
            else:
                exec(compile(ast.Module([node], []), page, "exec"), namespace)
    assert checks > 0
