"""The FIDE Tournament Report File (TRF16) with the two JaVaFo / bbpPairings extensions
that a Swiss pairing program reads: ``XXR n`` (rounds in the tournament) and
``XXC white1`` / ``XXC black1`` (the top seed's colour in round 1).

The reader keeps every header line it does not interpret (012 name, 022 city, ..., 102
arbiter) in the order they came, reads the ``001`` player lines by their fixed columns and
turns each ten-character round block into a :class:`RoundEntry`. The writer puts the
headers back, then XXR and XXC, then the players by start number: that order is the
*normalised* file, and ``write_trf(read_trf(text)) == text`` holds for it.

Every problem in a user's file is a :class:`TournamentError` that names the line and the
columns, never a traceback.

Columns of a 001 line (1-based, as the FIDE description counts them)::

    1-3 "001"   5-8 start number   10 sex   11-13 title   15-47 name   49-52 rating
    54-56 federation   58-68 FIDE id   70-79 birth date   81-84 points   86-89 rank
    92-101, 102-111, ...: one block per round, "oooo c r" (opponent, colour, result)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tavla.tournament.history import Colour, Entrant, Outcome, RoundEntry, TournamentError

PLAYER_TAG = "001"
ROUNDS_TAG = "XXR"
COLOUR_TAG = "XXC"
FIRST_BLOCK = 91  # 0-based index of round 1's block (column 92)
BLOCK_WIDTH = 10
NO_OPPONENT = "0000"

# Results that mean "no game between two players": the opponent field must be 0000.
_BYE_CODES = {"U": Outcome.PAIRING_BYE, "H": Outcome.HALF_BYE, "Z": Outcome.ZERO_BYE}
_GAME_CODES = {
    "1": Outcome.WIN,
    "0": Outcome.LOSS,
    "=": Outcome.DRAW,
    "+": Outcome.FORFEIT_WIN,
    "-": Outcome.FORFEIT_LOSS,
}


@dataclass(frozen=True)
class TrfPlayer:
    """One 001 line: the entrant (number, name, rating, rounds) and the other fields,
    kept as the file wrote them so that writing gives the same line back."""

    entrant: Entrant
    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    rank: str = ""


@dataclass(frozen=True)
class TrfTournament:
    """A whole report: header lines kept verbatim, the XXR and XXC values, the players."""

    players: tuple[TrfPlayer, ...]
    headers: tuple[str, ...] = ()
    total_rounds: int | None = None
    first_colour: Colour | None = None
    extra_colour_words: tuple[str, ...] = field(default_factory=tuple)

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        return tuple(player.entrant for player in self.players)

    @property
    def played_rounds(self) -> int:
        """Rounds already paired: the last round in which anybody was paired or given
        the pairing bye. A half-point or zero-point bye after it marks an absence from
        the round about to be paired, not a played round (and the reader refuses one
        written further on: ``_check_numbers``)."""
        played = 0
        for entrant in self.entrants:
            for index, entry in enumerate(entrant.rounds, start=1):
                if entry.opponent is not None or entry.outcome is Outcome.PAIRING_BYE:
                    played = max(played, index)
        return played

    def absent_from_next_round(self) -> frozenset[int]:
        """Start numbers of players with an H or Z already written in the column of the
        round about to be paired: they are neither paired nor printed."""
        played = self.played_rounds
        return frozenset(e.number for e in self.entrants if len(e.rounds) > played)

    def with_round(self, entries: dict[int, RoundEntry]) -> TrfTournament:
        """The report with one more round: ``entries`` maps start numbers to the new
        round's entry; players not in it are written as absent (Z) for that round."""
        played = self.played_rounds
        players = []
        for player in self.players:
            rounds = list(player.entrant.rounds[:played])
            rounds += [RoundEntry(None, None, Outcome.ZERO_BYE)] * (played - len(rounds))
            rounds.append(entries.get(player.entrant.number, RoundEntry(None, None, Outcome.ZERO_BYE)))
            players.append(replace(player, entrant=replace(player.entrant, rounds=tuple(rounds))))
        return replace(self, players=tuple(players))


def _error(line_number: int, columns: str, message: str) -> TournamentError:
    return TournamentError(f"line {line_number}, {columns}: {message}")


def _number(text: str, line_number: int, columns: str, what: str) -> int:
    stripped = text.strip()
    if not stripped.isdigit():
        raise _error(line_number, columns, f"{what} {text!r} is not a number")
    return int(stripped)


