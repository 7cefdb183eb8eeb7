"""The engine line protocol (ENGINE_PROTOCOL.md): one JSON request per line in,
one JSON reply per line out, in order; nothing else on standard output.

A request that cannot be served gets ``{"id": ..., "error": "<one line>"}`` and the
server keeps running; ``quit`` (or the end of input) stops it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

import tavla
from tavla.core.errors import TavlaError
from tavla.core.jsonread import load_json
from tavla.engine import builtin  # noqa: F401  (registers the engines)
from tavla.engine.dice import use_networks
from tavla.engine.registry import LEVELS, EngineError, engine_for, engine_games, played_weights

NAME = "tavla"


class Quit(Exception):
    """The client asked the engine to stop."""


def _one_line(message: str) -> str:
    return " ".join(message.split()) or "error"


class EngineServer:
    """Answers requests; ``handle`` is the whole protocol, ``serve`` the I/O loop."""

    def hello(self) -> dict[str, Any]:
        """Who the engine is; ``weights`` (only when some are) names the networks that
        play in place of the shipped ones (``--weights``)."""
        reply = {"name": NAME, "version": tavla.__version__, "games": engine_games(), "levels": list(LEVELS)}
        weights = played_weights()
        return {**reply, "weights": weights} if weights else reply

    def handle_line(self, line: str | bytes) -> dict[str, Any] | None:
        """The reply to one request line (None for a blank line); raises Quit on ``quit``.

        A line may come as bytes, or as text whose undecodable bytes were escaped; one
        that is not UTF-8 gets an error reply."""
        try:
            line = line.decode("utf-8") if isinstance(line, bytes) else line
            line.encode("utf-8")
        except UnicodeError:
            return {"id": None, "error": "not UTF-8 text: requests are UTF-8 JSON"}
        if not line.strip():
            return None
        try:
            # Not json.loads: a line of a thousand '[' raised RecursionError, and 1e400
            # became inf, which would be echoed back as the non-JSON 'Infinity'.
            request = load_json(line, "request")
        except TavlaError as error:
            return {"id": None, "error": _one_line(str(error))}
        if not isinstance(request, dict):
            return {"id": None, "error": "a request is a JSON object with a 'cmd'"}
        return self.handle(request)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The reply to a parsed request; raises Quit on ``quit``."""
        request_id = request.get("id")
        try:
            reply = self._answer(request)
        except (TavlaError, ValueError, TypeError) as error:
            reply = {"error": _one_line(str(error))}
        except Quit:
            raise
        except Exception as error:  # a bug must not end the session: report it and go on
            reply = {"error": _one_line(f"internal error: {type(error).__name__}: {error}")}
        if "id" in request:
            reply = {"id": request_id, **reply}
        elif "error" in reply:
            reply = {"id": None, **reply}
        return reply

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        command = request.get("cmd")
        if command == "quit":
            raise Quit
        if command == "hello":
            return self.hello()
        if command not in ("move", "double", "take"):
            raise EngineError(f"unknown cmd {command!r}: expected hello, move, double, take or quit")
        text = request.get("position")
        if not isinstance(text, str):
            raise EngineError("'position' must be a position text")
        position = tavla.from_notation(text)
        level = request.get("level", "hard")
        if level not in LEVELS:
            raise EngineError(f"level {level!r}: unknown; levels: {', '.join(LEVELS)}")
        engine = engine_for(position.game)
        match = request.get("match")
        if match is not None and not isinstance(match, dict):
            raise EngineError("'match' must be an object")
        if command == "double":
            return {"double": bool(engine.double(position, match, level))}
        if command == "take":
            return {"take": engine.take(position, match, level)}
        movetime = request.get("movetime_ms")
        if movetime is not None and (
            not isinstance(movetime, int) or isinstance(movetime, bool) or movetime <= 0
        ):
            raise EngineError(f"movetime_ms {movetime!r}: expected a positive integer")
        return engine.move(position, level, movetime)

    def reply_line(self, line: str | bytes) -> str | None:
        """The reply to one request line as one line of JSON; raises Quit on ``quit``.

        Whatever the line holds, the answer is a JSON object: the protocol promises
        the client an answer per request and a server that keeps running.
        """
        try:
            reply = self.handle_line(line)
            if reply is None:
                return None
            try:
                return json.dumps(reply, allow_nan=False)
            except (TypeError, ValueError) as error:
                # Answered with the request's id: a reply with "id": null would leave a
                # client waiting for its answer until it gives the engine up.
                fault = _one_line(f"internal error: a reply JSON cannot hold ({error})")
                return json.dumps({"id": reply.get("id"), "error": fault})
        except Quit:
            raise
        except Exception as error:  # a bug must not end the session: report it and go on
            message = _one_line(f"internal error: {type(error).__name__}: {error}")
            return json.dumps({"id": None, "error": message})

    def serve(self, source: Iterable[str] | Iterable[bytes], sink: TextIO) -> None:
        """Read requests from ``source`` until ``quit`` or end of input; reply on ``sink``."""
        for line in source:
            try:
                reply = self.reply_line(line)
            except Quit:
                return
            if reply is not None:
                sink.write(reply + "\n")
                sink.flush()


def main(argv: Sequence[str] | None = None) -> None:
    """Serve standard input and output (``python -m tavla.engine [--weights FILE ...]``,
    as ``tavla engine``)."""
    parser = argparse.ArgumentParser(prog="python -m tavla.engine", description=__doc__)
    parser.add_argument(
        "--weights", action="append", type=Path, default=[],
        help="a network file that plays its game instead of the shipped weights (repeat for more games)",
    )  # fmt: skip
    options = parser.parse_args(argv)
    if options.weights:
        try:
            use_networks(options.weights)
        except TavlaError as error:
            parser.exit(2, f"tavla: {error}\n")
    serve_stdio()


def serve_stdio() -> None:
    """Serve standard input and output until ``quit`` or the end of input."""
    # Lines are read as bytes: one that is not UTF-8 gets an error reply (handle_line).
    with contextlib.suppress(KeyboardInterrupt):
        EngineServer().serve(getattr(sys.stdin, "buffer", sys.stdin), sys.stdout)
