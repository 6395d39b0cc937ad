"""The composition root: build the application and clients once, tear them down once."""

from __future__ import annotations

import fcntl
import os
import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import redis

from skald_campaign.api.keys import KeyMaker
from skald_campaign.api.policy import ApiPolicy
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.webhooks import WebhookPolicy
from skald_campaign.database import open_application
from skald_campaign.domain.records import JSON
from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.projections.reader import ViewReader
from skald_campaign.projections.webhook_state import DeliveryState
from skald_campaign.settings import Settings
from skald_campaign.store import SettingsError, persistence_env, store_kind
from skald_campaign.workers.background import Background
from skald_campaign.workers.healing import HealingWorker
from skald_campaign.workers.projections import ProjectionRunner, Supervisor
from skald_campaign.workers.subscriptions import BATCH_LIMIT, NotifyingSQLiteRecorder

if TYPE_CHECKING:
    from skald_campaign.workers.webhooks import WebhookWorker

MIN_SECRET = 16  # bytes; KeyMaker refuses a shorter one
SQLITE_RECORDER = f"{NotifyingSQLiteRecorder.__module__}:{NotifyingSQLiteRecorder.__qualname__}"


@dataclass
class Services:
    """Everything a route or worker needs, built at start-up from the settings."""

    application: SkaldApplication
    redis: redis.Redis
    store: str
    redis_mode: str
    keys: KeyMaker
    redis_prefix: str = "skald"
    background: Background = field(default_factory=Background)
    redis_url: str = ""
    policy: ApiPolicy = field(default_factory=ApiPolicy)
    webhooks: WebhookPolicy = field(default_factory=WebhookPolicy)
    webhooks_in_process: bool = True  # deliver webhooks on a thread when workers start
    # Where phones reach this server (skald serve --lan / --advertise), set once it
    # listens (its port may be picked then); None: the pages use their own address.
    public_url: str | None = None
    embedded: EmbeddedRedis | None = None  # the data directory's own Redis, if it is used

    def __post_init__(self) -> None:
        self.deliveries = DeliveryState(self.redis, self.redis_prefix)
        self.views = ViewReader(
            self.redis,
            self.redis_prefix,
            self.store_position,
            self.application.name,
            self.redis_url,
            self.application.known_position.fresh,
        )

    def store_position(self) -> int:
        return self.application.store_position()

    def healing_worker(self) -> HealingWorker:
        return HealingWorker(self.application, self.redis, prefix=self.redis_prefix)

    def projection_supervisor(self, batch_limit: int = BATCH_LIMIT) -> Supervisor:
        return Supervisor(
            "projection runner",
            lambda: ProjectionRunner(self.application, self.redis, self.redis_prefix, batch_limit),
        )

    def webhook_worker(self) -> WebhookWorker:
        # Imported by the processes that deliver webhooks alone: its HTTP client and
        # retry library (httpx, tenacity, standardwebhooks; ~0.05 s) are of no use to
        # the other commands, a rebuild above all (bench/README.md "rebuild19 lane").
        from skald_campaign.workers.webhooks import WebhookWorker

        return WebhookWorker(self.application, self.views, self.deliveries, self.webhooks)

    def start_workers(self) -> None:
        """The embedded default runs every worker on a thread of the server's process."""
        self.background.start("healing", self.healing_worker().run)
        self.background.start("projections", self.projection_supervisor().run)
        if self.webhooks_in_process:
            self.background.start("webhooks", self.webhook_worker().run)

    def health(self) -> dict[str, JSON]:
        store: dict[str, JSON] = {"kind": self.store}
        try:
            store["events"] = self.application.recorder.max_notification_id() or 0
            store["ok"] = True
        except Exception as error:
            store.update(ok=False, error=str(error))
        cache: dict[str, JSON] = {"mode": self.redis_mode}
        try:
            cache["ok"] = bool(self.redis.ping())
        except Exception as error:
            cache.update(ok=False, error=str(error))
        views: dict[str, JSON] = {"ok": True, "halted": []}
        if cache["ok"]:
            try:
                views["halted"] = self.views.halted()
            except redis.RedisError as error:
                views.update(ok=False, error=str(error))
            views["ok"] = views["ok"] and not views["halted"]
        ok = store["ok"] and cache["ok"] and views["ok"]
        return {
            "status": "ok" if ok else "degraded",
            "event_store": store,
            "redis": cache,
            "views": views,
        }