def _read_block(block: str, line_number: int, column: int, own_number: int) -> RoundEntry | None:
    """One ten-character round block (``block`` is its first 8 characters); None when
    blank. ``column`` is the block's first column, 1-based, for the messages."""
    where = f"columns {column}-{column + 7}"
    if not block.strip():
        return None
    block = block.ljust(8)
    opponent_text, gap1, colour_text, gap2, result = block[0:4], block[4], block[5], block[6], block[7]
    if gap1 != " " or gap2 != " ":
        raise _error(line_number, where, f"round block {block!r} is not 'oooo c r'")
    if result in _BYE_CODES:
        if opponent_text.strip() not in ("", "0", NO_OPPONENT) or colour_text not in ("-", " "):
            raise _error(line_number, where, f"a bye ({result}) is written '0000 - {result}', not {block!r}")
        return RoundEntry(None, None, _BYE_CODES[result])
    if result not in _GAME_CODES:
        known = ", ".join(["1", "0", "=", "+", "-", "U", "H", "Z"])
        raise _error(line_number, where, f"result {result!r} is not one of {known}")
    opponent = _number(opponent_text, line_number, f"columns {column}-{column + 3}", "opponent")
    if opponent in (0, own_number):
        raise _error(line_number, where, f"a game needs an opponent other than the player, not {opponent}")
    outcome = _GAME_CODES[result]
    if colour_text in ("w", "b"):
        colour: Colour | None = Colour(colour_text)
    elif colour_text == "-" and not outcome.played:
        colour = None
    else:
        raise _error(line_number, f"column {column + 5}", f"colour {colour_text!r} must be w or b")
    return RoundEntry(opponent, colour, outcome)


def _read_player(line: str, line_number: int) -> tuple[TrfPlayer, str]:
    """A 001 line; also returns the points text for the check against the results."""
    if len(line) < 84:
        raise _error(line_number, "columns 1-84", "a player line needs at least its points (column 84)")
    number = _number(line[4:8], line_number, "columns 5-8", "start number")
    if number == 0:
        raise _error(line_number, "columns 5-8", "start numbers begin at 1")
    rating_text = line[48:52]
    rating = 0 if not rating_text.strip() else _number(rating_text, line_number, "columns 49-52", "rating")
    points_text = line[80:84]
    try:
        float(points_text)
    except ValueError:
        raise _error(line_number, "columns 81-84", f"points {points_text!r} is not a number") from None
    rounds: list[RoundEntry] = []
    blanks = 0
    rest = line[FIRST_BLOCK:].rstrip()
    if line[89:FIRST_BLOCK].strip():
        raise _error(line_number, "columns 90-91", "must be blank before the first round block")
    for start in range(0, len(rest), BLOCK_WIDTH):
        column = FIRST_BLOCK + start + 1
        separator = rest[start + 8 : start + BLOCK_WIDTH]
        if separator.strip():
            raise _error(
                line_number, f"columns {column + 8}-{column + 9}", "must be blank between round blocks"
            )
        entry = _read_block(rest[start : start + 8], line_number, column, number)
        if entry is None:
            blanks += 1
            continue
        # A blank block followed by a written one: the player was absent, scored nothing.
        rounds += [RoundEntry(None, None, Outcome.ZERO_BYE)] * blanks
        blanks = 0
        rounds.append(entry)
    entrant = Entrant(number=number, name=line[14:47].strip(), rating=rating, rounds=tuple(rounds))
    player = TrfPlayer(
        entrant=entrant,
        sex=line[9].strip(),
        title=line[10:13].strip(),
        federation=line[53:56].strip(),
        fide_id=line[57:68].strip(),
        birth_date=line[69:79].strip(),
        rank=line[85:89].strip(),
    )
    return player, points_text


def _read_colour_words(words: list[str], line_number: int) -> tuple[Colour | None, tuple[str, ...]]:
    colour: Colour | None = None
    others = []
    for word in words:
        if word == "white1":
            colour = Colour.WHITE
        elif word == "black1":
            colour = Colour.BLACK
        else:
            others.append(word)
    return colour, tuple(others)


def read_trf(text: str) -> TrfTournament:
    """Read a report; raises TournamentError naming the line and columns of a problem."""
    headers: list[str] = []
    players: list[TrfPlayer] = []
    points: dict[int, tuple[str, int]] = {}
    total_rounds: int | None = None
    first_colour: Colour | None = None
    colour_words: tuple[str, ...] = ()
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        tag = line[:3]
        if tag == PLAYER_TAG:
            player, points_text = _read_player(line, line_number)
            number = player.entrant.number
            if number in points:
                raise _error(line_number, "columns 5-8", f"start number {number} appears twice")
            points[number] = (points_text, line_number)
            players.append(player)
        elif tag == ROUNDS_TAG:
            total_rounds = _number(line[3:], line_number, "columns 4-", "XXR round count")
            if total_rounds == 0:
                raise _error(line_number, "columns 4-", "a tournament has at least one round")
        elif tag == COLOUR_TAG:
            first_colour, colour_words = _read_colour_words(line[3:].split(), line_number)
        elif len(tag) == 3 and (tag.isdigit() or tag.isalpha()):
            headers.append(line)
        else:
            raise _error(line_number, "columns 1-3", f"{tag!r} is not a TRF line tag")
    if not players:
        raise TournamentError("the file has no player (001) lines")
    players.sort(key=lambda p: p.entrant.number)
    tournament = TrfTournament(tuple(players), tuple(headers), total_rounds, first_colour, colour_words)
    _check_numbers(tournament, points)
    _check_opponents(tournament, points)
    _check_points(tournament, points)
    return tournament


