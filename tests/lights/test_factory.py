"""Choosing lights and buttons by name, the pin map file, the fakes, and lazy hardware imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.lights import (
    BUTTON_NAMES,
    ButtonError,
    Buttons,
    FakeButtons,
    FakeLights,
    Lights,
    LightsConfig,
    LightsConfigError,
    PinMapError,
    load_pinmap,
    open_buttons,
    open_lights,
    turn_scene,
)
from controller.lights.pinmap import DEFAULT_PINMAP
from controller.lights.scene import Scene
from sheshbesh.locations import LOCATIONS


def test_importing_the_package_touches_no_hardware() -> None:
    code = (
        "import sys, controller.lights\n"
        "controller.lights.open_lights('fake')\n"
        "print(sorted(m for m in ('gpiozero', 'serial', 'lgpio') if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_fake_lights_record_scenes() -> None:
    lights = open_lights("fake")
    assert isinstance(lights, FakeLights) and isinstance(lights, Lights)
    lights.show(turn_scene(0))
    lights.show(turn_scene(1))
    assert lights.scene == turn_scene(1)
    assert lights.history == [turn_scene(0), turn_scene(1)]
    assert lights.pixels()[27][3] != 0  # off-black pulses
    assert lights.describe() == {
        "bar-black": {"colour": "#c87828", "effect": "pulse", "light": "turn"},
        "off-black": {"colour": "#c87828", "effect": "pulse", "light": "turn"},
    }
    assert lights.link_status() == {"kind": "fake", "state": "connected", "scenes_shown": 2}
    lights.close()
    assert not lights.is_connected


def test_fake_buttons_deliver_presses_and_holds() -> None:
    got: list[str] = []
    buttons = open_buttons({"kind": "fake"}, got.append)
    assert isinstance(buttons, FakeButtons) and isinstance(buttons, Buttons)
    assert buttons.names == BUTTON_NAMES
    buttons.press("done")
    buttons.hold("resign")
    assert got == ["done", "resign-hold"]
    with pytest.raises(ButtonError, match="unknown button 'beaver'"):
        buttons.press("beaver")
    buttons.close()
    buttons.press("take")
    assert got == ["done", "resign-hold"]


def test_pins_kind_opens_gpiozero_devices(mock_factory: Any) -> None:
    lights = open_lights({"kind": "pins", "brightness": 0.5}, pin_factory=mock_factory)
    lights.show(turn_scene(1))
    assert lights.link_status()["kind"] == "pins"
    lights.close()
    got: list[str] = []
    buttons = open_buttons("pins", got.append, pin_factory=mock_factory)
    assert buttons.names == BUTTON_NAMES
    buttons.close()


def test_serial_kind_opens_a_link_and_shares_it_with_the_buttons(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-tty")
    lights = open_lights({"kind": "serial", "port": missing})
    try:
        status = lights.link_status()
        assert status["kind"] == "serial" and status["port"] == missing
        assert not lights.is_connected
        buttons = open_buttons({"kind": "serial", "port": missing}, print, lights=lights)
        assert buttons.link is lights.link  # type: ignore[attr-defined]
        buttons.close()
    finally:
        lights.close()


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("disco", "lights kind 'disco'"),
        ({"kind": "fake", "colour": "red"}, "unknown lights setting"),
        ({"kind": "fake", "brightness": 2}, "brightness 2"),
        ({"kind": "serial", "pinmap": "EMPTY"}, "serial lights need a port"),
    ],
)
def test_bad_configs_are_named(config: Any, message: str, tmp_path: Path) -> None:
    if isinstance(config, dict) and config.get("pinmap") == "EMPTY":
        empty = tmp_path / "pinmap.toml"
        empty.write_text("")
        config = {**config, "pinmap": str(empty)}
    with pytest.raises(LightsConfigError, match=message):
        open_lights(config)


def test_config_from_values() -> None:
    assert LightsConfig.from_value(None) == LightsConfig()
    config = LightsConfig(kind="serial", port="/dev/ttyACM0")
    assert LightsConfig.from_value(config) is config
    assert LightsConfig.from_value({"kind": "pins"}).kind == "pins"


def test_shipped_pin_map() -> None:
    pins = load_pinmap()
    assert set(pins.buttons) == set(BUTTON_NAMES)
    assert set(pins.leds) <= {
        "turn-white",
        "turn-black",
        "legal",
        "illegal",
        "cube-offer",
        "game-over",
    }
    used = list(pins.buttons.values()) + list(pins.leds.values())
    assert len(used) == len(set(used))
    assert not set(used) & {2, 3, 7, 8, 9, 10, 11, 14, 15}  # I2C, SPI and UART stay free
    assert pins.serial_ports == ("/dev/sheshbesh-leds", "/dev/serial/by-id/usb-MicroPython_*-if00")
    assert pins.source == str(DEFAULT_PINMAP)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[pi.buttons]\ndone = 5\nundo = 5\n", "GPIO 5 is used twice"),
        ("[pi.buttons]\nfire = 5\n", "names 'fire'"),
        ("[pi.leds]\np1 = 40\n", "pi.leds.p1 = 40 is not a GPIO 0..27"),
        ('[pi.leds]\np1 = "x"\n', "not a whole number"),
        ("[pi]\nbuttons = 3\n", r"\[pi.buttons\] must be a table"),
        ("[pi]\ndebounce_ms = 50\nhold_ms = 20\n", "hold_ms"),
        ("[pico]\nstrip_pin = 10\n[pico.buttons]\ndone = 10\n", "both the strip and a button"),
        ("[pico]\nled_count = 0\n", "led_count = 0"),
        ("[serial]\nport = 3\n", "serial.port = 3 is not a path"),
        ('[serial]\nport = [""]\n', "serial.port"),
        ("[pi\n", "not valid TOML"),
    ],
)
def test_pin_map_errors_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "pinmap.toml"
    path.write_text(text)
    with pytest.raises(PinMapError, match=message) as raised:
        load_pinmap(path)
    assert "pinmap.toml" in str(raised.value)


def test_missing_pin_map(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match="cannot read pin map"):
        load_pinmap(tmp_path / "absent.toml")


def test_config_from_a_settings_object_and_none_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class AppLights:  # the shape of the app's [lights] settings
        kind: str = "none"
        port: str = "/dev/ttyACM0"
        pinmap: str = "hardware/pinmap.toml"

    config = LightsConfig.from_value(AppLights())
    assert (config.kind, config.port, config.pinmap) == (
        "none",
        "/dev/ttyACM0",
        "hardware/pinmap.toml",
    )
    assert isinstance(open_lights(AppLights()), FakeLights)
    assert isinstance(open_buttons(AppLights()), FakeButtons)
    with pytest.raises(LightsConfigError, match="have no kind"):
        LightsConfig.from_value(3.5)


def test_relative_pin_map_is_found_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_pinmap("hardware/pinmap.toml").source == str(DEFAULT_PINMAP)


def test_bring_up_check_walks_every_led(capsys: pytest.CaptureFixture[str]) -> None:
    from controller.lights.check import main, walk_leds

    lights = FakeLights()
    said: list[str] = []
    shown = walk_leds(lights.show, 0.0, said.append, sleep=lambda seconds: None)
    assert shown == len(lights.history) == 28 + 6 + 1
    assert [list(scene.lit()) for scene in lights.history[:28]] == [[name] for name in LOCATIONS]
    assert said[0] == "LED  0: p1" and said[27] == "LED 27: off-black"
    assert lights.scene == Scene()
    assert main(["--kind", "fake", "--step", "0"]) == 0
    assert "LED 24: bar-white" in capsys.readouterr().out
    assert main(["--kind", "serial", "--pinmap", "/nonexistent/pinmap.toml"]) == 2
