"""``sheshbesh run``: the real table: camera, vision, referee, lights, buttons, panel and record.

Every setting comes from one TOML file (``--config``; ``deploy/sheshbesh.toml`` documents each);
the flags below override the few that are handy to change for one run. After a crash or a power cut
the same command resumes the match where the record left it. A camera that stops delivering frames
is reopened every few seconds; the panel shows that the camera is lost meanwhile.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import shutil
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from controller.commands.arguments import (
    non_negative_number,
    port,
    port_problem,
    positive_number,
    whole_number,
)
from controller.network import options as room
from controller.table.config import Config, ConfigError, load_config
from sheshbesh.errors import SheshbeshError

if TYPE_CHECKING:
    from controller.table.assembly import LiveTable

log = logging.getLogger("sheshbesh")
#: The events that print the match's summary line on the terminal.
PROGRESS = ("play", "game_won", "match_won", "illegal_play", "board_mismatch", "cube_offered")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", metavar="FILE", help="the settings file (TOML); default: built-in defaults"
    )
    parser.add_argument(
        "--camera",
        metavar="0|PATH",
        help="camera index, /dev/video* path, video file or folder of frames (overrides [camera] source)",
    )
    parser.add_argument(
        "--calibration", metavar="FILE", help="calibration file (overrides [vision] calibration)"
    )
    parser.add_argument(
        "--db", metavar="FILE", help="the record, SQLite (overrides [record] database)"
    )
    parser.add_argument("--port", type=port, help="panel port (overrides [panel] port)")
    parser.add_argument("--no-panel", action="store_true", help="do not serve the panel")
    parser.add_argument(
        "--frames",
        type=whole_number(0, 2**62),
        default=0,
        metavar="N",
        help="stop after N frames (0: run until stopped)",
    )
    parser.add_argument(
        "--capture",
        metavar="DIR",
        help="save each frame on which a play was committed, labelled with the position (a test set)",
    )
    parser.add_argument(
        "--reconnect-seconds",
        type=positive_number(3600.0),
        default=3.0,
        help="wait between attempts to reopen a lost camera (default 3)",
    )
    parser.add_argument(
        "--give-up-after",
        type=non_negative_number(10**9),
        default=0.0,
        metavar="SECONDS",
        help="stop when the camera stays lost this long (0: keep trying; for tests and replays)",
    )
    room.add_arguments(parser)


def _settings(config: Config) -> dict[str, Any]:
    match = config.match
    return {
        "players": list(match.players),
        "length": match.length,
        "crawford": match.crawford,
        "jacoby": match.jacoby,
        "beavers": match.beavers,
        "policy": match.policy,
        "hints": match.hints,
        "variant": match.variant,
    }


class _Stop:
    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"sheshbesh run: {error}", file=sys.stderr)
        return 2
    source_spec = args.camera or config.camera.source
    calibration_path = Path(args.calibration or config.vision.calibration)
    database = Path(args.db or config.record.database)
    log_path = Path(config.record.log)
    for folder in (database.parent, log_path.parent):
        folder.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(log_path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)

    # Heavy imports only now: `sheshbesh run --help` stays fast.
    from controller.table.assembly import FrameClock, LiveTable, TableError
    from controller.table.health import Health
    from controller.table.panel import PanelStartError
    from vision.errors import VisionError
    from vision.field_board import load_calibration

    try:
        calibration = load_calibration(calibration_path)
    except (VisionError, OSError, ValueError) as error:
        print(
            f"sheshbesh run: {error}\n"
            f"make one with: sheshbesh calibrate --camera {source_spec} --out {calibration_path}",
            file=sys.stderr,
        )
        return 2
    panel_wanted = config.panel.enabled and not args.no_panel
    port = args.port if args.port is not None else config.panel.port
    if panel_wanted:
        problem = port_problem(config.panel.host, port)
        if problem:
            print(f"sheshbesh run: {problem} ([panel] port, or --port)", file=sys.stderr)
            return 2
    health = Health(
        camera="none", leds="none" if config.lights.kind == "none" else "ok", analysis="off"
    )
    try:
        # The record keeps wall-clock times (and a new match's id is made from them): a camera's
        # frames carry the wall clock, a recording's count from the moment it is opened, and
        # before the first frame the clock reads the moment the table is switched on.
        clock = FrameClock(time.time())
        with LiveTable(
            "run", clock=clock, health=health, progress=PROGRESS, room_linger=5.0
        ) as live:
            frames = _referee(args, config, live, calibration, calibration_path, database, port)
    except TableError as error:
        print(f"sheshbesh run: {error}", file=sys.stderr)
        return 2
    except PanelStartError as error:
        print(f"sheshbesh run: {error} ([panel] port, or --port)", file=sys.stderr)
        return 2
    print(f"stopped after {frames} frames; the record keeps everything", flush=True)
    return 0


def _referee(
    args: argparse.Namespace,
    config: Config,
    live: LiveTable,
    calibration: Any,
    calibration_path: Path,
    database: Path,
    port: int,
) -> int:
    """Open the table's parts, then referee the camera's frames; returns how many were read.

    Everything that can refuse is asked before the record is touched: the panel's port (asked
    already), the lights and the buttons, then the record itself (its lock and the match it
    resumes).
    """
    from controller.lights import open_buttons, open_lights
    from controller.referee.clock import settings_from_config
    from controller.table.assembly import TableError
    from controller.table.reader import VisionReader
    from controller.table.runner import favour_the_referee

    lights = live.open_lights(lambda: open_lights(config.lights))
    buttons = {
        "kind": config.buttons.kind,
        "port": config.lights.port,
        "pinmap": config.lights.pinmap,
    }
    live.open_buttons(lambda pressed: open_buttons(buttons, on_press=pressed, lights=lights))
    record = live.open_record(database, resume=True)
    live.join_room(args, network=config.network)
    panel_wanted = config.panel.enabled and not args.no_panel
    if panel_wanted:
        live.open_panel()
        favour_the_referee()
    try:
        runner = live.start_runner(
            match_clock=settings_from_config(config.clock),
            language=config.panel.language,  # what a speaker hears: the table's language
            follow_director=True,
        )
        if (
            record.current_match is None
            or runner.referee.snapshot()["match"].get("winner") is not None
        ):
            runner.new_match(_settings(config))
            log.info("new match started")
        else:
            log.info("resumed match %s", record.current_match)
            print(f"resumed the match in {database}", flush=True)
    except (SheshbeshError, ValueError) as error:
        raise TableError(f"cannot resume from {database}: {error}") from error
    if config.analysis.enabled:
        live.open_analyst(config.analysis.level)
    from vision.field_board import FieldCalibration, for_variant

    # the match played decides whether stacks stand on the points (Shesh Besh)
    calibration = for_variant(calibration, runner.referee.snapshot()["match"]["variant"])
    capture = None
    if args.capture:
        from controller.table.capture import DatasetCapture

        try:
            capture = DatasetCapture(args.capture)
            # the calibration goes with the frames, as it reads them, so the folder can be read
            # again as it was
            kept = Path(args.capture) / "calibration.json"
            if isinstance(calibration, FieldCalibration):
                calibration.save(kept)
            else:
                shutil.copyfile(calibration_path, kept)
        except OSError as error:
            raise TableError(f"--capture {args.capture!r}: {error}") from error
    table = live.open_table(VisionReader(calibration, config.vision.settle_seconds), capture)
    if panel_wanted:
        from controller.table.controls import LiveControls

        server = live.serve_panel(
            LiveControls(runner, table, calibration_path),
            config.panel.host,
            port,
            config.record.exports,
            dataclasses.asdict(config.panel),
        )
        print(f"panel: {server.url}/", flush=True)
    print(f"record: {database}", flush=True)

    stop = _Stop()
    signal.signal(signal.SIGTERM, stop)
    try:
        return live.watch_camera(
            args.camera or config.camera.source,
            camera=config.camera,
            leds_kind=config.lights.kind,
            reconnect_seconds=args.reconnect_seconds,
            give_up_after=args.give_up_after,
            frames=args.frames,
            stopped=lambda: stop.requested,
        )
    except KeyboardInterrupt:
        return live.frames_read
