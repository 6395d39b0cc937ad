"""Settings, read once at start-up from SKALD_* environment variables and CLI flags."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from skald_campaign.api.policy import DEFAULT_PER_ADDRESS, DEFAULT_PER_KEY, RATE

# Bounds on receiving a request (skald_campaign/http_protocol.py): the request line and headers
# as received, and the seconds from a request's first byte (or the connection) to its end.
MAX_HEAD_BYTES = 16 * 1024
REQUEST_TIMEOUT = 20.0


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SKALD_")

    data_dir: Path = Field(
        default=Path("./skald-data"),
        description="where the SQLite event store and the embedded Redis live",
    )
    database: str | None = Field(
        default=None,
        description="postgresql://user[:password]@host[:port]/dbname; unset: SQLite in data_dir",
    )
    redis_url: str | None = Field(
        default=None, description="redis://host:port/db; unset: an embedded Redis in data_dir"
    )
    redis_prefix: str = Field(
        default="skald",
        min_length=1,
        max_length=60,
        description="namespace of every Redis key, so deployments can share one Redis",
    )
    secret_key: SecretStr | None = Field(
        default=None,
        description="derives every campaign key; unset: generated once into data_dir/secret.key",
    )
    workers: bool = Field(
        default=True,
        description="run the healing and projection workers inside `skald serve`",
    )
    webhooks_worker: bool = Field(
        default=True,
        description="deliver webhooks inside `skald serve` (false: `skald worker webhooks` does)",
    )
    webhooks_allow_private: bool = Field(
        default=False,
        description="let webhooks reach loopback, link-local and private addresses",
    )
    webhooks_failure_limit: int = Field(
        default=10, ge=1, description="failed attempts in a row before a webhook is disabled"
    )
    webhooks_timeout: float = Field(default=10.0, gt=0, description="seconds per attempt")
    webhooks_backoff_initial: float = Field(
        default=1.0, gt=0, description="seconds before a webhook's first retry (then doubling)"
    )
    webhooks_backoff_max: float = Field(
        default=300.0, gt=0, description="the longest wait between a webhook's retries"
    )
    host: str = Field(
        default="127.0.0.1", description="the interface to listen on; with lan: every one"
    )
    port: int = Field(default=8000, ge=0, le=65535)
    lan: bool = Field(
        default=False,
        description="a table on the home network: listen on every interface, advertise "
        "this machine's address in every link and QR code, create campaigns from this "
        "machine only (unless operator_key is set)",
    )
    advertise: str | None = Field(
        default=None,
        description="the address phones reach the server at (an IP address or a host name, "
        "or the https:// URL of a proxy in front); unset with lan: the address of the "
        "interface with the default route",
    )
    dice_seed: int | None = Field(
        default=None, description="seed the server's dice (for demos and tests only)"
    )
    snapshot_interval: int = Field(default=100, ge=1)
    operator_key: SecretStr | None = Field(
        default=None,
        description="the bearer key POST /campaigns needs; unset: creation is open on the "
        "embedded default (SQLite) and turned off on PostgreSQL",
    )
    max_header_bytes: int = Field(
        default=MAX_HEAD_BYTES,
        ge=1024,
        description="the most bytes a request's line and headers may take (431 beyond)",
    )
    request_timeout: float = Field(
        default=REQUEST_TIMEOUT,
        gt=0,
        description="seconds to receive a request's line, headers and body (408 beyond)",
    )
    rate_limit_per_key: str = Field(
        default=DEFAULT_PER_KEY, pattern=RATE, description="requests per bearer key, e.g. 20/second"
    )
    rate_limit_per_address: str = Field(
        default=DEFAULT_PER_ADDRESS, pattern=RATE, description="requests per client address"
    )

    @field_validator("advertise")
    @classmethod
    def _an_address_or_a_base_url(cls, advertise: str | None) -> str | None:
        if advertise is None:
            return None
        if "://" in advertise:
            parts = urlsplit(advertise)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(f"{advertise!r} is not an http:// or https:// URL with a host")
            if parts.path.strip("/") or parts.query or parts.fragment:
                raise ValueError(f"{advertise!r} must be a server's address, without a path")
            return advertise
        try:
            return str(ipaddress.ip_address(advertise.strip("[]")))
        except ValueError:
            pass
        if not HOST_NAME.fullmatch(advertise):
            raise ValueError(f"{advertise!r} is neither an IP address nor a host name")
        return advertise

    @property
    def listen_host(self) -> str:
        """The interface `skald serve` listens on: every one (IPv4) for a table on the
        network, unless a host was given as well."""
        if self.lan and "host" not in self.model_fields_set:
            return "0.0.0.0"
        return self.host

    @property
    def served_to_the_network(self) -> bool:
        """Phones reach this server (directly, or through a proxy in front)."""
        return self.lan or self.advertise is not None


# RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens.
HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?"
)
