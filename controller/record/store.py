"""The match record: an append-only event log in SQLite. The log is the truth; all else is a view.

One ``events`` table (``sequence INTEGER PRIMARY KEY, match_id, time, type, data JSON``) that is
only ever inserted into (triggers refuse updates and deletes), and a ``matches`` view that lists
matches for the panel. Analysis reports are derived data and live apart, in an ``analyses`` table
(match id, the last game a report covers, the JSON report, the engine level, the time), created
when the first report is saved (:meth:`Record.save_analysis`, :meth:`Record.analysis`). Every :meth:`Record.append` commits before it returns, so the referee acts
only on what is safely on disk; after a crash the referee is rebuilt from :meth:`Record.events`.

>>> from controller.events import Event
>>> with Record(":memory:") as record:
...     record.append(Event("match_started", {"id": "m1", "players": ["A", "B"], "length": 3}))
...     [event.type for event in record.events("m1")]
1
['match_started']
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import threading
import time as _time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.events import Event
from sheshbesh.closing import Closing
from sheshbesh.errors import SheshbeshError

SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    sequence INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL,
    time REAL NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL CHECK (json_valid(data))
);
CREATE INDEX IF NOT EXISTS events_by_match ON events (match_id, sequence);
CREATE INDEX IF NOT EXISTS events_by_type ON events (type, sequence);
CREATE INDEX IF NOT EXISTS events_by_match_type ON events (match_id, type, sequence);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events are never updated'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events are never deleted'); END;
CREATE VIEW IF NOT EXISTS matches AS
SELECT
    started.match_id AS id,
    json_extract(started.data, '$.players') AS players,
    json_extract(started.data, '$.length') AS length,
    started.time AS started,
    (SELECT finished.time FROM events AS finished
      WHERE finished.match_id = started.match_id AND finished.type = 'match_won'
      ORDER BY finished.sequence LIMIT 1) AS finished,
    (SELECT json_extract(game.data, '$.score') FROM events AS game
      WHERE game.match_id = started.match_id AND game.type = 'game_won'
      ORDER BY game.sequence DESC LIMIT 1) AS score,
    (SELECT COUNT(*) FROM events AS game
      WHERE game.match_id = started.match_id AND game.type = 'game_won') AS games,
    started.sequence AS sequence
FROM events AS started
WHERE started.type = 'match_started';
"""


# Derived data, never the truth: kept apart from the append-only events, created on first use so
# that opening a log (even a read-only copy) never changes its schema.
_ANALYSES_SCHEMA = """
CREATE TABLE IF NOT EXISTS analyses (
    id INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL,
    game INTEGER,
    report TEXT NOT NULL CHECK (json_valid(report) AND json_type(report) = 'object'),
    level TEXT NOT NULL,
    time REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS analyses_by_match ON analyses (match_id, id);
"""


class RecordError(SheshbeshError):
    """The event log cannot be read or written as asked."""


class RecordCorruptError(RecordError, ValueError):
    """The file is not an event log this program can read; it is left untouched."""


class RecordInUseError(RecordError):
    """Another process (a second ``sheshbesh run`` or ``demo``) is writing this record."""


class DuplicateEventError(RecordError, ValueError):
    """An event with this sequence number is already recorded (a second writer, or a replay)."""


class AnalysisRecordError(RecordError, ValueError):
    """An analysis report that cannot be saved: no such match, or not a JSON object."""


