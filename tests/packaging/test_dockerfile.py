"""The Dockerfile, read (no Docker daemon runs here): two stages, an unprivileged user, the
data volume, the ports, the health check, ``paiju serve`` as the entry point, and settings from
the environment that the server accepts and that let it start in a container."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from paiju.cli.__main__ import build_parser
from paiju.server.config import load_config
from paiju.server.run import check_exposure

DOCKERFILE = Path(__file__).resolve().parents[2] / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    return [(line.split()[0].upper(), line.split(None, 1)[1]) for line in lines
            if line and not line.startswith("#")]


def arguments(value: str) -> list[str]:
    return [a.strip('"') for a in value.strip("[]").split(", ")]


def environment() -> dict[str, str]:
    found: dict[str, str] = {}
    for key, value in instructions():
        if key == "ENV":
            found.update(pair.split("=", 1) for pair in shlex.split(value))
    return found


def test_two_stages_a_user_a_volume_ports_and_the_entry_point() -> None:
    steps = instructions()
    stages = [value for key, value in steps if key == "FROM"]
    assert len(stages) == 2 and stages[0].endswith(" AS build")
    assert any(key == "COPY" and value.startswith("--from=build") for key, value in steps)
    users = [value for key, value in steps if key == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert ("VOLUME", '["/var/lib/paiju"]') in steps
    assert ("EXPOSE", "8765 9100") in steps
    assert ("ENTRYPOINT", '["paiju", "serve"]') in steps
    assert ("STOPSIGNAL", "SIGTERM") in steps


def test_the_health_check_is_a_paiju_command() -> None:
    (check,) = [value for key, value in instructions() if key == "HEALTHCHECK"]
    command = arguments(check.split(" CMD ", 1)[1])
    assert command[:2] == ["paiju", "health"]
    build_parser().parse_args(command[1:])  # a command the CLI knows


def test_the_environment_is_a_configuration_that_starts_in_a_container() -> None:
    env = environment()
    assert env["PAIJU_DATABASE"].startswith("/var/lib/paiju/")
    assert env["PAIJU_ADMIN_TOKEN_FILE"].startswith("/var/lib/paiju/")
    config = load_config(None, {}, env)
    assert (config.host, config.port, config.metrics_port) == ("0.0.0.0", 8765, 9100)
    warning = check_exposure(config)  # cleartext on 0.0.0.0: allowed, and said so
    assert warning is not None and "TLS proxy" in warning


@pytest.mark.parametrize("name", [".venv", "var", ".git"])
def test_the_build_context_leaves_out_local_state(name: str) -> None:
    ignored = (DOCKERFILE.parent / ".dockerignore").read_text().split()
    assert name in ignored
