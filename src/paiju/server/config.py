"""The server's one typed configuration: defaults, a TOML file, ``PAIJU_*`` environment
variables and command-line flags, each later source overriding the earlier ones.

``ServerConfig`` is a pydantic-settings model: every setting has a type and its limits, an
unknown key or a bad value is refused with a sentence naming the key, where it came from and
what it may be. ``load_config`` reads the layers; ``describe`` lists the effective settings
with their sources (``paiju config show``), secrets masked.
"""

from __future__ import annotations

import difflib
import ipaddress
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

from annotated_types import Ge, Gt, Le
from pydantic import Field, StrictBool, StrictInt, StrictStr, ValidationError, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

#: The shortest admin token a configuration may set (a generated one has 32 characters).
MIN_ADMIN_TOKEN = 32
#: The environment's prefix; ``PAIJU_CONFIG`` names the file, every other variable a setting.
ENV_PREFIX = "PAIJU_"
CONFIG_VARIABLE = "PAIJU_CONFIG"
#: Settings whose value is never printed.
SECRETS = frozenset({"admin_token"})

Port = Annotated[StrictInt, Field(ge=0, le=65535)]
Count = Annotated[StrictInt, Field(ge=0)]
Positive = Annotated[StrictInt, Field(gt=0)]
Seconds = Annotated[float, Field(ge=0, strict=True)]
PositiveRate = Annotated[float, Field(gt=0, strict=True)]


class ServerConfig(BaseSettings):
    """Every setting of a running server (configs/server.toml documents each)."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, extra="forbid", frozen=True, validate_default=True
    )

    host: StrictStr = "127.0.0.1"
    port: Port = 8765
    database: StrictStr = "var/paiju.sqlite3"
    admin_token: StrictStr = ""
    admin_token_file: StrictStr = "var/admin.token"
    rooms_dir: StrictStr = ""
    max_frame_bytes: Positive = 65536
    rate_per_second: PositiveRate = 20.0
    rate_burst: Positive = 40
    flood_strikes: Positive = 20
    max_rooms: Count = 1000
    max_connections: Positive = 10000
    outbound_queue: Positive = 256
    bot_delay: Seconds = 0.6
    between_hands: Seconds = 4.0
    # Trustee (托管), restarts and hand histories (docs/operations.md, docs/fairness.md).
    trustee_after: Count = 2
    trustee_delay: Seconds = 1.0
    restore_grace: Seconds = 15.0
    snapshot_every: Count = 2
    # Per variant, over ``snapshot_every``: MCR and shengji rooms snapshot half as often (a
    # snapshot is a fifth of a shengji action's CPU; their actions replay cheaply). Dragon
    # keeps 2: its replay re-checks legality, and its hand has at most 4 actions, so with 4
    # no snapshot is taken during a hand (docs/operations.md).
    snapshot_every_by_variant: dict[StrictStr, Count] = Field(
        default_factory=lambda: {"mcr": 4, "shengji": 4}
    )
    chain_check_delay: Seconds = 5.0
    history_key_file: StrictStr = ""
    timers: dict[StrictStr, Seconds] = Field(default_factory=lambda: {"turn": 30.0, "claim": 10.0})
    player_rooms: StrictBool = True
    show_programs: StrictBool = True
    web_root: StrictStr = ""
    # Hostile clients (docs/security.md lists each limit with its close code or error).
    hello_timeout: Seconds = 5.0
    max_connections_per_address: Count = 32
    trusted_proxies: list[StrictStr] = Field(default_factory=list)
    allowed_origins: list[StrictStr] = Field(default_factory=list)
    rate_bytes_per_second: Count = 32768
    rate_bytes_burst: Count = 131072
    max_spectators_per_room: Count = 100
    max_spectators: Count = 2000
    outbound_queue_bytes: Positive = 1048576
    send_timeout: Seconds = 10.0
    socket_send_buffer: Count = 65536
    # permessage-deflate: "message" (each message alone: no zlib state kept per connection),
    # "context" (the window kept between messages: fewer bytes, ~40 KiB more per
    # connection) or "off".
    compression: Literal["message", "context", "off"] = "message"
    # The event loop (server/loops.py): uvloop where installed ("auto"), or asyncio's own.
    event_loop: Literal["auto", "uvloop", "asyncio"] = "auto"
    finished_room_grace: Seconds = 600.0
    admin_backoff: Seconds = 1.0
    admin_backoff_max: Seconds = 300.0
    log_lines_per_second: Seconds = 20.0
    tls_cert_file: StrictStr = ""
    tls_key_file: StrictStr = ""
    public_cleartext: StrictBool = False
    # Operating the service (docs/operations.md).
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    log_format: Literal["json", "console"] = "json"
    metrics_port: Port = 0
    metrics_host: StrictStr = "127.0.0.1"
    drain_timeout: Seconds = 120.0
    abandoned_room_grace: Seconds = 300.0
    spectator_delay: Seconds = 0.0
    spectator_delay_actions: Count = 0
    # Cluster mode (docs/cluster.md): a redis:// URL keeps the records in Redis and shares the
    # rooms between the nodes that name it; empty: the SQLite ``database`` of one node.
    store: StrictStr = ""
    node_id: StrictStr = ""
    public_url: StrictStr = ""
    lease_ttl: PositiveRate = 5.0
    redis_retry: Seconds = 5.0

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Built directly, a config takes only its keyword arguments (tests stay hermetic);
        ``load_config`` adds the file and the environment, in its documented order."""
        return (init_settings,)

    @model_validator(mode="after")
    def _consistent(self) -> ServerConfig:
        check_limits(self)
        return self

    def with_overrides(self, overrides: Mapping[str, Any]) -> ServerConfig:
        """A copy with the given settings replaced (``None`` values are ignored).

        Raises ``ConfigError`` naming an unknown setting or a bad value."""
        given = {k: v for k, v in overrides.items() if v is not None}
        return build({**self.model_dump(), **given}, dict.fromkeys(given, "flag"))


