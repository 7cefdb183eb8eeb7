"""The turn a person types at a prompt, step by step or whole (RULES.md 1.3, 13)."""

from __future__ import annotations

from typing import Any

from tests.cli.cli_helpers import START, tpn

import tavla
from tavla.cli.turn_entry import TurnEntry, expand_steps


def entry_for(notation: str) -> tuple[TurnEntry, list[str]]:
    said: list[str] = []
    return TurnEntry(tavla.from_notation(notation), said.append), said


def test_steps_wait_for_done_and_undo_takes_one_back() -> None:
    entry, said = entry_for(START.replace(" w -", " w 31"))
    assert entry.handle("8/5") is None and entry.progress == " [8/5]"
    assert entry.handle("undo") is None and entry.progress == ""
    assert said[-1] == "Took back 8/5."
    assert entry.handle("8/5") is None
    assert entry.handle("done") is None and said[-1].startswith("The turn is not complete yet.")
    assert entry.handle("6/5") is None and said[-1].startswith("The turn is complete")
    turn = entry.handle("done")
    assert turn is not None and turn.after == entry.position.parse_turn("8/5 6/5").after


def test_a_whole_turn_is_committed_at_once_in_any_spelling() -> None:
    for text in ("8/5 6/5", "6/5, 8/5", "24/20"):
        entry, _ = entry_for(START.replace(" w -", " w 31"))
        turn = entry.handle(text)
        assert turn is not None and turn.text == entry.position.parse_turn(text).text, text


ILLEGAL_AFTER_8_5 = [
    ("24/1", "'24/1' is not legal here: neither a whole turn nor a single step."),
    ("6/5 6/5", "'6/5 6/5' is not legal here: the step 6/5 cannot be played."),
    ("hello", "'hello' is not legal here: neither a whole turn nor a single step."),
    ("8/5(9)", "'8/5(9)' cannot be read: '(9)' is not a repeat count such as (2)."),
]


def test_an_illegal_step_is_explained_and_changes_nothing() -> None:
    entry, said = entry_for(START.replace(" w -", " w 31"))
    entry.handle("8/5")
    legal = list(entry.builder.legal_steps())
    for text, message in ILLEGAL_AFTER_8_5:
        said.clear()
        assert entry.handle(text) is None
        assert said[0].startswith(message), (text, said)
        assert entry.progress == " [8/5]" and list(entry.builder.legal_steps()) == legal
    assert entry.handle("6/5 6/5") is None
    assert said[-1].startswith("Legal steps after 8/5: ")
    assert entry.handle("6/5") is None
    turn = entry.handle("done")
    assert turn is not None and turn.text == entry.position.parse_turn("8/5 6/5").text


def test_no_legal_move_is_a_pass_by_done_or_dash() -> None:
    closed = tpn(
        {19: "2b", 20: "2b", 21: "2b", 22: "2b", 23: "2b", 24: "2b", 12: "3b", 1: "14w"}, "1,0", dice="65"
    )
    for text in ("done", "-"):
        entry, _ = entry_for(closed)
        assert entry.no_move
        turn = entry.handle(text)
        assert turn is not None and turn.text == "-"


def test_a_long_progressive_double_starts_at_once_and_is_not_listed() -> None:
    """RULES.md 4: chelebi's 1-1 from the start has over 100,000 turns."""
    entry, said = entry_for(START.replace("tabla", "chelebi").replace(" w -", " w 11"))
    entry.handle("moves")
    assert said[0].startswith("Too many legal turns to list") and said[1].startswith("Legal steps: ")
    position: Any = entry.position
    assert "_turns" not in position.__dict__  # nothing listed every turn
    turn = None
    while turn is None:
        turn = entry.handle(entry.builder.legal_steps()[0] if not entry.builder.complete else "done")
    assert len(entry.played) == 24 and position.play(turn) == turn.after


def test_expand_steps_reads_chains_and_counts() -> None:
    assert expand_steps("13/7*/5 8/5(2)") == ["13/7*", "7/5", "8/5", "8/5"]
    assert expand_steps("bar/22, 6/off") == ["bar/22", "6/off"]


def test_a_step_beyond_a_complete_turn_points_to_done() -> None:
    entry, said = entry_for(START.replace(" w -", " w 31"))
    entry.handle("8/5")
    entry.handle("6/5")
    said.clear()
    assert entry.handle("13/12") is None and entry.progress == " [8/5 6/5]"
    assert said == [
        "'13/12' is not legal here: neither a whole turn nor a single step.",
        "The turn is complete: 'done' commits it, 'undo' takes back a step.",
    ]


def test_hint_lists_the_turns_and_the_messages_name_every_legal_step() -> None:
    entry, said = entry_for(START.replace(" w -", " w 31"))
    entry.handle("hint")
    texts = [turn.text for turn in entry.position.legal_turns()]
    assert said[0] == f"Legal turns ({len(texts)}):"
    listed = "\n".join(said[1:])
    assert all(f"  {text}  " in f"  {listed}  ".replace("\n", "    ") for text in texts)
    entry.handle("8/5")
    legal = ", ".join(entry.builder.legal_steps())
    said.clear()
    assert entry.handle("done") is None
    assert said == [f"The turn is not complete yet. Legal steps now: {legal}"]
    said.clear()
    entry.handle("24/1")
    assert (
        said[-1]
        == f"Legal steps after 8/5: {legal}. Type 'moves' for the whole turns, 'help' for the syntax."
    )


def test_abluka_s_syntax_gives_its_first_legal_turn_as_the_example() -> None:
    entry, _ = entry_for("3W3/7/7/7/7/7/3B3 b")
    first = entry.position.legal_turns()[0].text
    assert entry.syntax() == f"Enter a whole turn, e.g. {first}, or one step at a time, then 'done'."


def test_the_turns_are_listed_in_columns_as_wide_as_the_longest_and_two_spaces() -> None:
    entry, said = entry_for(tpn({1: "2w", 3: "1w", 5: "1w", 24: "2b"}, off="11,13", dice="31"))
    entry.handle("moves")
    assert said == ["Legal turns (5):", "  5/2 3/2      5/1          5/2 1/off    5/4 3/off    3/off 1/off"]