def _check_numbers(tournament: TrfTournament, points: dict[int, tuple[str, int]]) -> None:
    numbers = [p.entrant.number for p in tournament.players]
    expected = list(range(1, len(numbers) + 1))
    if numbers != expected:
        missing = sorted(set(expected) - set(numbers))
        first = missing[0] if missing else max(numbers)
        raise TournamentError(f"start numbers must run 1..{len(numbers)}: {first} is missing")
    played = tournament.played_rounds
    for entrant in tournament.entrants:
        if len(entrant.rounds) > played + 1:
            line = points[entrant.number][1]
            column = FIRST_BLOCK + BLOCK_WIDTH * (played + 1) + 1
            raise _error(line, f"column {column}", f"round {played + 2} is written before round {played + 1}")


def _check_opponents(tournament: TrfTournament, points: dict[int, tuple[str, int]]) -> None:
    """Each game is written on both players' lines, same round, opposite colours."""
    by_number = {e.number: e for e in tournament.entrants}
    for entrant in tournament.entrants:
        for index, entry in enumerate(entrant.rounds):
            if entry.opponent is None:
                continue
            line = points[entrant.number][1]
            column = FIRST_BLOCK + BLOCK_WIDTH * index + 1
            where = f"columns {column}-{column + 7}"
            opponent = by_number.get(entry.opponent)
            if opponent is None:
                raise _error(line, where, f"round {index + 1}: opponent {entry.opponent} has no 001 line")
            theirs = opponent.rounds[index] if index < len(opponent.rounds) else None
            if theirs is None or theirs.opponent != entrant.number:
                raise _error(
                    line,
                    where,
                    f"round {index + 1}: player {entry.opponent}'s line does not name {entrant.number}",
                )
            if entry.outcome.played != theirs.outcome.played or (
                entry.outcome.played and entry.colour == theirs.colour
            ):
                raise _error(
                    line, where, f"round {index + 1}: the entry contradicts player {entry.opponent}'s entry"
                )


def _check_points(tournament: TrfTournament, points: dict[int, tuple[str, int]]) -> None:
    """The points column holds the score of the rounds played, or that score with the
    half-point bye already written for the round about to be paired."""
    played = tournament.played_rounds
    for entrant in tournament.entrants:
        text, line = points[entrant.number]
        written = float(text)
        done = sum(entry.outcome.points for entry in entrant.rounds[:played])
        with_next = sum(entry.outcome.points for entry in entrant.rounds)
        if abs(written - done) > 1e-9 and abs(written - with_next) > 1e-9:
            raise _error(line, "columns 81-84", f"points {text.strip()} but the results add up to {done:g}")


def _block(entry: RoundEntry) -> str:
    if entry.opponent is None:
        return f"{NO_OPPONENT} - {entry.outcome.value}"
    colour = "-" if entry.colour is None else entry.colour.value
    return f"{entry.opponent:>4} {colour} {entry.outcome.value}"


def player_line(player: TrfPlayer, points: float | None = None) -> str:
    """The 001 line of ``player``; ``points`` defaults to the sum of its rounds."""
    entrant = player.entrant
    score = entrant.points if points is None else points
    head = (
        f"{PLAYER_TAG} {entrant.number:>4} {player.sex:1}{player.title:>3} {entrant.name:<33.33} "
        f"{entrant.rating or '':>4} {player.federation:<3} {player.fide_id:>11} {player.birth_date:<10} "
        f"{score:>4.1f} {player.rank:>4}"
    )
    blocks = "".join(f"  {_block(entry)}" for entry in entrant.rounds)
    return (head + blocks).rstrip()


def write_trf(tournament: TrfTournament) -> str:
    """The normalised text of a report: headers, XXR, XXC, then players by number."""
    lines = list(tournament.headers)
    if tournament.total_rounds is not None:
        lines.append(f"{ROUNDS_TAG} {tournament.total_rounds}")
    words = list(tournament.extra_colour_words)
    if tournament.first_colour is not None:
        words.insert(0, "white1" if tournament.first_colour is Colour.WHITE else "black1")
    if words:
        lines.append(f"{COLOUR_TAG} {' '.join(words)}")
    lines += [player_line(player) for player in tournament.players]
    return "\n".join(lines) + "\n"
