"""The room's command-line edges: a bad broker URL, a bad table name or a missing half of the pair
is one clear line and exit status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.network.address import BrokerAddress, BrokerAddressError

ROOT = Path(__file__).resolve().parents[2]


def _sheshbesh(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["hub", "--broker", "ftp://127.0.0.1"], "must be mqtt:// or mqtts://"),
        (["hub", "--broker", "mqtt://127.0.0.1:99999"], "not usable"),
        (["hub", "--broker", "mqtt://127.0.0.1/?color=red"], "unknown option(s) color"),
        (["hub", "--broker", "mqtt://127.0.0.1", "--room", "a/b"], "room name 'a/b'"),
        (["demo", "--no-panel", "--broker", "mqtt://127.0.0.1:1"], "--broker needs --table"),
        (["demo", "--no-panel", "--table", "t1"], "--table needs --broker"),
        (
            ["demo", "--no-panel", "--broker", "mqtt://127.0.0.1:1", "--table", "t 1"],
            "table name 't 1'",
        ),
    ],
)
def test_bad_room_arguments_are_one_clear_line(args: list[str], words: str, tmp_path: Path) -> None:
    done = _sheshbesh(*args, "--db", str(tmp_path / "db.sqlite"), cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("127.0.0.1", ("127.0.0.1", 1883, False, None, None)),
        ("mqtts://h:9", ("h", 9, True, None, None)),
        ("mqtt://t%201:p%40ss@h", ("h", 1883, False, "t 1", "p@ss")),
    ],
)
def test_broker_urls(url: str, expected: tuple[object, ...]) -> None:
    address = BrokerAddress.from_url(url)
    assert (address.host, address.port, address.tls, address.username, address.password) == expected
    assert "p@ss" not in str(address)


def test_a_ca_file_needs_tls() -> None:
    with pytest.raises(BrokerAddressError, match="needs mqtts"):
        BrokerAddress.from_url("mqtt://h/?ca=/x.pem")


def test_the_hubs_sigterm_is_not_swallowed_by_the_web_server_handling_a_connection() -> None:
    # SIGTERM's handler raises in whatever the main thread is doing; often that is waitress
    # reading a connection, where any other exception only closes that connection
    from waitress import wasyncore

    from controller.commands.hub import _on_term, _Stop

    class Connection:
        def handle_read_event(self) -> None:
            _on_term(15, None)

        def handle_error(self) -> None:
            raise AssertionError("the stop was taken for the connection's own error")

    with pytest.raises(_Stop):
        wasyncore.read(Connection())
