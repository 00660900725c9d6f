"""The hub's mirror: every table's events in one SQLite file, each stored once and in order.

The mirror is keyed by (table, record, sequence). :meth:`Mirror.add` stores an event only when it
follows the last one held from that record (its ``previous`` is that last sequence); a duplicate is
ignored and a gap is reported so the hub can ask the table to re-send. The room's view (players,
score, cube, whose turn...) is folded from the stored events and the tables' latest snapshots, and
folded again from the file when the hub restarts.

>>> from controller.network.topics import WireEvent
>>> mirror = Mirror(":memory:")
>>> started = WireEvent("r1", 1, 0, "m1", "match_started", 0.0, {"players": ["A", "B"], "length": 3})
>>> mirror.add("t1", started), mirror.add("t1", started)
('stored', 'duplicate')
>>> mirror.summary("t1")["players"], mirror.summary("t1")["events"]
(['A', 'B'], 1)
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from controller.events import Event
from controller.network.topics import WireEvent

Outcome = Literal["stored", "duplicate", "gap"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    table_name TEXT NOT NULL,
    record TEXT NOT NULL,
    sequence INTEGER NOT NULL,
    previous INTEGER NOT NULL,
    match_id TEXT NOT NULL,
    time REAL NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL CHECK (json_valid(data)),
    received REAL NOT NULL,
    PRIMARY KEY (table_name, record, sequence)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    record TEXT,
    online INTEGER NOT NULL DEFAULT 0,
    snapshot TEXT,
    updated REAL
);
CREATE TABLE IF NOT EXISTS draws (
    id INTEGER PRIMARY KEY,
    players TEXT NOT NULL CHECK (json_valid(players)),
    length INTEGER NOT NULL,
    created REAL NOT NULL
);
"""


@dataclass
class RecordView:
    """What the hub holds of one table's record: the last event and the latest match, folded."""

    last: int = 0
    events: int = 0
    match: str | None = None
    players: list[str] = field(default_factory=lambda: ["", ""])
    length: int = 0
    score: list[int] = field(default_factory=lambda: [0, 0])
    games: list[dict[str, Any]] = field(default_factory=list)
    winner: int | None = None
    match_events: int = 0
    last_event_time: float = 0.0
    last_event_type: str = ""
    last_play: dict[str, Any] | None = None

    def fold(self, event: WireEvent) -> None:
        self.last = event.sequence
        self.events += 1
        self.last_event_time = event.time
        self.last_event_type = event.type
        data = event.data
        if event.type == "match_started":
            self.match = str(data.get("id") or event.match)
            players = data.get("players")
            self.players = [str(p) for p in players] if isinstance(players, list) else ["", ""]
            self.length = int(data.get("length") or 0)
            self.score = [0, 0]
            self.games = []
            self.winner = None
            self.match_events = 0
            self.last_play = None
        self.match_events += 1
        if event.type == "play":
            self.last_play = {key: data.get(key) for key in ("player", "dice", "play")}
        elif event.type == "game_won":
            self.games.append({key: data.get(key) for key in ("game", "winner", "points")})
            self.score = _score(data.get("score"), self.score)
        elif event.type == "match_won":
            self.winner = data.get("winner")
            self.score = _score(data.get("score"), self.score)


@dataclass
class TableView:
    """One table as the hub knows it: its current record, presence and latest snapshot."""

    name: str
    record: str | None = None
    online: bool = False
    snapshot: dict[str, Any] | None = None
    updated: float = 0.0
    records: dict[str, RecordView] = field(default_factory=dict)
    version: int = 0


