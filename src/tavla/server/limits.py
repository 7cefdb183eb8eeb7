"""Rate limits on what one address or one account may do, shared between processes.

Each limit allows ``limit`` events per ``window_s`` seconds for each key. In one process
the counts live in memory (security.RateLimiter, a sliding window). Where several
processes serve one site (``TAVLA_REDIS_URL`` set) they live in Redis, one counter per
key and window (INCR then EXPIRE), the window before weighted by what is left of it
(a sliding window's count, nearly), so that an attacker spreading his
attempts over the processes behind the balancer gets no more than one process would
give him. Should Redis fail, a process falls back to its own counts rather than let
everything through or refuse everybody.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from tavla.server.security import RateLimiter
from tavla.server.settings import Settings

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)


class Limit(Protocol):
    async def retry_after(self, key: str) -> int:
        """Seconds until ``key`` may act again; 0 when it may act now (and counts it)."""
        ...


class LocalLimit:
    def __init__(self, limit: int, window_s: float) -> None:
        self.counter = RateLimiter(limit, window_s)

    async def retry_after(self, key: str) -> int:
        return self.counter.retry_after(key)


class RedisLimit:
    def __init__(self, redis: Redis, name: str, limit: int, window_s: int) -> None:
        self.redis = redis
        self.name = name
        self.limit = limit
        self.window_s = max(1, int(window_s))
        self.fallback = LocalLimit(limit, self.window_s)
        self.failing = False

    async def retry_after(self, key: str) -> int:
        from redis.exceptions import RedisError

        now = time.time()
        window = int(now // self.window_s)
        counter = f"{self.name}:{key}:{window}"
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.incr(counter)
                pipe.expire(counter, 2 * self.window_s + 1)
                pipe.get(f"{self.name}:{key}:{window - 1}")
                count, _, before = await pipe.execute()
        except (RedisError, OSError) as error:
            if not self.failing:  # once per outage, not once per message
                log.warning("rate limit %s counted in this process only: %s", self.name, error)
            self.failing = True
            return await self.fallback.retry_after(key)
        self.failing = False
        # The window before weighs what is left of it: a burst across the boundary of two
        # windows counts as one, as in a sliding window.
        left = 1 - (now - window * self.window_s) / self.window_s
        if int(count) + int(before or 0) * left <= self.limit:
            return 0
        return max(1, int((window + 1) * self.window_s - now + 0.999))


class Limits:
    """Every limit of the site, each named after what it counts."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._redis: Redis | None = None
        if settings.redis_url:
            from redis.asyncio import Redis  # only a site of several processes needs redis

            self._redis = Redis.from_url(settings.redis_url, socket_timeout=2, socket_connect_timeout=2)
        login = settings.login_attempts_per_minute
        self.login_by_name = self._limit("login:name", login, 60)
        self.login_by_address = self._limit("login:address", login * 3, 60)
        self.connections_by_address = self._limit(
            "connect:address", settings.connections_per_minute_per_address, 60
        )
        self.connections_by_account = self._limit(
            "connect:account", settings.connections_per_minute_per_account, 60
        )
        self.changes = self._limit("changes", settings.changes_per_minute, 60)
        self.actions_by_account = self._limit("actions:account", settings.actions_per_second_per_account, 1)

    def _limit(self, name: str, limit: int, window_s: int) -> Limit:
        if self._redis is None:
            return LocalLimit(limit, window_s)
        return RedisLimit(self._redis, f"{self.settings.redis_prefix}limit:{name}", limit, window_s)

    @property
    def shared(self) -> bool:
        return self._redis is not None

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()


def client_address(peer: str | None, headers: Mapping[str, str], trusted: tuple[str, ...]) -> str:
    """The address a request comes from: the peer's, unless the peer is a proxy the
    settings trust (``TAVLA_TRUSTED_PROXIES``); then the last address in X-Forwarded-For
    that is not one of those proxies. A header sent by anybody else is ignored: it
    would let an attacker pick a fresh address for every attempt."""
    address = peer or "?"
    if address not in trusted:
        return address
    forwarded = [part.strip() for part in headers.get("x-forwarded-for", "").split(",") if part.strip()]
    for hop in reversed(forwarded):
        if hop in trusted:
            continue
        try:
            return str(ipaddress.ip_address(hop))
        except ValueError:
            return address  # a garbled header: count it against the proxy itself
    return address
