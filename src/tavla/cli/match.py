"""``tavla match``: a match in the terminal, humans and random players, with cube and clocks.

A human types one command at a time; what he may type depends on the moment:
``roll`` (or an empty line), ``double``, ``take``, ``drop``, ``beaver``, ``raccoon``,
``accept``, ``decline``, ``resign [single|gammon|backgammon]``, ``board``, ``help``
and ``quit``. At his move he enters the turn as in ``tavla play``
(:class:`tavla.cli.turn_entry.TurnEntry`): a whole turn (``24/18 13/11``, committed at
once) or one step at a time (``13/7``, then ``7/5``), ``undo`` to take back a step and
``done`` to commit (``done`` or ``-`` when nothing can be played); ``moves`` (or
``hint``) lists the legal turns. The prompt shows the steps played so far; nothing
reaches the match before the turn is committed (RULES.md 1.3, 13), while the clock
runs on. Anything refused is explained and changes nothing.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from tavla.cli.board_view import position_renderable
from tavla.cli.errors import fail, reports_errors
from tavla.cli.rule_options import RuleOption, game_with_rules
from tavla.cli.turn_entry import TurnEntry, dice_text
from tavla.core.dice import CryptoDice, DiceSource, SeededDice
from tavla.core.errors import TavlaError
from tavla.core.registry import find_game
from tavla.match.actions import MatchAction
from tavla.match.clock import ClockSettings, parse_clock_spec, parse_duration_ms
from tavla.match.errors import MatchError, TimeForfeitError
from tavla.match.gnubg_ids import settings_from_ids
from tavla.match.mat import export_mat
from tavla.match.match import Match
from tavla.match.players import RandomPlayer, play
from tavla.match.record import MatchRecord
from tavla.match.settings import MatchSettings
from tavla.match.state import WARNINGS_TO_LOSE, MatchState
from tavla.render.board import roll_text
from tavla.rules.backgammon.gnubg_id import split_gnubg_id

PLAYER_KINDS = ("human", "random")
ANSWERS = {
    "roll": "roll (or an empty line), double, resign [single|gammon|backgammon]",
    "move": "a whole turn (24/18 13/11) or one step at a time (13/7, then done), undo, moves, resign [level]",
    "double": "take, drop" + " (or beaver, in money play with beavers)",
    "raccoon": "raccoon, or roll to go on",
    "resign": "accept or decline",
}


def _clock_text(ms: int) -> str:
    seconds = ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def status_line(state: MatchState, now_ms: int) -> str:
    """Game, score, cube and clocks in one line."""
    settings = state.settings
    names = settings.names
    if not state.has_dice:
        target = f"best of {settings.sets} sets"
    elif settings.money:
        target = "money game"
    else:
        target = f"to {settings.length}"
    parts = [
        f"Game {state.game_number}",
        f"{names[0]} {state.score[0]} - {names[1]} {state.score[1]} ({target})",
    ]
    if state.has_dice and settings.cube:
        owner = "centred" if state.cube.owner is None else f"{names[state.cube.owner]}'s"
        parts.append(f"cube {state.cube.value} {owner}")
        if state.crawford:
            parts.append("Crawford game")
        elif state.post_crawford:
            parts.append("post-Crawford")
    if state.clock is not None:
        clocks = []
        for seat in (0, 1):
            allowance, reserve = state.clock.remaining(seat, max(now_ms, state.clock.since_ms))
            running = "*" if state.clock.running == seat else ""
            clocks.append(f"{names[seat]}{running} {allowance // 1000}s+{_clock_text(reserve)}")
        parts.append("clocks " + ", ".join(clocks))
    return " | ".join(parts)


def describe(action: MatchAction, before: MatchState, after: MatchState) -> str:
    """One line telling what ``action`` did."""
    names = before.settings.names
    who = names[action.seat] if action.seat is not None else ""
    kind = action.kind
    if kind == "start":
        return f"Game {after.game_number} begins."
    if kind == "roll" and action.seat is None:
        starter = names[after.starter or 0]
        return f"Opening roll: {names[0]} {action.value[0]}, {names[1]} {action.value[1]}; {starter} starts."
    if kind == "roll":
        return f"{who} rolls {roll_text(action.value)}."
    if kind == "move":
        return f"{who} plays {action.value}."
    if kind == "double":
        return f"{who} doubles to {before.cube.value * 2}."
    if kind in ("take", "drop", "beaver", "raccoon", "accept", "decline"):
        return f"{who} {kind}s." if kind != "accept" else f"{who} accepts the resignation."
    if kind == "resign":
        return f"{who} offers to resign a {action.value}."
    if kind == "flag":
        return f"{who} has run out of time."
    if kind == "break":
        return f"{who} takes a break."
    if kind == "warn":
        note = f": {action.value}" if action.value else ""
        count = after.warnings[action.seat or 0]
        return f"The arbiter warns {who} (warning {count} of {WARNINGS_TO_LOSE}){note}."
    note = f": {action.value}" if action.value else ""
    if kind == "absent":
        present = after.settings.names[1 - (action.seat or 0)]
        unit = "point" if after.has_dice else "set"  # Abluka's matches count sets
        return (
            f"{who} has not come: {present} is credited a {unit} ({after.score[1 - (action.seat or 0)]} now)."
        )
    if kind == "forfeit":
        return f"{who} forfeits the match{note}."
    if kind == "void":
        return f"The match is void{note}."
    return f"{kind} {action.value}".strip()


def describe_result(state: MatchState) -> str:
    result = state.result
    names = state.settings.names
    if result is None:
        return ""
    if result.winner is None:
        why = "" if result.reason == "void" else f" ({result.reason})"
        return f"The game is void{why}: nobody scores."
    if result.reason == "warnings":
        return f"{names[1 - result.winner]} has a third warning and loses the match: the game stops."
    if result.reason == "forfeit":
        return f"{names[1 - result.winner]} forfeits and loses the match: the game stops."
    unit = "point" if result.points == 1 else "points"
    return f"{names[result.winner]} wins the game: {result.reason}, {result.points} {unit}."


def describe_match_end(state: MatchState) -> str:
    names = state.settings.names
    score = f"{names[0]} {state.score[0]} - {names[1]} {state.score[1]}"
    if state.winner is None:
        return f"The match is void: {score}." if state.forfeit == "void" else f"The match is drawn: {score}."
    why = {
        "warnings": " (three warnings)",
        "flag": " (time forfeit)",
        "absent": " (the opponent did not come)",
        "forfeit": " (forfeit)",
    }.get(state.forfeit or "", "")
    return f"{names[state.winner]} wins the match{why}: {score}."


class MatchSession:
    """Runs a match in the terminal: humans type, random players choose."""

    def __init__(self, match: Match, kinds: tuple[str, str], rng: random.Random, console: Console) -> None:
        self.match = match
        self.kinds = kinds
        self.players = (RandomPlayer(rng), RandomPlayer(rng))
        self.console = console
        self.echo = not sys.stdin.isatty()
        self.draw = "human" in kinds
        self._drawn: object = None
        """The position last drawn: drawn again only when it changes."""
        self._entry: TurnEntry | None = None

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False)

    def _report(self, start: int) -> None:
        match = self.match
        for index in range(start, len(match.actions)):
            before, after = match.states[index], match.states[index + 1]
            self.say(describe(match.actions[index], before, after))
            if after.result is not None and before.result is None:
                self.say(describe_result(after))
                self.say(status_line(after, match.actions[index].t_ms))

    def run(self) -> bool:
        """Play to the end; False when the input ended first."""
        match = self.match
        while not match.state.over:
            seen = len(match.actions)
            state = match.state
            try:
                if state.phase == "opening":
                    match.roll()
                elif state.phase == "between":
                    match.start_next_game()
                elif state.actor is not None and self.kinds[state.actor] == "random":
                    play(match, self.players[state.actor].choose(state))
                elif not self._human_turn():
                    self._report(seen)
                    return False
            except TimeForfeitError:
                pass  # the flag is recorded: the report names whose time ran out
            self._report(seen)
        self.say(describe_match_end(match.state))
        return True

    def _human_turn(self) -> bool:
        match = self.match
        state = match.state
        actor = state.actor
        if actor is None:  # run() handles the phases without an actor before calling this
            raise MatchError(f"nobody is to act at {state.phase!r}")
        if match.check_time() is not None:
            return True
        if self.draw and state.phase in ("roll", "move") and self._drawn is not state.position:
            self.console.print(position_renderable(state.position))
            self._drawn = state.position
        name = state.settings.names[actor]
        dice = dice_text(state.position)
        rolled = f", {dice} to play" if state.phase == "move" and dice else ""
        self.say(status_line(state, match.now()))
        entry = self._turn_entry(state) if state.phase == "move" else None
        progress = entry.progress if entry is not None else ""
        try:
            line = input(f"{name}{rolled}{progress} ({state.phase})> ")
        except EOFError:
            self.say("End of input: the match is unfinished.")
            return False
        if self.echo:
            self.say(line)
        return self._command(actor, line.strip(), entry)

    def _turn_entry(self, state: MatchState) -> TurnEntry:
        """The turn being entered in ``state``'s position, new for each new position
        (a declined resignation keeps the steps already played)."""
        entry = self._entry
        if entry is None or entry.position is not state.position:
            entry = self._entry = TurnEntry(state.position, self.say)
            if entry.no_move:
                self.say("No legal move: 'done' (or '-') passes the turn.")
        return entry

    def _command(self, seat: int, line: str, entry: TurnEntry | None = None) -> bool:
        """Carry out one line of ``seat``; False when he leaves the match."""
        match = self.match
        state = match.state
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word == "quit":
            self.say("You left the match: it is unfinished.")
            return False
        try:
            if word == "help":
                self.say(f"Now: {ANSWERS.get(state.phase, '')}; also board, help, quit.")
                if entry is not None:
                    self.say(entry.syntax())
            elif word == "board":
                self.console.print(position_renderable(state.position))
            elif word in ("", "roll") and state.phase in ("roll", "raccoon"):
                match.roll()
            elif word == "resign":
                match.resign(seat, rest.strip() or "single")
            elif word in ("double", "take", "drop", "beaver", "raccoon", "accept", "decline"):
                match.act(word, seat)
            elif entry is not None and word not in ("", "roll"):
                # Steps, undo, done, moves or a whole turn; only a committed turn is played.
                turn = entry.handle(line)
                if turn is not None:
                    match.move(seat, turn)
            elif word in ("moves", "hint"):
                self.say("No move to make now.")
            else:
                self.say(f"'{line}' is not possible now: {ANSWERS.get(state.phase, '')}.")
        except TimeForfeitError as error:
            self.say(str(error))
        except TavlaError as error:
            self.say(f"Refused: {error}")
        return True


def _settings(
    game: str,
    length: int,
    sets: int,
    clock: str | None,
    options: dict[str, object],
    names: tuple[str, str],
    flag_loses: str = "game",
    rules: list[str] | None = None,
) -> MatchSettings:
    has_dice = bool(find_game(game).start().is_chance)
    clock_settings: ClockSettings | None = None
    if clock is not None:
        if has_dice:
            clock_settings = replace(parse_clock_spec(clock, length), flag_loses=flag_loses)
        else:
            clock_settings = ClockSettings.sudden_death(parse_duration_ms(clock))
    return MatchSettings(
        game=find_game(game).name,
        length=length,
        sets=sets,
        clock=clock_settings,
        names=names,
        options=tuple(game_with_rules(game, rules).changed_options().items()),
        **options,  # type: ignore[arg-type]
    )


RECORD_SUFFIXES = (".json", ".mat")


def check_destination(out: Path, game: str) -> None:
    """Refuse, before any play, a record file that could not be written."""
    suffix = out.suffix.lower()
    if suffix not in RECORD_SUFFIXES:
        raise fail(f"--out {out}: expected a file ending in .json or .mat")
    if suffix == ".mat" and not find_game(game).facts.gnubg_rules:
        raise fail(f"--out {out}: .mat records are for tabla; use .json")
    folder = out.parent
    if not folder.is_dir():
        raise fail(f"--out {out}: there is no directory {folder}")
    if out.is_dir():
        raise fail(f"--out {out}: this is a directory")
    if not os.access(folder, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise fail(f"--out {out}: not writable")


def _record_text(match: Match, suffix: str) -> str:
    record = MatchRecord.of(match)
    return export_mat(record) if suffix.lower() == ".mat" else record.to_json() + "\n"


def _fallback(text: str, out: Path) -> Path | None:
    """Write ``text`` to a new file in the current directory, else in the temporary
    directory; the file written, or None when neither could take it."""
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        try:
            handle, name = tempfile.mkstemp(prefix=f"{out.stem}-", suffix=out.suffix, dir=folder)
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
        except OSError:
            continue
        return Path(name)
    return None


def save_record(match: Match, out: Path, say: Callable[[str], None]) -> bool:
    """Write the record of ``match`` to ``out``; if that fails, to a fallback file so
    that a finished match is never lost. True when ``out`` was written."""
    text = _record_text(match, out.suffix)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        reason = error.strerror or str(error)
        saved = _fallback(text, out)
        if saved is None:
            print(f"tavla: could not write {out} ({reason}) nor a fallback; the record:", file=sys.stderr)
            print(text, file=sys.stderr)
        else:
            print(f"tavla: could not write {out} ({reason}); the record is in {saved}", file=sys.stderr)
        return False
    say(f"Record written to {out}.")
    return True


@reports_errors
def match_command(
    game: Annotated[str, typer.Option("--game", help="tabla, antitabla, chelebi, ..., abluka.")] = "tabla",
    length: Annotated[int, typer.Option("--length", help="Match to N points; 0 a single money game.")] = 7,
    sets: Annotated[int, typer.Option("--sets", help="Sets of a game without dice (Abluka).")] = 3,
    white: Annotated[str, typer.Option("--white", help="human or random (seat 0).")] = "human",
    black: Annotated[str, typer.Option("--black", help="human or random (seat 1).")] = "random",
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock", help="Per move + reserve per point, e.g. 12s+2m; Abluka: a budget, e.g. 15m."
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the record: FILE.json, or FILE.mat (tabla).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed the dice and the random players.")] = None,
    cube: Annotated[bool, typer.Option("--cube/--no-cube", help="Play with the doubling cube.")] = True,
    beavers: Annotated[bool, typer.Option("--beavers", help="Beavers (money play).")] = False,
    raccoons: Annotated[
        bool, typer.Option("--raccoons", help="Raccoons (money play, with beavers).")
    ] = False,
    jacoby: Annotated[bool, typer.Option("--jacoby", help="The Jacoby rule (money play).")] = False,
    next_game_start: Annotated[
        str, typer.Option("--next-game-start", help="opening_roll or winner_starts.")
    ] = "opening_roll",
    flag_loses: Annotated[
        str, typer.Option("--flag-loses", help="What running out of time loses: game (at 3 x cube) or match.")
    ] = "game",
    from_ids: Annotated[
        str | None,
        typer.Option(
            "--from-ids",
            help="Continue from gnubg's PositionID:MatchID (tabla family); length and score come from it.",
        ),
    ] = None,
    rule: RuleOption = None,
) -> None:
    """Play a match in the terminal, showing score, cube and clocks."""
    kinds = (white.lower(), black.lower())
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise fail(f"player {kind!r}: expected human or random")
    if out is not None:
        check_destination(out, game)
    options: dict[str, object] = {
        "cube": cube,
        "beavers": beavers,
        "raccoons": raccoons,
        "jacoby": jacoby,
        "next_game_start": next_game_start,
    }
    names = ("White", "Black")
    dice: DiceSource = CryptoDice() if seed is None else SeededDice(seed)
    rng = random.Random(None if seed is None else f"players {seed}")
    if from_ids is None:
        match = Match(_settings(game, length, sets, clock, options, names, flag_loses, rule), dice=dice)
    else:
        position_id, match_id = split_gnubg_id(from_ids)
        if match_id is None:
            raise fail(f"--from-ids {from_ids!r}: expected PositionID:MatchID, as gnubg shows them")
        if out is not None and out.suffix.lower() == ".mat":
            raise fail(f"--out {out}: a match continued from a position is saved as .json")
        from_id = settings_from_ids(match_id, game=find_game(game).name)
        options["jacoby"] = from_id.jacoby
        settings = _settings(game, from_id.length, sets, clock, options, names, flag_loses, rule)
        match = Match.from_ids(position_id, match_id, settings, dice=dice)
    session = MatchSession(match, (kinds[0], kinds[1]), rng, Console(highlight=False, soft_wrap=True))
    if match.setup is not None:
        session.say(f"Continuing from gnubg's {match.setup[0]}:{match.setup[1]}.")
        session.say(status_line(match.state, 0))
    finished = session.run()
    saved = out is None or save_record(match, out, session.say)
    if not finished or not saved:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("match")(match_command)
