"""deploy/install.sh sets a table up for a room: the [network] section, the room's CA and the
table's broker password, checked before anything changes; and the table so set up joins a real
mosquitto over TLS with the room's deploy/ configuration."""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import stat
import subprocess
import time
from pathlib import Path

import pytest

from controller.network.address import BrokerAddress
from controller.table.config import load_config
from tests.deploy.test_deploy_install import ROOT, files_under, install

CA_TEXT = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"


@pytest.fixture
def room_files(tmp_path: Path) -> tuple[Path, Path]:
    """A stand-in CA certificate and a table's secret file, as the room's scripts write them."""
    ca = tmp_path / "room-ca.pem"
    ca.write_text(CA_TEXT)
    secret = tmp_path / "t7.secret"
    secret.write_text("0123456789abcdef0123456789abcdef\n")
    return ca, secret


def _join(root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return install("--prefix", str(root), "--no-venv", *extra)


def test_a_table_is_set_up_for_a_room(tmp_path: Path, room_files: tuple[Path, Path]) -> None:
    ca, secret = room_files
    root = tmp_path / "root"
    result = _join(
        root,
        "--room-broker", "mqtts://broker.local:8883",
        "--table", "t7", "--room", "cafe",
        "--room-ca", str(ca), "--room-secret", str(secret),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "room: table t7 on mqtts://broker.local:8883" in result.stdout
    etc = root / "etc/sheshbesh"
    assert (etc / "room-ca.pem").read_text() == CA_TEXT
    assert stat.S_IMODE((etc / "room-ca.pem").stat().st_mode) == 0o644
    assert (etc / "room-password").read_bytes() == secret.read_bytes()
    assert stat.S_IMODE((etc / "room-password").stat().st_mode) == 0o640
    network = load_config(etc / "sheshbesh.toml").network
    assert network.broker == "mqtts://broker.local:8883/?ca=/etc/sheshbesh/room-ca.pem"
    assert (network.table, network.room) == ("t7", "cafe")
    assert (network.username, network.password_file) == ("", "/etc/sheshbesh/room-password")
    address = BrokerAddress.from_url(network.broker)
    assert (address.host, address.port, address.tls) == ("broker.local", 8883, True)
    assert address.ca_file == "/etc/sheshbesh/room-ca.pem"
    # Only the [network] keys changed: every other line of the example is still there as it is.
    example = (ROOT / "deploy/sheshbesh.toml").read_text().splitlines()
    written = (etc / "sheshbesh.toml").read_text().splitlines()
    changed = [line for line in example if line not in written]
    # (username was empty already: the table's name is its broker user)
    keys = ["broker", "table", "room", "password_file"]
    assert [line.split("=")[0].strip() for line in changed] == keys
    assert all("#" in line for line in written if line.startswith(("broker ", "table ")))


def test_a_kept_config_gets_the_room_and_keeps_its_edits(
    tmp_path: Path, room_files: tuple[Path, Path]
) -> None:
    root = tmp_path / "root"
    assert _join(root).returncode == 0
    config = root / "etc/sheshbesh/sheshbesh.toml"
    edited = config.read_text().replace('kind = "fake"', 'kind = "serial"', 1)
    config.write_text(edited)
    config.chmod(0o600)
    result = _join(root, "--room-broker", "mqtt://10.0.0.2", "--table", "board-3")
    assert result.returncode == 0, result.stderr
    assert f"keeping {config}" in result.stdout
    text = config.read_text()
    assert 'kind = "serial"' in text
    assert stat.S_IMODE(config.stat().st_mode) == 0o600  # edited in place
    network = load_config(config).network
    assert (network.broker, network.table, network.room) == ("mqtt://10.0.0.2", "board-3", "room")
    assert network.password_file == ""
    # Moving the table to another room later changes only the room's keys again.
    again = _join(root, "--room-broker", "mqtt://10.0.0.9:1884", "--table", "board-4")
    assert again.returncode == 0, again.stderr
    network = load_config(config).network
    assert (network.broker, network.table) == ("mqtt://10.0.0.9:1884", "board-4")
    assert (
        config.read_text().replace("10.0.0.9:1884", "10.0.0.2").replace("board-4", "board-3")
        == text
    )


def test_a_config_without_a_network_section_gets_one(tmp_path: Path) -> None:
    root = tmp_path / "root"
    config = root / "etc/sheshbesh/sheshbesh.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[lights]\nkind = "none"\n')
    assert _join(root, "--room-broker", "mqtt://hub.local", "--table", "t1").returncode == 0
    assert config.read_text() == (
        '[lights]\nkind = "none"\n\n[network]\nbroker = "mqtt://hub.local"\ntable = "t1"\n'
    )
    assert load_config(config).network.table == "t1"


def test_a_dry_run_says_what_it_would_set_and_writes_nothing(
    tmp_path: Path, room_files: tuple[Path, Path]
) -> None:
    ca, secret = room_files
    root = tmp_path / "root"
    result = install(
        "--prefix", str(root), "--dry-run",
        "--room-broker", "mqtts://broker.local", "--table", "t7",
        "--room-ca", str(ca), "--room-secret", str(secret),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert not root.exists() or files_under(root) == []
    assert f"install -m 0644 {ca} {root}/etc/sheshbesh/room-ca.pem" in result.stdout
    assert f"install -m 0640 {secret} {root}/etc/sheshbesh/room-password" in result.stdout
    assert (
        "would set in [network] of "
        f"{root}/etc/sheshbesh/sheshbesh.toml: broker=mqtts://broker.local/?ca="
        "/etc/sheshbesh/room-ca.pem table=t7 password_file=/etc/sheshbesh/room-password username="
    ) in result.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--table", "t1"], "joining a room needs --room-broker URL"),
        (["--room-broker", "mqtt://hub"], "joining a room needs --table NAME"),
        (["--room-broker", "http://hub", "--table", "t1"], "must be mqtt://HOST[:PORT]"),
        (["--room-broker", "mqtt://u:p@hub", "--table", "t1"], "no user, password or options"),
        (["--room-broker", "mqtts://hub/?ca=x", "--table", "t1"], "no user, password or options"),
        (["--room-broker", "mqtt://hub", "--table", "bad name"], "--table 'bad name' must be"),
        (["--room-broker", "mqtt://hub", "--table", "-t"], "--table '-t' must be"),
        (["--room-broker", "mqtt://hub", "--table", "t" * 65], "must be 1-64"),
        (["--room-broker", "mqtt://hub", "--table", "t1", "--room", "a/b"], "--room 'a/b'"),
        (["--room-broker", "mqtt://hub", "--table", "t1", "--room-ca", "CA"], "needs an mqtts://"),
        (["--room-broker", "mqtts://hub", "--table", "t1", "--room-ca", "/nonexistent"],
         "is not a readable file"),
        (["--room-broker", "mqtts://hub", "--table", "t1", "--room-ca", "NOTPEM"],
         "holds no PEM certificate"),
        (["--room-broker", "mqtt://hub", "--table", "t1", "--room-secret", "EMPTY"],
         "has no password on its first line"),
        (["--room-broker"], "--room-broker needs a value"),
    ],
)  # fmt: skip
def test_bad_room_settings_are_refused_by_name_and_change_nothing(
    tmp_path: Path, room_files: tuple[Path, Path], arguments: list[str], message: str
) -> None:
    ca, _ = room_files
    (tmp_path / "not-pem").write_text("hello\n")
    (tmp_path / "empty").write_text("\n")
    names = {"CA": str(ca), "NOTPEM": str(tmp_path / "not-pem"), "EMPTY": str(tmp_path / "empty")}
    root = tmp_path / "root"
    result = _join(root, *(names.get(argument, argument) for argument in arguments))
    assert result.returncode != 0
    assert message in result.stderr
    assert not root.exists() or files_under(root) == []


@pytest.mark.skipif(
    not (shutil.which("mosquitto") or Path("/usr/sbin/mosquitto").exists())
    or not shutil.which("openssl")
    or not shutil.which("mosquitto_passwd"),
    reason="needs mosquitto, mosquitto_passwd and openssl (apt-get install mosquitto openssl)",
)
def test_the_table_so_set_up_joins_a_tls_room(tmp_path: Path) -> None:
    """The room's CA and the table's user made by deploy/mosquitto's scripts; the broker reads
    deploy/mosquitto/acl; the table's [network] written by install.sh is what ``run`` uses."""
    from controller.network.options import open_link
    from tests.network.roomkit import Broker, wait_for

    deploy = ROOT / "deploy" / "mosquitto"
    secrets = tmp_path / "room"
    secrets.mkdir()
    subprocess.run(
        ["sh", str(deploy / "make-ca.sh"), str(secrets), "localhost", "127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        ["sh", str(deploy / "add-user.sh"), str(secrets / "passwords"), "t7",
         str(secrets / "t7.secret")],
        check=True, capture_output=True,
    )  # fmt: skip
    extra = "\n".join(
        [
            "allow_anonymous false",
            f"password_file {secrets / 'passwords'}",
            f"acl_file {deploy / 'acl'}",
            f"cafile {secrets / 'ca.crt'}",
            f"certfile {secrets / 'server.crt'}",
            f"keyfile {secrets / 'server.key'}",
        ]
    )
    root = tmp_path / "root"
    with Broker(tmp_path / "broker", extra=extra) as broker:
        result = _join(
            root,
            "--room-broker", f"mqtts://localhost:{broker.port}", "--table", "t7",
            "--room-ca", str(secrets / "ca.crt"), "--room-secret", str(secrets / "t7.secret"),
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        network = load_config(root / "etc/sheshbesh/sheshbesh.toml").network
        # The Pi's /etc/sheshbesh is the staging root's here.
        network = dataclasses.replace(
            network,
            broker=network.broker.replace("=/etc/", f"={root}/etc/"),
            password_file=f"{root}{network.password_file}",
        )
        args = argparse.Namespace(broker=None, table=None)
        link = open_link(args, tmp_path / "table.sqlite", command="run", network=network)
        try:
            wait_for(lambda: link.is_connected, 20, "the table to join the room over TLS")
        finally:
            link.close()
        # A wrong secret would not have got in: the same settings with another password fail.
        (tmp_path / "wrong").write_text("not-the-password\n")
        wrong = dataclasses.replace(network, password_file=str(tmp_path / "wrong"))
        link = open_link(args, tmp_path / "table2.sqlite", command="run", network=wrong)
        try:
            time.sleep(2.0)
            assert not link.is_connected
        finally:
            link.close()