class Mirror:
    """The hub's SQLite mirror and the room's view folded from it. Thread-safe.

    ``path`` may be ``":memory:"`` (tests). Every change bumps :attr:`version`;
    :meth:`wait_for_change` lets the room's pages wait for the next one.
    """

    def __init__(self, path: str, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ":memory:":
            self._connection.execute("PRAGMA journal_mode=WAL")
        # NORMAL: the hub acknowledges only what it committed; should a power cut lose the last
        # commits, the hub asks the tables again from what it still holds after the restart.
        self._connection.execute("PRAGMA synchronous=NORMAL")
        self._connection.executescript(_SCHEMA)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._tables: dict[str, TableView] = {}
        self.version = 0
        self.duplicates = 0
        self.gaps = 0
        self._load()

    def _load(self) -> None:
        rows = self._connection.execute(
            "SELECT table_name, record, sequence, previous, match_id, time, type, data "
            "FROM events ORDER BY table_name, record, sequence"
        )
        for name, record, sequence, previous, match, when, kind, data in rows:
            view = self._table(name)
            event = WireEvent(record, sequence, previous, match, kind, when, json.loads(data))
            view.records.setdefault(record, RecordView()).fold(event)
        for name, record, _online, snapshot, updated in self._connection.execute(
            "SELECT name, record, online, snapshot, updated FROM tables"
        ):
            view = self._table(name)
            view.record = record
            view.online = False  # until the broker's retained presence says otherwise
            view.snapshot = json.loads(snapshot) if snapshot else None
            view.updated = float(updated or 0.0)

    def _table(self, name: str) -> TableView:
        view = self._tables.get(name)
        if view is None:
            view = self._tables[name] = TableView(name)
        return view

    def _touch(self, view: TableView) -> None:
        self.version += 1
        view.version = self.version
        self._changed.notify_all()

    def _save_table(self, view: TableView) -> None:
        self._connection.execute(
            "INSERT INTO tables (name, record, online, snapshot, updated) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET record = excluded.record, online = excluded.online, "
            "snapshot = excluded.snapshot, updated = excluded.updated",
            (
                view.name,
                view.record,
                int(view.online),
                None if view.snapshot is None else json.dumps(view.snapshot, default=str),
                view.updated,
            ),
        )

    # -- writing (the hub's network thread) ----------------------------------------------------

    def add(self, table: str, event: WireEvent) -> Outcome:
        """Store ``event`` of ``table`` if it is the next one of its record.

        Returns ``"stored"``, ``"duplicate"`` (already held: ignored) or ``"gap"`` (an event
        before it is missing: not stored; the table must re-send from :meth:`last`).
        """
        with self._lock:
            view = self._table(table)
            held = view.records.get(event.record)
            last = held.last if held is not None else 0
            if event.sequence <= last:
                self.duplicates += 1
                return "duplicate"
            if event.previous != last:
                self.gaps += 1
                return "gap"
            self._connection.execute(
                "INSERT INTO events (table_name, record, sequence, previous, match_id, time, "
                "type, data, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table,
                    event.record,
                    event.sequence,
                    event.previous,
                    event.match,
                    event.time,
                    event.type,
                    json.dumps(event.data, separators=(",", ":"), sort_keys=True),
                    self.clock(),
                ),
            )
            if held is None:
                held = view.records[event.record] = RecordView()
            held.fold(event)
            if view.record != event.record:
                view.record = event.record
                self._save_table(view)
            self._touch(view)
            return "stored"

    def set_presence(self, table: str, online: bool, record: str | None) -> None:
        with self._lock:
            view = self._table(table)
            view.online = online
            if record is not None:
                view.record = record
            view.updated = self.clock()
            self._save_table(view)
            self._touch(view)

    def set_snapshot(self, table: str, record: str | None, snapshot: dict[str, Any]) -> None:
        with self._lock:
            view = self._table(table)
            view.snapshot = snapshot
            if record is not None:
                view.record = record
            view.updated = self.clock()
            self._save_table(view)
            self._touch(view)

    # -- reading -------------------------------------------------------------------------------

    def last(self, table: str, record: str) -> int:
        """The last sequence held from ``table``'s ``record`` (0: none)."""
        with self._lock:
            view = self._tables.get(table)
            held = view.records.get(record) if view is not None else None
            return held.last if held is not None else 0

    def snapshot(self, table: str) -> dict[str, Any] | None:
        """The table's latest state snapshot (the panel's form), or None."""
        with self._lock:
            view = self._tables.get(table)
            return None if view is None or view.snapshot is None else dict(view.snapshot)

    def current_records(self) -> dict[str, str]:
        """Each table's current record id (tables whose record is not known yet are left out)."""
        with self._lock:
            return {name: view.record for name, view in self._tables.items() if view.record}

    def names(self) -> list[str]:
        with self._lock:
            return sorted(self._tables)

    def summary(self, table: str) -> dict[str, Any] | None:
        """One table for the room's page and ``/api/tables`` (see :func:`summary_of`)."""
        with self._lock:
            view = self._tables.get(table)
            return None if view is None else summary_of(view)

    def summaries(self) -> list[dict[str, Any]]:
        with self._lock:
            return [summary_of(self._tables[name]) for name in sorted(self._tables)]

    def wait_for_change(self, since: int, timeout: float) -> tuple[int, list[dict[str, Any]]]:
        """Wait up to ``timeout`` s for a version after ``since``; (version, changed tables)."""
        with self._changed:
            if self.version <= since:
                self._changed.wait(timeout)
            changed = [
                summary_of(view)
                for name, view in sorted(self._tables.items())
                if view.version > since
            ]
            return self.version, changed

    def events(self, table: str, record: str | None = None) -> list[Event]:
        """Every event held from ``table``'s record (default: its current one), in order."""
        with self._lock:
            if record is None:
                view = self._tables.get(table)
                record = view.record if view is not None else None
            rows = self._connection.execute(
                "SELECT sequence, time, type, data FROM events "
                "WHERE table_name = ? AND record = ? ORDER BY sequence",
                (table, record),
            ).fetchall()
        return [Event(kind, json.loads(data), when, seq) for seq, when, kind, data in rows]

    def matches(self) -> list[dict[str, Any]]:
        """Every match held from every table, oldest first: ``{"table", "record", "match",
        "players", "length", "score", "winner", "started", "finished"}``."""
        with self._lock:
            rows = self._connection.execute(
                "SELECT table_name, record, match_id, type, data, received FROM events "
                "WHERE type IN ('match_started', 'game_won', 'match_won') "
                "ORDER BY received, table_name, record, sequence"
            ).fetchall()
        found: dict[tuple[str, str, str], dict[str, Any]] = {}
        for table, record, match, kind, text, received in rows:
            data = json.loads(text)
            key = (table, record, match)
            if kind == "match_started":
                found[key] = {
                    "table": table,
                    "record": record,
                    "match": match,
                    "players": data.get("players") or ["", ""],
                    "length": int(data.get("length") or 0),
                    "score": [0, 0],
                    "winner": None,
                    "started": received,
                    "finished": None,
                }
            elif key in found:
                found[key]["score"] = _score(data.get("score"), found[key]["score"])
                if kind == "match_won":
                    found[key]["winner"] = data.get("winner")
                    found[key]["finished"] = received
        return list(found.values())

    def match_events(self, table: str, record: str, match: str) -> list[Event]:
        """The events of one match, in order (for its .mat export); empty when unknown."""
        with self._lock:
            rows = self._connection.execute(
                "SELECT sequence, time, type, data FROM events "
                "WHERE table_name = ? AND record = ? AND match_id = ? ORDER BY sequence",
                (table, record, match),
            ).fetchall()
        return [Event(kind, json.loads(data), when, seq) for seq, when, kind, data in rows]

    def save_draw(self, players: list[str], length: int, created: float) -> None:
        """Keep the director's knockout draw (the newest one is the room's draw)."""
        with self._lock:
            self._connection.execute(
                "INSERT INTO draws (players, length, created) VALUES (?, ?, ?)",
                (json.dumps(players), int(length), float(created)),
            )

    def latest_draw(self) -> tuple[list[str], int, float] | None:
        """The newest knockout draw: (seeded players, match length, when it was made), or None."""
        with self._lock:
            row = self._connection.execute(
                "SELECT players, length, created FROM draws ORDER BY id DESC LIMIT 1"
            ).fetchone()
        if row is None:
            return None
        return [str(name) for name in json.loads(row[0])], int(row[1]), float(row[2])

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def summary_of(view: TableView) -> dict[str, Any]:
    """A table as ``/api/tables`` gives it.

    ``{"name", "online", "record", "match", "players", "length", "score", "events" (recorded
    events the hub holds from the table's current record), "match_events", "winner", "finished",
    "last_event": {"sequence", "type", "time"}, "last_play", "turn", "dice", "cube", "pips",
    "updated"}``; the live fields (turn, dice, cube, pips) come from the table's latest snapshot.
    """
    held = view.records.get(view.record or "") or RecordView()
    snapshot = view.snapshot or {}
    snapshot_match = snapshot.get("match") or {}
    players = held.players if held.match else list(snapshot_match.get("players") or ["", ""])
    return {
        "name": view.name,
        "online": view.online,
        "record": view.record,
        "match": held.match,
        "players": players,
        "length": held.length if held.match else int(snapshot_match.get("length") or 0),
        "score": list(held.score),
        "events": held.events,
        "match_events": held.match_events,
        "games": list(held.games),
        "winner": held.winner,
        "finished": held.winner is not None,
        "last_event": {
            "sequence": held.last,
            "type": held.last_event_type,
            "time": held.last_event_time,
        },
        "last_play": held.last_play,
        "turn": snapshot.get("turn"),
        "dice": snapshot.get("dice"),
        "cube": snapshot.get("cube") or {"value": 1, "owner": None},
        "pips": snapshot.get("pips") or [0, 0],
        "updated": view.updated,
    }


def _score(value: Any, default: list[int]) -> list[int]:
    if isinstance(value, list) and len(value) == 2:
        return [int(value[0]), int(value[1])]
    return default
