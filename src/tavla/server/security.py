"""Passwords (argon2), session tokens, and a sliding-window rate limiter."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(stored_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


# Verifying against this hash when a name is unknown makes a failed login take as long
# either way, so timing does not tell which names exist.
_DUMMY_HASH = _hasher.hash(secrets.token_hex(16))


def waste_a_verification(password: str) -> None:
    password_matches(_DUMMY_HASH, password)


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