class Record(Closing):
    """The append-only SQLite event log of one board (any number of matches).

    A writer (the default) holds an exclusive lock on the file for as long as it is open, so a
    second writer gets :class:`RecordInUseError` ("in use") instead of interleaving events.
    ``read_only=True`` opens the file as SQLite's ``mode=ro`` (export, analysis, any reader): it
    never writes, never changes the schema or the journal mode, never takes the writer's lock,
    and reads a backup in a read-only folder.

    The referee's appends go through the writer's own connection; every read goes through a
    separate read-only connection per thread (WAL mode lets readers and the writer work at the
    same time), so the panel's pages never wait for, or hold up, the referee. A writer moves its
    write-ahead log back into the file from a thread of its own (``background_checkpoints``;
    False: SQLite's default, inside the commit that fills the log), so an append only writes
    and syncs the log.

    Raises :class:`RecordCorruptError` when ``path`` exists but is not a readable event log (such
    a file is never written to, an empty one included), :class:`RecordInUseError` when another
    writer holds it, :class:`RecordError` when it cannot be opened.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        read_only: bool = False,
        exclusive: bool = True,
        background_checkpoints: bool = True,
    ) -> None:
        self.path = str(path)
        self.read_only = read_only
        self.exclusive = exclusive and not read_only
        self._checkpointer: _Checkpointer | None = None
        self._lock = threading.RLock()
        self._readers = threading.local()
        self._reader_connections: list[sqlite3.Connection] = []
        self._lock_handle: int | None = None
        memory = self.path == ":memory:"
        if read_only and memory:
            raise RecordError("an in-memory event log cannot be opened read-only")
        if not memory:
            _check_header(Path(self.path), must_exist=read_only)
        existed = not memory and Path(self.path).exists()
        if read_only:
            self._connection = self._open_read_only()
        else:
            if existed and self.exclusive:
                self._lock_handle = _lock_file(Path(self.path))
            try:
                # One writing connection for the referee's appends, used under a lock.
                self._connection = sqlite3.connect(
                    self.path, isolation_level=None, check_same_thread=False
                )
            except sqlite3.Error as error:
                self._unlock()
                raise RecordError(f"cannot open the event log {self.path!r}: {error}") from error
        try:
            self._prepare()
        except sqlite3.OperationalError as error:  # locked, read-only, disk I/O: not damage
            self._connection.close()
            self._unlock()
            raise RecordError(f"cannot use the event log {self.path!r}: {error}") from error
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            self._connection.close()
            self._unlock()
            raise RecordCorruptError(
                f"{self.path!r} is not a readable event log ({error}); it was left untouched"
            ) from error
        if not memory and not existed and self.exclusive:
            try:
                self._lock_handle = _lock_file(Path(self.path))
            except RecordError:
                self._connection.close()
                raise
        self._current_match = self._latest_match()
        if background_checkpoints and self.exclusive and not memory:
            self._checkpointer = _Checkpointer(self.path)
            # The writer never checkpoints in its own commits (SQLite's default does, every
            # 1000 pages: copying the log into the file and syncing it, tens of milliseconds
            # inside one append); the checkpointer does it in its own thread instead.
            self._connection.execute("PRAGMA wal_autocheckpoint=0")

    def _unlock(self) -> None:
        if self._lock_handle is not None:
            os.close(self._lock_handle)  # closing the descriptor ends the lock
            self._lock_handle = None

    def _open_read_only(self) -> sqlite3.Connection:
        uri = Path(self.path).resolve().as_uri() + "?mode=ro"
        try:
            return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.OperationalError:
            pass
        # A WAL-mode file in a folder we may not write (a backup on a read-only medium): SQLite
        # cannot make its shared-memory file there. With no write-ahead file beside it, nothing
        # is pending, and the file can be read as immutable.
        if Path(self.path + "-wal").exists():
            raise RecordError(
                f"cannot open the event log {self.path!r} read-only: its folder is not writable"
                " and it has a write-ahead file (copy both to a writable folder)"
            )
        try:
            return sqlite3.connect(
                uri + "&immutable=1", uri=True, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise RecordError(f"cannot open the event log {self.path!r}: {error}") from error

    def _prepare(self) -> None:
        connection = self._connection
        result = connection.execute("PRAGMA quick_check").fetchone()
        if result is None or result[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check failed: {result!r}")
        tables = {
            row[0]: row[1]
            for row in connection.execute(
                "SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            )
        }
        if tables and "events" not in tables:
            raise sqlite3.DatabaseError(
                f"it holds tables {sorted(tables)} but no 'events' table: another program's database"
            )
        if self.read_only:
            if "events" not in tables:
                raise sqlite3.DatabaseError("it holds no 'events' table: it is no event log")
            if "matches" not in tables:
                raise sqlite3.DatabaseError("its 'matches' view is missing")
            return
        if self.path != ":memory:":
            connection.execute("PRAGMA journal_mode=WAL")
        # FULL, not NORMAL: in WAL mode NORMAL syncs only at checkpoints, so a power cut may lose
        # the last commits; a referee that already lit LEDs and told the players about a play it
        # then forgets would contradict the board. Events come a few a minute, so one fsync each
        # (milliseconds on an SD card) is cheap insurance.
        connection.execute("PRAGMA synchronous=FULL")
        connection.executescript(_SCHEMA)

    def _reader(self) -> sqlite3.Connection | None:
        """This thread's read-only connection (None: read through the writer's, e.g. in memory)."""
        if self.read_only or self.path == ":memory:":
            return None
        connection: sqlite3.Connection | None = getattr(self._readers, "connection", None)
        if connection is None:
            uri = Path(self.path).resolve().as_uri() + "?mode=ro"
            try:
                connection = sqlite3.connect(
                    uri, uri=True, isolation_level=None, check_same_thread=False
                )
            except sqlite3.Error as error:
                raise RecordError(f"cannot read the event log {self.path!r}: {error}") from error
            with self._lock:
                self._reader_connections.append(connection)
            self._readers.connection = connection
        return connection

    def _query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        reader = self._reader()
        try:
            if reader is not None:
                return reader.execute(sql, parameters).fetchall()
            with self._lock:
                return self._connection.execute(sql, parameters).fetchall()
        except UnicodeDecodeError as error:  # text that SQLite stored is not UTF-8: damage
            raise RecordCorruptError(
                f"{self.path!r} holds damaged text ({error.reason}); it was left untouched"
            ) from None
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError):
                raise  # e.g. no analyses table yet: the caller decides
            raise RecordCorruptError(
                f"{self.path!r} cannot be read ({error}); it was left untouched"
            ) from error

    def _latest_match(self) -> str | None:
        rows = self._query(
            "SELECT match_id FROM events WHERE type = 'match_started' ORDER BY sequence DESC LIMIT 1"
        )
        return str(rows[0][0]) if rows else None

    # -- writing -------------------------------------------------------------------------------

    def append(self, event: Event, match_id: str | None = None) -> int:
        """Append ``event`` and commit; returns its sequence number.

        The match is ``match_id``, else ``event.data["id"]`` for ``match_started``, else the match
        most recently started in this log. An event that carries a sequence number is stored under
        exactly that number, so the same event can never be recorded twice.

        Raises :class:`RecordError` when no match is known, :class:`DuplicateEventError` when the
        sequence number is taken.
        """
        if match_id is None and event.type == "match_started":
            match_id = event.data.get("id")
        match = match_id if match_id is not None else self._current_match
        if not isinstance(match, str) or not match:
            raise RecordError(
                f"cannot record {event.type!r}: no match given and none started in {self.path!r}"
            )
        if not self.exclusive and self.path != ":memory:":
            raise RecordError(
                f"cannot record {event.type!r}: {self.path!r} is open "
                + ("read-only" if self.read_only else "without the writer's lock")
            )
        data = json.dumps(event.data, sort_keys=True, separators=(",", ":"))
        try:
            with self._lock:
                cursor = self._connection.execute(
                    "INSERT INTO events (sequence, match_id, time, type, data) VALUES (?, ?, ?, ?, ?)",
                    (event.sequence or None, match, event.time, event.type, data),
                )
        except sqlite3.IntegrityError as error:
            raise DuplicateEventError(
                f"event {event.sequence} ({event.type}) is already recorded in {self.path!r}"
            ) from error
        except sqlite3.Error as error:
            raise RecordError(f"cannot record {event.type!r} in {self.path!r}: {error}") from error
        if event.type == "match_started":
            self._current_match = match
        if self._checkpointer is not None:
            self._checkpointer.committed()
        sequence = cursor.lastrowid
        assert sequence is not None
        return sequence

    # -- reading -------------------------------------------------------------------------------

    @property
    def current_match(self) -> str | None:
        """The id of the match most recently started in this log, or None."""
        return self._current_match

    def last_sequence(self) -> int:
        """The highest sequence number recorded (0 for an empty log)."""
        return int(self._query("SELECT MAX(sequence) FROM events")[0][0] or 0)

    def events(self, match: str | None = None) -> list[Event]:
        """Every event of ``match`` (default: the current match) in order."""
        match = match if match is not None else self._current_match
        rows = self._query(
            "SELECT sequence, time, type, data FROM events WHERE match_id = ? ORDER BY sequence",
            (match,),
        )
        return [_event(self.path, *row) for row in rows]

    def check(self, match: str | None = None) -> tuple[str, ...]:
        """The problems that ``export`` would report in ``match`` (default: the current one),
        each naming its event; none for a sound log. A match in another variant than
        backgammon is checked for its shape only.

        Raises :class:`RecordCorruptError` for an event that cannot be read at all.
        """
        from controller.record.export import check_events

        return check_events(self.events(match))

    _MATCH_COLUMNS = "id, players, length, score, started, finished, games"

    def matches(self) -> list[dict[str, Any]]:
        """Every match in the log, oldest first, from the ``matches`` view (times in seconds)."""
        rows = self._query(f"SELECT {self._MATCH_COLUMNS} FROM matches ORDER BY sequence")
        return [_match_row(row) for row in rows]

    def match_count(self) -> int:
        """How many matches the log holds."""
        return int(self._query("SELECT COUNT(*) FROM events WHERE type = 'match_started'")[0][0])

    def list_matches(self, offset: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """For the panel, newest first, ``limit`` of them (None: all) after skipping ``offset``:
        ``[{"id", "players", "length", "score", "started", "finished", "games"}]`` with ISO 8601
        times and ``games`` as ``[{"game", "winner", "points", "score"}]``.

        Only the asked page is read (an index on the event type finds the matches), so a record
        of ten thousand matches costs a page what a record of ten does.
        """
        rows = self._query(
            f"SELECT {self._MATCH_COLUMNS} FROM matches ORDER BY sequence DESC LIMIT ? OFFSET ?",
            (-1 if limit is None else max(0, int(limit)), max(0, int(offset))),
        )
        return self._with_games([_match_row(row) for row in rows])

    def match(self, match_id: str) -> dict[str, Any] | None:
        """For the panel: ``match_id``'s entry as :meth:`list_matches` gives it, or None."""
        rows = self._query(f"SELECT {self._MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        if not rows:
            return None
        return self._with_games([_match_row(rows[0])])[0]

    def _with_games(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not entries:
            return []
        ids = [entry["id"] for entry in entries]
        games: dict[str, list[dict[str, Any]]] = {}
        # One query per page; the id list is a JSON array so its length needs no SQL building.
        rows = self._query(
            # CROSS JOIN keeps the page's ids as the outer loop: each id is then one index search.
            "SELECT e.match_id, e.data FROM json_each(?) AS ids CROSS JOIN events AS e "
            "ON e.match_id = ids.value AND e.type = 'game_won' ORDER BY e.sequence",
            (json.dumps(ids),),
        )
        for match_id, data in rows:
            won = json.loads(data)
            games.setdefault(match_id, []).append(
                {key: won.get(key) for key in ("game", "winner", "points", "score")}
            )
        return [
            {
                **entry,
                "started": _iso(entry["started"]),
                "finished": None if entry["finished"] is None else _iso(entry["finished"]),
                "games": games.get(entry["id"], []),
            }
            for entry in entries
        ]

    def export_mat(self, match_id: str) -> str:
        """``match_id`` as GNU Backgammon .mat text; raises ``KeyError`` for an unknown match."""
        from controller.record.export import export_mat

        events = self.events(match_id)
        if not events:
            raise KeyError(match_id)
        return export_mat(events)

    # -- analyses (derived data, outside the event log) ------------------------------------------

    def save_analysis(
        self,
        match_id: str,
        report_json: str | Mapping[str, Any],
        *,
        game: int | None = None,
        level: str | None = None,
        time: float | None = None,
    ) -> int:
        """Keep an analysis report of ``match_id``; returns its row id. The events are untouched.

        ``report_json`` is the report (``controller.analysis.report.to_dict``) as a JSON object or
        its text. ``game`` is the last game the report covers (None: not said), ``level`` the
        engine level (default: the last word of the report's ``engine``), ``time`` seconds since
        the epoch (default now).

        Raises :class:`AnalysisRecordError` for an unknown match or a report that is not a JSON
        object, :class:`RecordError` when it cannot be written.

        >>> from controller.events import Event
        >>> with Record(":memory:") as record:
        ...     _ = record.append(Event("match_started", {"id": "m1", "players": ["A", "B"]}))
        ...     _ = record.save_analysis("m1", {"engine": "bgsage 0ply", "totals": []}, game=1)
        ...     entry = record.analysis("m1")
        ...     entry["game"], entry["level"], entry["report"]["engine"]
        (1, '0ply', 'bgsage 0ply')
        """
        if isinstance(report_json, str):
            try:
                report = json.loads(report_json)
            except json.JSONDecodeError as error:
                raise AnalysisRecordError(
                    f"the analysis of {match_id!r} is not JSON: {error}"
                ) from error
        else:
            report = dict(report_json)
        if not isinstance(report, dict):
            raise AnalysisRecordError(
                f"the analysis of {match_id!r} must be a JSON object, not {type(report).__name__}"
            )
        if not self._query("SELECT 1 FROM events WHERE match_id = ? LIMIT 1", (match_id,)):
            raise AnalysisRecordError(f"no match {match_id!r} in {self.path!r} to analyse")
        if game is not None and (isinstance(game, bool) or not isinstance(game, int) or game < 1):
            raise AnalysisRecordError(f"game must be a game number (1 or more), not {game!r}")
        if level is None:
            engine = str(report.get("engine", "")).split()
            level = engine[-1] if engine else ""
        text = json.dumps(report, sort_keys=True, separators=(",", ":"))
        when = _time.time() if time is None else float(time)
        try:
            with self._lock:
                self._connection.executescript(_ANALYSES_SCHEMA)
                cursor = self._connection.execute(
                    "INSERT INTO analyses (match_id, game, report, level, time) VALUES (?, ?, ?, ?, ?)",
                    (match_id, game, text, level, when),
                )
        except sqlite3.Error as error:
            raise RecordError(
                f"cannot save the analysis of {match_id!r} in {self.path!r}: {error}"
            ) from error
        row = cursor.lastrowid
        assert row is not None
        return row

    def analysis(self, match_id: str) -> dict[str, Any] | None:
        """The latest analysis of ``match_id``, or None when it has none.

        ``{"match_id", "game" (the last game it covers, or None), "level", "time" (ISO 8601),
        "report" (the JSON report), "policy" (the match's: "teaching" | "tournament" |
        "condone")}``. The panel shows a rated match's report only once every game it covers
        is over.
        """
        try:
            rows = self._query(
                "SELECT game, report, level, time FROM analyses WHERE match_id = ? "
                "ORDER BY id DESC LIMIT 1",
                (match_id,),
            )
        except sqlite3.OperationalError:  # no analyses table: nothing was ever analysed
            return None
        if not rows:
            return None
        game, report, level, when = rows[0]
        policy = self._query(
            "SELECT json_extract(data, '$.policy') FROM events "
            "WHERE match_id = ? AND type = 'match_started' ORDER BY sequence LIMIT 1",
            (match_id,),
        )
        return {
            "match_id": match_id,
            "game": game,
            "level": level,
            "time": _iso(when),
            "report": json.loads(report),
            "policy": (policy[0][0] if policy and policy[0][0] else "tournament"),
        }

    # -- lifetime ------------------------------------------------------------------------------

    def close(self) -> None:
        """Close every connection, then let go of the writer's lock. Safe to call twice."""
        if self._checkpointer is not None:
            self._checkpointer.close()
            self._checkpointer = None
        with self._lock:
            for reader in self._reader_connections:
                reader.close()
            self._reader_connections.clear()
            self._connection.close()
            self._unlock()

    def __repr__(self) -> str:
        return f"Record({self.path!r})"


class _Checkpointer:
    """Copies the write-ahead log back into the record file in a thread of its own, at a quiet
    moment, so that the referee's appends only ever write and sync the log.

    Durability is unchanged: an append is on disk once its commit has synced the log
    (``synchronous=FULL``); a checkpoint only moves committed pages into the main file. The
    checkpoint is PASSIVE (it never waits for, nor blocks, the writer or the readers). It runs
    once :attr:`EVERY` commits are in the log and no append has come for :attr:`QUIET` seconds
    (a referee's events come seconds apart), so its writing and syncing of the main file does
    not share the disk with an append's sync; should appends never pause, it runs anyway once
    :attr:`AT_MOST` commits wait.
    """

    #: Commits between checkpoints: about five pages each, so about SQLite's own default.
    EVERY = 200
    #: Seconds without an append that make a quiet moment.
    QUIET = 0.25
    #: Commits after which a checkpoint runs even with no quiet moment (about 20 MB of log).
    AT_MOST = 1000

    def __init__(self, path: str, clock: Callable[[], float] = _time.monotonic) -> None:
        self._path = path
        self._clock = clock
        self._pending = 0
        self._last_commit = 0.0
        self._closed = False
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None  # started by the first checkpoint due
        self.checkpoints = 0

    def committed(self) -> None:
        """One more commit in the log; wakes the checkpointer every :attr:`EVERY` of them."""
        with self._wake:
            self._pending += 1
            self._last_commit = self._clock()
            if self._pending < self.EVERY or self._closed:
                return
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="record-checkpoint", daemon=True
                )
                self._thread.start()
            self._wake.notify()

    def _due(self) -> float:
        """Seconds until a checkpoint is due (0: now); called under the lock."""
        if self._pending < self.EVERY:
            return float("inf")
        if self._pending >= self.AT_MOST:
            return 0.0
        return max(0.0, self._last_commit + self.QUIET - self._clock())

    def _loop(self) -> None:
        try:
            connection = sqlite3.connect(self._path, isolation_level=None)
        except sqlite3.Error:
            return  # the writer's own close-time checkpoint still runs
        try:
            while True:
                with self._wake:
                    while not self._closed and (wait := self._due()) > 0:
                        self._wake.wait(None if wait == float("inf") else wait)
                    if self._closed:
                        return
                    self._pending = 0
                # Busy or I/O trouble: the log simply stays longer, until the next try.
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
        finally:
            connection.close()

    def close(self) -> None:
        """Stop the thread (an unfinished checkpoint first ends; the writer's close then
        checkpoints everything)."""
        with self._wake:
            self._closed = True
            self._wake.notify()
            thread = self._thread
        if thread is not None:
            thread.join()


def _event(path: str, sequence: int, time: float, type_: str, data: str) -> Event:
    """One stored event; a row that no event can be (a foreign or damaged writer's) is refused."""
    where = f"event {sequence} in {path!r}"
    try:
        payload = json.loads(data)
    except (TypeError, ValueError):
        raise RecordCorruptError(f"{where} holds data that is not JSON: {data!r:.60}") from None
    if not isinstance(payload, dict):
        raise RecordCorruptError(f"{where} holds {type(payload).__name__} data, not an object")
    try:
        return Event(type_, payload, float(time), int(sequence))
    except (TypeError, ValueError) as error:
        raise RecordCorruptError(
            f"{where}: {error}; this program does not know it (a newer version's record?)"
        ) from None


def _match_row(row: tuple[Any, ...]) -> dict[str, Any]:
    match_id, players, length, score, started, finished, games = row
    return {
        "id": match_id,
        "players": json.loads(players) if players is not None else None,
        "length": length,
        "score": json.loads(score) if score is not None else [0, 0],
        "started": started,
        "finished": finished,
        "games": games,
    }


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat(timespec="seconds")


def _lock_file(path: Path) -> int:
    """Take the writer's lock on ``path`` (an advisory ``flock``, released when the process ends
    however it ends); returns the descriptor that holds it.

    ``flock`` locks are apart from the POSIX locks SQLite takes on the same file, so they do not
    disturb each other. Raises :class:`RecordInUseError` when another writer holds it.
    """
    try:
        handle = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise RecordError(f"cannot open the event log {str(path)!r}: {error.strerror}") from error
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        raise RecordInUseError(
            f"the record {str(path)!r} is in use by another sheshbesh process (run, demo or"
            " replay): stop it first, or give another record"
        ) from None
    except OSError as error:
        os.close(handle)
        raise RecordError(f"cannot lock the event log {str(path)!r}: {error.strerror}") from error
    return handle


def _check_header(path: Path, *, must_exist: bool = False) -> None:
    """Refuse a file that does not start like an SQLite database (an empty one included), before
    SQLite opens it; with ``must_exist`` also a missing file."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        if must_exist:
            raise RecordError(f"no event log at {str(path)!r}") from None
        return
    except IsADirectoryError:
        raise RecordError(f"{str(path)!r} is a folder, not an event log") from None
    except OSError as error:
        raise RecordError(f"cannot read the event log {str(path)!r}: {error.strerror}") from error
    if not head:
        raise RecordCorruptError(
            f"{str(path)!r} is an empty file (0 bytes), not an event log; it was left untouched"
            " (remove it to start a new record there)"
        )
    if head != SQLITE_HEADER:
        raise RecordCorruptError(
            f"{str(path)!r} is not an SQLite event log (it starts with {head[:8]!r}); "
            "it was left untouched"
        )
