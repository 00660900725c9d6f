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
from typing import Any

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

log = logging.getLogger("sheshbesh")


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


def resume_problem(record: Any) -> str | None:
    """Why the record's current match cannot be resumed, or None: the same checks as
    ``sheshbesh export``, so ``run`` never carries on past an event ``export`` refuses."""
    from controller.record import RecordError

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


def leds_health(lights: Any, kind: str) -> str:
    """The LEDs for the panel's status: "none" when there are none, else "ok" or "lost"."""
    if kind == "none":
        return "none"
    return "ok" if getattr(lights, "is_connected", True) else "lost"


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
    from controller.events import Event
    from controller.lights import LightsError, open_buttons, open_lights
    from controller.record import Record, RecordError
    from controller.referee import ButtonPressed
    from controller.referee.clock import settings_from_config
    from controller.table.reader import VisionReader
    from controller.table.runner import Runner, favour_the_referee
    from controller.table.table import PanelStartError, StatusPanel, Table, serve_panel, summary_of
    from vision.errors import VisionError
    from vision.field_board import load_calibration
    from vision.sources import is_live, open_source

    try:
        calibration = load_calibration(calibration_path)
    except (VisionError, OSError, ValueError) as error:
        print(
            f"sheshbesh run: {error}\n"
            f"make one with: sheshbesh calibrate --camera {source_spec} --out {calibration_path}",
            file=sys.stderr,
        )
        return 2
    # Everything that can refuse is asked before the record is touched: the panel's port, the
    # lights and the buttons, then the record itself (its lock and the match it resumes).
    panel_wanted = config.panel.enabled and not args.no_panel
    port = args.port if args.port is not None else config.panel.port
    if panel_wanted:
        problem = port_problem(config.panel.host, port)
        if problem:
            print(f"sheshbesh run: {problem} ([panel] port, or --port)", file=sys.stderr)
            return 2
    try:
        lights = open_lights(config.lights)
    except (LightsError, OSError, ValueError) as error:
        print(f"sheshbesh run: the lights could not be opened: {error}", file=sys.stderr)
        return 2
    runner_box: list[Any] = []

    def pressed(name: str) -> None:
        if runner_box:
            runner_box[0].feed(ButtonPressed(name))

    try:
        buttons = open_buttons(
            {
                "kind": config.buttons.kind,
                "port": config.lights.port,
                "pinmap": config.lights.pinmap,
            },
            on_press=pressed,
            lights=lights,
        )
    except (LightsError, OSError, ValueError) as error:
        lights.close()
        print(f"sheshbesh run: the buttons could not be opened: {error}", file=sys.stderr)
        return 2
    try:
        record = Record(database)
    except RecordError as error:
        buttons.close()
        lights.close()
        print(f"sheshbesh run: {error}", file=sys.stderr)
        return 2
    refusal = resume_problem(record)
    if refusal:
        record.close()
        buttons.close()
        lights.close()
        print(f"sheshbesh run: {refusal}", file=sys.stderr)
        return 2

    link = room.open_link(args, database, command="run", network=config.network)
    panels: list[Any] = [] if link is None else [link]
    server = None
    hub = None
    health = {
        "camera": "none",
        "leds": "none" if config.lights.kind == "none" else "ok",
        "analysis": "off",
    }
    if panel_wanted:
        from web.hub import PanelHub

        hub = PanelHub()
        panels.append(StatusPanel(hub, lambda: dict(health)))

    def set_health(device: str, value: str) -> None:
        """Show a device's change on the panel at once, not only with the next event."""
        if health.get(device) == value:
            return
        health[device] = value
        log.info("%s: %s", device, value)
        if hub is not None:
            _, state = hub.snapshot()
            state["status"] = {**dict(state.get("status") or {}), **health}
            hub.publish(state)

    now = [time.time()]
    if panel_wanted:
        favour_the_referee()
    try:
        runner = Runner.resume(
            record,
            clock=lambda: now[0],
            lights=[lights],
            panels=panels,
            match_clock=settings_from_config(config.clock),
            language=config.panel.language,  # what a speaker hears: the table's language
        )
        runner_box.append(runner)
        room.follow_director(link, runner)
        room.report_health(link, set_health)
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
        record.close()
        buttons.close()
        lights.close()
        print(f"sheshbesh run: cannot resume from {database}: {error}", file=sys.stderr)
        return 2

    analyst = None
    if config.analysis.enabled:
        from controller.game_analyst import GameAnalyst

        analyst = GameAnalyst(record, config.analysis.level)
        health["analysis"] = analyst.status

    def progress(event: Event) -> None:
        log.info("%s %s", event.type, event.to_json())
        if analyst is not None:
            analyst.on_event(event)
        if event.type in (
            "play",
            "game_won",
            "match_won",
            "illegal_play",
            "board_mismatch",
            "cube_offered",
        ):
            print(summary_of(runner.referee.snapshot()) + f"  [{event.type}]", flush=True)

    capture = None
    if args.capture:
        from controller.table.table import DatasetCapture

        try:
            capture = DatasetCapture(args.capture)
            # the calibration goes with the frames, so the folder can be read again as it was
            shutil.copyfile(calibration_path, Path(args.capture) / "calibration.json")
        except OSError as error:
            print(f"sheshbesh run: --capture {args.capture!r}: {error}", file=sys.stderr)
            return 2
    table = Table(
        VisionReader(calibration, config.vision.settle_seconds),
        runner,
        on_event=progress,
        capture=capture,
    )
    if hub is not None:
        from controller.table.controls import LiveControls

        controls = LiveControls(runner, table, calibration_path)
        try:
            server = serve_panel(
                hub,
                controls,
                record,
                config.panel.host,
                port,
                config.record.exports,
                panel=dataclasses.asdict(config.panel),
            )
        except PanelStartError as error:
            print(f"sheshbesh run: {error} ([panel] port, or --port)", file=sys.stderr)
            return 2
        print(f"panel: {server.url}/", flush=True)
    print(f"record: {database}", flush=True)

    stop = _Stop()
    signal.signal(signal.SIGTERM, stop)
    frames = 0
    lost_since: float | None = None
    live_camera = is_live(source_spec)  # a USB or Pi camera: frames carry wall-clock time
    try:
        while not stop.requested:
            try:
                source = open_source(
                    source_spec,
                    resolution=(config.camera.width, config.camera.height),
                    fps=config.camera.fps,
                    exposure=config.camera.exposure or None,  # 0: automatic
                )
            except VisionError as error:
                lost_since = lost_since or time.monotonic()
                table.status.camera = "lost"
                set_health("camera", "lost")
                set_health("leds", leds_health(lights, config.lights.kind))
                log.warning("camera: %s", error)
                if args.give_up_after and time.monotonic() - lost_since > args.give_up_after:
                    print(f"sheshbesh run: camera lost: {error}", file=sys.stderr)
                    break
                time.sleep(args.reconnect_seconds)
                continue
            lost_since = None
            table.status.camera = "ok"
            set_health("camera", "ok")
            offset = time.time()
            try:
                for frame in source:
                    now[0] = time.time() if live_camera else offset + frame.time
                    set_health("leds", leds_health(lights, config.lights.kind))
                    table.frame(frame.image, now[0])
                    frames += 1
                    if stop.requested or (args.frames and frames >= args.frames):
                        stop.requested = True
                        break
            except VisionError as error:
                log.warning("camera: %s", error)
                table.status.camera = "lost"
                set_health("camera", "lost")
            finally:
                source.close()
            if not live_camera and not stop.requested:
                break  # a folder or a video has ended
    except KeyboardInterrupt:
        pass
    finally:
        if analyst is not None:
            analyst.close()
        buttons.close()
        lights.close()
        if server is not None:
            server.stop()
        room.finish(link, linger=5.0, command="run")
        record.close()
    print(f"stopped after {frames} frames; the record keeps everything", flush=True)
    return 0
