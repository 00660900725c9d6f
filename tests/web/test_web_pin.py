"""Setting the admin PIN: only a hash is stored, and the app reads it from the PIN file."""

from __future__ import annotations

import argparse
import io
import stat
from pathlib import Path
from typing import Any

import pytest
from conftest import csrf_of
from werkzeug.security import check_password_hash

from web import create_app
from web.errors import PinError
from web.pin import add_arguments, default_pin_file, hash_pin, read_pin_file, run, write_pin_file


def test_hash_is_salted_scrypt_and_checks_the_pin() -> None:
    first, second = hash_pin("13579"), hash_pin("13579")
    assert first.startswith("scrypt:") and first != second
    assert "13579" not in first
    assert check_password_hash(first, "13579") and not check_password_hash(first, "13570")


@pytest.mark.parametrize(
    ("pin", "words"), [("123", "4 to 64"), ("x" * 65, "4 to 64"), (" 1234", "spaces")]
)
def test_unusable_pins_are_refused(pin: str, words: str) -> None:
    with pytest.raises(PinError, match=words):
        hash_pin(pin)


def test_pin_file_holds_only_the_hash_readable_by_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "config" / "panel-pin"
    written = write_pin_file(path, "8642")
    assert read_pin_file(path) == written
    assert "8642" not in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_pin_file(tmp_path / "missing") is None


def test_a_pin_file_with_something_else_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "panel-pin"
    path.write_text("8642\n")
    with pytest.raises(PinError, match="does not hold a PIN hash"):
        read_pin_file(path)


def test_command_reads_the_pin_from_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    path = tmp_path / "pin"
    monkeypatch.setattr("sys.stdin", io.StringIO("97531\n"))
    assert run(parser.parse_args(["--pin-file", str(path), "--stdin"])) == 0
    assert check_password_hash(path.read_text().strip(), "97531")
    assert str(path) in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    assert run(parser.parse_args(["--pin-file", str(path), "--stdin"])) == 1
    assert "4 to 64" in capsys.readouterr().err


def test_default_pin_file_follows_xdg_config_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_pin_file() == tmp_path / "sheshbesh" / "panel-pin"


def test_app_reads_the_pin_file(tmp_path: Path, config: dict[str, Any]) -> None:
    path = tmp_path / "panel-pin"
    write_pin_file(path, "5555")
    app = create_app(config | {"PIN_HASH": None, "PIN_FILE": str(path)})
    client = app.test_client()
    assert (
        client.post("/admin/login", data={"pin": "5555", "csrf_token": csrf_of(client)}).status_code
        == 302
    )


def test_app_refuses_to_start_with_a_broken_pin_file(
    tmp_path: Path, config: dict[str, Any]
) -> None:
    path = tmp_path / "panel-pin"
    path.write_text("plain text pin")
    with pytest.raises(PinError, match=str(path)):
        create_app(config | {"PIN_HASH": None, "PIN_FILE": str(path)})


def test_settings_come_from_the_environment_without_test_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SHESHBESH_PANEL_PORT", "9123")
    monkeypatch.setenv("SHESHBESH_PANEL_PIN_FILE", str(tmp_path / "none"))
    app = create_app()
    assert app.config["PORT"] == 9123
    assert app.config["SECRET_KEY"] and len(app.config["SECRET_KEY"]) == 64
