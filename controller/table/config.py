"""One TOML file holds every setting of ``sheshbesh run``; every key has a default that works.

The documented example is ``deploy/sheshbesh.toml``. Unknown sections or keys are errors, so a typo
never silently falls back to a default.
"""

from __future__ import annotations

import ipaddress
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from sheshbesh.errors import SheshbeshError
from sheshbesh.language import LANGUAGES
from sheshbesh.match import MAX_LENGTH, POLICIES, VARIANTS, MatchSettings


class ConfigError(SheshbeshError, ValueError):
    """The configuration file is unreadable or holds a bad value; the message names it."""


@dataclass(frozen=True)
class CameraConfig:
    #: camera index ("0"), device path, video file or folder of frames
    source: str = "0"
    width: int = 1280
    height: int = 720
    #: manual exposure (V4L2 units); 0 leaves the camera on automatic
    exposure: int = 0
    #: frames a second to take from the camera
    fps: float = 10.0


@dataclass(frozen=True)
class VisionConfig:
    #: calibration file written by ``sheshbesh calibrate``
    calibration: str = "var/calibration.json"
    #: seconds the board must be still before a frame is trusted
    settle_seconds: float = 0.4


_MATCH = MatchSettings()


@dataclass(frozen=True)
class MatchConfig:
    """The ``[match]`` section: :class:`sheshbesh.match.MatchSettings`' defaults, except that a
    table set up for rated play lights no hints and plays money sessions without Jacoby."""

    players: tuple[str, str] = _MATCH.players
    #: points to win; 0 plays a money session
    length: int = _MATCH.length
    crawford: bool = _MATCH.crawford
    jacoby: bool = False
    beavers: bool = _MATCH.beavers
    #: "teaching", "tournament" or "condone"
    policy: str = _MATCH.policy
    #: light legal destinations (off in rated play: only illegal plays light)
    hints: bool = False
    #: "backgammon" or "sheshbesh"
    variant: str = _MATCH.variant


@dataclass(frozen=True)
class LightsConfig:
    #: "none", "fake", "pins" (LEDs on the Pi's own pins) or "serial" (strip on a microcontroller)
    kind: str = "fake"
    #: serial port of the LED controller
    port: str = "/dev/ttyACM0"
    #: pin map shared with the wiring diagram
    pinmap: str = "hardware/pinmap.toml"


@dataclass(frozen=True)
class ButtonsConfig:
    #: "none", "fake", "pins" or "serial"
    kind: str = "none"


@dataclass(frozen=True)
class PanelConfig:
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    #: scrypt hash of the admin PIN (``sheshbesh set-pin`` writes one); empty: the PIN file's
    pin_hash: str = ""
    #: send the session cookie over HTTPS only (set it when a proxy serves the panel on HTTPS)
    secure_cookies: bool = False
    #: networks never limited at the PIN (e.g. "192.168.1.0/24"; the Pi itself never is)
    trusted_networks: str = ""
    #: reverse proxies in front of the panel whose client address to believe (0: none)
    proxies: int = 0
    #: the café's language for the panel (one of sheshbesh.language.LANGUAGES); empty: each browser's own
    language: str = ""


@dataclass(frozen=True)
class AnalysisConfig:
    #: analyse each game when it ends (needs the ``analysis`` extra; skipped without it)
    enabled: bool = True
    #: engine depth: "0ply" (fast), "1ply" or "2ply"
    level: str = "0ply"


@dataclass(frozen=True)
class RecordConfig:
    #: the SQLite event log
    database: str = "var/sheshbesh.sqlite"
    #: folder for exported .mat files
    exports: str = "var/exports"
    #: the log file
    log: str = "var/sheshbesh.log"


@dataclass(frozen=True)
class NetworkConfig:
    #: the room's MQTT broker (mqtt://HOST[:PORT] or mqtts://HOST[:PORT]/?ca=FILE); empty: alone
    broker: str = ""
    #: this table's name in the room (also its broker user name when the broker checks passwords)
    table: str = ""
    #: the room's name: topics live under sheshbesh/ROOM/
    room: str = "room"
    #: broker user name (default: the one in the URL)
    username: str = ""
    #: file whose first line is the broker password
    password_file: str = ""


@dataclass(frozen=True)
class ClockConfig:
    #: run a tournament delay clock from the board's events (off: nothing about a clock is recorded)
    enabled: bool = False
    #: "per-point" (reserve_seconds for each point of the match length) or "fixed" (for the match)
    reserve: str = "per-point"
    #: seconds of reserve, per point or for the whole match as ``reserve`` says
    reserve_seconds: float = 120.0
    #: seconds of delay each time a player's time starts
    delay_seconds: float = 12.0
    #: "simple" (the reserve waits out the delay) or "bronstein" (the delay is given back after)
    delay: str = "simple"
    #: when a reserve runs out: "flag" (show it; the director decides) or "lose" (the match is lost)
    on_flag: str = "flag"


