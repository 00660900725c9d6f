"""The udev rule of the LED controller: valid syntax and the stable name the config points at."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

RULE = Path(__file__).resolve().parents[2] / "deploy" / "99-sheshbesh-leds.rules"

#: keys udev only compares (== or !=)
MATCH_KEYS = {
    "ACTION",
    "DEVPATH",
    "KERNEL",
    "KERNELS",
    "SUBSYSTEM",
    "SUBSYSTEMS",
    "DRIVER",
    "DRIVERS",
    "ATTR",
    "ATTRS",
    "SYSCTL",
    "TAG",
    "TAGS",
    "TEST",
    "PROGRAM",
    "RESULT",
    "CONST",
}
#: keys udev only assigns (=, +=, -=, :=)
ASSIGN_KEYS = {
    "NAME",
    "SYMLINK",
    "OWNER",
    "GROUP",
    "MODE",
    "RUN",
    "LABEL",
    "GOTO",
    "IMPORT",
    "OPTIONS",
    "SECLABEL",
}
#: keys that may be compared or assigned
EITHER_KEYS = {"ENV", "ATTR", "SYSCTL", "TAG"}
#: keys that need an {argument}
ARGUMENT_KEYS = {"ATTR", "ATTRS", "ENV", "SYSCTL", "SECLABEL", "CONST"}

TOKEN = re.compile(r'\s*([A-Z_]+)(?:\{([^}]*)\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(,|$)')


def parse_rule_line(line: str) -> list[tuple[str, str | None, str, str]]:
    """One udev rule line as (key, argument, operator, value) tuples.

    Raises ValueError naming the fault: an unknown key, an operator the key does not take, a
    missing ``{argument}``, an unquoted value or a missing comma.
    """
    tokens: list[tuple[str, str | None, str, str]] = []
    position = 0
    while position < len(line):
        match = TOKEN.match(line, position)
        if match is None:
            raise ValueError(f"cannot read a 'KEY==\"value\"' at column {position + 1}: {line!r}")
        key, argument, operator, value, separator = match.groups()
        known = MATCH_KEYS | ASSIGN_KEYS | EITHER_KEYS
        if key not in known:
            raise ValueError(f"unknown key {key} in {line!r}")
        is_match = operator in ("==", "!=")
        if is_match and key in ASSIGN_KEYS:
            raise ValueError(f"{key} can only be assigned, not compared with {operator}")
        if not is_match and key in MATCH_KEYS and key not in EITHER_KEYS:
            raise ValueError(f"{key} can only be compared, not assigned with {operator}")
        if key in ARGUMENT_KEYS and not argument:
            raise ValueError(f"{key} needs an {{argument}}")
        tokens.append((key, argument, operator, value))
        position = match.end()
        if not separator and position < len(line):
            raise ValueError(f"missing comma before column {position + 1}: {line!r}")
    return tokens


def rule_lines(text: str) -> list[str]:
    """The rule lines of a rules file: comments and blank lines dropped, continuations joined."""
    joined = text.replace("\\\n", "")
    return [
        line.strip()
        for line in joined.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_rule_file_parses_and_names_the_pico() -> None:
    lines = rule_lines(RULE.read_text(encoding="utf-8"))
    assert len(lines) == 1
    tokens = {
        (key, argument, operator): value
        for key, argument, operator, value in parse_rule_line(lines[0])
    }
    assert tokens[("SUBSYSTEM", None, "==")] == "tty"
    assert tokens[("ATTRS", "idVendor", "==")] == "2e8a"
    assert tokens[("SYMLINK", None, "+=")] == "sheshbesh-leds"
    assert tokens[("GROUP", None, "=")] == "dialout"
    assert tokens[("MODE", None, "=")] == "0660"


def test_rule_file_name_sorts_after_the_system_rules() -> None:
    # udev reads rules in name order; 99- runs after the rules that set ID_* properties
    assert re.fullmatch(r"\d\d-[a-z0-9-]+\.rules", RULE.name)
    assert RULE.name >= "60-serial.rules"


@pytest.mark.parametrize(
    "line",
    [
        'SUBSYSTEM="tty", SYMLINK+="x"',  # a match key assigned
        'SUBSYSTEM=="tty", SYMLINK=="x"',  # an assign key compared
        'SUBSYSTEM=="tty" SYMLINK+="x"',  # missing comma
        "SUBSYSTEM==tty",  # unquoted
        'ATTRS=="2e8a"',  # no {argument}
        'SUBSYSTEMX=="tty"',  # unknown key
    ],
)
def test_parser_rejects_bad_rules(line: str) -> None:
    with pytest.raises(ValueError):
        parse_rule_line(line)


def test_udevadm_verify_accepts_the_rule() -> None:
    udevadm = shutil.which("udevadm")
    if udevadm is None:
        pytest.skip("udevadm is not installed (apt-get install udev)")
    probe = subprocess.run([udevadm, "verify", "--help"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("this udevadm has no 'verify' command (systemd 253 or later has it)")
    result = subprocess.run(
        [udevadm, "verify", str(RULE)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
