"""Admin brute force, token hygiene, TLS, and the refusal to serve cleartext in public."""

from __future__ import annotations

import asyncio
import json
import os
import ssl
import stat
from pathlib import Path

import pytest
import trustme
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from paiju.cli.__main__ import main
from paiju.server.config import ServerConfig
from paiju.server.run import check_exposure, resolve_admin_token
from tests.security.conftest import ADMIN_TOKEN, running


async def admin_status(port: int, token: str, source: str = "127.0.0.1") -> int:
    headers = {"Authorization": f"Bearer {token}"}
    try:
        async with connect(f"ws://127.0.0.1:{port}/admin", additional_headers=headers,
                           local_addr=(source, 0)) as ws:
            await ws.send(json.dumps({"type": "admin", "command": "list"}))
            assert json.loads(await ws.recv())["ok"] is True
            return 101
    except InvalidStatus as exc:
        if exc.response.status_code == 429:
            assert int(exc.response.headers["Retry-After"]) >= 1
        return exc.response.status_code


async def test_admin_brute_force_backs_off_per_address() -> None:
    async with running(admin_backoff=0.6, admin_backoff_max=1.2) as server:
        assert await admin_status(server.port, "wrong-guess") == 401
        # Locked out now: every try is refused unchecked, the right token included.
        statuses = [await admin_status(server.port, f"guess-{i}") for i in range(5)]
        assert statuses == [429] * 5
        assert await admin_status(server.port, ADMIN_TOKEN) == 429
        # Another address is not locked out by this one.
        assert await admin_status(server.port, ADMIN_TOKEN, "127.0.0.2") == 101
        await asyncio.sleep(0.65)
        assert await admin_status(server.port, "wrong-again") == 401  # the second failure ...
        await asyncio.sleep(0.65)
        assert await admin_status(server.port, ADMIN_TOKEN) == 429  # ... locks for twice as long
        await asyncio.sleep(0.6)
        assert await admin_status(server.port, ADMIN_TOKEN) == 101  # and success clears it
        assert await admin_status(server.port, "wrong") == 401


def test_a_short_configured_admin_token_is_refused_at_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(ValueError, match="at least 32 characters"):
        ServerConfig(admin_token="short-token")
    assert main(["serve", "--memory", "--admin-token", "x" * 31]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "admin_token must have at least 32" in err


def test_the_token_file_is_0600_even_if_it_existed_readable(tmp_path: Path) -> None:
    path = tmp_path / "admin.token"
    path.write_text("old\n")
    os.chmod(path, 0o644)
    token = resolve_admin_token(ServerConfig(admin_token_file=str(path)))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().strip() == token and len(token) >= 32
    link = tmp_path / "link.token"
    link.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ValueError, match="cannot write the admin token file"):
        resolve_admin_token(ServerConfig(admin_token_file=str(link)))


def test_cleartext_on_a_public_address_needs_saying_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert check_exposure(ServerConfig(host="127.0.0.1")) is None
    assert check_exposure(ServerConfig(host="::1")) is None
    with pytest.raises(ValueError, match="refusing to serve cleartext"):
        check_exposure(ServerConfig(host="0.0.0.0"))
    warning = check_exposure(ServerConfig(host="0.0.0.0", public_cleartext=True))
    assert warning is not None and "TLS proxy" in warning
    assert check_exposure(ServerConfig(host="0.0.0.0", tls_cert_file="c", tls_key_file="k")) is None
    assert main(["serve", "--memory", "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "refusing to serve cleartext" in capsys.readouterr().err


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path, trustme.CA]:
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.private_key_and_cert_chain_pem.write_to_path(str(cert_file))
    cert.private_key_pem.write_to_path(str(key_file))
    return cert_file, key_file, ca


async def test_tls_serves_wss_and_https_and_checks_the_origin_by_scheme(
    certificate: tuple[Path, Path, trustme.CA],
) -> None:
    cert_file, key_file, ca = certificate
    client_tls = ssl.create_default_context()
    ca.configure_trust(client_tls)
    async with running(tls_cert_file=str(cert_file), tls_key_file=str(key_file)) as server:
        assert server.url.startswith("https://")
        wss = f"wss://127.0.0.1:{server.port}/"
        async with connect(wss, ssl=client_tls, origin=f"https://127.0.0.1:{server.port}") as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello", "protocol_version": 1}))
            assert json.loads(await ws.recv())["type"] == "welcome"
        with pytest.raises(InvalidStatus):  # the page's origin is https now, not http
            await connect(wss, ssl=client_tls, origin=f"http://127.0.0.1:{server.port}")  # type: ignore[arg-type]
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", server.port, ssl=client_tls, server_hostname="127.0.0.1"
        )
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert (await reader.readline()).startswith(b"HTTP/1.1 ")
        writer.close()
        # Cleartext on the TLS port gets nowhere.
        with pytest.raises(Exception):  # noqa: B017 - any failure of the handshake will do
            await asyncio.wait_for(connect(f"ws://127.0.0.1:{server.port}/"), 5.0)


def test_tls_files_that_do_not_load_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate")
    code = main(["serve", "--memory", "--set", f'tls_cert_file="{bad}"',
                 "--set", f'tls_key_file="{bad}"'])
    assert code == 2 and "cannot load the TLS certificate" in capsys.readouterr().err