class ConfigError(ValueError):
    """A setting that stops the start; the message is one sentence naming it."""


def check_limits(config: ServerConfig) -> None:
    """Refuse settings that contradict each other or leave a door open, with one sentence.

    Raises ``ValueError``: a configured admin token shorter than ``MIN_ADMIN_TOKEN``, a byte
    burst too small for one frame, a trusted proxy or allowed origin that does not parse,
    half a TLS setting."""
    if config.admin_token and len(config.admin_token) < MIN_ADMIN_TOKEN:
        raise ValueError(
            f"setting admin_token must have at least {MIN_ADMIN_TOKEN} characters "
            f"(it has {len(config.admin_token)}); leave it empty to get a random one"
        )
    if config.rate_bytes_per_second and config.rate_bytes_burst < config.max_frame_bytes:
        raise ValueError("setting rate_bytes_burst must be at least max_frame_bytes")
    if config.store and not config.store.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(
            "setting store is empty (SQLite) or a Redis URL such as redis://127.0.0.1:6379/0"
        )
    if bool(config.tls_cert_file) != bool(config.tls_key_file):
        raise ValueError("settings tls_cert_file and tls_key_file go together: set both or none")
    for entry in config.trusted_proxies:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(
                f"setting trusted_proxies: {entry!r} is not an address or network"
            ) from None
    for origin in config.allowed_origins:
        if origin != "*" and "://" not in origin:
            raise ValueError(
                f"setting allowed_origins: {origin!r} is not an origin like https://example.com"
            )


# ---------------------------------------------------------------- the layers


def parse_value(raw: str) -> Any:
    """A value as written on the command line or in the environment: TOML (``9000``,
    ``true``, ``["10.0.0.0/8"]``, ``{turn = 20.0}``, ``"::1"``), else the plain string."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def parse_setting(text: str) -> tuple[str, Any]:
    """``key=value`` from ``--set``; the value is read by ``parse_value``."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"expected key=value, got {text!r}")
    return key.strip(), parse_value(raw)


class _Environment(EnvSettingsSource):
    """``PAIJU_<SETTING>`` variables, each value read like a ``--set`` value."""

    def prepare_field_value(
        self, field_name: str, field: FieldInfo, value: Any, value_is_complex: bool
    ) -> Any:
        return parse_value(value) if isinstance(value, str) else value


