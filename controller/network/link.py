"""The table's side of the room: publish the record, never hold up the referee.

:class:`TableLink` is a panel sink (``publish(state)``) that the runner calls after each effect;
that call only stores the snapshot and wakes the link's own thread. The thread reads new events
from the record file with its own SQLite connection (the record is the truth: what was not
committed is never published) and publishes them in order, at most ``window`` ahead of what the hub
has acknowledged. After any cut (the Wi-Fi, the broker, the hub, this process) nothing is lost:
the link starts over from the sequence number the hub says it holds.

>>> link = TableLink("/nonexistent/record.sqlite", "mqtt://127.0.0.1:1", "t1")
>>> link.table, link.is_connected
('t1', False)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from controller.network.address import BrokerAddress, NetworkError, check_name, make_client
from controller.network.topics import (
    Ack,
    MessageError,
    Topics,
    WireEvent,
    presence_message,
)

log = logging.getLogger("sheshbesh")

_ROWS = "SELECT sequence, match_id, time, type, data FROM events"


def record_id(first_row: tuple[Any, ...]) -> str:
    """The record's identity: a digest of its first event, the same every time it is read.

    A table that starts a new record under the same name (a new SD card, a demo's temporary
    record) gets a new identity, so the hub never mixes its sequence numbers with the old ones.
    """
    text = "|".join(str(part) for part in first_row)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class TableLink:
    """Publishes one table's record, state and presence to the room's broker; see the module.

    ``on_command`` receives each director's command (a JSON object) from the hub, in the
    link's network thread. Raises :class:`NetworkError` for a bad name or broker URL.
    """

    def __init__(
        self,
        record_path: str | os.PathLike[str],
        broker: str | BrokerAddress,
        table: str,
        *,
        room: str = "room",
        window: int = 256,
        poll_seconds: float = 0.5,
        on_command: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.record_path = os.fspath(record_path)
        if self.record_path == ":memory:":
            raise NetworkError("a table publishes from its record file; ':memory:' has none")
        self.address = (
            broker if isinstance(broker, BrokerAddress) else BrokerAddress.from_url(broker)
        )
        self.table = check_name(table, "table")
        self.topics = Topics(room)
        self.window = max(1, window)
        self.poll_seconds = poll_seconds
        self.on_command = on_command
        #: told ``(status, queued)`` whenever either changes: ``"ok"`` (connected to the broker)
        #: or ``"lost"``, and how many recorded events the hub does not hold yet (the panel
        #: shows both); called from the link's threads, one call at a time
        self.on_health: Callable[[str, int], None] | None = None
        self._health_lock = threading.Lock()
        self._health_said: tuple[str, int] | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._subscribed = threading.Event()  # the hub's topics, on the current connection
        self._closing = False
        self._connected = False
        self._announced: str | None = None  # the record id announced on this connection
        self._record: str | None = None
        self._origin_known = False  # the hub said where to start, on this connection
        self._sent = 0  # last sequence published on this connection
        self._generation = 0  # counts the times publishing started over
        self._acked = 0  # last sequence the hub holds
        self._state: dict[str, Any] | None = None
        self._state_dirty = False
        self._last_recorded = 0
        self.published_events = 0
        self.connections = 0
        self.last_error = ""
        self._client: Any = None
        self._thread: threading.Thread | None = None

    # -- the panel-sink side (called from the referee's thread: never blocks) ---------------------

    def publish(self, state: Any) -> int:
        """Keep ``state`` as the snapshot to publish and wake the link; returns at once."""
        with self._lock:
            self._state = dict(state)
            self._state_dirty = True
        self._wake.set()
        return 0

    def notify(self) -> None:
        """Something was recorded: look at the record now rather than at the next poll."""
        self._wake.set()

    # -- status --------------------------------------------------------------------------------

    @property
    def is_connected(self) -> bool:
        with self._lock:
            return self._connected

    @property
    def acknowledged(self) -> int:
        """The last sequence number the hub holds from this record."""
        with self._lock:
            return self._acked

    @property
    def record(self) -> str | None:
        """This record's identity (None while the record is empty)."""
        with self._lock:
            return self._record

    def status(self) -> str:
        """A short word for the panel's status line: ``ok``, ``lost`` or ``none``."""
        return "ok" if self.is_connected else "lost"

    def _report_health(self) -> None:
        """Tell :attr:`on_health` the status and the queue when either has changed."""
        report = self.on_health
        if report is None:
            return
        with self._health_lock:
            with self._lock:
                health = (
                    "ok" if self._connected else "lost",
                    max(0, self._last_recorded - self._acked),
                )
            if health == self._health_said:
                return
            self._health_said = health
            try:
                report(*health)
            except Exception as error:  # the panel's trouble must not stop the link
                log.warning("room: the health report failed (%s): %s", type(error).__name__, error)

    # -- lifetime ------------------------------------------------------------------------------

    def start(self) -> TableLink:
        """Connect (retrying in the background until the broker answers) and start publishing."""
        client = make_client(
            self.address,
            f"sheshbesh-table-{self.table}-{os.getpid()}",
            will=(self.topics.table(self.table, "presence"), presence_message(False)),
        )
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        self._client = client
        client.connect_async(self.address.host, self.address.port, keepalive=10)
        client.loop_start()
        self._thread = threading.Thread(target=self._run, name=f"link-{self.table}", daemon=True)
        self._thread.start()
        return self

    def unacknowledged(self) -> int:
        """How many recorded events the hub does not hold yet (reads the record)."""
        last = self._read_last_sequence()
        with self._lock:
            return max(0, last - self._acked)

    def wait_until_subscribed(self, timeout: float) -> bool:
        """Wait until the broker took this connection's subscriptions (so it has handed over,
        or is handing over, the retained acknowledgement and director's command); False when
        ``timeout`` passed first."""
        return self._subscribed.wait(timeout)

    def wait_until_acknowledged(self, timeout: float) -> bool:
        """Wait until the hub holds every event recorded so far; False when ``timeout`` passed."""
        deadline = time.monotonic() + timeout
        while True:
            self._wake.set()
            if self.unacknowledged() == 0 and self.record is not None:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def close(self, timeout: float = 5.0) -> None:
        """Say goodbye (presence offline), disconnect and stop the thread. Safe to call twice."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        client = self._client
        if client is not None:
            if self.is_connected:
                info = client.publish(
                    self.topics.table(self.table, "presence"),
                    presence_message(False, self.record),
                    qos=1,
                    retain=True,
                )
                with contextlib.suppress(RuntimeError, ValueError):
                    info.wait_for_publish(timeout)
            client.disconnect()
            client.loop_stop()

    def __enter__(self) -> TableLink:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- network callbacks (paho's thread) ------------------------------------------------------

    def _on_connect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if reason.is_failure:
            self.last_error = f"the broker refused the table: {reason}"
            log.warning("room: %s", self.last_error)
            return
        self._subscribed.clear()
        client.subscribe([(self.topics.ack(self.table), 1), (self.topics.command(self.table), 1)])
        with self._lock:
            self._connected = True
            self._origin_known = False
            self._announced = None
            self.connections += 1
            self._state_dirty = self._state is not None
        self.last_error = ""
        log.info("room: connected to %s as table %s", self.address, self.table)
        self._wake.set()
        self._report_health()

    def _on_subscribe(
        self, client: Any, userdata: Any, mid: Any, reasons: Any, properties: Any
    ) -> None:
        if not any(getattr(reason, "is_failure", False) for reason in reasons or []):
            self._subscribed.set()

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        self._subscribed.clear()
        with self._lock:
            was = self._connected
            self._connected = False
            self._origin_known = False
        if was and not self._closing:
            log.warning("room: lost the broker (%s); the record keeps everything", reason)
        self._report_health()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            if message.topic == self.topics.ack(self.table):
                self._take_ack(Ack.from_json(message.payload))
            elif message.topic == self.topics.command(self.table) and message.payload:
                command = json.loads(message.payload)
                if isinstance(command, dict) and self.on_command is not None:
                    self.on_command(command)
        except (MessageError, json.JSONDecodeError, UnicodeDecodeError) as error:
            log.warning("room: ignored a message on %s: %s", message.topic, error)
        except Exception as error:  # a failing command handler must not kill the network thread
            log.warning("room: a command failed (%s): %s", type(error).__name__, error)

    def _take_ack(self, ack: Ack) -> None:
        with self._lock:
            if ack.record != self._record:
                return  # about another record of this table name (an older one): not ours
            self._acked = ack.sequence
            if ack.resend or not self._origin_known:
                # Start over from what the hub holds: anything after it may have been lost.
                self._sent = ack.sequence
                self._origin_known = True
                self._generation += 1
        self._wake.set()
        self._report_health()

    # -- the publishing thread ------------------------------------------------------------------

    def _run(self) -> None:
        reader: sqlite3.Connection | None = None
        while not self._closing:
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
            if self._closing:
                break
            try:
                if reader is None:
                    if not os.path.exists(self.record_path):
                        continue
                    reader = sqlite3.connect(self.record_path, timeout=5.0)
                self._step(reader)
                self._report_health()
            except sqlite3.Error as error:
                # The record is busy or not created yet: the next poll tries again (said once).
                problem = f"cannot read the record: {error}"
                if problem != self.last_error:
                    log.warning("room: %s", problem)
                self.last_error = problem
        if reader is not None:
            reader.close()

    def _step(self, reader: sqlite3.Connection) -> None:
        client = self._client
        if self._record is None:
            first = reader.execute(_ROWS + " ORDER BY sequence LIMIT 1").fetchone()
            if first is not None:
                with self._lock:
                    self._record = record_id(first)
        last = reader.execute("SELECT MAX(sequence) FROM events").fetchone()[0] or 0
        with self._lock:
            self._last_recorded = int(last)
            connected = self._connected
            record = self._record
            announce = connected and record is not None and self._announced != record
            state = self._state if self._state_dirty and connected else None
            if state is not None:
                self._state_dirty = False
            if announce:
                self._announced = record
        if not connected:
            return
        if announce:
            client.publish(
                self.topics.table(self.table, "presence"),
                presence_message(True, record, int(last)),
                qos=1,
                retain=True,
            )
        if state is not None:
            payload = json.dumps(
                {"record": record, "time": time.time(), "snapshot": state},
                separators=(",", ":"),
                default=str,
            )
            client.publish(self.topics.table(self.table, "state"), payload, qos=1, retain=True)
        while record is not None:
            with self._lock:
                if not (self._connected and self._origin_known) or self._closing:
                    return
                start = self._sent
                generation = self._generation
                room = self._acked + self.window - start
            if room <= 0:
                return
            rows = reader.execute(
                _ROWS + " WHERE sequence > ? ORDER BY sequence LIMIT ?", (start, min(room, 64))
            ).fetchall()
            if not rows:
                return
            previous = start
            for sequence, match, when, kind, data in rows:
                event = WireEvent(record, sequence, previous, match, kind, when, json.loads(data))
                client.publish(self.topics.table(self.table, "events"), event.to_json(), qos=1)
                previous = sequence
                self.published_events += 1
            with self._lock:
                if self._generation == generation:  # unless an ack asked to start over
                    self._sent = previous

    def _read_last_sequence(self) -> int:
        if not os.path.exists(self.record_path):
            return 0
        try:
            with contextlib.closing(sqlite3.connect(self.record_path, timeout=5.0)) as connection:
                row = connection.execute("SELECT MAX(sequence) FROM events").fetchone()
        except sqlite3.Error:
            with self._lock:
                return self._last_recorded
        return int(row[0] or 0)
