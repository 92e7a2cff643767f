"""One typed configuration: defaults < file < PAIJU_* variables < flags; an unknown key or a
bad value is refused naming the key, its source and what it may be; presets ship inside the
package and an operator's folder adds or replaces them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paiju.server.config import ConfigError, ServerConfig, describe, load_with_sources
from paiju.server.presets import load_presets

#: Every setting there was before the configuration became typed, with its default.
SETTINGS_OF_BEFORE = {
    "host": "127.0.0.1", "port": 8765, "database": "var/paiju.sqlite3", "admin_token": "",
    "admin_token_file": "var/admin.token", "max_frame_bytes": 65536, "rate_per_second": 20.0,
    "rate_burst": 40, "flood_strikes": 20, "max_rooms": 1000, "max_connections": 10000,
    "outbound_queue": 256, "bot_delay": 0.6, "between_hands": 4.0,
    "timers": {"turn": 30.0, "claim": 10.0}, "player_rooms": True, "web_root": "",
    "hello_timeout": 5.0, "max_connections_per_address": 32, "trusted_proxies": [],
    "allowed_origins": [], "rate_bytes_per_second": 32768, "rate_bytes_burst": 131072,
    "max_spectators_per_room": 100, "max_spectators": 2000, "outbound_queue_bytes": 1048576,
    "send_timeout": 10.0, "socket_send_buffer": 65536, "finished_room_grace": 600.0,
    "admin_backoff": 1.0, "admin_backoff_max": 300.0, "log_lines_per_second": 20.0,
    "tls_cert_file": "", "tls_key_file": "", "public_cleartext": False,
}


def test_every_setting_of_before_keeps_its_default() -> None:
    config = ServerConfig()
    assert {k: getattr(config, k) for k in SETTINGS_OF_BEFORE} == SETTINGS_OF_BEFORE
    assert config.rooms_dir == ""  # the presets now ship in the package


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_the_file_the_environment_and_the_flags_each_win_in_turn(tmp_path: Path) -> None:
    file = write(tmp_path / "s.toml", "[server]\nport = 1111\nrate_burst = 50\n"
                                      "[timers]\nturn = 12.5\n")
    env = {"PAIJU_PORT": "2222", "PAIJU_TRUSTED_PROXIES": '["10.0.0.0/8"]',
           "PAIJU_HOST": "0.0.0.0", "OTHER": "x"}
    config, sources = load_with_sources(file, {}, env)
    assert (config.port, config.rate_burst, config.timers) == (2222, 50, {"turn": 12.5})
    assert config.trusted_proxies == ["10.0.0.0/8"] and config.host == "0.0.0.0"
    assert sources["port"] == sources["host"] == "environment"
    assert sources["rate_burst"] == str(file)
    config, sources = load_with_sources(file, {"port": 3333}, env)
    assert config.port == 3333 and sources["port"] == "flag"
    rows = {key: (value, source) for key, value, source in describe(config, sources)}
    assert rows["port"] == (3333, "the command line")
    assert rows["host"] == ("0.0.0.0", "PAIJU_HOST")
    assert rows["rate_burst"] == (50, str(file)) and rows["bot_delay"] == (0.6, "default")


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ({"flags": {"rate_brust": 3}}, "unknown setting 'rate_brust' in the command line; "
                                       "did you mean rate_burst"),
        ({"environ": {"PAIJU_PROT": "1"}}, "unknown setting 'prot' in the environment "
                                           "variable PAIJU_PROT; did you mean port"),
        ({"file": "[server]\nhots = 'x'\n"}, "unknown setting 'hots' in "),
        ({"file": "[sever]\nport = 1\n"}, "unknown table or key 'sever' (tables: server, timers)"),
        ({"file": "[server\n"}, "cannot read"),
    ],
)
def test_an_unknown_key_is_named_with_where_it_came_from(
    tmp_path: Path, where: dict[str, Any], words: str
) -> None:
    file = write(tmp_path / "s.toml", where["file"]) if "file" in where else None
    with pytest.raises(ConfigError) as refused:
        load_with_sources(file, where.get("flags", {}), where.get("environ", {}))
    assert words in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("port", "eighty", "setting port (from PAIJU_PORT) must be an integer from 0 to 65535, "
                           "not 'eighty'"),
        ("port", "70000", "an integer from 0 to 65535, not 70000"),
        ("log_level", "loud", "one of 'debug', 'info', 'warning', 'error', not 'loud'"),
        ("log_format", "xml", "one of 'json', 'console'"),
        ("public_cleartext", "1", "must be true or false, not 1"),
        ("rate_burst", "true", "must be an integer above 0, not True"),
        ("rate_per_second", "0", "a number above 0, not 0"),
        ("max_rooms", "-1", "an integer of at least 0, not -1"),
        ("bot_delay", '"soon"', "a number of at least 0, not 'soon'"),
        ("timers", "{turn = -1}", "a table of decision kind = seconds"),
        ("trusted_proxies", "10.0.0.1", "a list of strings"),
        ("metrics_port", "-5", "an integer from 0 to 65535"),
        ("admin_token", "short", "admin_token must have at least 32 characters"),
        ("trusted_proxies", '["nonsense"]', "'nonsense' is not an address or network"),
    ],
)
def test_a_bad_value_names_the_key_its_source_and_what_it_may_be(
    key: str, value: str, words: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        load_with_sources(None, {}, {f"PAIJU_{key.upper()}": value})
    assert words in str(refused.value)


def test_other_tools_variables_are_no_settings_and_left_alone() -> None:
    env = {"PAIJU_CHROMIUM": "/usr/bin/chromium", "PAIJU_SCREENSHOTS": "1", "PAIJU_PORT": "9"}
    config, sources = load_with_sources(None, {}, env)
    assert config.port == 9 and set(sources) == {"port"}


def test_variable_names_are_read_in_any_case_and_values_as_toml() -> None:
    env = {"paiju_port": "9001", "PAIJU_Timers": "{turn = 20.0}", "PAIJU_HOST": "::1",
           "PAIJU_CONFIG": "elsewhere.toml"}
    config, sources = load_with_sources(None, {}, env)
    assert (config.port, config.timers, config.host) == (9001, {"turn": 20.0}, "::1")
    assert set(sources) == {"port", "timers", "host"}


def test_the_admin_token_is_masked_where_the_configuration_is_shown() -> None:
    token = "t" * 40
    config, sources = load_with_sources(None, {"admin_token": token}, {})
    rows = {key: value for key, value, _ in describe(config, sources)}
    assert rows["admin_token"] == "********" and token not in repr(rows)


# ---------------------------------------------------------------- presets


def test_the_package_ships_a_preset_per_variant_with_timers_and_choices() -> None:
    presets = load_presets()
    assert set(presets) == {"diu", "dragon", "mcr", "shengji"}
    for name, preset in presets.items():
        assert preset.variant == name and preset.title and preset.timers and preset.choices
        assert preset.origin == "package"


def test_an_operator_folder_adds_presets_and_replaces_the_packaged_ones(tmp_path: Path) -> None:
    write(tmp_path / "dragon.toml", 'title = "Club dragon"\n[timers]\nturn = 99.0\n')
    write(tmp_path / "blitz.toml", 'variant = "mcr"\ntitle = "MCR blitz"\n'
                                   "spectator_delay = 20.0\n[timers]\nturn = 5.0\nclaim = 3.0\n")
    presets = load_presets(tmp_path)
    assert set(presets) == {"blitz", "diu", "dragon", "mcr", "shengji"}
    assert presets["dragon"].title == "Club dragon" and presets["dragon"].timers == {"turn": 99.0}
    assert presets["dragon"].origin == str(tmp_path)
    assert presets["blitz"].variant == "mcr" and presets["blitz"].spectator_delay == 20.0
    assert presets["mcr"].origin == "package"


def test_a_preset_file_with_an_unknown_key_is_refused_by_name(tmp_path: Path) -> None:
    write(tmp_path / "odd.toml", 'variant = "mcr"\ntimer = 3\n')
    with pytest.raises(ValueError, match=r"odd.toml: timer: Extra inputs are not permitted"):
        load_presets(tmp_path)
    with pytest.raises(ValueError, match="is not a folder"):
        load_presets(tmp_path / "missing")
