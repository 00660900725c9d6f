"""The room's topics and the JSON messages on them: the one place that knows the wire.

Under ``sheshbesh/ROOM/``::

    tables/TABLE/events     table -> hub  QoS 1        one recorded event (see :func:`event_message`)
    tables/TABLE/state      table -> hub  QoS 1 kept   the panel's latest snapshot
    tables/TABLE/presence   table -> hub  QoS 1 kept   {"online": true, "record": R, "last": N};
                                                       the broker sends {"online": false} as the
                                                       table's last will when it vanishes
    hub/ack/TABLE           hub -> table  QoS 1 kept   {"record": R, "sequence": N, "resend": bool}
    hub/command/TABLE       hub -> table  QoS 1 kept   a director's command (see ``command``)
    hub/presence            hub           QoS 1 kept   {"online": bool}

A table writes only under ``tables/<its name>/`` and reads only its own ``hub/ack`` and
``hub/command`` topics, so the broker's ACL (``deploy/mosquitto/acl``) can hold each table to its
own name; only the hub writes under ``hub/``.

Every event carries the record it comes from (``record``: an id derived from the record's first
event, so a table that starts a fresh record under the same name is told apart), its sequence
number and the sequence number of the event before it in that record (``previous``). The hub
stores an event only when ``previous`` is the last event it holds from that record: events are
mirrored once and in order, and anything else is a duplicate (ignored) or a gap (the hub asks the
table to re-send from what it has, with ``resend``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from controller.network.address import NetworkError, check_name

PREFIX: Final = "sheshbesh"


class MessageError(NetworkError, ValueError):
    """A message on a room topic that is not what that topic carries; the message says why."""


@dataclass(frozen=True, slots=True)
class Topics:
    """The topic names of one room."""

    room: str = "room"

    def __post_init__(self) -> None:
        check_name(self.room, "room")

    @property
    def base(self) -> str:
        return f"{PREFIX}/{self.room}"

    def table(self, table: str, kind: str) -> str:
        """``kind`` is ``events``, ``state`` or ``presence``."""
        return f"{self.base}/tables/{table}/{kind}"

    def ack(self, table: str) -> str:
        return f"{self.base}/hub/ack/{table}"

    def command(self, table: str) -> str:
        return f"{self.base}/hub/command/{table}"

    @property
    def hub_presence(self) -> str:
        return f"{self.base}/hub/presence"

    @property
    def all_tables(self) -> str:
        """The hub's one subscription: every table's events, state and presence."""
        return f"{self.base}/tables/+/+"

    def parse_table_topic(self, topic: str) -> tuple[str, str] | None:
        """(table, kind) for a ``tables/TABLE/KIND`` topic of this room, else None."""
        parts = topic.split("/")
        if len(parts) != 5 or parts[:3] != [PREFIX, self.room, "tables"]:
            return None
        return parts[3], parts[4]


@dataclass(frozen=True, slots=True)
class WireEvent:
    """One recorded event as it travels: the record's row plus where it sits in the record."""

    record: str
    sequence: int
    previous: int
    match: str
    type: str
    time: float
    data: dict[str, Any]

    def to_json(self) -> str:
        return json.dumps(
            {
                "record": self.record,
                "sequence": self.sequence,
                "previous": self.previous,
                "match": self.match,
                "type": self.type,
                "time": self.time,
                "data": self.data,
            },
            separators=(",", ":"),
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, payload: bytes | str) -> WireEvent:
        """Raises :class:`MessageError` naming the missing or wrong field."""
        raw = _object(payload, "event")
        try:
            event = cls(
                record=_text(raw, "record"),
                sequence=_count(raw, "sequence"),
                previous=_count(raw, "previous"),
                match=_text(raw, "match"),
                type=_text(raw, "type"),
                time=float(raw["time"]),
                data=raw["data"] if isinstance(raw.get("data"), dict) else {},
            )
        except (KeyError, TypeError, ValueError) as error:
            raise MessageError(f"event message lacks a usable field: {error}") from None
        if event.previous >= event.sequence:
            raise MessageError(
                f"event {event.sequence} claims to follow {event.previous}, which is not before it"
            )
        return event


@dataclass(frozen=True, slots=True)
class Ack:
    """The hub's word to a table: the last event it holds from ``record``; ``resend`` asks for
    everything after it again (after a cut, a gap, or the hub's own restart)."""

    record: str
    sequence: int
    resend: bool = False

    def to_json(self) -> str:
        return json.dumps(
            {"record": self.record, "sequence": self.sequence, "resend": self.resend},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, payload: bytes | str) -> Ack:
        raw = _object(payload, "acknowledgement")
        try:
            return cls(_text(raw, "record"), _count(raw, "sequence"), bool(raw.get("resend")))
        except (KeyError, TypeError, ValueError) as error:
            raise MessageError(f"acknowledgement lacks a usable field: {error}") from None


def presence_message(online: bool, record: str | None = None, last: int = 0) -> str:
    return json.dumps({"online": online, "record": record, "last": last}, separators=(",", ":"))


def parse_presence(payload: bytes | str) -> tuple[bool, str | None]:
    """(online, record id or None); an empty payload (a cleared retained message) is offline."""
    if not payload:
        return False, None
    raw = _object(payload, "presence")
    record = raw.get("record")
    return bool(raw.get("online")), record if isinstance(record, str) and record else None


def _object(payload: bytes | str, what: str) -> dict[str, Any]:
    try:
        raw = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MessageError(f"{what} message is not JSON: {error}") from None
    if not isinstance(raw, dict):
        raise MessageError(f"{what} message must be a JSON object, not {type(raw).__name__}")
    return raw


def _text(raw: dict[str, Any], key: str) -> str:
    value = raw[key]
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key} must be non-empty text, not {value!r}")
    return value


def _count(raw: dict[str, Any], key: str) -> int:
    value = raw[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{key} must be a whole number >= 0, not {value!r}")
    return value
