"""One live game's owner: every intent, bot move and timer passes through its lock.

The room holds the match state the library computes; it never decides a rule
itself. An accepted intent becomes a :class:`Change`, which is stored (one
transaction) before the room adopts it, acknowledges it and shows it to everybody.
A refused intent changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tavla.core.dice import roll
from tavla.core.errors import TavlaError
from tavla.core.opening import roll_opening
from tavla.core.protocol import StepBuilder, Turn
from tavla.match.actions import WARNING_NOTE_LIMIT, ActionKind, MatchAction, apply_action, flag_state
from tavla.match.errors import WrongPlayerError
from tavla.match.officials import credit_due_ms
from tavla.match.settings import MatchSettings
from tavla.match.state import MatchState, Phase
from tavla.schema import ActionJsonError, match_action, parse_action
from tavla.schema.actions import CommitAction, StepAction, UndoAction, acting_seat
from tavla.server.i18n import N_, translate
from tavla.server.live.basics import Book, CountingDice, Refused, SeatInfo, Viewer
from tavla.server.live.changes import Change, ChatLine, NewDice
from tavla.server.live.dicefeed import DiceFeed

log = logging.getLogger(__name__)

NEXT_GAME_DELAY_MS = 4000
"""The pause after a game ends before the next one starts, to see the result."""
CHAT_LIMIT = 300
FLAG_MARGIN_MS = 5
STORE_RETRY_S = 0.5
"""How soon a change of the server's own (a fallen flag, the next game, a bot's move)
is tried again when the database refused it: nobody else would ask for it again."""

BOT_RETRIES_S = (1.0, 5.0, 30.0)
"""When a bot whose thinking failed (an engine's error, its workers dying twice) tries
again: each failure in a row waits the next delay; after the last the bot stops, the
game waiting on it (its player may resign or leave), and the log says so."""


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


SaveChange = Callable[["Room", Change], Awaitable[None]]
"""Stores a change (and the room's bookkeeping after it) in one transaction."""


class Room:
    def __init__(
        self,
        game_id: str,
        settings: MatchSettings,
        seats: tuple[SeatInfo, SeatInfo],
        state: MatchState,
        actions: list[MatchAction],
        feed: DiceFeed,
        *,
        save: SaveChange,
        book: Book | None = None,
        spectators: bool = True,
        chat_on: tuple[bool, bool] = (True, True),
        chat: list[ChatLine] | None = None,
        pending_steps: list[str] | None = None,
        clock_base_ms: int = 0,
        federation_id: int | None = None,
        chat_closed: bool = False,
        no_show_from_ms: int | None = None,
        arrived: tuple[int | None, int | None] = (None, None),
        fence: int = 0,
    ) -> None:
        self.game_id = game_id
        self.fence = fence
        """The lease's fencing token this room stores its changes under (leases.py)."""
        self.settings = settings
        self.seats = seats
        self.state = state
        self.actions = actions
        self.feed = feed
        self.book = book or Book()
        self.spectators = spectators
        self.chat_on = chat_on
        self.chat = chat or []
        self.federation_id = federation_id
        """The federation whose tournament the game belongs to, if any."""
        self.chat_closed = chat_closed
        self.no_show_from_ms = no_show_from_ms
        """The scheduled start of a game under the no-show procedure (RULES.md 11.4), on
        the room's clock: its first game waits for both players. None: no waiting."""
        self.arrived: tuple[int | None, int | None] = arrived
        """When each seat first came (a bot's seat at once), on the room's clock."""
        self.viewers: list[Viewer] = []
        self.away_since: list[int | None] = [None, None]
        self.lock = asyncio.Lock()
        self.closed = False
        self._save = save
        self._base_ms = clock_base_ms
        self._loaded_mono = monotonic_ms()
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_failures = 0
        self.on_change: list[Callable[[Room], None]] = []
        self.bot_chooser: Callable[[Room, int], Awaitable[dict[str, Any] | None]] | None = None
        self.bot_delay_ms = 0
        self.builder: StepBuilder[Turn] | None = None
        self.board_version = self.book.version
        """The version of the last change to the game itself (an action or a step): an
        intent made on an older one is stale; chat and presence do not make it so."""
        from tavla.server.live.views import MoveList

        self.move_list = MoveList()
        self.match_json_cache: tuple[MatchState, dict[str, Any]] | None = None
        """The JSON of the state last shown (views.py), kept while the state is the same."""
        self._new_builder()
        for text in pending_steps or []:
            if self.builder is not None:
                self.builder.step(text)

    # ------------------------------------------------------------------ time
    def now(self) -> int:
        """The match's clock: monotonic within this process, continuing the stored times
        after a restart (the time the server was down is not charged to anybody)."""
        return self._base_ms + monotonic_ms() - self._loaded_mono

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def has_dice(self) -> bool:
        return self.state.has_dice

    def seat_is_bot(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].bot is not None

    @property
    def pending_steps(self) -> list[str]:
        return [] if self.builder is None else list(self.builder.played)

    def _new_builder(self) -> None:
        actor = self.state.actor
        if self.state.phase == Phase.MOVE and actor is not None and not self.seat_is_bot(actor):
            self.builder = self.state.position.steps()
        else:
            self.builder = None

    # --------------------------------------------------------------- changes
    def _dice(self, change: Change, game_number: int) -> CountingDice:
        """The game's dice positioned after every die drawn so far, this change's included."""
        pending = next((d for d in change.new_dice if d.game_number == game_number), None)
        stored = 0 if pending is not None else self.feed.seeds[game_number].dice_drawn
        drawn = change.dice_drawn if change.dice_drawn is not None else stored
        source = self.feed.source(game_number, pending)
        source.dice_drawn = drawn
        return CountingDice(source, drawn)

    def _apply(self, change: Change, action: MatchAction, turn: Turn | None = None) -> None:
        """Apply ``action`` to the change's state (raising, and changing nothing, if refused)."""
        before = change.state
        after, recorded = apply_action(before, action, turn=turn)
        change.actions.append(recorded)
        change.state = after
        if len(after.results) > len(before.results) and before.has_dice:
            change.reveal.append(before.game_number)
        if recorded.kind == ActionKind.START and after.has_dice:
            new = self.feed.begin(after.game_number)
            change.new_dice.append(new)

    def _roll(self, change: Change, seat: int | None) -> None:
        dice = self._dice(change, change.state.game_number)
        opening = change.state.phase == Phase.OPENING
        pair = roll_opening(dice) if opening else roll(dice)
        self._apply(
            change, MatchAction(ActionKind.ROLL, None if opening else seat, f"{pair[0]}{pair[1]}", self.now())
        )
        change.dice_drawn = dice.drawn

    def _advance(self, change: Change) -> None:
        """What the server does by itself: the opening roll of a game that has begun."""
        if change.state.phase == Phase.OPENING:
            self._roll(change, None)

    def _flag(self, now_ms: int) -> Change | None:
        flagged = flag_state(self.state, now_ms)
        if flagged is None:
            return None
        state, loser = flagged
        return Change(state=state, actions=[MatchAction(ActionKind.FLAG, loser, "", now_ms)])

    def _propose(self, seat: int, data: object) -> Change:
        """The change ``data`` (an action of docs/json.md) by ``seat`` would make."""
        try:
            action = parse_action(data)
            acting_seat(action, seat)
        except ActionJsonError as error:
            raise Refused("malformed", N_("the action cannot be read: {detail}"), detail=str(error)) from None
        change = Change(state=self.state, pending_steps=self.pending_steps)
        try:
            if isinstance(action, StepAction | UndoAction | CommitAction):
                self._propose_step(change, seat, action)
            elif action.kind == "roll":
                self._roll(change, seat)
            else:
                self._apply(change, match_action(action, seat, self.now()))
        except WrongPlayerError as error:
            raise Refused("not_your_turn", N_("not your turn: {detail}"), detail=str(error)) from None
        except (TavlaError, RuntimeError) as error:
            raise Refused("illegal", N_("not allowed: {detail}"), detail=str(error)) from None
        self._advance(change)
        return change

    def _propose_step(
        self, change: Change, seat: int, action: StepAction | UndoAction | CommitAction
    ) -> None:
        if self.state.actor != seat or self.state.phase != Phase.MOVE:
            raise Refused(
                "not_your_turn",
                N_("{action}: it is not player {seat}'s turn to move"),
                action=action.kind,
                seat=seat,
            )
        builder = self.builder
        if builder is None:  # a bot's seat taken over cannot happen; rebuild to be safe
            builder = self.builder = self.state.position.steps()
            for text in change.pending_steps:
                builder.step(text)
        # The room's own builder plays the step at once (it refuses an illegal one and
        # changes nothing); should storing the change fail, ``restore`` takes it back.
        if isinstance(action, StepAction):
            builder.step(action.step)
            change.restore = builder.undo
            change.steps_changed = True
        elif isinstance(action, UndoAction):
            if not builder.played:
                builder.undo()  # raises: nothing to take back
            last = builder.played[-1]
            builder.undo()
            change.restore = lambda: builder.step(last)
            change.steps_changed = True
        else:
            turn = builder.commit()
            self._apply(change, MatchAction(ActionKind.MOVE, seat, turn.text, self.now()), turn)
            change.pending_steps = []
            return
        change.pending_steps = list(builder.played)

    async def _commit(self, change: Change) -> None:
        """Store ``change``, then adopt it and show it (the caller holds the lock)."""
        change.clock_ms = self.now()
        self.book.version += 1
        kept = (0, 0)
        if change.seat is not None and change.seq is not None:
            kept = (self.book.last_seq[change.seat], self.book.last_ack[change.seat])
            self.book.last_seq[change.seat] = change.seq
            self.book.last_ack[change.seat] = self.book.version
        try:
            await self._save(self, change)
        except BaseException:
            self.book.version -= 1
            if change.seat is not None and change.seq is not None:
                self.book.last_seq[change.seat], self.book.last_ack[change.seat] = kept
            if change.restore is not None:
                change.restore()
            raise
        if change.actions or change.steps_changed:
            self.board_version = self.book.version
        self.state = change.state
        self.actions.extend(change.actions)
        for new in change.new_dice:
            self.feed.keep(new)
        if change.dice_drawn is not None:
            self.feed.seeds[self.state.game_number].dice_drawn = change.dice_drawn
        for number in change.reveal:
            if number in self.feed.seeds:
                self.feed.seeds[number].revealed = True
        if change.chat is not None:
            self.chat.append(change.chat)
        if change.close_chat:
            self.chat_closed = True
        if change.arrived is not None:
            self.arrived = change.arrived
        if change.actions:
            self._new_builder()
        if self.builder is not None and change.pending_steps != list(self.builder.played):
            self.builder = self.state.position.steps()
            for text in change.pending_steps:
                self.builder.step(text)
        if change.seat is not None and change.seq is not None:
            self._send_to_seat(change.seat, {"type": "ack", "seq": change.seq, "v": self.book.version})
        self.broadcast()
        self.schedule()

    # ------------------------------------------------------------- intents
    async def intent(self, viewer: Viewer, seq: object, version: object, data: object) -> None:
        seat = viewer.seat
        if seat is None:
            viewer.send(_error(viewer, seq, "not_player", N_("spectators cannot act in the game")))
            return
        if type(seq) is not int or seq < 1 or type(version) is not int:
            viewer.send(_error(viewer, seq, "malformed", N_("an intent needs an integer seq (1 up) and v")))
            return
        async with self.lock:
            if seq == self.book.last_seq[seat]:
                viewer.send({"type": "ack", "seq": seq, "v": self.book.last_ack[seat]})
                viewer.send(self.view(viewer.seat))
                return
            if seq < self.book.last_seq[seat]:
                viewer.send(
                    _error(
                        viewer,
                        seq,
                        "old_seq",
                        N_("intent {seq} is older than the last accepted, {last}"),
                        seq=seq,
                        last=self.book.last_seq[seat],
                    )
                )
                return
            if self.state.over:
                viewer.send(_error(viewer, seq, "over", N_("the match is over")))
                return
            flagged = self._flag(self.now())
            if flagged is not None:
                await self._commit(flagged)
                viewer.send(_error(viewer, seq, "illegal", N_("your time ran out: the flag fell")))
                return
            if not self.board_version <= version <= self.book.version:
                viewer.send(
                    _error(
                        viewer,
                        seq,
                        "stale",
                        N_("you acted on version {version}; the game is at {current}"),
                        version=version,
                        current=self.book.version,
                    )
                )
                viewer.send(self.view(seat))
                return
            try:
                change = self._propose(seat, data)
            except Refused as refused:
                viewer.send(_error(viewer, seq, refused.code, refused.template, **refused.params))
                return
            change.seat, change.seq = seat, seq
            await self._commit_or_refuse(viewer, seq, change)

    async def _commit_or_refuse(self, viewer: Viewer, seq: int, change: Change) -> None:
        """Commit a player's change; if the database refuses it, tell them and keep the game."""
        try:
            await self._commit(change)
        except Exception:
            log.exception("game %s: a change could not be stored", self.game_id)
            viewer.send(
                _error(
                    viewer,
                    seq,
                    "unavailable",
                    N_("the server could not store this; nothing changed, try again"),
                )
            )

    async def say(self, viewer: Viewer, seq: object, text: object) -> None:
        seat = viewer.seat
        if seat is None:
            refusal = (
                N_("an arbiter observes the game and cannot write to the players")
                if viewer.arbiter
                else N_("spectators cannot chat with the players")
            )
            viewer.send(_error(viewer, seq, "not_player", refusal))
            return
        if type(seq) is not int or seq < 1 or not isinstance(text, str) or not text.strip():
            viewer.send(
                _error(viewer, seq, "malformed", N_("a chat message needs an integer seq and some text"))
            )
            return
        if len(text) > CHAT_LIMIT:
            viewer.send(
                _error(
                    viewer,
                    seq,
                    "malformed",
                    N_("a chat message is at most {limit} characters"),
                    limit=CHAT_LIMIT,
                )
            )
            return
        async with self.lock:
            if seq <= self.book.last_seq[seat]:
                viewer.send(
                    {"type": "ack", "seq": seq, "v": self.book.last_ack[seat]}
                    if seq == self.book.last_seq[seat]
                    else _error(viewer, seq, "old_seq", N_("an older message"))
                )
                return
            if not self.chat_enabled:
                viewer.send(
                    _error(viewer, seq, "chat_off", N_("chat is on only when both players turned it on"))
                )
                return
            change = Change(state=self.state, pending_steps=self.pending_steps, seat=seat, seq=seq)
            change.chat = ChatLine(seat, text.strip(), self.now())
            await self._commit_or_refuse(viewer, seq, change)

    @property
    def chat_enabled(self) -> bool:
        both_people = all(info.bot is None for info in self.seats)
        return both_people and all(self.chat_on) and not self.chat_closed

    async def close_chat(self) -> None:
        """Close the players' chat for good: an arbiter's decision, authorised by the
        caller (ws.py, the federations' API). Stored, then shown to everybody."""
        async with self.lock:
            if self.chat_closed:
                return
            change = Change(state=self.state, pending_steps=self.pending_steps, close_chat=True)
            await self._commit(change)

    async def warn(self, seat: object, note: object) -> None:
        """An arbiter warns the player of ``seat`` (RULES.md 8.3, 11.4), authorised by
        the caller (ws.py, the federations' API). The library's WARN action records it
        in the match; the third warning ends the match, and the tournament hears of it
        as of any finished game. Raises :class:`Refused` and changes nothing when the
        match is over or the request cannot be read."""
        if seat not in (0, 1) or type(seat) is not int:
            raise Refused("malformed", N_("say which player is warned: seat 0 or 1"))
        await self.decide(ActionKind.WARN, seat, note)

    async def forfeit(self, seat: object, note: object) -> None:
        """An official's decision, authorised by the caller: ``seat`` loses the match at
        once; ``None``: both players do (the match is void, nobody wins it), as when
        neither came. Raises :class:`Refused` and changes nothing when refused."""
        if seat is not None and (seat not in (0, 1) or type(seat) is not int):
            raise Refused("malformed", N_("say which player forfeits: seat 0, seat 1, or null for both"))
        await self.decide(ActionKind.VOID if seat is None else ActionKind.FORFEIT, seat, note)

    async def decide(self, kind: ActionKind, seat: int | None, note: object = "") -> None:
        """An official's action on the match (``warn``, ``forfeit``, ``void``), authorised
        by the caller: stored, then shown to everybody; a match it ends is reported as
        any finished game. Raises :class:`Refused` and changes nothing when the match is
        over or the action is refused."""
        if not isinstance(note, str) or len(note.strip()) > WARNING_NOTE_LIMIT:
            raise Refused(
                "malformed",
                N_("an official's note is a text of at most {limit} characters"),
                limit=WARNING_NOTE_LIMIT,
            )
        async with self.lock:
            if self.state.over:
                raise Refused("over", N_("the match is over"))
            change = Change(state=self.state, pending_steps=self.pending_steps)
            try:
                self._apply(change, MatchAction(kind, seat, note.strip(), self.now()))
            except (TavlaError, RuntimeError) as error:
                raise Refused("illegal", N_("not allowed: {detail}"), detail=str(error)) from None
            await self._commit(change)

    # ------------------------------------------------------------ presence
    async def join(self, viewer: Viewer) -> None:
        async with self.lock:
            self.viewers.append(viewer)
            await self._presence_changed()

    @property
    def awaiting_players(self) -> bool:
        """The first game waits for both players to come (the no-show procedure)."""
        return self.no_show_from_ms is not None and self.state.game_number == 0 and not self.state.over

    def _arrivals(self, change: Change) -> None:
        """Note who has come for the first time; when both have, the first game begins."""
        if not self.awaiting_players:
            return
        now = self.now()
        first, second = (
            now if when is None and self.connected(seat) else when for seat, when in enumerate(self.arrived)
        )
        if (first, second) == self.arrived:
            return
        change.arrived = (first, second)
        if first is not None and second is not None:
            self._apply(change, MatchAction(ActionKind.START, None, "", now))
            self._advance(change)

    def credit_due(self, state: MatchState | None = None) -> int | None:
        """When the one player who came is due his next no-show point; None when nobody
        or both came, or the game does not wait."""
        state = self.state if state is None else state
        start = self.no_show_from_ms
        if start is None or state.game_number != 0 or state.over:
            return None
        present = [seat for seat in (0, 1) if self.arrived[seat] is not None]
        if len(present) != 1:
            return None
        seat = present[0]
        arrived = self.arrived[seat]
        return None if arrived is None else credit_due_ms(start, arrived, state.score[seat])

    def _credit_absentee(self, now: int) -> Change | None:
        """The no-show points due by ``now`` (several, after a pause of the server)."""
        due = self.credit_due()
        if due is None or now < due:
            return None
        change = Change(state=self.state, pending_steps=self.pending_steps)
        absent = 0 if self.arrived[0] is None else 1
        while due is not None and due <= now:
            self._apply(change, MatchAction(ActionKind.ABSENT, absent, "", due))
            due = self.credit_due(change.state)
        return change

    async def leave(self, viewer: Viewer) -> None:
        if viewer in self.viewers:
            self.viewers.remove(viewer)
        if self.closed:
            return  # the server is stopping: nothing more is stored
        async with self.lock:
            if not self.closed:  # closed while this waited for the lock
                await self._presence_changed()

    def connected(self, seat: int) -> bool:
        return self.seat_is_bot(seat) or any(v.seat == seat for v in self.viewers)

    async def _presence_changed(self) -> None:
        for seat in (0, 1):
            away = not self.connected(seat)
            if away and self.away_since[seat] is None:
                self.away_since[seat] = self.now()
            elif not away:
                self.away_since[seat] = None
        # Spectators coming and going change the count everybody sees, too: a new version.
        change = Change(state=self.state, pending_steps=self.pending_steps)
        self._arrivals(change)
        await self._commit(change)

    # -------------------------------------------------------------- timers
    def deadline(self) -> int | None:
        """When the room must act by itself next (a flag, the next game), on its clock."""
        state = self.state
        if state.over:
            return None
        if self.awaiting_players:
            return self.credit_due()
        if state.phase == Phase.BETWEEN:
            last = self.actions[-1].t_ms if self.actions else 0
            return max(last + NEXT_GAME_DELAY_MS, state.break_ends_ms)
        clock = state.clock
        if clock is None or clock.running is None:
            return None
        return clock.since_ms + clock.settings.move_ms + clock.reserve_ms[clock.running] + FLAG_MARGIN_MS

    def schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.closed:
            return  # a closed room acts no more: another owns the game now, or none does
        deadline = self.deadline()
        loop = asyncio.get_running_loop()
        if deadline is not None:
            delay = max(0, deadline - self.now()) / 1000
            self._timer = loop.call_later(delay, lambda: asyncio.ensure_future(self.tick()))
        self._schedule_bot()
        for listener in self.on_change:
            listener(self)

    async def tick(self) -> None:
        """The timer fired: record a fallen flag, or start the next game."""
        async with self.lock:
            if self.closed:
                return
            now = self.now()
            change = self._flag(now)
            if change is None and self.awaiting_players:
                change = self._credit_absentee(now)
            elif change is None and self.state.phase == Phase.BETWEEN and not self.state.over:
                deadline = self.deadline()
                if deadline is not None and now >= deadline:
                    change = Change(state=self.state)
                    self._apply(change, MatchAction(ActionKind.START, None, "", now))
                    self._advance(change)
            if change is None:
                self.schedule()
                return
            try:
                await self._commit(change)
            except Exception:
                log.exception("game %s: the timer's change could not be stored; trying again", self.game_id)
                self._retry(lambda: asyncio.ensure_future(self.tick()))

    def _retry(self, again: Callable[[], object]) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(STORE_RETRY_S, again)

    # ------------------------------------------------------------------ bots
    def _schedule_bot(self) -> None:
        actor = self.state.actor
        if self.bot_chooser is None or self.closed or self.state.over or not self.seat_is_bot(actor):
            return
        if actor is None or (self._bot_task is not None and not self._bot_task.done()):
            return
        self._bot_task = asyncio.ensure_future(self._bot_turn(actor, self.book.version))

    async def _bot_turn(self, seat: int, version: int) -> None:
        await asyncio.sleep(self.bot_delay_ms / 1000)
        chooser = self.bot_chooser
        if chooser is None:
            return
        try:
            action = await chooser(self, seat)
        except Exception:
            log.exception("bot of game %s failed", self.game_id)
            if self._bot_failures < len(BOT_RETRIES_S) and not self.closed:
                delay = BOT_RETRIES_S[self._bot_failures]
                self._bot_failures += 1
                asyncio.get_running_loop().call_later(delay, self._schedule_bot)
            else:
                log.error("bot of game %s gives up after %d failures", self.game_id, self._bot_failures + 1)
            return
        self._bot_failures = 0
        if action is None:
            return
        async with self.lock:
            if self.book.version != version or self.state.actor != seat:
                self._bot_task = None
                self._schedule_bot()
                return
            try:
                change = self._propose(seat, action)
            except Refused as refused:
                log.error("bot of game %s refused: %s (%s)", self.game_id, refused.message, action)
                return
            self._bot_task = None
            try:
                await self._commit(change)
            except Exception:
                log.exception("game %s: the bot's move could not be stored; trying again", self.game_id)
                self._retry(self.schedule)

    # ------------------------------------------------------------------ views
    def broadcast(self) -> None:
        from tavla.server.live.views import SHARED_KEYS, shared_text, shared_view, state_message

        if not self.viewers:
            return
        # What all viewers share is built and written as JSON once; each message is its
        # viewer's own part followed by that text.
        shared = shared_view(self)
        common = shared_text(self, shared)
        for viewer in list(self.viewers):
            own = state_message(
                self, viewer.seat, shared, reads_chat=reads_chat(viewer), official=official(viewer)
            )
            own_text = json.dumps(
                {key: value for key, value in own.items() if key not in SHARED_KEYS},
                separators=(",", ":"),
                ensure_ascii=False,
            )
            viewer.send(own_text[:-1] + "," + common[1:])

    def _send_to_seat(self, seat: int, message: dict[str, Any]) -> None:
        for viewer in self.viewers:
            if viewer.seat == seat:
                viewer.send(message)

    def view(
        self, seat: int | None, *, reads_chat: bool | None = None, official: dict[str, bool] | None = None
    ) -> dict[str, Any]:
        """The ``state`` for ``seat``; the chat's lines are shown to the players, and to
        an observer only when ``reads_chat`` says so; ``official`` says what an arbiter
        may do from the board."""
        from tavla.server.live.views import state_message

        return state_message(self, seat, reads_chat=reads_chat, official=official)

    def close(self) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._bot_task is not None:
            self._bot_task.cancel()


def reads_chat(viewer: Viewer) -> bool:
    """The players read their chat, and so does an arbiter observing."""
    return viewer.seat is not None or viewer.arbiter


def official(viewer: Viewer) -> dict[str, bool]:
    """What the viewer may do as an official of the game, for the board's buttons."""
    return {"closes_chat": viewer.arbiter, "warns": viewer.may_warn}


def _error(viewer: Viewer, seq: object, code: str, template: str, /, **params: object) -> dict[str, Any]:
    """An error message for ``viewer``: ``template`` (marked with ``N_``) in its language."""
    message = translate(viewer.language, template, params)
    return {"type": "error", "seq": seq if type(seq) is int else None, "code": code, "message": message}


__all__ = ["Book", "NewDice", "Refused", "Room", "SeatInfo", "Viewer"]
