"""The server's one settings object, read from arguments and ``TAVLA_*`` variables."""

from __future__ import annotations

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from tavla.server.security import DEFAULT_MEMORY_KIB, DEFAULT_TIME_COST

DEVELOPMENT_KEY = "tavla-development-key-not-secret"
"""Signs sessions outside production only; production refuses to start without its own."""


PRODUCTION_PASSWORD_WORK = 19_456 * 2
"""The least memory (KiB) × passes of argon2id a production site may hash passwords with:
OWASP's minimum, 19 MiB and 2 passes."""


class SettingsError(ValueError):
    """Settings the server refuses to start with."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TAVLA_", extra="ignore")

    database_url: str = "sqlite:///tavla.db"
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    production: bool = False
    secret_key: str | None = None
    # Extra origins allowed to open websockets (the server's own is always allowed).
    allowed_origins: tuple[str, ...] = ()
    session_days: int = Field(default=30, ge=1, le=365)
    login_attempts_per_minute: int = Field(default=10, ge=1)
    bot_delay_ms: int = Field(default=400, ge=0, le=10_000)
    """How long a bot waits before it acts, so a person can follow its play."""
    bot_movetime_ms: int = Field(default=2000, ge=10)
    bot_processes: int | None = Field(default=None, ge=0, le=256)
    """Worker processes the bots think in (docs/deploy.md): unset, one per core, at most
    4; 0, one thread of the server's own process, where a bot's search slows the games
    beside it."""
    messages_per_second: int = Field(default=50, ge=1)
    """What one websocket may send; more is refused with ``rate_limited``."""
    actions_per_second_per_account: int = Field(default=30, ge=1)
    """Game messages one account may send over all its websockets together (a spectator
    without an account counts by address); more is refused with ``rate_limited``."""
    changes_per_minute: int = Field(default=120, ge=1)
    """HTTP requests that change something (POST, PUT, DELETE) one account may send a
    minute, or one address without a session (registering, guests, logging in); more
    are refused with 429 ``rate_limited``."""
    connections_per_minute_per_address: int = Field(default=120, ge=1)
    """Websocket connections one address may open a minute; more are closed with 4429."""
    connections_per_minute_per_account: int = Field(default=60, ge=1)
    """Websocket connections one account may open a minute; more are closed with 4429."""
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    """Addresses of the proxies (nginx) whose X-Forwarded-For header tells the client's
    address, e.g. ``TAVLA_TRUSTED_PROXIES='["10.0.0.5"]'``; ``'[]'`` trusts none. From any
    other peer the header is ignored and the peer's own address is the one counted."""
    redis_url: str | None = None
    """Unset: live events stay in this process. Set (``redis://host:6379/0``): they travel
    through Redis pub/sub, so that several processes can serve one site."""
    redis_prefix: str = Field(default="tavla:", min_length=1)
    """Starts every Redis channel name, so that several sites can share one Redis."""
    lease_ms: int = Field(default=5000, ge=300, le=120_000)
    """How long a process owns a live game without renewing it (a third of it between
    renewals): when a process dies, another takes its games over within about this."""
    password_time_cost: int = Field(default=DEFAULT_TIME_COST, ge=1, le=100)
    """argon2id's passes over its memory when a password is hashed."""
    password_memory_kib: int = Field(default=DEFAULT_MEMORY_KIB, ge=32, le=4_194_304)
    """argon2id's memory per hash, in KiB (64 MiB by default). A password hashed at another
    cost is hashed again at this one when its owner next signs in."""
    password_hashes_at_once: int = Field(default=1, ge=1, le=64)
    """Passwords hashed or checked at the same time, each on 4 threads and its memory;
    more wait their turn. One keeps a burst of sign-ins from starving the games of CPU
    (``benchmarks/server_load.py --signing-up``)."""

    rollout_trials: int | None = Field(default=None, ge=1, le=10_000)
    """Trials of each marked turn when a visitor has a game's analysis rolled out; unset,
    the game's default (36, or 144 plain trials in chelebi and gulbara: server/rollouts.py)."""
    rollout_truncate: int | None = Field(default=None, ge=0, le=1_000)
    """Turns after which each trial stops and the network judges; unset, 10; 0, the end."""

    @model_validator(mode="after")
    def _production_needs_a_key(self) -> Settings:
        if self.production:
            if not self.secret_key:
                raise SettingsError(
                    "production mode needs a secret key: set TAVLA_SECRET_KEY (32 random bytes or more)"
                )
            if self.secret_key == DEVELOPMENT_KEY or len(self.secret_key) < 32:
                raise SettingsError(
                    "TAVLA_SECRET_KEY must be at least 32 characters and not the development key"
                )
            if self.password_memory_kib * self.password_time_cost < PRODUCTION_PASSWORD_WORK:
                raise SettingsError(
                    "passwords hashed this cheaply are easy to guess: in production, "
                    "TAVLA_PASSWORD_MEMORY_KIB × TAVLA_PASSWORD_TIME_COST must be at least "
                    f"{PRODUCTION_PASSWORD_WORK} (19 MiB and 2 passes)"
                )
        return self

    @property
    def signing_key(self) -> bytes:
        return (self.secret_key or DEVELOPMENT_KEY).encode()
