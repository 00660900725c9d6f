"""Shared by the room tests and the load benchmark: a real mosquitto and simulated tables.

:class:`Broker` runs ``mosquitto`` on a free loopback port with a config file written for the
test, and can kill it (SIGKILL, as a power cut would) and start it again on the same port.
:class:`SimulatedTable` is a table without a camera: a real record, the real referee fed the inputs
a perfectly read board gives for a recorded match (``controller.sim.replay.referee_inputs``), and the
real :class:`~controller.network.link.TableLink`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from controller.network.link import TableLink
from controller.record.matfile import read_mat
from controller.record.rules_replay import replay_records
from controller.record.store import Record
from controller.sim.replay import referee_inputs
from controller.table.runner import Runner

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
)


def free_port() -> int:
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Any, timeout: float, what: str, step: float = 0.05) -> None:
    """Poll ``condition()`` until true; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(step)


class Broker:
    """A mosquitto process on 127.0.0.1 for one test; ``extra`` lines go into its config."""

    def __init__(self, folder: Path, *, port: int | None = None, extra: str = "") -> None:
        assert MOSQUITTO is not None, "mosquitto is not installed"
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.config = self.folder / "mosquitto.conf"
        self.log = self.folder / "mosquitto.log"

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> Broker:
        lines = [f"listener {self.port} 127.0.0.1"]
        if os.geteuid() == 0:
            # Started as root, mosquitto would become the 'mosquitto' user, who cannot read the
            # test's private temporary folder (passwords, certificates).
            lines.insert(0, "user root")
        if "allow_anonymous" not in self.extra:
            lines.append("allow_anonymous true")
        lines.append(self.extra)
        self.config.write_text("\n".join(lines) + "\n")
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(MOSQUITTO), "-c", str(self.config)], stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 10
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"mosquitto exited: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("mosquitto did not start listening") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no goodbye to anyone, retained messages not saved (as a power cut)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        """SIGTERM: mosquitto says goodbye and, with ``persistence true``, saves its state."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def restart(self, *, graceful: bool = False) -> None:
        if graceful:
            self.stop()
        else:
            self.kill()
        self.start()

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.kill()


class SimulatedTable:
    """A table playing ``match_text`` with a perfect eye, publishing as ``name`` to ``broker_url``."""

    def __init__(
        self,
        folder: Path,
        name: str,
        match_text: str,
        broker_url: str,
        *,
        room: str = "room",
        match_id: str | None = None,
    ) -> None:
        self.name = name
        self.path = folder / f"{name}.sqlite"
        self.record = Record(self.path)
        self.match = read_mat(match_text)
        self.link = TableLink(self.path, broker_url, name, room=room)
        self.clock = [0.0]
        self.runner = Runner.resume(self.record, clock=lambda: self.clock[0], panels=[self.link])
        self.inputs = list(referee_inputs(self.match, match_id=match_id or f"{name}-match"))
        self.fed = 0

    def start(self) -> SimulatedTable:
        self.link.start()
        return self

    def feed(self, count: int | None = None) -> int:
        """Feed the next ``count`` inputs (all that are left by default); returns how many."""
        end = len(self.inputs) if count is None else min(len(self.inputs), self.fed + count)
        done = 0
        while self.fed < end:
            self.clock[0] += 1.0
            self.runner.feed(self.inputs[self.fed])
            self.fed += 1
            done += 1
        return done

    @property
    def finished(self) -> bool:
        return self.fed >= len(self.inputs)

    def expected_score(self) -> list[int]:
        return list(next(r for r in replay_records(self.match) if r["type"] == "match")["score"])

    def close(self) -> None:
        self.link.close()
        self.record.close()


def fill_mirror(mirror: Any, table: SimulatedTable, *, upto: int | None = None) -> None:
    """Put ``table``'s recorded events (the first ``upto``) and latest snapshot into ``mirror``
    directly, as the hub would after receiving them (page tests need no broker)."""
    import json
    import sqlite3

    from controller.network.link import record_id
    from controller.network.topics import WireEvent

    with contextlib.closing(sqlite3.connect(table.path)) as connection:
        rows = connection.execute(
            "SELECT sequence, match_id, time, type, data FROM events ORDER BY sequence"
        ).fetchall()
    record = record_id(rows[0])
    previous = 0
    for sequence, match, when, kind, data in rows[:upto]:
        event = WireEvent(record, sequence, previous, match, kind, when, json.loads(data))
        assert mirror.add(table.name, event) == "stored"
        previous = sequence
    mirror.set_presence(table.name, True, record)
    mirror.set_snapshot(table.name, record, table.runner.referee.snapshot())
