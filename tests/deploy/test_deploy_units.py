"""The systemd units in deploy/: they parse, and they say what the installer and the Pi expect."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.table.config import load_config

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SERVICE = DEPLOY / "sheshbesh.service"
KIOSK = DEPLOY / "sheshbesh-kiosk.service"

#: settings that close /dev to the service (ProtectClock= implies DeviceAllow=char-rtc r)
DEVICE_CLOSING = ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock")


def parse_unit(text: str) -> dict[str, list[tuple[str, str]]]:
    """Sections of a unit file as lists of (key, value), repeated keys kept in order.

    Raises ValueError naming the line for anything that is not a section, a setting or a comment.
    """
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";")):
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            current = sections.setdefault(stripped[1:-1], [])
            continue
        key, equals, value = stripped.partition("=")
        if not equals or current is None or not key.strip().isidentifier():
            raise ValueError(f"line {number} is not 'Key=value' inside a section: {line!r}")
        current.append((key.strip(), value.strip()))
    return sections


def values(sections: dict[str, list[tuple[str, str]]], section: str, key: str) -> list[str]:
    return [value for name, value in sections.get(section, []) if name == key]


def single(sections: dict[str, list[tuple[str, str]]], section: str, key: str) -> str:
    found = values(sections, section, key)
    assert len(found) == 1, f"[{section}] {key} should be set once, found {found}"
    return found[0]


def systemd_verify(unit_files: list[Path], stub_root: Path) -> tuple[int, str]:
    """``systemd-analyze verify`` on copies whose programs are stubs under ``stub_root``.

    verify insists that each Exec command exists; on a build machine /opt/sheshbesh and cage do
    not, so each command path is redirected to an executable stub of the same name.
    """
    copies = stub_root / "units"
    copies.mkdir(parents=True, exist_ok=True)
    paths = []
    for unit_file in unit_files:
        lines = []
        for line in unit_file.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            if key.startswith("Exec") and value.startswith("/"):
                program = value.split()[0]
                stub = stub_root / "programs" / program.lstrip("/")
                stub.parent.mkdir(parents=True, exist_ok=True)
                stub.write_text("#!/bin/sh\n", encoding="utf-8")
                stub.chmod(0o755)
                line = f"{key}={stub}{value[len(program) :]}"
            lines.append(line)
        copy = copies / unit_file.name
        copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(copy)
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt-get install systemd); the INI checks still run",
)


@needs_systemd_analyze
def test_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    returncode, output = systemd_verify([SERVICE, KIOSK], tmp_path)
    assert returncode == 0, output
    # verify warns about unknown keys or bad values without failing: any word about our files is a fault
    mentions = [line for line in output.splitlines() if "sheshbesh" in line]
    assert mentions == [], output


@needs_systemd_analyze
def test_systemd_verify_catches_a_misspelt_key(tmp_path: Path) -> None:
    broken = tmp_path / "sheshbesh.service"
    broken.write_text(
        SERVICE.read_text(encoding="utf-8").replace("Restart=on-failure", "Restrat=on-failure"),
        encoding="utf-8",
    )
    _, output = systemd_verify([broken], tmp_path / "stubs")
    assert "Restrat" in output


def test_service_runs_the_referee_as_its_own_user() -> None:
    unit = parse_unit(SERVICE.read_text(encoding="utf-8"))
    command = shlex.split(single(unit, "Service", "ExecStart"))
    assert command == [
        "/opt/sheshbesh/bin/sheshbesh",
        "run",
        "--config",
        "/etc/sheshbesh/sheshbesh.toml",
    ]
    assert single(unit, "Service", "User") == "sheshbesh"
    assert single(unit, "Service", "Restart") == "on-failure"
    assert single(unit, "Service", "WorkingDirectory") == "/var/lib/sheshbesh"
    assert single(unit, "Service", "StateDirectory") == "sheshbesh"
    assert "GPIOZERO_PIN_FACTORY=lgpio" in values(unit, "Service", "Environment")
    assert single(unit, "Install", "WantedBy") == "multi-user.target"


def test_service_hardening_leaves_the_devices_open() -> None:
    unit = parse_unit(SERVICE.read_text(encoding="utf-8"))
    settings = dict(unit["Service"])
    assert settings["ProtectSystem"] == "strict"
    assert settings["NoNewPrivileges"] == "yes"
    assert [key for key in settings if key in DEVICE_CLOSING] == []
    # the device hot-plug events of libcamera and udev arrive over netlink
    assert "AF_NETLINK" in settings["RestrictAddressFamilies"].split()


def test_service_config_path_holds_a_valid_example() -> None:
    unit = parse_unit(SERVICE.read_text(encoding="utf-8"))
    command = shlex.split(single(unit, "Service", "ExecStart"))
    assert Path(command[command.index("--config") + 1]).name == "sheshbesh.toml"
    load_config(DEPLOY / "sheshbesh.toml")


def test_kiosk_starts_the_browser_after_the_referee() -> None:
    unit = parse_unit(KIOSK.read_text(encoding="utf-8"))
    assert "sheshbesh.service" in " ".join(values(unit, "Unit", "After")).split()
    assert "sheshbesh.service" in " ".join(values(unit, "Unit", "Wants")).split()
    assert single(unit, "Unit", "PartOf") == "sheshbesh.service"
    command = shlex.split(single(unit, "Service", "ExecStart"))
    assert command[0] == "/usr/bin/cage"
    assert command[-1] == "/opt/sheshbesh/libexec/sheshbesh-kiosk-browser"
    assert single(unit, "Service", "User") == "sheshbesh-kiosk"
    assert single(unit, "Service", "TTYPath") == "/dev/tty1"
    assert "getty@tty1.service" in single(unit, "Unit", "Conflicts").split()
    assert "SHESHBESH_PANEL_URL=http://127.0.0.1:8080/" in values(unit, "Service", "Environment")


@pytest.mark.parametrize(
    "text",
    ["ExecStart=/bin/true\n", "[Service]\nExecStart /bin/true\n", "[Service]\n=oops\n"],
    ids=["outside-section", "no-equals", "no-key"],
)
def test_parse_unit_names_the_bad_line(text: str) -> None:
    with pytest.raises(ValueError, match="line"):
        parse_unit(text)
