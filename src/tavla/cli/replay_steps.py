"""``tavla replay FILE --step``: walk a match record forwards and backwards at a prompt.

Enter (or ``n``) shows the next action, ``b`` the one before, ``g N`` jumps to the
state after action N (``g 0``: the start), ``e`` to the end, ``q`` quits. Each stop
draws the board and the status line: score, cube, Crawford and clocks as they were.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console

from tavla.cli.board_view import position_renderable
from tavla.cli.match import describe, describe_match_end, describe_result, status_line
from tavla.core.digits import is_digits
from tavla.match.actions import MatchAction
from tavla.match.state import MatchState

HELP = "Enter or n: next, b: back, g N: go to action N, e: end, q: quit"


class ReplayStepper:
    """Shows ``states[i]`` (the state after action i; 0 is the start) on request."""

    def __init__(
        self,
        actions: Sequence[MatchAction],
        states: Sequence[MatchState],
        console: Console,
        read: Callable[[str], str] = input,
        extra: Callable[[MatchState], str] | None = None,
    ) -> None:
        self.actions = actions
        self.states = states
        self.console = console
        self.read = read
        self.extra = extra
        self.index = 0

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False)

    def show(self) -> None:
        state = self.states[self.index]
        if self.index == 0:
            self.say(f"Start of the record ({len(self.actions)} actions).")
        else:
            before = self.states[self.index - 1]
            self.say(f"{self.index:4d}. {describe(self.actions[self.index - 1], before, state)}")
            if state.result is not None and before.result is None:
                self.say(describe_result(state))
        if state.position is not None:
            self.console.print(position_renderable(state.position))
        self.say(status_line(state, state.clock.since_ms if state.clock else 0))
        if self.extra is not None:
            self.say(self.extra(state))
        if self.index == len(self.states) - 1:
            unfinished = "End of the record: the match is unfinished."
            self.say(describe_match_end(state) if state.over else unfinished)

    def run(self) -> None:
        self.say(HELP)
        self.show()
        last = len(self.states) - 1
        while True:
            try:
                line = self.read(f"[{self.index}/{last}]> ").strip().lower()
            except EOFError:
                return
            word, _, rest = line.partition(" ")
            if word in ("q", "quit"):
                return
            if word in ("", "n", "next"):
                target = self.index + 1
            elif word in ("b", "back"):
                target = self.index - 1
            elif word in ("e", "end"):
                target = last
            elif word in ("g", "go") and is_digits(rest.strip()):
                target = int(rest.strip())
            else:
                self.say(f"'{line}': {HELP}.")
                continue
            if not 0 <= target <= last:
                self.say(f"There is no action {target}: the record has actions 1 to {last}.")
                continue
            self.index = target
            self.show()