def read_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The settings the environment sets. Raises ``ConfigError`` for a ``PAIJU_`` variable
    that names no setting but looks like a misspelt one (``PAIJU_PROT``); other ``PAIJU_``
    variables belong to other tools (the browser tests' ``PAIJU_CHROMIUM``) and are left
    alone."""
    fields = ServerConfig.model_fields
    for name in environ:
        if name.upper().startswith(ENV_PREFIX) and name.upper() != CONFIG_VARIABLE:
            key = name[len(ENV_PREFIX):].lower()
            if key not in fields and difflib.get_close_matches(key, fields, n=1):
                raise ConfigError(unknown_message(key, f"the environment variable {name}"))
    source = _Environment(ServerConfig)
    source.env_vars = {k.lower(): v for k, v in environ.items()}
    return {k: v for k, v in source().items() if k in fields}


def read_file(path: str | Path) -> dict[str, Any]:
    """The ``[server]`` and ``[timers]`` tables of a TOML file. Raises ``ConfigError`` naming
    the file when it cannot be read or holds a table or key that is no setting."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    stray = sorted(set(data) - {"server", "timers"})
    if stray:
        raise ConfigError(f"{path}: unknown table or key {stray[0]!r} (tables: server, timers)")
    settings = dict(data.get("server", {}))
    if "timers" in data:
        settings["timers"] = data["timers"]
    for key in settings:
        if key not in ServerConfig.model_fields:
            raise ConfigError(unknown_message(key, str(path)))
    return settings


def load_config(
    path: str | Path | None = None,
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> ServerConfig:
    """Defaults, then the file at ``path``, then ``PAIJU_*`` variables of ``environ`` (default:
    this process's), then ``flags``; see ``describe`` for where each value came from.

    Raises ``ConfigError`` (one sentence) for anything that must stop the start."""
    config, _ = load_with_sources(path, flags, environ)
    return config


def load_with_sources(
    path: str | Path | None = None,
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[ServerConfig, dict[str, str]]:
    """``load_config``, with the source of each setting that is not a default."""
    layers = [
        (str(path), read_file(path) if path is not None else {}),
        ("environment", read_environment(os.environ if environ is None else environ)),
        ("flag", {k: v for k, v in (flags or {}).items() if v is not None}),
    ]
    merged: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for source, values in layers:
        for key, value in values.items():
            if key not in ServerConfig.model_fields:
                raise ConfigError(unknown_message(key, _source_name(key, source)))
            merged[key], sources[key] = value, source
    return build(merged, sources), sources


def build(values: dict[str, Any], sources: Mapping[str, str]) -> ServerConfig:
    """A ``ServerConfig`` of ``values``; a refusal becomes a ``ConfigError`` naming the setting,
    its source (``sources``) and what it may be."""
    try:
        return ServerConfig(**values)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, values, sources)) from None


def _explain(exc: ValidationError, values: Mapping[str, Any], sources: Mapping[str, str]) -> str:
    first = exc.errors()[0]
    loc = first["loc"]
    if not loc:  # check_limits: its sentence names the settings itself
        return str(first["msg"]).removeprefix("Value error, ")
    key = str(loc[0])
    if key not in ServerConfig.model_fields:
        return unknown_message(key, _source_name(key, sources.get(key, "flag")))
    source = sources.get(key)
    where = f" (from {_source_name(key, source)})" if source else ""
    return f"setting {key}{where} must be {allowed(key)}, not {values.get(key)!r}"


def _source_name(key: str, source: str) -> str:
    if source == "environment":
        return f"{ENV_PREFIX}{key.upper()}"
    if source == "flag":
        return "the command line"
    if source == "file":
        return "the config file"
    return source


def unknown_message(key: str, where: str) -> str:
    """The refusal of a key that names no setting, with the nearest ones."""
    near = difflib.get_close_matches(key, ServerConfig.model_fields, n=3)
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    return (
        f"unknown setting {key!r} in {where}{hint} (`paiju config show` lists every setting)"
    )


def allowed(key: str) -> str:
    """What setting ``key`` may be, in words: ``an integer from 0 to 65535``."""
    info = ServerConfig.model_fields[key]
    annotation = info.annotation
    if get_origin(annotation) is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(annotation))
    if get_origin(annotation) is dict:
        return "a table of decision kind = seconds (each at least 0), e.g. {turn = 20.0}"
    if get_origin(annotation) is list:
        return "a list of strings"
    kind = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}
    words = kind.get(annotation if isinstance(annotation, type) else str, "a value")
    bounds = {type(m): m for m in info.metadata}
    low = bounds.get(Ge) or bounds.get(Gt)
    high = bounds.get(Le)
    if isinstance(low, Ge) and isinstance(high, Le):
        return f"{words} from {low.ge} to {high.le}"
    if isinstance(low, Ge):
        return f"{words} of at least {low.ge}"
    if isinstance(low, Gt):
        return f"{words} above {low.gt}"
    return words


def describe(config: ServerConfig, sources: Mapping[str, str]) -> list[tuple[str, Any, str]]:
    """Every setting as ``(key, value, source)``: secrets masked, ``default`` for the rest."""
    rows = []
    for key in ServerConfig.model_fields:
        value = getattr(config, key)
        if key in SECRETS and value:
            value = "********"
        source = sources.get(key, "default")
        rows.append((key, value, _source_name(key, source) if source != "default" else source))
    return rows
