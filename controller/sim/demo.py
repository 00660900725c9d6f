"""The demo pipeline as a library: a match file acted out as frames through vision and the referee.

The demo runs on the live table's own parts (:class:`controller.table.assembly.LiveTable`):
:func:`prepare` starts its runner and table on the stage's camera, :func:`play_match` feeds it the
rendered frames. ``sheshbesh demo`` uses both (and adds the panel's server, the terminal and the
log file); the pipeline benchmarks use :func:`prepare` and feed their own frames.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from controller.events import Event
from controller.lights import FakeLights
from controller.record.matfile import MatchFile
from controller.record.store import Record
from controller.referee import ButtonPressed, MatchSettings, NewMatch
from controller.sim.director import (
    FAST_TIMING,
    DirectorError,
    Shot,
    Timing,
    check_match,
    direct_match,
)
from controller.sim.stage import DemoControls, Image, Stage, calibrated_reader
from controller.table.assembly import FrameClock, LiveTable
from controller.table.runner import Runner
from controller.table.table import Table
from vision.synth.render import DrawnSceneError

Part = TypeVar("Part")


@dataclass
class DemoRun:
    """What a demo run made: the live table it drives, the demo's camera, the match's id."""

    live: LiveTable
    stage: Stage
    match_id: str
    controls: DemoControls

    @property
    def record(self) -> Record:
        return self._part(self.live.record)

    @property
    def runner(self) -> Runner:
        return self._part(self.live.runner)

    @property
    def table(self) -> Table:
        return self._part(self.live.table)

    @property
    def clock(self) -> FrameClock:
        return self.live.clock

    def result(self) -> dict[str, Any]:
        return results_of(self.record.events(self.match_id))

    @staticmethod
    def _part(part: Part | None) -> Part:
        assert part is not None, "prepare() opens the record, the runner and the table"
        return part


def results_of(events: list[Event]) -> dict[str, Any]:
    """The match's game results and final score, from its recorded events (the demo's last line)."""
    games: list[dict[str, Any]] = []
    score = [0, 0]
    for event in events:
        if event.type == "game_won":
            games.append(
                {
                    "game": event.data.get("game"),
                    "winner": event.data.get("winner"),
                    "points": event.data.get("points"),
                }
            )
            after = event.data.get("score")
            if isinstance(after, list) and len(after) == 2:
                score = [int(after[0]), int(after[1])]
    return {"games": games, "score": score}


def prepare(
    match: MatchFile,
    live: LiveTable,
    *,
    seed: int = 7,
    match_id: str | None = None,
    settle_seconds: float = 0.4,
    settings: MatchSettings | None = None,
) -> DemoRun:
    """Calibrate the demo's camera, start ``live``'s runner and table (its record, lights and
    panel opened already) and start the match (with ``settings`` when given, e.g. the room
    director's assignment; else the match file's own).

    Raises :class:`controller.sim.director.DirectorError` (naming the game, the move and the reason)
    when a play or cube action of ``match`` cannot be acted out, before anything is recorded.
    """
    check_match(match)
    stage = Stage(seed=seed)
    reader = calibrated_reader(stage, settle_seconds)
    runner = live.start_runner()
    live.open_table(reader)
    identifier = match_id or f"demo-{int(time.time() * 1000)}"
    if settings is None:
        settings = MatchSettings(
            players=match.players,
            length=match.length,
            crawford=True,
            jacoby=match.length == 0,
            policy="tournament",
            hints=True,
            match_id=identifier,
        )
    elif settings.match_id is None:
        settings = dataclasses.replace(settings, match_id=identifier)
    identifier = settings.match_id or identifier
    runner.feed(NewMatch(settings))
    return DemoRun(live, stage, identifier, DemoControls(runner, stage))


def open_demo_table(
    live: LiveTable, record: str | os.PathLike[str], *, panel: bool = False
) -> LiveTable:
    """The demo's parts of ``live`` before :func:`prepare`: fake lights, the record at ``record``,
    the panel's hub when ``panel``. For the benchmarks and tests that act a match out in-process."""
    live.open_lights(FakeLights)
    live.open_record(record)
    if panel:
        live.open_panel()
    return live


def play_match(
    demo: DemoRun,
    match: MatchFile,
    *,
    speed: float | None = None,
    fps: float = 10.0,
    timing: Timing | None = None,
) -> dict[str, Any]:
    """Act out ``match`` frame by frame; ``speed`` None runs as fast as it goes. Returns results."""
    pace = timing or (FAST_TIMING if speed is None else Timing())
    started = time.monotonic()
    for shot in direct_match(match, pace):
        frames = max(1, round(shot.seconds * fps))
        for image in _frames(demo.stage, shot, frames):
            demo.clock.now += 1.0 / fps
            demo.controls.latest = image
            demo.table.frame(image, demo.clock.now)
            if speed is not None:
                delay = started + demo.clock.now / speed - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
        if shot.resign is not None:
            # Offered on the panel, accepted with the opponent's button.
            demo.runner.resign(*shot.resign)
            demo.runner.feed(ButtonPressed("accept"))
    return demo.result()


def _frames(stage: Stage, shot: Shot, count: int) -> Iterator[Image]:
    """The stage's frames of ``shot``; a table the renderer cannot draw is a :class:`DirectorError`
    naming the moment (the game and the move), not a traceback."""
    try:
        yield from stage.frames(shot, count)
    except DrawnSceneError as error:
        raise DirectorError(f"{shot.caption}: the board cannot be drawn ({error})") from error


def write_frames(
    match: MatchFile,
    folder: Path,
    *,
    seed: int = 7,
    fps: float = 10.0,
    shots: slice = slice(None),
    timing: Timing | None = None,
) -> Path:
    """Render the shots of ``match`` (a slice of them) as numbered JPEG frames in ``folder``.

    Also writes ``calibration.json`` from the stage's starting position, so that ``sheshbesh run
    --camera FOLDER --calibration FOLDER/calibration.json`` replays them. Returns the calibration path.
    """
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    stage = Stage(seed=seed)
    calibration = calibrated_reader(stage).calibration
    path = folder / "calibration.json"
    calibration.save(path)
    index = 0
    for shot in list(direct_match(match, timing or FAST_TIMING))[shots]:
        for image in stage.frames(shot, max(1, round(shot.seconds * fps))):
            cv2.imwrite(
                str(folder / f"frame-{index:05d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92]
            )
            index += 1
    return path