@dataclass(frozen=True)
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    match: MatchConfig = field(default_factory=MatchConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    panel: PanelConfig = field(default_factory=PanelConfig)
    record: RecordConfig = field(default_factory=RecordConfig)
    analysis: AnalysisConfig = field(default_factory=AnalysisConfig)
    network: NetworkConfig = field(default_factory=NetworkConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)


_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("match", "policy"): POLICIES,
    ("match", "variant"): VARIANTS,
    ("lights", "kind"): ("none", "fake", "pins", "serial"),
    ("buttons", "kind"): ("none", "fake", "pins", "serial"),
    ("analysis", "level"): ("0ply", "1ply", "2ply"),
    ("clock", "reserve"): ("per-point", "fixed"),
    ("clock", "delay"): ("simple", "bronstein"),
    ("clock", "on_flag"): ("flag", "lose"),
}


#: Bounds of numeric settings: a value outside them would wrap, divide by zero or never end.
_RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("camera", "width"): (16, 10_000),
    ("camera", "height"): (16, 10_000),
    ("camera", "fps"): (0.1, 120),
    ("camera", "exposure"): (0, 100_000),
    ("vision", "settle_seconds"): (0, 60),
    ("match", "length"): (0, MAX_LENGTH),
    ("panel", "port"): (0, 65535),
    ("clock", "reserve_seconds"): (1, 24 * 3600),
    ("clock", "delay_seconds"): (0, 600),
}


def _convert(section: str, key: str, default: Any, value: Any) -> Any:
    value = _convert_type(section, key, default, value)
    bounds = _RANGES.get((section, key))
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise ConfigError(
            f"[{section}] {key} = {value!r} is out of range: choose {bounds[0]:g} to {bounds[1]:g}"
        )
    return value


def _convert_type(section: str, key: str, default: Any, value: Any) -> Any:
    where = f"[{section}] {key}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, not {value!r}")
        return value
    if isinstance(default, int) and not isinstance(default, bool):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"{where} must be a whole number >= 0, not {value!r}")
        return value
    if isinstance(default, float):
        if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"{where} must be a number >= 0, not {value!r}")
        return float(value)
    if isinstance(default, tuple):
        if not (
            isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)
        ):
            raise ConfigError(f"{where} must be a list of two names, not {value!r}")
        return (value[0], value[1])
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be text, not {value!r}")
    choices = _CHOICES.get((section, key))
    if choices and value not in choices:
        raise ConfigError(f"{where} is {value!r}; choose one of {', '.join(choices)}")
    if (section, key) == ("panel", "language") and value and value not in LANGUAGES:
        raise ConfigError(
            f"{where} is {value!r}; choose one of {', '.join(LANGUAGES)}, or leave it empty"
        )
    if (section, key) == ("panel", "trusted_networks"):
        for network in filter(None, (part.strip() for part in value.split(","))):
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ConfigError(
                    f"{where}: {network!r} is not a network (like 192.168.1.0/24)"
                ) from None
    return value


def config_from_dict(data: dict[str, Any], base: Config | None = None) -> Config:
    """Overlay ``data`` (parsed TOML) on ``base`` (defaults when None); raises :class:`ConfigError`."""
    config = base or Config()
    sections = {f.name for f in fields(Config)}
    for section, values in data.items():
        if section not in sections:
            raise ConfigError(f"unknown section [{section}]; known: {', '.join(sorted(sections))}")
        if not isinstance(values, dict):
            raise ConfigError(f"[{section}] must be a table of settings")
        current = getattr(config, section)
        known = {f.name: getattr(current, f.name) for f in fields(current)}
        changes = {}
        for key, value in values.items():
            if key not in known:
                raise ConfigError(f"unknown setting [{section}] {key}; known: {', '.join(known)}")
            changes[key] = _convert(section, key, known[key], value)
        config = replace(config, **{section: replace(current, **changes)})
    return config


def load_config(path: str | Path | None) -> Config:
    """Read a TOML config file; None gives the defaults. Raises :class:`ConfigError`."""
    if path is None:
        return Config()
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError as error:
        raise ConfigError(f"config file {str(path)!r} does not exist") from error
    except OSError as error:
        raise ConfigError(f"cannot read the config file {str(path)!r}: {error.strerror}") from error
    except UnicodeDecodeError as error:
        raise ConfigError(f"config file {str(path)!r} is not UTF-8 text: {error.reason}") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {str(path)!r} is not valid TOML: {error}") from error
    return config_from_dict(data)


def to_toml(config: Config) -> str:
    """The config as TOML text (round-trips through :func:`load_config`)."""
    lines: list[str] = []
    for section_field in fields(config):
        section = getattr(config, section_field.name)
        lines.append(f"[{section_field.name}]")
        for item in fields(section):
            value = getattr(section, item.name)
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, int | float):
                text = repr(value)
            elif isinstance(value, tuple):
                text = "[" + ", ".join(f'"{v}"' for v in value) + "]"
            else:
                text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
            lines.append(f"{item.name} = {text}")
        lines.append("")
    return "\n".join(lines)
