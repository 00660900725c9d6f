"""A room with the deploy/ configuration: TLS with the room's own CA, a password per client, the ACL.

The certificates and users are made with ``deploy/mosquitto/make-ca.sh`` and ``add-user.sh``, and
the broker reads ``deploy/mosquitto/acl`` as it is, so these tests check what a café installs. A
table publishing under another table's name is refused by the broker (the hub never sees it), a
wrong password and an untrusted certificate never connect.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.network.address import BrokerAddress, make_client
from controller.network.hub import Hub
from controller.network.link import TableLink
from controller.network.mirror import Mirror
from controller.network.topics import Ack, Topics, WireEvent, presence_message
from tests.network.roomkit import MOSQUITTO, Broker, SimulatedTable, free_port, wait_for
from tests.shared_data import MATCHES_DIR

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "mosquitto"

pytestmark = pytest.mark.skipif(
    MOSQUITTO is None or not shutil.which("openssl") or not shutil.which("mosquitto_passwd"),
    reason="needs mosquitto, mosquitto_passwd and openssl (apt-get install mosquitto openssl)",
)


@pytest.fixture(scope="module")
def room_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("room-secrets")
    subprocess.run(
        ["sh", str(DEPLOY / "make-ca.sh"), str(folder), "localhost", "127.0.0.1"],
        check=True,
        capture_output=True,
    )
    for name in ("hub", "t1", "t2"):
        subprocess.run(
            [
                "sh", str(DEPLOY / "add-user.sh"),
                str(folder / "passwords"), name, str(folder / f"{name}.secret"),
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
    return folder


@pytest.fixture
def broker(room_files: Path, tmp_path: Path) -> Iterator[Broker]:
    extra = "\n".join(
        [
            "allow_anonymous false",
            f"password_file {room_files / 'passwords'}",
            f"acl_file {DEPLOY / 'acl'}",
            f"cafile {room_files / 'ca.crt'}",
            f"certfile {room_files / 'server.crt'}",
            f"keyfile {room_files / 'server.key'}",
        ]
    )
    with Broker(tmp_path / "broker", extra=extra) as running:
        yield running


def _address(
    broker: Broker, room_files: Path, user: str, password: str | None = None
) -> BrokerAddress:
    url = f"mqtts://127.0.0.1:{broker.port}/?ca={room_files / 'ca.crt'}"
    secret = (room_files / f"{user}.secret").read_text().strip()
    return BrokerAddress.from_url(url).with_credentials(user, password or secret)


def test_tables_reach_the_hub_over_tls_with_their_own_passwords(
    broker: Broker, room_files: Path, tmp_path: Path
) -> None:
    text = sorted(MATCHES_DIR.glob("*.mat"))[0].read_text()
    with Hub(_address(broker, room_files, "hub"), Mirror(str(tmp_path / "hub.sqlite"))) as hub:
        table = SimulatedTable(tmp_path, "t1", text, "mqtt://unused:1")
        table.link = TableLink(table.path, _address(broker, room_files, "t1"), "t1")
        table.runner.panels = [table.link]
        table.start().feed()
        assert table.link.wait_until_acknowledged(30), table.link.last_error
        summary = hub.tables()[0]
        assert summary["events"] == table.record.last_sequence()
        assert summary["score"] == table.expected_score()
        table.close()


def test_a_table_cannot_publish_under_another_tables_name(
    broker: Broker, room_files: Path, tmp_path: Path
) -> None:
    text = sorted(MATCHES_DIR.glob("*.mat"))[0].read_text()
    topics = Topics()
    with Hub(_address(broker, room_files, "hub"), Mirror(str(tmp_path / "hub.sqlite"))) as hub:
        table = SimulatedTable(tmp_path, "t1", text, "mqtt://unused:1")
        table.link = TableLink(table.path, _address(broker, room_files, "t1"), "t1")
        table.runner.panels = [table.link]
        table.start().feed(50)
        assert table.link.wait_until_acknowledged(30), table.link.last_error
        record = table.link.record
        assert record is not None
        commands: list[dict[str, object]] = []
        table.link.on_command = commands.append
        last = table.record.last_sequence()
        # t2 logs in with its own (valid) password and pretends to be t1: the next event of t1's
        # record (a match won), t1 going offline, and an acknowledgement asking t1 to re-send.
        impostor = make_client(_address(broker, room_files, "t2"), "impostor")
        impostor.connect("127.0.0.1", broker.port)
        impostor.loop_start()
        forged = WireEvent(record, last + 1, last, "t1-match", "match_won", 0.0, {"winner": 1})
        for topic, payload in (
            (topics.table("t1", "events"), forged.to_json()),
            (topics.table("t1", "presence"), presence_message(False, record)),
            (topics.ack("t1"), Ack(record, 0, True).to_json()),
            (topics.command("t1"), json.dumps({"action": "new_match"})),
            # ...and, last, something under its own name, which the broker lets through.
            (topics.table("t2", "presence"), presence_message(True, "t2-record")),
        ):
            impostor.publish(topic, payload, qos=1).wait_for_publish(10)
        wait_for(lambda: "t2" in hub.mirror.names(), 20, "t2's own presence at the hub")
        impostor.disconnect()
        impostor.loop_stop()
        summary = hub.mirror.summary("t1")
        assert summary is not None
        assert summary["online"] is True
        assert summary["events"] == last
        assert summary["winner"] is None
        assert [e.sequence for e in hub.mirror.events("t1")] == list(range(1, last + 1))
        assert commands == []  # only the hub may command a table
        # t1 plays on and finishes: its own record reaches the hub exactly.
        table.feed()
        assert table.link.wait_until_acknowledged(30)
        assert len(hub.mirror.events("t1")) == table.record.last_sequence()
        assert hub.mirror.summary("t1")["score"] == table.expected_score()  # type: ignore[index]
        table.close()


def test_a_wrong_password_or_an_unknown_authority_never_connects(
    broker: Broker, room_files: Path, tmp_path: Path
) -> None:
    (tmp_path / "record.sqlite").touch()
    wrong = TableLink(
        tmp_path / "record.sqlite", _address(broker, room_files, "t1", "not-the-password"), "t1"
    ).start()
    plain = TableLink(
        tmp_path / "record.sqlite",
        BrokerAddress("127.0.0.1", broker.port, False, "t1", "x"),
        "t1",
    ).start()
    other_ca = tmp_path / "other-ca"
    subprocess.run(
        ["sh", str(DEPLOY / "make-ca.sh"), str(other_ca), "localhost", "127.0.0.1"],
        check=True,
        capture_output=True,
    )
    stranger = TableLink(
        tmp_path / "record.sqlite",
        BrokerAddress.from_url(f"mqtts://127.0.0.1:{broker.port}/?ca={other_ca / 'ca.crt'}"),
        "t1",
    ).start()
    wait_for(lambda: "refused" in wrong.last_error, 20, "the broker's refusal")
    for link in (wrong, plain, stranger):
        assert not link.is_connected
        link.close()


def test_the_deployed_broker_config_serves_the_room(room_files: Path, tmp_path: Path) -> None:
    """deploy/mosquitto/sheshbesh-room.conf itself, its paths and port moved into the test."""
    port = free_port()
    (tmp_path / "state").mkdir()
    text = (DEPLOY / "sheshbesh-room.conf").read_text()
    text = text.replace("/etc/mosquitto/sheshbesh/acl", str(DEPLOY / "acl"))
    text = text.replace("/etc/mosquitto/sheshbesh/", f"{room_files}/")
    text = text.replace("/var/lib/mosquitto/", f"{tmp_path / 'state'}/")
    text = text.replace("listener 8883", f"listener {port} 127.0.0.1")
    if os.geteuid() == 0:
        text = "user root\n" + text
    config = tmp_path / "room.conf"
    config.write_text(text)
    with (tmp_path / "mosquitto.log").open("wb") as log:
        process = subprocess.Popen([str(MOSQUITTO), "-c", str(config)], stdout=log, stderr=log)
    try:
        broker = Broker(tmp_path / "unused", port=port)
        (tmp_path / "record.sqlite").touch()
        link = TableLink(
            tmp_path / "record.sqlite", _address(broker, room_files, "t2"), "t2"
        ).start()
        wait_for(lambda: link.is_connected, 20, "a TLS connection with t2's password")
        link.close()
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.skipif(not shutil.which("shellcheck"), reason="shellcheck is not installed")
@pytest.mark.parametrize("script", ["make-ca.sh", "add-user.sh"])
def test_room_scripts_pass_shellcheck(script: str) -> None:
    done = subprocess.run(
        ["shellcheck", "--severity=style", str(DEPLOY / script)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout
