"""The hub's side of the room: subscribe to every table, mirror, acknowledge, serve the pages.

:class:`Hub` keeps one MQTT connection. For each event message it asks the :class:`Mirror` to
store it and answers the table with an acknowledgement (retained, so a table that reconnects
learns at once what the hub holds). When a table comes online, when the hub (re)connects, and when
an event arrives after a gap, the acknowledgement asks the table to re-send everything after it:
the table's record is the truth and the hub pulls whatever it lacks.

The hub is also the room's pages' data source (:class:`web.room.RoomSource`): the pages never
import this package; ``sheshbesh hub`` passes a :class:`Hub` to :func:`web.room.create_room_app`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from controller.network.address import (
    BrokerAddress,
    NetworkError,
    TableNameError,
    check_name,
    make_client,
)
from controller.network.mirror import Mirror
from controller.network.topics import (
    Ack,
    MessageError,
    Topics,
    WireEvent,
    parse_presence,
)
from sheshbesh.language import N_

log = logging.getLogger("sheshbesh")

#: seconds before the hub asks a table again to re-send after the same gap
RESEND_AGAIN_AFTER = 2.0


class Hub:
    """Mirrors every table of ``room`` from the broker at ``broker`` into ``mirror``."""

    def __init__(
        self,
        broker: str | BrokerAddress,
        mirror: Mirror,
        *,
        room: str = "room",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.address = (
            broker if isinstance(broker, BrokerAddress) else BrokerAddress.from_url(broker)
        )
        self.mirror = mirror
        self.room = check_name(room, "room")
        self.topics = Topics(room)
        self.clock = clock
        self._lock = threading.Lock()
        self._asked: dict[tuple[str, str], tuple[int, float]] = {}
        self._connected = False
        self._closing = False
        self._client: Any = None
        self.assignments: dict[str, dict[str, Any]] = {}
        self.connections = 0
        self.malformed = 0
        self.last_error = ""

    # -- lifetime ------------------------------------------------------------------------------

    def start(self) -> Hub:
        """Connect (retrying in the background until the broker answers)."""
        client = make_client(
            self.address,
            f"sheshbesh-hub-{self.room}-{os.getpid()}",
            will=(self.topics.hub_presence, json.dumps({"online": False})),
        )
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        client.connect_async(self.address.host, self.address.port, keepalive=10)
        client.loop_start()
        return self

    def close(self) -> None:
        client = self._client
        if client is None:
            return
        self._closing = True
        if self.is_connected:
            info = client.publish(
                self.topics.hub_presence, json.dumps({"online": False}), qos=1, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(2.0)
        client.disconnect()
        client.loop_stop()
        self._client = None

    def __enter__(self) -> Hub:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def is_connected(self) -> bool:
        with self._lock:
            return self._connected

    # -- network callbacks (paho's thread) ------------------------------------------------------

    def _on_connect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if reason.is_failure:
            self.last_error = f"the broker refused the hub: {reason}"
            log.warning("hub: %s", self.last_error)
            return
        with self._lock:
            self._connected = True
            self._asked.clear()
            self.connections += 1
        self.last_error = ""
        client.subscribe(self.topics.all_tables, qos=1)
        client.publish(self.topics.hub_presence, json.dumps({"online": True}), qos=1, retain=True)
        # Whatever was in flight when the connection went may be lost: ask every known table to
        # re-send after what the mirror holds (tables not yet known announce themselves).
        for table, record in self.mirror.current_records().items():
            self._acknowledge(table, record, resend=True)
        log.info("hub: connected to %s", self.address)

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        with self._lock:
            self._connected = False
        if not self._closing:
            log.warning("hub: lost the broker (%s); retrying", reason)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        where = self.topics.parse_table_topic(message.topic)
        if where is None:
            return
        table, kind = where
        try:
            check_name(table)
            if kind == "events":
                self._take_event(table, WireEvent.from_json(message.payload))
            elif kind == "presence":
                online, record = parse_presence(message.payload)
                self.mirror.set_presence(table, online, record)
                if online and record is not None:
                    self._acknowledge(table, record, resend=True)
            elif kind == "state" and message.payload:
                raw = json.loads(message.payload)
                snapshot = raw.get("snapshot") if isinstance(raw, dict) else None
                if isinstance(snapshot, dict):
                    record = raw.get("record")
                    self.mirror.set_snapshot(
                        table, record if isinstance(record, str) else None, snapshot
                    )
        except (MessageError, ValueError, UnicodeDecodeError) as error:
            self.malformed += 1
            log.warning("hub: ignored a message on %s: %s", message.topic, error)

    def _take_event(self, table: str, event: WireEvent) -> None:
        outcome = self.mirror.add(table, event)
        if outcome == "stored":
            self._acknowledge(table, event.record, resend=False)
            return
        if outcome == "gap":
            last = self.mirror.last(table, event.record)
            now = self.clock()
            with self._lock:
                asked = self._asked.get((table, event.record))
                if asked is not None and asked[0] == last and now - asked[1] < RESEND_AGAIN_AFTER:
                    return
                self._asked[(table, event.record)] = (last, now)
            self._acknowledge(table, event.record, resend=True)

    def _acknowledge(self, table: str, record: str, *, resend: bool) -> None:
        client = self._client
        if client is None:
            return
        ack = Ack(record, self.mirror.last(table, record), resend)
        client.publish(self.topics.ack(table), ack.to_json(), qos=1, retain=True)

    # -- the room's pages (web.room.RoomSource) -------------------------------------------------

    def tables(self) -> list[dict[str, Any]]:
        """Every table, sorted by name (``controller.network.mirror.summary_of``)."""
        return self.mirror.summaries()

    def table(self, name: str) -> dict[str, Any] | None:
        """One table with its latest snapshot (``"snapshot"``) for its page, or None."""
        summary = self.mirror.summary(name)
        if summary is None:
            return None
        summary["snapshot"] = self.mirror.snapshot(name)
        return summary

    def wait_for_change(self, since: int, timeout: float) -> tuple[int, list[dict[str, Any]]]:
        return self.mirror.wait_for_change(since, timeout)

    # -- the director (behind the pages' PIN) ---------------------------------------------------

    def assign(self, table: str, settings: dict[str, Any]) -> str:
        """Send ``table`` its next match; returns the assignment's id (the match's id to be).

        Raises :class:`~controller.network.director.AssignmentError` for bad settings or a
        table name, :class:`NetworkError` when the hub is not connected to the broker.
        """
        from controller.network.director import AssignmentError, assignment_settings

        try:
            check_name(table)
        except TableNameError as error:
            raise AssignmentError(error.template, **error.values) from None
        checked = assignment_settings(settings)
        client = self._client
        if client is None or not self.is_connected:
            raise NetworkError(N_("the hub is not connected to the broker; try again shortly"))
        identifier = f"{table}-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"
        command = {"action": "assign", "id": identifier, "settings": checked, "time": time.time()}
        client.publish(self.topics.command(table), json.dumps(command), qos=1, retain=True)
        with self._lock:
            self.assignments[table] = command
        return identifier

    def results(self) -> list[dict[str, Any]]:
        """Every match the hub holds, newest first (``Mirror.matches``)."""
        return list(reversed(self.mirror.matches()))

    def standings(self) -> list[dict[str, Any]]:
        from controller.network.director import standings

        return standings(self.mirror.matches())

    def draw_knockout(self, players: list[str], length: int | str) -> dict[str, Any]:
        """Make the room's knockout draw from ``players`` in seeding order (it replaces an
        earlier one); returns its bracket. Raises
        :class:`~controller.network.director.AssignmentError` naming what is wrong."""
        from controller.network.knockout import Draw

        # The mirror's clock, which also times when each match reached the hub.
        draw = Draw.from_list(players, length, created=self.mirror.clock())
        self.mirror.save_draw(list(draw.players), draw.length, draw.created)
        return self.knockout() or {}

    def knockout(self) -> dict[str, Any] | None:
        """The room's knockout bracket with the recorded results applied, or None before a
        draw (:func:`controller.network.knockout.bracket`)."""
        from controller.network.knockout import Draw, bracket

        saved = self.mirror.latest_draw()
        if saved is None:
            return None
        players, length, created = saved
        return bracket(Draw(tuple(players), length, created), self.mirror.matches())

    def archive(self, day: str | None = None) -> bytes:
        """Every match started on ``day`` (``YYYY-MM-DD``, local time; default today) as .mat
        files in one zip archive, named ``TABLE-MATCH.mat``."""
        from controller.network.director import mat_archive
        from controller.record.export import export_mat
        from controller.record.matfile import MatFileError

        wanted = day or time.strftime("%Y-%m-%d")
        files = []
        for match in self.mirror.matches():
            if time.strftime("%Y-%m-%d", time.localtime(match["started"])) != wanted:
                continue
            events = self.mirror.match_events(match["table"], match["record"], match["match"])
            try:
                text = export_mat(events)
            except (MatFileError, KeyError, ValueError) as error:
                log.warning(
                    "hub: %s/%s cannot be exported: %s", match["table"], match["match"], error
                )
                continue
            files.append((f"{match['table']}-{match['match']}.mat", text))
        return mat_archive(files)

    def status(self) -> dict[str, Any]:
        return {
            "room": self.room,
            "broker": str(self.address),
            "connected": self.is_connected,
            "duplicates": self.mirror.duplicates,
            "gaps": self.mirror.gaps,
        }
