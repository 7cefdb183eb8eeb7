"""``tavla match`` and ``tavla replay`` driven through standard input (RULES.md 9, 10)."""

from __future__ import annotations

import io
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console
from tests.match.match_helpers import FakeTime
from typer.testing import CliRunner, Result

import tavla
from tavla.cli import match as match_cli
from tavla.cli import replay as replay_cli
from tavla.cli.match import describe_match_end, describe_result
from tavla.core.dice import SeededDice
from tavla.core.game import GameRecord
from tavla.core.protocol import OutcomeReason
from tavla.match.clock import parse_clock_spec
from tavla.match.gnubg_ids import match_ids
from tavla.match.mat import import_mat
from tavla.match.match import Match
from tavla.match.record import MatchRecord, replay, replay_states
from tavla.match.settings import MatchSettings
from tavla.match.state import EndReason, GameResult, new_state
from tavla.rules.turns import TURN_LIST_LIMIT

DATA = Path(__file__).parent.parent / "data" / "match"


def run(*args: str, input: str | None = None) -> Result:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    match_cli.register(app)
    replay_cli.register(app)
    return CliRunner().invoke(app, list(args), input=input)


def test_random_players_play_a_clocked_match_and_save_json(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = run(
        "match", "--length", "3", "--white", "random", "--black", "random",
        "--seed", "5", "--clock", "12s+2m", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    final = replay(MatchRecord.from_json(out.read_text()))
    assert final.over and final.settings.clock is not None and final.settings.clock.reserve_ms == 360_000
    assert f"White {final.score[0]} - Black {final.score[1]}" in result.output.splitlines()[-2]
    assert "wins the match" in result.output and "cube" in result.output and "clocks" in result.output


def test_mat_output_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "m.mat"
    result = run(
        "match", "--length", "5", "--white", "random", "--black", "random", "--seed", "2", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    final = replay(import_mat(out.read_text()))
    assert final.over
    assert f"White {final.score[0]} - Black {final.score[1]}" in result.output


@pytest.mark.parametrize("game", ["antitabla", "abluka"])
def test_other_games(game: str, tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = run("match", "--game", game, "--length", "1", "--white", "random", "--black", "random",
                 "--seed", "1", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert replay(MatchRecord.from_json(out.read_text())).over


def _white_opening(seed: int) -> tuple[int, str]:
    """A seed whose opening White wins, and a legal turn for it (computed independently
    from the same seeded dice the command uses)."""
    for candidate in range(seed, seed + 50):
        match = Match(MatchSettings("tabla", 1), dice=SeededDice(candidate), now=lambda: 0)
        match.roll()
        if match.state.actor == 0:
            return candidate, match.state.position.legal_turns()[-1].text
    raise AssertionError("no seed found")


def test_scripted_human_is_refused_politely_and_plays_on(tmp_path: Path) -> None:
    seed, turn = _white_opening(10)
    out = tmp_path / "h.json"
    script = ["hello", "take", "24/1", "double", turn, "hello", *["resign backgammon"] * 40]
    result = run("match", "--length", "1", "--white", "human", "--black", "random", "--seed", str(seed),
                 "--out", str(out), input="\n".join(script) + "\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "'hello' is not legal: unreadable move" in result.output  # a word at the time of a move
    assert "'hello' is not possible now" in result.output  # a word at the time of rolling
    assert "Refused: take" in result.output
    assert "Refused: player 0 cannot double: only before rolling" in result.output
    assert "'24/1' is not legal here" in result.output.split("24/1", 1)[1]
    record = MatchRecord.from_json(out.read_text())
    kinds = [(action.kind, action.seat) for action in record.actions]
    assert kinds[:3] == [("start", None), ("roll", None), ("move", 0)]  # the refused lines left no trace
    assert record.actions[2].value == turn
    assert kinds[-2:] == [("resign", 0), ("accept", 1)]
    final = replay(record)
    assert final.winner == 1 and final.score == (0, 3)
    assert "Black wins the match: White 0 - Black 3." in result.output


def test_end_of_input_leaves_the_match_unfinished(tmp_path: Path) -> None:
    out = tmp_path / "u.json"
    result = run("match", "--length", "3", "--seed", "1", "--out", str(out), input="")
    assert result.exit_code == 1
    assert "unfinished" in result.output
    assert not replay(MatchRecord.from_json(out.read_text())).over


def test_bad_options_fail_with_one_line() -> None:
    result = run("match", "--white", "robot")
    assert result.exit_code == 2 and "robot" in result.output
    result = run("match", "--length", "3", "--beavers", "--white", "random")
    assert result.exit_code == 2 and "money play" in result.output
    result = run("match", "--clock", "12x+2m")
    assert result.exit_code == 2 and "clock" in result.output


def test_replay_steps_through_a_json_record(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    run("match", "--length", "3", "--white", "random", "--black", "random", "--seed", "8", "--out", str(out))
    record = MatchRecord.from_json(out.read_text())
    final = replay(record)
    result = run("replay", str(out))
    assert result.exit_code == 0, result.output
    assert f"{len(record.actions):4d}. " in result.output
    assert final.position.notation() in result.output
    short = run("replay", str(out), "--final")
    assert short.exit_code == 0
    assert len(short.output.splitlines()) == 3
    assert f"White {final.score[0]} - Black {final.score[1]}" in short.output


def test_replay_reads_a_one_game_record_as_a_one_game_match(tmp_path: Path) -> None:
    game = tavla.Game(tavla.find_game("tapa").start(), opening=True)
    dice, rng = SeededDice(4), random.Random(4)
    for _ in range(30):
        if game.is_chance:
            game.roll(source=dice)
        else:
            game.play(rng.choice(game.position.legal_turns()))
    path = tmp_path / "game.json"
    path.write_text(game.record().to_json(), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert game.position.notation() in result.output
    assert len(MatchRecord.of_game(GameRecord.from_json(path.read_text())).actions) > 20


def test_replay_reads_a_gnubg_mat_to_its_final_score() -> None:
    path = DATA / "gnubg" / "gnubg_0.mat"
    gnubg = json.loads((DATA / "gnubg" / "gnubg_0.gnubg.json").read_text())
    result = run("replay", str(path), "--final")
    assert result.exit_code == 0, result.output
    names, score = gnubg["names"], gnubg["final_score"]
    assert f"{names[0]} {score[0]} - {names[1]} {score[1]}" in result.output


def test_replay_refuses_bad_files(tmp_path: Path) -> None:
    assert run("replay", str(tmp_path / "missing.json")).exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = run("replay", str(bad))
    assert result.exit_code == 2 and "match record" in result.output


@pytest.mark.parametrize("name", ["bad.json", "bad.mat"])
def test_replay_refuses_a_file_that_is_not_utf8_in_one_line(tmp_path: Path, name: str) -> None:
    bad = tmp_path / name
    bad.write_bytes(b"\xff\xfe{}")
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"tavla: {bad}: not UTF-8 text (byte 1 cannot be read)"]


def test_replay_reads_a_record_with_a_byte_order_mark(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    run("match", "--length", "1", "--white", "random", "--black", "random", "--seed", "3", "--out", str(out))
    out.write_bytes(b"\xef\xbb\xbf" + out.read_bytes())
    assert run("replay", str(out), "--final").exit_code == 0


def _white_steps(seed: int) -> tuple[int, str, str, str]:
    """A seed whose opening White wins, two steps that make a whole turn for it, and
    the turn's text (computed from the position's own step builder)."""
    seed, _ = _white_opening(seed)
    match = Match(MatchSettings("tabla", 1), dice=SeededDice(seed), now=lambda: 0)
    match.roll()
    position = match.state.position
    builder = position.steps()
    first = builder.legal_steps()[0]
    builder.step(first)
    second = builder.legal_steps()[0]
    return seed, first, second, position.parse_turn(f"{first} {second}").text


def test_a_human_plays_step_by_step_with_undo_and_done(tmp_path: Path) -> None:
    """RULES.md 1.3, 13: one die at a time, steps taken back until the turn is committed."""
    seed, first, second, turn = _white_steps(10)
    out = tmp_path / "s.json"
    script = [
        first,
        "undo",
        "undo",
        first,
        "done",
        "24/1",
        "moves",
        second,
        "done",
        *["resign backgammon"] * 40,
    ]
    result = run("match", "--length", "1", "--white", "human", "--black", "random", "--seed", str(seed),
                 "--out", str(out), input="\n".join(script) + "\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    out_text = result.output
    assert f"Took back {first}." in out_text and "Nothing to take back" in out_text
    assert "The turn is not complete yet. Legal steps now:" in out_text
    # the prompt shows the steps played; an illegal step is explained and changes nothing
    assert f"to play [{first}] (move)> 24/1\n'24/1' is not legal here" in out_text
    assert f"Legal steps after {first}: " in out_text
    assert f"to play [{first}] (move)> moves\nLegal turns (" in out_text
    assert f"to play [{first} {second}] (move)> done\nWhite plays {turn}." in out_text
    record = MatchRecord.from_json(out.read_text())
    kinds = [(action.kind, action.seat) for action in record.actions]
    assert kinds[:3] == [("start", None), ("roll", None), ("move", 0)]  # steps reach the match only at 'done'
    assert record.actions[2].value == turn
    assert replay(record).over


def test_resigning_in_the_move_phase_keeps_the_steps_if_declined(tmp_path: Path) -> None:
    """RULES.md 9: a resignation may be offered at the move; declined, the turn goes on."""
    seed, first, _, _ = _white_steps(10)
    out = tmp_path / "r.json"
    script = [first, *["resign backgammon"] * 20]
    result = run("match", "--length", "1", "--white", "human", "--black", "random", "--seed", str(seed),
                 "--out", str(out), input="\n".join(script) + "\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    # seed 10's random player declines the first offer: the step played is still there
    status = "Game 1 | White 0 - Black 0 (to 1) | cube 1 centred"
    after_decline = result.output.split("Black declines.\n", 1)[1].splitlines()
    assert after_decline[0] == status  # the same position: no board drawn again
    assert after_decline[1].endswith(f"to play [{first}] (move)> resign backgammon")
    record = MatchRecord.from_json(out.read_text())
    kinds = [(action.kind, action.seat) for action in record.actions]
    assert kinds[2:4] == [("resign", 0), ("decline", 1)]
    assert kinds[-2:] == [("resign", 0), ("accept", 1)]
    assert ("move", 0) not in kinds
    assert replay(record).score == (0, 3)


def _big_doubles(record: MatchRecord) -> int:
    """Move-phase positions whose legal turns are too many to list quickly."""
    return sum(
        1
        for state in replay_states(record)
        if state.phase == "move" and state.position.legal_turns_within(TURN_LIST_LIMIT) is None
    )


@pytest.mark.parametrize(("game", "seed"), [("chelebi", 2), ("gulbara", 4)])
def test_random_players_meet_long_progressive_doubles_promptly(game: str, seed: int, tmp_path: Path) -> None:
    """RULES.md 4, 6.2: a 1-1 in chelebi has over 100,000 turns; the random player plays
    it die by die instead of listing them."""
    out = tmp_path / "p.json"
    result = run("match", "--game", game, "--length", "1", "--white", "random", "--black", "random",
                 "--seed", str(seed), "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    record = MatchRecord.from_json(out.read_text())
    assert _big_doubles(record) >= 1
    final = replay(record)
    assert final.over and f"White {final.score[0]} - Black {final.score[1]}" in result.output


class SteppingHuman:
    """Answers ``tavla match`` prompts for seat 0: rolls, takes, declines, and plays
    every turn one die at a time with the position's own step builder, then ``done``."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.builder: Any = None
        self.position: Any = None
        self.big = 0

    def __call__(self, prompt: str) -> str:
        state = self.match.state
        answers = {"roll": "roll", "double": "take", "raccoon": "roll", "resign": "decline"}
        if state.phase != "move":
            return answers[state.phase]
        if state.position is not self.position:
            self.position = state.position
            self.builder = state.position.steps()
            self.big += state.position.legal_turns_within(TURN_LIST_LIMIT) is None
        if self.builder.complete:
            return "done"
        step: str = self.builder.legal_steps()[-1]
        self.builder.step(step)
        return step


def test_a_human_plays_a_chelebi_match_die_by_die(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md 4: the person's long progressive doubles start at once, step by step."""
    settings = MatchSettings("chelebi", 1, cube=False)
    match = Match(settings, dice=SeededDice(11))
    human = SteppingHuman(match)
    monkeypatch.setattr(match_cli, "input", human, raising=False)
    buffer = io.StringIO()
    session = match_cli.MatchSession(match, ("human", "random"), random.Random(11), Console(file=buffer))
    assert session.run() is True
    assert match.state.over and human.big >= 1  # seed 11 gives the person a long double
    assert replay(MatchRecord.of(match)).score == match.state.score
    assert "not legal" not in buffer.getvalue() and "Refused" not in buffer.getvalue()
    moves = [action for action in match.actions if action.kind == "move" and action.seat == 0]
    assert len(moves) > 3


def test_a_match_continues_from_gnubg_ids(tmp_path: Path) -> None:
    """RULES.md 9.4: a position pasted from gnubg (PositionID:MatchID) is played on."""
    live = Match(MatchSettings("tabla", length=5), dice=SeededDice(1))
    live.roll((6, 4))
    live.move(0, "24/14")
    live.double(1)
    live.take(0)
    position_id, match_id = match_ids(live.state)
    out = tmp_path / "continued.json"
    result = run(
        "match", "--from-ids", f"{position_id}:{match_id}", "--white", "random", "--black", "random",
        "--seed", "3", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game 1 | White 0 - Black 0 (to 5) | cube 2 White's" in result.output
    record = MatchRecord.from_json(out.read_text())
    assert record.setup == (position_id, match_id)
    states = list(replay_states(record))
    assert match_ids(states[0]) == (position_id, match_id)
    assert states[-1].over and max(states[-1].score) >= 5


@pytest.mark.parametrize(
    ("ids", "message"),
    [("4HPwATDgc/ABMA", "expected positionid:matchid"), ("4HPwATDgc/ABMA:cAkAAAAAAAA!", "match id")],
)
def test_bad_gnubg_ids_are_refused_in_one_line(ids: str, message: str) -> None:
    result = run("match", "--from-ids", ids, "--white", "random", "--black", "random")
    assert result.exit_code == 2
    assert message in result.output.lower() and len(result.output.strip().splitlines()) == 1


def test_replay_steps_forwards_and_backwards(tmp_path: Path) -> None:
    """RULES.md 9.4: a record is walked action by action, back and to any action."""
    out = tmp_path / "m.json"
    played = run(
        "match", "--length", "1", "--white", "random", "--black", "random", "--seed", "4", "--out", str(out)
    )
    assert played.exit_code == 0, played.output
    record = MatchRecord.from_json(out.read_text())
    states = list(replay_states(record))
    result = run("replay", str(out), "--step", input="\nnext\nb\ng 5\ng 99999\nxyz\ng 0\nn\ne\nq\n")
    assert result.exit_code == 0, result.output
    prompts = [line.split(">")[0] for line in result.output.splitlines() if line.startswith("[")]
    last = len(record.actions)
    assert prompts == [f"[{n}/{last}]" for n in (0, 1, 2, 1, 5, 5, 5, 0, 1, last)]
    assert f"There is no action 99999: the record has actions 1 to {last}." in result.output
    assert "'xyz': Enter or n: next" in result.output
    assert result.output.count(describe_match_end(states[-1])) == 1  # once, on reaching the end
    assert f"{last:4d}. " in result.output
    # Every action shown is followed by the match's status line at that action.
    for index in (0, 5, last):
        line = match_cli.status_line(states[index], 0)
        assert line in result.output, (index, line)
    # The board is drawn: the points' numbers of the terminal board.
    assert result.output.count("13 14 15 16 17 18") == 8  # actions 0, 1, 2, 1, 5, 0, 1 and the last


def test_the_prompt_shows_the_clocks_as_they_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md 10: the allowance runs first, then the reserve; the prompt shows both now."""
    time = FakeTime(0)
    settings = MatchSettings("tabla", 3, clock=parse_clock_spec("12s+2m", 3))
    match = Match(settings, dice=SeededDice(2), now=time)
    match.roll((3, 1))  # White starts and thinks
    time.advance(20_000)
    monkeypatch.setattr(match_cli, "input", lambda prompt: "quit", raising=False)
    buffer = io.StringIO()
    console = Console(file=buffer, width=200)
    session = match_cli.MatchSession(match, ("human", "random"), random.Random(1), console)
    assert session.run() is False
    assert "clocks White* 0s+5:52, Black 0s+6:00" in buffer.getvalue()


def test_a_player_out_of_time_is_named_once_and_loses_the_game() -> None:
    """RULES.md 10: a player whose allowance and reserve are spent loses at his next action."""
    time = FakeTime(0)
    settings = MatchSettings("tabla", 1, clock=parse_clock_spec("12s+2m", 1))
    match = Match(settings, dice=SeededDice(2), now=time)
    match.roll((3, 1))  # White to move, and he lets his time run out
    time.advance(600_000)
    buffer = io.StringIO()
    session = match_cli.MatchSession(
        match, ("random", "random"), random.Random(1), Console(file=buffer, width=200)
    )
    assert session.run() is True
    assert buffer.getvalue().splitlines() == [
        "White has run out of time.",
        "Black wins the game: flag, 3 points.",
        "Game 1 | White 0 - Black 3 (to 1) | cube 1 centred | clocks White 12s+0:00, Black 12s+2:00",
        "Black wins the match: White 0 - Black 3.",
    ]


def test_flag_loses_the_match_when_asked(tmp_path: Path) -> None:
    """RULES.md 10: the option flag_loses is game (default) or match."""
    out = tmp_path / "m.json"
    result = run(
        "match", "--length", "1", "--white", "random", "--black", "random", "--seed", "1",
        "--clock", "12s+2m", "--flag-loses", "match", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    clock = MatchRecord.from_json(out.read_text()).settings.clock
    assert clock is not None and clock.flag_loses == "match"
    refused = run("match", "--clock", "12s+2m", "--flag-loses", "set", "--white", "random")
    assert refused.exit_code == 2 and "expected game or match" in refused.output


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("missing/m.json", "there is no directory"),
        ("m.txt", "expected a file ending in .json or .mat"),
        ("folder.json", "this is a directory"),
    ],
)
def test_a_bad_destination_is_refused_before_play(tmp_path: Path, name: str, expected: str) -> None:
    (tmp_path / "folder.json").mkdir()
    out = tmp_path / name
    result = run("match", "--length", "1", "--white", "random", "--black", "random", "--seed", "1",
                 "--out", str(out))  # fmt: skip
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tavla: --out {out}: {expected}")  # nothing was played
    assert not out.is_file()


@pytest.mark.parametrize("suffix", [".json", ".mat"])
def test_a_finished_match_survives_a_failed_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    """The destination disappears during play: the record goes to the current directory."""
    folder = tmp_path / "gone"
    folder.mkdir()
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    original = match_cli.MatchSession.run

    def run_then_remove(self: match_cli.MatchSession) -> bool:
        finished = original(self)
        folder.rmdir()
        return finished

    monkeypatch.setattr(match_cli.MatchSession, "run", run_then_remove)
    result = run("match", "--length", "3", "--white", "random", "--black", "random", "--seed", "4",
                 "--out", str(folder / f"m{suffix}"))  # fmt: skip
    assert result.exit_code == 1
    saved = list(here.iterdir())
    assert len(saved) == 1 and saved[0].suffix == suffix
    assert f"the record is in {saved[0]}" in result.output
    text = saved[0].read_text(encoding="utf-8")
    final = replay(import_mat(text) if suffix == ".mat" else MatchRecord.from_json(text))
    assert final.over and "wins the match" in result.output


def test_replay_reads_a_gnubg_match_with_a_roll_then_a_resignation() -> None:
    path = DATA / "endings" / "resign_after_roll.mat"
    gnubg = json.loads(path.with_name("resign_after_roll.gnubg.json").read_text())
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert "offers to resign a backgammon" in result.output
    names, score = gnubg["names"], gnubg["final_score"]
    assert f"{names[0]} {score[0]} - {names[1]} {score[1]}" in result.output


def test_rule_options_on_the_command_line_reach_the_record(tmp_path: Path) -> None:
    """docs/rules.md: tavla match --rule NAME=VALUE plays and records the game's options."""
    out = tmp_path / "m.json"
    result = run(
        "match", "--game", "tapa", "--length", "1", "--white", "random", "--black", "random",
        "--seed", "4", "--rule", "mother_pin_wins=true", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = MatchRecord.from_json(out.read_text())
    assert record.settings.options == (("mother_pin_wins", True),)
    final = replay(record)
    assert final.over and final.position.notation().startswith("tapa(mother_pin_wins=true) ")


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("mother_pin_wins=perhaps", "expected true or false"),
        ("mother_pin_wins", "write NAME=VALUE"),
        ("no_such=1", "unknown option"),
        ("progressive_from_roll=0", "progressive_from_roll=0: expected 1 to 4"),
        ("progressive_from_roll=x", "expected a whole number"),
    ],
)
def test_a_bad_rule_option_is_one_line_before_play(rule: str, message: str) -> None:
    game = "gulbara" if rule.startswith("progressive") else "tapa"
    result = run("match", "--game", game, "--white", "random", "--black", "random", "--rule", rule)
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("forfeit", "why"),
    [
        (None, ""),
        ("warnings", " (three warnings)"),
        ("flag", " (time forfeit)"),
        ("absent", " (the opponent did not come)"),
        ("forfeit", " (forfeit)"),
    ],
)
def test_the_end_of_a_match_says_why_it_ended(forfeit: str | None, why: str) -> None:
    state = new_state(MatchSettings("tabla", 5, names=("Ayşe", "Boyan")))
    state = replace(state, score=(2, 3), winner=1, forfeit=EndReason(forfeit) if forfeit else None)
    assert describe_match_end(state) == f"Boyan wins the match{why}: Ayşe 2 - Boyan 3."


@pytest.mark.parametrize(
    ("result", "said"),
    [
        (GameResult(1, 1, OutcomeReason.SINGLE), "Boyan wins the game: single, 1 point."),
        (GameResult(0, 4, OutcomeReason.GAMMON, cube=2), "Ayşe wins the game: gammon, 4 points."),
        (GameResult(None, 0, OutcomeReason.VOID), "The game is void: nobody scores."),
        (GameResult(None, 0, EndReason.FLAG), "The game is void (flag): nobody scores."),
        (
            GameResult(0, 5, EndReason.WARNINGS),
            "Boyan has a third warning and loses the match: the game stops.",
        ),
        (GameResult(1, 5, EndReason.FORFEIT), "Ayşe forfeits and loses the match: the game stops."),
    ],
)
def test_the_end_of_a_game_says_who_scores_what_and_why(result: GameResult, said: str) -> None:
    state = new_state(MatchSettings("tabla", 5, names=("Ayşe", "Boyan")))
    assert describe_result(state) == ""
    assert describe_result(replace(state, result=result)) == said


def test_a_record_that_cannot_be_written_where_asked_is_kept_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    match = Match(MatchSettings("tabla", 1), dice=SeededDice(3))
    match.roll()
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "no such folder" / "final.json"
    said: list[str] = []
    assert match_cli.save_record(match, out, said.append) is False and said == []
    error = capsys.readouterr().err
    (kept,) = tmp_path.glob("final-*.json")
    assert error == f"tavla: could not write {out} (No such file or directory); the record is in {kept}\n"
    assert kept.read_text(encoding="utf-8") == MatchRecord.of(match).to_json() + "\n"

    def no_room(*args: object, **options: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tavla.cli.match.tempfile.mkstemp", no_room)
    assert match_cli.save_record(match, out, said.append) is False
    error = capsys.readouterr().err
    assert error.startswith(
        f"tavla: could not write {out} (No such file or directory) nor a fallback; the record:\n"
    )
    assert error.split("\n", 1)[1] == MatchRecord.of(match).to_json() + "\n\n"


def test_a_human_sees_the_board_when_it_changes_and_the_prompt_says_what_is_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prompts: list[str] = []
    lines = iter(["", "board", "8/3 6/3", "quit"])

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return next(lines)

    monkeypatch.setattr(match_cli, "input", answer, raising=False)
    match = Match(MatchSettings("tabla", 3, names=("Ayşe", "Boyan")), dice=SeededDice(5))
    buffer = io.StringIO()
    session = match_cli.MatchSession(
        match, ("human", "random"), random.Random(1), Console(file=buffer, width=120)
    )
    assert session.run() is False
    out = buffer.getvalue()
    # Ayşe opens with 5-3; an empty line is no move; Boyan answers; Ayşe is to roll.
    assert prompts[:3] == ["Ayşe, 5-3 to play (move)> "] * 3 and prompts[3] == "Ayşe (roll)> "
    assert "'' is not possible now: a whole turn" in out
    # Drawn on her turn, on request, and again once Boyan has moved.
    assert out.count("13 14 15 16 17 18") == 3

    quiet = Match(MatchSettings("tabla", 1), dice=SeededDice(5))
    buffer = io.StringIO()
    assert match_cli.MatchSession(quiet, ("random", "random"), random.Random(1), Console(file=buffer)).run()
    assert "13 14 15 16 17 18" not in buffer.getvalue()  # no board for nobody to look at
