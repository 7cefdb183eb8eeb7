"""Passwords (argon2), session tokens, and a sliding-window rate limiter."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque

import anyio
import anyio.to_thread
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

DEFAULT_TIME_COST = 3
DEFAULT_MEMORY_KIB = 65_536
"""argon2id with 3 passes over 64 MiB and 4 lanes: RFC 9106's second recommended setting."""


class Passwords:
    """Hashes and checks passwords with argon2id at the site's cost (``TAVLA_PASSWORD_*``).

    Hashing takes tens of milliseconds of CPU by design: it runs in a worker thread, so
    that the games served by the same event loop do not wait for a login, and at most
    ``at_once`` hashes run together (each already works on 4 threads)."""

    def __init__(
        self, time_cost: int = DEFAULT_TIME_COST, memory_kib: int = DEFAULT_MEMORY_KIB, at_once: int = 1
    ) -> None:
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=4)
        self._at_once = anyio.CapacityLimiter(at_once)
        # Verifying against this hash when a name is unknown makes a failed login take as
        # long either way, so timing does not tell which names exist.
        self._dummy_hash = self._hasher.hash(secrets.token_hex(16))

    def hash_now(self, password: str) -> str:
        return self._hasher.hash(password)

    def matches_now(self, stored_hash: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored_hash: str) -> bool:
        """Whether ``stored_hash`` was made at another cost than the site's now."""
        try:
            return self._hasher.check_needs_rehash(stored_hash)
        except InvalidHashError:
            return True

    async def hash(self, password: str) -> str:
        return await anyio.to_thread.run_sync(self.hash_now, password, limiter=self._at_once)

    async def matches(self, stored_hash: str, password: str) -> bool:
        return await anyio.to_thread.run_sync(self.matches_now, stored_hash, password, limiter=self._at_once)

    async def waste_a_verification(self, password: str) -> None:
        await self.matches(self._dummy_hash, password)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_digest(key: bytes, token: str) -> str:
    """What the database keeps of a session token: its HMAC under the server's key."""
    return hmac.new(key, token.encode(), hashlib.sha256).hexdigest()


def same_secret(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class RateLimiter:
    """At most ``limit`` events per ``window_s`` seconds for each key."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._events: dict[str, deque[float]] = {}

    def retry_after(self, key: str, now: float | None = None) -> int:
        """Seconds until ``key`` may act again; 0 when it may act now (and counts it)."""
        now = time.monotonic() if now is None else now
        events = self._events.setdefault(key, deque())
        while events and events[0] <= now - self.window_s:
            events.popleft()
        if len(events) >= self.limit:
            return max(1, int(events[0] + self.window_s - now + 0.999))
        events.append(now)
        if len(self._events) > 100_000:  # forget idle keys rather than grow for ever
            self._events = {k: v for k, v in self._events.items() if v}
        return 0
