"""Many tables on a real mosquitto: every event reaches the hub once, in order, whatever breaks.

Four simulated tables (the real referee, record and link; a perfect eye instead of the camera) play
the four recorded matches at full speed, each in its own thread, while the broker is killed and
started again, the hub is stopped and started again over its mirror file, and one table is cut off
for a while (its link closed, its referee still recording) and then back. At the end the hub's
mirror holds exactly each table's record, and the hub's results are the matches' results.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from controller.network.hub import Hub
from controller.network.link import TableLink
from controller.network.mirror import Mirror
from tests.network.roomkit import MOSQUITTO, Broker, SimulatedTable, wait_for
from tests.shared_data import MATCHES_DIR

pytestmark = pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed")


def _record_rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as connection:
        return connection.execute(
            "SELECT sequence, match_id, type, data FROM events ORDER BY sequence"
        ).fetchall()


def _mirror_rows(path: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as connection:
        return connection.execute(
            "SELECT sequence, match_id, type, data FROM events WHERE table_name = ? "
            "ORDER BY sequence",
            (table,),
        ).fetchall()


def _play_in_steps(table: SimulatedTable, steps: int, pause: threading.Event) -> None:
    chunk = max(1, len(table.inputs) // steps)
    while not table.finished:
        pause.wait()
        table.feed(chunk)


def test_every_event_reaches_the_hub_once_in_order_through_cuts(tmp_path: Path) -> None:
    with Broker(tmp_path / "broker") as broker:
        mirror_path = tmp_path / "hub.sqlite"
        hub = Hub(broker.url, Mirror(str(mirror_path))).start()
        files = sorted(MATCHES_DIR.glob("*.mat"))
        assert len(files) >= 4
        tables = [
            SimulatedTable(tmp_path, f"table-{index}", path.read_text(), broker.url).start()
            for index, path in enumerate(files)
        ]
        go = threading.Event()
        go.set()
        players = [
            threading.Thread(target=_play_in_steps, args=(table, 12, go)) for table in tables
        ]
        for thread in players:
            thread.start()
        # Mid-match (the tables paused after their current step, so that the cuts below fall
        # inside every match): the broker dies (SIGKILL) and comes back.
        wait_for(lambda: all(t.fed > len(t.inputs) // 4 for t in tables), 60, "a quarter played")
        go.clear()
        broker.restart()
        # One table is cut off (its Pi's link gone) while its referee keeps recording: the one
        # with the longest match, which is still far from its end.
        cut = max(tables, key=lambda table: len(table.inputs))
        cut.link.close()
        recorded_when_cut = cut.record.last_sequence()
        # The hub stops and starts again over its own mirror file.
        hub.close()
        hub.mirror.close()
        go.set()  # the referees never wait for any of this
        wait_for(lambda: all(t.fed > len(t.inputs) // 2 for t in tables), 60, "half played")
        hub = Hub(broker.url, Mirror(str(mirror_path))).start()
        for thread in players:
            thread.join(120)
        assert all(table.finished for table in tables)
        # The cut-off table comes back: a new link over the same record.
        cut.link = TableLink(cut.path, broker.url, cut.name).start()
        for table in tables:
            assert table.link.wait_until_acknowledged(60), f"{table.name} not acknowledged"
        wait_for(lambda: all(s["online"] for s in hub.tables()), 20, "every table online")

        summaries = {summary["name"]: summary for summary in hub.tables()}
        for table in tables:
            own = _record_rows(table.path)
            mirrored = _mirror_rows(mirror_path, table.name)
            assert mirrored == own, f"{table.name}: the mirror differs from the record"
            summary = summaries[table.name]
            assert summary["events"] == len(own)
            assert summary["score"] == table.expected_score()
            assert summary["players"] == [table.match.players[0], table.match.players[1]]
            assert summary["length"] == table.match.length
            assert summary["finished"] is True
        # What the cut-off table recorded meanwhile came through its new link.
        assert cut.record.last_sequence() > recorded_when_cut
        assert cut.link.published_events >= cut.record.last_sequence() - recorded_when_cut
        for table in tables:
            table.close()
        hub.close()


def test_hub_started_after_the_tables_gets_everything(tmp_path: Path) -> None:
    with Broker(tmp_path / "broker") as broker:
        text = sorted(MATCHES_DIR.glob("*.mat"))[0].read_text()
        table = SimulatedTable(tmp_path, "late", text, broker.url).start()
        table.feed()
        wait_for(lambda: table.link.is_connected, 20, "the table connected")
        assert table.link.acknowledged == 0  # nobody acknowledged: no hub yet
        mirror = Mirror(str(tmp_path / "hub.sqlite"))
        with Hub(broker.url, mirror) as hub:
            assert table.link.wait_until_acknowledged(30)
            assert hub.tables()[0]["events"] == table.record.last_sequence()
            assert hub.tables()[0]["score"] == table.expected_score()
        table.close()


def test_a_new_record_under_the_same_name_is_kept_apart(tmp_path: Path) -> None:
    with Broker(tmp_path / "broker") as broker:
        text = sorted(MATCHES_DIR.glob("*.mat"))[0].read_text()
        with Hub(broker.url, Mirror(str(tmp_path / "hub.sqlite"))) as hub:
            first = SimulatedTable(tmp_path / "a", "t1", text, broker.url)
            first.start().feed()
            assert first.link.wait_until_acknowledged(30)
            first.close()
            # A new record: its first match has another id (real ones carry the time).
            second = SimulatedTable(
                tmp_path / "b", "t1", text, broker.url, match_id="t1-second"
            ).start()
            second.feed(10)
            assert second.link.wait_until_acknowledged(30)
            summary = hub.tables()[0]
            assert summary["record"] == second.link.record != first.link.record
            assert summary["events"] == second.record.last_sequence()
            assert len(hub.mirror.matches()) == 2
            second.close()


@pytest.fixture(autouse=True)
def _folders(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()


def test_a_broker_with_persistence_restarted_mid_match(tmp_path: Path) -> None:
    """The deployed broker keeps retained state across a restart (persistence true): the tables
    and the hub pick up where they were, and still nothing is lost or doubled."""
    state = tmp_path / "broker-state"
    state.mkdir()
    extra = f"persistence true\npersistence_location {state}/\n"
    with Broker(tmp_path / "broker", extra=extra) as broker:
        text = sorted(MATCHES_DIR.glob("*.mat"))[3].read_text()
        with Hub(broker.url, Mirror(str(tmp_path / "hub.sqlite"))) as hub:
            table = SimulatedTable(tmp_path, "kept", text, broker.url).start()
            table.feed(len(table.inputs) // 3)
            assert table.link.wait_until_acknowledged(30)
            broker.restart(graceful=True)
            assert any(state.iterdir()), "mosquitto saved nothing"
            table.feed()
            assert table.link.wait_until_acknowledged(60)
            assert _mirror_rows(tmp_path / "hub.sqlite", "kept") == _record_rows(table.path)
            assert hub.tables()[0]["score"] == table.expected_score()
            assert table.link.connections >= 2 and hub.connections >= 2
            table.close()
