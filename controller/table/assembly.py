"""One live table put together: the parts that ``sheshbesh run`` and ``sheshbesh demo`` both open.

The two commands open the same parts in the same order: the lights (and the buttons), the record,
the room's link, the panel's hub with the table's health, the runner over the referee, the post-game
analyst, the :class:`~controller.table.table.Table` that takes each frame, and the panel's server.
However the run ends (the frames run out, Ctrl-C, SIGTERM, or a part that refuses to open), every
part opened so far must be closed, the last opened first: the server stops before the record it
reads from closes, the room's link finishes sending before the record goes, the lights go dark last.
:class:`LiveTable` owns them all and does exactly that as a context manager.

The commands differ only in what they hand over: real or fake lights, buttons or none, a calibrated
camera's reader or the demo stage's, the panel's controls, and where the frames come from
(:meth:`LiveTable.watch_camera` for a camera, video or folder; the simulation feeds
:attr:`LiveTable.table` its rendered frames itself).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Callable, Collection, Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

from controller.events import Event
from controller.lights.base import Buttons, Lights
from controller.lights.errors import LightsError
from controller.network import options as room
from controller.record.store import Record, RecordError
from controller.referee import ButtonPressed, ClockSettings
from controller.table.health import Health, leds_health
from controller.table.panel import StatusPanel, serve_panel
from controller.table.runner import Runner
from controller.table.table import BoardReader, Capture, Table, progress_line
from sheshbesh.closing import Closing
from sheshbesh.errors import SheshbeshError

log = logging.getLogger("sheshbesh")
Part = TypeVar("Part")


class TableError(SheshbeshError):
    """A part of the table cannot be opened, or the record cannot be resumed; the message names
    the part and the reason (the command prints it after its own name)."""


class FrameClock:
    """The time of the frame being read: the runner's clock.

    A live camera's frames carry the wall clock; a video, a folder of frames or the demo's renderer
    carry their own time from 0, so the record's times follow the frames, not the machine.

    >>> clock = FrameClock(10.0)
    >>> clock.now += 0.5
    >>> clock()
    10.5
    """

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def resume_problem(record: Record) -> str | None:
    """Why the record's current match cannot be resumed, or None: the same checks as
    ``sheshbesh export``, so ``run`` never carries on past an event ``export`` refuses."""
    match = record.current_match
    if match is None:
        return None
    try:
        problems = record.check(match)
    except RecordError as error:
        return f"{error}; the record was left untouched"
    if not problems:
        return None
    shown = "; ".join(problems[:3]) + (
        f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
    )
    return (
        f"the record {record.path!r} cannot be resumed: match {match!r} has {len(problems)}"
        f" problem(s), as `sheshbesh export {match}` reports: {shown}. It was left untouched."
    )


class LiveTable(Closing):
    """The parts of one table, each opened by one method and closed, in reverse order, on exit.

    ``command`` names the table's command in messages (``run``, ``demo``); ``progress`` lists the
    event types that print the match's summary line on the terminal (none: quiet); ``room_linger``
    is how long closing waits for the room's hub to hold every event (:func:`room.finish`).
    A part that cannot be opened raises :class:`TableError`; the parts opened before it are closed
    when the ``with`` block ends, as on any other exit.
    """

    def __init__(
        self,
        command: str,
        *,
        clock: FrameClock | None = None,
        health: Health | None = None,
        progress: Collection[str] = (),
        room_linger: float = 0.0,
    ) -> None:
        self.command = command
        self.clock = clock or FrameClock()
        self.health = health or Health()
        self.progress = frozenset(progress)
        self.room_linger = room_linger
        self.lights: Lights | None = None
        self.buttons: Buttons | None = None
        self.record: Record | None = None
        self.link: Any = None
        self.hub: Any = None
        self.runner: Runner | None = None
        self.analyst: Any = None
        self.table: Table | None = None
        self.server: Any = None
        #: frames fed to the table by :meth:`watch_camera` so far
        self.frames_read = 0
        self._panels: list[Any] = []
        self._parts = ExitStack()

    def close(self) -> None:
        """Close every part opened so far, the last opened first (each one even if another fails)."""
        self._parts.close()

    # -- the parts, in the order both commands open them -------------------------------------

    def open_lights(self, opener: Callable[[], Lights]) -> Lights:
        """The LEDs (``controller.lights.open_lights``, or fake ones)."""
        try:
            lights = opener()
        except (LightsError, OSError, ValueError) as error:
            raise TableError(f"the lights could not be opened: {error}") from error
        self._own(lights)
        self.lights = lights
        return lights

    def open_buttons(self, opener: Callable[[Callable[[str], None]], Buttons]) -> Buttons:
        """The buttons; ``opener`` gets the callback a press goes to (the referee, once it runs)."""
        try:
            buttons = opener(self.press)
        except (LightsError, OSError, ValueError) as error:
            raise TableError(f"the buttons could not be opened: {error}") from error
        self._own(buttons)
        self.buttons = buttons
        return buttons

    def press(self, name: str) -> None:
        """A button pressed: to the referee, or nowhere while the runner is not started yet."""
        if self.runner is not None:
            self.runner.feed(ButtonPressed(name))

    def open_record(self, path: str | os.PathLike[str], *, resume: bool = False) -> Record:
        """The record; with ``resume``, refused (and left untouched) when its current match has a
        problem ``sheshbesh export`` would refuse."""
        try:
            record = Record(path)
        except RecordError as error:
            raise TableError(str(error)) from error
        self._own(record)
        self.record = record
        if resume:
            refusal = resume_problem(record)
            if refusal:
                raise TableError(refusal)
        return record

    def join_room(
        self,
        args: argparse.Namespace,
        *,
        network: Any = None,
        on_command: Callable[[dict[str, Any]], None] | None = None,
    ) -> Any:
        """The room's link from ``--broker/--table`` (or ``[network]``), None outside a room; it
        gets every snapshot the panel gets. Exits (status 2) on a bad broker or table name."""
        record = self._opened(self.record, "the record")
        link = room.open_link(
            args, record.path, command=self.command, network=network, on_command=on_command
        )
        if link is not None:
            self._parts.callback(self.leave_room)
            self.link = link
            self._panels.append(link)
        return link

    def leave_room(self, linger: float | None = None) -> None:
        """Wait up to ``linger`` s (default ``room_linger``) for the hub to hold every event, then
        close the link. Closing the table does it once more only if nobody did it before."""
        link, self.link = self.link, None
        room.finish(
            link, linger=self.room_linger if linger is None else linger, command=self.command
        )

    def open_panel(self) -> Any:
        """The panel's hub (``web.hub.PanelHub``): every snapshot with the table's health."""
        from web.hub import PanelHub

        self.hub = PanelHub()
        self.health.hub = self.hub
        self._panels.append(StatusPanel(self.hub, self.health))
        return self.hub

    def start_runner(
        self,
        *,
        match_clock: ClockSettings | None = None,
        language: str = "",
        follow_director: bool = False,
    ) -> Runner:
        """The runner over the record's referee, resumed where the record left it; its lights and
        panels are the parts opened so far. With ``follow_director`` the room's director may assign
        the next match, and the link's health shows on the panel."""
        record = self._opened(self.record, "the record")
        lights = [] if self.lights is None else [self.lights]
        runner = Runner.resume(
            record,
            clock=self.clock,
            lights=lights,
            panels=self._panels,
            match_clock=match_clock,
            language=language,
        )
        self.runner = runner
        if follow_director:
            room.follow_director(self.link, runner)
            room.report_health(self.link, self.health.set)
        return runner

    def open_analyst(self, level: str = "0ply") -> Any:
        """Post-game analysis beside the table (``controller.game_analyst.GameAnalyst``)."""
        from controller.game_analyst import GameAnalyst

        analyst = GameAnalyst(self._opened(self.record, "the record"), level)
        self._own(analyst)
        self.analyst = analyst
        self.health.set("analysis", analyst.status, publish=False)
        return analyst

    def open_table(
        self,
        reader: BoardReader,
        capture: Capture | None = None,
    ) -> Table:
        """The table that takes each frame through ``reader`` to the runner."""
        runner = self._opened(self.runner, "the runner")
        self.table = Table(reader, runner, on_event=self._recorded, capture=capture)
        return self.table

    def serve_panel(
        self,
        controls: Any,
        host: str,
        port: int,
        exports: str | Path,
        settings: Mapping[str, Any] | None = None,
    ) -> Any:
        """Serve the panel over the hub and the record (a thread); raises
        :class:`~controller.table.panel.PanelStartError` when it cannot listen there."""
        server = serve_panel(
            self._opened(self.hub, "the panel's hub"),
            controls,
            self._opened(self.record, "the record"),
            host,
            port,
            exports,
            panel=settings,
        )
        self._own(server, closer="stop")
        self.server = server
        return server

    # -- frames ----------------------------------------------------------------------------------

    def watch_camera(
        self,
        spec: str,
        *,
        camera: Any,
        leds_kind: str,
        reconnect_seconds: float,
        give_up_after: float = 0.0,
        frames: int = 0,
        stopped: Callable[[], bool] = lambda: False,
    ) -> int:
        """Feed the table the frames of camera ``spec`` (``[camera]`` settings in ``camera``) until
        ``frames`` frames (0: no limit), ``stopped()``, the end of a video or folder, or a camera
        lost longer than ``give_up_after`` s (0: never); a lost camera is reopened every
        ``reconnect_seconds``. Returns the number of frames read (also :attr:`frames_read`)."""
        from vision.errors import VisionError
        from vision.sources import is_live, open_source

        table = self._opened(self.table, "the table")
        lost_since: float | None = None
        live_camera = is_live(spec)  # a USB or Pi camera: frames carry wall-clock time
        while not stopped():
            try:
                source = open_source(
                    spec,
                    resolution=(camera.width, camera.height),
                    fps=camera.fps,
                    exposure=camera.exposure or None,  # 0: automatic
                )
            except VisionError as error:
                lost_since = lost_since or time.monotonic()
                self._camera("lost")
                self.health.set("leds", leds_health(self.lights, leds_kind))
                log.warning("camera: %s", error)
                if give_up_after and time.monotonic() - lost_since > give_up_after:
                    print(f"sheshbesh {self.command}: camera lost: {error}", file=sys.stderr)
                    break
                time.sleep(reconnect_seconds)
                continue
            lost_since = None
            self._camera("ok")
            offset = time.time()
            try:
                for frame in source:
                    self.clock.now = time.time() if live_camera else offset + frame.time
                    self.health.set("leds", leds_health(self.lights, leds_kind))
                    table.frame(frame.image, self.clock.now)
                    # the panel says so when the camera runs but does not show the board
                    self._camera("ok" if table.status.board_seen else "board not seen")
                    self.frames_read += 1
                    if stopped() or (frames and self.frames_read >= frames):
                        return self.frames_read
            except VisionError as error:
                log.warning("camera: %s", error)
                self._camera("lost")
            finally:
                source.close()
            if not live_camera:
                break  # a folder or a video has ended
        return self.frames_read

    # -- inside ------------------------------------------------------------------------------

    def _own(self, part: Any, closer: str = "close") -> None:
        """Close ``part`` on exit, after the parts opened later (its closer looked up then)."""
        self._parts.callback(lambda: getattr(part, closer)())

    def _camera(self, state: str) -> None:
        if self.table is not None:
            self.table.status.camera = state
        self.health.set("camera", state)

    def _recorded(self, event: Event) -> None:
        """Every recorded event: the log, the analyst, and the terminal's progress line."""
        log.info("%s %s", event.type, event.to_json())
        if self.analyst is not None:
            self.analyst.on_event(event)
        if event.type in self.progress and self.runner is not None:
            print(progress_line(self.runner.referee.snapshot()) + f"  [{event.type}]", flush=True)

    @staticmethod
    def _opened(part: Part | None, name: str) -> Part:
        if part is None:
            raise TableError(f"{name} is not open yet")  # a command that opens parts out of order
        return part