def server_secret(settings: Settings) -> bytes:
    """The secret keys are derived from: the setting, else one generated into the data dir.

    Scale-out replicas share no data dir, so with a database configured the
    setting is required; every replica must derive the same keys.
    """
    secret = configured_secret(settings)
    if secret is not None:
        return secret
    path = settings.data_dir / "secret.key"
    if not path.exists():
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_urlsafe(48))
    return path.read_text().strip().encode()


def configured_secret(settings: Settings) -> bytes | None:
    """The secret setting, refused if it cannot work; None where the data dir's
    generated one is used. Commands that only read check it too, writing nothing."""
    if settings.secret_key is not None:
        secret = settings.secret_key.get_secret_value().encode()
        if len(secret) < MIN_SECRET:
            raise SettingsError(
                f"SKALD_SECRET_KEY is {len(secret)} bytes long; it must be at least {MIN_SECRET} "
                "(e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(48))')"
            )
        return secret
    if settings.database is not None:
        raise SettingsError(
            f"SKALD_SECRET_KEY is required with SKALD_DATABASE: at least {MIN_SECRET} bytes, "
            "the same for every replica and worker "
            "(e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(48))')"
        )
    return None


@contextmanager
def build_services(
    settings: Settings, *, workers: bool = False, replacing_views: bool = False
) -> Iterator[Services]:
    """``replacing_views``: for a full rebuild, which replaces every view of the prefix:
    the embedded Redis starts without them (EmbeddedRedis, ``without_views``), and they
    are saved only once the rebuild calls ``services.embedded.keep_views()``."""
    # Settings and the store first: a refusal there must come before Redis is started.
    env = persistence_env(settings)
    keys = KeyMaker(server_secret(settings))
    if settings.database is None:
        # SQLite has no LISTEN/NOTIFY: this recorder wakes the projection runner itself.
        env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER
    env["AGGREGATE_CACHE_MAXSIZE"] = "1000"
    application = open_application(settings, env)
    # Each thing started is undone on every path, last in, first out: at the end, or as
    # soon as a later step of the start-up fails (ExitStack runs every step even when one
    # before it raises). Nothing else would stop the embedded Redis, in its own session.
    with ExitStack() as closing:
        embedded = None
        try:
            if settings.redis_url is None:
                lock = claim_data_dir(settings)
                closing.callback(os.close, lock)
                embedded = EmbeddedRedis(
                    settings.data_dir,
                    views_prefix=settings.redis_prefix,
                    without_views=replacing_views,
                )
                closing.callback(embedded.stop)
                client = redis.Redis(unix_socket_path=embedded.socket_path)
                mode, redis_url = "embedded", embedded.url
            else:
                client = redis.Redis.from_url(settings.redis_url)
                mode, redis_url = "external", settings.redis_url
            closing.callback(client.close)
        except BaseException:
            application.close()
            raise
        closing.callback(application.close)
        application.start_group_commit()  # one writer per process: see application/group_commit.py
        services = Services(
            application,
            client,
            store_kind(settings),
            mode,
            keys,
            redis_prefix=settings.redis_prefix,
            redis_url=redis_url,
            policy=api_policy(settings),
            webhooks=WebhookPolicy(
                allow_private=settings.webhooks_allow_private,
                failure_limit=settings.webhooks_failure_limit,
                timeout=settings.webhooks_timeout,
                backoff_initial=settings.webhooks_backoff_initial,
                backoff_max=settings.webhooks_backoff_max,
            ),
            webhooks_in_process=settings.webhooks_worker,
            embedded=embedded,
        )
        closing.callback(services.background.stop)
        if workers:
            services.start_workers()
        yield services


def api_policy(settings: Settings) -> ApiPolicy:
    operator_key = settings.operator_key
    return ApiPolicy(
        operator_key=operator_key.get_secret_value() if operator_key is not None else None,
        creation_open=settings.database is None,  # the embedded default; PostgreSQL is gated
        creation_from_this_machine=settings.served_to_the_network,
        per_key=settings.rate_limit_per_key,
        per_address=settings.rate_limit_per_address,
    )


def claim_data_dir(settings: Settings) -> int:
    """One process at a time may run the embedded Redis of a data directory: a second
    one (say `skald projections rebuild` beside a running `skald serve`) would start
    its own Redis on the same files and the two would overwrite each other."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(settings.data_dir / "embedded-redis.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise SettingsError(
            f"another skald process is using the embedded Redis of {settings.data_dir}; "
            "stop it first, or point both at one Redis with --redis-url"
        ) from None
    return descriptor
